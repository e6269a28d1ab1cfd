//! What differs between the two databases the store runs on: how a pool is
//! opened, the few SQL fragments that are not shared, which migrations
//! apply, and which failures are the environment's. Everything else in
//! [`super`] is one text of SQL for both.

use std::{str::FromStr, time::Duration};

use sqlx::{
    Connection, PgPool, Row, SqlitePool,
    postgres::{PgConnectOptions, PgDatabaseError, PgPoolOptions, PgRow},
    sqlite::{
        SqliteConnectOptions, SqliteError, SqliteJournalMode, SqlitePoolOptions, SqliteRow,
        SqliteSynchronous,
    },
};

use sqlx::error::DatabaseError;

use super::StoreError;

/// The database behind a store, chosen by the URL's scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// An embedded SQLite file: `sqlite://bbs.db` (the default).
    Sqlite,
    /// A PostgreSQL server: `postgres://` or `postgresql://`.
    Postgres,
}

impl Backend {
    /// The backend a `DATABASE_URL` names: PostgreSQL for `postgres://` and
    /// `postgresql://`, SQLite for anything else.
    pub fn of_url(url: &str) -> Backend {
        let scheme = url.split_once(':').map_or("", |(scheme, _)| scheme);
        if scheme.eq_ignore_ascii_case("postgres") || scheme.eq_ignore_ascii_case("postgresql") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }
}

/// Connections in the pool.
pub(super) const MAX_CONNECTIONS: u32 = 8;

/// The SQL that is not the same on both backends.
pub(super) struct Dialect {
    /// Starts a transaction that writes. SQLite takes its one write lock
    /// up front, so the transaction never fails halfway on a busy database.
    pub begin_write: &'static str,
    /// Starts a transaction that reads several statements from one
    /// snapshot (SQLite's deferred transactions already do, in WAL mode).
    pub begin_read: &'static str,
    /// Matches a `LIKE` pattern ignoring ASCII case (SQLite's `LIKE` does;
    /// PostgreSQL's `ILIKE` does on the `COLLATE "C"` columns).
    pub like: &'static str,
    /// Appended to the statement that reads the article an update appends
    /// to, so that concurrent updates (and an erase) of one article take
    /// turns. SQLite needs nothing: `BEGIN IMMEDIATE` already serializes
    /// writers.
    pub lock_article: &'static str,
    /// Run before a write inserts its event, so that events are numbered
    /// in commit order: the lock is held until the transaction ends.
    /// SQLite needs nothing: its writers take turns.
    pub lock_events: &'static str,
    /// Run after a write inserted its event: wakes every replica's feed
    /// when the transaction commits. SQLite has no other process to tell.
    pub notify_events: &'static str,
}

const SQLITE: Dialect = Dialect {
    begin_write: "BEGIN IMMEDIATE",
    begin_read: "BEGIN",
    like: "LIKE",
    lock_article: "",
    lock_events: "",
    notify_events: "",
};

const POSTGRES: Dialect = Dialect {
    begin_write: "BEGIN",
    begin_read: "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY",
    like: "ILIKE",
    lock_article: " FOR UPDATE",
    lock_events: "SELECT pg_advisory_xact_lock(hashtext('bbs article events'))",
    // The channel is `events::CHANNEL`.
    notify_events: "NOTIFY bbs_article_events",
};

/// A pool on one of the backends.
#[derive(Clone, Debug)]
pub(super) enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

impl Pool {
    /// Connects to `url` and brings its schema up to date.
    pub async fn open(url: &str) -> Result<Pool, StoreError> {
        match Backend::of_url(url) {
            Backend::Sqlite => {
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
                        // transaction while sqlx still counts it open;
                        // reusing that connection would fail every later
                        // `BEGIN`. Close it.
                        Box::pin(async move { Ok(!conn.is_in_transaction()) })
                    })
                    .connect_with(options)
                    .await?;
                sqlx::migrate!("./migrations/sqlite").run(&pool).await?;
                Ok(Pool::Sqlite(pool))
            }
            Backend::Postgres => {
                let options = PgConnectOptions::from_str(url)?;
                let pool = PgPoolOptions::new()
                    .max_connections(MAX_CONNECTIONS)
                    // A server that is down is waited for this long before
                    // the request is answered 503.
                    .acquire_timeout(Duration::from_secs(5))
                    .connect_with(options)
                    .await?;
                // Replicas starting together take turns: sqlx holds an
                // advisory lock while it migrates.
                sqlx::migrate!("./migrations/postgres").run(&pool).await?;
                Ok(Pool::Postgres(pool))
            }
        }
    }

    /// A pool that connects on first use and migrates nothing.
    pub fn lazy(url: &str) -> Result<Pool, StoreError> {
        Ok(match Backend::of_url(url) {
            Backend::Sqlite => Pool::Sqlite(
                SqlitePoolOptions::new()
                    .max_connections(1)
                    .connect_lazy_with(SqliteConnectOptions::from_str(url)?),
            ),
            Backend::Postgres => Pool::Postgres(
                PgPoolOptions::new()
                    .max_connections(1)
                    .acquire_timeout(Duration::from_secs(5))
                    .connect_lazy_with(PgConnectOptions::from_str(url)?),
            ),
        })
    }

    pub fn backend(&self) -> Backend {
        match self {
            Pool::Sqlite(_) => Backend::Sqlite,
            Pool::Postgres(_) => Backend::Postgres,
        }
    }

    pub fn dialect(&self) -> &'static Dialect {
        match self {
            Pool::Sqlite(_) => &SQLITE,
            Pool::Postgres(_) => &POSTGRES,
        }
    }
}

