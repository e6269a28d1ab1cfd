use framework::prelude::*;

struct Articles;

#[controller("articles/:section")]
impl Articles {
    #[typed_route::get(":id")]
    async fn at(&self, #[param] id: u32) -> u32 {
        id
    }
}

fn main() {}
