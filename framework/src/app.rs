//! The application: controllers' routes in one shared table, served as a
//! `tower::Service`.

#[cfg(feature = "mcp")]
use std::sync::{OnceLock, Weak};
use std::{
    convert::Infallible,
    sync::Arc,
    task::{Context, Poll},
    time::Duration,
};

use bytes::Buf;
use http::{StatusCode, header};
use http_body_util::BodyExt;

#[cfg(feature = "mcp")]
use crate::mcp::{LeftOut, Mcp, McpEndpoint};
#[cfg(feature = "metrics")]
use crate::observe::{METRICS_ROUTE, Metrics};
#[cfg(feature = "docs-page")]
use crate::openapi::{DOCS_ASSET_ROUTE, DOCS_ROUTE, DocsPage};
#[cfg(feature = "openapi")]
use crate::openapi::{Docs, OPENAPI_ROUTE, OPENAPI_VERSION_ROUTE, VersionDocs, version_path};
#[cfg(feature = "askama")]
use crate::response::HtmlHeaders;
use crate::{
    arguments::Arguments,
    body::{BoxError, Response},
    cross_origin::CrossOrigin,
    describe::{ApiVersion, RouteMeta, StateMeta},
    description::Description,
    dispatch::{AnswerHook, AnswerRules, Records, ResponseFuture},
    error::{ApiError, ErrorAnswers, ErrorContract, refusal},
    manifest::{ApiManifest, NamePrefix},
    observe::{Health, HealthEndpoints, HttpMetrics, LIVENESS_ROUTE, READINESS_ROUTE},
    openapi::OpenApiDocument,
    request::{RequestContext, Shared},
    route::{Controller, Handler, RouteFuture},
    router::{BuildError, Lookup, Router, describe},
    shutdown::Shutdown,
    versions::{VersionPolicy, Versions},
};

/// The largest request body accepted unless configured: 2 MiB.
pub const DEFAULT_BODY_LIMIT: usize = 2 * 1024 * 1024;

/// How long a request body may take to arrive unless configured: 30 s.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// Serves one request to an endpoint: its request, as the arguments a
/// handler reads ([`Arguments`]), built where the request is.
type EndpointFn = Box<dyn Fn(Arguments) -> RouteFuture + Send + Sync>;

/// Serves one request to an endpoint that reads nothing of it.
type WithoutRequestFn = Box<dyn Fn() -> RouteFuture + Send + Sync>;

/// How an endpoint serves a request.
enum Serve {
    /// From the request's arguments.
    Reading(EndpointFn),
    /// Without the request: it is let go of before the handler runs, and no
    /// arguments are built (a handler without inputs, a fixed document).
    Ignoring(WithoutRequestFn),
}

struct Endpoint {
    meta: &'static RouteMeta,
    reads_body: bool,
    /// Whether a request's origin is checked before the handler runs (an
    /// unsafe method, not bypassed); set by [`AppBuilder::build`].
    checks_origin: bool,
    serve: Serve,
    /// Served by the framework itself (the OpenAPI document, the docs
    /// page, health and metrics), not listed among the app's routes.
    builtin: bool,
    /// The operation id, as in the OpenAPI document (the handler's name for
    /// the framework's own); set by [`AppBuilder::build`].
    operation: String,
}

/// Collects controllers and settings, then builds an [`App`].
///
/// ```
/// use framework::prelude::*;
///
/// struct Ping;
///
/// #[controller("ping")]
/// impl Ping {
///     #[typed_route::get("")]
///     async fn ping(&self) -> &'static str { "pong" }
/// }
///
/// let app = App::builder()
///     .controller(Ping)
///     .body_limit(64 * 1024)
///     .build()
///     .expect("no route conflicts");
/// ```
///
#[doc = include_str!("docs/security.md")]
#[must_use]
pub struct AppBuilder {
    endpoints: Vec<Endpoint>,
    shared: Shared,
    /// The types given to [`AppBuilder::state`], which the routes' inputs
    /// are checked against.
    states: Vec<StateMeta>,
    document: Option<OpenApiDocument>,
    serve_docs: bool,
    health: Option<Health>,
    #[cfg(feature = "metrics")]
    metrics: Option<Metrics>,
    errors: ErrorAnswers,
    /// The leading path segments routes' names leave out.
    /// A prefix that is no literal path is refused by `build`.
    name_prefix: Result<NamePrefix, String>,
    cross_origin: CrossOrigin,
    #[cfg(feature = "askama")]
    html_headers: Option<HtmlHeaders>,
    #[cfg(feature = "mcp")]
    mcp: Option<Mcp>,
    versions: Option<Versions>,
}

impl AppBuilder {
    /// Adds a controller; its value is shared by all its handlers.
    pub fn controller<C: Controller>(mut self, controller: C) -> Self {
        let shared = Arc::new(controller);
        for route in C::routes() {
            let state = Arc::clone(&shared);
            let serve = match route.handler() {
                Handler::Reading(handler) => Serve::Reading(Box::new(move |arguments| {
                    handler(Arc::clone(&state), arguments)
                })),
                Handler::Ignoring(handler) => {
                    Serve::Ignoring(Box::new(move || handler(Arc::clone(&state))))
                }
            };
            self.endpoints.push(Endpoint {
                meta: route.meta(),
                reads_body: route.meta().reads_body(),
                checks_origin: false,
                serve,
                builtin: false,
                operation: String::new(),
            });
        }
        self
    }

    /// The largest request body accepted, in bytes; larger ones get `413`.
    pub fn body_limit(mut self, bytes: usize) -> Self {
        self.shared.body_limit = bytes;
        self
    }

    /// How long a request body may take to arrive; slower ones get `408`.
    pub fn body_timeout(mut self, timeout: Duration) -> Self {
        self.shared.body_timeout = timeout;
        self
    }

