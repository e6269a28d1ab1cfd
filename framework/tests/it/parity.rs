//! The server accepts exactly what the schema describes (issue 14): serde's
//! leniencies refused on the fast path and in the report alike, f32 and
//! large integers exact, recursion through generics, nesting limits.

use std::collections::BTreeMap;

use framework::{
    MAX_JSON_DEPTH,
    prelude::*,
    schema::{Schema, TypeKind, schema_of},
    testing::{check_broken_values, check_random_value},
};

#[dto]
#[derive(Debug, PartialEq)]
struct Point {
    x: f64,
    y: f64,
}

#[dto]
#[derive(Debug, PartialEq)]
struct Order {
    id: u32,
    count: u32,
    price: f64,
    paid: bool,
    rank: i32,
}

#[dto]
#[derive(Debug, PartialEq)]
pub(crate) enum Payment {
    Cash,
    Card { number: String, cvc: u16 },
    Voucher(String),
}

#[dto]
#[derive(Debug, PartialEq)]
#[serde(untagged)]
enum Loose {
    Pt(Point),
    List(Vec<i64>),
}

#[dto]
#[derive(Debug, PartialEq)]
#[serde(tag = "type")]
pub(crate) enum Figure {
    Circle { radius: f64 },
    Dot,
}

#[dto]
#[derive(Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
enum Signal {
    Ping,
    Say(String),
}

#[dto]
#[derive(Debug, PartialEq)]
enum Color {
    Red,
    Green,
}

/// The paths and expected texts of a refusal; the refusal must be typia's
/// shape, never serde's wording.
fn refusal<T: Dto + std::fmt::Debug>(json: &str) -> Vec<(String, String)> {
    let err = framework::from_json::<T>(json.as_bytes())
        .map(|value| panic!("{json} was accepted as {value:?}"))
        .unwrap_err();
    assert_eq!(err.status(), 400, "{json}");
    err.issues()
        .iter()
        .map(|issue| (issue.path.clone(), issue.expected.clone()))
        .collect()
}

fn no_serde_wording(issues: &[(String, String)]) {
    for (path, expected) in issues {
        assert!(
            !expected.contains("invalid type") && !expected.contains("Serde("),
            "{path}: {expected}"
        );
    }
}

