//! Every accepted `#[dto]` form.

use std::collections::{BTreeMap, HashSet};

use framework::prelude::*;

/// Documented struct.
#[dto(strict)]
#[derive(Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Everything {
    /// Documented field.
    #[tags(format = "uuid")]
    pub id: String,
    #[tags(min_length = 1, max_length = 10, pattern = "^[a-z]+$")]
    pub name: Option<String>,
    #[tags(minimum = -1.5, maximum = 10, multiple_of = 0.5)]
    pub score: f64,
    #[tags(exclusive_minimum = 0, exclusive_maximum = 100)]
    pub percent: u8,
    #[tags(min_items = 1, max_items = 3, unique_items, items(format = "email"))]
    pub emails: Vec<String>,
    #[optional]
    #[tags(items(maximum = 5))]
    pub small: Option<Vec<Option<u32>>>,
    #[optional]
    pub maybe: Option<Option<bool>>,
    #[serde(default)]
    pub count: u64,
    #[serde(default = "seven", rename = "Seven")]
    pub seven: u32,
    #[serde(skip)]
    pub cache: Option<String>,
    #[tags(check = non_zero, default = 1, example = 2)]
    pub custom: i32,
    pub tags: HashSet<String>,
    pub map: BTreeMap<String, Inner>,
    pub r#type: Kind,
    pub value: serde_json::Value,
    pub when: chrono::DateTime<chrono::Utc>,
    pub uuid: uuid::Uuid,
}

fn seven() -> u32 {
    7
}

fn non_zero(value: &i32) -> Result<(), String> {
    if *value == 0 { Err("not zero".into()) } else { Ok(()) }
}

#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Inner(#[tags(min_length = 1)] String);

#[dto]
#[derive(Clone, Debug, PartialEq)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    FirstOne,
    #[serde(rename = "second")]
    SecondOne,
}

#[dto]
#[derive(Clone, Debug, PartialEq)]
#[serde(tag = "kind", content = "data")]
pub enum Message {
    Text(#[tags(max_length = 5)] String),
    Point { x: i32, #[tags(minimum = 0)] y: i32 },
    Empty,
}

#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Page<T, U> {
    pub items: Vec<T>,
    pub extra: Option<U>,
}

fn main() {
    fn dto<T: Dto>() {}
    dto::<Everything>();
    dto::<Message>();
    dto::<Page<Inner, Kind>>();
    let value = Message::random();
    assert!(value.is_valid());
}
