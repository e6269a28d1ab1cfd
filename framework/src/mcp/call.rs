//! `tools/call`: the call made into a request, answered by the app in
//! process, and the answer made into the tool's result.

use http_body_util::BodyExt;
use serde_json::{Map, Value, json};

use super::{catalogue::Tool, encode};
use crate::{App, ValidationIssue};

/// The result of calling `tool` with `arguments` (as sent: absent, `null`
/// or an object); `forwarded` are the caller's credentials.
pub(crate) async fn call(
    app: &App,
    tool: &Tool,
    arguments: Option<&Value>,
    forwarded: &http::HeaderMap,
) -> Value {
    let empty = Map::new();
    let arguments = match arguments {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(arguments)) => arguments,
        Some(other) => {
            let issue = ValidationIssue::new("$arguments", "object", other.clone());
            return refused_arguments(vec![issue]);
        }
    };
    let request = match encode::request(&tool.target, arguments, forwarded) {
        Ok(request) => request,
        Err(issues) => return refused_arguments(issues),
    };
    let response = app.handle(request).await;
    let status = response.status();
    let body = match response.into_body().collect().await {
        Ok(body) => body.to_bytes(),
        Err(err) => {
            return failed(json!({
                "status": status.as_u16(),
                "code": "unreadable_answer",
                "detail": format!("the answer could not be read: {err}"),
            }));
        }
    };
    if status.is_success() {
        succeeded(tool, &body)
    } else {
        failed(refusal(status, &body))
    }
}

/// The arguments could not make a request: a tool error listing why, in
/// the shape of a refused request's problem document.
fn refused_arguments(issues: Vec<ValidationIssue>) -> Value {
    failed(json!({
        "status": 400,
        "code": "invalid_arguments",
        "detail": "The arguments do not make a request of this tool; `errors` lists every problem with its path.",
        "errors": issues,
    }))
}

/// A success: the answer as text, and as `structuredContent` when the tool
/// has an output schema.
fn succeeded(tool: &Tool, body: &[u8]) -> Value {
    let text = String::from_utf8_lossy(body).into_owned();
    let mut result = json!({ "content": [{ "type": "text", "text": text }] });
    if tool.target.structured {
        match serde_json::from_slice::<Value>(body) {
            Ok(value) => result["structuredContent"] = value,
            Err(err) => {
                return failed(json!({
                    "code": "unreadable_answer",
                    "detail": format!("the answer is not the JSON the tool declares: {err}"),
                }));
            }
        }
    }
    result
}

/// An error answer as the tool error's text: the app's error body (the
/// problem document, unless the app declares its own), the paths of its
/// issues pointing into the arguments.
fn refusal(status: http::StatusCode, body: &[u8]) -> Value {
    match serde_json::from_slice::<Value>(body) {
        Ok(mut value) => {
            if let Some(Value::Array(issues)) = value.get_mut("errors") {
                for issue in issues {
                    if let Some(Value::String(path)) = issue.get_mut("path") {
                        *path = argument_path(path);
                    }
                }
            }
            value
        }
        Err(_) => json!({
            "status": status.as_u16(),
            "detail": String::from_utf8_lossy(body),
        }),
    }
}

/// Where a refused request's issue is in the tool's arguments:
/// `$input.title` is `$arguments.body.title`.
fn argument_path(path: &str) -> String {
    let parts = [
        ("$input", "$arguments.body"),
        ("$query", "$arguments.query"),
        ("$headers", "$arguments.headers"),
        ("$cookies", "$arguments.cookies"),
        ("$path", "$arguments.path"),
    ];
    for (request, arguments) in parts {
        if let Some(rest) = path.strip_prefix(request)
            && (rest.is_empty() || rest.starts_with(['.', '[']))
        {
            return format!("{arguments}{rest}");
        }
    }
    path.to_owned()
}

/// A tool error, its detail as JSON text.
fn failed(detail: Value) -> Value {
    json!({
        "isError": true,
        "content": [{ "type": "text", "text": detail.to_string() }],
    })
}

#[cfg(test)]
mod tests {
    use super::argument_path;

    #[test]
    fn issue_paths_point_into_the_arguments() {
        assert_eq!(
            argument_path("$input.files[2].url"),
            "$arguments.body.files[2].url"
        );
        assert_eq!(argument_path("$input"), "$arguments.body");
        assert_eq!(argument_path("$query.page"), "$arguments.query.page");
        assert_eq!(
            argument_path("$headers[\"x-a\"]"),
            "$arguments.headers[\"x-a\"]"
        );
        assert_eq!(argument_path("$path.id"), "$arguments.path.id");
        assert_eq!(argument_path("$inputs.x"), "$inputs.x");
    }
}
