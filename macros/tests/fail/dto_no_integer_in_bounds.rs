use framework::prelude::*;

#[dto]
struct Between {
    #[tags(minimum = 1.2, maximum = 1.8)]
    count: u32,
}

#[dto]
struct Strictly {
    #[tags(exclusive_minimum = 1, exclusive_maximum = 2)]
    count: Option<i64>,
}

// Fine: an f64 has values between 1.2 and 1.8.
#[dto]
struct Ratio {
    #[tags(minimum = 1.2, maximum = 1.8)]
    ratio: f64,
}

fn main() {}
