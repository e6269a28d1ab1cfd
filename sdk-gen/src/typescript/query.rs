//! The TanStack Query bindings: `src/query.ts`, the package's `./query`
//! entry. Each route gets a namespace mirroring `functional`'s, holding its
//! query key and, by the rules the generated module documents,
//! `queryOptions` (`GET`, `HEAD`, `PATCH`), `mutationOptions` (every method
//! but `GET` and `HEAD`), `infiniteQueryOptions` (a query route that pages,
//! detected by `TypeScript::paging`) or `subscribe` (server-sent events).

use askama::Template;
use framework::{
    ContentKind,
    manifest::RouteManifest,
    schema::{FieldDef, ObjectDef, Schema, TypeKind},
};

use super::{Doc, TypeScript, ident, json_string, property_key, with_final_newline};
use crate::{
    GenerateError, GeneratedFile,
    answer::{Content, Shape, answers},
    model::{Dir, Namespace},
};

/// The names the module exports besides the namespaces of its routes.
const EXPORTED: &[&str] = &[
    "RouteQueryOptions",
    "RouteInfiniteQueryOptions",
    "RouteMutationOptions",
    "SubscribeOptions",
    "Subscription",
];

/// Names the generated functions use besides a route's inputs: an input
/// bound to one of them gets a `_`.
const TAKEN: &[&str] = &[
    "connection",
    "client",
    "options",
    "signal",
    "pageParam",
    "queryKey",
    "infiniteQueryKey",
    "first",
    "last",
    "opened",
];

/// The query module of `root`'s routes.
pub(super) fn query_file(
    ts: &TypeScript<'_, '_>,
    root: &Namespace,
    package: &str,
) -> Result<GeneratedFile, GenerateError> {
    if let Some(name) = root
        .routes
        .iter()
        .map(|(name, _)| name)
        .chain(root.children.keys())
        .find(|name| EXPORTED.contains(&ident(name).as_str()))
    {
        return Err(GenerateError::Conflict(format!(
            "`{name}` names a namespace of the TanStack Query bindings and one of their types; name its routes with `operation_id = \"...\"`"
        )));
    }
    let mut found = Found::default();
    let mut body = String::new();
    ts.query_namespace(root, &mut Vec::new(), &mut found, &mut body)?;
    let manifest = ts.model.manifest;
    let module = QueryModule {
        title: &manifest.title,
        version: &manifest.version,
        package,
        example: found.example,
        paging: found.paging,
        events: found.events,
        signalled: found.queries || found.events,
        structures: body.contains("$structures."),
        body,
    };
    Ok(GeneratedFile {
        path: "src/query.ts".into(),
        contents: with_final_newline(module.render()?),
    })
}

/// What the routes need of the module's helpers.
#[derive(Default)]
struct Found {
    /// The first query route's `queryOptions(...)` call and `$key`, for
    /// the module's example.
    example: Option<(String, String)>,
    queries: bool,
    paging: bool,
    events: bool,
}

/// One input of a route: its binding and its type.
struct Input {
    name: String,
    ty: String,
}

impl TypeScript<'_, '_> {
    /// Appends the bindings of `namespace` (at `path`) to `out`: a `$key`,
    /// its routes' namespaces, then its children's.
    fn query_namespace(
        &self,
        namespace: &Namespace,
        path: &mut Vec<String>,
        found: &mut Found,
        out: &mut String,
    ) -> Result<(), GenerateError> {
        let mut items = Vec::new();
        if !path.is_empty() {
            items.push(format!(
                "/** The prefix of the keys of every query under `{}`. */\nexport const $key = [{}] as const;\n",
                path.join("."),
                key_literal(path)
            ));
        }
        for (name, index) in &namespace.routes {
            let route = &self.model.manifest.routes[*index];
            if let Some(text) = self.query_route(name, route, path, found)? {
                items.push(text);
            }
        }
        for (name, child) in &namespace.children {
            path.push(name.clone());
            let mut inner = String::new();
            self.query_namespace(child, path, found, &mut inner)?;
            path.pop();
            items.push(format!(
                "export namespace {} {{\n{}}}\n",
                ident(name),
                indented(&inner)
            ));
        }
        for item in items {
            out.push('\n');
            out.push_str(&item);
        }
        Ok(())
    }

