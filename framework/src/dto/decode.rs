//! Inputs into DTOs: one pass on success (simd-json straight into the type,
//! then the generated checks), a second pass over the JSON for the full
//! error list only when the first refused the input.

use std::cell::RefCell;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{
    Dto, Report,
    read::{Decoder, read_body},
    shape::keys_once,
};
use crate::error::refusal::{self, Refusal};
use crate::{
    error::{ApiError, ValidationIssue},
    schema::{expected, schema_of},
};

/// The deepest nesting of arrays and objects a JSON body may have.
pub const MAX_JSON_DEPTH: usize = 128;

thread_local! {
    /// simd-json rewrites its input and needs working buffers; both are
    /// kept per thread so that parsing allocates only the value itself.
    static SCRATCH: RefCell<(Vec<u8>, simd_json::Buffers)> =
        RefCell::new((Vec::new(), simd_json::Buffers::with_max_depth(0, MAX_JSON_DEPTH)));
}

/// Parses JSON into a `T` and checks every constraint `T` declares, in one
/// pass; a refused input is `400 invalid_body` listing every issue, paths
/// from `$input`. This is what [`TypedBody`](crate::TypedBody) does.
///
/// ```
/// use framework::prelude::*;
///
/// #[dto]
/// #[derive(Debug)]
/// struct Point { #[tags(minimum = 0)] x: i32, y: i32 }
///
/// let point: Point = framework::from_json(br#"{"x":1,"y":2}"#).unwrap();
/// assert_eq!(point.x, 1);
/// let err = framework::from_json::<Point>(br#"{"x":-1}"#).unwrap_err();
/// let paths: Vec<_> = err.issues().iter().map(|issue| issue.path.as_str()).collect();
/// assert_eq!(paths, ["$input.x", "$input.y"]);
/// ```
pub fn from_json<T: Dto>(json: &[u8]) -> Result<T, ApiError> {
    decode_json(json, "$input", None)
}

/// What a JSON input is, as its refusal names it: `body` with the code
/// `invalid_body`, or a WebSocket `message` with `invalid_message`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JsonInput {
    /// The problem's code.
    pub(crate) code: Refusal,
    /// What the message calls it.
    pub(crate) name: &'static str,
}

/// A request body.
pub(crate) const BODY: JsonInput = JsonInput {
    code: refusal::INVALID_BODY,
    name: "body",
};

/// Parses and validates a JSON body (`root` is `$input`), or reports every
/// problem with it as `400 invalid_body`. `found` is the generated decoder
/// the route found for `T` where `T` itself does not name one (a generic
/// DTO, a container).
pub(crate) fn decode_json<T: Dto>(
    body: &[u8],
    root: &str,
    found: Option<Decoder<T>>,
) -> Result<T, ApiError> {
    decode_with(body, root, BODY, T::json_decoder().or(found))
}

/// Parses and validates one JSON input, `what` naming it in the report.
#[cfg(feature = "ws")]
pub(crate) fn decode_json_input<T: Dto>(
    body: &[u8],
    root: &str,
    what: JsonInput,
) -> Result<T, ApiError> {
    decode_with(body, root, what, T::json_decoder())
}

/// Parses and validates one JSON input with its generated decoder, if it
/// has one, else (and to report a refused one) with the reference.
fn decode_with<T: Dto>(
    body: &[u8],
    root: &str,
    what: JsonInput,
    decoder: Option<Decoder<T>>,
) -> Result<T, ApiError> {
    if let Some(read) = decoder
        && let Ok(value) = read_body(body, read)
    {
        // The generated decoder checked every field as it read it.
        return Ok(value);
    }
    let reason = match reference::<T>(body) {
        Ok(value) if value.is_valid() => return Ok(value),
        // Dropped before the report is made: the peak of a refusal is the
        // report's alone.
        Ok(value) => {
            drop(value);
            None
        }
        Err(err) => Some(parse_reason(&err)),
    };
    Err(report_json::<T>(body, root, what, reason))
}

