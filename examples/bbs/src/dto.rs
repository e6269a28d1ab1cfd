//! The BBS's data transfer objects, as they are on the wire.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// How an article's body is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ArticleFormat {
    /// Markdown.
    Md,
    /// HTML.
    Html,
    /// Plain text.
    Txt,
}

impl ArticleFormat {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            ArticleFormat::Md => "md",
            ArticleFormat::Html => "html",
            ArticleFormat::Txt => "txt",
        }
    }

    /// The format with a stored name.
    pub fn from_stored(name: &str) -> Option<Self> {
        Some(match name {
            "md" => ArticleFormat::Md,
            "html" => ArticleFormat::Html,
            "txt" => ArticleFormat::Txt,
            _ => return None,
        })
    }
}

/// A file attached to an article.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttachmentFile {
    /// File name without extension, or `null`.
    pub name: Option<String>,
    /// Extension, or `null`.
    pub extension: Option<String>,
    /// Where the file is.
    pub url: String,
}

/// One version of an article's content.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArticleSnapshot {
    /// Snapshot id.
    pub id: Uuid,
    /// Title.
    pub title: String,
    /// Body.
    pub body: String,
    /// How the body is written.
    pub format: ArticleFormat,
    /// Attached files.
    pub files: Vec<AttachmentFile>,
    /// When this version was written.
    pub created_at: DateTime<Utc>,
}

/// An article with its whole history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArticleCreate {
    /// Who writes it.
    pub writer: String,
    /// Title.
    pub title: String,
    /// Body.
    pub body: String,
    /// How the body is written.
    pub format: ArticleFormat,
    /// Attached files.
    pub files: Vec<AttachmentFile>,
    /// Needed later to update or erase the article; stored hashed.
    pub password: String,
}

/// A new version of an article.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArticleUpdate {
    /// Title.
    pub title: String,
    /// Body.
    pub body: String,
    /// How the body is written.
    pub format: ArticleFormat,
    /// Attached files.
    pub files: Vec<AttachmentFile>,
    /// The password given when the article was created.
    pub password: String,
}

/// Proof that the caller may erase an article.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArticleErase {
    /// The password given when the article was created.
    pub password: String,
}

/// Filters of a listing; each matches a part of the text, ignoring ASCII case.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ArticleSearch {
    /// Part of the writer's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub writer: Option<String>,
    /// Part of the current title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Part of the current body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
}

/// A sort key of a listing: `+` ascending, `-` descending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ArticleIndexRequest {
    /// Page number, from 1 (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<u32>,
    /// Articles per page, 1 to 1000 (default 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    /// Filters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<ArticleSearch>,
    /// Sort keys, most significant first (default newest first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort: Option<Vec<ArticleSort>>,
}

/// Where a page is in a listing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Page<T> {
    /// The items of this page.
    pub data: Vec<T>,
    /// Where this page is.
    pub pagination: Pagination,
}
