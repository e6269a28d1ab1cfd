//! Articles in SQLite (the default) or PostgreSQL, through sqlx. Writes
//! are transactions (on SQLite `BEGIN IMMEDIATE` with `synchronous = FULL`),
//! so an acknowledged write survives a crash of the process or of the
//! machine. The queries are one text for both backends (`$n` parameters,
//! text columns); what differs is in [`backend`].

mod backend;
mod events;

use std::sync::Arc;

use chrono::{DateTime, SecondsFormat, Utc};
use tokio::sync::broadcast;
use uuid::Uuid;

pub use backend::Backend;
use backend::{Columns, MAX_CONNECTIONS, Pool, on_pool};
pub use events::{DEFAULT_FEED_BUFFER, FEED_RETENTION, FeedEntry, FeedMetrics, FollowerGuard};
use events::{Feed, record_event};

use crate::dto::{
    ArticleCreate, ArticleEvent, ArticleFormat, ArticleIndexRequest, ArticleSnapshot, ArticleSort,
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
        backend::sqlite_code(self) == Some(8)
    }

    /// Whether the failure is the environment's (the database unreachable,
    /// restarting, locked, full or read-only), so retrying later may
    /// succeed.
    pub fn is_transient(&self) -> bool {
        backend::is_transient(self)
    }
}

