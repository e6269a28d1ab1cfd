//! The JSON `#[dto]` writes is serde_json's, byte for byte, for every shape
//! a DTO can have: property tests over random values (strings full of
//! escapes, floats including NaN and infinities, absent and `null`
//! options, maps) of structs and of enums in each serde representation,
//! and the answers of a route.

use std::collections::{BTreeMap, HashMap};

use framework::{WriteJson, prelude::*};
use proptest::prelude::*;

/// Both writers give the same bytes, or both refuse.
fn same_as_serde<T: WriteJson + serde::Serialize>(value: &T) -> Result<(), TestCaseError> {
    let ours = value.to_json();
    let theirs = serde_json::to_vec(value);
    match (ours, theirs) {
        (Ok(ours), Ok(theirs)) => prop_assert_eq!(
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&theirs)
        ),
        (Err(_), Err(_)) => {}
        (ours, theirs) => prop_assert!(false, "ours {ours:?}, serde_json {theirs:?}"),
    }
    Ok(())
}

#[dto]
#[derive(Clone, Debug)]
#[serde(rename_all = "camelCase")]
struct Everything {
    plain_text: String,
    #[serde(rename = "quoted \"name\"\n")]
    renamed: i64,
    #[optional]
    maybe: Option<u32>,
    nullable: Option<String>,
    #[optional]
    absent_or_null: Option<Option<bool>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    items: Vec<Inner>,
    #[serde(skip)]
    #[allow(dead_code)]
    hidden: u8,
    ratio: f64,
    small: f32,
    by_name: HashMap<String, i16>,
    sorted: BTreeMap<String, Vec<f64>>,
    id: Id,
    shape: External,
}

#[dto]
#[derive(Clone, Debug)]
struct Inner {
    #[optional]
    first: Option<String>,
    #[optional]
    second: Option<i8>,
    last: bool,
}

/// A newtype: its field's JSON.
#[dto]
#[derive(Clone, Debug)]
struct Id(u64);

#[dto]
#[derive(Clone, Debug)]
enum External {
    Unit,
    Newtype(f64),
    Struct {
        #[optional]
        note: Option<String>,
        size: u16,
    },
    Boxed(Inner),
}

#[dto]
#[derive(Clone, Debug)]
#[serde(tag = "kind")]
enum Internal {
    Unit,
    Struct {
        #[optional]
        note: Option<String>,
        value: f32,
    },
    /// Left to serde: the inner object's properties follow the tag.
    Wraps(Inner),
}

/// A newtype variant holding a number: serde_json refuses it when
/// internally tagged, and so does the framework.
#[dto]
#[derive(Clone, Debug)]
#[serde(tag = "kind")]
enum Refused {
    Number(i32),
}

#[dto]
#[derive(Clone, Debug)]
#[serde(tag = "t", content = "c", rename_all = "snake_case")]
enum Adjacent {
    Empty,
    OneName(String),
    ManyThings {
        #[optional]
        a: Option<i32>,
        b: Vec<String>,
    },
}

#[dto]
#[derive(Clone, Debug)]
#[serde(untagged)]
enum Untagged {
    Struct { x: f64, y: f64 },
    Text(String),
    Nothing,
}

#[dto]
#[derive(Clone, Copy, Debug)]
#[serde(rename_all = "SCREAMING-KEBAB-CASE")]
enum Level {
    LowLevel,
    HighLevel,
}

#[dto]
#[derive(Clone, Debug)]
enum WithSkipped {
    Kept(u8),
    #[serde(skip)]
    Skipped,
}

/// A generic DTO.
#[dto]
#[derive(Clone, Debug)]
struct Page<T> {
    items: Vec<T>,
    #[optional]
    next: Option<String>,
}

/// Strings with escapes in them more often than not.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a\"\\\\\u{0}-\u{1f}\u{7f}é\u{2028}😀 ]{0,24}",
    ]
}

/// Every kind of f64, NaN and the infinities included.
fn float() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>(),
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(-0.0),
        any::<u64>().prop_map(f64::from_bits),
    ]
}

fn inner() -> impl Strategy<Value = Inner> {
    (
        proptest::option::of(text()),
        any::<Option<i8>>(),
        any::<bool>(),
    )
        .prop_map(|(first, second, last)| Inner {
            first,
            second,
            last,
        })
}

fn external() -> impl Strategy<Value = External> {
    prop_oneof![
        Just(External::Unit),
        float().prop_map(External::Newtype),
        (proptest::option::of(text()), any::<u16>())
            .prop_map(|(note, size)| External::Struct { note, size }),
        inner().prop_map(External::Boxed),
    ]
}

