use framework::prelude::*;

struct Articles;

#[controller]
impl Articles {
    #[typed_route::get]
    async fn at(&self) -> u32 {
        1
    }
}

fn main() {}
