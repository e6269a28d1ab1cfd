//! API versions ([`ApiVersion`]) and the versions a route serves
//! ([`VersionRange`]): `versions = "1.0.0".."2.0.0"` in a route or
//! controller attribute, as dropshot declares them.

use std::{fmt, str::FromStr};

/// A version of an app's API: `MAJOR.MINOR.PATCH`, ordered as semantic
/// versions are (without pre-release or build parts).
///
/// ```
/// use framework::ApiVersion;
///
/// let v2: ApiVersion = "2.0.0".parse().unwrap();
/// assert_eq!(v2, ApiVersion::new(2, 0, 0));
/// assert!(ApiVersion::new(1, 10, 0) < v2);
/// assert_eq!(v2.to_string(), "2.0.0");
/// assert!("2.0".parse::<ApiVersion>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ApiVersion {
    major: u64,
    minor: u64,
    patch: u64,
}

impl ApiVersion {
    /// `major.minor.patch`.
    pub const fn new(major: u64, minor: u64, patch: u64) -> Self {
        ApiVersion {
            major,
            minor,
            patch,
        }
    }

    /// Whether `self` comes before `other`, usable in `const` code.
    const fn before(self, other: ApiVersion) -> bool {
        if self.major != other.major {
            return self.major < other.major;
        }
        if self.minor != other.minor {
            return self.minor < other.minor;
        }
        self.patch < other.patch
    }
}

impl fmt::Display for ApiVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// Why a text is not an [`ApiVersion`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a version: write three numbers, `MAJOR.MINOR.PATCH` (`2.0.0`)")]
pub struct InvalidVersion {
    text: String,
}

impl FromStr for ApiVersion {
    type Err = InvalidVersion;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse(text.as_bytes()).ok_or_else(|| InvalidVersion {
            text: text.to_owned(),
        })
    }
}

/// `MAJOR.MINOR.PATCH`, each a number without leading zeros: the one rule
/// both [`ApiVersion::from_str`] and the versions routes write
/// ([`version`]) are read by.
const fn parse(text: &[u8]) -> Option<ApiVersion> {
    let mut numbers = [0u64; 3];
    let mut part = 0;
    let mut digits = 0;
    let mut index = 0;
    while index <= text.len() {
        let byte = if index < text.len() {
            text[index]
        } else {
            b'.'
        };
        if byte == b'.' {
            if digits == 0 || part == 3 {
                return None;
            }
            part += 1;
            digits = 0;
        } else if byte.is_ascii_digit() && part < 3 {
            if digits > 0 && numbers[part] == 0 {
                return None;
            }
            let Some(number) = numbers[part].checked_mul(10) else {
                return None;
            };
            let Some(number) = number.checked_add((byte - b'0') as u64) else {
                return None;
            };
            numbers[part] = number;
            digits += 1;
        } else {
            return None;
        }
        index += 1;
    }
    if part != 3 {
        return None;
    }
    Some(ApiVersion::new(numbers[0], numbers[1], numbers[2]))
}

/// The version `text` writes, read at compile time: what a route's
/// `versions = "1.0.0"..` expands to. Refuses the route (the build fails
/// at its attribute) when `text` is not `MAJOR.MINOR.PATCH`.
#[doc(hidden)]
pub const fn version(text: &str) -> ApiVersion {
    match parse(text.as_bytes()) {
        Some(version) => version,
        None => {
            panic!("a version in `versions = ..` is not `MAJOR.MINOR.PATCH`: write `\"2.0.0\"`")
        }
    }
}

impl serde::Serialize for ApiVersion {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for ApiVersion {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The versions a route serves: from a version (included) until another
/// (excluded), either end open. `versions = "1.0.0".."2.0.0"` on a route,
/// `"2.0.0"..` from 2.0.0 on, `.."2.0.0"` before it; a route without
/// `versions` serves [`VersionRange::ALL`]. A controller's `versions`
/// narrow each of its routes'.
///
/// ```
/// use framework::{ApiVersion, VersionRange};
///
/// const V1: ApiVersion = ApiVersion::new(1, 0, 0);
/// const V2: ApiVersion = ApiVersion::new(2, 0, 0);
/// let old = VersionRange::until(V2);
/// assert!(old.contains(V1) && !old.contains(V2));
/// assert!(VersionRange::from(V2).contains(ApiVersion::new(3, 1, 0)));
/// assert!(!old.overlaps(VersionRange::from(V2)));
/// assert_eq!(old.to_string(), "..2.0.0");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VersionRange {
    from: Option<ApiVersion>,
    until: Option<ApiVersion>,
}

impl VersionRange {
    /// Every version: a route that does not say.
    pub const ALL: VersionRange = VersionRange {
        from: None,
        until: None,
    };