prop_compose! {
    fn everything()(
        plain_text in text(),
        renamed in any::<i64>(),
        maybe in any::<Option<u32>>(),
        nullable in proptest::option::of(text()),
        absent_or_null in any::<Option<Option<bool>>>(),
        items in proptest::collection::vec(inner(), 0..3),
        ratio in float(),
        small in any::<u32>().prop_map(f32::from_bits),
        by_name in proptest::collection::hash_map(text(), any::<i16>(), 0..4),
        sorted in proptest::collection::btree_map(text(), proptest::collection::vec(float(), 0..3), 0..3),
        id in any::<u64>(),
        shape in external(),
    ) -> Everything {
        Everything {
            plain_text, renamed, maybe, nullable, absent_or_null, items, hidden: 7,
            ratio, small, by_name, sorted, id: Id(id), shape,
        }
    }
}

fn internal() -> impl Strategy<Value = Internal> {
    prop_oneof![
        Just(Internal::Unit),
        (
            proptest::option::of(text()),
            any::<u32>().prop_map(f32::from_bits)
        )
            .prop_map(|(note, value)| Internal::Struct { note, value }),
        inner().prop_map(Internal::Wraps),
    ]
}

fn adjacent() -> impl Strategy<Value = Adjacent> {
    prop_oneof![
        Just(Adjacent::Empty),
        text().prop_map(Adjacent::OneName),
        (
            any::<Option<i32>>(),
            proptest::collection::vec(text(), 0..3)
        )
            .prop_map(|(a, b)| Adjacent::ManyThings { a, b }),
    ]
}

fn untagged() -> impl Strategy<Value = Untagged> {
    prop_oneof![
        (float(), float()).prop_map(|(x, y)| Untagged::Struct { x, y }),
        text().prop_map(Untagged::Text),
        Just(Untagged::Nothing),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_struct_of_every_field_kind_is_written_as_serde_json_writes_it(value in everything()) {
        same_as_serde(&value)?;
    }

    #[test]
    fn enums_in_every_representation_are_written_as_serde_json_writes_them(
        internal in internal(),
        adjacent in adjacent(),
        untagged in untagged(),
        number in any::<i32>(),
        level in prop_oneof![Just(Level::LowLevel), Just(Level::HighLevel)],
        kept in any::<u8>(),
    ) {
        same_as_serde(&internal)?;
        same_as_serde(&adjacent)?;
        same_as_serde(&untagged)?;
        same_as_serde(&Refused::Number(number))?;
        same_as_serde(&level)?;
        same_as_serde(&WithSkipped::Kept(kept))?;
        same_as_serde(&WithSkipped::Skipped)?;
    }

    #[test]
    fn generic_dtos_and_collections_of_dtos_are_written_as_serde_json_writes_them(
        items in proptest::collection::vec(everything(), 0..3),
        next in proptest::option::of(text()),
        levels in proptest::collection::vec(any::<bool>(), 0..4),
    ) {
        let levels: Vec<Level> = levels
            .into_iter()
            .map(|high| if high { Level::HighLevel } else { Level::LowLevel })
            .collect();
        same_as_serde(&Page { items, next: next.clone() })?;
        same_as_serde(&Page { items: levels, next })?;
    }
}

#[test]
fn the_refusals_are_serde_jsons() {
    assert!(Refused::Number(1).to_json().is_err());
    assert!(serde_json::to_vec(&Refused::Number(1)).is_err());
    assert!(WithSkipped::Skipped.to_json().is_err());
}

struct Answers;

#[controller("answers")]
impl Answers {
    #[typed_route::get("page")]
    async fn page(&self) -> Page<Internal> {
        Page {
            items: vec![
                Internal::Unit,
                Internal::Struct {
                    note: Some("\"quoted\"\n".to_owned()),
                    value: f32::NAN,
                },
            ],
            next: None,
        }
    }

    #[typed_route::get("list")]
    async fn list(&self) -> Vec<Adjacent> {
        vec![Adjacent::Empty, Adjacent::OneName("x".into())]
    }
}

#[tokio::test]
async fn answers_carry_the_bytes_serde_json_writes() {
    let app = App::builder().controller(Answers).build().unwrap();
    let page = app.test_client().get("/answers/page").send().await;
    assert_eq!(page.headers()["content-type"], "application/json");
    assert_eq!(
        page.text(),
        r#"{"items":[{"kind":"Unit"},{"kind":"Struct","note":"\"quoted\"\n","value":null}]}"#
    );
    let list = app.test_client().get("/answers/list").send().await;
    assert_eq!(list.text(), r#"[{"t":"empty"},{"t":"one_name","c":"x"}]"#);
}
