//! The smallest app a user writes, in a workspace of its own.

use framework::prelude::*;

#[dto]
pub struct Note {
    #[tags(min_length = 1, max_length = 280)]
    pub text: String,
}

/// Notes, kept nowhere.
pub struct Notes;

#[controller("notes")]
impl Notes {
    /// Say hello.
    #[typed_route::get("hello")]
    async fn hello(&self) -> &'static str {
        "hello"
    }

    /// Echo a note.
    #[typed_route::post("")]
    async fn create(&self, note: TypedBody<Note>) -> Note {
        note.into_inner()
    }
}

/// The app.
pub fn app() -> App {
    App::builder().controller(Notes).build().expect("no route conflicts")
}
