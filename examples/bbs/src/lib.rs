//! The BBS articles app: the framework's reference example, modeled on
//! nestia's BBS example. Articles live in sections; an update appends a
//! snapshot, so history is never rewritten. Each section has a live feed
//! of server-sent events ([`feed`]), shared by every replica on one
//! database. Beside the JSON API it serves
//! HTML pages ([`pages`]) and a moderator route guarded by a bearer token
//! ([`moderator`]). For operators it serves liveness (`/healthz`),
//! readiness (`/readyz`, which checks the database) and Prometheus metrics
//! (`/metrics`, with the pool's connections).
//!
//! The DTOs ([`dto`]) are those of API version 2.0.0, which added
//! AsciiDoc articles; [`v1`] keeps the ones of version 1.0.0 that differ,
//! with the conversions that serve version-1 clients.

pub mod attachments;
pub mod controller;
pub mod dto;
pub mod feed;
#[doc(hidden)]
pub mod fuzzing;
pub mod moderation;
pub mod moderator;
pub mod pages;
pub mod password;
pub mod store;
pub mod v1;

use std::{net::SocketAddr, time::Duration};

use framework::{
    ApiVersion, App, AppBuilder, BuildError, Health, HtmlHeaders, Mcp, Metrics, Server, Versions,
    openapi::OpenApiDocument,
};

pub use attachments::{AttachmentConfig, Attachments, BbsArticleFilesController};
pub use controller::BbsArticlesController;
pub use moderation::BbsModerationController;
pub use moderator::{Moderator, ModeratorToken};
pub use pages::BbsPagesController;
pub use store::{ArticleStore, StoreError};

/// The database used when `DATABASE_URL` is not set: a file in the working
/// directory.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://bbs.db";

/// API version 1.0.0: the board as first released.
pub const V1: ApiVersion = ApiVersion::new(1, 0, 0);

/// API version 2.0.0: articles may be written in AsciiDoc (see [`v1`] for
/// how version-1 clients are served).
pub const V2: ApiVersion = ApiVersion::new(2, 0, 0);

/// The API versions the board serves, named in the `api-version` header.
/// A request without it is served version 1.0.0, which is what clients
/// written before the board had versions speak.
pub fn versions() -> Versions {
    Versions::new([V1, V2])
}

/// The title, version and description of the app's OpenAPI document.
pub fn api_info() -> OpenApiDocument {
    OpenApiDocument::new("BBS", env!("CARGO_PKG_VERSION")).description(
        "Articles of a bulletin board, by section. An update appends a snapshot: history is never rewritten.",
    )
}

/// The app over a store with moderation off; it also serves
/// `/openapi.json`, `/docs`, `/healthz`, `/readyz` and `/metrics`.
pub fn app(store: ArticleStore) -> Result<App, BuildError> {
    app_with(store, ModeratorToken::unset())
}

/// The app over a store, whose moderator routes accept `moderator`;
/// uploads are off.
pub fn app_with(store: ArticleStore, moderator: ModeratorToken) -> Result<App, BuildError> {
    app_with_attachments(store, moderator, Attachments::unconfigured())
}

/// The app over a store, whose moderator routes accept `moderator`, keeping
/// uploaded files as `attachments` says.
pub fn app_with_attachments(
    store: ArticleStore,
    moderator: ModeratorToken,
    attachments: Attachments,
) -> Result<App, BuildError> {
    builder(store, moderator, attachments).build()
}

/// The app over a store, whose moderator routes accept `moderator`, keeping
/// uploaded files as `attachments` says, with its routes also served as
/// tools for language models at `/mcp` (the Model Context Protocol).
pub fn app_with_mcp(
    store: ArticleStore,
    moderator: ModeratorToken,
    attachments: Attachments,
) -> Result<App, BuildError> {
    builder(store, moderator, attachments)
        .mcp(Mcp::new().instructions(MCP_INSTRUCTIONS))
        .build()
}

/// What the MCP endpoint tells a model about the board.
const MCP_INSTRUCTIONS: &str = "A bulletin board: articles by section. Create an article with \
`bbs.articles.create` (keep its password: `update` and `erase` need it), list a section with \
`bbs.articles.index`, read one with `bbs.articles.at`. Moderation tools need the moderators' \
bearer token in the request's `Authorization` header.";

/// Everything the app is made of, before it is built.
fn builder(store: ArticleStore, moderator: ModeratorToken, attachments: Attachments) -> AppBuilder {
    App::builder()
        .openapi(api_info())
        .versions(versions())
        .controller(BbsArticlesController::new(store.clone()).with_attachments(attachments.clone()))
        .controller(
            BbsModerationController::new(store.clone()).with_attachments(attachments.clone()),
        )
        .controller(BbsArticleFilesController::new(
            store.clone(),
            attachments.clone(),
        ))
        .controller(BbsPagesController::new(store.clone()).with_attachments(attachments.clone()))
        .state(moderator)
        .state(attachments.form_limits())
        .health(health(&store))
        .metrics(metrics(&store))
        .html_headers(page_headers())
}

/// The pages' security headers: the framework's defaults (no inline
/// script or style runs, no framing, `nosniff`), with the pages' own style
/// and the section page's script allowed by their hashes.
pub fn page_headers() -> HtmlHeaders {
    HtmlHeaders::new()
        .allow_style(pages::views::STYLE)
        .allow_script(pages::views::SECTION_SCRIPT)
}

