use framework::prelude::*;

struct Listing {
    page: u32,
}

struct Articles;

#[controller("articles")]
impl Articles {
    #[typed_route::get("")]
    async fn list(&self, query: TypedQuery<Listing>) -> u32 {
        query.page
    }
}

fn main() {}