    /// Shares `value` with every extractor, which reads it with
    /// [`RequestContext::state`] (a guard's token store, say); one value
    /// per type, a second replaces the first. The state is found by its
    /// exact type: `Arc<T>` and `T` are two different states.
    ///
    /// [`build`](Self::build) refuses an app one of whose routes takes an
    /// input reading state it was not given (as the input declares with
    /// [`InputMeta::with_state`](crate::InputMeta::with_state)).
    pub fn state<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.shared
            .states
            .insert(std::any::TypeId::of::<T>(), Arc::new(value));
        let state = StateMeta::of::<T>();
        self.states.retain(|given| given.type_id != state.type_id);
        self.states.push(state);
        self
    }

    /// The title, version, description and security schemes of the OpenAPI
    /// document served at `/openapi.json`; its operations are always the
    /// app's routes.
    pub fn openapi(mut self, document: OpenApiDocument) -> Self {
        self.document = Some(document);
        self
    }

    /// Serves liveness at `GET /healthz` and readiness at `GET /readyz`,
    /// with `health`'s checks (see [`Health`]). Neither is in the OpenAPI
    /// document or the SDKs.
    ///
    /// ```
    /// use framework::{Health, prelude::*};
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let app = App::builder().health(Health::new()).build().unwrap();
    /// assert_eq!(app.test_client().get("/readyz").send().await.status(), 200);
    /// app.begin_shutdown();
    /// assert_eq!(app.test_client().get("/readyz").send().await.status(), 503);
    /// assert_eq!(app.test_client().get("/healthz").send().await.status(), 200);
    /// # });
    /// ```
    pub fn health(mut self, health: Health) -> Self {
        self.health = Some(health);
        self
    }

    /// Counts requests and serves Prometheus metrics at `GET /metrics`
    /// (see [`Metrics`]); not in the OpenAPI document or the SDKs. Without
    /// this, requests are not counted at all.
    ///
    /// Needs the `metrics` feature (on by default); without it there is no
    /// `/metrics` route and no counting code.
    #[cfg(feature = "metrics")]
    #[cfg_attr(docsrs, doc(cfg(feature = "metrics")))]
    pub fn metrics(mut self, metrics: Metrics) -> Self {
        self.metrics = Some(metrics);
        self
    }

    /// Answers every error, the framework's refusals and the handlers'
    /// errors alike, with `contract`'s status and body instead of the
    /// problem document, and documents them so (see [`ErrorContract`]).
    ///
    /// [`ErrorContract`]: crate::ErrorContract
    pub fn errors(mut self, contract: impl ErrorContract) -> Self {
        self.errors = Some(Arc::new(contract));
        self
    }

    /// Names the routes under `prefix` after the rest of their path: with
    /// `.strip_name_prefix("/api")`, `POST /api/users/login` handled by
    /// `login` has the operation id `users.login` and is
    /// `api.functional.users.login` in the TypeScript SDK
    /// (`client.users().login()` in Rust), not `api.users.login`. The
    /// paths routes are served at do not change, and routes outside the
    /// prefix keep their names; a route's own `operation_id = ".."` is
    /// kept as written. A second call replaces the first. How routes are
    /// named: [`typed_route`](crate::typed_route#names-operation-ids-and-sdk-functions).
    ///
    /// ```
    /// use framework::prelude::*;
    ///
    /// struct Users;
    ///
    /// #[controller("api/users")]
    /// impl Users {
    ///     #[typed_route::post("login")]
    ///     async fn login(&self) -> &'static str { "welcome" }
    /// }
    ///
    /// let app = App::builder().controller(Users).strip_name_prefix("/api").build().unwrap();
    /// let login = &app.manifest().routes[0];
    /// assert_eq!(login.path, "/api/users/login");
    /// assert_eq!(login.operation_id, "users.login");
    /// assert_eq!(login.accessor, ["users", "login"]);
    /// ```
    ///
    /// A `prefix` that holds a path parameter (`/api/:version`) makes
    /// [`build`](Self::build) fail with [`BuildError::InvalidNamePrefix`]:
    /// a name prefix is literal path segments.
    pub fn strip_name_prefix(mut self, prefix: &str) -> Self {
        self.name_prefix = NamePrefix::parse(prefix);
        self
    }

    /// How requests sent by a browser from another site's page are
    /// refused; by default an unsafe request (`POST`, `PUT`, `PATCH`,
    /// `DELETE`) gets `403 cross_origin_request` and a WebSocket handshake
    /// `403 cross_origin_websocket` (see [`CrossOrigin`]). Clients that are
    /// not browsers are never refused.
    pub fn cross_origin(mut self, cross_origin: CrossOrigin) -> Self {
        self.cross_origin = cross_origin;
        self
    }

    /// The security headers of the app's HTML pages ([`Html<T>`]
    /// answers): the scripts and styles its pages may hold, or a policy of
    /// its own (see [`HtmlHeaders`]).
    ///
    /// [`Html<T>`]: crate::response::Html
    #[cfg(feature = "askama")]
    #[cfg_attr(docsrs, doc(cfg(feature = "askama")))]
    pub fn html_headers(mut self, headers: HtmlHeaders) -> Self {
        self.html_headers = Some(headers);
        self
    }

    /// Serves the app's routes as tools for language models over the Model
    /// Context Protocol ([`Mcp`]; `/mcp` with [`Mcp::new`]); see
    /// [`framework::mcp`](crate::mcp).
    #[cfg(feature = "mcp")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
    pub fn mcp(mut self, mcp: Mcp) -> Self {
        self.mcp = Some(mcp);
        self
    }

    /// Serves several versions of the API: each route serves those its
    /// `versions = ..` says, a request gets those of the version it names
    /// (see [`Versions`]), and the app has a manifest and an OpenAPI
    /// document per version. Without it, routes may not declare versions.
    pub fn versions(mut self, versions: Versions) -> Self {
        self.versions = Some(versions);
        self
    }

    /// Serves neither `/openapi.json` nor the docs page at `/docs` (which
    /// is served only with the `docs-page` feature, on by default).
    pub fn without_docs(mut self) -> Self {
        self.serve_docs = false;
        self
    }

    /// Builds the route table and the manifest (and, unless
    /// [`without_docs`](Self::without_docs), the OpenAPI document), refusing
    /// conflicting routes, ambiguous type names, two routes with one
    /// operation id or SDK name
    /// ([`ManifestError::DuplicateOperationId`](crate::manifest::ManifestError::DuplicateOperationId)
    /// and its neighbours, as [`BuildError::Manifest`]) and routes whose
    /// inputs read app state the app was not given
    /// ([`BuildError::MissingState`]).
    ///
    /// ```
    /// use framework::prelude::*;
    /// use framework::{BuildError, InputMeta, RequestContext, StateMeta};
    ///
    /// struct Jwt { secret: String }
    ///
    /// /// A guard that reads the app's `Jwt`, and says so.
    /// struct Signed;
    ///
    /// impl FromRequestParts for Signed {
    ///     const INPUT: InputMeta = InputMeta::request().with_state(&[StateMeta::of::<Jwt>]);
    ///
    ///     async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
    ///         let _jwt = cx.state::<Jwt>()?;
    ///         Ok(Signed)
    ///     }
    /// }
    ///
    /// struct Me;
    ///
    /// #[controller("me")]
    /// impl Me {
    ///     #[typed_route::get("")]
    ///     async fn me(&self, _signed: Signed) -> &'static str { "signed" }
    /// }
    ///
    /// // Given an `Arc<Jwt>` where a `Jwt` is read: refused.
    /// let refused = App::builder()
    ///     .controller(Me)
    ///     .state(std::sync::Arc::new(Jwt { secret: "s".into() }))
    ///     .build()
    ///     .unwrap_err();
    /// assert!(matches!(refused, BuildError::MissingState { .. }));
    ///
    /// App::builder()
    ///     .controller(Me)
    ///     .state(Jwt { secret: "s".into() })
    ///     .build()
    ///     .unwrap();
    /// ```
    pub fn build(mut self) -> Result<App, BuildError> {
        self.check_states()?;
        self.prepare_cross_origin()?;
        let versions = self.prepare_versions()?;
        let answers = self.answer_rules()?;
        let base = self
            .document
            .take()
            .unwrap_or_else(|| OpenApiDocument::new("API", "0.1.0"));
        #[cfg_attr(not(feature = "openapi"), allow(unused_mut))]
        let (mut descriptions, default) = self.describe(&base, versions.as_ref())?;
        #[cfg(feature = "openapi")]
        if self.serve_docs {
            self.add_docs(&mut descriptions, default);
        }
        if let Some(health) = self.health.take() {
            self.add_health(health);
        }
        #[cfg(feature = "mcp")]
        let mcp = self.add_mcp(&descriptions[default])?;
        #[cfg(feature = "metrics")]
        let metrics_at = self.add_metrics_route();
        self.name_operations(&descriptions);
        let router = Router::build(self.endpoints.iter().map(|endpoint| endpoint.meta))?;
        #[cfg(feature = "metrics")]
        let metrics = self.build_metrics(metrics_at);
        #[cfg(not(feature = "metrics"))]
        let metrics = None;
        let app = App {
            inner: Arc::new(AppInner {
                router,
                endpoints: self.endpoints,
                shared: Arc::new(self.shared),
                descriptions,
                default,
                versions,
                metrics,
                answers,
                #[cfg(feature = "mcp")]
                mcp: mcp.clone(),
            }),
        };
        #[cfg(feature = "mcp")]
        if let Some(mcp) = mcp {
            mcp.app.set(&app);
        }
        Ok(app)
    }

    /// The app's versions, checked against its routes; `None` when it
    /// serves no versions (and no route declares any).
    fn prepare_versions(&mut self) -> Result<Option<VersionPolicy>, BuildError> {
        // Before the manifests, which would find the same operation twice.
        crate::router::group(self.endpoints.iter().map(|endpoint| endpoint.meta))?;
        let metas = self.endpoints.iter().map(|endpoint| endpoint.meta);
        match self.versions.take() {
            Some(versions) => versions.prepare(metas).map(Some),
            None => match metas.into_iter().find(|meta| !meta.versions.is_all()) {
                Some(meta) => Err(BuildError::InvalidVersions {
                    reason: format!(
                        "route {} serves versions {}, but the app serves none; list them with `.versions(Versions::new([..]))`",
                        describe(meta),
                        meta.versions
                    ),
                }),
                None => Ok(None),
            },
        }
    }

    /// The document and manifest of each version the app serves (one,
    /// unversioned, when it has none), and which is the default's.
    fn describe(
        &self,
        base: &OpenApiDocument,
        versions: Option<&VersionPolicy>,
    ) -> Result<(Vec<Description>, usize), BuildError> {
        let Some(policy) = versions else {
            let document = base.clone().routes(self.endpoints.iter().map(|e| e.meta));
            let manifest = self.manifest(&document)?;
            return Ok((vec![Description::new(None, document, manifest)], 0));
        };
        let mut descriptions = Vec::with_capacity(policy.served.len());
        for &version in &policy.served {
            let document = base.for_version(version).routes(
                self.endpoints
                    .iter()
                    .map(|endpoint| endpoint.meta)
                    .filter(|meta| meta.versions.contains(version)),
            );
            let mut manifest = self.manifest(&document)?;
            manifest.api_version = Some(policy.manifest(version));
            descriptions.push(Description::new(Some(version), document, manifest));
        }
        let default = policy
            .served
            .iter()
            .position(|version| *version == policy.default)
            .unwrap_or_default();
        Ok((descriptions, default))
    }

    /// Adds the MCP endpoint, when the app has one, with a tool for each
    /// route it offers.
    #[cfg(feature = "mcp")]
    fn add_mcp(&mut self, described: &Description) -> Result<Option<Arc<McpEndpoint>>, BuildError> {
        let manifest = &described.manifest;
        let Some(mcp) = self.mcp.take() else {
            return Ok(None);
        };
        if !mcp.path.starts_with('/') || mcp.path.contains([':', '*', '{', '}', '?', '#']) {
            return Err(BuildError::InvalidPath {
                route: format!("POST {} (the MCP endpoint)", mcp.path),
                reason: "write a literal absolute path, `/mcp`".into(),
            });
        }
        let metas: Vec<&'static RouteMeta> = self
            .endpoints
            .iter()
            .map(|e| e.meta)
            .filter(|meta| described.serves(meta))
            .collect();
        let catalogue = crate::mcp::Catalogue::new(&mcp, manifest, &metas);
        let endpoint = Arc::new(McpEndpoint::new(catalogue, manifest, mcp.instructions));
        // Built once per app, and routes' metadata lives as long as the
        // program: the endpoint's, whose path is the app's, is leaked.
        let path: &'static str = Box::leak(mcp.path.into_boxed_str());
        let meta: &'static RouteMeta = Box::leak(Box::new(RouteMeta {
            method: crate::HttpMethod::Post,
            ..RouteMeta::framework_get("mcp", path, path)
        }));
        let serving = Arc::clone(&endpoint);
        self.endpoints.push(Endpoint {
            meta,
            reads_body: true,
            checks_origin: self.cross_origin.checks(meta),
            serve: Serve::Reading(Box::new(move |arguments: Arguments| {
                let serving = Arc::clone(&serving);
                RouteFuture::from_or_box(
                    async move { serving.answer(arguments.into_context()).await },
                )
            })),
            builtin: true,
            operation: String::new(),
        });
        Ok(Some(endpoint))
    }

    /// Checks the cross-origin settings against the routes and marks the
    /// endpoints whose requests are checked.
    fn prepare_cross_origin(&mut self) -> Result<(), BuildError> {
        self.shared.origins = self.cross_origin.prepare(
            self.endpoints
                .iter()
                .filter(|endpoint| !endpoint.builtin)
                .map(|endpoint| endpoint.meta),
        )?;
        for endpoint in &mut self.endpoints {
            endpoint.checks_origin = !endpoint.builtin && self.cross_origin.checks(endpoint.meta);
        }
        Ok(())
    }

    /// What the app does to every answer: its error contract, and (with
    /// templates) the headers of its pages, checked here.
    fn answer_rules(&self) -> Result<Option<Arc<AnswerRules>>, BuildError> {
        #[cfg(feature = "askama")]
        {
            let pages = match &self.html_headers {
                Some(headers) => Some(
                    headers
                        .prepare()
                        .map_err(|value| BuildError::InvalidHtmlHeader { value })?,
                ),
                None => None,
            };
            Ok(AnswerRules::new(self.errors.clone(), pages))
        }
        #[cfg(not(feature = "askama"))]
        Ok(AnswerRules::new(self.errors.clone()))
    }

    /// The app's manifest: `document`'s routes, answered as the app's error
    /// contract says, without the cross-origin refusals the app never
    /// answers, named under the app's name prefix.
    fn manifest(&self, document: &OpenApiDocument) -> Result<ApiManifest, BuildError> {
        let name_prefix = self
            .name_prefix
            .clone()
            .map_err(|message| BuildError::InvalidNamePrefix { message })?;
        let cross_origin = &self.cross_origin;
        let manifest = document.manifest_answering(
            self.errors.as_deref(),
            &name_prefix,
            &|meta, refused| {
                (*refused == refusal::CROSS_ORIGIN_REQUEST && !cross_origin.checks(meta))
                    || (*refused == refusal::CROSS_ORIGIN_WEBSOCKET
                        && !cross_origin.checks_websockets())
            },
        )?;
        Ok(manifest)
    }

    /// Each endpoint's operation, as traces name it: the manifest's
    /// operation id of its route (a built-in route's handler name).
    fn name_operations(&mut self, descriptions: &[Description]) {
        for endpoint in &mut self.endpoints {
            let meta = endpoint.meta;
            endpoint.operation = if endpoint.builtin {
                meta.handler.to_owned()
            } else {
                descriptions
                    .iter()
                    .filter(|described| described.serves(meta))
                    .flat_map(|described| &described.manifest.routes)
                    .find(|route| route.method == meta.method && route.path == meta.path)
                    .map_or_else(|| meta.qualified_name(), |route| route.operation_id.clone())
            };
        }
    }

    /// Refuses a route one of whose inputs reads app state the app was not
    /// given: found now, not as a `500` on every request of the route.
    fn check_states(&self) -> Result<(), BuildError> {
        for endpoint in &self.endpoints {
            for input in endpoint.meta.inputs {
                for need in input.states.iter().map(|state| state()) {
                    if self
                        .states
                        .iter()
                        .any(|given| given.type_id == need.type_id)
                    {
                        continue;
                    }
                    let registered = self.states.iter().find(|given| {
                        given.arc_type_id == need.type_id || need.arc_type_id == given.type_id
                    });
                    let input = match input.argument_type {
                        "" => "an input",
                        written => written,
                    };
                    return Err(BuildError::MissingState {
                        route: describe(endpoint.meta),
                        input: input.to_owned(),
                        type_name: need.type_name.to_owned(),
                        registered: registered.map(|given| given.type_name.to_owned()),
                    });
                }
            }
        }
        Ok(())
    }

    /// Reserves `GET /metrics` (its answer is set by
    /// [`build_metrics`](Self::build_metrics), once the operations are
    /// named); its index among the endpoints.
    #[cfg(feature = "metrics")]
    fn add_metrics_route(&mut self) -> Option<usize> {
        self.metrics.is_some().then(|| {
            self.endpoints.push(builtin(
                &METRICS_ROUTE,
                Serve::Ignoring(Box::new(|| {
                    RouteFuture::from_or_box(async { http::Response::new(crate::Body::empty()) })
                })),
            ));
            self.endpoints.len() - 1
        })
    }

    /// Makes the counters of every endpoint, and serves them at the
    /// endpoint `metrics_at` reserved.
    #[cfg(feature = "metrics")]
    fn build_metrics(&mut self, metrics_at: Option<usize>) -> Option<Arc<HttpMetrics>> {
        let (metrics, index) = self.metrics.take().zip(metrics_at)?;
        let (metrics, serve) = metrics.build(
            self.endpoints
                .iter()
                .map(|endpoint| (endpoint.operation.as_str(), endpoint.meta)),
        );
        self.endpoints[index].serve = Serve::Ignoring(Box::new(move || {
            let response = serve.answer();
            RouteFuture::from_or_box(async move { response })
        }));
        Some(metrics)
    }

    fn add_health(&mut self, health: Health) {
        let endpoints = HealthEndpoints::new(health, self.shared.shutdown.clone());
        self.endpoints.push(builtin(
            &LIVENESS_ROUTE,
            Serve::Ignoring(Box::new(|| {
                RouteFuture::from_or_box(async { HealthEndpoints::liveness() })
            })),
        ));
        self.endpoints.push(builtin(
            &READINESS_ROUTE,
            Serve::Ignoring(Box::new(move || {
                RouteFuture::from_or_box(endpoints.clone().readiness())
            })),
        ));
    }

    /// Serves each version's document (`/openapi.json` the default's, and
    /// `/openapi/<version>.json` each version's when the app has versions)
    /// and the docs page.
    #[cfg(feature = "openapi")]
    fn add_docs(&mut self, descriptions: &mut [Description], default: usize) {
        for described in descriptions.iter_mut() {
            described.docs = Some(Docs::new(described.json()));
        }
        if let Some(document) = descriptions[default].docs.clone() {
            self.endpoints.push(builtin(
                &OPENAPI_ROUTE,
                Serve::Ignoring(Box::new(move || {
                    let response = document.document();
                    RouteFuture::from_or_box(async move { response })
                })),
            ));
        }
        let mut versions: Vec<(String, Docs)> = descriptions
            .iter()
            .filter_map(|described| Some((described.version?.to_string(), described.docs.clone()?)))
            .collect();
        // The default's first: the docs page shows it first.
        let shown = descriptions[default].manifest.version.clone();
        versions.sort_by_key(|(version, _)| *version != shown);
        let paths: Vec<(String, String)> = versions
            .iter()
            .map(|(version, _)| (version.clone(), version_path(version)))
            .collect();
        if !versions.is_empty() {
            let documents = VersionDocs(versions.into());
            self.endpoints.push(builtin(
                &OPENAPI_VERSION_ROUTE,
                Serve::Reading(Box::new(move |arguments: Arguments| {
                    let response =
                        documents.answer(arguments.context().path_value(0).unwrap_or_default());
                    RouteFuture::from_or_box(async move { response })
                })),
            ));
        }
        #[cfg(feature = "docs-page")]
        self.add_docs_page(&paths);
        #[cfg(not(feature = "docs-page"))]
        let _ = paths;
    }

    /// `GET /docs` and Swagger UI's files under it.
    #[cfg(feature = "docs-page")]
    fn add_docs_page(&mut self, versions: &[(String, String)]) {
        self.endpoints.push(builtin(
            &DOCS_ROUTE,
            Serve::Ignoring(Box::new(|| {
                RouteFuture::from_or_box(async { DocsPage::redirect() })
            })),
        ));
        let assets = DocsPage::new(versions);
        self.endpoints.push(builtin(
            &DOCS_ASSET_ROUTE,
            Serve::Reading(Box::new(move |arguments: Arguments| {
                let cx = arguments.context();
                let response = assets.asset(cx.path_value(0).unwrap_or_default());
                RouteFuture::from_or_box(async move { response })
            })),
        ));
    }
}

