//! `#[dto]`: every tag, presence rule and enum form, checked by property
//! tests: random values always validate, and a value with one constraint
//! broken is always refused with the issue at that value's path.

use std::collections::BTreeMap;

use framework::{
    prelude::*,
    testing::{check_broken_values, check_first_draw, check_random_value},
};
use proptest::prelude::*;
use serde_json::json;

/// Every tag on one type.
#[dto(strict)]
#[derive(Debug, PartialEq)]
struct Everything {
    #[tags(format = "uuid")]
    id: String,
    #[tags(format = "email")]
    email: String,
    #[tags(format = "hostname")]
    host: String,
    #[tags(format = "ipv4")]
    v4: String,
    #[tags(format = "ipv6")]
    v6: String,
    #[tags(format = "uri")]
    uri: String,
    #[tags(format = "url")]
    url: String,
    #[tags(format = "uri-reference")]
    reference: String,
    #[tags(format = "date-time")]
    at: String,
    #[tags(format = "date")]
    day: String,
    #[tags(format = "time")]
    clock: String,
    #[tags(format = "duration")]
    lasting: String,
    #[tags(format = "byte")]
    blob: String,
    #[tags(format = "password", min_length = 8)]
    secret: String,
    #[tags(format = "regex")]
    expression: String,
    #[tags(format = "json-pointer")]
    pointer: String,
    #[tags(min_length = 3, max_length = 50)]
    title: String,
    #[tags(pattern = "^[a-z]{2,5}-[0-9]{3}$")]
    code: String,
    #[tags(minimum = 1, maximum = 100)]
    percent: u8,
    #[tags(exclusive_minimum = 0, exclusive_maximum = 1)]
    ratio: f64,
    #[tags(multiple_of = 5, minimum = 0, maximum = 1000)]
    step: u32,
    #[tags(multiple_of = 0.25, minimum = -10, maximum = 10)]
    quarter: f32,
    wide: i64,
    narrow: i16,
    #[tags(
        min_items = 1,
        max_items = 4,
        unique_items,
        items(min_length = 1, max_length = 10)
    )]
    labels: Vec<String>,
    #[tags(items(format = "uri"))]
    links: Vec<Option<String>>,
    #[tags(min_length = 2)]
    nickname: Option<String>,
    #[optional]
    #[tags(maximum = 10)]
    rank: Option<u32>,
    #[optional]
    maybe: Option<Option<bool>>,
    #[serde(default)]
    count: u16,
    #[tags(check = even)]
    even_number: u32,
    map: BTreeMap<String, Leaf>,
    shape: Shape,
    event: Event,
    payload: Payload,
    answer: Answer,
    kind: Kind,
    tree: Tree,
    page: Page<Leaf>,
    #[tags(default = "anything", example = "something")]
    documented: String,
}

fn even(value: &u32) -> Result<(), String> {
    if value.is_multiple_of(2) {
        Ok(())
    } else {
        Err("an even number".to_owned())
    }
}

#[dto]
#[derive(Debug, PartialEq)]
struct Leaf {
    #[tags(minimum = -5, maximum = 5)]
    score: i32,
}

/// A string enum.
#[dto]
#[derive(Debug, PartialEq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Kind {
    FirstKind,
    SecondKind,
}

/// Internally tagged.
#[dto]
#[derive(Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Shape {
    Circle {
        #[tags(exclusive_minimum = 0)]
        radius: f64,
    },
    Square(Leaf),
    Dot,
}

