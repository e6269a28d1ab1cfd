use framework::prelude::*;

struct Articles;

impl Articles {
    #[typed_route::get(":id")]
    async fn at(&self) -> u32 {
        1
    }
}

fn main() {}