/// An endpoint served by the framework itself.
fn builtin(meta: &'static RouteMeta, serve: Serve) -> Endpoint {
    Endpoint {
        meta,
        reads_body: false,
        checks_origin: false,
        serve,
        builtin: true,
        operation: String::new(),
    }
}

struct AppInner {
    router: Router,
    endpoints: Vec<Endpoint>,
    shared: Arc<Shared>,
    /// Each version's document and manifest (the one of an app without
    /// versions), oldest first.
    descriptions: Vec<Description>,
    /// Which of them a request without a version gets.
    default: usize,
    /// How a request's version is found; `None` without versions.
    versions: Option<VersionPolicy>,
    /// Request counters; `None` unless [`AppBuilder::metrics`].
    metrics: Option<Arc<HttpMetrics>>,
    /// The error contract and the headers of HTML pages; `None` when the
    /// app has neither (the problem document, the headers `Html` sets).
    answers: Option<Arc<AnswerRules>>,
    /// The MCP endpoint; `None` unless [`AppBuilder::mcp`].
    #[cfg(feature = "mcp")]
    mcp: Option<Arc<McpEndpoint>>,
}

/// The app, for a part of it that calls it (the MCP endpoint): set once
/// it is built, and not keeping it alive.
#[cfg(feature = "mcp")]
#[derive(Debug, Default)]
pub(crate) struct AppRef(OnceLock<Weak<AppInner>>);