/// Externally tagged.
#[dto]
#[derive(Debug, PartialEq)]
enum Event {
    Created {
        #[tags(min_length = 1)]
        by: String,
    },
    Renamed(#[tags(min_length = 1)] String),
    Deleted,
}

/// Adjacently tagged.
#[dto]
#[derive(Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
enum Payload {
    Text(#[tags(max_length = 5)] String),
    Number(u8),
}

/// Untagged.
#[dto]
#[derive(Debug, PartialEq)]
#[serde(untagged)]
enum Answer {
    Yes(bool),
    Count(u32),
}

/// Recursive.
#[dto]
#[derive(Debug, PartialEq)]
struct Tree {
    #[tags(min_length = 1)]
    name: String,
    #[tags(max_items = 3)]
    children: Vec<Tree>,
}

/// Generic.
#[dto]
#[derive(Debug, PartialEq)]
struct Page<T> {
    data: Vec<T>,
    #[tags(minimum = 1)]
    current: u32,
}

/// A newtype with tags.
#[dto]
#[derive(Debug, PartialEq)]
struct Title(#[tags(min_length = 3)] String);

fn decode<T: Dto>(value: &serde_json::Value) -> Result<T, ApiError> {
    framework::from_json::<T>(value.to_string().as_bytes())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_values_validate(seed in any::<u64>()) {
        check_random_value::<Everything>(seed).map_err(TestCaseError::fail)?;
        check_random_value::<Tree>(seed).map_err(TestCaseError::fail)?;
        check_random_value::<Page<Tree>>(seed).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn broken_values_fail_at_their_path(seed in any::<u64>()) {
        check_broken_values::<Everything>(seed).map_err(TestCaseError::fail)?;
        check_broken_values::<Shape>(seed).map_err(TestCaseError::fail)?;
    }
}

/// Draws `T` from seeds `0..500`, each once with no second try, and
/// returns how many draws were valid by construction; an exact draw that
/// is refused fails the test.
fn exact_first_draws<T: Dto + std::fmt::Debug>() -> usize {
    (0..500)
        .filter(|&seed| {
            check_first_draw::<T>(seed)
                .unwrap_or_else(|err| panic!("{}: {err}", std::any::type_name::<T>()))
        })
        .count()
}

/// Random values are valid on the first draw, not found by rejection.
/// `Everything` is the named exception: its `check = even` field is a
/// user-written check the generator cannot see, so a draw with it is not
/// exact (and `Random` draws again).
#[test]
fn random_values_are_valid_on_the_first_draw() {
    assert_eq!(exact_first_draws::<Leaf>(), 500);
    assert_eq!(exact_first_draws::<Kind>(), 500);
    assert_eq!(exact_first_draws::<Shape>(), 500);
    assert_eq!(exact_first_draws::<Event>(), 500);
    assert_eq!(exact_first_draws::<Payload>(), 500);
    assert_eq!(exact_first_draws::<Answer>(), 500);
    assert_eq!(exact_first_draws::<Tree>(), 500);
    assert_eq!(exact_first_draws::<Page<Tree>>(), 500);
    assert_eq!(exact_first_draws::<Title>(), 500);
    assert!(exact_first_draws::<Everything>() < 500);
}

#[test]
fn presence_and_null_follow_the_declaration() {
    let base = serde_json::to_value(Everything::random()).unwrap();
    let with = |key: &str, value: Option<serde_json::Value>| {
        let mut doc = base.clone();
        match value {
            Some(value) => doc[key] = value,
            None => {
                doc.as_object_mut().unwrap().remove(key);
            }
        }
        decode::<Everything>(&doc)
    };
    // `Option<T>`: present, may be null.
    assert!(with("nickname", Some(json!(null))).is_ok());
    let missing = with("nickname", None).unwrap_err();
    assert_eq!(missing.issues()[0].path, "$input.nickname");
    assert_eq!(missing.issues()[0].value, None);
    // `#[optional] Option<T>`: may be absent, not null.
    assert_eq!(with("rank", None).unwrap().rank, None);
    let null = with("rank", Some(json!(null))).unwrap_err();
    assert_eq!(null.issues()[0].path, "$input.rank");
    assert_eq!(null.issues()[0].value, Some(json!(null)));
    // `#[optional] Option<Option<T>>`: may be absent or null.
    assert_eq!(with("maybe", None).unwrap().maybe, None);
    assert_eq!(with("maybe", Some(json!(null))).unwrap().maybe, Some(None));
    // `#[serde(default)]`: may be absent.
    assert_eq!(with("count", None).unwrap().count, 0);
    // Strict: unknown properties are refused.
    let unknown = with("surprise", Some(json!(1))).unwrap_err();
    assert_eq!(unknown.issues()[0].path, "$input.surprise");
    assert_eq!(unknown.issues()[0].expected, "undefined");
}

#[test]
fn user_checks_and_patterns_are_reported() {
    let mut doc = serde_json::to_value(Everything::random()).unwrap();
    doc["even_number"] = json!(3);
    doc["code"] = json!("ABC-12");
    let err = decode::<Everything>(&doc).unwrap_err();
    let issues: Vec<_> = err
        .issues()
        .iter()
        .map(|issue| (issue.path.as_str(), issue.expected.as_str()))
        .collect();
    assert_eq!(
        issues,
        [
            (
                "$input.code",
                r#"string & Pattern<"^[a-z]{2,5}-[0-9]{3}$">"#
            ),
            (
                "$input.even_number",
                r#"number & Type<"uint32"> & Check<even>: an even number"#
            ),
        ]
    );
}

#[test]
fn every_error_is_listed_not_just_the_first() {
    let doc = json!({ "name": "", "children": [{ "name": "ok", "children": [] }, { "name": 5, "children": "none" }] });
    let err = decode::<Tree>(&doc).unwrap_err();
    let issues: Vec<_> = err
        .issues()
        .iter()
        .map(|issue| (issue.path.as_str(), issue.expected.as_str()))
        .collect();
    assert_eq!(
        issues,
        [
            ("$input.name", "string & MinLength<1>"),
            ("$input.children[1].name", "string & MinLength<1>"),
            ("$input.children[1].children", "Array<Tree> & MaxItems<3>"),
        ]
    );
    assert_eq!(err.code(), "invalid_body");
    assert_eq!(
        err.message(),
        "body: $input.name is not string & MinLength<1> (and 2 more issues)"
    );
}

#[test]
fn unions_are_checked_by_their_representation() {
    assert!(decode::<Shape>(&json!({ "type": "circle", "radius": 1.5 })).is_ok());
    assert!(decode::<Shape>(&json!({ "type": "square", "score": 1 })).is_ok());
    let err = decode::<Shape>(&json!({ "type": "circle", "radius": 0 })).unwrap_err();
    assert_eq!(err.issues()[0].path, "$input.radius");
    let err = decode::<Shape>(&json!({ "type": "hexagon" })).unwrap_err();
    assert_eq!(err.issues()[0].path, "$input");
    assert_eq!(err.issues()[0].expected, "Shape");

    assert!(decode::<Event>(&json!("Deleted")).is_ok());
    let err = decode::<Event>(&json!({ "Created": { "by": "" } })).unwrap_err();
    assert_eq!(err.issues()[0].path, "$input.Created.by");
    let err = decode::<Payload>(&json!({ "t": "Text", "c": "too long" })).unwrap_err();
    assert_eq!(err.issues()[0].path, "$input.c");
    assert!(decode::<Answer>(&json!(7)).is_ok());
    let err = decode::<Answer>(&json!("maybe")).unwrap_err();
    assert_eq!(err.issues()[0].expected, "Answer");
}

#[test]
fn newtypes_carry_their_tags() {
    assert!(decode::<Title>(&json!("long enough")).is_ok());
    let err = decode::<Title>(&json!("no")).unwrap_err();
    assert_eq!(err.issues()[0].path, "$input");
    assert_eq!(err.issues()[0].expected, "string & MinLength<3>");
}

#[test]
fn schemas_record_docs_defaults_and_examples() {
    use framework::schema::{TypeKind, schema_of};
    let described = schema_of::<Everything>();
    let framework::schema::Schema::Ref(id) = described.schema else {
        panic!("not a named type")
    };
    let TypeKind::Object(object) = &described.registry.get(id).kind else {
        panic!("not an object")
    };
    let documented = object
        .fields
        .iter()
        .find(|field| field.name == "documented")
        .unwrap();
    assert_eq!(documented.default, Some(json!("anything")));
    assert_eq!(documented.example, Some(json!("something")));
    let count = object
        .fields
        .iter()
        .find(|field| field.name == "count")
        .unwrap();
    assert!(!count.required);
    assert_eq!(count.default, Some(json!(0)));
    let names: Vec<_> = described
        .registry
        .defs()
        .map(|(_, def)| def.name.as_str())
        .collect();
    assert!(names.contains(&"Page<Leaf>"), "{names:?}");
    let kind = described
        .registry
        .defs()
        .find(|(_, def)| def.name == "Kind")
        .unwrap()
        .1;
    assert_eq!(kind.description, "A string enum.");
}

#[test]
fn deep_and_huge_inputs_are_refused_not_crashing() {
    let deep = "[".repeat(100_000);
    let err = framework::from_json::<Tree>(deep.as_bytes()).unwrap_err();
    assert_eq!(err.status(), 400);
    let nested = format!("{}{}", r#"{"name":"a","children":["#.repeat(200), "");
    let err = framework::from_json::<Tree>(nested.as_bytes()).unwrap_err();
    assert_eq!(err.status(), 400);
    let err = framework::from_json::<Leaf>(br#"{"score": 1e999999}"#).unwrap_err();
    assert_eq!(err.status(), 400);
    let err = framework::from_json::<Leaf>(b"{\"score\": \xff}").unwrap_err();
    assert_eq!(err.status(), 400);
}

#[test]
fn duplicate_keys_are_refused() {
    let err = framework::from_json::<Leaf>(br#"{"score": 1, "score": 2}"#).unwrap_err();
    assert_eq!(err.status(), 400);
    assert_eq!(err.issues()[0].path, "$input");
    assert!(
        err.issues()[0].expected.contains("duplicate field `score`"),
        "{:?}",
        err.issues()
    );
}