    /// The namespace of one route; `None` for a WebSocket route.
    fn query_route(
        &self,
        name: &str,
        route: &RouteManifest,
        path: &[String],
        found: &mut Found,
    ) -> Result<Option<String>, GenerateError> {
        if route.websocket.is_some() {
            return Ok(None);
        }
        let function = ident(name);
        let route_path: Vec<String> = path.iter().map(|segment| ident(segment)).collect();
        let route_expr = format!(
            "$functional.{}",
            route_path
                .iter()
                .chain(std::iter::once(&function))
                .cloned()
                .collect::<Vec<_>>()
                .join(".")
        );
        let mut accessor = path.to_vec();
        accessor.push(name.to_owned());
        let inputs = self.query_inputs(route);
        let names: Vec<&str> = inputs.iter().map(|input| input.name.as_str()).collect();
        let event = match answers(route).as_slice() {
            [answer] => match answer.shape {
                Shape::Plain(Content::Events(schema)) => {
                    Some(self.qualified_type(schema, Dir::Output))
                }
                _ => None,
            },
            _ => None,
        };
        let method = route.method.as_str();
        let query = event.is_none() && matches!(method, "GET" | "HEAD" | "PATCH");
        let mutation = event.is_none() && !matches!(method, "GET" | "HEAD");
        let paging = if query {
            self.paging(route).map(|paging| paging.render(&inputs))
        } else {
            None
        };
        found.queries |= query;
        found.paging |= paging.is_some();
        found.events |= event.is_some();
        if query && found.example.is_none() {
            let at = format!("{}.{function}", route_path.join("."));
            let at = at.trim_start_matches('.').to_owned();
            found.example = Some((
                format!("{at}.queryOptions(connection{})", call_args(&names)),
                format!("{at}.$key"),
            ));
        }
        let mut doc = Doc::new(route.summary.lines().next().unwrap_or_default());
        if !doc.is_empty() {
            doc.blank();
        }
        doc.tag("path", &format!("{method} {}", route.path));
        let data = if event.is_some() {
            "Event"
        } else {
            "$route.Output"
        };
        let template = QueryRoute {
            doc: doc.render(""),
            name: function,
            route: route_expr,
            key: key_literal(&accessor),
            inputs_type: inputs_type(inputs.iter().map(|input| (&input.name, &input.ty))),
            inputs: if names.is_empty() {
                "{}".to_owned()
            } else {
                format!("{{ {} }}", names.join(", "))
            },
            signature: signature(&inputs),
            params: inputs
                .iter()
                .map(|input| format!("{}: {}", input.name, input.ty))
                .collect(),
            args: names.join(", "),
            call_args: call_args(&names),
            data: data.to_owned(),
            keyed: query || event.is_some(),
            query,
            mutation,
            paging,
            event,
        };
        Ok(Some(with_final_newline(template.render()?)))
    }

    /// A route's inputs in the order its SDK function takes them: path
    /// parameters, headers, query, cookies, body.
    fn query_inputs(&self, route: &RouteManifest) -> Vec<Input> {
        let mut inputs: Vec<Input> = route
            .path_params
            .iter()
            .map(|param| Input {
                name: query_binding(&param.name),
                ty: self.qualified_type(&param.schema, Dir::Input),
            })
            .collect();
        for (present, name, alias) in [
            (route.headers.is_some(), "headers", "Headers"),
            (route.query.is_some(), "query", "Query"),
            (route.cookies.is_some(), "cookies", "Cookies"),
            (route.body.is_some(), "input", "Input"),
        ] {
            if present {
                inputs.push(Input {
                    name: query_binding(name),
                    ty: format!("$route.{alias}"),
                });
            }
        }
        inputs
    }

    /// The type of `schema`, its named types read from `$structures`.
    fn qualified_type(&self, schema: &Schema, dir: Dir) -> String {
        match schema {
            Schema::Ref(id) => format!("$structures.{}", self.model.type_name(*id, dir)),
            Schema::Array(array) => format!("Array<{}>", self.qualified_type(&array.items, dir)),
            Schema::Map(values) => {
                format!("Record<string, {}>", self.qualified_type(values, dir))
            }
            Schema::Nullable(inner) => format!("{} | null", self.qualified_type(inner, dir)),
            other => self.type_of(other, dir),
        }
    }

    /// How a route pages, when it follows nestia's convention: an integer
    /// `page` in its body (JSON or form) or its query, and an answer (its
    /// only one, JSON) with a `pagination` holding integer `current` and
    /// `pages`.
    fn paging(&self, route: &RouteManifest) -> Option<Paging> {
        let answer = match answers(route).as_slice() {
            [answer] => match answer.shape {
                Shape::Plain(Content::Json(schema)) => self.object(schema)?,
                _ => return None,
            },
            _ => return None,
        };
        let pagination = field(answer, "pagination").filter(|field| field.always_present)?;
        let pagination = self.object(&pagination.schema)?;
        for name in ["current", "pages"] {
            let field = field(pagination, name).filter(|field| field.always_present)?;
            if !matches!(field.schema, Schema::Integer(_)) {
                return None;
            }
        }
        let body = route
            .body
            .as_ref()
            .filter(|body| matches!(body.kind, ContentKind::Json | ContentKind::Form))
            .and_then(|body| body.schema.as_ref());
        [("input", body), ("query", route.query.as_ref())]
            .into_iter()
            .find_map(|(input, schema)| {
                let page = field(self.object(schema?)?, "page")?;
                let Schema::Integer(integer) = &page.schema else {
                    return None;
                };
                let first = integer.bounds.minimum.map_or(1, |min| min.ceil() as i64);
                Some(Paging {
                    input: query_binding(input),
                    field: page.name.clone(),
                    first,
                })
            })
    }

