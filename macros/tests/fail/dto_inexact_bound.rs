use framework::prelude::*;

/// 2^53 + 1 has no f64: OpenAPI and the SDKs would read another bound.
#[dto]
struct Capped {
    #[tags(maximum = 9007199254740993)]
    capped: u64,
}

fn main() {}
