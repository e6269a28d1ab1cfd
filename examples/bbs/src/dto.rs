//! The BBS's data transfer objects, as they are on the wire. Each is
//! declared once: `#[dto]` gives serde, validation, the schema and random
//! values, with nestia's constraints as tags.

use chrono::{DateTime, Utc};
use framework::prelude::*;
use uuid::Uuid;

/// How an article's body is written.
#[dto]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ArticleFormat {
    /// Markdown.
    Md,
    /// HTML.
    Html,
    /// Plain text.
    Txt,
    /// AsciiDoc (since API version 2.0.0).
    Adoc,
}

impl ArticleFormat {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            ArticleFormat::Md => "md",
            ArticleFormat::Html => "html",
            ArticleFormat::Txt => "txt",
            ArticleFormat::Adoc => "adoc",
        }
    }

    /// The format with a stored name.
    pub fn from_stored(name: &str) -> Option<Self> {
        Some(match name {
            "md" => ArticleFormat::Md,
            "html" => ArticleFormat::Html,
            "txt" => ArticleFormat::Txt,
            "adoc" => ArticleFormat::Adoc,
            _ => return None,
        })
    }
}

/// A file attached to an article.
#[dto]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttachmentFile {
    /// File name without extension, or `null`.
    #[tags(min_length = 1, max_length = 255)]
    pub name: Option<String>,
    /// Extension, or `null`.
    #[tags(min_length = 1, max_length = 8)]
    pub extension: Option<String>,
    /// Where the file is: a URL of its own, or, for a file uploaded to this
    /// server, its path here (`/bbs/articles/free/<id>/files/<file>`).
    #[tags(format = "uri-reference")]
    pub url: String,
}

/// One version of an article's content.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct ArticleSnapshot {
    /// Snapshot id.
    pub id: Uuid,
    /// Title.
    #[tags(min_length = 3, max_length = 50)]
    pub title: String,
    /// Body.
    pub body: String,
    /// How the body is written.
    pub format: ArticleFormat,
    /// Attached files.
    #[tags(max_items = 100)]
    pub files: Vec<AttachmentFile>,
    /// When this version was written.
    pub created_at: DateTime<Utc>,
}

/// An article with its whole history.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct BbsArticle {
    /// Article id.
    pub id: Uuid,
    /// The section it was posted in.
    pub section: String,
    /// Who wrote it.
    pub writer: String,
    /// Every version, oldest first; the last is the current one.
    pub snapshots: Vec<ArticleSnapshot>,
    /// When it was first posted.
    pub created_at: DateTime<Utc>,
}

/// An article in a listing.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct ArticleSummary {
    /// Article id.
    pub id: Uuid,
    /// Who wrote it.
    pub writer: String,
    /// Current title.
    pub title: String,
    /// When it was first posted.
    pub created_at: DateTime<Utc>,
    /// When its current version was written.
    pub updated_at: DateTime<Utc>,
}

/// A new article.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct ArticleCreate {
    /// Who writes it.
    #[tags(min_length = 1, max_length = 50)]
    pub writer: String,
    /// Title.
    #[tags(min_length = 3, max_length = 50)]
    pub title: String,
    /// Body.
    pub body: String,
    /// How the body is written.
    pub format: ArticleFormat,
    /// Attached files.
    #[tags(max_items = 100)]
    pub files: Vec<AttachmentFile>,
    /// Needed later to update or erase the article; stored hashed.
    #[tags(format = "password", min_length = 1, max_length = 256)]
    pub password: String,
}

/// A new version of an article.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct ArticleUpdate {
    /// Title.
    #[tags(min_length = 3, max_length = 50)]
    pub title: String,
    /// Body.
    pub body: String,
    /// How the body is written.
    pub format: ArticleFormat,
    /// Attached files.
    #[tags(max_items = 100)]
    pub files: Vec<AttachmentFile>,
    /// The password given when the article was created.
    #[tags(format = "password", max_length = 256)]
    pub password: String,
}

