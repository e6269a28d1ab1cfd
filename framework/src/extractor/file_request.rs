//! What a request for a file asks: a byte range, and the conditions under
//! which to send the file at all.

use http::{HeaderValue, Method, header};
use httpdate::HttpDate;

use super::FromRequestParts;
use crate::{
    describe::{InputKind, InputMeta},
    error::ApiError,
    error::refusal,
    request::RequestContext,
};

/// The headers of a request that decide how a file is sent: `Range` and
/// `If-Range` (a part of it, `206`), `If-None-Match` and
/// `If-Modified-Since` (not at all, `304`). Pass it to
/// [`StreamedFile::open`](crate::StreamedFile::open), which weighs them
/// against the file's length, `ETag` and modification time.
///
/// It is an extractor rather than something the answer reads by itself
/// because an answer is built from the handler's return value alone; the
/// request's headers reach it through the handler, visibly, as every other
/// input does. The route documents `416` (a range beyond the file's end).
///
/// ```
/// use framework::prelude::*;
/// use framework::{FileRequest, StreamedFile};
///
/// struct Files { dir: std::path::PathBuf }
///
/// #[controller("files")]
/// impl Files {
///     /// A stored file, streamed from disk.
///     #[typed_route::get(":name")]
///     async fn at(&self, #[param] name: String, request: FileRequest) -> Result<StreamedFile, ApiError> {
///         if name.contains(['/', '\\']) || name.starts_with('.') {
///             return Err(ApiError::not_found("no such file"));
///         }
///         Ok(StreamedFile::open(self.dir.join(&name), &request).await?.attachment(name))
///     }
/// }
/// ```
#[derive(Clone, Debug, Default)]
pub struct FileRequest {
    /// `GET` or `HEAD`: the only methods ranges and `304` apply to.
    reads: bool,
    if_none_match: Option<HeaderValue>,
    if_modified_since: Option<HttpDate>,
    range: Option<HeaderValue>,
    if_range: Option<HeaderValue>,
}

/// What to send of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Selection {
    /// All of it.
    Whole,
    /// Bytes `start..=end`.
    Part { start: u64, end: u64 },
    /// Nothing: the client's copy is current (`304`).
    NotModified,
    /// Nothing: the range is beyond the end (`416`).
    Unsatisfiable,
}

/// A file's validators.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Validators<'a> {
    pub(crate) length: u64,
    /// The strong entity tag, quotes included.
    pub(crate) etag: Option<&'a str>,
    pub(crate) modified: Option<HttpDate>,
}

impl FileRequest {
    /// A request for the whole file, with no conditions.
    pub fn whole() -> Self {
        FileRequest {
            reads: true,
            ..FileRequest::default()
        }
    }

    /// Reads the conditional and range headers of a request.
    pub fn from_headers(method: &Method, headers: &http::HeaderMap) -> Self {
        FileRequest {
            reads: method == Method::GET || method == Method::HEAD,
            if_none_match: headers.get(header::IF_NONE_MATCH).cloned(),
            if_modified_since: headers
                .get(header::IF_MODIFIED_SINCE)
                .and_then(|value| value.to_str().ok())
                .and_then(|value| value.parse().ok()),
            range: headers.get(header::RANGE).cloned(),
            if_range: headers.get(header::IF_RANGE).cloned(),
        }
    }

    /// What to send of a file with `validators`, by RFC 9110's order:
    /// `If-None-Match` (or, without it, `If-Modified-Since`), then `Range`
    /// if `If-Range` still holds. A `Range` that does not parse, or that
    /// asks for several ranges, is ignored: the whole file is sent.
    pub(crate) fn decide(&self, file: Validators<'_>) -> Selection {
        if !self.reads {
            return Selection::Whole;
        }
        if let Some(tags) = &self.if_none_match {
            if none_match(tags, file.etag) {
                return Selection::NotModified;
            }
        } else if let (Some(since), Some(modified)) = (self.if_modified_since, file.modified)
            && modified <= since
        {
            return Selection::NotModified;
        }
        let Some(range) = self.range.as_ref().and_then(|value| value.to_str().ok()) else {
            return Selection::Whole;
        };
        if let Some(condition) = &self.if_range
            && !if_range_holds(condition, file)
        {
            return Selection::Whole;
        }
        parse_range(range, file.length)
    }
}

