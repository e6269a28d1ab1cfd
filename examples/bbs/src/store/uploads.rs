//! What the store keeps of files uploaded to articles: who they belong to,
//! their name, media type and size. The bytes are in the attachments
//! directory ([`crate::attachments`]).

use uuid::Uuid;

use super::{
    Article, ArticleSnapshot, ArticleStore, AttachmentFile, StoreError,
    backend::{Columns, on_pool},
    file_from_row, now, record_event, settle, snapshot_from_row, stamp,
};

/// A file uploaded to an article.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Upload {
    /// Its id: its name in the attachments directory and its URL.
    pub id: Uuid,
    /// The file name the client gave.
    pub name: String,
    /// The media type the client gave.
    pub media_type: String,
    /// Its size in bytes.
    pub size: u64,
    /// How the article's snapshots list it.
    pub listed: AttachmentFile,
}

/// What attaching files did.
#[derive(Debug)]
pub enum Attached {
    /// The new snapshot, listing the files.
    Snapshot(ArticleSnapshot),
    /// Nothing: the article is not (or no longer) in the section.
    NoArticle,
    /// Nothing: the snapshot would list more than the limit; the article
    /// lists this many files now.
    TooMany(usize),
}

impl ArticleStore {
    /// Records `uploads` and appends a snapshot of the article's current
    /// content listing them after its current files, in one transaction,
    /// unless it would list more than `limit` files. The new snapshot is an
    /// update of the article: the live feed tells its followers.
    pub async fn attach(
        &self,
        section: &str,
        id: Uuid,
        uploads: &[Upload],
        limit: usize,
    ) -> Result<Attached, StoreError> {
        let lock = format!(
            "SELECT writer, created_at FROM articles WHERE id = $1 AND section = $2{}",
            self.pool.dialect().lock_article
        );
        let created_at = now();
        let snapshot_id = Uuid::new_v4();
        let attached = on_pool!(self, |pool| write!(self, pool, |tx| async {
            let Some(row) = sqlx::query(&lock)
                .bind(id.to_string())
                .bind(section)
                .fetch_optional(&mut *tx)
                .await?
            else {
                return Ok::<_, StoreError>(Attached::NoArticle);
            };
            let article = Article::read(&row)?;
            let current = sqlx::query(
                "SELECT id, title, body, format, created_at, seq FROM article_snapshots \
                 WHERE article_id = $1 ORDER BY seq DESC LIMIT 1",
            )
            .bind(id.to_string())
            .fetch_one(&mut *tx)
            .await?;
            let seq = current.integer("seq")? + 1;
            let mut snapshot = snapshot_from_row(&current)?;
            let files = sqlx::query(
                "SELECT snapshot_id, name, extension, url FROM attachment_files \
                 WHERE snapshot_id = $1 ORDER BY seq",
            )
            .bind(snapshot.id.to_string())
            .fetch_all(&mut *tx)
            .await?;
            for row in &files {
                snapshot.files.push(file_from_row(row)?.1);
            }
            if snapshot.files.len() + uploads.len() > limit {
                return Ok(Attached::TooMany(snapshot.files.len()));
            }
            snapshot
                .files
                .extend(uploads.iter().map(|upload| upload.listed.clone()));
            snapshot.id = snapshot_id;
            snapshot.created_at = created_at;
            for upload in uploads {
                sqlx::query(
                    "INSERT INTO attachment_uploads (id, article_id, name, media_type, size, created_at) \
                     VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(upload.id.to_string())
                .bind(id.to_string())
                .bind(&upload.name)
                .bind(&upload.media_type)
                .bind(i64::try_from(upload.size).unwrap_or(i64::MAX))
                .bind(stamp(created_at))
                .execute(&mut *tx)
                .await?;
            }
            insert_snapshot!(tx, id, seq, &snapshot)?;
            let event = article.updated(id, &snapshot);
            record_event!(self, tx, section, id, &event)?;
            Ok(Attached::Snapshot(snapshot))
        }))?;
        if matches!(attached, Attached::Snapshot(_)) {
            self.feed.wake();
        }
        Ok(attached)
    }

    /// The name and media type of the file `file` uploaded to the article
    /// `id` of `section`.
    pub async fn upload(
        &self,
        section: &str,
        id: Uuid,
        file: Uuid,
    ) -> Result<Option<(String, String)>, StoreError> {
        on_pool!(self, |pool| {
            let row = sqlx::query(
                "SELECT u.name, u.media_type FROM attachment_uploads u \
                 JOIN articles a ON a.id = u.article_id \
                 WHERE u.id = $1 AND u.article_id = $2 AND a.section = $3",
            )
            .bind(file.to_string())
            .bind(id.to_string())
            .bind(section)
            .fetch_optional(pool)
            .await?;
            row.map(|row| Ok((row.text("name")?, row.text("media_type")?)))
                .transpose()
        })
    }
}
