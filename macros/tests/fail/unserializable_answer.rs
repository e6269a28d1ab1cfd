use framework::prelude::*;

struct Opaque;

struct Articles;

#[controller("articles")]
impl Articles {
    #[typed_route::get("")]
    async fn list(&self) -> Opaque {
        Opaque
    }
}

fn main() {}
