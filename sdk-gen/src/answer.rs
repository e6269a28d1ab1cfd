//! What a route answers on success, as both SDKs read it: one entry per
//! status, each with the shape of its data.

use framework::{
    ContentKind,
    manifest::{ResponseManifest, RouteManifest},
    schema::Schema,
};

/// A success answer of a route.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Answer<'r> {
    /// The HTTP status.
    pub(crate) status: u16,
    /// The variant of the handler's `#[derive(IntoResponse)]` enum that
    /// gives it.
    pub(crate) variant: Option<&'r str>,
    /// What a client gets.
    pub(crate) shape: Shape<'r>,
    /// Whether the answer documents headers besides `Location` (a file's
    /// `ETag`, `Content-Range` ...).
    pub(crate) headers: bool,
}

/// What a client gets from an answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Shape<'r> {
    /// Its body, read as its media type says.
    Plain(Content<'r>),
    /// A redirect (a 3xx with `Location`): reported, not followed.
    Redirect,
    /// A body with the `Location` of what was made (`Created<T>`).
    Created(Content<'r>),
}

/// The body of an answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Content<'r> {
    /// No body.
    Empty,
    /// JSON of this schema.
    Json(&'r Schema),
    /// Text (`text/plain` or `text/html`).
    Text,
    /// Bytes.
    Bytes,
    /// Server-sent events whose `data` is JSON of this schema.
    Events(&'r Schema),
}

impl Answer<'_> {
    /// Whether the answer is JSON or nothing: what every route answered
    /// before other media types, generated as it was then.
    pub(crate) fn is_json_or_empty(&self) -> bool {
        matches!(self.shape, Shape::Plain(Content::Empty | Content::Json(_)))
    }
}

/// A route's success answers, by status; a route that documents none
/// answers its status with no body.
pub(crate) fn answers(route: &RouteManifest) -> Vec<Answer<'_>> {
    let mut answers: Vec<Answer<'_>> = route.responses.iter().map(answer).collect();
    if answers.is_empty() {
        answers.push(Answer {
            status: route.status,
            variant: None,
            shape: Shape::Plain(Content::Empty),
            headers: false,
        });
    }
    answers
}

/// Whether the route answers one JSON (or empty) body at its own status:
/// the SDKs' plain path.
pub(crate) fn is_plain_json(route: &RouteManifest) -> bool {
    match answers(route).as_slice() {
        [only] => only.status == route.status && only.is_json_or_empty(),
        _ => false,
    }
}

/// How the SDKs read `response`'s body; `None` for a kind they do not
/// know (a JSON answer or events without a schema, a form, or a kind newer
/// than this generator).
pub(crate) fn content(response: &ResponseManifest) -> Option<Content<'_>> {
    let Some(content) = &response.content else {
        return Some(Content::Empty);
    };
    match (content.kind, &content.schema) {
        (ContentKind::Json, Some(schema)) => Some(Content::Json(schema)),
        (ContentKind::EventStream, Some(schema)) => Some(Content::Events(schema)),
        (ContentKind::Text | ContentKind::Html, _) => Some(Content::Text),
        (ContentKind::Bytes, _) => Some(Content::Bytes),
        _ => None,
    }
}

fn answer(response: &ResponseManifest) -> Answer<'_> {
    let located = response
        .headers
        .iter()
        .any(|header| header.required && header.name.eq_ignore_ascii_case("location"));
    // `Model::new` refused a route with a content that `content` cannot
    // read; none is left here.
    let content = content(response).unwrap_or(Content::Bytes);
    let shape = match (located, content) {
        (true, Content::Empty) if (300..400).contains(&response.status) => Shape::Redirect,
        (true, content) => Shape::Created(content),
        (false, content) => Shape::Plain(content),
    };
    Answer {
        status: response.status,
        variant: response.variant.as_deref(),
        shape,
        headers: response
            .headers
            .iter()
            .any(|header| !header.name.eq_ignore_ascii_case("location")),
    }
}

/// Whether a route answers a file (bytes) on success: both SDKs then offer
/// to read it as it arrives, beside reading it whole.
pub(crate) fn streams_bytes(answers: &[Answer<'_>]) -> bool {
    answers
        .iter()
        .any(|answer| answer.shape == Shape::Plain(Content::Bytes))
}

/// The success statuses, joined by `separator`: `200, 206, 304` in Rust,
/// `200 | 206 | 304` in TypeScript.
pub(crate) fn statuses(answers: &[Answer<'_>], separator: &str) -> String {
    answers
        .iter()
        .map(|answer| answer.status.to_string())
        .collect::<Vec<_>>()
        .join(separator)
}

#[cfg(test)]
mod tests {
    use framework::{ContentManifest, HeaderManifest};

    use super::*;

    fn located(status: u16) -> ResponseManifest {
        ResponseManifest::new(status).with_header(HeaderManifest::new("Location", "", true))
    }

    #[test]
    fn answers_are_told_apart_by_content_and_location() {
        let text = ResponseManifest::new(200).with_content(ContentManifest::new(
            ContentKind::Text,
            "text/plain",
            None,
        ));
        assert_eq!(answer(&text).shape, Shape::Plain(Content::Text));
        assert_eq!(answer(&located(303)).shape, Shape::Redirect);
        assert_eq!(answer(&located(201)).shape, Shape::Created(Content::Empty));
        let bytes = located(201).with_content(ContentManifest::new(
            ContentKind::Bytes,
            "application/octet-stream",
            None,
        ));
        assert_eq!(answer(&bytes).shape, Shape::Created(Content::Bytes));
        let optional = ResponseManifest::new(302)
            .with_header(HeaderManifest::new("Location", "", false))
            .for_variant("Maybe", None);
        let read = answer(&optional);
        assert_eq!(read.shape, Shape::Plain(Content::Empty));
        assert_eq!(read.variant, Some("Maybe"));
    }

    #[test]
    fn a_content_the_sdks_cannot_read_is_none_not_bytes() {
        let form = ResponseManifest::new(200).with_content(ContentManifest::new(
            ContentKind::Form,
            "application/x-www-form-urlencoded",
            None,
        ));
        assert_eq!(content(&form), None);
        let schemaless = ResponseManifest::new(200).with_content(ContentManifest::new(
            ContentKind::Json,
            "application/json",
            None,
        ));
        assert_eq!(content(&schemaless), None);
    }
}
