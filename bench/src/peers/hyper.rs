//! Raw hyper 1.x: a hand-written service routed by matchit, serde_json and
//! validator for bodies, `http1::Builder` with `pipeline_flush(true)` and
//! `TCP_NODELAY` on each connection. The ceiling a hyper-based framework
//! can reach.

use std::{convert::Infallible, io, net::TcpListener, sync::Arc};

use bytes::Bytes;
use http::{HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Full};
use hyper::{body::Incoming, server::conn::http1, service::service_fn};
use hyper_util::rt::TokioIo;
use validator::Validate;

use crate::{
    scenario::{HELLO, Message, RouteSet},
    with_validator::{Boxes, Scene},
};

#[derive(Clone, Copy)]
enum Route {
    Plaintext,
    Json,
    Assert,
    AssertNoConstraints,
    Stringify,
    Performance,
    PerformanceNoConstraints,
    Static(usize),
    Dynamic,
}

struct State {
    router: matchit::Router<Route>,
    boxes: Boxes,
}

pub(super) fn serve(routes: RouteSet, listener: TcpListener) -> io::Result<()> {
    let mut router = matchit::Router::new();
    let mut insert = |path: String, route| router.insert(path, route).map_err(io::Error::other);
    match routes {
        RouteSet::Main => {
            insert("/plaintext".into(), Route::Plaintext)?;
            insert("/json".into(), Route::Json)?;
            insert("/assert".into(), Route::Assert)?;
            insert("/assert-no-constraints".into(), Route::AssertNoConstraints)?;
            insert("/stringify".into(), Route::Stringify)?;
            insert("/performance".into(), Route::Performance)?;
            insert(
                "/performance-no-constraints".into(),
                Route::PerformanceNoConstraints,
            )?;
        }
        RouteSet::Many | RouteSet::One => {
            for n in routes.static_routes() {
                insert(format!("/uuid/{n}"), Route::Static(n))?;
            }
            insert("/zzz/{a}".into(), Route::Dynamic)?;
        }
        // The framework's alone (`Peer::serves`).
        RouteSet::Form | RouteSet::FormCrossOriginOff | RouteSet::Versions => {}
    }
    let state = Arc::new(State {
        router,
        boxes: super::boxes(),
    });
    super::runtime()?.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        loop {
            let (stream, _) = listener.accept().await?;
            stream.set_nodelay(true)?;
            let state = Arc::clone(&state);
            tokio::spawn(async move {
                let service = service_fn(move |request| handle(Arc::clone(&state), request));
                let _ = http1::Builder::new()
                    .pipeline_flush(true)
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    })
}

fn reply(status: StatusCode, content_type: &'static str, body: Vec<u8>) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    if !content_type.is_empty() {
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    }
    response
}

fn json<T: serde::Serialize>(value: &T) -> Response<Full<Bytes>> {
    match serde_json::to_vec(value) {
        Ok(body) => reply(StatusCode::OK, "application/json", body),
        Err(_) => reply(StatusCode::INTERNAL_SERVER_ERROR, "", Vec::new()),
    }
}

/// Reads and validates the body, or answers 400.
async fn read<T: serde::de::DeserializeOwned + Validate>(
    request: Request<Incoming>,
) -> Result<T, Response<Full<Bytes>>> {
    let bad = || reply(StatusCode::BAD_REQUEST, "", Vec::new());
    let body = request
        .into_body()
        .collect()
        .await
        .map_err(|_| bad())?
        .to_bytes();
    let value: T = serde_json::from_slice(&body).map_err(|_| bad())?;
    value.validate().map_err(|_| bad())?;
    Ok(value)
}

/// Answers 204 to a valid body.
async fn assert<T: serde::de::DeserializeOwned + Validate>(
    request: Request<Incoming>,
) -> Response<Full<Bytes>> {
    match read::<T>(request).await {
        Ok(_) => reply(StatusCode::NO_CONTENT, "", Vec::new()),
        Err(response) => response,
    }
}

/// Answers a valid body with itself.
async fn echo<T: serde::de::DeserializeOwned + serde::Serialize + Validate>(
    request: Request<Incoming>,
) -> Response<Full<Bytes>> {
    match read::<T>(request).await {
        Ok(value) => json(&value),
        Err(response) => response,
    }
}

async fn handle(
    state: Arc<State>,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let not_found = || reply(StatusCode::NOT_FOUND, "", Vec::new());
    let Ok(found) = state.router.at(request.uri().path()) else {
        return Ok(not_found());
    };
    let route = *found.value;
    let dynamic = found.params.get("a").unwrap_or_default().to_owned();
    let method = request.method().clone();
    Ok(match (route, method) {
        (Route::Plaintext, Method::GET) => {
            reply(StatusCode::OK, "text/plain", HELLO.as_bytes().to_vec())
        }
        (Route::Json, Method::GET) => json(&Message {
            message: HELLO.to_owned(),
        }),
        (Route::Assert, Method::POST) => assert::<Scene>(request).await,
        (Route::AssertNoConstraints, Method::POST) => assert::<Boxes>(request).await,
        (Route::Stringify, Method::GET) => json(&state.boxes),
        (Route::Performance, Method::POST) => echo::<Scene>(request).await,
        (Route::PerformanceNoConstraints, Method::POST) => echo::<Boxes>(request).await,
        (Route::Static(n), Method::GET) => {
            reply(StatusCode::OK, "text/plain", n.to_string().into_bytes())
        }
        (Route::Dynamic, Method::GET) => reply(StatusCode::OK, "text/plain", dynamic.into_bytes()),
        _ => reply(StatusCode::METHOD_NOT_ALLOWED, "", Vec::new()),
    })
}
