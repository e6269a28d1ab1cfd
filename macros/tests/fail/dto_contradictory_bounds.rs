use framework::prelude::*;

#[dto]
struct MinimumAboveMaximum {
    #[tags(minimum = 10, maximum = 1)]
    count: u32,
}

#[dto]
struct ExclusiveBoundsMeet {
    #[tags(exclusive_minimum = 5, exclusive_maximum = 5)]
    ratio: f64,
}

#[dto]
struct ExclusiveAboveInclusive {
    #[tags(minimum = 3, exclusive_maximum = 3)]
    ratio: f64,
}

#[dto]
struct NoMultipleInRange {
    #[tags(minimum = 1, maximum = 4, multiple_of = 5)]
    step: u32,
}

#[dto]
struct MinLengthAboveMaxLength {
    #[tags(min_length = 8, max_length = 4)]
    name: String,
}

#[dto]
struct MinItemsAboveMaxItems {
    #[tags(min_items = 3, max_items = 2)]
    items: Vec<u32>,
}

#[dto]
struct ItemBoundsContradict {
    #[tags(items(minimum = 2, maximum = 1))]
    items: Vec<u32>,
}

fn main() {}
