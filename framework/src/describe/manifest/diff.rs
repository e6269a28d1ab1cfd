//! What changed between two manifests, and how much it matters to old
//! clients: [`diff`] and the rules it applies (type rules in `schema.rs`).

mod schema;
#[cfg(test)]
mod tests;

use std::{collections::BTreeMap, fmt};

use serde::Serialize;

use super::{ApiManifest, ContentManifest, ResponseManifest, RouteManifest};
use crate::describe::HttpMethod;
use schema::{Dir, Owner, Walk};

/// How a change affects a client generated from the old manifest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Severity {
    /// Old clients keep working; new clients can do more.
    Compatible,
    /// Old clients keep working, but something they may rely on changed:
    /// documentation, defaults, SDK names, errors they do not list.
    NeedsCare,
    /// Old clients can fail: a request the server now refuses, or an
    /// answer they cannot read.
    Breaking,
}

impl Severity {
    /// `breaking`, `compatible`, `needs care`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Compatible => "compatible",
            Severity::NeedsCare => "needs care",
            Severity::Breaking => "breaking",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which rule a change falls under; each has one [`Severity`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Rule {
    /// A route is gone.
    RouteRemoved,
    /// A route's method or path changed (its operation id did not).
    RouteMoved,
    /// A required input is new: a required field, query parameter,
    /// header or a body; or an optional one is required now.
    InputRequired,
    /// An input accepts less: a constraint tightened, `null` or a field
    /// of a strict type no longer accepted.
    InputNarrowed,
    /// An input enum value or union member is gone.
    InputValueRemoved,
    /// An answer's field is gone.
    AnswerFieldRemoved,
    /// An answer's field may now be absent or `null`.
    AnswerFieldOptional,
    /// An answer's enum or union has a new member.
    AnswerMemberAdded,
    /// A schema's type changed (or an integer answer got wider).
    TypeChanged,
    /// A route answers a new success status.
    StatusAdded,
    /// A route needs a credential it did not, or only read when sent
    /// (an optional guard's, [`RouteManifest::optional_security`]): old
    /// clients without it are refused.
    SecurityAdded,
    /// A security scheme's credential travels differently.
    SecuritySchemeChanged,
    /// A new route.
    RouteAdded,
    /// A new optional input: a field, a query, a header the SDKs send on
    /// their own ([`RouteManifest::header_params`]).
    InputOptionalAdded,
    /// An input accepts more: a constraint widened, a required field or
    /// header made optional, `null` accepted.
    InputWidened,
    /// An input enum or union has a new member.
    InputValueAdded,
    /// An answer has a new field.
    AnswerFieldAdded,
    /// An answer promises more: a constraint tightened, a field always
    /// present, a member or status gone.
    AnswerNarrowed,
    /// A route needs a credential no more: it reads it when sent (an
    /// optional guard's), or not at all.
    SecurityRemoved,
    /// A route reads a credential when sent and serves callers without it
    /// too (an optional guard's, [`RouteManifest::optional_security`]),
    /// and did not read it before: old clients do not send it.
    OptionalSecurityAdded,
    /// A route no longer reads a credential it read when sent: the old
    /// clients still send it, and the server ignores it, as when a route
    /// needs a credential no more ([`Rule::SecurityRemoved`]).
    OptionalSecurityRemoved,
    /// Documentation changed: summaries, descriptions, examples.
    Documentation,
    /// A field's default changed.
    DefaultChanged,
    /// An input the old clients send is now ignored: a field, a query,
    /// a body, a header the SDKs send on their own.
    InputIgnored,
    /// An answer promises less within its type (a constraint widened):
    /// the SDKs do not check it, code relying on it may break.
    AnswerWidened,
    /// A route documents a new error status.
    ErrorAdded,
    /// A name the SDKs use changed: a function's accessor, a type's or a
    /// variant's name. The wire is the same; regenerated code differs.
    SdkNameChanged,
    /// A route left the SDKs (`sdk = false`), or joined them.
    SdkMembership,
}

impl Rule {
    /// The rule's severity.
    pub const fn severity(self) -> Severity {
        use Rule::*;
        match self {
            RouteRemoved
            | RouteMoved
            | InputRequired
            | InputNarrowed
            | InputValueRemoved
            | AnswerFieldRemoved
            | AnswerFieldOptional
            | AnswerMemberAdded
            | TypeChanged
            | StatusAdded
            | SecurityAdded
            | SecuritySchemeChanged => Severity::Breaking,
            RouteAdded
            | InputOptionalAdded
            | InputWidened
            | InputValueAdded
            | AnswerFieldAdded
            | AnswerNarrowed
            | SecurityRemoved
            | OptionalSecurityAdded
            | OptionalSecurityRemoved => Severity::Compatible,
            Documentation | DefaultChanged | InputIgnored | AnswerWidened | ErrorAdded
            | SdkNameChanged | SdkMembership => Severity::NeedsCare,
        }
    }

    /// The rule's name in reports: `route-removed`.
    pub fn code(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|value| value.as_str().map(str::to_owned))
            .unwrap_or_default()
    }
}

/// A route as a change names it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct RouteRef {
    /// The method.
    pub method: HttpMethod,
    /// The path as written.
    pub path: String,
    /// The operation id.
    pub operation_id: String,
    /// Where the SDKs put its function ([`RouteManifest::accessor`]).
    pub accessor: Vec<String>,
    /// Whether the SDKs include it.
    pub sdk: bool,
}

