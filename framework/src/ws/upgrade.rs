//! The handshake: the extractor that checks it and the `101` answer that
//! starts the socket.

use std::{future::Future, marker::PhantomData};

use http::{HeaderMap, HeaderValue, StatusCode, Version, header, request::Parts};
use hyper::upgrade::{OnUpgrade, Upgraded};
use hyper_util::rt::TokioIo;
use serde::Serialize;
use tokio::sync::mpsc;
use tokio_tungstenite::{
    WebSocketStream,
    tungstenite::{handshake::derive_accept_key, protocol::Role, protocol::WebSocketConfig},
};

use super::{Limits, WebSocket, driver::Driver, open::OpenSockets};
use crate::{
    body::Response,
    describe::{InputMeta, ResponseManifest},
    dto::Dto,
    error::{ApiError, refusal},
    extractor::FromRequestParts,
    request::RequestContext,
    response::IntoResponse,
    schema::{Registry, ToSchema},
    shutdown::Shutdown,
};

/// How many checked messages wait for the handler before the socket stops
/// reading.
const RECEIVE_QUEUE: usize = 4;

/// Bytes read from the connection at a time (tungstenite allocates this for
/// every socket).
const READ_BUFFER: usize = 8 * 1024;

/// The handshake of a WebSocket route whose client sends `In` messages and
/// whose server sends `Out` messages (`#[dto]` types; each message is one
/// JSON text message). Call [`on_upgrade`](WebSocketUpgrade::on_upgrade)
/// with the function that serves the socket and answer what it gives.
///
/// It is a head extractor, so path parameters, the query, headers and
/// guards are read and checked before the upgrade: a refused one answers
/// its own status (a guard's `401`, the inputs' `400`) and no socket is
/// opened. A request that is not a WebSocket handshake over HTTP/1.1 gets
/// `426 upgrade_required`; one asking for a WebSocket version other than 13
/// gets `426 unsupported_websocket_version`; one with a malformed
/// `Sec-WebSocket-Key` gets `400 invalid_websocket_handshake`. WebSocket
/// over HTTP/2 (RFC 8441) is not served: HTTP/2 clients get `426`.
///
/// A handshake from a page of another origin (an `Origin` whose host is
/// not the request's `Host`, and not trusted) gets `403
/// cross_origin_websocket`, so another site's page cannot open a socket
/// with the user's cookies; a client that sends no `Origin` (not a
/// browser) passes. Trust origins with
/// [`CrossOrigin::trust`](crate::CrossOrigin::trust).
///
/// The route must be a `#[typed_route::get]`. Its manifest entry
/// documents both message types; see the [module docs](crate::ws).
///
/// ```
/// use framework::prelude::*;
/// use framework::ws::{WebSocketResponse, WebSocketUpgrade};
///
/// #[dto]
/// struct Say { #[tags(min_length = 1, max_length = 280)] text: String }
///
/// #[dto]
/// struct Said { room: String, text: String }
///
/// struct Chat;
///
/// #[controller("rooms")]
/// impl Chat {
///     /// Talk in a room: every message is answered in the room's name.
///     #[typed_route::get(":room")]
///     async fn talk(&self, #[param] room: String, ws: WebSocketUpgrade<Say, Said>) -> WebSocketResponse {
///         ws.on_upgrade(move |mut socket| async move {
///             while let Some(Say { text }) = socket.recv().await {
///                 let said = Said { room: room.clone(), text };
///                 if socket.send(&said).await.is_err() {
///                     break;
///                 }
///             }
///         })
///     }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder().controller(Chat).build().unwrap();
/// // A plain GET is not a handshake.
/// let refused = app.test_client().get("/rooms/lobby").send().await;
/// assert_eq!(refused.status(), 426);
/// assert_eq!(refused.problem().code, "upgrade_required");
/// let route = &app.manifest().routes[0];
/// assert!(route.websocket.is_some());
/// # });
/// ```
#[must_use = "answer `on_upgrade`'s response, or no socket is opened"]
pub struct WebSocketUpgrade<In, Out> {
    accept: HeaderValue,
    on_upgrade: OnUpgrade,
    limits: Limits,
    shutdown: Shutdown,
    sockets: OpenSockets,
    messages: PhantomData<fn(In) -> Out>,
}

