//! Articles in SQLite, through sqlx. Writes are transactions
//! (`BEGIN IMMEDIATE`) with `synchronous = FULL`, so an acknowledged write
//! survives a crash of the process or of the machine.

use std::{str::FromStr, time::Duration};

use chrono::{DateTime, SecondsFormat, Utc};
use sqlx::{
    Connection, Row, SqlitePool,
    sqlite::{
        SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
    },
};
use uuid::Uuid;

use crate::dto::{
    ArticleCreate, ArticleFormat, ArticleIndexRequest, ArticleSnapshot, ArticleSort,
    ArticleSummary, ArticleUpdate, AttachmentFile, BbsArticle, Page, Pagination,
};

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed a statement.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// The schema could not be brought up to date.
    #[error("migrating the database: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored value is not what the schema promises.
    #[error("corrupt row: {0}")]
    Corrupt(String),
}

impl StoreError {
    /// Whether SQLite refused to write a read-only database (`SQLITE_READONLY`).
    pub fn is_read_only(&self) -> bool {
        self.sqlite_code() == Some(8)
    }

    /// SQLite's primary result code, if the database answered with one.
    fn sqlite_code(&self) -> Option<i32> {
        match self {
            StoreError::Database(sqlx::Error::Database(db)) => db
                .code()
                .and_then(|code| code.parse::<i32>().ok())
                .map(|code| code & 0xff),
            _ => None,
        }
    }

    /// Whether the failure is the environment's (disk full, read-only file,
    /// database locked), so retrying later may succeed.
    pub fn is_transient(&self) -> bool {
        match self {
            StoreError::Database(sqlx::Error::Database(db)) => {
                // SQLite primary result codes: BUSY 5, LOCKED 6, READONLY 8,
                // IOERR 10, FULL 13, CANTOPEN 14.
                let primary = db
                    .code()
                    .and_then(|code| code.parse::<i32>().ok())
                    .map(|code| code & 0xff);
                matches!(primary, Some(5 | 6 | 8 | 10 | 13 | 14))
            }
            StoreError::Database(sqlx::Error::PoolTimedOut | sqlx::Error::Io(_)) => true,
            _ => false,
        }
    }
}

/// Connections in the pool.
const MAX_CONNECTIONS: u32 = 8;

/// Runs `$work` (an async block using the transaction `$tx`) in a
/// `BEGIN IMMEDIATE` transaction on a pooled connection and commits it. A
/// connection that hit a transient fault (a full disk, a read-only file, an
/// I/O error) is closed rather than reused: SQLite keeps answering "attempt
/// to write a readonly database" on a connection that met a read-only file,
/// even after the fault has cleared. Such an answer is retried on another
/// connection, so writes work again as soon as the fault clears.
macro_rules! write {
    ($store:expr, |$tx:ident| $work:expr) => {{
        let mut attempt = 0;
        loop {
            attempt += 1;
            let mut conn = $store.pool.acquire().await?;
            let result: Result<_, StoreError> = async {
                let mut $tx = sqlx::Connection::begin_with(&mut *conn, "BEGIN IMMEDIATE").await?;
                let value = $work.await?;
                $tx.commit().await?;
                Ok(value)
            }
            .await;
            if let Some(done) = settle(&mut conn, result, attempt) {
                break done;
            }
        }
    }};
}

/// The outcome of a write on `conn`, or `None` to try another connection.
fn settle<T>(
    conn: &mut sqlx::pool::PoolConnection<sqlx::Sqlite>,
    result: Result<T, StoreError>,
    attempt: u32,
) -> Option<Result<T, StoreError>> {
    match result {
        Err(err) if err.is_transient() => {
            conn.close_on_drop();
            if err.is_read_only() && attempt < MAX_CONNECTIONS {
                None
            } else {
                Some(Err(err))
            }
        }
        other => Some(other),
    }
}

/// A section that has articles, as the sections page lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionSummary {
    /// The section's name.
    pub name: String,
    /// How many articles it has.
    pub articles: u64,
    /// When its newest article was posted.
    pub latest: DateTime<Utc>,
}

/// The articles' store.
#[derive(Clone, Debug)]
pub struct ArticleStore {
    pool: SqlitePool,
}

/// Timestamps are stored in one fixed-width UTC format, so that text order
/// is time order.
fn stamp(time: DateTime<Utc>) -> String {
    time.to_rfc3339_opts(SecondsFormat::Micros, true)
}