impl RouteRef {
    fn of(route: &RouteManifest) -> Self {
        RouteRef {
            method: route.method,
            path: route.path.clone(),
            operation_id: route.operation_id.clone(),
            accessor: route.accessor.clone(),
            sdk: route.sdk,
        }
    }
}

impl fmt::Display for RouteRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.method, self.path)
    }
}

/// One change.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Change {
    /// How it affects old clients ([`Rule::severity`]).
    pub severity: Severity,
    /// The rule it falls under.
    pub rule: Rule,
    /// Where: `POST /notes body`, `Note.text`.
    pub place: String,
    /// What, for people: `maxLength 280 -> 100`.
    pub detail: String,
    /// The routes it affects (of the old manifest where a route is gone).
    pub routes: Vec<RouteRef>,
    /// The named types it is in, by their new name (old for a removal).
    pub types: Vec<String>,
}

/// Every change between two manifests, breaking ones first.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ManifestDiff {
    /// The changes, by severity (breaking first), then place.
    pub changes: Vec<Change>,
}

impl ManifestDiff {
    /// The most severe change's severity; `None` when nothing changed.
    pub fn worst(&self) -> Option<Severity> {
        self.changes.iter().map(|change| change.severity).max()
    }

    /// How many changes have `severity`.
    pub fn count(&self, severity: Severity) -> usize {
        self.changes
            .iter()
            .filter(|change| change.severity == severity)
            .count()
    }

    /// The report, each change followed by the lines `extra` gives for it
    /// (`sdk-gen diff` adds the SDK functions and types it affects).
    pub fn render_with(&self, extra: &dyn Fn(&Change) -> Vec<String>) -> String {
        use fmt::Write;
        let mut out = format!(
            "{} breaking, {} needs care, {} compatible\n",
            self.count(Severity::Breaking),
            self.count(Severity::NeedsCare),
            self.count(Severity::Compatible)
        );
        for severity in [
            Severity::Breaking,
            Severity::NeedsCare,
            Severity::Compatible,
        ] {
            let changes = self
                .changes
                .iter()
                .filter(|change| change.severity == severity);
            for (index, change) in changes.enumerate() {
                if index == 0 {
                    let _ = write!(out, "\n{}:\n", severity.as_str().to_uppercase());
                }
                let _ = writeln!(
                    out,
                    "  - [{}] {}: {}",
                    change.rule.code(),
                    change.place,
                    change.detail
                );
                // A route's own change: its place names it.
                let own = match change.routes.as_slice() {
                    [route] => change.place.starts_with(&route.to_string()),
                    _ => false,
                };
                if !own && !change.routes.is_empty() {
                    let routes: Vec<String> =
                        change.routes.iter().map(ToString::to_string).collect();
                    let _ = writeln!(out, "      routes: {}", routes.join(", "));
                }
                for line in extra(change) {
                    let _ = writeln!(out, "      {line}");
                }
            }
        }
        out
    }
}

