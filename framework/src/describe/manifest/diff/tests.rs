//! The corpus: one purpose-made pair of manifests per rule, each with the
//! changes it must give. Both are a small app's real manifest, each
//! changed by the case where the rule needs it (NEW in one place; OLD
//! where the rule needs what the app does not declare: a union, a
//! credential, a second status).

use std::collections::BTreeSet;

use crate::manifest::{
    ApiManifest, HeaderManifest, Rule, SecurityKindManifest, SecuritySchemeManifest, Severity, diff,
};
use crate::prelude::*;
use crate::schema::{
    EnumValue, FieldDef, Schema, StringSchema, TypeKind, UnionDef, UnionRepr, VariantDef,
    VariantKind,
};

/// What a post is.
#[dto]
enum Kind {
    Question,
    Notice,
}

#[dto]
struct PostCreate {
    #[tags(min_length = 1, max_length = 280)]
    title: String,
    kind: Kind,
    #[tags(minimum = 0, maximum = 10)]
    rank: u32,
    #[optional]
    body: Option<String>,
}

#[dto]
struct Post {
    id: u32,
    title: String,
    kind: Kind,
    body: Option<String>,
}

#[dto]
struct Filter {
    #[tags(maximum = 100)]
    limit: Option<u32>,
}

struct Posts;

#[controller("posts")]
impl Posts {
    /// Posts one.
    #[typed_route::post("")]
    async fn create(&self, body: TypedBody<PostCreate>) -> Post {
        let body = body.into_inner();
        Post {
            id: 1,
            title: body.title,
            kind: body.kind,
            body: body.body,
        }
    }

    /// Some posts.
    #[typed_route::get("")]
    async fn index(&self, _query: TypedQuery<Filter>) -> Vec<Post> {
        Vec::new()
    }

    /// One post.
    #[typed_route::get(":id", errors(404 = "no such post"))]
    async fn at(&self, #[param] id: u32) -> Post {
        let _ = id;
        Post {
            id: 1,
            title: String::new(),
            kind: Kind::Notice,
            body: None,
        }
    }
}

fn base() -> ApiManifest {
    App::builder()
        .controller(Posts)
        .build()
        .unwrap()
        .manifest()
        .clone()
}

fn ty<'m>(manifest: &'m mut ApiManifest, name: &str) -> &'m mut TypeKind {
    &mut manifest
        .types
        .iter_mut()
        .find(|named| named.name == name)
        .unwrap_or_else(|| panic!("no type {name}"))
        .def
        .kind
}

fn field<'m>(manifest: &'m mut ApiManifest, ty_name: &str, name: &str) -> &'m mut FieldDef {
    let TypeKind::Object(object) = ty(manifest, ty_name) else {
        panic!("{ty_name} is no object");
    };
    object
        .fields
        .iter_mut()
        .find(|field| field.name == name)
        .unwrap_or_else(|| panic!("no field {ty_name}.{name}"))
}

fn string_field(name: &str, required: bool) -> FieldDef {
    FieldDef {
        name: name.to_owned(),
        schema: Schema::String(StringSchema::default()),
        required,
        always_present: true,
        description: String::new(),
        default: None,
        example: None,
        check: None,
        server_check: None,
    }
}

fn push_field(manifest: &mut ApiManifest, ty_name: &str, field: FieldDef) {
    let TypeKind::Object(object) = ty(manifest, ty_name) else {
        panic!("{ty_name} is no object");
    };
    object.fields.push(field);
}

fn route<'m>(manifest: &'m mut ApiManifest, operation_id: &str) -> &'m mut RouteManifestRef {
    manifest
        .routes
        .iter_mut()
        .find(|route| route.operation_id == operation_id)
        .unwrap_or_else(|| panic!("no route {operation_id}"))
}

type RouteManifestRef = crate::manifest::RouteManifest;

fn string_schema<'m>(
    manifest: &'m mut ApiManifest,
    ty_name: &str,
    name: &str,
) -> &'m mut StringSchema {
    match &mut field(manifest, ty_name, name).schema {
        Schema::String(string) => string,
        other => panic!("{ty_name}.{name} is {other:?}"),
    }
}

