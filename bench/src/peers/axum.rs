//! axum 0.8, as its examples write it: a `Router` with `Json` extractors,
//! validator for constraints, served by `axum::serve` with the router's
//! `into_make_service` and `TCP_NODELAY` set on every connection (axum's
//! `ListenerExt::tap_io`, as its docs show), like every other peer.

use std::{io, net::TcpListener, sync::Arc};

use axum::{
    Json, Router,
    extract::{Path, State},
    http::StatusCode,
    routing::{get, post},
    serve::ListenerExt,
};
use validator::Validate;

use crate::{
    scenario::{HELLO, Message, RouteSet},
    with_validator::{Boxes, Scene},
};

async fn assert<T: Validate>(Json(body): Json<T>) -> StatusCode {
    match body.validate() {
        Ok(()) => StatusCode::NO_CONTENT,
        Err(_) => StatusCode::BAD_REQUEST,
    }
}

async fn performance<T: Validate>(Json(body): Json<T>) -> Result<Json<T>, StatusCode> {
    body.validate().map_err(|_| StatusCode::BAD_REQUEST)?;
    Ok(Json(body))
}

fn router(routes: RouteSet) -> Router {
    match routes {
        RouteSet::Main => Router::new()
            .route("/plaintext", get(|| async { HELLO }))
            .route(
                "/json",
                get(|| async {
                    Json(Message {
                        message: HELLO.to_owned(),
                    })
                }),
            )
            .route("/assert", post(assert::<Scene>))
            .route("/assert-no-constraints", post(assert::<Boxes>))
            .route(
                "/stringify",
                get(|State(boxes): State<Arc<Boxes>>| async move { Json(Boxes::clone(&boxes)) }),
            )
            .route("/performance", post(performance::<Scene>))
            .route("/performance-no-constraints", post(performance::<Boxes>))
            .with_state(Arc::new(super::boxes())),
        RouteSet::Many | RouteSet::One => {
            let mut router = Router::new();
            for n in routes.static_routes() {
                router = router.route(
                    &format!("/uuid/{n}"),
                    get(move || async move { n.to_string() }),
                );
            }
            router.route("/zzz/{a}", get(|Path(a): Path<String>| async move { a }))
        }
        // The framework's alone (`Peer::serves`).
        RouteSet::Form | RouteSet::FormCrossOriginOff | RouteSet::Versions => Router::new(),
    }
}

pub(super) fn serve(routes: RouteSet, listener: TcpListener) -> io::Result<()> {
    let app = router(routes);
    super::runtime()?.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?.tap_io(|stream| {
            // A refusal leaves Nagle on; the run then shows it in latency.
            let _ = stream.set_nodelay(true);
        });
        axum::serve(listener, app.into_make_service()).await
    })
}
