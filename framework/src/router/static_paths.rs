//! One method's routes without parameters, by path. A path is looked up by
//! its length and two words of its bytes ([`Key`]): they hold every byte
//! of a path of up to 16, the length of most routes', which the key then
//! decides alone; a longer path is also compared whole. A bit per length
//! lets a path no such route has the length of (as most with parameters)
//! skip the hash altogether.

use std::hash::{BuildHasher, Hasher};

use foldhash::fast::RandomState;
use hashbrown::HashTable;

/// A path's length and up to 16 of its bytes, as two words: its first and
/// last eight (overlapping below 16; four and four below 8; three bytes
/// below 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    length: usize,
    words: [u64; 2],
}

impl Key {
    #[inline]
    fn of(path: &str) -> Key {
        let bytes = path.as_bytes();
        let length = bytes.len();
        let words = match (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
            (Some(first), Some(last)) => [u64::from_le_bytes(*first), u64::from_le_bytes(*last)],
            _ => match (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
                (Some(first), Some(last)) => [
                    u64::from(u32::from_le_bytes(*first)),
                    u64::from(u32::from_le_bytes(*last)),
                ],
                _ => [
                    bytes
                        .iter()
                        .fold(0, |word, byte| word << 8 | u64::from(*byte)),
                    0,
                ],
            },
        };
        Key { length, words }
    }

    /// Whether the key holds every byte of its path.
    fn is_whole(self) -> bool {
        self.length <= 16
    }
}

/// A route without parameters.
#[derive(Debug)]
struct Entry {
    key: Key,
    path: Box<str>,
    value: usize,
}

/// One method's routes without parameters: each path with what the
/// method's tree holds for it.
#[derive(Debug, Default)]
pub(super) struct StaticPaths {
    table: HashTable<Entry>,
    state: RandomState,
    /// A bit per path length (lengths of 63 and more share the last).
    lengths: u64,
}

/// The bit of a path's length in [`StaticPaths::lengths`].
#[inline]
fn length_bit(length: usize) -> u64 {
    1 << length.min(63)
}

impl StaticPaths {
    /// Adds `path` (replacing what it held, if it was there).
    pub(super) fn insert(&mut self, path: &str, value: usize) {
        let key = Key::of(path);
        let hash = self.hash(key);
        let entry = Entry {
            key,
            path: path.into(),
            value,
        };
        match self
            .table
            .find_mut(hash, |held| held.key == key && *held.path == *path)
        {
            Some(held) => *held = entry,
            None => {
                let state = self.state.clone();
                self.table
                    .insert_unique(hash, entry, |held| hash_with(&state, held.key));
            }
        }
        self.lengths |= length_bit(path.len());
    }

    /// What `path` holds, if it is one of these routes.
    #[inline]
    pub(super) fn get(&self, path: &str) -> Option<usize> {
        if self.lengths & length_bit(path.len()) == 0 {
            return None;
        }
        let key = Key::of(path);
        self.table
            .find(self.hash(key), |held| {
                held.key == key && (key.is_whole() || *held.path == *path)
            })
            .map(|held| held.value)
    }

    /// Every path with what it holds.
    #[cfg(test)]
    pub(super) fn iter(&self) -> impl Iterator<Item = (&str, usize)> {
        self.table.iter().map(|held| (&*held.path, held.value))
    }

    #[inline]
    fn hash(&self, key: Key) -> u64 {
        hash_with(&self.state, key)
    }
}

#[inline]
fn hash_with(state: &RandomState, key: Key) -> u64 {
    let mut hasher = state.build_hasher();
    hasher.write_u64(key.words[0]);
    hasher.write_u64(key.words[1] ^ key.length as u64);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every path of up to 16 bytes has a key of its own, and longer ones
    /// sharing their first and last eight bytes are told apart whole.
    #[test]
    fn paths_are_found_by_their_key_and_told_apart() {
        let mut paths: Vec<String> = vec![String::new(), "/".into(), "ab".into(), "ba".into()];
        for length in 1..=40 {
            for byte in [b'a', b'b'] {
                for at in 0..length {
                    let mut path = vec![b'x'; length];
                    path[at] = byte;
                    paths.push(String::from_utf8(path).unwrap());
                }
            }
        }
        paths.sort();
        paths.dedup();
        let mut table = StaticPaths::default();
        for (value, path) in paths.iter().enumerate() {
            table.insert(path, value);
        }
        for (value, path) in paths.iter().enumerate() {
            assert_eq!(table.get(path), Some(value), "{path:?}");
            let mut other = path.clone();
            other.push('y');
            assert_eq!(table.get(&other), None, "{other:?}");
        }
        table.insert("/a", 7);
        assert_eq!(table.get("/a"), Some(7));
        assert_eq!(table.iter().count(), paths.len() + 1);
    }
}
