use framework::prelude::*;

#[dto]
pub struct Note {
    pub text: String,
}

#[dto]
pub struct OldNote {
    pub text: String,
}

struct Notes;

#[controller("notes")]
impl Notes {
    #[typed_route::get("a", versions = "1.0.0"..="2.0.0")]
    async fn inclusive(&self) {}

    #[typed_route::get("b", versions = "2.0.0")]
    async fn single(&self) {}

    #[typed_route::get("c")]
    #[typed_route::converted(answer = OldNote)]
    async fn no_versions(&self) -> Note {
        Note { text: String::new() }
    }

    #[typed_route::get("d")]
    #[typed_route::converted(versions = .."2.0.0")]
    async fn nothing_converted(&self) {}

    #[typed_route::post("e")]
    #[typed_route::converted(versions = .."2.0.0", note = TypedBody<OldNote>)]
    async fn no_such_argument(&self, body: TypedBody<Note>) {}

    #[typed_route::get("f/:id")]
    #[typed_route::converted(versions = .."2.0.0", id = String)]
    async fn converted_param(&self, #[param] id: u32) {}

    #[typed_route::converted(versions = .."2.0.0", answer = OldNote)]
    async fn not_a_route(&self) {}
}

#[controller("tags", version = "1.0.0"..)]
impl Notes {}

fn main() {}