impl fmt::Display for ManifestDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render_with(&|_| Vec::new()))
    }
}

/// What changed from `old` to `new`, for a client generated from the old
/// one talking to a server built from the new one: every change per route
/// and per type, each [`Breaking`](Severity::Breaking),
/// [`Compatible`](Severity::Compatible) or
/// [`NeedsCare`](Severity::NeedsCare).
///
/// Routes are matched by method and path (parameter names aside: `/a/:id`
/// and `/a/:key` are one route); a route whose path changed but whose
/// operation id did not is reported as moved. Types are matched by name
/// through the routes that use them: a type used in inputs is compared by
/// the input rules (a new required field, a narrowed constraint or a
/// removed enum value break), a type used in answers by the answer rules
/// (a removed field, a field that may now be absent or `null`, a new enum
/// value or union member break), and a type used in both by both. A
/// route's credentials are compared scheme by scheme, each needed, read
/// when sent (an optional guard's) or not read; the headers the SDKs send
/// on their own ([`RouteManifest::header_params`]) by name, whatever its
/// case.
/// `sdk-gen diff` prints the result and gates CI on it;
/// [`assert_compatible`](crate::testing::assert_compatible) fails a test
/// when the app breaks a blessed version.
///
/// ```
/// use framework::manifest::{Rule, Severity, diff};
/// use framework::prelude::*;
///
/// #[dto]
/// struct Note { text: String }
/// #[dto]
/// struct NoteV2 { text: String, pinned: bool }
///
/// struct V1;
/// #[controller("notes")]
/// impl V1 {
///     #[typed_route::post("")]
///     async fn create(&self, body: TypedBody<Note>) -> Note { body.into_inner() }
/// }
/// struct V2;
/// #[controller("notes")]
/// impl V2 {
///     #[typed_route::post("")]
///     async fn create(&self, body: TypedBody<Note>) -> NoteV2 {
///         NoteV2 { text: body.into_inner().text, pinned: false }
///     }
/// }
///
/// let old = App::builder().controller(V1).build().unwrap().manifest().clone();
/// let new = App::builder().controller(V2).build().unwrap().manifest().clone();
/// let changes = diff(&old, &new);
/// assert_eq!(changes.worst(), Some(Severity::NeedsCare));
/// assert!(changes.changes.iter().any(|change| change.rule == Rule::AnswerFieldAdded));
/// ```
pub fn diff(old: &ApiManifest, new: &ApiManifest) -> ManifestDiff {
    let mut walk = Walk::new(old, new);
    let mut unmatched_new: Vec<usize> = (0..new.routes.len()).collect();
    let mut removed = Vec::new();
    for (old_index, old_route) in old.routes.iter().enumerate() {
        let key = route_key(old_route);
        match unmatched_new
            .iter()
            .position(|&index| route_key(&new.routes[index]) == key)
        {
            Some(position) => {
                let new_index = unmatched_new.remove(position);
                compare_route(&mut walk, old_index, new_index);
            }
            None => removed.push(old_index),
        }
    }
    for old_index in removed {
        let old_route = &old.routes[old_index];
        let moved = unmatched_new
            .iter()
            .position(|&index| new.routes[index].operation_id == old_route.operation_id);
        let route = RouteRef::of(old_route);
        match moved {
            Some(position) => {
                let new_index = unmatched_new.remove(position);
                let to = &new.routes[new_index];
                walk.route_change(
                    route.clone(),
                    Rule::RouteMoved,
                    route.to_string(),
                    format!("moved to {} {}", to.method, to.path),
                );
                compare_route(&mut walk, old_index, new_index);
            }
            None => walk.route_change(
                route.clone(),
                Rule::RouteRemoved,
                route.to_string(),
                "route removed".to_owned(),
            ),
        }
    }
    for new_index in unmatched_new {
        let route = RouteRef::of(&new.routes[new_index]);
        walk.route_change(
            route.clone(),
            Rule::RouteAdded,
            route.to_string(),
            "new route".to_owned(),
        );
    }
    compare_schemes(&mut walk);
    compare_error_body(&mut walk);
    walk.finish()
}

