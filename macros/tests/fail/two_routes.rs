use framework::prelude::*;

struct Articles;

#[controller("articles")]
impl Articles {
    #[typed_route::get("")]
    #[typed_route::post("")]
    async fn both(&self) -> u32 {
        1
    }
}

fn main() {}