#[cfg(feature = "mcp")]
impl AppRef {
    fn set(&self, app: &App) {
        let _ = self.0.set(Arc::downgrade(&app.inner));
    }

    /// The app, unless it is gone.
    pub(crate) fn get(&self) -> Option<App> {
        let inner = self.0.get()?.upgrade()?;
        Some(App { inner })
    }
}

/// An application: its route table is built once and shared, so cloning an
/// `App` is cheap. It is a `tower::Service`, so tower and tower-http layers
/// wrap it, and [`Server`](crate::Server) serves it.
///
/// ```
/// use framework::prelude::*;
///
/// struct Ping;
///
/// #[controller("ping")]
/// impl Ping {
///     #[typed_route::get("")]
///     async fn ping(&self) -> &'static str { "pong" }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder().controller(Ping).build().unwrap();
/// let response = app.test_client().get("/ping").send().await;
/// assert_eq!(response.status(), 200);
/// assert_eq!(response.text(), "pong");
/// # });
/// ```
#[derive(Clone)]
pub struct App {
    inner: Arc<AppInner>,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App")
            .field("routes", &self.routes())
            .field("body_limit", &self.inner.shared.body_limit)
            .field("body_timeout", &self.inner.shared.body_timeout)
            .finish()
    }
}

impl App {
    /// Starts building an app.
    pub fn builder() -> AppBuilder {
        AppBuilder {
            endpoints: Vec::new(),
            shared: Shared {
                body_limit: DEFAULT_BODY_LIMIT,
                body_timeout: DEFAULT_BODY_TIMEOUT,
                states: Default::default(),
                shutdown: Shutdown::new(),
                origins: Default::default(),
                #[cfg(feature = "ws")]
                sockets: Default::default(),
            },
            states: Vec::new(),
            document: None,
            serve_docs: true,
            health: None,
            #[cfg(feature = "metrics")]
            metrics: None,
            errors: None,
            name_prefix: Ok(NamePrefix::default()),
            cross_origin: CrossOrigin::new(),
            #[cfg(feature = "askama")]
            html_headers: None,
            #[cfg(feature = "mcp")]
            mcp: None,
            versions: None,
        }
    }

