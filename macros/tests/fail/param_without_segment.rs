use framework::prelude::*;

struct Articles;

#[controller("articles")]
impl Articles {
    #[typed_route::get(":id")]
    async fn at(&self, #[param] id: u32, #[param] section: String) -> u32 {
        let _ = section;
        id
    }
}

fn main() {}
