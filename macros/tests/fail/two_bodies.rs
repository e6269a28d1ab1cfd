use framework::prelude::*;

#[dto]
struct Note {
    text: String,
}

struct Notes;

#[controller("notes")]
impl Notes {
    #[typed_route::post("")]
    async fn create(&self, first: TypedBody<Note>, second: TypedBody<Note>) -> Note {
        let _ = second;
        first.into_inner()
    }
}

fn main() {}