    /// The app's shutdown signal, the one handlers see through
    /// [`RequestContext::shutdown`]. A [`Server`](crate::Server) serving
    /// this app begins it when its own shutdown signal completes.
    pub fn shutdown(&self) -> &Shutdown {
        &self.inner.shared.shutdown
    }

    /// Begins the app's graceful shutdown: readiness answers `503` from now
    /// on and whatever watches [`App::shutdown`] ends. The server calls this
    /// itself; call it for an app served another way, or in a test. It does
    /// not stop a server.
    ///
    /// ```
    /// # use framework::prelude::*;
    /// let app = App::builder().build().unwrap();
    /// app.begin_shutdown();
    /// assert!(app.shutdown().is_started());
    /// ```
    pub fn begin_shutdown(&self) {
        self.inner.shared.shutdown.begin();
    }

    /// The app's OpenAPI 3.1 document, as served at `/openapi.json` (made
    /// now when the app serves no docs): the default version's, for an
    /// app with [`Versions`].
    #[cfg(feature = "openapi")]
    #[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
    pub fn openapi_json(&self) -> String {
        self.inner.descriptions[self.inner.default].json()
    }

    /// The OpenAPI document of one version of the app's API (served at
    /// `/openapi/<version>.json`), `None` for a version it does not serve.
    /// An app without versions has one document, of every version.
    #[cfg(feature = "openapi")]
    #[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
    pub fn openapi_json_for(&self, version: ApiVersion) -> Option<String> {
        self.description(version).map(Description::json)
    }

