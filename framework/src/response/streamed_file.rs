//! A file answered from disk, streamed: [`StreamedFile`].

use std::{
    io::{self, SeekFrom},
    path::Path,
    pin::Pin,
    task::{Context, Poll, ready},
    time::UNIX_EPOCH,
};

use bytes::Bytes;
use futures_util::Stream;
use http::{HeaderValue, StatusCode, header};
use http_body::{Frame, SizeHint};
use httpdate::HttpDate;
use tokio::io::{AsyncReadExt, AsyncSeekExt};
use tokio_util::io::ReaderStream;

use super::{
    IntoResponse,
    file_naming::{FileNaming, OCTETS, file_naming_methods},
    insert_nosniff,
};
use crate::{
    body::{Body, Response},
    describe::{ContentKind, ContentManifest, HeaderManifest, ResponseManifest},
    error::{ApiError, refusal},
    extractor::{FileRequest, Selection, Validators},
    schema::Registry,
};

/// How much of the file is read at a time.
const CHUNK: usize = 64 * 1024;

/// A file streamed from disk as it is sent, never held whole, answering a
/// [`FileRequest`]'s conditions and range:
///
/// - `200` with `Content-Length`, `ETag` (from the length and modification
///   time), `Last-Modified` and `Accept-Ranges: bytes`;
/// - `206` with `Content-Range` for one satisfiable `Range` (while
///   `If-Range` names the file);
/// - `304` with no body when `If-None-Match` (or, without it,
///   `If-Modified-Since`) says the client's copy is current;
/// - `416` with `Content-Range: bytes */<length>` for a range beyond the
///   end (a problem with code `range_not_satisfiable`).
///
/// `HEAD` gets the same head with no body and nothing read. A file that
/// does not exist is `404 not_found`; other I/O errors are `500`.
///
/// ```
/// use framework::{FileRequest, IntoResponse, StreamedFile};
/// use http::StatusCode;
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let path = std::env::temp_dir().join("streamed-file-doc.txt");
/// std::fs::write(&path, "0123456789").unwrap();
///
/// let mut headers = http::HeaderMap::new();
/// headers.insert("range", "bytes=2-4".parse().unwrap());
/// let request = FileRequest::from_headers(&http::Method::GET, &headers);
/// let file = StreamedFile::open(&path, &request).await.unwrap().media_type("text/plain");
/// let response = file.into_response(StatusCode::OK);
/// assert_eq!(response.status(), 206);
/// assert_eq!(response.headers()["content-range"], "bytes 2-4/10");
/// assert_eq!(response.headers()["content-length"], "3");
/// assert_eq!(response.headers()["x-content-type-options"], "nosniff");
/// # });
/// ```
#[derive(Debug)]
pub struct StreamedFile {
    answer: Answer,
    length: u64,
    etag: Option<HeaderValue>,
    last_modified: Option<HeaderValue>,
    naming: FileNaming,
}

#[derive(Debug)]
enum Answer {
    /// Bytes `start..=end` of `file` (already at `start`): all of it or a part.
    Bytes {
        file: tokio::fs::File,
        start: u64,
        end: u64,
        partial: bool,
    },
    /// Nothing: the file is empty.
    Empty,
    NotModified,
    Unsatisfiable,
}

impl StreamedFile {
    /// Opens the file at `path` and decides, from its length and
    /// modification time, what to answer `request`.
    ///
    /// # Errors
    /// `404 not_found` when there is no file at `path` (or it is a
    /// directory); `500 internal_error` for other I/O errors (detail logged).
    pub async fn open(path: impl AsRef<Path>, request: &FileRequest) -> Result<Self, ApiError> {
        let path = path.as_ref();
        let io_error = |err: io::Error| match err.kind() {
            io::ErrorKind::NotFound => ApiError::not_found("no such file"),
            _ => ApiError::internal(format_args!("{}: {err}", path.display())),
        };
        let mut file = tokio::fs::File::open(path).await.map_err(io_error)?;
        let metadata = file.metadata().await.map_err(io_error)?;
        if !metadata.is_file() {
            return Err(ApiError::not_found("no such file"));
        }
        let length = metadata.len();
        let modified = metadata.modified().ok();
        let etag = modified.map(|modified| {
            let since = modified.duration_since(UNIX_EPOCH).unwrap_or_default();
            format!(
                "\"{:x}-{:x}-{length:x}\"",
                since.as_secs(),
                since.subsec_nanos()
            )
        });
        let modified = modified.map(HttpDate::from);
        let selection = request.decide(Validators {
            length,
            etag: etag.as_deref(),
            modified,
        });
        let answer = match selection {
            Selection::NotModified => Answer::NotModified,
            Selection::Unsatisfiable => Answer::Unsatisfiable,
            Selection::Whole if length == 0 => Answer::Empty,
            Selection::Whole => Answer::Bytes {
                file,
                start: 0,
                end: length - 1,
                partial: false,
            },
            Selection::Part { start, end } => {
                file.seek(SeekFrom::Start(start)).await.map_err(io_error)?;
                Answer::Bytes {
                    file,
                    start,
                    end,
                    partial: true,
                }
            }
        };
        Ok(StreamedFile {
            answer,
            length,
            etag: etag.and_then(|etag| HeaderValue::try_from(etag).ok()),
            last_modified: modified
                .and_then(|modified| HeaderValue::try_from(modified.to_string()).ok()),
            naming: FileNaming::default(),
        })
    }

    file_naming_methods!();

    /// The file's length in bytes.
    pub fn len(&self) -> u64 {
        self.length
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.length == 0
    }
}

