//! actix-web 4 with one worker, as its examples write it: `web::Json`
//! extractors (limit raised to fit the body), validator for constraints.

use std::{io, net::TcpListener};

use actix_web::{App, HttpResponse, HttpServer, web};
use validator::Validate;

use crate::{
    scenario::{HELLO, Message, RouteSet},
    with_validator::{Boxes, Scene},
};

async fn assert<T: Validate>(body: web::Json<T>) -> HttpResponse {
    match body.validate() {
        Ok(()) => HttpResponse::NoContent().finish(),
        Err(_) => HttpResponse::BadRequest().finish(),
    }
}

async fn performance<T: Validate + serde::Serialize>(body: web::Json<T>) -> HttpResponse {
    match body.validate() {
        Ok(()) => HttpResponse::Ok().json(body.into_inner()),
        Err(_) => HttpResponse::BadRequest().finish(),
    }
}

async fn stringify(boxes: web::Data<Boxes>) -> HttpResponse {
    HttpResponse::Ok().json(&**boxes)
}

pub(super) fn serve(routes: RouteSet, listener: TcpListener) -> io::Result<()> {
    let boxes = web::Data::new(super::boxes());
    actix_web::rt::System::new().block_on(async move {
        HttpServer::new(move || {
            let app = App::new()
                .app_data(web::JsonConfig::default().limit(2 * 1024 * 1024))
                .app_data(boxes.clone());
            match routes {
                RouteSet::Main => app
                    .route("/plaintext", web::get().to(|| async { HELLO }))
                    .route(
                        "/json",
                        web::get().to(|| async {
                            HttpResponse::Ok().json(Message {
                                message: HELLO.to_owned(),
                            })
                        }),
                    )
                    .route("/assert", web::post().to(assert::<Scene>))
                    .route("/assert-no-constraints", web::post().to(assert::<Boxes>))
                    .route("/stringify", web::get().to(stringify))
                    .route("/performance", web::post().to(performance::<Scene>))
                    .route(
                        "/performance-no-constraints",
                        web::post().to(performance::<Boxes>),
                    ),
                RouteSet::Many | RouteSet::One => {
                    let mut app = app;
                    for n in routes.static_routes() {
                        app = app.route(
                            &format!("/uuid/{n}"),
                            web::get().to(move || async move { n.to_string() }),
                        );
                    }
                    app.route(
                        "/zzz/{a}",
                        web::get().to(|a: web::Path<String>| async move { a.into_inner() }),
                    )
                }
                // The framework's alone (`Peer::serves`).
                RouteSet::Form | RouteSet::FormCrossOriginOff | RouteSet::Versions => app,
            }
        })
        .workers(1)
        .tcp_nodelay(true)
        .disable_signals()
        .listen(listener)?
        .run()
        .await
    })
}
