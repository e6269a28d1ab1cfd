//! `/bbs/articles/:section`: the articles of a section.

use framework::{
    Shutdown,
    prelude::*,
    sse::{LastEventId, Sse},
};
use http::StatusCode;
use uuid::Uuid;

use crate::{
    attachments::Attachments,
    dto::{
        ArticleCreate, ArticleErase, ArticleEvent, ArticleEventsQuery, ArticleIndexRequest,
        ArticleSnapshot, ArticleSummary, ArticleUpdate, BbsArticle, Page,
    },
    feed, password,
    store::{ArticleStore, StoreError},
    v1,
};

/// Articles per page unless asked.
const DEFAULT_LIMIT: u32 = 100;

/// The articles of the bulletin board, by section.
pub struct BbsArticlesController {
    store: ArticleStore,
    attachments: Attachments,
}

impl BbsArticlesController {
    /// A controller over `store`.
    pub fn new(store: ArticleStore) -> Self {
        BbsArticlesController {
            store,
            attachments: Attachments::unconfigured(),
        }
    }

    /// Removes an erased article's uploaded files from `attachments`.
    pub fn with_attachments(mut self, attachments: Attachments) -> Self {
        self.attachments = attachments;
        self
    }

    /// Refuses the request unless `password` matches the article's.
    async fn check_password(
        &self,
        section: &str,
        id: Uuid,
        password: String,
    ) -> Result<(), ApiError> {
        if password_matches(&self.store, section, id, password).await? {
            Ok(())
        } else {
            Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "wrong_password",
                "the password does not match the article's",
            ))
        }
    }
}

/// Whether `password` is the one the article was posted with; `404` when
/// there is no such article.
pub(crate) async fn password_matches(
    store: &ArticleStore,
    section: &str,
    id: Uuid,
    password: String,
) -> Result<bool, ApiError> {
    let hash = store
        .password_hash(section, id)
        .await?
        .ok_or_else(|| article_not_found(section, id))?;
    password::verify(password, hash).await
}

pub(crate) fn article_not_found(section: &str, id: Uuid) -> ApiError {
    ApiError::not_found(format!("no article {id} in section `{section}`"))
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        if err.is_transient() {
            tracing::warn!(%err, "store unavailable");
            ApiError::unavailable("the article store is unavailable; retry later")
        } else {
            ApiError::internal(err)
        }
    }
}

#[controller("bbs/articles/:section")]
impl BbsArticlesController {
    /// List a section's articles, a page at a time.
    ///
    /// Filters match part of the writer, title or body, ignoring ASCII case;
    /// sort keys are applied in order, newest first by default.
    #[typed_route::patch("", errors(503 = "The article store is unavailable."))]
    async fn index(
        &self,
        #[param] section: String,
        input: TypedBody<ArticleIndexRequest>,
    ) -> Result<Page<ArticleSummary>, ApiError> {
        let request = input.into_inner();
        // `page >= 1` and `1 <= limit <= 1000` are declared on the DTO and
        // checked before this runs.
        let page = request.page.unwrap_or(1);
        let limit = request.limit.unwrap_or(DEFAULT_LIMIT);
        Ok(self.store.index(&section, &request, page, limit).await?)
    }

    /// Follow a section live: an event when one of its articles is posted,
    /// updated or erased.
    ///
    /// Each event's id is its number in the board's feed. A client that
    /// reconnects with `Last-Event-ID` (or asks `?after=`) first gets every
    /// event of the section it missed, in order, from any replica, then
    /// follows live; one further behind than the kept events gets a `reset`
    /// (reload, then follow from its id). The stream ends when the server
    /// shuts down or the client falls too far behind: reconnect with
    /// `Last-Event-ID`.
    #[typed_route::get(
        "events",
        errors(
            400 = "The query or the `Last-Event-ID` header is not an event id.",
            503 = "The article store is unavailable."
        )
    )]
    async fn follow(
        &self,
        #[param] section: String,
        query: TypedQuery<ArticleEventsQuery>,
        last: LastEventId,
        shutdown: Shutdown,
    ) -> Result<Sse<ArticleEvent>, ApiError> {
        let after = match last.get().filter(|id| !id.is_empty()) {
            Some(id) => Some(id.parse::<u64>().map_err(|_| {
                ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "invalid_last_event_id",
                    format!("header `Last-Event-ID`: {id:?} is not an event id of this feed"),
                )
            })?),
            None => query.into_inner().after,
        };
        let events = feed::follow(&self.store, section, after).await?;
        Ok(Sse::new(events).until(&shutdown))
    }

    /// Read an article with its whole history.
    #[typed_route::get(
        ":id",
        errors(404 = "No such article in this section.", 503 = "The article store is unavailable."),
        versions = "2.0.0"..
    )]
    #[typed_route::converted(versions = .."2.0.0", answer = v1::BbsArticle)]
    async fn at(
        &self,
        #[param] section: String,
        #[param] id: Uuid,
    ) -> Result<BbsArticle, ApiError> {
        self.store
            .find(&section, id)
            .await?
            .ok_or_else(|| article_not_found(&section, id))
    }

    /// Post a new article.
    ///
    /// The password is stored hashed and is needed to update or erase it.
    #[typed_route::post(
        "",
        errors(503 = "The article store is unavailable."),
        versions = "2.0.0"..
    )]
    #[typed_route::converted(
        versions = .."2.0.0",
        input = TypedBody<v1::ArticleCreate>,
        answer = v1::BbsArticle
    )]
    async fn create(
        &self,
        #[param] section: String,
        input: TypedBody<ArticleCreate>,
    ) -> Result<BbsArticle, ApiError> {
        let mut input = input.into_inner();
        let hash = password::hash(std::mem::take(&mut input.password)).await?;
        Ok(self.store.create(&section, input, hash).await?)
    }

    /// Update an article; needs the writer's password.
    ///
    /// History is never rewritten: the new content is appended as a snapshot.
    #[typed_route::put(
        ":id",
        errors(
            403 = "The password does not match the article's.",
            404 = "No such article in this section.",
            503 = "The article store is unavailable."
        ),
        versions = "2.0.0"..
    )]
    #[typed_route::converted(
        versions = .."2.0.0",
        input = TypedBody<v1::ArticleUpdate>,
        answer = v1::ArticleSnapshot
    )]
    async fn update(
        &self,
        #[param] section: String,
        #[param] id: Uuid,
        input: TypedBody<ArticleUpdate>,
    ) -> Result<ArticleSnapshot, ApiError> {
        let mut input = input.into_inner();
        self.check_password(&section, id, std::mem::take(&mut input.password))
            .await?;
        self.store
            .append_snapshot(&section, id, input)
            .await?
            .ok_or_else(|| article_not_found(&section, id))
    }

    /// Erase an article and its history; needs the writer's password.
    #[typed_route::delete(
        ":id",
        errors(
            403 = "The password does not match the article's.",
            404 = "No such article in this section.",
            503 = "The article store is unavailable."
        )
    )]
    async fn erase(
        &self,
        #[param] section: String,
        #[param] id: Uuid,
        input: TypedBody<ArticleErase>,
    ) -> Result<(), ApiError> {
        self.check_password(&section, id, input.into_inner().password)
            .await?;
        if self.store.erase(&section, id).await? {
            self.attachments.remove_article(id).await;
            Ok(())
        } else {
            Err(article_not_found(&section, id))
        }
    }
}
