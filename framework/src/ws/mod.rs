#![doc = include_str!("../docs/ws.md")]

mod close;
mod driver;
mod limits;
mod open;
mod socket;
mod upgrade;

pub use close::{MAX_REASON, close_code};
pub use limits::{
    DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_MESSAGE_SIZE, DEFAULT_PING_INTERVAL, DEFAULT_SEND_QUEUE,
    Limits,
};
pub(crate) use open::OpenSockets;
pub use socket::{SendError, WebSocket, WebSocketReceiver, WebSocketSender};
pub use upgrade::{WebSocketResponse, WebSocketUpgrade};