    /// The object a schema names, if it is one.
    fn object<'s>(&'s self, schema: &Schema) -> Option<&'s ObjectDef> {
        let Schema::Ref(id) = schema else {
            return None;
        };
        match &self.model.manifest.types.get(id.0)?.def.kind {
            TypeKind::Object(object) => Some(object),
            _ => None,
        }
    }
}

/// How a query route pages.
struct Paging {
    /// The binding of the input holding the page (`input` or `query`).
    input: String,
    /// The page's property: `page`.
    field: String,
    /// The first page's number.
    first: i64,
}

impl Paging {
    /// What the route's template writes for its infinite query, given the
    /// route's inputs.
    fn render(self, inputs: &[Input]) -> InfinitePaging {
        let field = json_string(&self.field);
        let paged: Vec<Input> = inputs
            .iter()
            .map(|input| Input {
                name: input.name.clone(),
                ty: if input.name == self.input {
                    format!("Omit<{}, {field}>", input.ty)
                } else {
                    input.ty.clone()
                },
            })
            .collect();
        let call: Vec<String> = inputs
            .iter()
            .map(|input| {
                if input.name == self.input {
                    format!(
                        "{{ ...{}, {}: pageParam }}",
                        input.name,
                        property_key(&self.field)
                    )
                } else {
                    input.name.clone()
                }
            })
            .collect();
        InfinitePaging {
            inputs_type: inputs_type(paged.iter().map(|input| (&input.name, &input.ty))),
            signature: signature(&paged),
            params: paged
                .iter()
                .map(|input| format!("{}: {}", input.name, input.ty))
                .collect(),
            call_args: call_args(&call),
            field: self.field,
            first: self.first,
        }
    }
}

/// The field `name` of `object`.
fn field<'o>(object: &'o ObjectDef, name: &str) -> Option<&'o FieldDef> {
    object.fields.iter().find(|field| field.name == name)
}

/// The binding of an input in the generated functions.
fn query_binding(raw: &str) -> String {
    let mut bound = ident(raw);
    if TAKEN.contains(&bound.as_str()) {
        bound.push('_');
    }
    bound
}

/// `"bbs", "articles"`
fn key_literal(path: &[String]) -> String {
    path.iter()
        .map(|segment| json_string(segment))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `{ section: string; id: string }`, or `{}`.
fn inputs_type<'i>(inputs: impl Iterator<Item = (&'i String, &'i String)>) -> String {
    let fields: Vec<String> = inputs.map(|(name, ty)| format!("{name}: {ty}")).collect();
    if fields.is_empty() {
        "{}".to_owned()
    } else {
        format!("{{ {} }}", fields.join("; "))
    }
}