/// Turns `Kind` into a union of the given unit variants (in both
/// manifests of a case that needs a union).
fn kind_union(manifest: &mut ApiManifest, variants: &[&str]) {
    *ty(manifest, "Kind") = TypeKind::Union(UnionDef {
        repr: UnionRepr::Internal {
            tag: "type".to_owned(),
        },
        variants: variants
            .iter()
            .map(|name| VariantDef {
                name: (*name).to_owned(),
                rust_name: (*name).to_owned(),
                description: String::new(),
                kind: VariantKind::Unit,
            })
            .collect(),
    });
}

fn push_value(manifest: &mut ApiManifest, value: &str) {
    let TypeKind::StringEnum(values) = ty(manifest, "Kind") else {
        panic!("Kind is no enum");
    };
    values.push(EnumValue {
        value: value.to_owned(),
        rust_name: value.to_owned(),
        description: String::new(),
    });
}

/// A `token` scheme of `kind` that `posts.create` needs.
fn with_scheme(manifest: &mut ApiManifest, kind: SecurityKindManifest) {
    manifest.security_schemes.push(SecuritySchemeManifest {
        name: "token".to_owned(),
        kind,
        description: String::new(),
    });
    route(manifest, "posts.create").security = vec!["token".to_owned()];
}

/// `posts.index` reads the header `name` by itself, as `LastEventId`
/// does, `required` or not.
fn with_header(manifest: &mut ApiManifest, name: &str, required: bool) {
    route(manifest, "posts.index")
        .header_params
        .push(HeaderManifest::new(
            name,
            "The id of the last event seen.",
            required,
        ));
}

/// `posts.create` reads the `token` credential when sent.
fn optional_token(manifest: &mut ApiManifest) {
    route(manifest, "posts.create").optional_security = vec!["token".to_owned()];
}

/// `posts.create` needs the `token` credential.
fn required_token(manifest: &mut ApiManifest) {
    route(manifest, "posts.create").security = vec!["token".to_owned()];
}

/// One pair: OLD and NEW made from the base, and the rule and place of
/// every change expected, nothing more.
struct Case {
    name: &'static str,
    old: fn(&mut ApiManifest),
    new: fn(&mut ApiManifest),
    expect: &'static [(Rule, &'static str)],
}

fn same(_: &mut ApiManifest) {}

