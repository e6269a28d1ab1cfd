//! The query string.

use super::{FromRequestParts, wraps_value};
use crate::error::refusal::{self, Refusal};
use crate::{
    describe::{InputKind, InputMeta},
    dto::{Dto, decode_text_map, invalid, push_key},
    error::{ApiError, ValidationIssue},
    request::RequestContext,
};

/// The deepest nesting a query string may have (`a[b][c]...`).
const MAX_QUERY_DEPTH: usize = 8;

/// The query string, parsed as a `T` and validated, nested objects and
/// arrays included: `?page=2&search[writer]=kim&sort[0]=-created_at`.
///
/// Brackets may be percent-encoded (as browsers' `URLSearchParams` does);
/// `+` means a space. A query that is not a valid `T` is
/// `400 invalid_query` listing every problem (`$query.page`).
///
/// ```
/// use framework::prelude::*;
///
/// #[dto]
/// struct Search {
///     #[optional]
///     writer: Option<String>,
///     #[optional]
///     tags: Option<Vec<String>>,
/// }
///
/// #[dto]
/// struct Listing {
///     #[optional]
///     #[tags(minimum = 1)]
///     page: Option<u32>,
///     #[optional]
///     search: Option<Search>,
/// }
///
/// struct Articles;
///
/// #[controller("articles")]
/// impl Articles {
///     #[typed_route::get("")]
///     async fn list(&self, query: TypedQuery<Listing>) -> u32 {
///         query.page.unwrap_or(1)
///     }
/// }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TypedQuery<T>(pub T);

wraps_value!(TypedQuery, "The parsed query.");

impl<T: Dto> FromRequestParts for TypedQuery<T> {
    const INPUT: InputMeta =
        InputMeta::typed(InputKind::Query, <T as crate::schema::ToSchema>::schema);

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        let query = cx.parts().uri.query().unwrap_or_default();
        parse_query(query).map(TypedQuery)
    }
}

const QS: serde_qs::Config = serde_qs::Config::new()
    .max_depth(MAX_QUERY_DEPTH)
    .use_form_encoding(true);

pub(crate) fn parse_query<T: Dto>(query: &str) -> Result<T, ApiError> {
    parse_urlencoded(query, "$query", refusal::INVALID_QUERY, "query")
}

/// Decodes `application/x-www-form-urlencoded` text (a query string or a
/// form body; nested fields as `a[b]=1`, lists as `a[0]=x`) as a `T`,
/// listing every problem under `root`.
pub(crate) fn parse_urlencoded<T: Dto>(
    text: &str,
    root: &'static str,
    code: Refusal,
    what: &'static str,
) -> Result<T, ApiError> {
    if let Some(path) = too_deep(text, root) {
        let expected = format!("a key nested at most {MAX_QUERY_DEPTH} levels deep");
        let value = serde_json::Value::from(text);
        let issue = ValidationIssue::found(path, expected, &value);
        return Err(invalid(code, what, vec![issue]));
    }
    decode_text_map(
        || QS.deserialize_str::<T>(text).map_err(|err| err.to_string()),
        || {
            QS.deserialize_str::<serde_json::Value>(text)
                .unwrap_or_else(|_| serde_json::Value::from(text))
        },
        root,
        code,
        what,
    )
}

/// The path of the first key of `text` nested deeper than
/// [`MAX_QUERY_DEPTH`] (`a[b][c]` is two levels), which the parser would
/// keep as one literal key, silently dropped by a struct: such a query is
/// refused instead.
fn too_deep(text: &str, root: &str) -> Option<String> {
    text.split('&').find_map(|pair| {
        let key = pair.split_once('=').map_or(pair, |(key, _)| key);
        if !key.contains('[') && !key.contains("%5B") && !key.contains("%5b") {
            return None;
        }
        let key = key.replace('+', " ");
        let key = percent_encoding::percent_decode_str(&key).decode_utf8_lossy();
        let (name, rest) = key.split_once('[')?;
        let levels: Vec<&str> = rest
            .split('[')
            .map(|level| level.strip_suffix(']').unwrap_or(level))
            .collect();
        (levels.len() > MAX_QUERY_DEPTH).then(|| {
            let mut path = root.to_owned();
            push_key(&mut path, name);
            for level in &levels[..=MAX_QUERY_DEPTH] {
                push_key(&mut path, level);
            }
            path
        })
    })
}

#[cfg(test)]
mod tests {
    use http::StatusCode;

    use super::*;

    #[macros::dto]
    #[derive(Debug, PartialEq)]
    struct Search {
        #[optional]
        writer: Option<String>,
        #[optional]
        title: Option<String>,
    }

    #[macros::dto]
    #[derive(Debug, PartialEq)]
    struct Listing {
        #[optional]
        page: Option<u32>,
        #[optional]
        search: Option<Search>,
        #[optional]
        sort: Option<Vec<String>>,
    }

    #[test]
    fn parses_nested_objects_and_arrays() {
        let listing: Listing =
            parse_query("page=2&search[writer]=kim+lee&sort[0]=-created_at&sort[1]=%2Btitle")
                .unwrap();
        assert_eq!(
            listing,
            Listing {
                page: Some(2),
                search: Some(Search {
                    writer: Some("kim lee".into()),
                    title: None
                }),
                sort: Some(vec!["-created_at".into(), "+title".into()]),
            }
        );
        let encoded: Listing = parse_query("search%5Btitle%5D=hi").unwrap();
        assert_eq!(encoded.search.unwrap().title.as_deref(), Some("hi"));
        let empty: Listing = parse_query("").unwrap();
        assert_eq!(empty.page, None);
    }

    #[test]
    fn refuses_a_wrong_type() {
        let err = parse_query::<Listing>("page=first&search[writer]=x").unwrap_err();
        assert_eq!(err.status(), StatusCode::BAD_REQUEST);
        assert_eq!(err.code(), "invalid_query");
        assert_eq!(err.issues().len(), 1);
        assert_eq!(err.issues()[0].path, "$query.page");
        assert_eq!(err.issues()[0].expected, "number & Type<\"uint32\">");
    }
}