/// `section: string, id: string`
fn signature(inputs: &[Input]) -> String {
    inputs
        .iter()
        .map(|input| format!("{}: {}", input.name, input.ty))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `, section, id`: the arguments after the connection.
fn call_args(names: &[impl AsRef<str>]) -> String {
    names
        .iter()
        .map(|name| format!(", {}", name.as_ref()))
        .collect()
}

/// `text` indented by two spaces, blank lines left blank.
fn indented(text: &str) -> String {
    let mut out = String::new();
    for line in text.trim_start_matches('\n').lines() {
        if !line.is_empty() {
            out.push_str("  ");
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

#[derive(Template)]
#[template(path = "typescript/query.ts", escape = "none")]
struct QueryModule<'a> {
    title: &'a str,
    version: &'a str,
    package: &'a str,
    example: Option<(String, String)>,
    paging: bool,
    events: bool,
    signalled: bool,
    structures: bool,
    body: String,
}

/// What `query_route.ts` writes for a route's infinite query.
struct InfinitePaging {
    inputs_type: String,
    signature: String,
    params: Vec<String>,
    call_args: String,
    field: String,
    first: i64,
}

#[derive(Template)]
#[template(path = "typescript/query_route.ts", escape = "none")]
struct QueryRoute {
    doc: String,
    name: String,
    /// `$functional.bbs.articles.at`
    route: String,
    /// `"bbs", "articles", "at"`
    key: String,
    /// `{ section: string; id: string }`
    inputs_type: String,
    /// `{ section, id }`
    inputs: String,
    /// `section: string, id: string`
    signature: String,
    params: Vec<String>,
    /// `section, id`
    args: String,
    /// `, section, id`
    call_args: String,
    /// The type of the data under the route's key.
    data: String,
    /// Whether it has query keys: a query or an events route.
    keyed: bool,
    query: bool,
    mutation: bool,
    paging: Option<InfinitePaging>,
    /// The type of an events route's events.
    event: Option<String>,
}

#[cfg(test)]
mod tests {
    use framework::prelude::*;

    use crate::{Targets, TypeScriptOptions, generate};

    /// Which page of items to read.
    #[dto]
    pub struct PageQuery {
        /// The page, from 1.
        #[tags(minimum = 1)]
        pub page: u32,
    }

    /// Which page of items to read, counting from 0.
    #[dto]
    pub struct Search {
        /// The page, from 0.
        #[tags(minimum = 0)]
        pub page: u32,
        /// What to look for.
        pub text: String,
    }

    /// A page number that is not a number.
    #[dto]
    pub struct Named {
        /// The page's name.
        pub page: String,
    }

    /// Where a page is.
    #[dto]
    pub struct Pagination {
        /// This page's number.
        pub current: u32,
        /// Pages in all.
        pub pages: u64,
    }

    /// One page of items.
    #[dto]
    pub struct Page {
        /// The items.
        pub data: Vec<String>,
        /// Where this page is.
        pub pagination: Pagination,
    }

    /// Items without a pagination.
    #[dto]
    pub struct Items {
        /// The items.
        pub data: Vec<String>,
    }

    fn first_page() -> Page {
        Page {
            data: Vec::new(),
            pagination: Pagination {
                current: 1,
                pages: 1,
            },
        }
    }

    pub struct Api;

    #[controller("items")]
    impl Api {
        /// Pages through its query.
        #[typed_route::get("")]
        async fn list(&self, _query: TypedQuery<PageQuery>) -> Page {
            first_page()
        }

        /// Pages through its body, from 0.
        #[typed_route::patch("")]
        async fn search(&self, _body: TypedBody<Search>) -> Page {
            first_page()
        }

        /// A `page` that is not a number.
        #[typed_route::get("named")]
        async fn named(&self, _query: TypedQuery<Named>) -> Page {
            first_page()
        }

        /// A page number, no pagination.
        #[typed_route::get("flat")]
        async fn flat(&self, _query: TypedQuery<PageQuery>) -> Items {
            Items { data: Vec::new() }
        }

        /// Writes.
        #[typed_route::post("")]
        async fn add(&self, body: TypedBody<Items>) -> Items {
            body.into_inner()
        }
    }

    /// The namespace of `route` in the query module of the fixture.
    fn bindings(route: &str) -> String {
        let app = App::builder().controller(Api).build().unwrap();
        let targets = Targets {
            typescript: Some(TypeScriptOptions {
                package: "@items/sdk".to_owned(),
            }),
            rust: None,
        };
        let sdks = generate(app.manifest(), &targets).unwrap();
        let query = sdks[0]
            .files
            .iter()
            .find(|file| file.path.ends_with("src/query.ts"))
            .unwrap();
        let start = query
            .contents
            .find(&format!("export namespace {route} {{"))
            .unwrap();
        let rest = &query.contents[start..];
        rest[..rest.find("\n  }\n").unwrap()].to_owned()
    }

    #[test]
    fn a_route_pages_with_an_integer_page_and_an_answer_with_its_pagination() {
        let list = bindings("list");
        assert!(list.contains("export function queryOptions("), "{list}");
        assert!(list.contains("initialPageParam: 1,"), "{list}");
        assert!(list.contains("{ ...query, page: pageParam }"), "{list}");
        assert!(!list.contains("mutationOptions"), "{list}");

        let search = bindings("search");
        assert!(
            search.contains("input: Omit<$route.Input, \"page\">"),
            "{search}"
        );
        assert!(search.contains("initialPageParam: 0,"), "{search}");
        assert!(
            search.contains("export function mutationOptions("),
            "{search}"
        );

        for unpaged in ["named", "flat"] {
            let text = bindings(unpaged);
            assert!(text.contains("export function queryOptions("), "{text}");
            assert!(!text.contains("infiniteQueryOptions"), "{text}");
        }

        let add = bindings("add");
        assert!(add.contains("export function mutationOptions("), "{add}");
        assert!(
            !add.contains("queryOptions") && !add.contains("queryKey"),
            "{add}"
        );
    }
}
