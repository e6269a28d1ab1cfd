use framework::prelude::*;

#[derive(serde::Deserialize)]
struct Plain {
    text: String,
}

struct Notes;

#[controller("notes")]
impl Notes {
    #[typed_route::post("")]
    async fn create(&self, body: TypedBody<Plain>) -> String {
        body.into_inner().text
    }
}

fn main() {}
