//! The route table: one matchit tree per method, built once at startup.

use std::collections::HashMap;

use http::HeaderValue;

use crate::describe::{ApiVersion, HttpMethod, RouteMeta, VersionRange};

mod static_paths;

use static_paths::StaticPaths;

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
    /// The versions given to [`AppBuilder::versions`](crate::AppBuilder::versions)
    /// cannot be served (none, a default not among them, a header name
    /// that is not one), or a route serves none of them, or routes declare
    /// versions in an app that serves none.
    #[error("API versions: {reason}")]
    InvalidVersions {
        /// What is wrong, and what to write.
        reason: String,
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
    /// A route answers it; `params` holds the raw path values in path
    /// order (`None` for a route without parameters).
    Found {
        endpoint: usize,
        params: Option<matchit::Params<'r, 'p>>,
    },
    /// The path exists under other methods, listed for the `Allow` header.
    MethodNotAllowed(HeaderValue),
    /// An `OPTIONS` request for a path that has routes: what they allow.
    Options(HeaderValue),
    /// No route has this path.
    NotFound,
}

/// What a matchit tree holds for a method and path: the endpoint serving
/// every version, or, with this bit set, the index of the ranges of
/// versions in [`Router::versioned`]. A plain number, so that an app
/// without versions routes as it did before they existed.
const VERSIONED: usize = 1 << (usize::BITS - 1);

/// Routes requests to endpoints by method, path and API version.
pub(crate) struct Router {
    trees: [matchit::Router<usize>; HttpMethod::ALL.len()],
    /// Each method's routes without parameters, by path: what its tree
    /// holds for them, found by one hash lookup.
    statics: [StaticPaths; HttpMethod::ALL.len()],
    /// The endpoints of each method and path served by versions: each
    /// range with its endpoint.
    versioned: Vec<Box<[(VersionRange, usize)]>>,
}

/// A route in build errors: `PUT /a/:id (Controller::handler)`, and the
/// versions it serves when not all.
pub(crate) fn describe(meta: &RouteMeta) -> String {
    if meta.versions.is_all() {
        format!("{} {} ({})", meta.method, meta.path, meta.qualified_name())
    } else {
        format!(
            "{} {} ({}, versions {})",
            meta.method,
            meta.path,
            meta.qualified_name(),
            meta.versions
        )
    }
}

/// The routes of one method and path, numbered, in the order given.
type Group<'a> = Vec<(&'a RouteMeta, usize)>;

/// The routes by method and path, numbered in the order given, refusing
/// two of one method and path that serve a version in common.
pub(crate) fn group<'a>(
    routes: impl IntoIterator<Item = &'a RouteMeta>,
) -> Result<Vec<Group<'a>>, BuildError> {
    let mut groups: Vec<Group<'a>> = Vec::new();
    let mut by_route: HashMap<(HttpMethod, &str), usize> = HashMap::new();
    for (endpoint, meta) in routes.into_iter().enumerate() {
        let Some(&group) = by_route.get(&(meta.method, meta.router_path)) else {
            by_route.insert((meta.method, meta.router_path), groups.len());
            groups.push(vec![(meta, endpoint)]);
            continue;
        };
        if let Some((other, _)) = groups[group]
            .iter()
            .find(|(other, _)| other.versions.overlaps(meta.versions))
        {
            return Err(BuildError::RouteConflict {
                route: describe(meta),
                existing: describe(other),
            });
        }
        groups[group].push((meta, endpoint));
    }
    Ok(groups)
}