/// Runs `$work` (an async block using the transaction `$tx`) in a write
/// transaction ([`backend::Dialect::begin_write`]) on a connection of
/// `$pool` and commits it. A connection that hit a transient fault (a full
/// disk, a read-only file, an I/O error, a lost server) is closed rather
/// than reused: SQLite keeps answering "attempt to write a readonly
/// database" on a connection that met a read-only file, even after the
/// fault has cleared. Such an answer is retried on another connection, so
/// writes work again as soon as the fault clears.
macro_rules! write {
    ($store:expr, $pool:expr, |$tx:ident| $work:expr) => {{
        let begin = $store.pool.dialect().begin_write;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let mut conn = $pool.acquire().await?;
            let result: Result<_, StoreError> = async {
                let mut $tx = sqlx::Connection::begin_with(&mut *conn, begin).await?;
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
fn settle<T, DB: sqlx::Database>(
    conn: &mut sqlx::pool::PoolConnection<DB>,
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

/// Inserts `$snapshot` (an [`ArticleSnapshot`]) of `$article_id` at `$seq`,
/// with its files, in the transaction `$tx`.
macro_rules! insert_snapshot {
    ($tx:expr, $article_id:expr, $seq:expr, $snapshot:expr) => {{
        let snapshot: &ArticleSnapshot = $snapshot;
        sqlx::query(
            "INSERT INTO article_snapshots (id, article_id, seq, title, body, format, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(snapshot.id.to_string())
        .bind($article_id.to_string())
        .bind($seq)
        .bind(&snapshot.title)
        .bind(&snapshot.body)
        .bind(snapshot.format.as_str())
        .bind(stamp(snapshot.created_at))
        .execute(&mut *$tx)
        .await?;
        for (seq, file) in snapshot.files.iter().enumerate() {
            sqlx::query(
                "INSERT INTO attachment_files (snapshot_id, seq, name, extension, url) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(snapshot.id.to_string())
            .bind(i64::try_from(seq).unwrap_or(i64::MAX))
            .bind(&file.name)
            .bind(&file.extension)
            .bind(&file.url)
            .execute(&mut *$tx)
            .await?;
        }
        Ok::<(), StoreError>(())
    }};
}

mod uploads;

pub use uploads::{Attached, Upload};

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

/// The articles' store, with the sections' live feed: each change of an
/// article is also an [`ArticleEvent`], stored with it and broadcast to
/// this process's subscribers ([`ArticleStore::subscribe`]).
#[derive(Clone, Debug)]
pub struct ArticleStore {
    pool: Pool,
    feed: Feed,
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
    /// Opens the database at `url` and brings its schema up to date:
    /// `sqlite://bbs.db` (created if needed) or a PostgreSQL URL,
    /// `postgres://user:password@host/database` (the database must exist).
    /// The live feed holds [`DEFAULT_FEED_BUFFER`] events for subscribers.
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        Self::open_with(url, DEFAULT_FEED_BUFFER).await
    }

    /// [`open`](Self::open), with a live feed that holds `feed_buffer`
    /// events for subscribers that have not read them yet.
    pub async fn open_with(url: &str, feed_buffer: usize) -> Result<Self, StoreError> {
        let pool = Pool::open(url).await?;
        let feed = Feed::start(&pool, url, feed_buffer).await?;
        Ok(ArticleStore { pool, feed })
    }

    /// A store that connects on first use and migrates nothing: for
    /// describing the app (`bbs openapi`) without touching the database.
    /// Its live feed broadcasts nothing.
    pub fn lazy(url: &str) -> Result<Self, StoreError> {
        Ok(ArticleStore {
            pool: Pool::lazy(url)?,
            feed: Feed::idle(),
        })
    }

    /// The database the store runs on.
    pub fn backend(&self) -> Backend {
        self.pool.backend()
    }

    /// Stops the live feed and closes the pool, waiting for connections to
    /// be returned.
    pub async fn close(&self) {
        self.feed.stop();
        on_pool!(self, |pool| pool.close().await)
    }

    /// A receiver of every event this process's feed broadcasts from now
    /// on, in order, of every section. It holds at most the feed's buffer:
    /// one that falls further behind gets `Lagged` and has lost the oldest
    /// (they are still in [`section_events`](Self::section_events)).
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<FeedEntry>> {
        self.feed.subscribe()
    }

    /// What the live feed counts, for `/metrics`.
    pub fn feed_metrics(&self) -> &FeedMetrics {
        self.feed.metrics()
    }

    /// The number of the newest event of the feed, `0` when there is none.
    pub async fn feed_position(&self) -> Result<u64, StoreError> {
        events::position(&self.pool).await
    }

    /// At most `limit` events of `section` after the event `after`, oldest
    /// first, of the newest [`FEED_RETENTION`] events.
    pub async fn section_events(
        &self,
        section: &str,
        after: u64,
        limit: u32,
    ) -> Result<Vec<FeedEntry>, StoreError> {
        events::of_section(&self.pool, section, after, limit).await
    }

    /// Checks that the database answers (`SELECT 1`).
    pub async fn ping(&self) -> Result<(), StoreError> {
        on_pool!(self, |pool| {
            sqlx::query("SELECT 1").execute(pool).await?;
        });
        Ok(())
    }

    /// Connections the pool holds open, in use or idle.
    pub fn connections(&self) -> u32 {
        on_pool!(self, |pool| pool.size())
    }

    /// Connections the pool holds open and idle.
    pub fn idle_connections(&self) -> usize {
        on_pool!(self, |pool| pool.num_idle())
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
        let event = ArticleEvent::Created {
            article: ArticleSummary {
                id: article_id,
                writer: input.writer.clone(),
                title: snapshot.title.clone(),
                created_at,
                updated_at: created_at,
            },
        };
        on_pool!(self, |pool| write!(self, pool, |tx| async {
            sqlx::query(
                "INSERT INTO articles (id, section, writer, password_hash, created_at) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(article_id.to_string())
            .bind(section)
            .bind(&input.writer)
            .bind(&password_hash)
            .bind(stamp(created_at))
            .execute(&mut *tx)
            .await?;
            insert_snapshot!(tx, article_id, 0_i64, &snapshot)?;
            record_event!(self, tx, section, article_id, &event)
        }))?;
        self.feed.wake();
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
        let begin = self.pool.dialect().begin_read;
        let (row, snapshot_rows, file_rows) = on_pool!(self, |pool| {
            let mut tx = pool.begin_with(begin).await?;
            let Some(row) = sqlx::query(
                "SELECT writer, created_at FROM articles WHERE id = $1 AND section = $2",
            )
            .bind(id.to_string())
            .bind(section)
            .fetch_optional(&mut *tx)
            .await?
            else {
                tx.commit().await?;
                return Ok(None);
            };
            let snapshot_rows = sqlx::query(
                "SELECT id, title, body, format, created_at FROM article_snapshots \
                 WHERE article_id = $1 ORDER BY seq",
            )
            .bind(id.to_string())
            .fetch_all(&mut *tx)
            .await?;
            let file_rows = sqlx::query(
                "SELECT f.snapshot_id, f.name, f.extension, f.url FROM attachment_files f \
                 JOIN article_snapshots s ON s.id = f.snapshot_id \
                 WHERE s.article_id = $1 ORDER BY s.seq, f.seq",
            )
            .bind(id.to_string())
            .fetch_all(&mut *tx)
            .await?;
            tx.commit().await?;
            (
                Article::read(&row)?,
                snapshot_rows
                    .iter()
                    .map(snapshot_from_row)
                    .collect::<Result<Vec<_>, _>>()?,
                file_rows
                    .iter()
                    .map(file_from_row)
                    .collect::<Result<Vec<_>, _>>()?,
            )
        });
        let mut snapshots = snapshot_rows;
        for (snapshot_id, file) in file_rows {
            if let Some(snapshot) = snapshots
                .iter_mut()
                .find(|snapshot| snapshot.id == snapshot_id)
            {
                snapshot.files.push(file);
            }
        }
        Ok(Some(BbsArticle {
            id,
            section: section.to_owned(),
            writer: row.writer,
            snapshots,
            created_at: row.created_at,
        }))
    }

    /// The stored password hash of the article, if it is in `section`.
    pub async fn password_hash(
        &self,
        section: &str,
        id: Uuid,
    ) -> Result<Option<String>, StoreError> {
        let query = "SELECT password_hash FROM articles WHERE id = $1 AND section = $2";
        let hash = on_pool!(self, |pool| sqlx::query_scalar(query)
            .bind(id.to_string())
            .bind(section)
            .fetch_optional(pool)
            .await?);
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
        // The article's row is read (on PostgreSQL: locked) first, in a
        // statement of its own, so that the next one, which numbers the
        // snapshot, sees every snapshot committed before the lock was ours.
        let lock = format!(
            "SELECT writer, created_at FROM articles WHERE id = $1 AND section = $2{}",
            self.pool.dialect().lock_article
        );
        let appended = on_pool!(self, |pool| write!(self, pool, |tx| async {
            let Some(row) = sqlx::query(&lock)
                .bind(id.to_string())
                .bind(section)
                .fetch_optional(&mut *tx)
                .await?
            else {
                return Ok::<_, StoreError>(false);
            };
            let article = Article::read(&row)?;
            let next_seq: i64 = sqlx::query_scalar(
                "SELECT COALESCE(MAX(seq), -1) + 1 FROM article_snapshots WHERE article_id = $1",
            )
            .bind(id.to_string())
            .fetch_one(&mut *tx)
            .await?;
            insert_snapshot!(tx, id, next_seq, &snapshot)?;
            let event = article.updated(id, &snapshot);
            record_event!(self, tx, section, id, &event)?;
            Ok(true)
        }))?;
        if appended {
            self.feed.wake();
        }
        Ok(appended.then_some(snapshot))
    }

    /// Erases the article and its history; `false` when it was not there.
    /// Its earlier events go with it (they hold its title): a client that
    /// resumes from before is told only that it was erased.
    pub async fn erase(&self, section: &str, id: Uuid) -> Result<bool, StoreError> {
        let erased = on_pool!(self, |pool| write!(self, pool, |tx| async {
            let done = sqlx::query("DELETE FROM articles WHERE id = $1 AND section = $2")
                .bind(id.to_string())
                .bind(section)
                .execute(&mut *tx)
                .await?;
            if done.rows_affected() == 0 {
                return Ok::<_, StoreError>(false);
            }
            sqlx::query("DELETE FROM article_events WHERE article_id = $1")
                .bind(id.to_string())
                .execute(&mut *tx)
                .await?;
            record_event!(self, tx, section, id, &ArticleEvent::Erased { id })?;
            Ok(true)
        }))?;
        if erased {
            self.feed.wake();
        }
        Ok(erased)
    }

    /// Every section that has articles, by name.
    pub async fn sections(&self) -> Result<Vec<SectionSummary>, StoreError> {
        let query = "SELECT section, COUNT(*) AS articles, MAX(created_at) AS latest \
                     FROM articles GROUP BY section ORDER BY section";
        on_pool!(self, |pool| {
            let rows = sqlx::query(query).fetch_all(pool).await?;
            rows.iter().map(section_from_row).collect()
        })
    }

    /// One page of the section's articles.
    pub async fn index(
        &self,
        section: &str,
        request: &ArticleIndexRequest,
        page: u32,
        limit: u32,
    ) -> Result<Page<ArticleSummary>, StoreError> {
        Ok(self.listing(section, request, page, limit, false).await?.0)
    }

    /// [`index`](Self::index), with the number of the newest event of the
    /// feed as of the same snapshot: following the feed from there
    /// (`?after=`) misses no change made since the page was read.
    pub async fn index_at_position(
        &self,
        section: &str,
        request: &ArticleIndexRequest,
        page: u32,
        limit: u32,
    ) -> Result<(Page<ArticleSummary>, u64), StoreError> {
        let (page, position) = self.listing(section, request, page, limit, true).await?;
        Ok((page, position.unwrap_or_default()))
    }

    async fn listing(
        &self,
        section: &str,
        request: &ArticleIndexRequest,
        page: u32,
        limit: u32,
        with_position: bool,
    ) -> Result<(Page<ArticleSummary>, Option<u64>), StoreError> {
        let search = request.search.clone().unwrap_or_default();
        let writer = search.writer.as_deref().map(contains_pattern);
        let title = search.title.as_deref().map(contains_pattern);
        let body = search.body.as_deref().map(contains_pattern);
        let dialect = self.pool.dialect();
        let like = dialect.like;
        let filter = format!(
            "FROM articles a JOIN article_snapshots s ON s.article_id = a.id AND {CURRENT_SNAPSHOT} \
             WHERE a.section = $1 \
             AND ($2 IS NULL OR a.writer {like} $2 ESCAPE '\\') \
             AND ($3 IS NULL OR s.title {like} $3 ESCAPE '\\') \
             AND ($4 IS NULL OR s.body {like} $4 ESCAPE '\\')"
        );
        let count = format!("SELECT COUNT(*) {filter}");
        let select = format!(
            "SELECT a.id, a.writer, s.title, a.created_at, s.created_at AS updated_at {filter} \
             ORDER BY {} LIMIT $5 OFFSET $6",
            order_by(request.sort.as_deref().unwrap_or_default())
        );
        let offset = i64::from(page - 1) * i64::from(limit);
        let listed = on_pool!(self, |pool| {
            let mut tx = pool.begin_with(dialect.begin_read).await?;
            let records: i64 = sqlx::query_scalar(&count)
                .bind(section)
                .bind(&writer)
                .bind(&title)
                .bind(&body)
                .fetch_one(&mut *tx)
                .await?;
            let rows = sqlx::query(&select)
                .bind(section)
                .bind(&writer)
                .bind(&title)
                .bind(&body)
                .bind(i64::from(limit))
                .bind(offset)
                .fetch_all(&mut *tx)
                .await?;
            let mut position: Option<i64> = None;
            if with_position {
                let query = sqlx::query_scalar(events::POSITION);
                position = Some(query.fetch_one(&mut *tx).await?);
            }
            tx.commit().await?;
            let data = rows
                .iter()
                .map(summary_from_row)
                .collect::<Result<Vec<_>, StoreError>>()?;
            (records, data, position)
        });
        let (records, data, position) = listed;
        let records = u64::try_from(records).unwrap_or_default();
        let position = position.map(|seq| u64::try_from(seq).unwrap_or_default());
        Ok((page_of(data, records, page, limit), position))
    }
}

/// Page `current` of `records` matching, `limit` a page.
fn page_of<T>(data: Vec<T>, records: u64, current: u32, limit: u32) -> Page<T> {
    Page {
        data,
        pagination: Pagination {
            current,
            limit,
            records,
            pages: records.div_ceil(u64::from(limit)),
        },
    }
}

/// An article's own columns.
struct Article {
    writer: String,
    created_at: DateTime<Utc>,
}

impl Article {
    fn read(row: &impl Columns) -> Result<Article, StoreError> {
        Ok(Article {
            writer: row.text("writer")?,
            created_at: parse_time(&row.text("created_at")?)?,
        })
    }

    /// The feed's event for `snapshot`, appended to this article (`id`).
    fn updated(self, id: Uuid, snapshot: &ArticleSnapshot) -> ArticleEvent {
        ArticleEvent::Updated {
            article: ArticleSummary {
                id,
                writer: self.writer,
                title: snapshot.title.clone(),
                created_at: self.created_at,
                updated_at: snapshot.created_at,
            },
        }
    }
}

fn snapshot_from_row(row: &impl Columns) -> Result<ArticleSnapshot, StoreError> {
    let format = row.text("format")?;
    Ok(ArticleSnapshot {
        id: parse_uuid(&row.text("id")?)?,
        title: row.text("title")?,
        body: row.text("body")?,
        format: ArticleFormat::from_stored(&format)
            .ok_or_else(|| StoreError::Corrupt(format!("format {format:?}")))?,
        files: Vec::new(),
        created_at: parse_time(&row.text("created_at")?)?,
    })
}

/// A file and the snapshot it is attached to.
fn file_from_row(row: &impl Columns) -> Result<(Uuid, AttachmentFile), StoreError> {
    Ok((
        parse_uuid(&row.text("snapshot_id")?)?,
        AttachmentFile {
            name: row.optional_text("name")?,
            extension: row.optional_text("extension")?,
            url: row.text("url")?,
        },
    ))
}

fn summary_from_row(row: &impl Columns) -> Result<ArticleSummary, StoreError> {
    Ok(ArticleSummary {
        id: parse_uuid(&row.text("id")?)?,
        writer: row.text("writer")?,
        title: row.text("title")?,
        created_at: parse_time(&row.text("created_at")?)?,
        updated_at: parse_time(&row.text("updated_at")?)?,
    })
}

fn section_from_row(row: &impl Columns) -> Result<SectionSummary, StoreError> {
    Ok(SectionSummary {
        name: row.text("section")?,
        articles: u64::try_from(row.integer("articles")?).unwrap_or_default(),
        latest: parse_time(&row.text("latest")?)?,
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