impl<In, Out> std::fmt::Debug for WebSocketUpgrade<In, Out> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebSocketUpgrade")
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl<In, Out> FromRequestParts for WebSocketUpgrade<In, Out>
where
    In: Dto,
    Out: Serialize + ToSchema + Send + 'static,
{
    const INPUT: InputMeta =
        InputMeta::websocket(<In as ToSchema>::schema, <Out as ToSchema>::schema);

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        let accept = check_handshake(cx.parts())?;
        cx.origins().check_websocket(cx.parts())?;
        let on_upgrade = cx
            .parts_mut()
            .extensions
            .remove::<OnUpgrade>()
            .ok_or_else(|| {
                upgrade_required(
                    "the connection cannot be upgraded: it is not an HTTP/1.1 connection served by hyper",
                )
            })?;
        Ok(WebSocketUpgrade {
            accept,
            on_upgrade,
            limits: cx.find_state::<Limits>().copied().unwrap_or_default(),
            shutdown: cx.shutdown().clone(),
            sockets: cx.open_sockets().clone(),
            messages: PhantomData,
        })
    }
}

impl<In, Out: 'static> WebSocketUpgrade<In, Out> {
    /// This route's limits (the app's [`Limits`] state, else the
    /// defaults).
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Replaces this route's limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Answers `101 Switching Protocols`; once it is sent, `serve` runs in
    /// a task of its own with the socket. The socket lives on while
    /// `serve` (or a half it hands on) holds it; the server closes it
    /// by its [`Limits`] and when it shuts down.
    pub fn on_upgrade<F, Fut>(self, serve: F) -> WebSocketResponse
    where
        In: Dto,
        F: FnOnce(WebSocket<In, Out>) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
        Out: Send + 'static,
    {
        let accept = self.accept.clone();
        let start = move || {
            let open = self.sockets.open();
            // Its own span, which follows from the request's (started now,
            // in the request's span) without keeping it open.
            let span = tracing::info_span!("websocket");
            span.follows_from(tracing::Span::current());
            let socket = async move {
                let _open = open;
                self.run(serve).await;
            };
            tokio::spawn(tracing::Instrument::instrument(socket, span));
        };
        WebSocketResponse {
            accept,
            start: Some(Box::new(start)),
        }
    }

    /// Waits for hyper to hand the connection over, then serves it.
    async fn run<F, Fut>(self, serve: F)
    where
        In: Dto,
        F: FnOnce(WebSocket<In, Out>) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let upgraded = match self.on_upgrade.await {
            Ok(upgraded) => upgraded,
            Err(err) => {
                tracing::debug!(%err, "a WebSocket upgrade did not complete");
                return;
            }
        };
        // hyper's `Upgraded` replays what it read past the handshake. On
        // the framework's own server the connection under it keeps its
        // place under the connection limit until the socket closes, and
        // stopped batching writes when the `101` was sent.
        let ws = socket_stream(TokioIo::new(upgraded), &self.limits).await;
        let (incoming, received) = mpsc::channel(RECEIVE_QUEUE);
        let (sent, outgoing) = mpsc::channel(self.limits.send_queue);
        let socket = WebSocket::new(sent, received);
        let handler = tokio::spawn(tracing::Instrument::in_current_span(async move {
            serve(socket).await;
        }));
        Driver::new(ws, self.limits, incoming, outgoing)
            .run(self.shutdown, handler)
            .await;
    }
}

/// What a socket reads and writes: the connection hyper hands over after
/// the `101`.
pub(crate) type SocketIo = TokioIo<Upgraded>;

/// The server's side of the socket over `io`.
async fn socket_stream(io: SocketIo, limits: &Limits) -> WebSocketStream<SocketIo> {
    let config = WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER)
        .max_message_size(Some(limits.max_message_size))
        .max_frame_size(Some(limits.max_message_size));
    WebSocketStream::from_raw_socket(io, Role::Server, Some(config)).await
}

/// The `101 Switching Protocols` answer of a WebSocket route, made by
/// [`WebSocketUpgrade::on_upgrade`]; the socket starts when it is sent.
#[must_use]
pub struct WebSocketResponse {
    accept: HeaderValue,
    start: Option<Box<dyn FnOnce() + Send>>,
}

impl std::fmt::Debug for WebSocketResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebSocketResponse")
            .field("accept", &self.accept)
            .finish_non_exhaustive()
    }
}

impl IntoResponse for WebSocketResponse {
    const DEFAULT_STATUS: Option<u16> = Some(101);

    fn describe(_: u16, _: &mut Registry) -> Vec<ResponseManifest> {
        vec![
            ResponseManifest::new(101).described(
                "Switching Protocols: the connection is a WebSocket (see `x-websocket`).",
            ),
        ]
    }