/// A route's identity: its method and its path with parameters unnamed.
fn route_key(route: &RouteManifest) -> (HttpMethod, String) {
    let path = route
        .path
        .split('/')
        .map(|segment| match segment.chars().next() {
            Some(':') => ":",
            Some('*') => "*",
            _ => segment,
        })
        .collect::<Vec<_>>()
        .join("/");
    (route.method, path)
}

/// Compares a route of the old manifest with its match in the new one.
fn compare_route(walk: &mut Walk<'_>, old_index: usize, new_index: usize) {
    let (old, new) = (walk.old, walk.new);
    let pair = RoutePair::new(&old.routes[old_index], &new.routes[new_index]);
    pair.naming(walk);
    pair.inputs(walk);
    pair.body_and_socket(walk);
    pair.header_params(walk);
    pair.security(walk);
    pair.answers(walk);
    pair.errors(walk);
}

/// One route in both manifests, and where its changes are reported.
struct RoutePair<'a> {
    old: &'a RouteManifest,
    new: &'a RouteManifest,
    route: RouteRef,
    owner: Owner,
}

/// How a route treats a security scheme.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Need {
    /// The route refuses callers without the credential.
    Required,
    /// The route reads the credential when sent, and serves callers
    /// without it.
    Optional,
}

impl Need {
    /// How `route` treats `scheme`; `None` when it does not read it.
    /// A scheme in both lists (no app builds one) is required.
    fn of(route: &RouteManifest, scheme: &str) -> Option<Need> {
        if route.security.iter().any(|name| name == scheme) {
            Some(Need::Required)
        } else if route.optional_security.iter().any(|name| name == scheme) {
            Some(Need::Optional)
        } else {
            None
        }
    }
}

impl<'a> RoutePair<'a> {
    fn new(old: &'a RouteManifest, new: &'a RouteManifest) -> Self {
        let route = RouteRef::of(new);
        let owner = Owner::Route(route.clone());
        RoutePair {
            old,
            new,
            route,
            owner,
        }
    }

    /// A place on the route: `POST /posts body`; `POST /posts` for `""`.
    fn here(&self, what: &str) -> String {
        format!("{} {what}", self.route).trim_end().to_owned()
    }

    /// Reports a change of the route's own.
    fn say(&self, walk: &mut Walk<'_>, rule: Rule, place: String, detail: String) {
        walk.route_change(self.route.clone(), rule, place, detail);
    }

    /// Its SDK function's name, its membership and its documentation.
    fn naming(&self, walk: &mut Walk<'_>) {
        let (old, new) = (self.old, self.new);
        if old.accessor != new.accessor || old.operation_id != new.operation_id {
            self.say(
                walk,
                Rule::SdkNameChanged,
                self.here(""),
                format!(
                    "SDK function `{}` is now `{}` (operation id `{}` -> `{}`)",
                    old.accessor.join("."),
                    new.accessor.join("."),
                    old.operation_id,
                    new.operation_id
                ),
            );
        }
        if old.sdk != new.sdk {
            let detail = if new.sdk {
                "the SDKs now include the route"
            } else {
                "the SDKs leave the route out (`sdk = false`)"
            };
            self.say(walk, Rule::SdkMembership, self.here(""), detail.to_owned());
        }
        if old.summary != new.summary || old.description != new.description {
            self.say(
                walk,
                Rule::Documentation,
                self.here(""),
                "summary or description changed".to_owned(),
            );
        }
    }

