//! What a file answer says of itself, for [`Download`](super::Download) and
//! [`StreamedFile`](super::StreamedFile) alike: its media type, and its
//! name for `Content-Disposition` (to save it or to show it).

use http::HeaderValue;

use crate::error::ApiError;

/// The media type of bytes that say nothing of themselves.
pub(super) const OCTETS: &str = "application/octet-stream";

/// A file answer's media type and `Content-Disposition`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct FileNaming {
    pub(super) media_type: String,
    pub(super) disposition: Option<(&'static str, String)>,
}

impl Default for FileNaming {
    fn default() -> Self {
        FileNaming {
            media_type: OCTETS.to_owned(),
            disposition: None,
        }
    }
}

impl FileNaming {
    /// The `Content-Type` and `Content-Disposition` values, or the `500` a
    /// media type or a file name that cannot be a header gives.
    pub(super) fn header_values(&self) -> Result<(HeaderValue, Option<HeaderValue>), ApiError> {
        let media_type = HeaderValue::try_from(self.media_type.as_str()).map_err(|_| {
            ApiError::internal(format_args!("{:?} is not a media type", self.media_type))
        })?;
        let disposition = match &self.disposition {
            Some((kind, filename)) => Some(
                content_disposition(kind, filename)
                    .ok_or_else(|| ApiError::internal("a file name cannot be a header"))?,
            ),
            None => None,
        };
        Ok((media_type, disposition))
    }
}

/// The builder methods of a file answer whose `naming` field is a
/// [`FileNaming`], written once for both.
macro_rules! file_naming_methods {
    () => {
        /// The media type, e.g. `image/png` (`application/octet-stream`
        /// unless set).
        #[must_use]
        pub fn media_type(mut self, media_type: impl Into<String>) -> Self {
            self.naming.media_type = media_type.into();
            self
        }

        /// To be saved as `filename`.
        #[must_use]
        pub fn attachment(mut self, filename: impl Into<String>) -> Self {
            self.naming.disposition = Some(("attachment", filename.into()));
            self
        }

        /// To be shown, named `filename`.
        #[must_use]
        pub fn inline(mut self, filename: impl Into<String>) -> Self {
            self.naming.disposition = Some(("inline", filename.into()));
            self
        }
    };
}
pub(super) use file_naming_methods;

/// `attachment; filename="a.txt"`, with RFC 6266's `filename*` for a name
/// that is not plain ASCII.
pub(super) fn content_disposition(kind: &str, filename: &str) -> Option<HeaderValue> {
    let plain = filename
        .chars()
        .all(|c| c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ');
    let value = if plain {
        format!("{kind}; filename=\"{filename}\"")
    } else {
        let fallback: String = filename
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let encoded =
            percent_encoding::utf8_percent_encode(filename, percent_encoding::NON_ALPHANUMERIC);
        format!("{kind}; filename=\"{fallback}\"; filename*=UTF-8''{encoded}")
    };
    HeaderValue::try_from(value).ok()
}

#[cfg(test)]
mod tests {
    use super::content_disposition;

    #[test]
    fn encodes_names_that_are_not_ascii() {
        assert_eq!(
            content_disposition("attachment", "résumé 1.pdf").unwrap(),
            "attachment; filename=\"r_sum__1.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9%201%2Epdf"
        );
        assert_eq!(
            content_disposition("inline", "a\"b.txt").unwrap(),
            "inline; filename=\"a_b.txt\"; filename*=UTF-8''a%22b%2Etxt"
        );
    }
}
