use framework::prelude::*;

struct Articles;

#[controller("articles")]
impl Articles {
    #[typed_route::get("")]
    async fn list<T: Default>(&self) -> u32 {
        1
    }
}

fn main() {}