    /// Its path parameters, query, headers and cookies.
    fn inputs(&self, walk: &mut Walk<'_>) {
        let (old, new) = (self.old, self.new);
        for (position, new_param) in new.path_params.iter().enumerate() {
            if let Some(old_param) = old.path_params.get(position) {
                walk.schema(
                    &self.owner,
                    Dir::Input,
                    &self.here(&format!("path :{}", new_param.name)),
                    &old_param.schema,
                    &new_param.schema,
                );
            }
        }
        for (what, old_slot, new_slot) in [
            ("query", &old.query, &new.query),
            ("headers", &old.headers, &new.headers),
            ("cookies", &old.cookies, &new.cookies),
        ] {
            let place = self.here(what);
            match (old_slot, new_slot) {
                (Some(old_schema), Some(new_schema)) => {
                    walk.schema(&self.owner, Dir::Input, &place, old_schema, new_schema);
                }
                (None, Some(new_schema)) => walk.new_input(&self.owner, &place, new_schema),
                (Some(_), None) => self.say(
                    walk,
                    Rule::InputIgnored,
                    place,
                    format!("the route reads no {what} any more"),
                ),
                (None, None) => {}
            }
        }
    }

    /// Its body and its WebSocket messages.
    fn body_and_socket(&self, walk: &mut Walk<'_>) {
        let place = self.here("body");
        match (&self.old.body, &self.new.body) {
            (Some(old_body), Some(new_body)) => {
                if old_body.kind != new_body.kind || old_body.media_type != new_body.media_type {
                    let detail = format!(
                        "body `{}` -> `{}`",
                        old_body.media_type, new_body.media_type
                    );
                    self.say(walk, Rule::TypeChanged, place, detail);
                } else if let (Some(old_schema), Some(new_schema)) =
                    (&old_body.schema, &new_body.schema)
                {
                    walk.schema(&self.owner, Dir::Input, &place, old_schema, new_schema);
                }
            }
            (None, Some(body)) => self.say(
                walk,
                Rule::InputRequired,
                place,
                format!("the route reads a `{}` body", body.media_type),
            ),
            (Some(_), None) => self.say(
                walk,
                Rule::InputIgnored,
                place,
                "the route reads no body any more".to_owned(),
            ),
            (None, None) => {}
        }
        match (&self.old.websocket, &self.new.websocket) {
            (Some(old_ws), Some(new_ws)) => {
                let (client, server) = (self.here("client messages"), self.here("server messages"));
                walk.schema(
                    &self.owner,
                    Dir::Input,
                    &client,
                    &old_ws.client,
                    &new_ws.client,
                );
                walk.schema(
                    &self.owner,
                    Dir::Output,
                    &server,
                    &old_ws.server,
                    &new_ws.server,
                );
            }
            (None, None) => {}
            _ => self.say(
                walk,
                Rule::TypeChanged,
                self.here(""),
                "the route is a WebSocket now, or no longer".to_owned(),
            ),
        }
    }

    /// The headers the SDKs send on their own
    /// ([`RouteManifest::header_params`]), matched by name whatever its
    /// case. One the route reads no more is ignored by the server, as
    /// every header it does not read: the old SDKs still send it.
    fn header_params(&self, walk: &mut Walk<'_>) {
        let (old, new) = (self.old, self.new);
        for header in &new.header_params {
            let place = self.here(&format!("header {}", header.name));
            let Some(before) = old
                .header_params
                .iter()
                .find(|before| before.name.eq_ignore_ascii_case(&header.name))
            else {
                let (rule, detail) = if header.required {
                    (Rule::InputRequired, "new required header")
                } else {
                    (Rule::InputOptionalAdded, "new optional header")
                };
                self.say(walk, rule, place, detail.to_owned());
                continue;
            };
            match (before.required, header.required) {
                (false, true) => {
                    let detail = "the header is required now".to_owned();
                    self.say(walk, Rule::InputRequired, place.clone(), detail);
                }
                (true, false) => {
                    let detail = "the header is optional now".to_owned();
                    self.say(walk, Rule::InputWidened, place.clone(), detail);
                }
                _ => {}
            }
            if before.description != header.description {
                let detail = "description changed".to_owned();
                self.say(walk, Rule::Documentation, place, detail);
            }
        }
        for before in old.header_params.iter().filter(|before| {
            !new.header_params
                .iter()
                .any(|header| header.name.eq_ignore_ascii_case(&before.name))
        }) {
            self.say(
                walk,
                Rule::InputIgnored,
                self.here(&format!("header {}", before.name)),
                "the route reads the header no more: the server ignores it".to_owned(),
            );
        }
    }