const CASES: &[Case] = &[
    // Breaking.
    Case {
        name: "a route removed",
        old: same,
        new: |m| m.routes.retain(|route| route.operation_id != "posts.index"),
        expect: &[(Rule::RouteRemoved, "GET /posts")],
    },
    Case {
        name: "a route moved (same operation id)",
        old: same,
        new: |m| route(m, "posts.at").path = "/posts/by-id/:id".to_owned(),
        expect: &[(Rule::RouteMoved, "GET /posts/:id")],
    },
    Case {
        name: "a path parameter renamed is the same route",
        old: same,
        new: |m| {
            let at = route(m, "posts.at");
            at.path = "/posts/:post".to_owned();
            at.path_params[0].name = "post".to_owned();
        },
        expect: &[],
    },
    Case {
        name: "a new required input field",
        old: same,
        new: |m| push_field(m, "PostCreate", string_field("author", true)),
        expect: &[(Rule::InputRequired, "PostCreate.author")],
    },
    Case {
        name: "an optional input made required",
        old: same,
        new: |m| field(m, "PostCreate", "body").required = true,
        expect: &[(Rule::InputRequired, "PostCreate.body")],
    },
    Case {
        name: "a new required query",
        old: |m| route(m, "posts.index").query = None,
        new: |m| {
            let TypeKind::Object(filter) = ty(m, "Filter") else {
                panic!()
            };
            filter.fields[0].required = true;
        },
        expect: &[(Rule::InputRequired, "GET /posts query")],
    },
    Case {
        name: "a new body",
        old: |m| route(m, "posts.create").body = None,
        new: same,
        expect: &[(Rule::InputRequired, "POST /posts body")],
    },
    Case {
        name: "an input constraint narrowed",
        old: same,
        new: |m| string_schema(m, "PostCreate", "title").max_length = Some(100),
        expect: &[(Rule::InputNarrowed, "PostCreate.title")],
    },
    Case {
        name: "an input bound narrowed",
        old: same,
        new: |m| {
            if let Schema::Integer(rank) = &mut field(m, "PostCreate", "rank").schema {
                rank.bounds.minimum = Some(1.0);
            }
        },
        expect: &[(Rule::InputNarrowed, "PostCreate.rank")],
    },
    Case {
        name: "a constraint on a path parameter",
        old: same,
        new: |m| {
            if let Schema::Integer(id) = &mut route(m, "posts.at").path_params[0].schema {
                id.bounds.maximum = Some(1000.0);
            }
        },
        expect: &[(Rule::InputNarrowed, "GET /posts/:id path :id")],
    },
    Case {
        name: "an enum value removed (met in inputs and answers)",
        old: same,
        new: |m| {
            if let TypeKind::StringEnum(values) = ty(m, "Kind") {
                values.pop();
            }
        },
        expect: &[
            (Rule::InputValueRemoved, "Kind"),
            (Rule::AnswerNarrowed, "Kind"),
        ],
    },
    Case {
        name: "an enum value added (met in inputs and answers)",
        old: same,
        new: |m| push_value(m, "poll"),
        expect: &[
            (Rule::AnswerMemberAdded, "Kind"),
            (Rule::InputValueAdded, "Kind"),
        ],
    },
    Case {
        name: "a union member added",
        old: |m| kind_union(m, &["question"]),
        new: |m| kind_union(m, &["question", "notice"]),
        expect: &[
            (Rule::AnswerMemberAdded, "Kind"),
            (Rule::InputValueAdded, "Kind"),
        ],
    },
    Case {
        name: "an answer field removed",
        old: same,
        new: |m| {
            if let TypeKind::Object(post) = ty(m, "Post") {
                post.fields.retain(|field| field.name != "title");
            }
        },
        expect: &[(Rule::AnswerFieldRemoved, "Post.title")],
    },
    Case {
        name: "an answer field made optional",
        old: same,
        new: |m| field(m, "Post", "title").always_present = false,
        expect: &[(Rule::AnswerFieldOptional, "Post.title")],
    },
    Case {
        name: "an answer field made nullable",
        old: same,
        new: |m| {
            let title = field(m, "Post", "title");
            title.schema = Schema::Nullable(Box::new(title.schema.clone()));
        },
        expect: &[(Rule::AnswerFieldOptional, "Post.title")],
    },
    Case {
        name: "an answer's type changed",
        old: same,
        new: |m| field(m, "Post", "id").schema = Schema::String(StringSchema::default()),
        expect: &[(Rule::TypeChanged, "Post.id")],
    },
    Case {
        name: "an answer integer widened",
        old: same,
        new: |m| {
            if let Schema::Integer(id) = &mut field(m, "Post", "id").schema {
                id.format = crate::schema::IntegerFormat::Uint64;
            }
        },
        expect: &[(Rule::TypeChanged, "Post.id")],
    },
    Case {
        name: "an answer's media type changed",
        old: same,
        new: |m| {
            let at = route(m, "posts.at");
            if let Some(content) = &mut at.responses[0].content {
                content.media_type = "application/cbor".to_owned();
            }
        },
        expect: &[(Rule::TypeChanged, "GET /posts/:id answer 200")],
    },
    Case {
        name: "a new success status",
        old: same,
        new: |m| {
            let at = route(m, "posts.at");
            let mut moved = at.responses[0].clone();
            moved.status = 203;
            at.responses.push(moved);
        },
        expect: &[(Rule::StatusAdded, "GET /posts/:id answer 203")],
    },
    Case {
        name: "security added",
        old: same,
        new: |m| route(m, "posts.create").security.push("token".to_owned()),
        expect: &[(Rule::SecurityAdded, "POST /posts")],
    },
    Case {
        name: "an optional credential made required",
        old: optional_token,
        new: required_token,
        expect: &[(Rule::SecurityAdded, "POST /posts")],
    },
    Case {
        name: "a new required header the SDKs send on their own",
        old: same,
        new: |m| with_header(m, "last-event-id", true),
        expect: &[(Rule::InputRequired, "GET /posts header last-event-id")],
    },
    Case {
        name: "an optional header made required (its name's case aside)",
        old: |m| with_header(m, "Last-Event-ID", false),
        new: |m| with_header(m, "last-event-id", true),
        expect: &[(Rule::InputRequired, "GET /posts header last-event-id")],
    },
    Case {
        name: "a field removed from a strict input",
        old: same,
        new: |m| {
            if let TypeKind::Object(create) = ty(m, "PostCreate") {
                create.fields.retain(|field| field.name != "rank");
                create.strict = true;
            }
        },
        expect: &[
            (Rule::InputNarrowed, "PostCreate"),
            (Rule::InputNarrowed, "PostCreate.rank"),
        ],
    },
    Case {
        name: "a security scheme's credential travels differently",
        old: |m| with_scheme(m, SecurityKindManifest::Bearer),
        new: |m| {
            with_scheme(
                m,
                SecurityKindManifest::ApiKeyHeader {
                    name: "x-key".to_owned(),
                },
            )
        },
        expect: &[(Rule::SecuritySchemeChanged, "security scheme `token`")],
    },
    // Compatible.
    Case {
        name: "a new route",
        old: |m| m.routes.retain(|route| route.operation_id != "posts.index"),
        new: same,
        expect: &[(Rule::RouteAdded, "GET /posts")],
    },
    Case {
        name: "a new optional input field",
        old: same,
        new: |m| push_field(m, "PostCreate", string_field("author", false)),
        expect: &[(Rule::InputOptionalAdded, "PostCreate.author")],
    },
    Case {
        name: "an input constraint widened",
        old: same,
        new: |m| string_schema(m, "PostCreate", "title").max_length = None,
        expect: &[(Rule::InputWidened, "PostCreate.title")],
    },
    Case {
        name: "a required input made optional",
        old: same,
        new: |m| field(m, "PostCreate", "title").required = false,
        expect: &[(Rule::InputWidened, "PostCreate.title")],
    },
    Case {
        name: "a new answer field",
        old: same,
        new: |m| push_field(m, "Post", string_field("author", true)),
        expect: &[(Rule::AnswerFieldAdded, "Post.author")],
    },
    Case {
        name: "a success status no longer answered",
        old: |m| {
            let at = route(m, "posts.at");
            let mut other = at.responses[0].clone();
            other.status = 203;
            at.responses.push(other);
        },
        new: same,
        expect: &[(Rule::AnswerNarrowed, "GET /posts/:id answer 203")],
    },
    Case {
        name: "security removed",
        old: |m| route(m, "posts.create").security.push("token".to_owned()),
        new: same,
        expect: &[(Rule::SecurityRemoved, "POST /posts")],
    },
    Case {
        name: "a required credential made optional",
        old: required_token,
        new: optional_token,
        expect: &[(Rule::SecurityRemoved, "POST /posts")],
    },
    Case {
        name: "an optional credential added",
        old: same,
        new: optional_token,
        expect: &[(Rule::OptionalSecurityAdded, "POST /posts")],
    },
    Case {
        name: "an optional credential removed",
        old: optional_token,
        new: same,
        expect: &[(Rule::OptionalSecurityRemoved, "POST /posts")],
    },
    Case {
        name: "a new optional header the SDKs send on their own",
        old: same,
        new: |m| with_header(m, "last-event-id", false),
        expect: &[(Rule::InputOptionalAdded, "GET /posts header last-event-id")],
    },
    Case {
        name: "a required header made optional",
        old: |m| with_header(m, "last-event-id", true),
        new: |m| with_header(m, "last-event-id", false),
        expect: &[(Rule::InputWidened, "GET /posts header last-event-id")],
    },
    // Needs care.
    Case {
        name: "documentation only",
        old: same,
        new: |m| {
            field(m, "Post", "title").description = "The headline.".to_owned();
            route(m, "posts.at").summary = "One post, by id.".to_owned();
        },
        expect: &[
            (Rule::Documentation, "GET /posts/:id"),
            (Rule::Documentation, "Post.title"),
        ],
    },
    Case {
        name: "a default changed",
        old: |m| field(m, "Filter", "limit").default = Some(20.into()),
        new: |m| field(m, "Filter", "limit").default = Some(50.into()),
        expect: &[(Rule::DefaultChanged, "Filter.limit")],
    },
    Case {
        name: "an input field removed (not strict: ignored)",
        old: same,
        new: |m| {
            if let TypeKind::Object(create) = ty(m, "PostCreate") {
                create.fields.retain(|field| field.name != "rank");
            }
        },
        expect: &[(Rule::InputIgnored, "PostCreate.rank")],
    },
    Case {
        name: "a header the SDKs send on their own, read no more",
        old: |m| with_header(m, "last-event-id", false),
        new: same,
        expect: &[(Rule::InputIgnored, "GET /posts header last-event-id")],
    },
    Case {
        name: "a header's name in another case is the same header",
        old: |m| with_header(m, "Last-Event-ID", false),
        new: |m| with_header(m, "last-event-id", false),
        expect: &[],
    },
    Case {
        name: "a header's description changed",
        old: |m| with_header(m, "last-event-id", false),
        new: |m| {
            with_header(m, "last-event-id", false);
            route(m, "posts.index").header_params[0].description = "Where to resume.".to_owned();
        },
        expect: &[(Rule::Documentation, "GET /posts header last-event-id")],
    },
    Case {
        name: "an answer constraint widened",
        old: |m| string_schema(m, "Post", "title").max_length = Some(280),
        new: same,
        expect: &[(Rule::AnswerWidened, "Post.title")],
    },
    Case {
        name: "a new error status",
        old: same,
        new: |m| {
            let create = route(m, "posts.create");
            create.errors.push(crate::manifest::ErrorManifest {
                status: 409,
                description: "a post with this title exists".to_owned(),
            });
        },
        expect: &[(Rule::ErrorAdded, "POST /posts error 409")],
    },
    Case {
        name: "an SDK function renamed",
        old: same,
        new: |m| {
            let at = route(m, "posts.at");
            at.operation_id = "posts.get".to_owned();
            at.accessor = vec!["posts".to_owned(), "get".to_owned()];
        },
        expect: &[(Rule::SdkNameChanged, "GET /posts/:id")],
    },
    Case {
        name: "a route left out of the SDKs",
        old: same,
        new: |m| route(m, "posts.at").sdk = false,
        expect: &[(Rule::SdkMembership, "GET /posts/:id")],
    },
];

