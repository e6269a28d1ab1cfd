use framework::prelude::*;

#[dto]
struct Note {
    text: String,
}

struct Notes;

#[controller("notes")]
impl Notes {
    #[typed_route::post("")]
    async fn create(&self, #[tags(min_length = 1)] body: TypedBody<Note>) -> String {
        body.into_inner().text
    }
}

fn main() {}
