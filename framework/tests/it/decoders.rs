//! The generated decoders (`#[dto]`'s one-pass `ReadJson`) against the
//! reference decoder (simd-json under serde), issue 25: on valid values,
//! broken ones, hand-made edge cases and arbitrary bytes, both give the
//! same value or both refuse.

use std::collections::{BTreeMap, HashMap};

use framework::{
    MAX_JSON_DEPTH, Validate,
    prelude::*,
    testing::{check_decoders, check_decoders_from_seed},
};
use proptest::prelude::*;

// Unions (read by serde inside the generated decoders) of the parity tests.
use crate::parity::{Figure, Payment};

#[dto]
#[derive(Debug, PartialEq)]
struct Numbers {
    a: u8,
    b: u16,
    c: u32,
    d: u64,
    e: i8,
    f: i16,
    g: i32,
    h: i64,
    i: usize,
    j: isize,
    k: f32,
    l: f64,
}

fn seven() -> u32 {
    7
}

#[dto]
#[derive(Debug, PartialEq)]
struct Presence {
    required: String,
    nullable: Option<u32>,
    #[optional]
    maybe: Option<u32>,
    #[optional]
    absent_or_null: Option<Option<bool>>,
    #[serde(default)]
    defaulted: u32,
    #[serde(default = "seven")]
    seven: u32,
    #[serde(default)]
    defaulted_option: Option<String>,
    #[serde(skip)]
    hidden: u8,
}

/// Absent is 0, which its minimum refuses (as the reference does).
#[dto]
#[derive(Debug, PartialEq)]
struct DefaultBelowMinimum {
    #[serde(default)]
    #[tags(minimum = 1)]
    n: u32,
}

#[dto]
#[derive(Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Names {
    plain_text: String,
    #[serde(rename = "quoted \"name\"\n")]
    renamed: i64,
    #[serde(rename = "ünïcode")]
    unicode: bool,
    a_much_longer_field_name_than_eight_bytes: u8,
}

#[dto(strict)]
#[derive(Debug, PartialEq)]
struct Strict {
    a: u8,
    b: Vec<String>,
}

#[dto]
#[derive(Debug, PartialEq)]
struct Tagged {
    #[tags(min_length = 1, max_length = 5)]
    short: String,
    #[tags(minimum = 0, maximum = 10, multiple_of = 2)]
    even: i32,
    #[tags(unique_items, max_items = 4)]
    unique: Vec<u8>,
    #[tags(format = "email")]
    email: String,
    #[tags(pattern = "^a+$")]
    a_run: String,
    #[tags(exclusive_minimum = 0)]
    positive: Option<f64>,
    #[tags(items(min_length = 1))]
    words: Vec<String>,
}

