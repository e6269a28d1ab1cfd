//! An app served with the framework's `server` feature alone.

use std::time::Duration;

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

    /// Answer after `ms` milliseconds: a request still in flight when the
    /// server is told to stop.
    #[typed_route::get("slow/:ms")]
    async fn slow(&self, #[param] ms: u32) -> String {
        tokio::time::sleep(Duration::from_millis(ms.into())).await;
        format!("slept {ms} ms")
    }
}

/// The app.
pub fn app() -> App {
    App::builder()
        .controller(Notes)
        .build()
        .expect("the routes are valid")
}
