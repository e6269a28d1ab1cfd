use framework::prelude::*;

struct Articles;

#[controller("articles")]
impl Articles {
    #[typed_route::get("", status = 404)]
    async fn list(&self) -> u32 {
        1
    }

    #[typed_route::get("x", code = 200)]
    async fn other(&self) -> u32 {
        1
    }
}

fn main() {}
