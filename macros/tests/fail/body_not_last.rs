use framework::prelude::*;

#[dto]
struct Note {
    text: String,
}

#[dto]
struct Page {
    number: u32,
}

struct Notes;

#[controller("notes")]
impl Notes {
    #[typed_route::post("")]
    async fn create(&self, body: TypedBody<Note>, page: TypedQuery<Page>) -> Note {
        let _ = page;
        body.into_inner()
    }
}

fn main() {}
