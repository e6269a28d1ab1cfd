//! The smallest app a user writes, in a workspace of its own.

use framework::prelude::*;
use framework::ws::{WebSocketResponse, WebSocketUpgrade};

#[dto]
pub struct Note {
    #[tags(min_length = 1, max_length = 280)]
    pub text: String,
}

/// A note with a file, sent as `multipart/form-data`.
#[dto]
pub struct Attached {
    #[tags(min_length = 1, max_length = 280)]
    pub text: String,
    #[tags(max_size = 1_048_576, accept = ["text/*"])]
    pub file: File,
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

    /// Echo notes over a WebSocket (the `ws` feature).
    #[typed_route::get("live")]
    async fn live(&self, ws: WebSocketUpgrade<Note, Note>) -> WebSocketResponse {
        ws.on_upgrade(|mut socket| async move {
            while let Some(note) = socket.recv().await {
                if socket.send(&note).await.is_err() {
                    break;
                }
            }
        })
    }

    /// A note and its file's text, from a multipart form.
    #[typed_route::post("attached")]
    async fn attach(&self, form: TypedFormData<Attached>) -> Result<String, ApiError> {
        let bytes = form.file.bytes().await.map_err(ApiError::internal)?;
        Ok(format!(
            "{}: {}",
            form.text,
            String::from_utf8_lossy(&bytes)
        ))
    }
}

/// The app, its routes also tools for language models at `/mcp` (the
/// `mcp` feature).
pub fn app() -> App {
    App::builder()
        .controller(Notes)
        .mcp(framework::Mcp::new())
        .build()
        .expect("no route conflicts")
}