/// Whether `If-None-Match: tags` matches `etag` (weak comparison).
fn none_match(tags: &HeaderValue, etag: Option<&str>) -> bool {
    let Some(etag) = etag else {
        return false;
    };
    let Ok(tags) = tags.to_str() else {
        return false;
    };
    let opaque = |tag: &str| tag.trim().trim_start_matches("W/").to_owned();
    tags.trim() == "*" || tags.split(',').any(|tag| opaque(tag) == opaque(etag))
}

/// Whether `If-Range: condition` still names this file: its strong entity
/// tag, or exactly its modification date.
fn if_range_holds(condition: &HeaderValue, file: Validators<'_>) -> bool {
    let Ok(condition) = condition.to_str() else {
        return false;
    };
    let condition = condition.trim();
    if condition.starts_with('"') {
        file.etag == Some(condition)
    } else if condition.starts_with("W/") {
        false
    } else {
        condition
            .parse::<HttpDate>()
            .ok()
            .zip(file.modified)
            .is_some_and(|(date, modified)| date == modified)
    }
}

/// One byte range of a file of `length` bytes: `bytes=0-99`, `bytes=100-`,
/// `bytes=-100`.
fn parse_range(range: &str, length: u64) -> Selection {
    let Some((unit, spec)) = range.trim().split_once('=') else {
        return Selection::Whole;
    };
    if !unit.trim().eq_ignore_ascii_case("bytes") || spec.contains(',') {
        return Selection::Whole;
    }
    let Some((first, last)) = spec.trim().split_once('-') else {
        return Selection::Whole;
    };
    let number = |text: &str| {
        let text = text.trim();
        (!text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit()))
            .then(|| text.parse::<u64>().ok())
            .flatten()
    };
    match (number(first), number(last), last.trim().is_empty()) {
        (Some(start), Some(end), _) if start <= end => {
            if start >= length {
                Selection::Unsatisfiable
            } else {
                Selection::Part {
                    start,
                    end: end.min(length - 1),
                }
            }
        }
        (Some(start), None, true) => {
            if start >= length {
                Selection::Unsatisfiable
            } else {
                Selection::Part {
                    start,
                    end: length - 1,
                }
            }
        }
        (None, Some(suffix), _) if first.trim().is_empty() => {
            if suffix == 0 || length == 0 {
                Selection::Unsatisfiable
            } else {
                Selection::Part {
                    start: length.saturating_sub(suffix),
                    end: length - 1,
                }
            }
        }
        _ => Selection::Whole,
    }
}

/// The headers a [`FileRequest`] reads, as its route documents them: the
/// OpenAPI document's header parameters, and the typed headers a call takes
/// in the SDKs. Every one may be left out.
#[macros::dto]
#[serde(rename_all = "kebab-case")]
pub struct FileConditions {
    /// One range of bytes to send (`206`): `bytes=0-1023`, `bytes=1024-`,
    /// `bytes=-500` (the last 500).
    #[optional]
    pub range: Option<String>,
    /// The `ETag` (or `Last-Modified` date) of the file the `Range` is of:
    /// when the file changed since, all of it is sent.
    #[optional]
    pub if_range: Option<String>,
    /// The `ETag`s of copies the client holds: `304` when one is current.
    #[optional]
    pub if_none_match: Option<String>,
    /// The `Last-Modified` date of the client's copy: `304` when the file
    /// did not change since (`If-None-Match` wins when both are sent).
    #[optional]
    pub if_modified_since: Option<String>,
}

