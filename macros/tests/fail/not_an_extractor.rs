use framework::prelude::*;

struct Articles;

#[controller("articles")]
impl Articles {
    #[typed_route::post("")]
    async fn create(&self, body: String) -> String {
        body
    }
}

fn main() {}