#[test]
fn every_rule_has_its_case() {
    let mut failures = Vec::new();
    let mut covered = BTreeSet::new();
    for case in CASES {
        let (mut old, mut new) = (base(), base());
        (case.old)(&mut old);
        (case.new)(&mut new);
        let found: BTreeSet<(Rule, String)> = diff(&old, &new)
            .changes
            .into_iter()
            .map(|change| (change.rule, change.place))
            .collect();
        let expected: BTreeSet<(Rule, String)> = case
            .expect
            .iter()
            .map(|(rule, place)| (*rule, (*place).to_owned()))
            .collect();
        if found != expected {
            failures.push(format!(
                "{}:\n  expected {expected:?}\n  found    {found:?}",
                case.name
            ));
        }
        covered.extend(case.expect.iter().map(|(rule, _)| *rule));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let missing: Vec<Rule> = ALL_RULES
        .iter()
        .copied()
        .filter(|rule| !covered.contains(rule))
        .collect();
    assert!(missing.is_empty(), "rules without a case: {missing:?}");
}

const ALL_RULES: &[Rule] = &[
    Rule::RouteRemoved,
    Rule::RouteMoved,
    Rule::InputRequired,
    Rule::InputNarrowed,
    Rule::InputValueRemoved,
    Rule::AnswerFieldRemoved,
    Rule::AnswerFieldOptional,
    Rule::AnswerMemberAdded,
    Rule::TypeChanged,
    Rule::StatusAdded,
    Rule::SecurityAdded,
    Rule::SecuritySchemeChanged,
    Rule::RouteAdded,
    Rule::InputOptionalAdded,
    Rule::InputWidened,
    Rule::InputValueAdded,
    Rule::AnswerFieldAdded,
    Rule::AnswerNarrowed,
    Rule::SecurityRemoved,
    Rule::OptionalSecurityAdded,
    Rule::OptionalSecurityRemoved,
    Rule::Documentation,
    Rule::DefaultChanged,
    Rule::InputIgnored,
    Rule::AnswerWidened,
    Rule::ErrorAdded,
    Rule::SdkNameChanged,
    Rule::SdkMembership,
];

#[test]
fn the_same_manifest_has_no_change() {
    assert_eq!(diff(&base(), &base()).changes, []);
}

#[test]
fn a_type_change_names_every_route_reaching_it() {
    let (old, mut new) = (base(), base());
    field(&mut new, "Post", "title").always_present = false;
    let changes = diff(&old, &new);
    let [change] = changes.changes.as_slice() else {
        panic!("{changes}");
    };
    assert_eq!(change.severity, Severity::Breaking);
    assert_eq!(change.types, ["Post"]);
    let routes: Vec<&str> = change
        .routes
        .iter()
        .map(|route| route.operation_id.as_str())
        .collect();
    // By method, then path.
    assert_eq!(routes, ["posts.index", "posts.at", "posts.create"]);
}

#[test]
fn the_report_lists_changes_by_severity() {
    let (old, mut new) = (base(), base());
    string_schema(&mut new, "PostCreate", "title").max_length = Some(100);
    push_field(&mut new, "Post", string_field("author", true));
    assert_eq!(
        diff(&old, &new).to_string(),
        "1 breaking, 0 needs care, 1 compatible\n\
         \n\
         BREAKING:\n  \
           - [input-narrowed] PostCreate.title: maxLength 280 -> 100\n      \
             routes: POST /posts\n\
         \n\
         COMPATIBLE:\n  \
           - [answer-field-added] Post.author: new field\n      \
             routes: GET /posts, GET /posts/:id, POST /posts\n"
    );
}

/// Each way a route's credential can change gives one change, which says
/// what the credential was and names the route (so `sdk-gen diff` names
/// its SDK functions).
#[test]
fn a_credential_change_is_one_change_naming_its_route() {
    type Edit = fn(&mut ApiManifest);
    let cases: [(Edit, Edit, Rule, &str); 6] = [
        (
            same,
            required_token,
            Rule::SecurityAdded,
            "needs the `token` credential",
        ),
        (
            optional_token,
            required_token,
            Rule::SecurityAdded,
            "needs the `token` credential, which was optional: callers without it are refused",
        ),
        (
            same,
            optional_token,
            Rule::OptionalSecurityAdded,
            "reads the `token` credential when sent (optional)",
        ),
        (
            required_token,
            optional_token,
            Rule::SecurityRemoved,
            "the `token` credential is optional now",
        ),
        (
            required_token,
            same,
            Rule::SecurityRemoved,
            "no longer needs the `token` credential",
        ),
        (
            optional_token,
            same,
            Rule::OptionalSecurityRemoved,
            "no longer reads the optional `token` credential: it is ignored",
        ),
    ];
    for (old_edit, new_edit, rule, detail) in cases {
        let (mut old, mut new) = (base(), base());
        old_edit(&mut old);
        new_edit(&mut new);
        let changes = diff(&old, &new);
        let [change] = changes.changes.as_slice() else {
            panic!("{detail}: {changes}");
        };
        assert_eq!((change.rule, change.detail.as_str()), (rule, detail));
        assert_eq!(change.severity, rule.severity());
        let routes: Vec<&str> = change
            .routes
            .iter()
            .map(|route| route.operation_id.as_str())
            .collect();
        assert_eq!(routes, ["posts.create"], "{detail}");
    }
}

/// A new required header is breaking and names its route, so `sdk-gen
/// diff` names the SDK function that does not send it.
#[test]
fn a_required_header_names_its_route() {
    let (old, mut new) = (base(), base());
    with_header(&mut new, "last-event-id", true);
    assert_eq!(
        diff(&old, &new).to_string(),
        "1 breaking, 0 needs care, 0 compatible\n\
         \n\
         BREAKING:\n  \
           - [input-required] GET /posts header last-event-id: new required header\n"
    );
    let changes = diff(&old, &new);
    let routes: Vec<&str> = changes.changes[0]
        .routes
        .iter()
        .map(|route| route.operation_id.as_str())
        .collect();
    assert_eq!(routes, ["posts.index"]);
}

#[test]
fn rules_have_one_severity_each() {
    assert_eq!(Rule::RouteRemoved.severity(), Severity::Breaking);
    assert_eq!(Rule::RouteAdded.severity(), Severity::Compatible);
    assert_eq!(Rule::Documentation.severity(), Severity::NeedsCare);
    assert_eq!(Rule::AnswerFieldOptional.code(), "answer-field-optional");
    assert_eq!(
        Rule::OptionalSecurityAdded.code(),
        "optional-security-added"
    );
    assert_eq!(
        Rule::OptionalSecurityRemoved.severity(),
        Severity::Compatible
    );
}