impl FromRequestParts for FileRequest {
    const INPUT: InputMeta = InputMeta::typed(
        InputKind::Headers,
        <FileConditions as crate::schema::ToSchema>::schema,
    )
    // Its conditions are never refused: a malformed one is ignored, as
    // RFC 9110 says. The `416` is the file answer's, for a range it
    // cannot satisfy.
    .with_refusals(&[refusal::RANGE_NOT_SATISFIABLE]);

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        Ok(FileRequest::from_headers(&cx.parts().method, cx.headers()))
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime};

    use super::*;

    fn request(headers: &[(&str, &str)]) -> FileRequest {
        let mut map = http::HeaderMap::new();
        for (name, value) in headers {
            map.insert(
                http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                value.parse().unwrap(),
            );
        }
        FileRequest::from_headers(&Method::GET, &map)
    }

    fn date(secs: u64) -> HttpDate {
        HttpDate::from(SystemTime::UNIX_EPOCH + Duration::from_secs(secs))
    }

    const FILE: Validators<'static> = Validators {
        length: 1000,
        etag: Some("\"abc\""),
        modified: None,
    };

    fn with_date(secs: u64) -> Validators<'static> {
        Validators {
            modified: Some(date(secs)),
            ..FILE
        }
    }

    #[test]
    fn ranges_of_every_form() {
        let part = |start, end| Selection::Part { start, end };
        for (range, expected) in [
            ("bytes=0-99", part(0, 99)),
            ("bytes=900-", part(900, 999)),
            ("bytes=-100", part(900, 999)),
            ("bytes=-5000", part(0, 999)),
            ("bytes=990-5000", part(990, 999)),
            ("BYTES = 1-1", part(1, 1)),
            ("bytes=1000-", Selection::Unsatisfiable),
            ("bytes=1000-1001", Selection::Unsatisfiable),
            ("bytes=-0", Selection::Unsatisfiable),
            ("bytes=5-1", Selection::Whole),
            ("bytes=0-1,5-9", Selection::Whole),
            ("bytes=a-b", Selection::Whole),
            ("bytes=+1-2", Selection::Whole),
            ("items=0-1", Selection::Whole),
            ("bytes=-", Selection::Whole),
        ] {
            assert_eq!(
                request(&[("range", range)]).decide(FILE),
                expected,
                "{range}"
            );
        }
        let empty = Validators { length: 0, ..FILE };
        assert_eq!(
            request(&[("range", "bytes=-1")]).decide(empty),
            Selection::Unsatisfiable
        );
    }

    #[test]
    fn if_none_match_wins_over_if_modified_since() {
        assert_eq!(
            request(&[("if-none-match", "\"x\", W/\"abc\"")]).decide(FILE),
            Selection::NotModified
        );
        assert_eq!(
            request(&[("if-none-match", "*")]).decide(FILE),
            Selection::NotModified
        );
        let stale_tag_fresh_date = request(&[
            ("if-none-match", "\"old\""),
            ("if-modified-since", &date(2000).to_string()),
        ]);
        assert_eq!(
            stale_tag_fresh_date.decide(with_date(1000)),
            Selection::Whole
        );
        let since = request(&[("if-modified-since", &date(2000).to_string())]);
        assert_eq!(since.decide(with_date(2000)), Selection::NotModified);
        assert_eq!(since.decide(with_date(2001)), Selection::Whole);
    }

    #[test]
    fn if_range_keeps_the_range_only_while_it_names_the_file() {
        let with = |condition: &str| {
            request(&[("range", "bytes=0-9"), ("if-range", condition)]).decide(with_date(50))
        };
        let part = Selection::Part { start: 0, end: 9 };
        assert_eq!(with("\"abc\""), part);
        assert_eq!(with("\"other\""), Selection::Whole);
        assert_eq!(with("W/\"abc\""), Selection::Whole, "weak tags never match");
        assert_eq!(with(&date(50).to_string()), part);
        assert_eq!(with(&date(49).to_string()), Selection::Whole);
    }

    #[test]
    fn other_methods_get_the_whole_file() {
        let mut headers = http::HeaderMap::new();
        headers.insert(header::RANGE, "bytes=0-1".parse().unwrap());
        let post = FileRequest::from_headers(&Method::POST, &headers);
        assert_eq!(post.decide(FILE), Selection::Whole);
        assert_eq!(FileRequest::whole().decide(FILE), Selection::Whole);
    }
}