#[test]
fn a_struct_is_not_read_from_an_array() {
    let issues = refusal::<Order>("[1,2,1.5,true,0]");
    assert_eq!(issues, [("$input".to_owned(), "Order".to_owned())]);
    let issues = refusal::<Point>("[1,2]");
    assert_eq!(issues, [("$input".to_owned(), "Point".to_owned())]);
    assert!(framework::from_json::<Point>(br#"{"x":1,"y":2}"#).is_ok());
}

#[test]
fn a_struct_variant_is_not_read_from_an_array() {
    let issues = refusal::<Payment>(r#"{"Card":["1234",12]}"#);
    no_serde_wording(&issues);
    assert_eq!(issues[0].0, "$input.Card");
    let card: Payment = framework::from_json(br#"{"Card":{"number":"1234","cvc":12}}"#).unwrap();
    assert_eq!(
        card,
        Payment::Card {
            number: "1234".into(),
            cvc: 12
        }
    );
}

#[test]
fn an_untagged_list_is_not_taken_for_a_struct() {
    let list: Loose = framework::from_json(b"[1,2]").unwrap();
    assert_eq!(list, Loose::List(vec![1, 2]));
    let point: Loose = framework::from_json(br#"{"x":1,"y":2}"#).unwrap();
    assert_eq!(point, Loose::Pt(Point { x: 1.0, y: 2.0 }));
}

#[test]
fn a_unit_variant_is_its_name_alone() {
    let issues = refusal::<Payment>(r#"{"Cash":null}"#);
    assert_eq!(issues[0].0, "$input");
    no_serde_wording(&issues);
    assert_eq!(
        framework::from_json::<Payment>(br#""Cash""#).unwrap(),
        Payment::Cash
    );
    let issues = refusal::<Color>(r#"{"Red":null}"#);
    assert_eq!(
        issues,
        [("$input".to_owned(), r#""Red" | "Green""#.to_owned())]
    );
    assert_eq!(
        framework::from_json::<Color>(br#""Red""#).unwrap(),
        Color::Red
    );
}

#[test]
fn a_newtype_variant_takes_one_property_only() {
    let issues = refusal::<Payment>(r#"{"Voucher":"a","Cash":null}"#);
    assert_eq!(issues[0].0, "$input");
    no_serde_wording(&issues);
}

#[test]
fn tagged_enums_are_not_read_from_arrays() {
    let issues = refusal::<Figure>(r#"["Circle", 1.0]"#);
    assert_eq!(issues, [("$input".to_owned(), "Figure".to_owned())]);
    let issues = refusal::<Signal>(r#"["Ping", null]"#);
    assert_eq!(issues, [("$input".to_owned(), "Signal".to_owned())]);
    assert_eq!(
        framework::from_json::<Figure>(br#"{"type":"Circle","radius":1}"#).unwrap(),
        Figure::Circle { radius: 1.0 }
    );
}

#[test]
fn adjacent_unit_content_is_reported_at_its_path() {
    let issues = refusal::<Signal>(r#"{"t":"Ping","c":1}"#);
    no_serde_wording(&issues);
    assert_eq!(issues, [("$input.c".to_owned(), "null".to_owned())]);
    assert_eq!(
        framework::from_json::<Signal>(br#"{"t":"Ping"}"#).unwrap(),
        Signal::Ping
    );
}

#[dto]
#[derive(Debug, PartialEq)]
struct Tally {
    counts: BTreeMap<String, i64>,
    #[optional]
    nested: Option<Vec<BTreeMap<String, BTreeMap<String, u8>>>>,
}

#[test]
fn a_map_key_written_twice_is_refused() {
    for json in [
        r#"{"counts":{"a":1,"a":2}}"#,
        r#"{"counts":{},"nested":[{"x":{"b":1,"b":1}}]}"#,
        r#"{"counts":{},"nested":[{"x":{},"x":{}}]}"#,
    ] {
        let issues = refusal::<Tally>(json);
        assert_eq!(issues.len(), 1, "{json}: {issues:?}");
        assert_eq!(issues[0].0, "$input", "{json}");
        assert!(issues[0].1.contains("duplicate key"), "{json}: {issues:?}");
    }
    let issues = refusal::<BTreeMap<String, u8>>(r#"{"a":1,"a":1}"#);
    assert!(issues[0].1.contains("duplicate key `a`"), "{issues:?}");
    let tally: Tally = framework::from_json(br#"{"counts":{"a":1,"b":2}}"#).unwrap();
    assert_eq!(tally.counts.len(), 2);
}

#[dto]
#[derive(Debug, PartialEq)]
struct Reading {
    value: f32,
    #[optional]
    more: Option<Vec<f32>>,
}

#[test]
fn an_f32_out_of_range_is_refused() {
    let issues = refusal::<Reading>(r#"{"value":1e39}"#);
    assert_eq!(
        issues,
        [(
            "$input.value".to_owned(),
            "number & Type<\"float\">".to_owned()
        )]
    );
    let issues = refusal::<Reading>(r#"{"value":0,"more":[1,-1e300]}"#);
    assert_eq!(issues[0].0, "$input.more[1]");
    let max: Reading = framework::from_json(br#"{"value":3.4028234663852886e38}"#).unwrap();
    assert_eq!(max.value, f32::MAX);
}

#[test]
fn the_f32_schema_carries_its_range() {
    let described = schema_of::<f32>();
    let Schema::Number(number) = &described.schema else {
        panic!("{:?}", described.schema)
    };
    assert_eq!(number.bounds.minimum, Some(f64::from(f32::MIN)));
    assert_eq!(number.bounds.maximum, Some(f64::from(f32::MAX)));
}

#[dto]
#[derive(Debug, PartialEq)]
struct Steps {
    #[tags(multiple_of = 2)]
    even: u64,
    #[tags(maximum = 9007199254740992)]
    capped: u64,
    #[tags(minimum = -9007199254740992)]
    floor: i64,
    #[tags(multiple_of = 0.5)]
    halves: i64,
}

#[test]
fn integer_multiples_and_bounds_are_exact() {
    let ok = |even: u64, capped: u64, floor: i64| {
        let json = format!(r#"{{"even":{even},"capped":{capped},"floor":{floor},"halves":3}}"#);
        framework::from_json::<Steps>(json.as_bytes()).map(|_| ())
    };
    assert!(ok(1_000_000_000, 0, 0).is_ok());
    let err = ok(1_000_000_001, 0, 0).unwrap_err();
    assert_eq!(err.issues()[0].path, "$input.even");
    assert!(ok(u64::MAX - 1, 0, 0).is_ok());
    assert!(ok(u64::MAX, 0, 0).is_err());
    assert!(ok(0, 9_007_199_254_740_992, 0).is_ok());
    let err = ok(0, 9_007_199_254_740_993, 0).unwrap_err();
    assert_eq!(err.issues()[0].path, "$input.capped");
    assert!(ok(0, 0, -9_007_199_254_740_992).is_ok());
    let err = ok(0, 0, -9_007_199_254_740_993).unwrap_err();
    assert_eq!(err.issues()[0].path, "$input.floor");
}

#[test]
fn random_steps_are_valid_and_broken_ones_refused() {
    for seed in 0..100 {
        check_random_value::<Steps>(seed).unwrap();
        check_broken_values::<Steps>(seed).unwrap();
    }
}

#[dto]
#[derive(Debug, PartialEq)]
struct Page<T> {
    items: Vec<T>,
}

#[dto]
#[derive(Debug, PartialEq)]
struct Node {
    label: String,
    replies: Page<Node>,
}

#[test]
fn recursion_through_a_generic_dto() {
    let described = schema_of::<Node>();
    let names: Vec<&str> = described
        .registry
        .defs()
        .map(|(_, def)| def.name.as_str())
        .collect();
    assert_eq!(names, ["Node", "Page<Node>"]);
    let (_, page) = described.registry.defs().nth(1).unwrap();
    let TypeKind::Object(object) = &page.kind else {
        panic!("{page:?}")
    };
    assert_eq!(object.fields[0].name, "items");
    let json = br#"{"label":"a","replies":{"items":[{"label":"b","replies":{"items":[]}}]}}"#;
    let node: Node = framework::from_json(json).unwrap();
    assert_eq!(node.replies.items[0].label, "b");
    assert_eq!(serde_json::to_vec(&node).unwrap(), json);
    let issues = refusal::<Node>(r#"{"label":"a","replies":{"items":[{"label":1}]}}"#);
    let paths: Vec<&str> = issues.iter().map(|(path, _)| path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "$input.replies.items[0].label",
            "$input.replies.items[0].replies"
        ]
    );
    for seed in 0..50 {
        check_random_value::<Node>(seed).unwrap();
        check_broken_values::<Node>(seed).unwrap();
    }
}

/// `depth` arrays, one inside the other, well formed.
fn nested_arrays(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

#[test]
fn json_nested_to_the_limit_is_accepted() {
    assert_eq!(MAX_JSON_DEPTH, 128);
    let json = nested_arrays(MAX_JSON_DEPTH);
    let value: serde_json::Value = framework::from_json(json.as_bytes()).unwrap();
    assert_eq!(serde_json::to_string(&value).unwrap(), json);
}

#[test]
fn json_nested_past_the_limit_is_refused() {
    let json = nested_arrays(MAX_JSON_DEPTH + 1);
    let err = framework::from_json::<serde_json::Value>(json.as_bytes()).unwrap_err();
    assert_eq!(err.status(), 400);
    assert_eq!(err.code(), "invalid_body");
    assert_eq!(err.issues()[0].path, "$input");
    let objects = format!(
        "{}1{}",
        r#"{"a":"#.repeat(MAX_JSON_DEPTH + 1),
        "}".repeat(MAX_JSON_DEPTH + 1)
    );
    let err = framework::from_json::<serde_json::Value>(objects.as_bytes()).unwrap_err();
    assert_eq!(err.code(), "invalid_body");
}

#[dto]
#[derive(Debug, PartialEq)]
struct Floats {
    reading: Reading,
    payment: Payment,
    tally: Tally,
}

#[test]
fn random_values_of_the_new_shapes_round_trip() {
    for seed in 0..100 {
        check_random_value::<Floats>(seed).unwrap();
        check_broken_values::<Floats>(seed).unwrap();
    }
}

#[dto]
#[derive(Debug, PartialEq)]
struct Trip {
    #[tags(unique_items)]
    stops: Vec<Point>,
    #[tags(unique_items)]
    tags: Vec<String>,
}

/// Items equal as the values they decode to (a float written `1` or
/// `1.0`, a property the type does not know) break `unique_items`, and the
/// refusal is reported at the array, naming the two items (issue 23,
/// item 6), never at `$input` as "a constraint is not met".
#[test]
fn unique_items_is_reported_at_the_array_naming_the_equal_items() {
    for (json, first, again) in [
        (r#"{"stops":[{"x":1,"y":2},{"x":1,"y":2}],"tags":[]}"#, 0, 1),
        (
            r#"{"stops":[{"x":0,"y":0},{"x":1,"y":2},{"x":1.0,"y":2e0,"z":9}],"tags":[]}"#,
            1,
            2,
        ),
    ] {
        assert_eq!(
            refusal::<Trip>(json),
            [(
                "$input.stops".to_owned(),
                format!("Array<Point> & UniqueItems ([{first}] and [{again}] are equal)")
            )],
            "{json}"
        );
    }
    assert_eq!(
        refusal::<Trip>(r#"{"stops":[],"tags":["a","b","a"]}"#),
        [(
            "$input.tags".to_owned(),
            "Array<string> & UniqueItems ([0] and [2] are equal)".to_owned()
        )]
    );
    framework::from_json::<Trip>(br#"{"stops":[{"x":1,"y":2},{"x":1,"y":3}],"tags":["a"]}"#)
        .unwrap();
}

/// A whole number written as a float (`1.0`, `1e2`, `-0.0`) is the integer
/// it is (JSON Schema counts it an integer, and JavaScript cannot tell
/// `1.0` from `1`), within ±2^53 where a float is exact; a fraction, a
/// float beyond 2^53 or one out of the type's range is refused at its path
/// (issue 23, item 5).
#[test]
fn whole_floats_are_integers_within_two_to_the_53() {
    let order = |json: &str| framework::from_json::<Order>(json.as_bytes());
    let read = order(r#"{"id":1.0,"count":1e2,"price":2,"paid":true,"rank":-0.0}"#).unwrap();
    assert_eq!((read.id, read.count, read.rank), (1, 100, 0));
    let read =
        order(r#"{"id":4294967295.0,"count":0,"price":1,"paid":false,"rank":-2147483648.0}"#)
            .unwrap();
    assert_eq!((read.id, read.rank), (u32::MAX, i32::MIN));
    for (json, path) in [
        (
            r#"{"id":1.5,"count":0,"price":0,"paid":true,"rank":0}"#,
            "$input.id",
        ),
        (
            r#"{"id":-1.0,"count":0,"price":0,"paid":true,"rank":0}"#,
            "$input.id",
        ),
        (
            r#"{"id":4294967296.0,"count":0,"price":0,"paid":true,"rank":0}"#,
            "$input.id",
        ),
        (
            r#"{"id":0,"count":0,"price":0,"paid":true,"rank":2147483648.0}"#,
            "$input.rank",
        ),
        (
            r#"{"id":0,"count":1e300,"price":0,"paid":true,"rank":0}"#,
            "$input.count",
        ),
    ] {
        let issues = refusal::<Order>(json);
        assert_eq!(issues.len(), 1, "{json}: {issues:?}");
        assert_eq!(issues[0].0, path, "{json}");
    }
}

#[dto]
#[derive(Debug, PartialEq)]
struct Wide64 {
    n: u64,
}

#[test]
fn a_float_beyond_two_to_the_53_is_no_integer() {
    let exact: Wide64 = framework::from_json(br#"{"n":9007199254740992.0}"#).unwrap();
    assert_eq!(exact.n, 1 << 53);
    let issues = refusal::<Wide64>(r#"{"n":9007199254740994.0}"#);
    assert_eq!(issues[0].0, "$input.n");
    // Written as an integer, it is read exactly.
    let wide: Wide64 = framework::from_json(br#"{"n":9007199254740993}"#).unwrap();
    assert_eq!(wide.n, (1 << 53) + 1);
}
