//! Route paths: nestia style (`:id`) in, matchit style (`{id}`) out.

use proc_macro2::Span;

/// A route's full path, checked.
#[derive(Debug, PartialEq)]
pub(crate) struct RoutePath {
    /// `/bbs/articles/:section/:id`
    pub(crate) nestia: String,
    /// `/bbs/articles/{section}/{id}`
    pub(crate) router: String,
    /// `["section", "id"]`
    pub(crate) params: Vec<String>,
    /// The last parameter's name when it is a catch-all (`*path`).
    pub(crate) catch_all: Option<String>,
}

/// Joins a controller's base path and a route's path and checks them.
pub(crate) fn join(base: &str, route: &str) -> Result<RoutePath, String> {
    let segments: Vec<&str> = base
        .split('/')
        .chain(route.split('/'))
        .filter(|segment| !segment.is_empty())
        .collect();
    let mut nestia = String::new();
    let mut router = String::new();
    let mut params: Vec<String> = Vec::new();
    let mut catch_all = None;
    for (position, segment) in segments.iter().enumerate() {
        nestia.push('/');
        router.push('/');
        nestia.push_str(segment);
        if let Some(name) = segment.strip_prefix('*') {
            if position + 1 != segments.len() {
                return Err(format!(
                    "`*{name}` takes the rest of the path, so it must be the last segment"
                ));
            }
            check_name(name, &params)?;
            router.push_str("{*");
            router.push_str(name);
            router.push('}');
            params.push(name.to_owned());
            catch_all = Some(name.to_owned());
        } else if let Some(name) = segment.strip_prefix(':') {
            check_name(name, &params)?;
            router.push('{');
            router.push_str(name);
            router.push('}');
            params.push(name.to_owned());
        } else if let Some(bad) = segment
            .chars()
            .find(|c| matches!(c, '{' | '}' | ':' | '*' | '?' | '#'))
        {
            return Err(format!(
                "`{bad}` is not allowed in the path segment `{segment}`; parameters are whole segments written `:name`"
            ));
        } else {
            router.push_str(segment);
        }
    }
    if nestia.is_empty() {
        nestia.push('/');
        router.push('/');
    }
    Ok(RoutePath {
        nestia,
        router,
        params,
        catch_all,
    })
}

/// A parameter's name is an identifier, used once in the path.
fn check_name(name: &str, params: &[String]) -> Result<(), String> {
    if !is_identifier(name) {
        return Err(format!(
            "`:{name}` is not a parameter name; write `:name` (or a last `*name`) with a Rust identifier as the whole segment"
        ));
    }
    if params.iter().any(|known| known == name) {
        return Err(format!(
            "the path has `{name}` twice; give each parameter its own name"
        ));
    }
    Ok(())
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && syn::parse_str::<syn::Ident>(name).is_ok()
}

/// A span-carrying error for the path literal.
pub(crate) fn error(span: Span, message: String) -> syn::Error {
    syn::Error::new(span, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn translates_parameters() {
        let path = join("bbs/articles/:section", ":id").unwrap();
        assert_eq!(path.nestia, "/bbs/articles/:section/:id");
        assert_eq!(path.router, "/bbs/articles/{section}/{id}");
        assert_eq!(path.params, ["section", "id"]);
        assert_eq!(join("/a/", "").unwrap().router, "/a");
        assert_eq!(join("", "").unwrap().router, "/");
    }

    #[test]
    fn translates_catch_alls() {
        let path = join("files", "*path").unwrap();
        assert_eq!(path.nestia, "/files/*path");
        assert_eq!(path.router, "/files/{*path}");
        assert_eq!(path.catch_all.as_deref(), Some("path"));
        assert!(
            join("files/*path", "x")
                .unwrap_err()
                .contains("last segment")
        );
    }

    #[test]
    fn refuses_bad_paths() {
        assert!(join("a/:id", ":id").unwrap_err().contains("twice"));
        assert!(join("a/{id}", "").unwrap_err().contains("`{`"));
        assert!(
            join("a/:1x", "")
                .unwrap_err()
                .contains("not a parameter name")
        );
        assert!(join("a/x:y", "").unwrap_err().contains("`:`"));
        assert!(join("a/:", "").is_err());
    }
}