    /// The app's routes resolved with their types: what the OpenAPI document
    /// is made of and what `app manifest` prints for `sdk-gen`. For an app
    /// with [`Versions`], the default version's.
    pub fn manifest(&self) -> &ApiManifest {
        &self.inner.descriptions[self.inner.default].manifest
    }

    /// The manifest of one version of the app's API, `None` for a version
    /// it does not serve. An app without versions has one manifest, of
    /// every version.
    pub fn manifest_for(&self, version: ApiVersion) -> Option<&ApiManifest> {
        self.description(version)
            .map(|described| &described.manifest)
    }

    /// Every version's manifest, oldest first: the one manifest of an app
    /// without [`Versions`]. What
    /// [`assert_compatible`](crate::testing::assert_compatible) checks
    /// blessed versions against.
    pub fn manifests(&self) -> impl Iterator<Item = &ApiManifest> {
        self.inner
            .descriptions
            .iter()
            .map(|described| &described.manifest)
    }

    /// The versions the app serves, oldest first (none without
    /// [`Versions`]).
    pub fn versions(&self) -> &[ApiVersion] {
        self.inner
            .versions
            .as_ref()
            .map_or(&[], |policy| policy.served.as_slice())
    }

    /// The description of `version`: the one description of an app without
    /// versions.
    fn description(&self, version: ApiVersion) -> Option<&Description> {
        self.inner
            .descriptions
            .iter()
            .find(|described| described.version.is_none_or(|known| known == version))
    }