    /// The credentials it needs or reads when sent: each scheme once, by
    /// how the route treats it before and after.
    fn security(&self, walk: &mut Walk<'_>) {
        let (old, new) = (self.old, self.new);
        let mut schemes: Vec<&str> = Vec::new();
        for route in [new, old] {
            for name in route.security.iter().chain(&route.optional_security) {
                if !schemes.contains(&name.as_str()) {
                    schemes.push(name);
                }
            }
        }
        for scheme in schemes {
            let (rule, detail) = match (Need::of(old, scheme), Need::of(new, scheme)) {
                (None, Some(Need::Required)) => (
                    Rule::SecurityAdded,
                    format!("needs the `{scheme}` credential"),
                ),
                (Some(Need::Optional), Some(Need::Required)) => (
                    Rule::SecurityAdded,
                    format!(
                        "needs the `{scheme}` credential, which was optional: callers without it are refused"
                    ),
                ),
                (None, Some(Need::Optional)) => (
                    Rule::OptionalSecurityAdded,
                    format!("reads the `{scheme}` credential when sent (optional)"),
                ),
                (Some(Need::Required), Some(Need::Optional)) => (
                    Rule::SecurityRemoved,
                    format!("the `{scheme}` credential is optional now"),
                ),
                (Some(Need::Required), None) => (
                    Rule::SecurityRemoved,
                    format!("no longer needs the `{scheme}` credential"),
                ),
                (Some(Need::Optional), None) => (
                    Rule::OptionalSecurityRemoved,
                    format!("no longer reads the optional `{scheme}` credential: it is ignored"),
                ),
                _ => continue,
            };
            self.say(walk, rule, self.here(""), detail);
        }
    }

    /// Its answers other than errors, by status.
    fn answers(&self, walk: &mut Walk<'_>) {
        let (old, new) = (self.old, self.new);
        for new_answer in &new.responses {
            let place = self.here(&format!("answer {}", new_answer.status));
            match old
                .responses
                .iter()
                .find(|answer| answer.status == new_answer.status)
            {
                Some(old_answer) => self.answer(walk, &place, old_answer, new_answer),
                None => {
                    let detail = format!("answers {} too", new_answer.status);
                    self.say(walk, Rule::StatusAdded, place, detail);
                }
            }
        }
        for old_answer in &old.responses {
            if !new
                .responses
                .iter()
                .any(|answer| answer.status == old_answer.status)
            {
                self.say(
                    walk,
                    Rule::AnswerNarrowed,
                    self.here(&format!("answer {}", old_answer.status)),
                    format!("no longer answers {}", old_answer.status),
                );
            }
        }
    }

    /// One answer, at one status in both: its description, its content
    /// and its required headers.
    fn answer(
        &self,
        walk: &mut Walk<'_>,
        place: &str,
        old_answer: &ResponseManifest,
        new_answer: &ResponseManifest,
    ) {
        if old_answer.description != new_answer.description {
            let detail = "description changed".to_owned();
            self.say(walk, Rule::Documentation, place.to_owned(), detail);
        }
        match (&old_answer.content, &new_answer.content) {
            (Some(old_content), Some(new_content))
                if old_content.kind == new_content.kind
                    && old_content.media_type == new_content.media_type =>
            {
                if let (Some(old_schema), Some(new_schema)) =
                    (&old_content.schema, &new_content.schema)
                {
                    walk.schema(&self.owner, Dir::Output, place, old_schema, new_schema);
                }
            }
            (None, None) => {}
            (old_content, new_content) => {
                let media = |content: &Option<ContentManifest>| {
                    content.as_ref().map_or("no body".to_owned(), |content| {
                        format!("`{}`", content.media_type)
                    })
                };
                let detail = format!("{} -> {}", media(old_content), media(new_content));
                self.say(walk, Rule::TypeChanged, place.to_owned(), detail);
            }
        }
        for old_header in old_answer.headers.iter().filter(|header| header.required) {
            let new_header = new_answer
                .headers
                .iter()
                .find(|header| header.name.eq_ignore_ascii_case(&old_header.name));
            if !new_header.is_some_and(|header| header.required) {
                self.say(
                    walk,
                    Rule::AnswerFieldOptional,
                    place.to_owned(),
                    format!("header `{}` may be absent", old_header.name),
                );
            }
        }
    }

