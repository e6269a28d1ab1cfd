//! A fixture app that states its own contract: every error, the
//! framework's refusals and the handlers' own, is answered with
//! `FieldErrors`, refused input with `422`; its readers sign in with
//! `Authorization: Token <jwt>`, required to favorite an article and
//! optional on the feed, which greets a signed-in reader by name. Its SDKs
//! type that body instead of the problem document and send the token.

use std::collections::BTreeMap;

use framework::{
    AuthScheme, Authorization, ErrorContract, ErrorMeta, InputMeta, RequestContext, SecurityMeta,
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

    fn description(&self, refusal: &Refusal) -> String {
        match refusal.kind {
            RefusalKind::Validation => {
                "An input is invalid; `errors` lists each field's problems.".to_owned()
            }
            _ => refusal.description.to_owned(),
        }
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

/// `Authorization: Token <jwt>`.
pub struct ApiToken;

impl AuthScheme for ApiToken {
    const SECURITY: &'static SecurityMeta =
        &SecurityMeta::authorization("api_token", "Token", "The JWT issued at sign-in.");
}

/// The reader behind a token: `jwt-kim` is kim's, any other is refused.
pub struct Reader(String);

impl FromRequestParts for Reader {
    const INPUT: InputMeta = <Authorization<ApiToken> as FromRequestParts>::INPUT
        .with_errors(&[ErrorMeta::new(401, "No valid token.")]);

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        let token = Authorization::<ApiToken>::from_request_parts(cx).await?;
        match token.credentials() {
            "jwt-kim" => Ok(Reader("kim".to_owned())),
            _ => Err(Authorization::<ApiToken>::refused("the token is not known")),
        }
    }
}

/// Whom the feed is for.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Feed {
    /// The signed-in reader, absent for anyone else.
    pub reader: Option<String>,
    /// The articles to read.
    pub articles: Vec<Article>,
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

    /// The feed: anyone reads it; a signed-in reader is greeted by name.
    #[typed_route::get("feed", operation_id = "readFeed")]
    async fn feed(&self, reader: Option<Reader>) -> Feed {
        Feed {
            reader: reader.map(|Reader(name)| name),
            articles: vec![Article {
                id: 1,
                title: "one".to_owned(),
            }],
        }
    }

    /// Favorites an article, for a signed-in reader.
    #[typed_route::post(":id/favorite")]
    async fn favorite(&self, reader: Reader, #[param] id: u32) -> Article {
        Article {
            id,
            title: format!("favorited by {}", reader.0),
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
