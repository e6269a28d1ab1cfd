use framework::prelude::*;

#[dto]
struct Renamed {
    #[serde(alias = "old_title")]
    title: String,
}

fn main() {}
