use framework::prelude::*;
use framework::ws::{WebSocketResponse, WebSocketUpgrade};

#[dto]
struct Line {
    text: String,
}

struct Chat;

#[controller("chat")]
impl Chat {
    #[typed_route::post("")]
    async fn posted(&self, ws: WebSocketUpgrade<Line, Line>) -> WebSocketResponse {
        ws.on_upgrade(|_socket| async {})
    }

    #[typed_route::get("twice")]
    async fn twice(
        &self,
        first: WebSocketUpgrade<Line, Line>,
        second: WebSocketUpgrade<Line, Line>,
    ) -> WebSocketResponse {
        drop(second);
        first.on_upgrade(|_socket| async {})
    }
}

fn main() {}