#[dto]
#[derive(Debug, PartialEq)]
struct Id(#[tags(minimum = 1)] u64);

#[dto]
#[derive(Debug, PartialEq)]
#[serde(rename_all = "kebab-case")]
enum Color {
    DeepRed,
    #[serde(rename = "grün")]
    Green,
    #[serde(skip)]
    #[allow(dead_code)]
    Hidden,
}

#[dto]
#[derive(Debug, PartialEq)]
struct Wrapper<T> {
    inner: T,
}

/// A generic type with checks, a defaulted field of its parameter's type
/// (whose default its schema leaves out, having no `Serialize` bound on `T`
/// to write it with) and a skipped one: read in one pass as a field when
/// its parameter has a decoder.
#[dto]
#[derive(Debug, PartialEq)]
struct Paged<T> {
    #[tags(max_items = 3)]
    items: Vec<T>,
    #[serde(default)]
    first: Option<T>,
    #[serde(skip)]
    seen: Vec<T>,
    #[tags(minimum = 1)]
    page: u32,
}

/// A generic type holding another.
#[dto]
#[derive(Debug, PartialEq)]
struct Outer<T> {
    paged: Paged<T>,
    wrapped: Wrapper<Box<T>>,
}

/// Fields with a generated decoder and fields read by serde, side by side.
#[dto]
#[derive(Debug, PartialEq)]
struct Mixed {
    id: Id,
    color: Color,
    colors: Vec<Color>,
    payment: Payment,
    figure: Option<Figure>,
    value: serde_json::Value,
    uuid: uuid::Uuid,
    when: chrono::DateTime<chrono::Utc>,
    day: chrono::NaiveDate,
    wrapped: Wrapper<Id>,
    paged: Paged<Color>,
    outer: Outer<Id>,
    paged_unions: Paged<Payment>,
    sorted: BTreeMap<String, Vec<f64>>,
    hashed: HashMap<String, i16>,
    boxed: Box<Id>,
    letter: char,
}

#[dto]
#[derive(Debug, PartialEq)]
struct Tree {
    label: String,
    children: Vec<Tree>,
}

/// A tree nested `levels` deep: each level opens an object and an array.
fn tree(levels: usize) -> String {
    let mut json = String::from(r#"{"label":"leaf","children":[]}"#);
    for _ in 1..levels {
        json = format!(r#"{{"label":"x","children":[{json}]}}"#);
    }
    json
}

macro_rules! agree_on {
    ($json:expr, $($ty:ty),*) => {$(
        if let Err(err) = check_decoders::<$ty>($json) {
            panic!("{}: {err}", stringify!($ty));
        }
    )*};
}

macro_rules! agree_on_all {
    ($json:expr) => {
        agree_on!(
            $json,
            Numbers,
            Presence,
            DefaultBelowMinimum,
            Names,
            Strict,
            Tagged,
            Id,
            Color,
            Mixed,
            Tree
        )
    };
}

#[test]
fn the_types_that_can_have_a_generated_decoder_have_one() {
    assert!(Numbers::json_decoder().is_some());
    assert!(Id::json_decoder().is_some());
    assert!(Color::json_decoder().is_some());
    assert!(Mixed::json_decoder().is_some());
    // Unions are read by serde. A generic type's own `Validate` names no
    // decoder; where its parameters have decoders, it is read by its own
    // as a field (a compile-time fact: `Mixed` compiles either way) and at
    // the top of a route's body (`a_generic_body_at_the_top_..`).
    assert!(Payment::json_decoder().is_none());
    assert!(Wrapper::<u8>::json_decoder().is_none());
    fn decoded_as_a_field<T: framework::__private::json::ReadJson>() {}
    decoded_as_a_field::<Wrapper<Id>>();
    decoded_as_a_field::<Paged<Color>>();
    decoded_as_a_field::<Outer<Id>>();
    let err = check_decoders::<Payment>(b"\"Cash\"").unwrap_err();
    assert!(err.contains("no generated decoder"), "{err}");
}

#[test]
fn a_generic_types_default_of_its_parameter_is_left_out_of_its_schema() {
    use framework::schema::{Schema, TypeKind, schema_of};
    let described = schema_of::<Paged<Color>>();
    let Schema::Ref(id) = described.schema else {
        panic!("not a named type")
    };
    let TypeKind::Object(object) = &described.registry.get(id).kind else {
        panic!("not an object")
    };
    let first = object.fields.iter().find(|field| field.name == "first");
    let first = first.expect("the field `first`");
    assert!(!first.required, "a defaulted field is optional");
    assert_eq!(first.default, None);
}

/// A type without `Default`, defaulted by a function.
#[dto]
#[derive(Debug, PartialEq)]
struct WithDefaultFunction {
    #[serde(default = "id_seven")]
    id: Id,
}

fn id_seven() -> Id {
    Id(7)
}

#[test]
fn a_concrete_default_is_documented_whether_or_not_its_type_is_default() {
    use framework::schema::{Schema, TypeKind, schema_of};
    let described = schema_of::<WithDefaultFunction>();
    let Schema::Ref(id) = described.schema else {
        panic!("not a named type")
    };
    let TypeKind::Object(object) = &described.registry.get(id).kind else {
        panic!("not an object")
    };
    assert_eq!(object.fields[0].default, Some(serde_json::json!(7)));
    agree_on!(b"{}", WithDefaultFunction);
}

#[test]
fn random_broken_and_mutated_values_decode_the_same_both_ways() {
    for seed in 0..64 {
        let run = |result: Result<(), String>, name: &str| {
            if let Err(err) = result {
                panic!("{name}, seed {seed}: {err}");
            }
        };
        run(check_decoders_from_seed::<Numbers>(seed, 64), "Numbers");
        run(check_decoders_from_seed::<Presence>(seed, 64), "Presence");
        run(check_decoders_from_seed::<Names>(seed, 64), "Names");
        run(check_decoders_from_seed::<Strict>(seed, 64), "Strict");
        run(check_decoders_from_seed::<Tagged>(seed, 64), "Tagged");
        run(check_decoders_from_seed::<Id>(seed, 16), "Id");
        run(check_decoders_from_seed::<Color>(seed, 16), "Color");
        run(check_decoders_from_seed::<Mixed>(seed, 64), "Mixed");
    }
}

#[test]
fn every_notation_of_every_number_type_decodes_the_same_both_ways() {
    let numbers = [
        "0",
        "-0",
        "1",
        "-1",
        "1.0",
        "-1.0",
        "1e2",
        "1E2",
        "1e+2",
        "1e-2",
        "2.5",
        "-2.5",
        "127",
        "128",
        "-128",
        "-129",
        "255",
        "256",
        "65535",
        "65536",
        "-32769",
        "4294967295",
        "4294967296",
        "9007199254740992",
        "9007199254740993",
        "9007199254740992.0",
        "9007199254740993.0",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "1e400",
        "-1e400",
        "1e-400",
        "3.4028235e38",
        "3.4028236e38",
        "1.7976931348623157e308",
        "1.7976931348623159e308",
        "0.1",
        "0.30000000000000004",
        "123456789012345678901234567890",
        "1234567890.12345678901234567890123456789",
        "2.2250738585072011e-308",
        "4.9e-324",
        "-0.0",
        "-0.0e5",
        "-0.000",
        "0e5",
        "-0e5",
        "0.0e-3",
        "-1e-400",
        "1e99999999999999999999",
        "01",
        "1.",
        ".5",
        "+1",
        "-",
        "--1",
        "1e",
        "1.e3",
        "0x10",
        "NaN",
        "Infinity",
        "true",
        "null",
        "\"1\"",
        "[1]",
        "1 ",
        " 1",
    ];
    for field in ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"] {
        for number in numbers {
            let mut object = serde_json::Map::new();
            for other in ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"] {
                object.insert(other.to_owned(), serde_json::json!(1));
            }
            let json = serde_json::Value::Object(object)
                .to_string()
                .replace(&format!("\"{field}\":1"), &format!("\"{field}\":{number}"));
            agree_on!(json.as_bytes(), Numbers);
        }
    }
}

#[test]
fn hand_made_bodies_decode_the_same_both_ways() {
    let bodies: &[&str] = &[
        // Presence: absent, null, defaults, skipped and repeated keys.
        r#"{"required":"r","nullable":null}"#,
        r#"{"required":"r","nullable":1,"defaulted":1}"#,
        r#"{"required":"r","nullable":1,"defaulted":1,"maybe":null}"#,
        r#"{"required":"r","nullable":1,"defaulted":1,"absent_or_null":null}"#,
        r#"{"required":"r","nullable":1,"defaulted":1,"absent_or_null":true}"#,
        r#"{"required":"r","defaulted":1}"#,
        r#"{"required":"r","nullable":1,"defaulted":1,"hidden":3}"#,
        r#"{"required":"r","nullable":1,"defaulted":1,"seven":8,"defaulted_option":null}"#,
        r#"{"required":"r","nullable":1,"defaulted":1,"required":"again"}"#,
        r#"{"nullable":1,"defaulted":1,"required":"out of order"}"#,
        // DefaultBelowMinimum: a default is checked as a value read is.
        r#"{}"#,
        r#"{"n":0}"#,
        r#"{"n":1}"#,
        // Keys written with escapes, unknown keys and their values.
        r#"{"\u0072equired":"r","nullable":1,"defaulted":1}"#,
        r#"{"required":"r","nullable":1,"defaulted":1,"x":1,"x":2}"#,
        r#"{"required":"r","nullable":1,"defaulted":1,"x":{"a":1,"a":2}}"#,
        r#"{"required":"r","nullable":1,"defaulted":1,"x":[1,{"b":"\ud800"}]}"#,
        r#"{"required":"r","nullable":1,"defaulted":1,"x":[1,}"#,
        // A number beyond f64 in a skipped value (found by the fuzzer).
        r#"{"required":"r","nullable":1,"x":6901111111111111111E111111111111}"#,
        r#"{"required":"r","nullable":1,"x":-1e400,"y":1e-400}"#,
        // Names: renamed keys, escaped in the body.
        r#"{"plainText":"t","quoted \"name\"\n":1,"ünïcode":true,"aMuchLongerFieldNameThanEightBytes":1}"#,
        r#"{"plainText":"t","quoted \u0022name\u0022\u000a":1,"\u00fcn\u00efcode":false,"aMuchLongerFieldNameThanEightBytes":1}"#,
        r#"{"plainText":"t","quoted \"name\"\n":1,"ünïcode":true,"aMuchLongerFieldNameThanEightByteS":1}"#,
        r#"{"plain_text":"t","quoted \"name\"\n":1,"ünïcode":true,"aMuchLongerFieldNameThanEightBytes":1}"#,
        // Strict: unknown properties.
        r#"{"a":1,"b":[]}"#,
        r#"{"a":1,"b":[],"c":null}"#,
        r#"{"a":1,"b":["x","y"],"a":2}"#,
        // Tagged: each constraint at its edge.
        r#"{"short":"abcde","even":10,"unique":[1,2,3,4],"email":"a@b.co","a_run":"aaa","positive":null,"words":["w"]}"#,
        r#"{"short":"abcdef","even":10,"unique":[1,2,3,4],"email":"a@b.co","a_run":"aaa","positive":null,"words":["w"]}"#,
        r#"{"short":"ab","even":11,"unique":[1,1],"email":"a@b.co","a_run":"aaa","positive":1,"words":[""]}"#,
        r#"{"short":"ab","even":4,"unique":[1],"email":"nope","a_run":"aab","positive":0,"words":[]}"#,
        // Id, Color: newtype and string enum.
        "1",
        "0",
        "1.0",
        "\"1\"",
        r#""deep-red""#,
        r#""grün""#,
        r#""gr\u00fcn""#,
        r#""Hidden""#,
        r#""hidden""#,
        r#"{"deep-red":null}"#,
        "null",
        // Shapes every type refuses.
        "[]",
        "[1,2]",
        "{}",
        "",
        " ",
        "{",
        "}",
        "\"",
        "nul",
        "tru",
        r#"{"a":1}x"#,
        "\u{feff}{}",
        "{\"required\":\"\\ud800\",\"nullable\":1,\"defaulted\":1}",
        "{\"required\":\"\\ud83d\\ude00\",\"nullable\":1,\"defaulted\":1}",
        "{\"required\":\"tab\there\",\"nullable\":1,\"defaulted\":1}",
        "{\"required\":\"\\x\",\"nullable\":1,\"defaulted\":1}",
    ];
    for body in bodies {
        agree_on_all!(body.as_bytes());
    }
    let invalid_utf8 = b"{\"required\":\"\xff\",\"nullable\":1,\"defaulted\":1}";
    agree_on_all!(invalid_utf8);
}

/// Strings are scanned eight bytes at a time: a quote, a backslash, a
/// control character or a non-ASCII letter at every position of the first
/// words, and a string cut off at every length.
#[test]
fn every_special_byte_at_every_position_decodes_the_same_both_ways() {
    let specials: [&[u8]; 8] = [
        b"\"",
        b"\\\"",
        b"\\n",
        b"\\u00e9",
        b"\x01",
        b"\x1f",
        b"\xc3\xa9",
        b"\xff",
    ];
    for length in 0..24 {
        for at in 0..=length {
            for special in specials {
                let mut text = vec![b'a'; length];
                text.splice(at..at, special.iter().copied());
                let mut body = br#"{"required":""#.to_vec();
                body.extend_from_slice(&text);
                body.extend_from_slice(br#"","nullable":1}"#);
                agree_on!(&body, Presence);
                agree_on!(&body[..body.len() - 14], Presence);
            }
        }
    }
}

#[test]
fn mixed_fields_read_by_serde_decode_the_same_both_ways() {
    let valid = r#"{"id":1,"color":"deep-red","colors":["grün"],"payment":{"Card":{"number":"4","cvc":1}},"figure":{"type":"Circle","radius":1.5},"value":{"any":[1,"x",null]},"uuid":"67e55044-10b1-426f-9247-bb680e5fe0c8","when":"2026-12-05T10:00:00Z","day":"2026-12-05","wrapped":{"inner":2},"sorted":{"b":[1.5],"a":[]},"hashed":{"k":-3},"boxed":4,"letter":"é","paged":{"items":["grün","deep-red"],"first":"grün","page":1},"outer":{"paged":{"items":[1],"first":null,"page":2},"wrapped":{"inner":3}},"paged_unions":{"items":["Cash"],"first":null,"page":1}}"#;
    let value: Mixed = framework::from_json(valid.as_bytes()).unwrap();
    assert_eq!(value.id, Id(1));
    for (from, to) in [
        (r#""Card":{"number":"4","cvc":1}"#, r#""Cash":null"#),
        (r#"{"Card""#, r#""Cash"}"#),
        (r#""value":{"any""#, r#""value":{"any":1,"any""#),
        (r#""sorted":{"b""#, r#""sorted":{"a":[],"b""#),
        (r#""hashed":{"k":-3}"#, r#""hashed":{"k":-3,"k":1}"#),
        (r#""type":"Circle","radius":1.5"#, r#""type":"Dot""#),
        (r#""type":"Circle""#, r#""type":"Square""#),
        (r#""boxed":4"#, r#""boxed":0"#),
        (r#""letter":"é""#, r#""letter":"ab""#),
        (r#""inner":2"#, r#""inner":0"#),
        (r#""uuid":"67e5"#, r#""uuid":"zz"#),
        // The generic fields: their checks, defaults, skipped field,
        // duplicate keys, and checks of their parameter's type.
        (
            r#""grün","deep-red"]"#,
            r#""grün","deep-red","grün","grün"]"#,
        ),
        (r#""page":1}"#, r#""page":0}"#),
        (r#","page":1}"#, "}"),
        (r#","first":"grün""#, ""),
        (r#""first":"grün""#, r#""first":null"#),
        (r#""first":"grün""#, r#""first":"blue""#),
        (r#""first":"grün""#, r#""seen":["grün"]"#),
        (r#""first":"grün""#, r#""first":"grün","first":"grün""#),
        (r#""items":[1]"#, r#""items":[0]"#),
        (r#""items":[1]"#, r#""items":[1.5]"#),
        (r#""inner":3"#, r#""inner":0"#),
        (
            r#""items":["Cash"]"#,
            r#""items":["Cash",{"Card":{"number":"4","cvc":1}}]"#,
        ),
        (r#""items":["Cash"]"#, r#""items":["Coins"]"#),
        ("", ""),
    ] {
        let json = valid.replacen(from, to, 1);
        agree_on!(json.as_bytes(), Mixed);
    }
}

#[test]
fn the_nesting_limit_is_the_same_both_ways() {
    // Each level opens an object and an array: the limit falls inside the
    // 64th and 65th levels, a value read by a field or skipped.
    for levels in 60..=66 {
        let json = tree(levels);
        agree_on!(json.as_bytes(), Tree);
        let skipped = format!(r#"{{"a":1,"b":[],"x":{}}}"#, tree(levels));
        agree_on!(skipped.as_bytes(), Strict, Presence);
    }
    assert!(framework::from_json::<Tree>(tree(MAX_JSON_DEPTH / 2).as_bytes()).is_ok());
    assert!(framework::from_json::<Tree>(tree(MAX_JSON_DEPTH / 2 + 1).as_bytes()).is_err());
}

/// A struct's decoder reads its object in declaration order and, from
/// where the body differs, the general way, keeping what it has read. At
/// every level of these trees the body differs after the children (an
/// unknown property; a label refused deep inside), and nothing is read
/// twice: reading each level's children again would double the work at
/// each of the 63 levels.
#[test]
fn an_object_that_differs_after_its_children_is_read_on_not_again() {
    let levels = MAX_JSON_DEPTH / 2 - 1;
    let mut late = String::from(r#"{"label":"leaf","children":[],"extra":1}"#);
    for _ in 1..levels {
        late = format!(r#"{{"label":"x","children":[{late}],"extra":[1]}}"#);
    }
    let refused = tree(levels).replacen(r#""label":"leaf""#, r#""label":1"#, 1);
    for (json, accepted) in [(late, true), (refused, false)] {
        let (done, finished) = std::sync::mpsc::channel();
        let body = json.clone();
        std::thread::spawn(move || {
            let _ = done.send(framework::from_json::<Tree>(body.as_bytes()).is_ok());
        });
        let read = finished.recv_timeout(std::time::Duration::from_secs(60));
        assert_eq!(read, Ok(accepted), "read in time, and as expected");
        agree_on!(json.as_bytes(), Tree);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_decode_the_same_both_ways(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        agree_on_all!(&bytes);
    }

    #[test]
    fn json_like_text_decodes_the_same_both_ways(text in r#"[{}\[\]":,0-9a-z\\. -]{0,48}"#) {
        agree_on_all!(text.as_bytes());
    }
}

/// A box of the memory test: floats and text, as a real body holds.
#[dto]
#[derive(Debug, PartialEq)]
struct Placed {
    name: String,
    #[tags(format = "email")]
    owner: String,
    at: Vec<f64>,
}

/// The same shape twice: read by the generated decoder, and (a generic
/// type has none) by the reference decoder alone, as every body was read
/// before the generated decoders.
#[dto]
#[derive(Debug, PartialEq)]
struct Generated {
    #[tags(max_items = 100)]
    inner: Vec<Placed>,
}

#[dto]
#[derive(Debug, PartialEq)]
struct ReadBySerde<T> {
    #[tags(max_items = 100)]
    inner: Vec<T>,
}

/// Set in the child process that measures one decoder alone.
const MEASURE: &str = "FRAMEWORK_MEASURE_REFUSAL";

/// A 2 MB body refused at its end: 19,000 boxes where 100 are allowed.
fn two_megabytes() -> Vec<u8> {
    let placed = r#"{"name":"a box of the scene","owner":"someone@example.com","at":[412.3456789012345,-1.25,998.0000000000001]}"#;
    let mut body = br#"{"inner":["#.to_vec();
    for n in 0..19_000 {
        if n > 0 {
            body.push(b',');
        }
        body.extend_from_slice(placed.as_bytes());
    }
    body.extend_from_slice(b"]}");
    body
}

/// The peak resident set, in KiB.
fn peak_kib() -> u64 {
    crate::alone::status_kib("VmHWM")
}

/// In the child: decodes the body by the decoder `MEASURE` names and
/// prints how far the peak rose.
fn measure_refusal(decoder: &str) {
    let body = two_megabytes();
    let before = peak_kib();
    let refused = match decoder {
        "generated" => framework::from_json::<Generated>(&body).map(drop),
        _ => framework::from_json::<ReadBySerde<Placed>>(&body).map(drop),
    };
    let err = refused.expect_err("19,000 boxes where 100 are allowed");
    assert_eq!(err.issues()[0].path, "$input.inner");
    println!("peak growth: {} KiB", peak_kib().saturating_sub(before));
}

/// The peak growth of decoding the refused body with `decoder`, in a
/// process of its own.
fn peak_growth(decoder: &str) -> u64 {
    crate::alone::figure_of(
        "decoders::a_refused_2_mb_body_costs_no_more_memory_than_the_reference_decoder",
        MEASURE,
        decoder,
        "peak growth: ",
    )
}

/// The generated decoder reads a body before the reference decoder
/// reports its refusal: what it built is freed first, so the peak is the
/// report's, as it was before it (issue 25).
#[test]
fn a_refused_2_mb_body_costs_no_more_memory_than_the_reference_decoder() {
    if let Some(decoder) = std::env::var_os(MEASURE) {
        return measure_refusal(&decoder.to_string_lossy());
    }
    assert_eq!(two_megabytes().len() / 1_000_000, 2);
    let generated = peak_growth("generated");
    let reference = peak_growth("reference");
    println!("a refused 2 MB body: peak growth {generated} KiB (reference alone: {reference} KiB)");
    assert!(
        reference > 2 * 1024,
        "the reference decoder's report was measured: {reference} KiB"
    );
    assert!(
        generated <= reference + reference / 20,
        "generated decoder first: {generated} KiB, reference alone: {reference} KiB"
    );
}

/// A number whose reads by the generated decoders are counted: the proof
/// that a route reads a body by its generated decoder, which gives the
/// reference's value and so cannot be told apart from it otherwise.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
struct Counted(u32);

static COUNTED_READS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl Validate for Counted {
    fn is_valid(&self) -> bool {
        true
    }
}

impl framework::__private::ToSchema for Counted {
    fn schema(registry: &mut framework::__private::Registry) -> framework::__private::Schema {
        <u32 as framework::__private::ToSchema>::schema(registry)
    }
}

impl framework::WriteJson for Counted {
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), framework::JsonError> {
        self.0.write_json(out)
    }
}

impl framework::__private::json::ReadJson for Counted {
    fn read_json(
        reader: &mut framework::__private::json::Reader<'_>,
    ) -> framework::__private::json::Read<Self> {
        COUNTED_READS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        u32::read_json(reader).map(Counted)
    }
}

struct GenericBodies;

#[controller("generic")]
impl GenericBodies {
    #[typed_route::post("paged")]
    async fn paged(&self, body: TypedBody<Paged<Counted>>) -> String {
        let Paged { items, page, .. } = body.into_inner();
        format!("{} {page}", items.iter().map(|item| item.0).sum::<u32>())
    }

    #[typed_route::post("list")]
    async fn list(&self, body: TypedBody<Vec<Counted>>) -> String {
        body.into_inner().len().to_string()
    }
}

/// A generic DTO and a container at the top of a body are read by their
/// generated decoders, which the route finds where the type is concrete
/// (the type's own `Validate` cannot name them): each counted item is read
/// once, by the generated decoder. A refused body gets the reference's
/// report, and a body type without a decoder (a union) finds none.
#[tokio::test]
// The lookup as the route writes it.
#[allow(clippy::needless_borrow)]
async fn a_generic_body_at_the_top_is_read_by_its_generated_decoder() {
    use framework::__private::{BodyDecoder, WithDecoder as _, WithoutDecoder as _};
    assert!(
        (&BodyDecoder::<TypedBody<Paged<Id>>>::NEW)
            .decoder()
            .is_some()
    );
    assert!(
        (&BodyDecoder::<TypedBody<Outer<Color>>>::NEW)
            .decoder()
            .is_some()
    );
    assert!(
        (&BodyDecoder::<Result<TypedBody<Paged<Id>>, framework::ApiError>>::NEW)
            .decoder()
            .is_some()
    );
    assert!(
        (&BodyDecoder::<TypedBody<Paged<Payment>>>::NEW)
            .decoder()
            .is_none()
    );
    assert!(
        (&BodyDecoder::<TypedBody<Payment>>::NEW)
            .decoder()
            .is_none()
    );
    assert!(
        (&BodyDecoder::<TypedQuery<Numbers>>::NEW)
            .decoder()
            .is_none()
    );

    let app = App::builder().controller(GenericBodies).build().unwrap();
    let client = app.test_client();
    let reads = || COUNTED_READS.load(std::sync::atomic::Ordering::SeqCst);
    let before = reads();
    let answer = client
        .post("/generic/paged")
        .json(&serde_json::json!({"items": [1, 2, 3], "first": 9, "page": 4}))
        .send()
        .await;
    assert_eq!(
        (answer.status().as_u16(), answer.text()),
        (201, "6 4".to_owned())
    );
    assert_eq!(reads() - before, 4, "three items and `first`");
    let before = reads();
    let answer = client
        .post("/generic/list")
        .json(&serde_json::json!([5, 6]))
        .send()
        .await;
    assert_eq!(
        (answer.status().as_u16(), answer.text()),
        (201, "2".to_owned())
    );
    assert_eq!(reads() - before, 2);

    let refused = client
        .post("/generic/paged")
        .json(&serde_json::json!({"items": [1, 2, 3, 4], "page": 0}))
        .send()
        .await;
    assert_eq!(refused.status(), 400);
    let body: serde_json::Value = refused.json();
    let paths: Vec<&str> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|issue| issue["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["$input.items", "$input.page"]);
}
