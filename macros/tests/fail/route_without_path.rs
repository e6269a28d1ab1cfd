use framework::prelude::*;

struct Articles;

#[controller("articles")]
impl Articles {
    #[typed_route::get]
    async fn list(&self) -> u32 {
        1
    }

    #[typed_route::get(42)]
    async fn other(&self) -> u32 {
        1
    }

    #[param]
    fn helper(&self) {}
}

fn main() {}