    /// The errors it documents.
    fn errors(&self, walk: &mut Walk<'_>) {
        for new_error in &self.new.errors {
            let place = self.here(&format!("error {}", new_error.status));
            match self
                .old
                .errors
                .iter()
                .find(|error| error.status == new_error.status)
            {
                None => self.say(
                    walk,
                    Rule::ErrorAdded,
                    place,
                    format!("may answer {}: {}", new_error.status, new_error.description),
                ),
                Some(old_error) if old_error.description != new_error.description => {
                    let detail = "description changed".to_owned();
                    self.say(walk, Rule::Documentation, place, detail);
                }
                Some(_) => {}
            }
        }
    }
}

/// Schemes whose credential travels differently.
fn compare_schemes(walk: &mut Walk<'_>) {
    for new_scheme in &walk.new.security_schemes {
        let Some(old_scheme) = walk
            .old
            .security_schemes
            .iter()
            .find(|scheme| scheme.name == new_scheme.name)
        else {
            continue;
        };
        let routes: Vec<RouteRef> = walk
            .new
            .routes
            .iter()
            .filter(|route| {
                route.security.contains(&new_scheme.name)
                    || route.optional_security.contains(&new_scheme.name)
            })
            .map(RouteRef::of)
            .collect();
        let place = format!("security scheme `{}`", new_scheme.name);
        if old_scheme.kind != new_scheme.kind {
            walk.push(Change {
                severity: Rule::SecuritySchemeChanged.severity(),
                rule: Rule::SecuritySchemeChanged,
                place,
                detail: format!("{:?} -> {:?}", old_scheme.kind, new_scheme.kind),
                routes,
                types: Vec::new(),
            });
        } else if old_scheme.description != new_scheme.description {
            walk.push(Change {
                severity: Rule::Documentation.severity(),
                rule: Rule::Documentation,
                place,
                detail: "description changed".to_owned(),
                routes,
                types: Vec::new(),
            });
        }
    }
}

/// The app's error body, an answer of every route.
fn compare_error_body(walk: &mut Walk<'_>) {
    let (old, new) = (walk.old, walk.new);
    let place = "error body";
    match (&old.error_body, &new.error_body) {
        (Some(old_body), Some(new_body)) => {
            if let (Some(old_schema), Some(new_schema)) = (&old_body.schema, &new_body.schema) {
                walk.schema(&Owner::Api, Dir::Output, place, old_schema, new_schema);
            }
        }
        (None, None) => {}
        _ => walk.push(Change {
            severity: Severity::Breaking,
            rule: Rule::TypeChanged,
            place: place.to_owned(),
            detail: "the errors' body changed to or from the problem document".to_owned(),
            routes: Vec::new(),
            types: Vec::new(),
        }),
    }
}

/// Merges changes that say the same of one place (a type met in inputs
/// and answers has one documentation change), then sorts them.
fn merged(changes: Vec<Change>) -> Vec<Change> {
    let mut by_key: BTreeMap<(std::cmp::Reverse<Severity>, String, Rule, String), Change> =
        BTreeMap::new();
    for change in changes {
        let key = (
            std::cmp::Reverse(change.severity),
            change.place.clone(),
            change.rule,
            change.detail.clone(),
        );
        match by_key.get_mut(&key) {
            Some(known) => {
                for route in change.routes {
                    if !known.routes.contains(&route) {
                        known.routes.push(route);
                    }
                }
                for ty in change.types {
                    if !known.types.contains(&ty) {
                        known.types.push(ty);
                    }
                }
            }
            None => {
                by_key.insert(key, change);
            }
        }
    }
    by_key
        .into_values()
        .map(|mut change| {
            change.routes.sort();
            change.types.sort();
            change
        })
        .collect()
}
