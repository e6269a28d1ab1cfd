//! Every input and answer kind of the handler model.

use framework::prelude::*;
use framework::{ErrorMeta, InputMeta, RequestContext, SecurityMeta};

#[dto]
struct Note {
    #[tags(min_length = 1)]
    text: String,
}

#[dto]
struct Theme {
    #[optional]
    theme: Option<String>,
}

struct Admin;

static ADMIN: SecurityMeta = SecurityMeta::bearer("admin", "The admin token.");

impl FromRequestParts for Admin {
    const INPUT: InputMeta = InputMeta::request()
        .with_security(&ADMIN)
        .with_errors(&[ErrorMeta::new(401, "No admin token.")]);

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        let token = Bearer::from_request_parts(cx).await?;
        if token.token() == "root" {
            Ok(Admin)
        } else {
            Err(Bearer::refused("not the admin token"))
        }
    }
}

#[derive(IntoResponse)]
enum Outcome {
    /// Done.
    Done(Note),
    /// Queued.
    #[status(202)]
    Queued(Note),
    /// Nothing to do.
    #[status(204)]
    Nothing,
}

/// A generic enum of answers: each variant's answer type is a parameter.
#[derive(IntoResponse)]
enum Lookup<T> {
    /// Found.
    Found(T),
    /// Not there (yet).
    #[status(202)]
    Pending,
}

struct Notes;

#[controller("notes")]
impl Notes {
    #[typed_route::post("form", sdk = false)]
    async fn form(&self, _admin: Admin, form: TypedForm<Note>) -> Redirect {
        Redirect::see_other(format!("/notes/{}", form.text.len()))
    }

    #[typed_route::post("text")]
    async fn text(&self, cookies: Cookies<Theme>, body: PlainBody) -> String {
        format!("{:?} {}", cookies.theme, body.0)
    }

    #[typed_route::put("bytes")]
    async fn bytes(&self, body: Bytes) -> Download {
        Download::new(body).media_type("image/png").inline("a.png")
    }

    #[typed_route::get("files/*path")]
    async fn file(&self, #[param] path: String) -> Reply<String> {
        Reply::new(path).cookie(SetCookie::new("seen", "1"))
    }

    #[typed_route::post("jobs")]
    async fn job(&self, body: TypedBody<Note>) -> Result<Outcome, ApiError> {
        Ok(match body.text.len() {
            0 => Outcome::Nothing,
            1 => Outcome::Done(body.into_inner()),
            _ => Outcome::Queued(body.into_inner()),
        })
    }

    #[typed_route::post("created")]
    async fn created(&self, body: TypedBody<Note>) -> Created<Note> {
        Created::new("/notes/1", body.into_inner())
    }

    #[typed_route::get("moved")]
    async fn moved(&self) -> Redirect<308> {
        Redirect::permanent("/notes/new")
    }

    #[typed_route::get("json")]
    async fn json(&self) -> Json<&'static str> {
        Json("a JSON string")
    }

    #[typed_route::get("lookup")]
    async fn lookup(&self) -> Lookup<Note> {
        Lookup::Pending
    }
}

fn main() {
    let app = App::builder().controller(Notes).build().unwrap();
    assert_eq!(app.routes().len(), 9);
    let lookup = &app.manifest().routes[8];
    let statuses: Vec<u16> = lookup.responses.iter().map(|answer| answer.status).collect();
    assert_eq!(statuses, [200, 202]);
    let _ = Lookup::Found(Note { text: String::new() });
}