/// The reference decoder: simd-json under serde, maps refusing repeated
/// keys. It decides every body the generated decoder refuses (the report
/// needs its reason), reads the types that have no generated decoder, and
/// is what the tests hold the generated decoders to.
pub(crate) fn reference<T: DeserializeOwned>(json: &[u8]) -> Result<T, simd_json::Error> {
    let read = |(input, buffers): &mut (Vec<u8>, simd_json::Buffers)| {
        input.clear();
        input.extend_from_slice(json);
        simd_json::Deserializer::from_slice_with_buffers(input, buffers)
            .and_then(|mut deserializer| keys_once::<T, _>(&mut deserializer))
    };
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut scratch) => read(&mut scratch),
        // Only if a foreign type's `Deserialize` decodes JSON itself.
        Err(_) => read(&mut (
            Vec::new(),
            simd_json::Buffers::with_max_depth(0, MAX_JSON_DEPTH),
        )),
    })
}

/// Why simd-json refused a body, in serde's words when serde refused it
/// (`duplicate key `a``), not simd-json's debug form of them.
fn parse_reason(err: &simd_json::Error) -> String {
    match err.error() {
        simd_json::ErrorType::Serde(message) => message.clone(),
        _ => err.to_string(),
    }
}

/// The full report of a refused JSON body.
fn report_json<T: Dto>(
    body: &[u8],
    root: &str,
    what: JsonInput,
    parse_error: Option<String>,
) -> ApiError {
    let described = schema_of::<T>();
    let expected_text = expected(&described.schema, &described.registry);
    let value: Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(err) => {
            let reason = format!("not valid JSON: {err}");
            return what
                .code
                .error(format!("{}: {reason}", what.name))
                .with_issues([ValidationIssue::missing(
                    root,
                    format!("{expected_text} (as JSON)"),
                )]);
        }
    };
    let mut issues = Report::new(&described.registry, false).run(&value, &described.schema, root);
    if issues.is_empty() {
        // The schema walk found nothing the parser refused (e.g. a number
        // too precise for its type): report the parser's reason.
        let reason = parse_error.unwrap_or_else(|| "a constraint is not met".to_owned());
        issues.push(ValidationIssue::new(
            root,
            format!("{expected_text} ({reason})"),
            value,
        ));
    }
    invalid(what.code, what.name, issues)
}

/// Parses and validates text fields (query or headers) given as a JSON
/// object of strings, with `root` `$query` or `$headers`. `parse` is the
/// fast path; the report treats numbers and booleans written as text as
/// what they stand for.
pub(crate) fn decode_text_map<T: Dto>(
    parse: impl FnOnce() -> Result<T, String>,
    as_json: impl FnOnce() -> Value,
    root: &str,
    code: Refusal,
    subject: &str,
) -> Result<T, ApiError> {
    let reason = match parse() {
        Ok(value) if value.is_valid() => return Ok(value),
        Ok(_) => None,
        Err(reason) => Some(reason),
    };
    let described = schema_of::<T>();
    let value = as_json();
    let mut issues = Report::new(&described.registry, true).run(&value, &described.schema, root);
    if issues.is_empty() {
        let expected_text = expected(&described.schema, &described.registry);
        let reason = reason.unwrap_or_else(|| "a constraint is not met".to_owned());
        issues.push(ValidationIssue::new(
            root,
            format!("{expected_text} ({reason})"),
            value,
        ));
    }
    Err(invalid(code, subject, issues))
}

/// `400` with the issues, the first one in the message.
pub(crate) fn invalid(code: Refusal, subject: &str, issues: Vec<ValidationIssue>) -> ApiError {
    let message = match issues.as_slice() {
        [] => format!("{subject}: invalid"),
        [only] => format!("{subject}: {} is not {}", only.path, only.expected),
        [first, rest @ ..] => format!(
            "{subject}: {} is not {} (and {} more issues)",
            first.path,
            first.expected,
            rest.len()
        ),
    };
    code.error(message).with_issues(issues)
}

/// Deserializes a JSON value into `T` for a user-written check.
#[doc(hidden)]
pub fn run_check<T: DeserializeOwned>(
    value: &Value,
    check: fn(&T) -> Result<(), String>,
) -> Result<(), String> {
    match T::deserialize(value) {
        Ok(typed) => check(&typed),
        // The type is reported by the schema walk; nothing to add.
        Err(_) => Ok(()),
    }
}
