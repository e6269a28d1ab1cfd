//! Every shape `#[dto]` reads through its serde adapters builds: generic,
//! recursive through a generic, each enum form.

use std::collections::BTreeMap;

use framework::prelude::*;

#[dto]
struct Page<T> {
    items: Vec<T>,
    next: Option<String>,
}

#[dto]
struct Node {
    replies: Page<Node>,
    counts: BTreeMap<String, Vec<Option<u8>>>,
}

#[dto]
#[serde(tag = "kind", content = "data")]
enum Adjacent<T> {
    One(T),
    None,
}

#[dto]
#[serde(untagged)]
enum Either {
    Node(Box<Node>),
    Many(Vec<u8>),
}

#[dto]
struct Meters(#[tags(minimum = 0)] f32);

fn main() {
    fn takes<T: Dto>() {}
    takes::<Page<Node>>();
    takes::<Adjacent<String>>();
    takes::<Either>();
    takes::<Meters>();
}
