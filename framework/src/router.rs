//! The route table: one matchit tree per method, built once at startup.

use std::collections::HashMap;

use http::HeaderValue;

use crate::describe::{HttpMethod, RouteMeta};

/// Why an app could not be built.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// Two routes would answer the same requests.
    #[error("route conflict: {route} conflicts with {existing}")]
    RouteConflict {
        /// The route being added: `PUT /a/:id (Controller::handler)`.
        route: String,
        /// The route already there.
        existing: String,
    },
    /// The manifest, and so the OpenAPI document, cannot be built.
    #[error("{0}")]
    Manifest(#[from] crate::describe::manifest::ManifestError),
    /// A route's path cannot be routed.
    #[error("invalid route {route}: {reason}")]
    InvalidPath {
        /// The route: `PUT /a/:id (Controller::handler)`.
        route: String,
        /// What the router said about it.
        reason: String,
    },
    /// An input of a route reads app state (as its
    /// [`InputMeta::states`](crate::InputMeta::states) declare) that the
    /// app was not given with [`AppBuilder::state`](crate::AppBuilder::state):
    /// every request of the route would answer `500`.
    #[error("{}", missing_state(route, input, type_name, registered.as_deref()))]
    MissingState {
        /// The route: `GET /me (Accounts::me)`.
        route: String,
        /// The argument reading the state, as the handler writes its type:
        /// `CurrentUser`.
        input: String,
        /// The state's type: `std::any::type_name` of what the input reads.
        type_name: String,
        /// The type the app was given instead, when it differs only by an
        /// `Arc`: `alloc::sync::Arc<app::Jwt>` for `app::Jwt`, or the
        /// reverse.
        registered: Option<String>,
    },
    /// An origin given to [`CrossOrigin::trust`](crate::CrossOrigin::trust)
    /// is not `scheme://host[:port]`.
    #[error(
        "cross-origin protection: `{origin}` is not an origin; write a scheme and a host, `https://app.example.com`"
    )]
    InvalidOrigin {
        /// The origin as given.
        origin: String,
    },
    /// [`AppBuilder::strip_name_prefix`](crate::AppBuilder::strip_name_prefix)
    /// was given a prefix that is no literal path.
    #[error("{message}")]
    InvalidNamePrefix {
        /// What is wrong with it, and what to write.
        message: String,
    },
    /// A route given to [`CrossOrigin::bypass`](crate::CrossOrigin::bypass)
    /// is not one of the app's.
    #[error(
        "cross-origin protection: the bypass {route} names no route of the app; write the method and the path as the manifest does (`/hooks/:id`)"
    )]
    UnknownBypass {
        /// The method and path as given: `POST /hooks/:id`.
        route: String,
    },
    /// A header given to `HtmlHeaders` (the `askama` feature) is not a
    /// header value (a line break, a byte that is not visible ASCII).
    #[error("HTML page headers: {value:?} is not a header value")]
    InvalidHtmlHeader {
        /// The value as given.
        value: String,
    },
}

/// What [`BuildError::MissingState`] says: what is missing, where, and what
/// to write.
fn missing_state(route: &str, input: &str, type_name: &str, registered: Option<&str>) -> String {
    let mut message = format!(
        "route {route}: its argument `{input}` reads app state of type `{type_name}`, \
         which the app was not given; add `.state(value)` with a value of exactly \
         that type to `App::builder()`"
    );
    if let Some(registered) = registered {
        message.push_str(&format!(
            " (it was given `{registered}` instead, another type: `Arc<T>` and `T` \
             are different states; give it the type the argument reads, or have \
             `{input}` read and declare `{registered}`)"
        ));
    }
    message
}

/// The outcome of looking a request up.
pub(crate) enum Lookup<'r, 'p> {
    /// A route answers it; `params` holds the raw path values in path order.
    Found {
        endpoint: usize,
        params: matchit::Params<'r, 'p>,
    },
    /// The path exists under other methods, listed for the `Allow` header.
    MethodNotAllowed(HeaderValue),
    /// An `OPTIONS` request for a path that has routes: what they allow.
    Options(HeaderValue),
    /// No route has this path.
    NotFound,
}

/// Routes requests to endpoints by method and path.
pub(crate) struct Router {
    trees: [matchit::Router<usize>; HttpMethod::ALL.len()],
}

/// A route in build errors: `PUT /a/:id (Controller::handler)`.
pub(crate) fn describe(meta: &RouteMeta) -> String {
    format!("{} {} ({})", meta.method, meta.path, meta.qualified_name())
}