/// How long the readiness check may wait for the database.
const DATABASE_CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// Readiness: the database answers within [`DATABASE_CHECK_TIMEOUT`].
fn health(store: &ArticleStore) -> Health {
    let store = store.clone();
    Health::new()
        .timeout(DATABASE_CHECK_TIMEOUT)
        .check("database", move || {
            let store = store.clone();
            async move { store.ping().await }
        })
}

/// The framework's HTTP metrics, the pool's connections and the live
/// feed's streams.
fn metrics(store: &ArticleStore) -> Metrics {
    let open = store.clone();
    let idle = store.clone();
    Metrics::new()
        .gauge_fn(
            "bbs_db_connections",
            "Database connections open in the pool, in use or idle",
            move || i64::from(open.connections()),
        )
        .gauge_fn(
            "bbs_db_idle_connections",
            "Database connections open and idle in the pool",
            move || i64::try_from(idle.idle_connections()).unwrap_or(i64::MAX),
        )
        .register(
            "bbs_feed_followers",
            "Live feed streams open",
            store.feed_metrics().followers.clone(),
        )
        .register(
            "bbs_feed_catch_ups",
            "Times a live feed stream fell behind and caught up from the database",
            store.feed_metrics().catch_ups.clone(),
        )
}

/// Where the server listens and what it stores into, from the environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// `HOST`, default `127.0.0.1`.
    pub host: String,
    /// `PORT`, default `3000` (`0` picks a free port).
    pub port: u16,
    /// `DATABASE_URL`, default [`DEFAULT_DATABASE_URL`].
    pub database_url: String,
    /// `BBS_MODERATOR_TOKEN`; unset turns moderation off.
    pub moderator_token: ModeratorToken,
    /// `BBS_DRAIN_DELAY_MS`, default 0: after SIGTERM, how long readiness
    /// answers `503` while the server still accepts, before it stops
    /// accepting and finishes in-flight requests.
    pub drain_delay: Duration,
    /// `BBS_ATTACHMENTS_DIR` and the limits of uploads
    /// (`BBS_ATTACHMENT_MAX_BYTES`, `BBS_ATTACHMENT_MAX_FILES`,
    /// `BBS_ATTACHMENT_TYPES`).
    pub attachments: AttachmentConfig,
    /// `BBS_MCP`: `1` serves the routes as MCP tools at `/mcp`; off by
    /// default (`0`).
    pub mcp: bool,
}

impl Config {
    /// Reads `HOST`, `PORT`, `DATABASE_URL`, `BBS_MODERATOR_TOKEN`,
    /// `BBS_DRAIN_DELAY_MS` and the `BBS_ATTACHMENT*` variables.
    ///
    /// # Errors
    /// A `PORT` that is not a port number, a `BBS_MODERATOR_TOKEN` that
    /// is set but empty or padded with whitespace, a
    /// `BBS_DRAIN_DELAY_MS` that is not a number of milliseconds, or an
    /// upload limit that is not a positive number or a media type.
    pub fn from_env() -> Result<Config, String> {
        let port = match std::env::var("PORT") {
            Ok(port) => port
                .parse()
                .map_err(|_| format!("PORT must be a port number, got {port:?}"))?,
            Err(_) => 3000,
        };
        let drain_delay = match std::env::var("BBS_DRAIN_DELAY_MS") {
            Ok(ms) => Duration::from_millis(ms.parse().map_err(|_| {
                format!("BBS_DRAIN_DELAY_MS must be a number of milliseconds, got {ms:?}")
            })?),
            Err(_) => Duration::ZERO,
        };
        Ok(Config {
            host: std::env::var("HOST").unwrap_or_else(|_| "127.0.0.1".to_owned()),
            port,
            database_url: std::env::var("DATABASE_URL")
                .unwrap_or_else(|_| DEFAULT_DATABASE_URL.to_owned()),
            moderator_token: ModeratorToken::from_env()?,
            drain_delay,
            attachments: AttachmentConfig::from_env()?,
            mcp: match std::env::var("BBS_MCP").as_deref() {
                Err(_) | Ok("0") => false,
                Ok("1") => true,
                Ok(other) => return Err(format!("BBS_MCP must be 0 or 1, got {other:?}")),
            },
        })
    }
}

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The database could not be opened.
    #[error("{0}")]
    Store(#[from] StoreError),
    /// The routes conflict.
    #[error("{0}")]
    Build(#[from] BuildError),
    /// The address could not be bound or served.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The configuration is incomplete.
    #[error("{0}")]
    Config(String),
}

/// Opens the store, binds, calls `on_bound` with the address, and serves
/// until SIGINT or SIGTERM.
pub async fn run(config: Config, on_bound: impl FnOnce(SocketAddr)) -> Result<(), RunError> {
    let dir = config
        .attachments
        .directory(&config.database_url)
        .map_err(RunError::Config)?;
    tokio::fs::create_dir_all(&dir).await.map_err(|err| {
        RunError::Config(format!(
            "the attachments directory {}: {err}",
            dir.display()
        ))
    })?;
    let store = ArticleStore::open(&config.database_url).await?;
    let attachments = Attachments::new(dir, config.attachments.clone());
    let moderator = config.moderator_token.clone();
    let app = if config.mcp {
        app_with_mcp(store.clone(), moderator, attachments)?
    } else {
        app_with_attachments(store.clone(), moderator, attachments)?
    };
    let server = Server::bind((config.host.as_str(), config.port))
        .await?
        .drain_delay(config.drain_delay);
    on_bound(server.local_addr()?);
    server.serve(app).await?;
    store.close().await;
    Ok(())
}
