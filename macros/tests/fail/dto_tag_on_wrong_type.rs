use framework::prelude::*;

#[dto]
struct Item {
    #[tags(min_length = 3)]
    count: u32,
    #[tags(minimum = 1)]
    name: String,
    #[tags(min_items = 1)]
    label: String,
}

fn main() {}