    fn into_response(mut self, _: StatusCode) -> Response {
        if let Some(start) = self.start.take() {
            start();
        }
        let mut response = http::Response::new(crate::Body::empty());
        *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
        let headers = response.headers_mut();
        headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
        headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
        headers.insert(header::SEC_WEBSOCKET_ACCEPT, self.accept);
        response
    }
}

/// Checks a handshake (RFC 6455, 4.2.1) and answers its
/// `Sec-WebSocket-Accept`.
fn check_handshake(parts: &Parts) -> Result<HeaderValue, ApiError> {
    if parts.version == Version::HTTP_2 {
        return Err(upgrade_required(
            "WebSocket is served over HTTP/1.1 only: this server does not implement WebSocket over HTTP/2 (RFC 8441)",
        ));
    }
    let headers = &parts.headers;
    if parts.method != http::Method::GET
        || parts.version != Version::HTTP_11
        || !has_token(headers, header::UPGRADE, "websocket")
        || !has_token(headers, header::CONNECTION, "upgrade")
    {
        return Err(upgrade_required(
            "this is a WebSocket route: send a GET over HTTP/1.1 with `Connection: Upgrade` and `Upgrade: websocket`",
        )
        .with_header(header::UPGRADE, HeaderValue::from_static("websocket"))
        .with_header(header::CONNECTION, HeaderValue::from_static("upgrade")));
    }
    if headers
        .get(header::SEC_WEBSOCKET_VERSION)
        .is_none_or(|version| version.as_bytes() != b"13")
    {
        return Err(refusal::UNSUPPORTED_WEBSOCKET_VERSION
            .error("`Sec-WebSocket-Version`: this server speaks version 13 only")
            .with_header(
                header::SEC_WEBSOCKET_VERSION,
                HeaderValue::from_static("13"),
            ));
    }
    let key = headers
        .get(header::SEC_WEBSOCKET_KEY)
        .map(HeaderValue::as_bytes)
        .filter(|key| is_key(key))
        .ok_or_else(|| {
            refusal::INVALID_WEBSOCKET_HANDSHAKE
                .error("`Sec-WebSocket-Key`: expected 16 bytes in base64")
        })?;
    HeaderValue::from_str(&derive_accept_key(key))
        .map_err(|_| ApiError::internal("a Sec-WebSocket-Accept value is not a header value"))
}

/// `426 upgrade_required` with `message`.
fn upgrade_required(message: &'static str) -> ApiError {
    refusal::UPGRADE_REQUIRED.error(message)
}

/// Whether a comma-separated header lists `token`, in any case.
fn has_token(headers: &HeaderMap, name: header::HeaderName, token: &str) -> bool {
    headers
        .get_all(name)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|item| item.trim().eq_ignore_ascii_case(token))
}

/// Whether `key` is 16 bytes in base64: 22 characters and `==`.
fn is_key(key: &[u8]) -> bool {
    let base64 = |byte: &u8| byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'/');
    key.len() == 24 && key[..22].iter().all(base64) && &key[22..] == b"=="
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handshake(edit: impl FnOnce(&mut http::request::Builder)) -> Parts {
        let mut builder = http::Request::get("/chat")
            .header("connection", "keep-alive, Upgrade")
            .header("upgrade", "WebSocket")
            .header("sec-websocket-version", "13")
            .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==");
        edit(&mut builder);
        builder.body(()).unwrap().into_parts().0
    }

    #[test]
    fn accepts_the_rfc_example() {
        let accept = check_handshake(&handshake(|_| {})).unwrap();
        assert_eq!(accept, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    }

    #[test]
    fn refuses_what_is_not_a_handshake() {
        let codes = |parts: Parts| {
            let err = check_handshake(&parts).unwrap_err();
            (err.status().as_u16(), err.code().to_owned())
        };
        let plain = http::Request::get("/chat").body(()).unwrap().into_parts().0;
        assert_eq!(codes(plain), (426, "upgrade_required".to_owned()));
        let mut http2 = handshake(|_| {});
        http2.version = Version::HTTP_2;
        assert_eq!(codes(http2), (426, "upgrade_required".to_owned()));
        let version = handshake(|builder| {
            builder
                .headers_mut()
                .unwrap()
                .insert("sec-websocket-version", HeaderValue::from_static("8"));
        });
        assert_eq!(
            codes(version),
            (426, "unsupported_websocket_version".to_owned())
        );
        let key = handshake(|builder| {
            builder
                .headers_mut()
                .unwrap()
                .insert("sec-websocket-key", HeaderValue::from_static("short"));
        });
        assert_eq!(codes(key), (400, "invalid_websocket_handshake".to_owned()));
    }
}
