//! What a route is called: its operation id (OpenAPI's `operationId`) and
//! its accessor (where the SDKs put its function), and the check that no
//! two routes are called alike.
//!
//! The rules, all read from the route's [`RouteMeta`]:
//!
//! - **Namespaces** are the path's literal segments (not `:param` or
//!   `*rest`), less the app's name prefix
//!   ([`AppBuilder::strip_name_prefix`](crate::AppBuilder::strip_name_prefix))
//!   when the path begins with it.
//! - **The function** is the route's `operation_id = ".."` if it sets one,
//!   else the handler's name.
//! - **No stutter**: when the last namespace names the handler or the
//!   function (equal to it, a `-` in the segment reading as `_`), it is
//!   left out, so `POST /users/login` handled by `login` is `users.login`,
//!   not `users.login.login`; `GET /chat/:room` handled by `chat` is
//!   `chat`; with `operation_id = "signIn"`, `POST /users/login` handled
//!   by `login` is `users.signIn` (the id renames the function the route
//!   would have had). Nothing else is left out.
//! - **The operation id** is the `operation_id` as written when the route
//!   sets one, else the accessor joined by dots (`users.login`).
//! - Operation ids are unique, and no two routes in the SDKs get one
//!   function, or a function and a namespace, of one name.

use std::collections::BTreeMap;

use super::{ManifestError, RouteManifest};
use crate::describe::RouteMeta;

/// Leading path segments that routes' names leave out: `/api` names
/// `POST /api/users/login` `users.login`. Empty leaves out nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct NamePrefix {
    segments: Vec<String>,
}

impl NamePrefix {
    /// `/api/v1` -> `api`, `v1`.
    ///
    /// # Errors
    /// A segment that is a path parameter (`:id`, `*rest`): the prefix is
    /// literal segments only.
    pub(crate) fn parse(prefix: &str) -> Result<NamePrefix, String> {
        let segments: Vec<String> = prefix
            .split('/')
            .filter(|segment| !segment.is_empty())
            .map(str::to_owned)
            .collect();
        if let Some(param) = segments.iter().find(|segment| !is_literal(segment)) {
            return Err(format!(
                "the name prefix `{prefix}` holds the parameter `{param}`; a name prefix is literal path segments, like `/api`"
            ));
        }
        Ok(NamePrefix { segments })
    }

    /// `segments` without the prefix, if they begin with it.
    fn strip<'s>(&self, segments: &'s [&'s str]) -> &'s [&'s str] {
        let begins = segments.len() >= self.segments.len()
            && self
                .segments
                .iter()
                .zip(segments)
                .all(|(prefix, segment)| prefix == segment);
        if begins {
            &segments[self.segments.len()..]
        } else {
            segments
        }
    }
}

/// Where the SDKs put the route's function: its namespaces, then the
/// function's name (see the module's rules).
pub(crate) fn accessor(meta: &RouteMeta, prefix: &NamePrefix) -> Vec<String> {
    let segments: Vec<&str> = meta
        .path
        .split('/')
        .filter(|segment| !segment.is_empty())
        .collect();
    let mut accessor: Vec<String> = prefix
        .strip(&segments)
        .iter()
        .filter(|segment| is_literal(segment))
        .map(|segment| (*segment).to_owned())
        .collect();
    let name = meta.operation_id.unwrap_or(meta.handler);
    if accessor
        .last()
        .is_some_and(|last| names(last, meta.handler) || names(last, name))
    {
        accessor.pop();
    }
    accessor.push(name.to_owned());
    accessor
}

/// The route's operation id: its `operation_id` as written, else its
/// accessor joined by dots.
pub(crate) fn operation_id(meta: &RouteMeta, accessor: &[String]) -> String {
    meta.operation_id
        .map_or_else(|| accessor.join("."), str::to_owned)
}

/// Refuses two routes with one operation id, and two routes in the SDKs
/// whose functions would have one name or one of which would be a
/// namespace holding the other.
pub(crate) fn check_unique(routes: &[RouteManifest]) -> Result<(), ManifestError> {
    let mut ids: BTreeMap<&str, &RouteManifest> = BTreeMap::new();
    for route in routes {
        if let Some(first) = ids.insert(&route.operation_id, route) {
            return Err(ManifestError::DuplicateOperationId {
                operation_id: route.operation_id.clone(),
                first: first.label(),
                second: route.label(),
            });
        }
    }
    let in_sdk: Vec<&RouteManifest> = routes.iter().filter(|route| route.sdk).collect();
    for (index, route) in in_sdk.iter().enumerate() {
        for earlier in &in_sdk[..index] {
            let (function, inside) = if earlier.accessor.len() <= route.accessor.len() {
                (earlier, route)
            } else {
                (route, earlier)
            };
            if !inside.accessor.starts_with(&function.accessor) {
                continue;
            }
            let name = function.accessor.join(".");
            return Err(if function.accessor.len() == inside.accessor.len() {
                ManifestError::DuplicateSdkName {
                    name,
                    first: earlier.label(),
                    second: route.label(),
                }
            } else {
                ManifestError::SdkNameIsNamespace {
                    name,
                    function: function.label(),
                    inside: inside.label(),
                    inside_name: inside.accessor.join("."),
                }
            });
        }
    }
    Ok(())
}

/// Whether a path segment is literal: not `:param` or `*rest`.
fn is_literal(segment: &str) -> bool {
    !segment.starts_with([':', '*'])
}

/// Whether the path segment `segment` names the function `name`: equal,
/// a `-` in the segment reading as `_` (`sign-in` names `sign_in`).
fn names(segment: &str, name: &str) -> bool {
    segment.len() == name.len()
        && segment
            .bytes()
            .zip(name.bytes())
            .all(|(s, n)| s == n || (s == b'-' && n == b'_'))
}

#[cfg(test)]
mod tests {
    use super::{NamePrefix, accessor, operation_id};
    use crate::describe::{HttpMethod, RouteMeta};

