//! A fixture app with its own error contract: every error, the framework's
//! refusals and the handlers' own, is answered with `FieldErrors`, refused
//! input with `422`. Its SDKs type that body instead of the problem
//! document.

use std::collections::BTreeMap;

use framework::{
    ErrorContract,
    prelude::*,
    refusal::{Refusal, RefusalKind},
};

/// `{"errors": {"title": ["must be string & MinLength<3>"]}}`: what went
/// wrong, by field.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct FieldErrors {
    /// The messages of each field; `body` for the request as a whole.
    pub errors: BTreeMap<String, Vec<String>>,
}

/// Refused input is `422`; everything else keeps its status.
pub struct Contract;

impl ErrorContract for Contract {
    type Body = FieldErrors;

    fn status(&self, status: http::StatusCode, refusal: Option<&Refusal>) -> http::StatusCode {
        match refusal {
            Some(refusal)
                if refusal.kind == RefusalKind::Validation || refusal.code == "invalid_request" =>
            {
                http::StatusCode::UNPROCESSABLE_ENTITY
            }
            _ => status,
        }
    }

    fn body(&self, err: &ApiError) -> FieldErrors {
        let mut errors: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for issue in err.issues() {
            let field = issue
                .path
                .split_once('.')
                .map_or("body", |(_, field)| field)
                .to_owned();
            errors
                .entry(field)
                .or_default()
                .push(format!("must be {}", issue.expected));
        }
        if errors.is_empty() {
            errors.insert(err.code().to_owned(), vec![err.message().to_owned()]);
        }
        FieldErrors { errors }
    }
}

/// An article to write.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct NewArticle {
    /// Its title.
    #[tags(min_length = 3)]
    pub title: String,
    /// Its text.
    #[tags(max_length = 10)]
    pub body: String,
}

/// An article.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Article {
    /// Its id.
    pub id: u32,
    /// Its title.
    pub title: String,
}

/// Where an article went.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Moved {
    /// Its new id.
    pub id: u32,
}

/// An article, or where it went: two statuses, two bodies.
#[derive(IntoResponse)]
pub enum Found {
    /// Here it is.
    Here(Article),
    /// Moved for good.
    #[status(202)]
    Moved(Moved),
}

pub struct Articles;

#[controller("articles")]
impl Articles {
    /// Writes an article.
    #[typed_route::post("")]
    async fn create(&self, body: TypedBody<NewArticle>) -> Article {
        Article {
            id: 1,
            title: body.into_inner().title,
        }
    }

    /// Reads an article: `1` is here, `2` moved, any other is not found.
    #[typed_route::get(":id", errors(404 = "No such article."))]
    async fn at(&self, #[param] id: u32) -> Result<Found, ApiError> {
        match id {
            1 => Ok(Found::Here(Article {
                id,
                title: "one".to_owned(),
            })),
            2 => Ok(Found::Moved(Moved { id: 1 })),
            _ => Err(ApiError::not_found(format!("no article {id}"))),
        }
    }
}

pub fn app() -> App {
    App::builder()
        .controller(Articles)
        .errors(Contract)
        .build()
        .unwrap()
}
