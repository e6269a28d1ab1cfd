use framework::prelude::*;

#[dto]
struct NotOption {
    #[optional]
    page: u32,
}

#[dto]
struct Flattened {
    #[serde(flatten)]
    inner: std::collections::HashMap<String, String>,
}

#[dto]
struct Pair(u32, u32);

#[dto(loose)]
struct Options {
    a: u32,
}

#[dto]
enum Tuple {
    Two(u32, u32),
}

fn main() {}
