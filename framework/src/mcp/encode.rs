//! A tool call's arguments as the request its route reads: `path` into the
//! path, `query` into the query string (`search[writer]=kim`, as the query
//! extractor reads it), `headers` and `cookies` into headers, `body` as
//! the route's body. What cannot be sent is a list of issues at the
//! arguments' paths (`$arguments.path.id`), as a refused request's.

use bytes::Bytes;
use http::{HeaderName, HeaderValue, header};
use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
use serde_json::{Map, Value};

use super::catalogue::Target;
use crate::{Body, ContentKind, ValidationIssue};

/// What a path segment's value is encoded with: everything but the
/// characters a segment may hold as they are.
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'/')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'{')
    .add(b'}')
    .add(b'[')
    .add(b']')
    .add(b'\\')
    .add(b'^')
    .add(b'|');

/// The same, keeping `/` (a catch-all parameter's slashes).
const REST: &AsciiSet = &SEGMENT.remove(b'/');

/// The request a call with `arguments` becomes, with the caller's
/// credentials (`forwarded`).
pub(crate) fn request(
    target: &Target,
    arguments: &Map<String, Value>,
    forwarded: &http::HeaderMap,
) -> Result<http::Request<Body>, Vec<ValidationIssue>> {
    let mut issues = Vec::new();
    let mut uri = path(&target.path, arguments.get("path"), &mut issues);
    if let Some(query) = present(arguments, "query") {
        match form(query) {
            Ok(text) if !text.is_empty() => {
                uri.push('?');
                uri.push_str(&text);
            }
            Ok(_) => {}
            Err(expected) => issues.push(ValidationIssue::new(
                "$arguments.query",
                expected,
                query.clone(),
            )),
        }
    }
    let mut builder = http::Request::builder().method(target.method.clone());
    let headers = builder.headers_mut();
    if let Some(headers) = headers {
        headers.extend(forwarded.clone());
        add_headers(headers, present(arguments, "headers"), &mut issues);
        add_cookies(headers, present(arguments, "cookies"), &mut issues);
    }
    let body = match target.body {
        Some(kind) => body(kind, arguments.get("body"), &mut builder, &mut issues),
        None => Body::empty(),
    };
    if !issues.is_empty() {
        return Err(issues);
    }
    builder.uri(uri).body(body).map_err(|err| {
        vec![ValidationIssue::missing(
            "$arguments",
            format!("arguments that make a request ({err})"),
        )]
    })
}

/// `arguments[name]`, unless absent or `null`.
fn present<'a>(arguments: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    arguments.get(name).filter(|value| !value.is_null())
}

/// The route's path with each `:name` (and `*name`) replaced by
/// `path[name]`, encoded.
fn path(template: &str, values: Option<&Value>, issues: &mut Vec<ValidationIssue>) -> String {
    let mut uri = String::with_capacity(template.len());
    for segment in template.split('/').skip(1) {
        uri.push('/');
        let (name, set) = match segment.as_bytes().first() {
            Some(b':') => (&segment[1..], SEGMENT),
            Some(b'*') => (&segment[1..], REST),
            _ => {
                uri.push_str(segment);
                continue;
            }
        };
        let at = format!("$arguments.path.{name}");
        match values.and_then(|values| values.get(name)) {
            Some(value) => match text(value) {
                Some(text) => uri.extend(utf8_percent_encode(&text, set)),
                None => issues.push(ValidationIssue::new(at, "string | number", value.clone())),
            },
            None => issues.push(ValidationIssue::missing(at, "string | number")),
        }
    }
    if uri.is_empty() {
        uri.push('/');
    }
    uri
}

/// A scalar as the text a request carries; `None` for arrays and objects.
fn text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Bool(flag) => Some(flag.to_string()),
        _ => None,
    }
}

/// An object as a query string or HTML form, nested with brackets; `null`s
/// are left out, as absent.
fn form(value: &Value) -> Result<String, String> {
    let Value::Object(_) = value else {
        return Err("object".into());
    };
    serde_qs::to_string(&without_nulls(value)).map_err(|err| format!("an object ({err})"))
}

fn without_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, inner)| !inner.is_null())
                .map(|(key, inner)| (key.clone(), without_nulls(inner)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}

/// A group of arguments that is an object, if given; one that is not is
/// an issue at `path`.
fn object<'a>(
    values: Option<&'a Value>,
    path: &str,
    issues: &mut Vec<ValidationIssue>,
) -> Option<&'a Map<String, Value>> {
    match values? {
        Value::Object(values) => Some(values),
        other => {
            issues.push(ValidationIssue::new(path, "object", other.clone()));
            None
        }
    }
}

/// `headers`' fields as headers, a list as one header per item.
fn add_headers(
    headers: &mut http::HeaderMap,
    values: Option<&Value>,
    issues: &mut Vec<ValidationIssue>,
) {
    let Some(values) = object(values, "$arguments.headers", issues) else {
        return;
    };
    for (name, value) in values {
        let at = format!("$arguments.headers[{}]", Value::String(name.clone()));
        let Ok(header) = HeaderName::try_from(name.as_str()) else {
            issues.push(ValidationIssue::new(at, "a header name", name.clone()));
            continue;
        };
        let items = match value {
            Value::Null => continue,
            Value::Array(items) => items.iter().collect(),
            single => vec![single],
        };
        for item in items {
            match text(item).and_then(|text| HeaderValue::try_from(text).ok()) {
                Some(text) => {
                    headers.append(header.clone(), text);
                }
                None => issues.push(ValidationIssue::new(
                    at.clone(),
                    "string (visible ASCII)",
                    item.clone(),
                )),
            }
        }
    }
}