    fn route(path: &'static str, handler: &'static str, id: Option<&'static str>) -> RouteMeta {
        RouteMeta {
            operation_id: id,
            method: HttpMethod::Post,
            sdk: true,
            ..RouteMeta::framework_get(handler, path, path)
        }
    }

    fn names(path: &'static str, handler: &'static str, id: Option<&'static str>) -> String {
        names_under("", path, handler, id)
    }

    fn names_under(
        prefix: &str,
        path: &'static str,
        handler: &'static str,
        id: Option<&'static str>,
    ) -> String {
        let meta = route(path, handler, id);
        let accessor = accessor(&meta, &NamePrefix::parse(prefix).unwrap());
        format!("{} {}", accessor.join("."), operation_id(&meta, &accessor))
    }

    #[test]
    fn the_handler_is_not_repeated_after_the_segment_naming_it() {
        assert_eq!(
            names("/api/users/login", "login", None),
            "api.users.login api.users.login"
        );
        assert_eq!(
            names("/api/profiles/:username/follow", "follow", None),
            "api.profiles.follow api.profiles.follow"
        );
        assert_eq!(names("/chat/:room", "chat", None), "chat chat");
        assert_eq!(names("/sign-in", "sign_in", None), "sign_in sign_in");
    }

    #[test]
    fn other_names_are_the_segments_and_the_handler() {
        assert_eq!(
            names("/bbs/articles/:section/:id", "update", None),
            "bbs.articles.update bbs.articles.update"
        );
        assert_eq!(
            names("/notes/files", "file", None),
            "notes.files.file notes.files.file"
        );
        // Only the last segment is compared, and exactly.
        assert_eq!(
            names("/login/users", "login", None),
            "login.users.login login.users.login"
        );
        assert_eq!(names("/Login", "login", None), "Login.login Login.login");
        assert_eq!(names("", "index", None), "index index");
    }

    #[test]
    fn an_operation_id_names_the_function_and_is_the_id_as_written() {
        // It renames the function the route would have had.
        assert_eq!(
            names("/api/users/login", "login", Some("signIn")),
            "api.users.signIn signIn"
        );
        assert_eq!(
            names("/api/users/login", "sign_in", Some("signIn")),
            "api.users.login.signIn signIn"
        );
        assert_eq!(
            names("/api/users/login", "do_login", Some("login")),
            "api.users.login login"
        );
    }

    #[test]
    fn the_name_prefix_is_left_out_where_the_path_begins_with_it() {
        assert_eq!(
            names_under("/api", "/api/users/login", "login", None),
            "users.login users.login"
        );
        assert_eq!(
            names_under("api/v1/", "/api/v1/articles/:slug", "at", None),
            "articles.at articles.at"
        );
        assert_eq!(
            names_under("/api", "/apis/x", "y", None),
            "apis.x.y apis.x.y"
        );
        assert_eq!(
            names_under("/api", "/health", "health", None),
            "health health"
        );
        assert_eq!(names_under("/api", "/api", "root", None), "root root");
        assert_eq!(names_under("/api", "/api/api", "api", None), "api api");
    }

    #[test]
    fn a_name_prefix_is_literal_segments() {
        assert!(NamePrefix::parse("/api/:version").is_err());
        assert!(NamePrefix::parse("*rest").is_err());
        assert_eq!(NamePrefix::parse("/").unwrap(), NamePrefix::default());
    }
}
