//! A file received in a `multipart/form-data` body.

use std::{cell::RefCell, fmt, io, path::Path};

use bytes::Bytes;
use futures_util::Stream;
use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error as _, ser::Error as _};
use tokio::io::AsyncRead;

use crate::{
    Validate,
    dto::check::FileValue,
    schema::{FileSchema, Registry, Schema, ToSchema},
};

/// A file a client sent as a part of a `multipart/form-data` body: a field
/// of a [`TypedFormData`](crate::TypedFormData) type (`File`,
/// `#[optional] Option<File>` or `Vec<File>`).
///
/// A small file is held in memory; a larger one was written to a temporary
/// file while it arrived, which is removed when the `File` is dropped,
/// unless [`persist`](File::persist) moved it first. Its limits are tags of
/// the field (`#[tags(max_size = 1_048_576, accept = ["image/*"])]`; on a
/// `Vec<File>`, `#[tags(max_items = 4, items(max_size = ..))]`), checked
/// as the file arrives.
///
/// The file name and media type are what the client says: show them, but
/// never use the name as a path.
///
/// ```
/// use framework::prelude::*;
///
/// #[dto]
/// struct Avatar {
///     /// Who it shows.
///     #[tags(min_length = 1)]
///     name: String,
///     /// A picture of at most 1 MiB.
///     #[tags(max_size = 1_048_576, accept = ["image/png", "image/jpeg"])]
///     picture: File,
/// }
///
/// struct Avatars;
///
/// #[controller("avatars")]
/// impl Avatars {
///     #[typed_route::post("")]
///     async fn upload(&self, form: TypedFormData<Avatar>) -> Result<String, ApiError> {
///         let picture = &form.picture;
///         let bytes = picture.bytes().await.map_err(ApiError::internal)?;
///         Ok(format!("{}: {} bytes of {}", form.name, bytes.len(), picture.media_type()))
///     }
/// }
/// ```
pub struct File {
    file_name: Option<String>,
    media_type: String,
    size: u64,
    content: Content,
}

/// Where a file's bytes are.
enum Content {
    Memory(Bytes),
    /// Removed when dropped.
    Disk(tempfile::TempPath),
}

impl File {
    pub(crate) fn in_memory(file_name: Option<String>, media_type: String, bytes: Bytes) -> Self {
        File {
            file_name,
            media_type,
            size: bytes.len() as u64,
            content: Content::Memory(bytes),
        }
    }

    pub(crate) fn on_disk(
        file_name: Option<String>,
        media_type: String,
        size: u64,
        path: tempfile::TempPath,
    ) -> Self {
        File {
            file_name,
            media_type,
            size,
            content: Content::Disk(path),
        }
    }

    /// The file's name as the client gave it (`filename` of the part), if
    /// any. Not a path to write to.
    pub fn file_name(&self) -> Option<&str> {
        self.file_name.as_deref()
    }

    /// The media type the client gave the part (`Content-Type`), or
    /// `application/octet-stream` when it gave none.
    pub fn media_type(&self) -> &str {
        &self.media_type
    }

    /// The size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Whether the file is held in memory rather than in a temporary file.
    pub fn is_in_memory(&self) -> bool {
        matches!(self.content, Content::Memory(_))
    }

    /// The whole file, read into memory.
    ///
    /// # Errors
    /// The temporary file could not be read.
    pub async fn bytes(&self) -> io::Result<Bytes> {
        match &self.content {
            Content::Memory(bytes) => Ok(bytes.clone()),
            Content::Disk(path) => tokio::fs::read(path).await.map(Bytes::from),
        }
    }

    /// A reader of the file's bytes, from the start.
    ///
    /// # Errors
    /// The temporary file could not be opened.
    pub async fn reader(&self) -> io::Result<impl AsyncRead + Send + Unpin + 'static> {
        Ok(match &self.content {
            Content::Memory(bytes) => {
                tokio_util::either::Either::Left(io::Cursor::new(bytes.clone()))
            }
            Content::Disk(path) => {
                tokio_util::either::Either::Right(tokio::fs::File::open(path).await?)
            }
        })
    }

    /// The file's bytes as a stream of chunks, e.g. to copy them elsewhere
    /// without holding them whole.
    ///
    /// # Errors
    /// The temporary file could not be opened.
    pub async fn stream(
        &self,
    ) -> io::Result<impl Stream<Item = io::Result<Bytes>> + Send + 'static> {
        Ok(tokio_util::io::ReaderStream::new(self.reader().await?))
    }

    /// Moves the file to `path` (replacing what is there): a rename of the
    /// temporary file where it can be, a copy across file systems, a write
    /// for a file held in memory. The file is then no longer temporary.
    ///
    /// # Errors
    /// It could not be written at `path`; the temporary file is removed.
    pub async fn persist(self, path: impl AsRef<Path>) -> io::Result<()> {
        let target = path.as_ref().to_owned();
        match self.content {
            Content::Memory(bytes) => tokio::fs::write(&target, &bytes).await,
            Content::Disk(temp) => {
                let source = temp.to_path_buf();
                match tokio::fs::rename(&source, &target).await {
                    Ok(()) => {
                        // Renamed: nothing is left to remove.
                        let _kept = temp.keep();
                        Ok(())
                    }
                    // Another file system: copy, then drop the original.
                    Err(_) => tokio::fs::copy(&source, &target).await.map(drop),
                }
            }
        }
    }
}