/// `cookies`' fields as one `Cookie` header, after the caller's.
fn add_cookies(
    headers: &mut http::HeaderMap,
    values: Option<&Value>,
    issues: &mut Vec<ValidationIssue>,
) {
    let Some(values) = object(values, "$arguments.cookies", issues) else {
        return;
    };
    let mut pairs: Vec<String> = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok().map(str::to_owned))
        .collect();
    for (name, value) in values {
        match text(value) {
            Some(text) => pairs.push(format!("{name}={}", utf8_percent_encode(&text, SEGMENT))),
            None if value.is_null() => {}
            None => issues.push(ValidationIssue::new(
                format!("$arguments.cookies.{name}"),
                "string | number",
                value.clone(),
            )),
        }
    }
    headers.remove(header::COOKIE);
    if let Ok(cookie) = HeaderValue::try_from(pairs.join("; ")) {
        headers.insert(header::COOKIE, cookie);
    }
}

/// The body, encoded as the route reads it.
fn body(
    kind: ContentKind,
    value: Option<&Value>,
    builder: &mut http::request::Builder,
    issues: &mut Vec<ValidationIssue>,
) -> Body {
    let Some(value) = value else {
        issues.push(ValidationIssue::missing(
            "$arguments.body",
            "the request body",
        ));
        return Body::empty();
    };
    let (media_type, bytes) = match kind {
        ContentKind::Form => match form(value) {
            Ok(text) => ("application/x-www-form-urlencoded", Bytes::from(text)),
            Err(expected) => {
                issues.push(ValidationIssue::new(
                    "$arguments.body",
                    expected,
                    value.clone(),
                ));
                return Body::empty();
            }
        },
        ContentKind::Text => match value {
            Value::String(text) => ("text/plain; charset=utf-8", Bytes::from(text.clone())),
            other => {
                issues.push(ValidationIssue::new(
                    "$arguments.body",
                    "string",
                    other.clone(),
                ));
                return Body::empty();
            }
        },
        // A `Value` always writes.
        _ => (
            "application/json",
            Bytes::from(serde_json::to_vec(value).unwrap_or_default()),
        ),
    };
    if let Some(headers) = builder.headers_mut() {
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(media_type));
    }
    Body::from(bytes)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn target(path: &str, body: Option<ContentKind>) -> Target {
        Target {
            method: http::Method::POST,
            path: path.into(),
            body,
            structured: false,
        }
    }

    fn arguments(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => unreachable!("a test's arguments are an object"),
        }
    }

    #[test]
    fn path_parameters_are_encoded_and_a_catch_all_keeps_its_slashes() {
        let made = request(
            &target("/files/:section/*rest", None),
            &arguments(json!({
                "path": {"section": "free talk/ü?&#", "rest": "a b/c.txt"},
                "query": {"page": 2, "search": {"writer": "kim"}, "gone": null, "sort": ["-a", "b"]},
            })),
            &http::HeaderMap::new(),
        )
        .unwrap();
        let uri = made.uri().to_string();
        assert!(
            uri.starts_with("/files/free%20talk%2F%C3%BC%3F&%23/a%20b/c.txt?"),
            "{uri}"
        );
        let query = made.uri().query().unwrap();
        let pairs: Vec<(String, String)> = serde_qs::from_str::<Value>(query)
            .map(|value| {
                vec![
                    (
                        "page".into(),
                        value["page"].as_str().unwrap_or("").to_owned(),
                    ),
                    (
                        "writer".into(),
                        value["search"]["writer"].as_str().unwrap_or("").to_owned(),
                    ),
                ]
            })
            .unwrap();
        assert_eq!(
            pairs,
            [("page".into(), "2".into()), ("writer".into(), "kim".into())]
        );
        assert!(!query.contains("gone"), "{query}");
    }

    #[test]
    fn every_argument_that_cannot_be_sent_is_listed() {
        let issues = request(
            &target("/articles/:id", Some(ContentKind::Json)),
            &arguments(json!({
                "path": {"id": {"no": 1}},
                "headers": {"x-label": "line\nbreak"},
            })),
            &http::HeaderMap::new(),
        )
        .unwrap_err();
        let paths: Vec<&str> = issues.iter().map(|issue| issue.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "$arguments.path.id",
                "$arguments.headers[\"x-label\"]",
                "$arguments.body"
            ]
        );
    }

    #[tokio::test]
    async fn bodies_are_sent_as_the_route_reads_them() {
        let headers = http::HeaderMap::new();
        for (kind, body, media_type, sent) in [
            (
                ContentKind::Json,
                json!({"a": [1, null]}),
                "application/json",
                "{\"a\":[1,null]}",
            ),
            (
                ContentKind::Form,
                json!({"a": {"b": "c d"}}),
                "application/x-www-form-urlencoded",
                "a[b]=c+d",
            ),
            (
                ContentKind::Text,
                json!("hello"),
                "text/plain; charset=utf-8",
                "hello",
            ),
        ] {
            let made = request(
                &target("/x", Some(kind)),
                &arguments(json!({"body": body})),
                &headers,
            )
            .unwrap();
            assert_eq!(made.headers()[header::CONTENT_TYPE], media_type);
            let bytes = http_body_util::BodyExt::collect(made.into_body())
                .await
                .unwrap()
                .to_bytes();
            let text = String::from_utf8(bytes.to_vec()).unwrap();
            let decoded = percent_encoding::percent_decode_str(&text).decode_utf8_lossy();
            assert_eq!(decoded, sent);
        }
    }
}
