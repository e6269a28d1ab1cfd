//! `/bbs/moderation/articles/:section`: what moderators may do to articles.

use framework::prelude::*;
use uuid::Uuid;

use crate::{
    attachments::Attachments, controller::article_not_found, moderator::Moderator,
    store::ArticleStore,
};

/// Moderation of the bulletin board: needs the moderators' bearer token.
pub struct BbsModerationController {
    store: ArticleStore,
    attachments: Attachments,
}

impl BbsModerationController {
    /// A controller over `store`.
    pub fn new(store: ArticleStore) -> Self {
        BbsModerationController {
            store,
            attachments: Attachments::unconfigured(),
        }
    }

    /// Removes an erased article's uploaded files from `attachments`.
    pub fn with_attachments(mut self, attachments: Attachments) -> Self {
        self.attachments = attachments;
        self
    }
}

#[controller("bbs/moderation/articles/:section")]
impl BbsModerationController {
    /// Erase an article and its history as a moderator, without the
    /// writer's password.
    ///
    /// Needs `Authorization: Bearer <token>` with the server's
    /// `BBS_MODERATOR_TOKEN`; while the server has none, this route answers
    /// `404` as if it did not exist.
    #[typed_route::delete(
        ":id",
        errors(
            404 = "No such article in this section, or moderation is off.",
            503 = "The article store is unavailable."
        )
    )]
    async fn erase(
        &self,
        #[param] section: String,
        #[param] id: Uuid,
        _moderator: Moderator,
    ) -> Result<(), ApiError> {
        if self.store.erase(&section, id).await? {
            self.attachments.remove_article(id).await;
            tracing::info!(%section, %id, "a moderator erased an article");
            Ok(())
        } else {
            Err(article_not_found(&section, id))
        }
    }
}