    /// `from..until`, either end open (`None`).
    pub const fn new(from: Option<ApiVersion>, until: Option<ApiVersion>) -> Self {
        VersionRange { from, until }
    }

    /// `from..`: `from` and every later version.
    pub const fn from(from: ApiVersion) -> Self {
        VersionRange::new(Some(from), None)
    }

    /// `..until`: every version before `until`.
    pub const fn until(until: ApiVersion) -> Self {
        VersionRange::new(None, Some(until))
    }

    /// The first version served, if the range has one.
    pub const fn first(&self) -> Option<ApiVersion> {
        self.from
    }

    /// The first version no longer served, if the range has one.
    pub const fn end(&self) -> Option<ApiVersion> {
        self.until
    }

    /// Whether a route of this range serves `version`.
    pub const fn contains(&self, version: ApiVersion) -> bool {
        let after_start = match self.from {
            Some(from) => !version.before(from),
            None => true,
        };
        let before_end = match self.until {
            Some(until) => version.before(until),
            None => true,
        };
        after_start && before_end
    }

    /// Whether it serves no version at all (`"2.0.0".."1.0.0"`).
    pub const fn is_empty(&self) -> bool {
        match (self.from, self.until) {
            (Some(from), Some(until)) => !from.before(until),
            _ => false,
        }
    }

    /// Whether it is [`VersionRange::ALL`].
    pub const fn is_all(&self) -> bool {
        self.from.is_none() && self.until.is_none()
    }

    /// The versions both serve: a controller's range narrowing its route's.
    pub const fn within(self, outer: VersionRange) -> VersionRange {
        let from = match (self.from, outer.from) {
            (Some(a), Some(b)) if a.before(b) => Some(b),
            (Some(a), _) => Some(a),
            (None, b) => b,
        };
        let until = match (self.until, outer.until) {
            (Some(a), Some(b)) if b.before(a) => Some(b),
            (Some(a), _) => Some(a),
            (None, b) => b,
        };
        VersionRange { from, until }
    }

    /// Whether some version is in both.
    pub const fn overlaps(&self, other: VersionRange) -> bool {
        !self.within(other).is_empty()
    }
}

impl fmt::Display for VersionRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(from) = self.from {
            write!(f, "{from}")?;
        }
        f.write_str("..")?;
        if let Some(until) = self.until {
            write!(f, "{until}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const V1: ApiVersion = ApiVersion::new(1, 0, 0);
    const V2: ApiVersion = ApiVersion::new(2, 0, 0);
    const V3: ApiVersion = ApiVersion::new(3, 0, 0);

    #[test]
    fn parses_three_numbers_only() {
        assert_eq!("10.2.33".parse(), Ok(ApiVersion::new(10, 2, 33)));
        for bad in [
            "",
            "1",
            "1.0",
            "1.0.0.0",
            "1.0.x",
            "01.0.0",
            "1.0.0-rc1",
            " 1.0.0",
            "1..0",
        ] {
            assert!(bad.parse::<ApiVersion>().is_err(), "{bad:?}");
        }
        assert_eq!(
            "v2".parse::<ApiVersion>().unwrap_err().to_string(),
            "\"v2\" is not a version: write three numbers, `MAJOR.MINOR.PATCH` (`2.0.0`)"
        );
    }

    #[test]
    fn orders_as_numbers() {
        assert!(ApiVersion::new(1, 9, 0) < ApiVersion::new(1, 10, 0));
        assert!(ApiVersion::new(1, 9, 0).before(ApiVersion::new(1, 10, 0)));
        assert!(!V2.before(V2));
    }

    #[test]
    fn ranges_are_half_open_and_narrow() {
        let range = VersionRange::new(Some(V1), Some(V3));
        assert!(range.contains(V1) && range.contains(V2) && !range.contains(V3));
        assert_eq!(
            VersionRange::from(V2).within(range),
            VersionRange::new(Some(V2), Some(V3))
        );
        assert_eq!(
            VersionRange::until(V2).within(range),
            VersionRange::new(Some(V1), Some(V2))
        );
        assert_eq!(VersionRange::ALL.within(range), range);
        assert!(
            VersionRange::until(V1)
                .within(VersionRange::from(V2))
                .is_empty()
        );
        assert!(VersionRange::ALL.overlaps(VersionRange::until(V1)));
        assert_eq!(VersionRange::ALL.to_string(), "..");
        assert_eq!(range.to_string(), "1.0.0..3.0.0");
    }
}