    /// The metadata of every route, in the order controllers were added.
    pub fn routes(&self) -> Vec<&'static RouteMeta> {
        self.inner
            .endpoints
            .iter()
            .filter(|endpoint| !endpoint.builtin)
            .map(|endpoint| endpoint.meta)
            .collect()
    }

    /// The names of the tools the app's MCP endpoint offers, in route order
    /// (none without [`AppBuilder::mcp`]); see [`Mcp`].
    #[cfg(feature = "mcp")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
    pub fn mcp_tools(&self) -> impl Iterator<Item = &str> {
        self.inner.mcp.iter().flat_map(|mcp| mcp.tools())
    }

    /// The routes the app's MCP endpoint leaves out, and why: uploads,
    /// WebSocket routes, answers that stream or are bytes, and routes that
    /// say `mcp = false`.
    #[cfg(feature = "mcp")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
    pub fn mcp_left_out(&self) -> &[LeftOut] {
        self.inner.mcp.as_deref().map_or(&[], McpEndpoint::left_out)
    }

    /// The route that would serve `method` and `path`, if any: the same
    /// lookup requests go through.
    ///
    /// ```
    /// use framework::prelude::*;
    ///
    /// struct Articles;
    ///
    /// #[controller("articles")]
    /// impl Articles {
    ///     #[typed_route::get(":id")]
    ///     async fn at(&self, #[param] id: u64) -> u64 { id }
    /// }
    ///
    /// let app = App::builder().controller(Articles).build().unwrap();
    /// let route = app.route_for(&http::Method::GET, "/articles/7").unwrap();
    /// assert_eq!(route.handler, "at");
    /// assert!(app.route_for(&http::Method::GET, "/nothing").is_none());
    /// ```
    pub fn route_for(&self, method: &http::Method, path: &str) -> Option<&'static RouteMeta> {
        let lookup = match &self.inner.versions {
            None => self.inner.router.lookup(method, path),
            Some(policy) => self
                .inner
                .router
                .lookup_version(method, path, policy.default),
        };
        match lookup {
            Lookup::Found { endpoint, .. } => Some(self.inner.endpoints[endpoint].meta),
            Lookup::MethodNotAllowed(_) | Lookup::Options(_) | Lookup::NotFound => None,
        }
    }

    /// Answers one request.
    pub async fn handle<B>(&self, request: http::Request<B>) -> Response
    where
        B: http_body::Body + Send + 'static,
        B::Data: Send,
        B::Error: Into<BoxError>,
    {
        match self.dispatch(request, ()).await {
            Ok(response) => response,
            Err(never) => match never {},
        }
    }

    /// Routes a request and starts its handler, whose future is the
    /// request's: nothing of the framework's is boxed around it. `hook` is
    /// what the server serving it does with the answer (`()` for none).
    pub(crate) fn dispatch<B, H: AnswerHook>(
        &self,
        request: http::Request<B>,
        hook: H,
    ) -> ResponseFuture<H>
    where
        B: http_body::Body + Send + 'static,
        B::Data: Send,
        B::Error: Into<BoxError>,
    {
        let (parts, body) = request.into_parts();
        let head = parts.method == http::Method::HEAD;
        let lookup = match &self.inner.versions {
            None => self.inner.router.lookup(&parts.method, parts.uri.path()),
            Some(policy) => match policy.of(&parts.headers) {
                Ok(version) => {
                    self.inner
                        .router
                        .lookup_version(&parts.method, parts.uri.path(), version)
                }
                Err(refused) => return self.refused(None, &parts, refused.into_response(), hook),
            },
        };
        let (index, path_values) = match lookup {
            Lookup::Found {
                endpoint,
                params: None,
            } => (endpoint, Vec::new()),
            Lookup::Found {
                endpoint,
                params: Some(params),
            } => match decode_path_values(&params) {
                Ok(values) => (endpoint, values),
                Err(err) => {
                    return self.refused(Some(endpoint), &parts, err.into_response(), hook);
                }
            },
            Lookup::MethodNotAllowed(allow) => {
                return self.unrouted(Some(allow), &parts, hook);
            }
            Lookup::Options(allow) => {
                return self.refused(None, &parts, options(allow), hook);
            }
            Lookup::NotFound => return self.unrouted(None, &parts, hook),
        };
        let endpoint = &self.inner.endpoints[index];
        if endpoint.checks_origin
            && let Err(refused) = self.inner.shared.origins.check_unsafe(&parts)
        {
            return self.refused(Some(index), &parts, refused.into_response(), hook);
        }
        let span = request_span(&parts, &endpoint.operation);
        let observed = self
            .inner
            .metrics
            .as_ref()
            .map(|metrics| metrics.start(Some(index), head));
        let records = Records {
            span,
            observed,
            hook,
            answers: self.inner.answers.clone(),
        };
        let call = match &endpoint.serve {
            Serve::Reading(call) => call,
            // The request is let go of as this returns, before the
            // handler's future is first polled.
            Serve::Ignoring(answer) => {
                return ResponseFuture::start(endpoint.meta, head, records, answer);
            }
        };
        let body = endpoint.reads_body.then(|| {
            body.map_frame(|frame| frame.map_data(|mut data| data.copy_to_bytes(data.remaining())))
                .map_err(Into::into)
                .boxed_unsync()
        });
        let arguments = Arguments::new(RequestContext::new(
            parts,
            body,
            path_values,
            Arc::clone(&self.inner.shared),
        ));
        ResponseFuture::start(endpoint.meta, head, records, || call(arguments))
    }

    /// Refuses a request no route answers: `405` with the methods the path
    /// `allow`s, or `404` when it has none.
    #[cold]
    fn unrouted<H: AnswerHook>(
        &self,
        allow: Option<http::HeaderValue>,
        parts: &http::request::Parts,
        hook: H,
    ) -> ResponseFuture<H> {
        let (method, path) = (&parts.method, parts.uri.path());
        let refusal = match allow {
            Some(allow) => refusal::METHOD_NOT_ALLOWED
                .error(format!("{method} is not allowed on {path}"))
                .with_header(header::ALLOW, allow),
            None => refusal::NOT_FOUND.error(format!("no route for {method} {path}")),
        };
        self.refused(None, parts, refusal.into_response(), hook)
    }

    /// Answers a request that no handler runs for: no route, a method the
    /// path does not allow, `OPTIONS`, a path value that is not UTF-8, a
    /// cross-origin request.
    fn refused<H: AnswerHook>(
        &self,
        endpoint: Option<usize>,
        parts: &http::request::Parts,
        response: Response,
        hook: H,
    ) -> ResponseFuture<H> {
        let operation = endpoint.map_or("", |index| self.inner.endpoints[index].operation.as_str());
        let head = parts.method == http::Method::HEAD;
        let observed = self
            .inner
            .metrics
            .as_ref()
            .map(|metrics| metrics.start(endpoint, head));
        let records = Records {
            span: request_span(parts, operation),
            observed,
            hook,
            answers: self.inner.answers.clone(),
        };
        ResponseFuture::ready(response, records)
    }

    /// The app's open WebSockets, which the server's graceful shutdown
    /// waits for.
    #[cfg(all(feature = "ws", feature = "server"))]
    pub(crate) fn open_sockets(&self) -> crate::ws::OpenSockets {
        self.inner.shared.sockets.clone()
    }

    /// Whether `other` is a clone of this app.
    #[cfg(feature = "server")]
    pub(crate) fn is(&self, other: &App) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    /// The open-connections gauge the server counts, when the app has
    /// metrics.
    #[cfg(feature = "server")]
    pub(crate) fn connections_gauge(&self) -> Option<crate::observe::ConnectionsGauge> {
        self.inner
            .metrics
            .as_ref()
            .map(|metrics| metrics.connections().clone())
    }
}