/// Files to attach to an article, as a `multipart/form-data` form.
#[dto]
pub struct ArticleFilesUpload {
    /// The password given when the article was created.
    #[tags(format = "password", max_length = 256)]
    pub password: String,
    /// The files, each a part named `files`. The server's limits (size,
    /// count, media types; see the README) may be tighter than these.
    #[tags(min_items = 1, max_items = 20, items(max_size = 104_857_600))]
    pub files: Vec<File>,
}

/// Proof that the caller may erase an article.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct ArticleErase {
    /// The password given when the article was created.
    #[tags(format = "password", max_length = 256)]
    pub password: String,
}

/// Filters of a listing; each matches a part of the text, ignoring ASCII case.
#[dto]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArticleSearch {
    /// Part of the writer's name.
    #[optional]
    pub writer: Option<String>,
    /// Part of the current title.
    #[optional]
    pub title: Option<String>,
    /// Part of the current body.
    #[optional]
    pub body: Option<String>,
}

/// A sort key of a listing: `+` ascending, `-` descending.
#[dto]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArticleSort {
    /// Writer, A to Z.
    #[serde(rename = "+writer")]
    WriterAsc,
    /// Writer, Z to A.
    #[serde(rename = "-writer")]
    WriterDesc,
    /// Title, A to Z.
    #[serde(rename = "+title")]
    TitleAsc,
    /// Title, Z to A.
    #[serde(rename = "-title")]
    TitleDesc,
    /// Oldest first.
    #[serde(rename = "+created_at")]
    CreatedAtAsc,
    /// Newest first.
    #[serde(rename = "-created_at")]
    CreatedAtDesc,
    /// Least recently updated first.
    #[serde(rename = "+updated_at")]
    UpdatedAtAsc,
    /// Most recently updated first.
    #[serde(rename = "-updated_at")]
    UpdatedAtDesc,
}

/// Which page of which articles to list.
#[dto]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArticleIndexRequest {
    /// Page number, from 1 (default 1).
    #[optional]
    #[tags(minimum = 1, default = 1)]
    pub page: Option<u32>,
    /// Articles per page, 1 to 1000 (default 100).
    #[optional]
    #[tags(minimum = 1, maximum = 1000, default = 100)]
    pub limit: Option<u32>,
    /// Filters.
    #[optional]
    pub search: Option<ArticleSearch>,
    /// Sort keys, most significant first (default newest first).
    #[optional]
    #[tags(unique_items)]
    pub sort: Option<Vec<ArticleSort>>,
}

/// Where a page is in a listing.
#[dto]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pagination {
    /// This page's number, from 1.
    pub current: u32,
    /// Articles per page.
    pub limit: u32,
    /// Articles matching in all.
    pub records: u64,
    /// Pages in all.
    pub pages: u64,
}

/// One page of a listing.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Page<T> {
    /// The items of this page.
    pub data: Vec<T>,
    /// Where this page is.
    pub pagination: Pagination,
}

/// What happened to an article of a section, as the section's live feed
/// tells it (`GET /bbs/articles/:section/events`). The event's name is its
/// `type`.
#[dto]
#[derive(Clone, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ArticleEvent {
    /// An article was posted.
    Created {
        /// The article, as a listing shows it.
        article: ArticleSummary,
    },
    /// An article got a new version.
    Updated {
        /// The article, as a listing shows it now.
        article: ArticleSummary,
    },
    /// An article was erased with its history.
    Erased {
        /// The erased article's id.
        id: Uuid,
    },
    /// The events after the client's last one are not all kept any more
    /// (or the id is not one of this board's): reload the listing, then
    /// follow from this event's id.
    Reset,
}

impl ArticleEvent {
    /// The event's name on the wire: its `type`.
    pub fn name(&self) -> &'static str {
        match self {
            ArticleEvent::Created { .. } => "created",
            ArticleEvent::Updated { .. } => "updated",
            ArticleEvent::Erased { .. } => "erased",
            ArticleEvent::Reset => "reset",
        }
    }
}

/// Where a section's live feed starts.
#[dto]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArticleEventsQuery {
    /// Follow from after this event id, replaying what came since, as a
    /// reconnecting client's `Last-Event-ID` does (which wins when both
    /// are sent). Without either, the feed starts with the next event.
    #[optional]
    pub after: Option<u64>,
}