/// Runs `$body` with `$pool` bound to the store's concrete pool: the body
/// is written once and compiled for each backend.
/// `on_pool!(pool $pool, ...)` does the same with a [`Pool`] itself.
macro_rules! on_pool {
    (pool $on:expr, |$pool:ident| $body:expr) => {
        match $on {
            $crate::store::backend::Pool::Sqlite($pool) => $body,
            $crate::store::backend::Pool::Postgres($pool) => $body,
        }
    };
    ($store:expr, |$pool:ident| $body:expr) => {
        on_pool!(pool & $store.pool, |$pool| $body)
    };
}
pub(super) use on_pool;

/// SQLite's primary result code, if SQLite answered with one.
pub(super) fn sqlite_code(err: &StoreError) -> Option<i32> {
    let StoreError::Database(sqlx::Error::Database(db)) = err else {
        return None;
    };
    db.try_downcast_ref::<SqliteError>()?
        .code()
        .and_then(|code| code.parse::<i32>().ok())
        .map(|code| code & 0xff)
}

/// PostgreSQL's SQLSTATE, if PostgreSQL answered with one.
fn postgres_state(err: &StoreError) -> Option<&str> {
    let StoreError::Database(sqlx::Error::Database(db)) = err else {
        return None;
    };
    Some(db.try_downcast_ref::<PgDatabaseError>()?.code())
}

/// Whether the failure is the environment's, so retrying later may
/// succeed: the database is unreachable, busy, full, read-only or
/// restarting.
pub(super) fn is_transient(err: &StoreError) -> bool {
    if let Some(code) = sqlite_code(err) {
        // SQLite primary result codes: BUSY 5, LOCKED 6, READONLY 8,
        // IOERR 10, FULL 13, CANTOPEN 14.
        return matches!(code, 5 | 6 | 8 | 10 | 13 | 14);
    }
    if let Some(state) = postgres_state(err) {
        // 08: connection exceptions; 53: out of disk, memory or
        // connections; 58: I/O errors; 57P01-03: the server is shutting
        // down or starting; 40001/40P01: serialization failure, deadlock;
        // 25006: a read-only (standby) server.
        return state.starts_with("08")
            || state.starts_with("53")
            || state.starts_with("58")
            || matches!(
                state,
                "57P01" | "57P02" | "57P03" | "40001" | "40P01" | "25006"
            );
    }
    matches!(
        err,
        StoreError::Database(sqlx::Error::PoolTimedOut | sqlx::Error::Io(_))
    )
}

/// Reading a column, alike on both backends' rows.
pub(super) trait Columns {
    /// A `TEXT NOT NULL` column.
    fn text(&self, column: &str) -> Result<String, StoreError>;
    /// A nullable `TEXT` column.
    fn optional_text(&self, column: &str) -> Result<Option<String>, StoreError>;
    /// An integer column.
    fn integer(&self, column: &str) -> Result<i64, StoreError>;
}

macro_rules! columns {
    ($row:ty) => {
        impl Columns for $row {
            fn text(&self, column: &str) -> Result<String, StoreError> {
                Ok(self.try_get(column)?)
            }
            fn optional_text(&self, column: &str) -> Result<Option<String>, StoreError> {
                Ok(self.try_get(column)?)
            }
            fn integer(&self, column: &str) -> Result<i64, StoreError> {
                Ok(self.try_get(column)?)
            }
        }
    };
}
columns!(SqliteRow);
columns!(PgRow);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_notify_the_channel_the_feeds_listen_on() {
        assert_eq!(
            POSTGRES.notify_events,
            format!("NOTIFY {}", super::super::events::CHANNEL)
        );
    }

    #[test]
    fn the_scheme_picks_the_backend() {
        assert_eq!(Backend::of_url("sqlite://bbs.db"), Backend::Sqlite);
        assert_eq!(Backend::of_url("sqlite::memory:"), Backend::Sqlite);
        assert_eq!(Backend::of_url("bbs.db"), Backend::Sqlite);
        assert_eq!(Backend::of_url("postgres://u@h/db"), Backend::Postgres);
        assert_eq!(Backend::of_url("PostgreSQL://u@h/db"), Backend::Postgres);
        assert_eq!(Backend::of_url("postgresx://u@h/db"), Backend::Sqlite);
    }
}
