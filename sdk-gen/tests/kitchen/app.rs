//! A fixture app whose types use every shape the SDKs map: serde's four
//! enum representations, recursion, maps, 64-bit integers, `T | null` vs
//! absent vs both, a defaulted field (input and output shapes differ),
//! `any`, a nested query and typed headers.

use std::collections::BTreeMap;

use framework::prelude::*;

/// A shape, tagged inside (`{"type": "circle", ...}`).
#[dto]
#[derive(Clone, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Shape {
    /// A circle.
    Circle {
        /// Radius.
        #[tags(exclusive_minimum = 0)]
        radius: f64,
    },
    /// A square.
    Square {
        /// Side.
        side: f64,
    },
    /// A point.
    Dot,
}

/// An event, tagged next to its content (`{"t": "Moved", "c": {...}}`).
#[dto]
#[derive(Clone, Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
pub enum Event {
    /// Started.
    Started,
    /// Renamed to.
    Renamed(String),
    /// Moved by.
    Moved {
        /// Across.
        x: i32,
        /// Down.
        y: i32,
    },
}

/// A command, tagged outside (`{"Go": {...}}` or `"Stop"`).
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Stop.
    Stop,
    /// Say something.
    Say(String),
    /// Go.
    Go {
        /// Speed.
        speed: u8,
    },
}

/// Whatever fits first.
#[dto]
#[derive(Clone, Debug, PartialEq)]
#[serde(untagged)]
pub enum Loose {
    /// A number.
    Number(f64),
    /// A text.
    Text(String),
    /// A pair.
    Pair {
        /// First.
        a: bool,
        /// Second.
        b: bool,
    },
}

/// A tree: recursive.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Tree {
    /// Label.
    pub label: String,
    /// Children.
    pub children: Vec<Tree>,
    /// The only child, when there is one.
    pub only: Option<Box<Tree>>,
}

/// Every shape at once.
#[dto]
#[derive(Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Everything {
    /// Internally tagged.
    pub shape: Shape,
    /// Adjacently tagged.
    pub event: Event,
    /// Externally tagged.
    pub command: Command,
    /// Untagged.
    pub loose: Loose,
    /// Recursive.
    pub tree: Tree,
    /// A map.
    pub scores: BTreeMap<String, i64>,
    /// Needs more than 53 bits.
    pub big_number: u64,
    /// Small.
    #[tags(minimum = -10, maximum = 10)]
    pub small: i8,
    /// `string | null`, always present.
    pub nullable: Option<String>,
    /// May be absent.
    #[optional]
    pub absent: Option<u32>,
    /// Absent, `null` or a string.
    #[optional]
    pub both: Option<Option<String>>,
    /// Optional in input, always in output.
    #[serde(default)]
    pub defaulted: u32,
    /// A date and time.
    #[tags(format = "date-time")]
    pub when: String,
    /// Anything.
    pub anything: serde_json::Value,
}

/// Filters, read from the query string.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Filter {
    /// Page.
    #[optional]
    #[tags(minimum = 1)]
    pub page: Option<u32>,
    /// Nested.
    #[optional]
    pub search: Option<Search>,
    /// An array.
    #[optional]
    pub tags: Option<Vec<String>>,
}

/// Nested filters.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Search {
    /// Writer.
    #[optional]
    pub writer: Option<String>,
    /// Title.
    #[optional]
    pub title: Option<String>,
}

/// Headers.
#[dto]
#[derive(Clone, Debug, PartialEq)]
#[serde(rename_all = "kebab-case")]
pub struct Tenant {
    /// The tenant.
    pub x_tenant_id: u32,
    /// Labels, one header each.
    #[optional]
    pub x_label: Option<Vec<String>>,
}

/// The kitchen sink.
pub struct Kitchen;

#[controller("kitchen")]
impl Kitchen {
    /// Answers what it was sent.
    #[typed_route::put("echo")]
    async fn echo(&self, body: TypedBody<Everything>) -> Everything {
        body.into_inner()
    }

    /// Answers the query it read.
    #[typed_route::get("query")]
    async fn query(&self, query: TypedQuery<Filter>) -> Filter {
        query.into_inner()
    }

    /// Answers the headers it read.
    #[typed_route::get("headers")]
    async fn headers(&self, headers: TypedHeaders<Tenant>) -> Tenant {
        headers.into_inner()
    }

    /// Answers its parameter.
    #[typed_route::get("numbers/:n")]
    async fn number(&self, #[param] n: u64) -> u64 {
        n
    }
}

/// The fixture app.
pub fn app() -> App {
    App::builder()
        .openapi(framework::openapi::OpenApiDocument::new("Kitchen", "1.0.0"))
        .controller(Kitchen)
        .build()
        .unwrap()
}