/// `416` for a range that starts beyond the file's `length` bytes, with
/// the `Content-Range` that says the length.
fn unsatisfiable(length: u64) -> Response {
    let mut response = refusal::RANGE_NOT_SATISFIABLE
        .error(format!("range: the file has {length} bytes"))
        .with_header(
            header::CONTENT_RANGE,
            content_range(format!("bytes */{length}")),
        )
        .into_response();
    response
        .headers_mut()
        .insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    response
}

/// The bytes `range` of `file` (read from its start already), streamed:
/// all of it with `status`, or a part (`206`) of a file of `of` bytes.
fn bytes_response(
    file: tokio::fs::File,
    range: std::ops::RangeInclusive<u64>,
    of: Option<u64>,
    status: StatusCode,
) -> Response {
    let (start, end) = range.into_inner();
    let count = end - start + 1;
    let mut response = http::Response::new(Body::new(FileBody {
        reader: ReaderStream::with_capacity(file.take(count), CHUNK),
        remaining: count,
    }));
    response
        .headers_mut()
        .insert(header::CONTENT_LENGTH, HeaderValue::from(count));
    match of {
        Some(length) => {
            *response.status_mut() = StatusCode::PARTIAL_CONTENT;
            response.headers_mut().insert(
                header::CONTENT_RANGE,
                content_range(format!("bytes {start}-{end}/{length}")),
            );
        }
        None => *response.status_mut() = status,
    }
    response
}

/// Adds the `ETag` and `Last-Modified` a file has.
fn validators(
    response: &mut Response,
    etag: Option<HeaderValue>,
    last_modified: Option<HeaderValue>,
) {
    let headers = response.headers_mut();
    if let Some(etag) = etag {
        headers.insert(header::ETAG, etag);
    }
    if let Some(modified) = last_modified {
        headers.insert(header::LAST_MODIFIED, modified);
    }
}

fn content_range(value: String) -> HeaderValue {
    // Digits, spaces, `*`, `-` and `/` only.
    HeaderValue::try_from(value).unwrap_or_else(|_| HeaderValue::from_static("bytes */0"))
}

impl IntoResponse for StreamedFile {
    fn describe(status: u16, _: &mut Registry) -> Vec<ResponseManifest> {
        let bytes = || ContentManifest::new(ContentKind::Bytes, OCTETS, None);
        let etag = || HeaderManifest::new("ETag", "The file's version.", false);
        let modified =
            || HeaderManifest::new("Last-Modified", "When the file last changed.", false);
        vec![
            ResponseManifest::new(status)
                .described("The file, in its own media type (`Content-Type`).")
                .with_content(bytes())
                .with_header(etag())
                .with_header(modified())
                .with_header(HeaderManifest::new(
                    "Accept-Ranges",
                    "`bytes`: a `Range` of bytes may be asked for.",
                    true,
                ))
                .with_header(HeaderManifest::new(
                    "Content-Disposition",
                    "The file's name, and whether to save or show it.",
                    false,
                )),
            ResponseManifest::new(206)
                .described("The part of the file the `Range` asked for.")
                .with_content(bytes())
                .with_header(HeaderManifest::new(
                    "Content-Range",
                    "Which bytes of the file these are: `bytes <first>-<last>/<length>`.",
                    true,
                ))
                .with_header(etag())
                .with_header(modified()),
            ResponseManifest::new(304)
                .described("The copy named by `If-None-Match` or `If-Modified-Since` is current.")
                .with_header(etag())
                .with_header(modified()),
        ]
    }

    fn into_response(self, status: StatusCode) -> Response {
        let (media_type, disposition) = match self.naming.header_values() {
            Ok(values) => values,
            Err(err) => return err.into_response(),
        };
        let StreamedFile {
            answer,
            length,
            etag,
            last_modified,
            ..
        } = self;
        let mut response = match answer {
            Answer::NotModified => {
                let mut response = http::Response::new(Body::empty());
                *response.status_mut() = StatusCode::NOT_MODIFIED;
                validators(&mut response, etag, last_modified);
                return response;
            }
            Answer::Unsatisfiable => return unsatisfiable(length),
            Answer::Empty => {
                let mut response = http::Response::new(Body::empty());
                *response.status_mut() = status;
                response
                    .headers_mut()
                    .insert(header::CONTENT_LENGTH, HeaderValue::from(0u64));
                response
            }
            Answer::Bytes {
                file,
                start,
                end,
                partial,
            } => bytes_response(file, start..=end, partial.then_some(length), status),
        };
        validators(&mut response, etag, last_modified);
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, media_type);
        headers.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
        insert_nosniff(headers);
        if let Some(disposition) = disposition {
            headers.insert(header::CONTENT_DISPOSITION, disposition);
        }
        response
    }
}

/// The bytes of a file read as they are sent, with their exact length.
struct FileBody {
    reader: ReaderStream<tokio::io::Take<tokio::fs::File>>,
    remaining: u64,
}

impl http_body::Body for FileBody {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        if self.remaining == 0 {
            return Poll::Ready(None);
        }
        match ready!(Pin::new(&mut self.reader).poll_next(cx)) {
            Some(Ok(chunk)) => {
                self.remaining = self.remaining.saturating_sub(chunk.len() as u64);
                Poll::Ready(Some(Ok(Frame::data(chunk))))
            }
            Some(Err(err)) => Poll::Ready(Some(Err(err))),
            // The file got shorter since it was opened: the promised
            // length cannot be sent.
            None => Poll::Ready(Some(Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the file ended before its length",
            )))),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.remaining == 0
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.remaining)
    }
}

impl std::fmt::Debug for FileBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileBody")
            .field("remaining", &self.remaining)
            .finish_non_exhaustive()
    }
}