fn now() -> DateTime<Utc> {
    // Stored with microseconds; answer with exactly what is stored.
    let now = Utc::now();
    DateTime::parse_from_rfc3339(&stamp(now)).map_or(now, |t| t.with_timezone(&Utc))
}

fn parse_time(text: &str) -> Result<DateTime<Utc>, StoreError> {
    DateTime::parse_from_rfc3339(text)
        .map(|time| time.with_timezone(&Utc))
        .map_err(|err| StoreError::Corrupt(format!("timestamp {text:?}: {err}")))
}

fn parse_uuid(text: &str) -> Result<Uuid, StoreError> {
    Uuid::parse_str(text).map_err(|err| StoreError::Corrupt(format!("uuid {text:?}: {err}")))
}

/// Escapes `LIKE` wildcards so a search matches its text literally.
fn contains_pattern(text: &str) -> String {
    let mut pattern = String::with_capacity(text.len() + 2);
    pattern.push('%');
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

fn order_by(sort: &[ArticleSort]) -> String {
    let mut keys: Vec<&'static str> = sort
        .iter()
        .map(|key| match key {
            ArticleSort::WriterAsc => "a.writer ASC",
            ArticleSort::WriterDesc => "a.writer DESC",
            ArticleSort::TitleAsc => "s.title ASC",
            ArticleSort::TitleDesc => "s.title DESC",
            ArticleSort::CreatedAtAsc => "a.created_at ASC",
            ArticleSort::CreatedAtDesc => "a.created_at DESC",
            ArticleSort::UpdatedAtAsc => "s.created_at ASC",
            ArticleSort::UpdatedAtDesc => "s.created_at DESC",
        })
        .collect();
    if keys.is_empty() {
        keys.push("a.created_at DESC");
    }
    // A total order, so that pages never overlap.
    keys.push("a.id ASC");
    keys.join(", ")
}

/// The newest snapshot of each article.
const CURRENT_SNAPSHOT: &str =
    "s.seq = (SELECT MAX(seq) FROM article_snapshots WHERE article_id = a.id)";

impl ArticleStore {
    /// Opens (creating if needed) the database at `url`, e.g.
    /// `sqlite://bbs.db`, and brings its schema up to date.
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));
        let pool = SqlitePoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(Duration::from_secs(10))
            .after_release(|conn, _| {
                // A failed write (a full disk, say) can end SQLite's
                // transaction while sqlx still counts it open; reusing that
                // connection would fail every later `BEGIN`. Close it.
                Box::pin(async move { Ok(!conn.is_in_transaction()) })
            })
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        Ok(ArticleStore { pool })
    }

    /// A store that connects on first use and migrates nothing: for
    /// describing the app (`bbs openapi`) without touching the database.
    pub fn lazy(url: &str) -> Result<Self, StoreError> {
        let options = SqliteConnectOptions::from_str(url)?;
        Ok(ArticleStore {
            pool: SqlitePoolOptions::new()
                .max_connections(1)
                .connect_lazy_with(options),
        })
    }

    /// Closes the pool, waiting for connections to be returned.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Checks that the database answers (`SELECT 1` on a pooled
    /// connection): the readiness check.
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Connections the pool has open, in use or idle.
    pub fn connections(&self) -> u32 {
        self.pool.size()
    }

    /// Connections the pool has open and idle.
    pub fn idle_connections(&self) -> usize {
        self.pool.num_idle()
    }

    /// Stores a new article with its first snapshot.
    pub async fn create(
        &self,
        section: &str,
        input: ArticleCreate,
        password_hash: String,
    ) -> Result<BbsArticle, StoreError> {
        let created_at = now();
        let article_id = Uuid::new_v4();
        let snapshot = ArticleSnapshot {
            id: Uuid::new_v4(),
            title: input.title,
            body: input.body,
            format: input.format,
            files: input.files,
            created_at,
        };
        write!(self, |tx| async {
            sqlx::query(
                "INSERT INTO articles (id, section, writer, password_hash, created_at) VALUES (?, ?, ?, ?, ?)",
            )
            .bind(article_id.to_string())
            .bind(section)
            .bind(&input.writer)
            .bind(&password_hash)
            .bind(stamp(created_at))
            .execute(&mut *tx)
            .await?;
            insert_snapshot(&mut tx, article_id, 0, &snapshot).await
        })?;
        Ok(BbsArticle {
            id: article_id,
            section: section.to_owned(),
            writer: input.writer,
            snapshots: vec![snapshot],
            created_at,
        })
    }

    /// The article with its whole history, if it is in `section`.
    pub async fn find(&self, section: &str, id: Uuid) -> Result<Option<BbsArticle>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let Some(row) =
            sqlx::query("SELECT writer, created_at FROM articles WHERE id = ? AND section = ?")
                .bind(id.to_string())
                .bind(section)
                .fetch_optional(&mut *tx)
                .await?
        else {
            tx.commit().await?;
            return Ok(None);
        };
        let snapshot_rows = sqlx::query(
            "SELECT id, title, body, format, created_at FROM article_snapshots WHERE article_id = ? ORDER BY seq",
        )
        .bind(id.to_string())
        .fetch_all(&mut *tx)
        .await?;
        let file_rows = sqlx::query(
            "SELECT f.snapshot_id, f.name, f.extension, f.url FROM attachment_files f \
             JOIN article_snapshots s ON s.id = f.snapshot_id \
             WHERE s.article_id = ? ORDER BY s.seq, f.seq",
        )
        .bind(id.to_string())
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;

        let mut snapshots = snapshot_rows
            .iter()
            .map(snapshot_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        for file in &file_rows {
            let snapshot_id: String = file.try_get("snapshot_id")?;
            let snapshot_id = parse_uuid(&snapshot_id)?;
            if let Some(snapshot) = snapshots
                .iter_mut()
                .find(|snapshot| snapshot.id == snapshot_id)
            {
                snapshot.files.push(AttachmentFile {
                    name: file.try_get("name")?,
                    extension: file.try_get("extension")?,
                    url: file.try_get("url")?,
                });
            }
        }
        let created_at: String = row.try_get("created_at")?;
        Ok(Some(BbsArticle {
            id,
            section: section.to_owned(),
            writer: row.try_get("writer")?,
            snapshots,
            created_at: parse_time(&created_at)?,
        }))
    }

    /// The stored password hash of the article, if it is in `section`.
    pub async fn password_hash(
        &self,
        section: &str,
        id: Uuid,
    ) -> Result<Option<String>, StoreError> {
        let hash =
            sqlx::query_scalar("SELECT password_hash FROM articles WHERE id = ? AND section = ?")
                .bind(id.to_string())
                .bind(section)
                .fetch_optional(&self.pool)
                .await?;
        Ok(hash)
    }

    /// Appends a snapshot; `None` when the article is not (or no longer) in
    /// `section`.
    pub async fn append_snapshot(
        &self,
        section: &str,
        id: Uuid,
        input: ArticleUpdate,
    ) -> Result<Option<ArticleSnapshot>, StoreError> {
        let snapshot = ArticleSnapshot {
            id: Uuid::new_v4(),
            title: input.title,
            body: input.body,
            format: input.format,
            files: input.files,
            created_at: now(),
        };
        let appended = write!(self, |tx| async {
            let next_seq: Option<i64> = sqlx::query_scalar(
                "SELECT (SELECT MAX(seq) FROM article_snapshots WHERE article_id = a.id) + 1 \
                     FROM articles a WHERE a.id = ? AND a.section = ?",
            )
            .bind(id.to_string())
            .bind(section)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(next_seq) = next_seq else {
                return Ok::<_, StoreError>(false);
            };
            insert_snapshot(&mut tx, id, next_seq, &snapshot).await?;
            Ok(true)
        })?;
        Ok(appended.then_some(snapshot))
    }

    /// Erases the article and its history; `false` when it was not there.
    pub async fn erase(&self, section: &str, id: Uuid) -> Result<bool, StoreError> {
        write!(self, |tx| async {
            let done = sqlx::query("DELETE FROM articles WHERE id = ? AND section = ?")
                .bind(id.to_string())
                .bind(section)
                .execute(&mut *tx)
                .await?;
            Ok::<_, StoreError>(done.rows_affected() > 0)
        })
    }

    /// Every section that has articles, by name.
    pub async fn sections(&self) -> Result<Vec<SectionSummary>, StoreError> {
        let rows = sqlx::query(
            "SELECT section, COUNT(*) AS articles, MAX(created_at) AS latest \
             FROM articles GROUP BY section ORDER BY section",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let articles: i64 = row.try_get("articles")?;
                let latest: String = row.try_get("latest")?;
                Ok(SectionSummary {
                    name: row.try_get("section")?,
                    articles: u64::try_from(articles).unwrap_or_default(),
                    latest: parse_time(&latest)?,
                })
            })
            .collect()
    }

    /// One page of the section's articles.
    pub async fn index(
        &self,
        section: &str,
        request: &ArticleIndexRequest,
        page: u32,
        limit: u32,
    ) -> Result<Page<ArticleSummary>, StoreError> {
        let search = request.search.clone().unwrap_or_default();
        let writer = search.writer.as_deref().map(contains_pattern);
        let title = search.title.as_deref().map(contains_pattern);
        let body = search.body.as_deref().map(contains_pattern);
        let filter = format!(
            "FROM articles a JOIN article_snapshots s ON s.article_id = a.id AND {CURRENT_SNAPSHOT} \
             WHERE a.section = ?1 \
             AND (?2 IS NULL OR a.writer LIKE ?2 ESCAPE '\\') \
             AND (?3 IS NULL OR s.title LIKE ?3 ESCAPE '\\') \
             AND (?4 IS NULL OR s.body LIKE ?4 ESCAPE '\\')"
        );
        let mut tx = self.pool.begin().await?;
        let records: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) {filter}"))
            .bind(section)
            .bind(&writer)
            .bind(&title)
            .bind(&body)
            .fetch_one(&mut *tx)
            .await?;
        let offset = i64::from(page - 1) * i64::from(limit);
        let rows = sqlx::query(&format!(
            "SELECT a.id, a.writer, s.title, a.created_at, s.created_at AS updated_at {filter} \
             ORDER BY {} LIMIT ?5 OFFSET ?6",
            order_by(request.sort.as_deref().unwrap_or_default())
        ))
        .bind(section)
        .bind(&writer)
        .bind(&title)
        .bind(&body)
        .bind(i64::from(limit))
        .bind(offset)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        let data = rows
            .iter()
            .map(|row| {
                let id: String = row.try_get("id")?;
                let created_at: String = row.try_get("created_at")?;
                let updated_at: String = row.try_get("updated_at")?;
                Ok(ArticleSummary {
                    id: parse_uuid(&id)?,
                    writer: row.try_get("writer")?,
                    title: row.try_get("title")?,
                    created_at: parse_time(&created_at)?,
                    updated_at: parse_time(&updated_at)?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        let records = u64::try_from(records).unwrap_or_default();
        Ok(Page {
            data,
            pagination: Pagination {
                current: page,
                limit,
                records,
                pages: records.div_ceil(u64::from(limit)),
            },
        })
    }
}

async fn insert_snapshot(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    article_id: Uuid,
    seq: i64,
    snapshot: &ArticleSnapshot,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO article_snapshots (id, article_id, seq, title, body, format, created_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(snapshot.id.to_string())
    .bind(article_id.to_string())
    .bind(seq)
    .bind(&snapshot.title)
    .bind(&snapshot.body)
    .bind(snapshot.format.as_str())
    .bind(stamp(snapshot.created_at))
    .execute(&mut **tx)
    .await?;
    for (seq, file) in snapshot.files.iter().enumerate() {
        sqlx::query("INSERT INTO attachment_files (snapshot_id, seq, name, extension, url) VALUES (?, ?, ?, ?, ?)")
            .bind(snapshot.id.to_string())
            .bind(seq as i64)
            .bind(&file.name)
            .bind(&file.extension)
            .bind(&file.url)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

fn snapshot_from_row(row: &SqliteRow) -> Result<ArticleSnapshot, StoreError> {
    let id: String = row.try_get("id")?;
    let format: String = row.try_get("format")?;
    let created_at: String = row.try_get("created_at")?;
    Ok(ArticleSnapshot {
        id: parse_uuid(&id)?,
        title: row.try_get("title")?,
        body: row.try_get("body")?,
        format: ArticleFormat::from_stored(&format)
            .ok_or_else(|| StoreError::Corrupt(format!("format {format:?}")))?,
        files: Vec::new(),
        created_at: parse_time(&created_at)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_wildcards() {
        assert_eq!(contains_pattern("50%_a\\b"), "%50\\%\\_a\\\\b%");
    }

    #[test]
    fn orders_totally() {
        assert_eq!(order_by(&[]), "a.created_at DESC, a.id ASC");
        assert_eq!(
            order_by(&[ArticleSort::TitleAsc, ArticleSort::UpdatedAtDesc]),
            "s.title ASC, s.created_at DESC, a.id ASC"
        );
    }

    #[test]
    fn stamps_sort_as_time() {
        let early = DateTime::parse_from_rfc3339("2026-01-02T03:04:05.1Z")
            .unwrap()
            .with_timezone(&Utc);
        let late = DateTime::parse_from_rfc3339("2026-01-02T03:04:05.123456Z")
            .unwrap()
            .with_timezone(&Utc);
        assert!(stamp(early) < stamp(late));
        assert_eq!(stamp(early), "2026-01-02T03:04:05.100000Z");
    }
}
