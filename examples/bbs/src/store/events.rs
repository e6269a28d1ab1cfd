//! The sections' live feed as the store keeps it: every change of an
//! article appends an event to `article_events` in the change's own
//! transaction, numbered in commit order (see the migrations). One task
//! per store (the *pump*) reads the events committed since the last it
//! saw and hands each to the process's subscribers through a bounded
//! broadcast channel. It is woken by this process's own writes and, on
//! PostgreSQL, by `NOTIFY` from every replica's, so an article posted
//! through one replica reaches the subscribers of all of them.

use std::{str::FromStr, sync::Arc, time::Duration};

use framework::prometheus_client::metrics::{counter::Counter, gauge::Gauge};
use sqlx::postgres::{PgConnectOptions, PgListener, PgPoolOptions};
use tokio::{
    sync::{Notify, broadcast},
    task::AbortHandle,
};

use super::{
    StoreError,
    backend::{Backend, Columns, Pool, on_pool},
};
use crate::dto::ArticleEvent;

/// How many of the newest events are kept for clients that resume: older
/// ones are deleted as new ones are written.
pub const FEED_RETENTION: u64 = 10_000;

/// How many events the broadcast channel holds for subscribers that have
/// not read them yet, unless configured. A subscriber further behind has
/// lost the oldest: its stream ends, and the client resumes from the
/// table with `Last-Event-ID`.
pub const DEFAULT_FEED_BUFFER: usize = 1024;

/// The PostgreSQL channel that wakes every replica's pump.
pub(super) const CHANNEL: &str = "bbs_article_events";

/// Events read from the table at a time.
pub(super) const PAGE: u32 = 256;

/// How often the pump looks for events even if nothing woke it: a safety
/// net for a notification lost while its connection was being replaced.
const LOOK_EVERY: Duration = Duration::from_secs(5);

/// How long the listener waits after a failure before it tries again.
const RETRY_AFTER: Duration = Duration::from_secs(1);

/// One event of the feed.
#[derive(Clone, Debug, PartialEq)]
pub struct FeedEntry {
    /// Its number: the SSE event id a client resumes from.
    pub seq: u64,
    /// The section of the article it is about.
    pub section: String,
    /// What happened.
    pub event: ArticleEvent,
}

/// Appends `$event` (an [`ArticleEvent`]) about `$article_id` of
/// `$section` to the feed in the transaction `$tx`, deletes events older
/// than the retention, and (on PostgreSQL) notifies every replica at
/// commit.
macro_rules! record_event {
    ($store:expr, $tx:expr, $section:expr, $article_id:expr, $event:expr) => {{
        let dialect = $store.pool.dialect();
        let data = serde_json::to_string($event)
            .map_err(|err| StoreError::Corrupt(format!("event: {err}")))?;
        if !dialect.lock_events.is_empty() {
            sqlx::query(dialect.lock_events).execute(&mut *$tx).await?;
        }
        let seq: i64 = sqlx::query_scalar(
            "INSERT INTO article_events (section, article_id, data) VALUES ($1, $2, $3) \
             RETURNING seq",
        )
        .bind($section)
        .bind($article_id.to_string())
        .bind(data)
        .fetch_one(&mut *$tx)
        .await?;
        let retained = i64::try_from($crate::store::FEED_RETENTION).unwrap_or(i64::MAX);
        sqlx::query("DELETE FROM article_events WHERE seq <= $1")
            .bind(seq.saturating_sub(retained))
            .execute(&mut *$tx)
            .await?;
        if !dialect.notify_events.is_empty() {
            sqlx::query(dialect.notify_events)
                .execute(&mut *$tx)
                .await?;
        }
        Ok::<(), StoreError>(())
    }};
}
pub(super) use record_event;

fn entry_from_row(row: &impl Columns) -> Result<FeedEntry, StoreError> {
    let seq = row.integer("seq")?;
    let data = row.text("data")?;
    Ok(FeedEntry {
        seq: u64::try_from(seq).map_err(|_| StoreError::Corrupt(format!("event number {seq}")))?,
        section: row.text("section")?,
        event: serde_json::from_str(&data)
            .map_err(|err| StoreError::Corrupt(format!("event {seq}: {err}")))?,
    })
}

fn bound(seq: u64) -> i64 {
    i64::try_from(seq).unwrap_or(i64::MAX)
}

/// At most `limit` events after `after`, of every section, oldest first.
pub(super) async fn since(
    pool: &Pool,
    after: u64,
    limit: u32,
) -> Result<Vec<FeedEntry>, StoreError> {
    let query =
        "SELECT seq, section, data FROM article_events WHERE seq > $1 ORDER BY seq LIMIT $2";
    on_pool!(pool pool, |pool| {
        let rows = sqlx::query(query)
            .bind(bound(after))
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?;
        rows.iter().map(entry_from_row).collect()
    })
}

/// At most `limit` events of `section` after `after`, oldest first.
pub(super) async fn of_section(
    pool: &Pool,
    section: &str,
    after: u64,
    limit: u32,
) -> Result<Vec<FeedEntry>, StoreError> {
    let query = "SELECT seq, section, data FROM article_events \
                 WHERE section = $1 AND seq > $2 ORDER BY seq LIMIT $3";
    on_pool!(pool pool, |pool| {
        let rows = sqlx::query(query)
            .bind(section)
            .bind(bound(after))
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?;
        rows.iter().map(entry_from_row).collect()
    })
}

/// The number of the newest event, `0` when there is none.
pub(super) const POSITION: &str = "SELECT COALESCE(MAX(seq), 0) AS seq FROM article_events";