impl fmt::Debug for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("File")
            .field("file_name", &self.file_name)
            .field("media_type", &self.media_type)
            .field("size", &self.size)
            .field("in_memory", &self.is_in_memory())
            .finish()
    }
}

impl FileValue for File {
    fn size(&self) -> u64 {
        self.size
    }

    fn media_type(&self) -> &str {
        &self.media_type
    }
}

impl Validate for File {
    #[inline]
    fn is_valid(&self) -> bool {
        true
    }
}

impl ToSchema for File {
    fn schema(_: &mut Registry) -> Schema {
        Schema::File(FileSchema::default())
    }
}

/// A `File` has no JSON form: an answer with one is a `500`.
impl Serialize for File {
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(S::Error::custom(
            "a `File` has no JSON form; answer a file with `StreamedFile`",
        ))
    }
}

/// As its [`Serialize`]: an answer with a `File` is a `500`.
impl crate::WriteJson for File {
    fn write_json(&self, _: &mut Vec<u8>) -> Result<(), crate::JsonError> {
        Err(<crate::JsonError as serde::ser::Error>::custom(
            "a `File` has no JSON form; answer a file with `StreamedFile`",
        ))
    }
}

/// Read only from a [`TypedFormData`](crate::TypedFormData) body, which
/// lends its files while it decodes the form.
impl<'de> Deserialize<'de> for File {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let token = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        claim(&token).ok_or_else(|| {
            D::Error::custom(
                "expected a file: a `File` is read from a part of a `multipart/form-data` body (`TypedFormData`)",
            )
        })
    }
}

thread_local! {
    /// The files of the form being decoded on this thread.
    static LENT: RefCell<Vec<Option<File>>> = const { RefCell::new(Vec::new()) };
}

const TOKEN_PREFIX: &str = "file:";

/// The text that stands for the `index`-th lent file in the decoded form.
pub(crate) fn token(index: usize) -> String {
    format!("{TOKEN_PREFIX}{index}")
}

/// Runs `decode` (synchronous) with `files` lent to `File`'s
/// `Deserialize`, then takes back the files it did not claim.
pub(crate) fn lend<R>(files: &mut Vec<Option<File>>, decode: impl FnOnce() -> R) -> R {
    struct Return<'a>(&'a mut Vec<Option<File>>);
    impl Drop for Return<'_> {
        fn drop(&mut self) {
            *self.0 = LENT.with(|lent| std::mem::take(&mut *lent.borrow_mut()));
        }
    }
    LENT.with(|lent| *lent.borrow_mut() = std::mem::take(files));
    let _back = Return(files);
    decode()
}

fn claim(token: &str) -> Option<File> {
    let index: usize = token.strip_prefix(TOKEN_PREFIX)?.parse().ok()?;
    LENT.with(|lent| lent.borrow_mut().get_mut(index)?.take())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &'static str) -> File {
        File::in_memory(Some("a.txt".into()), "text/plain".into(), Bytes::from(text))
    }

    #[test]
    fn files_are_claimed_once_while_lent() {
        let mut files = vec![Some(file("one")), Some(file("two"))];
        let (first, again, other) = lend(&mut files, || {
            let first = claim(&token(1));
            (first, claim(&token(1)), claim("file:x"))
        });
        assert_eq!(first.unwrap().size(), 3);
        assert!(again.is_none());
        assert!(other.is_none());
        assert!(files[0].is_some(), "the unclaimed file is given back");
        assert!(files[1].is_none());
        assert!(claim(&token(0)).is_none(), "nothing is lent outside `lend`");
    }

    #[test]
    fn a_file_is_not_read_from_json() {
        let err = serde_json::from_str::<File>("\"file:0\"").unwrap_err();
        assert!(err.to_string().contains("multipart/form-data"), "{err}");
        assert!(serde_json::to_string(&file("x")).is_err());
    }

    #[tokio::test]
    async fn a_file_in_memory_is_read_and_persisted() {
        let dir = tempfile::tempdir().unwrap();
        let upload = file("hello");
        assert_eq!(upload.bytes().await.unwrap(), "hello");
        let target = dir.path().join("kept.txt");
        upload.persist(&target).await.unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"hello");
    }

    #[tokio::test]
    async fn a_temporary_file_is_removed_on_drop_unless_persisted() {
        let dir = tempfile::tempdir().unwrap();
        let temp = |text: &str| {
            let path = tempfile::NamedTempFile::new_in(dir.path())
                .unwrap()
                .into_temp_path();
            std::fs::write(&path, text).unwrap();
            path
        };
        let dropped = temp("gone");
        let dropped_path = dropped.to_path_buf();
        drop(File::on_disk(None, "text/plain".into(), 4, dropped));
        assert!(!dropped_path.exists());

        let kept = File::on_disk(None, "text/plain".into(), 4, temp("kept"));
        assert!(!kept.is_in_memory());
        assert_eq!(kept.bytes().await.unwrap(), "kept");
        let target = dir.path().join("kept.txt");
        kept.persist(&target).await.unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"kept");
    }
}
