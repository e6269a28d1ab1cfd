//! What an app says about its MCP endpoint ([`Mcp`]).

use crate::{Controller, RouteMeta};

/// Where [`Mcp::new`] serves the endpoint.
pub const DEFAULT_MCP_PATH: &str = "/mcp";

/// An app's Model Context Protocol endpoint: where it is served and which
/// routes it offers as tools. Given to [`AppBuilder::mcp`](crate::AppBuilder::mcp).
///
/// ```
/// use framework::{Mcp, prelude::*};
///
/// #[dto]
/// struct Note {
///     #[tags(min_length = 1)]
///     text: String,
/// }
///
/// struct Notes;
///
/// #[controller("notes")]
/// impl Notes {
///     /// Keep a note.
///     #[typed_route::post("")]
///     async fn create(&self, note: TypedBody<Note>) -> Json<Note> {
///         Json(note.into_inner())
///     }
///
///     /// Forget every note: for people, not for models.
///     #[typed_route::delete("", mcp = false)]
///     async fn clear(&self) {}
/// }
///
/// let app = App::builder()
///     .controller(Notes)
///     .mcp(Mcp::new().instructions("Notes of the team."))
///     .build()
///     .unwrap();
/// let tools: Vec<&str> = app.mcp_tools().collect();
/// assert_eq!(tools, ["notes.create"]);
/// assert_eq!(app.mcp_left_out()[0].operation_id, "notes.clear");
/// ```
#[derive(Clone, Debug)]
pub struct Mcp {
    pub(crate) path: String,
    /// The routes of the controllers [`Mcp::controller`] named; empty for
    /// every controller's.
    pub(crate) only: Vec<&'static RouteMeta>,
    pub(crate) instructions: Option<String>,
}

impl Default for Mcp {
    fn default() -> Self {
        Self::new()
    }
}

impl Mcp {
    /// The endpoint at [`DEFAULT_MCP_PATH`] (`/mcp`), offering every route
    /// of the app's SDKs that a tool call can carry.
    pub fn new() -> Self {
        Self::at(DEFAULT_MCP_PATH)
    }

    /// The endpoint at `path` (`/api/mcp`); [`AppBuilder::build`](crate::AppBuilder::build)
    /// refuses a path that is not absolute or that a route takes.
    pub fn at(path: &str) -> Self {
        Mcp {
            path: path.to_owned(),
            only: Vec::new(),
            instructions: None,
        }
    }

    /// Offers the routes of controller `C` (call once per controller):
    /// once any is named, the routes of the others are not offered.
    #[must_use]
    pub fn controller<C: Controller>(mut self) -> Self {
        self.only.extend(C::routes().iter().map(crate::Route::meta));
        self
    }

    /// What the server tells a client about using its tools
    /// (`instructions` in the answer to `initialize`); the app's OpenAPI
    /// description when not given.
    #[must_use]
    pub fn instructions(mut self, text: &str) -> Self {
        self.instructions = Some(text.to_owned());
        self
    }

    /// Whether the route may be a tool, as the app chose.
    pub(crate) fn offers(&self, meta: &RouteMeta) -> bool {
        self.only.is_empty() || self.only.iter().any(|chosen| std::ptr::eq(*chosen, meta))
    }
}

/// A route the MCP endpoint does not offer as a tool, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LeftOut {
    /// The route's operation id: the name its tool would have had.
    pub operation_id: String,
    /// Why, for people: `answers a stream of server-sent events`.
    pub reason: String,
}