impl Router {
    /// Builds the table; `routes` are numbered in the order given.
    pub(crate) fn build<'a>(
        routes: impl IntoIterator<Item = &'a RouteMeta>,
    ) -> Result<Router, BuildError> {
        let mut trees: [matchit::Router<usize>; HttpMethod::ALL.len()] =
            std::array::from_fn(|_| matchit::Router::new());
        let mut by_pattern: HashMap<(HttpMethod, &str), &RouteMeta> = HashMap::new();
        for (endpoint, meta) in routes.into_iter().enumerate() {
            let tree = &mut trees[meta.method.index()];
            if let Err(err) = tree.insert(meta.router_path, endpoint) {
                return Err(match err {
                    matchit::InsertError::Conflict { with } => BuildError::RouteConflict {
                        route: describe(meta),
                        existing: by_pattern.get(&(meta.method, with.as_str())).map_or_else(
                            || format!("{} {with}", meta.method),
                            |other| describe(other),
                        ),
                    },
                    other => BuildError::InvalidPath {
                        route: describe(meta),
                        reason: other.to_string(),
                    },
                });
            }
            by_pattern.insert((meta.method, meta.router_path), meta);
        }
        Ok(Router { trees })
    }

    /// Finds the endpoint for `method` and `path`.
    pub(crate) fn lookup<'r, 'p>(&'r self, method: &http::Method, path: &'p str) -> Lookup<'r, 'p> {
        if let Some(method) = HttpMethod::from_http(method)
            && let Ok(found) = self.trees[method.index()].at(path)
        {
            return Lookup::Found {
                endpoint: *found.value,
                params: found.params,
            };
        }
        let mut allowed: Vec<&str> = Vec::new();
        let options = method == http::Method::OPTIONS;
        for candidate in HttpMethod::ALL {
            if self.trees[candidate.index()].at(path).is_ok() {
                allowed.push(candidate.as_str());
                if candidate == HttpMethod::Get {
                    allowed.push("HEAD");
                }
            }
        }
        if allowed.is_empty() {
            return Lookup::NotFound;
        }
        allowed.push("OPTIONS");
        // Method names are ASCII tokens, always a valid header value.
        match HeaderValue::from_str(&allowed.join(", ")) {
            Ok(allow) if options => Lookup::Options(allow),
            Ok(allow) => Lookup::MethodNotAllowed(allow),
            Err(_) => Lookup::NotFound,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn meta(
        method: HttpMethod,
        path: &'static str,
        router_path: &'static str,
        handler: &'static str,
    ) -> RouteMeta {
        RouteMeta {
            controller: "Test",
            handler,
            operation_id: None,
            method,
            path,
            router_path,
            path_params: &[],
            inputs: &[],
            status: 200,
            responses: |_, _| Vec::new(),
            errors: &[],
            answer_errors: Vec::new,
            summary: "",
            description: "",
            sdk: true,
            mcp: true,
        }
    }

    static AT: RouteMeta = meta(HttpMethod::Get, "/a/:id", "/a/{id}", "at");
    static PUT: RouteMeta = meta(HttpMethod::Put, "/a/:id", "/a/{id}", "update");
    static OTHER: RouteMeta = meta(HttpMethod::Put, "/a/:key", "/a/{key}", "other");
    static STATIC: RouteMeta = meta(HttpMethod::Get, "/a/new", "/a/new", "fresh");

    #[test]
    fn routes_by_method_and_path() {
        let router = Router::build([&AT, &PUT, &STATIC]).unwrap();
        let Lookup::Found { endpoint, params } = router.lookup(&http::Method::PUT, "/a/7") else {
            panic!("PUT /a/7 not found");
        };
        assert_eq!(endpoint, 1);
        assert_eq!(params.get("id"), Some("7"));
        assert!(matches!(
            router.lookup(&http::Method::GET, "/a/new"),
            Lookup::Found { endpoint: 2, .. }
        ));
        assert!(matches!(
            router.lookup(&http::Method::HEAD, "/a/1"),
            Lookup::Found { endpoint: 0, .. }
        ));
        assert!(matches!(
            router.lookup(&http::Method::GET, "/b"),
            Lookup::NotFound
        ));
    }

    #[test]
    fn lists_allowed_methods() {
        let router = Router::build([&AT, &PUT]).unwrap();
        let Lookup::MethodNotAllowed(allow) = router.lookup(&http::Method::DELETE, "/a/1") else {
            panic!("expected 405");
        };
        assert_eq!(allow, "GET, HEAD, PUT, OPTIONS");
        let Lookup::Options(allow) = router.lookup(&http::Method::OPTIONS, "/a/1") else {
            panic!("expected the methods OPTIONS allows");
        };
        assert_eq!(allow, "GET, HEAD, PUT, OPTIONS");
        assert!(matches!(
            router.lookup(&http::Method::OPTIONS, "/b"),
            Lookup::NotFound
        ));
    }

    #[test]
    fn names_both_routes_of_a_conflict() {
        let err = Router::build([&PUT, &OTHER]).err().unwrap();
        assert_eq!(
            err,
            BuildError::RouteConflict {
                route: "PUT /a/:key (Test::other)".into(),
                existing: "PUT /a/:id (Test::update)".into(),
            }
        );
        assert_eq!(
            err.to_string(),
            "route conflict: PUT /a/:key (Test::other) conflicts with PUT /a/:id (Test::update)"
        );
    }
}