/// The number of the newest event, `0` when there is none.
pub(super) async fn position(pool: &Pool) -> Result<u64, StoreError> {
    let seq: i64 = on_pool!(pool pool, |pool| sqlx::query_scalar(POSITION)
        .fetch_one(pool)
        .await?);
    Ok(u64::try_from(seq).unwrap_or_default())
}

/// The feed of one store: the broadcast channel its subscribers read and
/// the tasks that fill it; they stop when the last clone of the store is
/// dropped or closed.
#[derive(Clone, Debug)]
pub(super) struct Feed {
    inner: Arc<FeedInner>,
}

#[derive(Debug)]
struct FeedInner {
    events: broadcast::Sender<Arc<FeedEntry>>,
    wake: Arc<Notify>,
    tasks: Vec<AbortHandle>,
    metrics: FeedMetrics,
}

/// What the feed counts, for `/metrics`.
#[derive(Clone, Debug, Default)]
pub struct FeedMetrics {
    /// Times a follower fell behind the broadcast and caught up from the
    /// table.
    pub(crate) catch_ups: Counter,
    /// Streams open.
    pub(crate) followers: Gauge,
}

impl FeedMetrics {
    /// Counts a catch-up.
    pub fn caught_up(&self) {
        self.catch_ups.inc();
    }

    /// Catch-ups counted so far.
    pub fn catch_ups(&self) -> u64 {
        self.catch_ups.get()
    }

    /// Counts an open stream until the guard is dropped.
    pub fn follower(&self) -> FollowerGuard {
        self.followers.inc();
        FollowerGuard(self.followers.clone())
    }
}

/// An open stream, counted in `bbs_feed_followers` while it lives.
#[derive(Debug)]
pub struct FollowerGuard(Gauge);

impl Drop for FollowerGuard {
    fn drop(&mut self) {
        self.0.dec();
    }
}

impl Drop for FeedInner {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl Feed {
    /// A feed that broadcasts nothing (a store that never writes).
    pub(super) fn idle() -> Feed {
        Feed {
            inner: Arc::new(FeedInner {
                events: broadcast::channel(1).0,
                wake: Arc::new(Notify::new()),
                tasks: Vec::new(),
                metrics: FeedMetrics::default(),
            }),
        }
    }

    /// Starts the pump of the store on `pool` (opened from `url`), which
    /// broadcasts every event committed from now on; on PostgreSQL it
    /// listens on [`CHANNEL`] first, so that no notification is missed.
    pub(super) async fn start(pool: &Pool, url: &str, buffer: usize) -> Result<Feed, StoreError> {
        let wake = Arc::new(Notify::new());
        let mut tasks = Vec::new();
        if pool.backend() == Backend::Postgres {
            let listener = listen(url).await?;
            tasks.push(tokio::spawn(relay(listener, Arc::clone(&wake))).abort_handle());
        }
        let from = position(pool).await?;
        let (events, _) = broadcast::channel(buffer.max(1));
        let pump = pump(pool.clone(), events.clone(), Arc::clone(&wake), from);
        tasks.push(tokio::spawn(pump).abort_handle());
        Ok(Feed {
            inner: Arc::new(FeedInner {
                events,
                wake,
                tasks,
                metrics: FeedMetrics::default(),
            }),
        })
    }

    /// A receiver of every event broadcast from now on.
    pub(super) fn subscribe(&self) -> broadcast::Receiver<Arc<FeedEntry>> {
        self.inner.events.subscribe()
    }

    /// What the feed counts.
    pub(super) fn metrics(&self) -> &FeedMetrics {
        &self.inner.metrics
    }

    /// Tells the pump that this process committed an event.
    pub(super) fn wake(&self) {
        self.inner.wake.notify_one();
    }

    /// Stops the tasks; subscribers' receivers see the channel close once
    /// the store is dropped.
    pub(super) fn stop(&self) {
        for task in &self.inner.tasks {
            task.abort();
        }
    }
}

/// A listener on [`CHANNEL`], over a connection of its own (a pool of
/// one, which it reconnects through), so the store's pool keeps all its
/// connections for requests.
async fn listen(url: &str) -> Result<PgListener, StoreError> {
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .acquire_timeout(Duration::from_secs(5))
        .connect_lazy_with(PgConnectOptions::from_str(url)?);
    let mut listener = PgListener::connect_with(&pool).await?;
    listener.listen(CHANNEL).await?;
    Ok(listener)
}

/// Wakes the pump at each notification, and once the listener has
/// reconnected after losing its connection (notifications sent meanwhile
/// are lost; the pump reads the table, so their events are not).
async fn relay(mut listener: PgListener, wake: Arc<Notify>) {
    loop {
        match listener.try_recv().await {
            Ok(_) => wake.notify_one(),
            Err(sqlx::Error::PoolClosed) => return,
            Err(err) => {
                tracing::warn!(%err, "the live feed's listener lost PostgreSQL; retrying");
                tokio::time::sleep(RETRY_AFTER).await;
            }
        }
    }
}

/// Broadcasts, in order, every event committed after `from`, whenever it
/// is woken (and every [`LOOK_EVERY`]).
async fn pump(
    pool: Pool,
    events: broadcast::Sender<Arc<FeedEntry>>,
    wake: Arc<Notify>,
    mut from: u64,
) {
    loop {
        tokio::select! {
            () = wake.notified() => {}
            () = tokio::time::sleep(LOOK_EVERY) => {}
        }
        loop {
            match since(&pool, from, PAGE).await {
                Ok(entries) => {
                    let more = entries.len() == PAGE as usize;
                    for entry in entries {
                        from = entry.seq;
                        // No subscriber is not an error.
                        let _ = events.send(Arc::new(entry));
                    }
                    if !more {
                        break;
                    }
                }
                Err(err) => {
                    tracing::warn!(%err, "the live feed could not read new events; retrying");
                    break;
                }
            }
        }
    }
}
