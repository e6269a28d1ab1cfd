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

/// A note with its length: what version 2.0.0 of the API answers.
#[dto]
pub struct Measured {
    pub text: String,
    pub length: u32,
}

/// Version 1.0.0 answers the note alone.
impl From<Measured> for Note {
    fn from(measured: Measured) -> Self {
        Note {
            text: measured.text,
        }
    }
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

    /// The latest note: measured from version 2.0.0 on, converted for
    /// older clients.
    #[typed_route::get("latest", versions = "2.0.0"..)]
    #[typed_route::converted(versions = .."2.0.0", answer = Note)]
    async fn latest(&self) -> Measured {
        Measured {
            text: "hello".to_owned(),
            length: 5,
        }
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

/// The app, serving API versions 1.0.0 (the default) and 2.0.0, its
/// routes also tools for language models at `/mcp` (the `mcp` feature).
pub fn app() -> App {
    App::builder()
        .controller(Notes)
        .versions(framework::Versions::new([
            framework::ApiVersion::new(1, 0, 0),
            framework::ApiVersion::new(2, 0, 0),
        ]))
        .mcp(framework::Mcp::new())
        .build()
        .expect("no route conflicts")
}