impl Router {
    /// Builds the table; `routes` are numbered in the order given. Routes
    /// of the same method and path must serve versions no other of them
    /// serves.
    pub(crate) fn build<'a>(
        routes: impl IntoIterator<Item = &'a RouteMeta>,
    ) -> Result<Router, BuildError> {
        let groups = group(routes)?;
        let mut trees: [matchit::Router<usize>; HttpMethod::ALL.len()] =
            std::array::from_fn(|_| matchit::Router::new());
        let mut statics: [StaticPaths; HttpMethod::ALL.len()] =
            std::array::from_fn(|_| StaticPaths::default());
        let mut versioned = Vec::new();
        let mut by_pattern: HashMap<(HttpMethod, &str), &RouteMeta> = HashMap::new();
        for group in groups {
            let meta = group[0].0;
            let target = match group.as_slice() {
                [(only, endpoint)] if only.versions.is_all() => *endpoint,
                _ => {
                    versioned.push(
                        group
                            .iter()
                            .map(|(meta, endpoint)| (meta.versions, *endpoint))
                            .collect(),
                    );
                    VERSIONED | (versioned.len() - 1)
                }
            };
            if let Err(err) = trees[meta.method.index()].insert(meta.router_path, target) {
                return Err(insert_error(err, meta, &by_pattern));
            }
            if !meta.router_path.contains(['{', '}']) {
                statics[meta.method.index()].insert(meta.router_path, target);
            }
            by_pattern.insert((meta.method, meta.router_path), meta);
        }
        Ok(Router {
            trees,
            statics,
            versioned,
        })
    }

    /// The endpoint a tree's `value` leads to for `version` (`None` when
    /// the app has no versions).
    #[inline]
    fn endpoint(&self, value: usize, version: Option<&ApiVersion>) -> Option<usize> {
        if value & VERSIONED == 0 {
            return Some(value);
        }
        self.resolve(value & !VERSIONED, version)
    }

    /// The endpoint of the `index`th versioned method and path serving
    /// `version`.
    fn resolve(&self, index: usize, version: Option<&ApiVersion>) -> Option<usize> {
        let version = *version?;
        self.versioned
            .get(index)?
            .iter()
            .find(|(range, _)| range.contains(version))
            .map(|(_, endpoint)| *endpoint)
    }

    /// What `method`'s routes hold for `path`, with its raw path values. A
    /// path without parameters is looked up by hash: its tree would give
    /// the same, as a route without parameters matches only its own path
    /// and matchit prefers it there to any route with parameters.
    #[inline]
    fn find<'r, 'p>(
        &'r self,
        method: HttpMethod,
        path: &'p str,
    ) -> Option<(usize, Option<matchit::Params<'r, 'p>>)> {
        if let Some(value) = self.statics[method.index()].get(path) {
            return Some((value, None));
        }
        let found = self.trees[method.index()].at(path).ok()?;
        Some((*found.value, Some(found.params)))
    }

    /// Finds the endpoint for `method` and `path` in an app without
    /// versions (whose trees hold endpoints only).
    #[inline]
    pub(crate) fn lookup<'r, 'p>(&'r self, method: &http::Method, path: &'p str) -> Lookup<'r, 'p> {
        if let Some(method) = HttpMethod::from_http(method)
            && let Some((endpoint, params)) = self.find(method, path)
        {
            return Lookup::Found { endpoint, params };
        }
        self.unrouted(method, path, None)
    }

    /// Finds the endpoint for `method`, `path` and `version` in an app
    /// serving versions.
    pub(crate) fn lookup_version<'r, 'p>(
        &'r self,
        method: &http::Method,
        path: &'p str,
        version: ApiVersion,
    ) -> Lookup<'r, 'p> {
        if let Some(method) = HttpMethod::from_http(method)
            && let Some((value, params)) = self.find(method, path)
            && let Some(endpoint) = self.endpoint(value, Some(&version))
        {
            return Lookup::Found { endpoint, params };
        }
        self.unrouted(method, path, Some(&version))
    }

    /// Why no route answers: the methods the path takes in `version`, or
    /// none.
    #[cold]
    fn unrouted<'r, 'p>(
        &'r self,
        method: &http::Method,
        path: &'p str,
        version: Option<&ApiVersion>,
    ) -> Lookup<'r, 'p> {
        let mut allowed: Vec<&str> = Vec::new();
        let options = method == http::Method::OPTIONS;
        for candidate in HttpMethod::ALL {
            if let Ok(found) = self.trees[candidate.index()].at(path)
                && self.endpoint(*found.value, version).is_some()
            {
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

/// The build error of a path the router refused: a conflict with another
/// route's, named, or a path it cannot route.
fn insert_error(
    err: matchit::InsertError,
    meta: &RouteMeta,
    by_pattern: &HashMap<(HttpMethod, &str), &RouteMeta>,
) -> BuildError {
    match err {
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
            method,
            sdk: true,
            mcp: true,
            ..RouteMeta::framework_get(handler, path, router_path)
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
        assert_eq!(
            params.as_ref().and_then(|params| params.get("id")),
            Some("7")
        );
        // The route without parameters wins where both match, found by hash.
        assert!(matches!(
            router.lookup(&http::Method::GET, "/a/new"),
            Lookup::Found {
                endpoint: 2,
                params: None
            }
        ));
        assert!(matches!(
            router.lookup(&http::Method::GET, "/a/newer"),
            Lookup::Found {
                endpoint: 0,
                params: Some(_)
            }
        ));
        for method in HttpMethod::ALL {
            for (path, value) in router.statics[method.index()].iter() {
                let found = router.trees[method.index()].at(path).unwrap();
                assert_eq!(*found.value, value, "{method:?} {path}: the tree differs");
            }
        }
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

    const V1: ApiVersion = ApiVersion::new(1, 0, 0);
    const V2: ApiVersion = ApiVersion::new(2, 0, 0);
    static NEW: RouteMeta = RouteMeta {
        versions: VersionRange::from(V2),
        ..meta(HttpMethod::Get, "/a/:id", "/a/{id}", "at")
    };
    static OLD: RouteMeta = RouteMeta {
        versions: VersionRange::until(V2),
        ..meta(HttpMethod::Get, "/a/:id", "/a/{id}", "at")
    };
    static CLEAR: RouteMeta = RouteMeta {
        versions: VersionRange::from(V2),
        ..meta(HttpMethod::Delete, "/a/:id", "/a/{id}", "clear")
    };

    #[test]
    fn routes_each_version_to_its_route() {
        let router = Router::build([&NEW, &OLD, &CLEAR, &PUT]).unwrap();
        let found =
            |method: &http::Method, version| match router.lookup_version(method, "/a/7", version) {
                Lookup::Found { endpoint, .. } => Some(endpoint),
                _ => None,
            };
        assert_eq!(found(&http::Method::GET, V2), Some(0));
        assert_eq!(found(&http::Method::GET, V1), Some(1));
        assert_eq!(found(&http::Method::DELETE, V2), Some(2));
        assert_eq!(found(&http::Method::PUT, V1), Some(3));
        let Lookup::MethodNotAllowed(allow) =
            router.lookup_version(&http::Method::DELETE, "/a/7", V1)
        else {
            panic!("DELETE is not in version 1");
        };
        assert_eq!(allow, "GET, HEAD, PUT, OPTIONS");
    }

    #[test]
    fn routes_serving_one_version_twice_conflict() {
        let err = Router::build([&NEW, &AT]).err().unwrap();
        assert_eq!(
            err.to_string(),
            "route conflict: GET /a/:id (Test::at) conflicts with GET /a/:id (Test::at, versions 2.0.0..)"
        );
    }
}