/// The span a request is answered in: method, path, operation id (empty
/// when no route matched) and, once answered, status. `None` when no
/// subscriber wants it: without a subscriber at `INFO` this is one load of
/// tracing's global level filter, and no span is made at all (not even the
/// disabled span that tracing's `log` feature would report to `log`).
#[inline]
fn request_span(parts: &http::request::Parts, operation: &str) -> Option<tracing::Span> {
    use tracing::{Level, level_filters::LevelFilter};
    if tracing::level_filters::STATIC_MAX_LEVEL < Level::INFO
        || LevelFilter::current() < Level::INFO
    {
        return None;
    }
    new_request_span(parts, operation)
}

/// [`request_span`] once a subscriber may want it.
#[inline(never)]
fn new_request_span(parts: &http::request::Parts, operation: &str) -> Option<tracing::Span> {
    let span = tracing::info_span!(
        "request",
        method = %parts.method,
        path = parts.uri.path(),
        operation,
        status = tracing::field::Empty,
    );
    (!span.is_disabled()).then_some(span)
}

/// `204` to `OPTIONS`, with the methods the path allows.
fn options(allow: http::HeaderValue) -> Response {
    let mut response = http::Response::new(crate::Body::empty());
    *response.status_mut() = StatusCode::NO_CONTENT;
    response.headers_mut().insert(header::ALLOW, allow);
    response
}

/// Percent-decodes the path values, which must be UTF-8.
fn decode_path_values(params: &matchit::Params<'_, '_>) -> Result<Vec<String>, ApiError> {
    params
        .iter()
        .map(|(name, raw)| {
            percent_encoding::percent_decode_str(raw)
                .decode_utf8()
                .map(std::borrow::Cow::into_owned)
                .map_err(|_| {
                    refusal::INVALID_PATH_PARAMETER.error(format!(
                        "path parameter `{name}`: not UTF-8 once percent-decoded"
                    ))
                })
        })
        .collect()
}

impl<B> tower_service::Service<http::Request<B>> for App
where
    B: http_body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<BoxError>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = ResponseFuture;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        self.dispatch(request, ())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::prelude::*;
    use crate::{BuildError, InputMeta, RequestContext, StateMeta};

    struct Jwt;

    /// A guard reading the app's `Jwt`, as declared.
    struct Signed;

    impl FromRequestParts for Signed {
        const INPUT: InputMeta = InputMeta::request().with_state(&[StateMeta::of::<Jwt>]);

        async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
            cx.state::<Jwt>().map(|_| Signed)
        }
    }

    struct Accounts;

    #[controller("accounts")]
    impl Accounts {
        #[typed_route::get("me")]
        async fn me(&self, _signed: Result<Signed, ApiError>) -> &'static str {
            "signed"
        }
    }

    #[test]
    fn refuses_a_route_reading_state_the_app_was_not_given() {
        let err = App::builder().controller(Accounts).build().unwrap_err();
        assert_eq!(
            err,
            BuildError::MissingState {
                route: "GET /accounts/me (Accounts::me)".into(),
                input: "Result<Signed, ApiError>".into(),
                type_name: std::any::type_name::<Jwt>().into(),
                registered: None,
            }
        );
        let message = err.to_string();
        assert!(
            message.contains("GET /accounts/me (Accounts::me)"),
            "{message}"
        );
        assert!(message.contains("`Result<Signed, ApiError>`"), "{message}");
        assert!(message.contains(std::any::type_name::<Jwt>()), "{message}");
        assert!(message.contains(".state(value)"), "{message}");
    }

    #[test]
    fn says_when_the_app_was_given_the_state_in_an_arc() {
        let err = App::builder()
            .controller(Accounts)
            .state(Arc::new(Jwt))
            .build()
            .unwrap_err();
        let BuildError::MissingState { registered, .. } = &err else {
            panic!("expected a missing state, got {err}");
        };
        assert_eq!(
            registered.as_deref(),
            Some(std::any::type_name::<Arc<Jwt>>())
        );
        assert!(err.to_string().contains("`Arc<T>` and `T` are different"));
    }

    #[tokio::test]
    async fn builds_and_serves_once_given_the_state() {
        let app = App::builder()
            .controller(Accounts)
            .state(Jwt)
            .build()
            .unwrap();
        let response = app.test_client().get("/accounts/me").send().await;
        assert_eq!(response.text(), "signed");
    }
}
