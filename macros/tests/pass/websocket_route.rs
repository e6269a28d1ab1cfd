use framework::prelude::*;
use framework::ws::{WebSocketResponse, WebSocketUpgrade};

#[dto]
struct Line {
    #[tags(min_length = 1)]
    text: String,
}

struct Chat;

#[controller("chat")]
impl Chat {
    /// A guarded socket that may refuse before upgrading.
    #[typed_route::get(":room")]
    async fn talk(
        &self,
        #[param] room: String,
        ws: WebSocketUpgrade<Line, Line>,
    ) -> Result<WebSocketResponse, ApiError> {
        if room == "closed" {
            return Err(ApiError::not_found("no such room"));
        }
        Ok(ws.on_upgrade(|mut socket| async move {
            while let Some(line) = socket.recv().await {
                let _ = socket.send(&line).await;
            }
        }))
    }
}

fn main() {
    let app = App::builder().controller(Chat).build().unwrap();
    assert!(app.manifest().routes[0].websocket.is_some());
}
