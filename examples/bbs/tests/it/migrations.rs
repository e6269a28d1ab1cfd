//! The schema's migrations on a database an older BBS made: 0004 (the
//! AsciiDoc format of API version 2.0.0) keeps every article, snapshot,
//! attached file, upload and event, and the foreign keys between them, on
//! both backends ([`on_both_backends!`]: `migrations::sqlite::*`,
//! `migrations::postgres::*`).

use std::path::Path;

use bbs::{
    ArticleStore,
    dto::{ArticleEvent, ArticleFormat, ArticleUpdate, AttachmentFile, BbsArticle},
    store::Backend,
};
use sqlx::{
    PgPool, SqlitePool,
    migrate::Migrator,
    sqlite::{SqliteConnectOptions, SqliteJournalMode},
};
use uuid::Uuid;

use crate::support::{TestDatabase, on_both_backends};

on_both_backends!(
    an_old_database_keeps_its_articles_and_accepts_asciidoc,
    the_migrated_tables_keep_their_foreign_keys,
);

/// The last migration of API version 1.
const VERSION_1_SCHEMA: i64 = 3;

const ARTICLE: &str = "7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a01";
const FIRST: &str = "7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a02";
const SECOND: &str = "7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a03";

/// An article of version 1 with two snapshots (md, then txt), three
/// attached files, an upload and its two events, as SQL both backends run.
const OLD_ARTICLE: &str = r#"
INSERT INTO articles (id, section, writer, password_hash, created_at) VALUES
    ('7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a01', 'free', 'Robert', 'hash',
     '2025-01-02T03:04:05.000000Z');
INSERT INTO article_snapshots (id, article_id, seq, title, body, format, created_at) VALUES
    ('7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a02', '7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a01', 0,
     'Old post', '# Hello', 'md', '2025-01-02T03:04:05.000000Z'),
    ('7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a03', '7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a01', 1,
     'Old post, edited', 'Hello', 'txt', '2025-01-03T03:04:05.000000Z');
INSERT INTO attachment_files (snapshot_id, seq, name, extension, url) VALUES
    ('7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a02', 0, 'logo', 'png', 'https://example.com/logo.png'),
    ('7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a03', 0, 'logo', 'png', 'https://example.com/logo.png'),
    ('7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a03', 1, NULL, NULL, 'https://example.com/README');
INSERT INTO attachment_uploads (id, article_id, name, media_type, size, created_at) VALUES
    ('7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a04', '7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a01',
     'notes.txt', 'text/plain', 5, '2025-01-03T03:04:05.000000Z');
INSERT INTO article_events (section, article_id, data) VALUES
    ('free', '7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a01',
     '{"type":"created","article":{"id":"7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a01","writer":"Robert","title":"Old post","created_at":"2025-01-02T03:04:05Z","updated_at":"2025-01-02T03:04:05Z"}}'),
    ('free', '7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a01',
     '{"type":"updated","article":{"id":"7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a01","writer":"Robert","title":"Old post, edited","created_at":"2025-01-02T03:04:05Z","updated_at":"2025-01-03T03:04:05Z"}}');
"#;

/// A connection pool of the test's own, beside the store's.
enum Raw {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

impl Raw {
    async fn connect(url: &str, backend: Backend) -> Raw {
        match backend {
            Backend::Sqlite => {
                let options: SqliteConnectOptions = url.parse().unwrap();
                // As the store opens it.
                let options = options
                    .create_if_missing(true)
                    .journal_mode(SqliteJournalMode::Wal)
                    .foreign_keys(true);
                Raw::Sqlite(SqlitePool::connect_with(options).await.unwrap())
            }
            Backend::Postgres => Raw::Postgres(PgPool::connect(url).await.unwrap()),
        }
    }

    async fn run(&self, migrator: &Migrator) {
        match self {
            Raw::Sqlite(pool) => migrator.run(pool).await.unwrap(),
            Raw::Postgres(pool) => migrator.run(pool).await.unwrap(),
        }
    }

    async fn execute(&self, sql: &str) -> Result<(), sqlx::Error> {
        match self {
            Raw::Sqlite(pool) => sqlx::raw_sql(sql).execute(pool).await.map(drop),
            Raw::Postgres(pool) => sqlx::raw_sql(sql).execute(pool).await.map(drop),
        }
    }

    async fn count(&self, table: &str) -> i64 {
        let sql = format!("SELECT COUNT(*) FROM {table}");
        match self {
            Raw::Sqlite(pool) => sqlx::query_scalar(&sql).fetch_one(pool).await.unwrap(),
            Raw::Postgres(pool) => sqlx::query_scalar(&sql).fetch_one(pool).await.unwrap(),
        }
    }

    async fn close(&self) {
        match self {
            Raw::Sqlite(pool) => pool.close().await,
            Raw::Postgres(pool) => pool.close().await,
        }
    }
}

/// The migrations of `backend` up to `last`, read (and kept) by sqlx from
/// a copy of the committed files, so their checksums are the ones the
/// store's embedded migrations compare with.
async fn migrations_up_to(backend: Backend, last: i64) -> Migrator {
    let name = match backend {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    };
    let committed = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join(name);
    let copy = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(&committed).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_str().unwrap().to_owned();
        let version: i64 = file.split('_').next().unwrap().parse().unwrap();
        if version <= last {
            std::fs::copy(&path, copy.path().join(&file)).unwrap();
        }
    }
    let migrator = Migrator::new(copy.path()).await.unwrap();
    assert_eq!(migrator.iter().count(), usize::try_from(last).unwrap());
    migrator
}

/// A database with version 1's schema and [`OLD_ARTICLE`] in it, and a
/// pool of the test's on it.
async fn version_1_database(backend: Backend) -> (TestDatabase, Raw) {
    let database = TestDatabase::new(backend).await;
    let raw = Raw::connect(&database.url, backend).await;
    let migrator = migrations_up_to(backend, VERSION_1_SCHEMA).await;
    raw.run(&migrator).await;
    raw.execute(OLD_ARTICLE).await.unwrap();
    let refused = raw
        .execute(&snapshot_with_format(
            "7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a05",
            2,
            "adoc",
        ))
        .await;
    assert!(refused.is_err(), "version 1's schema refuses adoc");
    (database, raw)
}

/// A statement adding a snapshot of [`ARTICLE`] in `format`.
fn snapshot_with_format(id: &str, seq: i64, format: &str) -> String {
    format!(
        "INSERT INTO article_snapshots (id, article_id, seq, title, body, format, created_at) \
         VALUES ('{id}', '{ARTICLE}', {seq}, 'Title', '', '{format}', '2025-01-04T00:00:00.000000Z')"
    )
}

fn file(name: Option<&str>, extension: Option<&str>, url: &str) -> AttachmentFile {
    AttachmentFile {
        name: name.map(str::to_owned),
        extension: extension.map(str::to_owned),
        url: url.to_owned(),
    }
}

/// [`OLD_ARTICLE`] as the store reads it, unchanged by the migration.
fn assert_old_article_kept(article: &BbsArticle) {
    assert_eq!(article.writer, "Robert");
    let kept: Vec<_> = article
        .snapshots
        .iter()
        .map(|s| {
            (
                s.id.to_string(),
                s.title.as_str(),
                s.format,
                s.files.clone(),
            )
        })
        .collect();
    let logo = file(Some("logo"), Some("png"), "https://example.com/logo.png");
    let readme = file(None, None, "https://example.com/README");
    assert_eq!(
        kept,
        [
            (
                FIRST.to_owned(),
                "Old post",
                ArticleFormat::Md,
                vec![logo.clone()]
            ),
            (
                SECOND.to_owned(),
                "Old post, edited",
                ArticleFormat::Txt,
                vec![logo, readme]
            ),
        ]
    );
}

/// The store opened on a version-1 database migrates it, reads back its
/// article, events and uploads, and then takes an AsciiDoc version.
async fn an_old_database_keeps_its_articles_and_accepts_asciidoc(backend: Backend) {
    let (database, raw) = version_1_database(backend).await;
    let store = ArticleStore::open(&database.url).await.unwrap();
    let id = Uuid::parse_str(ARTICLE).unwrap();
    let article = store.find("free", id).await.unwrap().expect("kept");
    assert_old_article_kept(&article);
    let events = store.section_events("free", 0, 10).await.unwrap();
    assert!(
        matches!(
            events.iter().map(|entry| &entry.event).collect::<Vec<_>>()[..],
            [ArticleEvent::Created { .. }, ArticleEvent::Updated { .. }]
        ),
        "{events:?}"
    );
    assert_eq!(raw.count("attachment_uploads").await, 1);

    let update = ArticleUpdate {
        title: "In AsciiDoc".to_owned(),
        body: "= Hello\n\nWorld.".to_owned(),
        format: ArticleFormat::Adoc,
        files: article.snapshots[1].files.clone(),
        password: String::new(),
    };
    let appended = store.append_snapshot("free", id, update).await.unwrap();
    assert!(appended.is_some(), "the article is there");
    let article = store.find("free", id).await.unwrap().unwrap();
    assert_eq!(article.snapshots.len(), 3);
    assert_eq!(article.snapshots[2].format, ArticleFormat::Adoc);
    assert_eq!(article.snapshots[2].files, article.snapshots[1].files);
    let unknown = snapshot_with_format("7d1c8a52-8a55-4a4f-9d5e-2f0c6c1e0a06", 3, "doc");
    assert!(raw.execute(&unknown).await.is_err(), "the CHECK is kept");
    raw.close().await;
    store.close().await;
}

/// Erasing an article still erases its snapshots, their files and its
/// uploads (`ON DELETE CASCADE`), and on SQLite the rebuilt tables refer
/// to each other by their final names.
async fn the_migrated_tables_keep_their_foreign_keys(backend: Backend) {
    let (database, raw) = version_1_database(backend).await;
    let store = ArticleStore::open(&database.url).await.unwrap();
    if let Raw::Sqlite(pool) = &raw {
        let problems: Vec<(String,)> =
            sqlx::query_as("SELECT \"table\" FROM pragma_foreign_key_check")
                .fetch_all(pool)
                .await
                .unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        let parent: Vec<(String, String)> = sqlx::query_as(
            "SELECT \"table\", on_delete FROM pragma_foreign_key_list('attachment_files')",
        )
        .fetch_all(pool)
        .await
        .unwrap();
        assert_eq!(
            parent,
            [("article_snapshots".to_owned(), "CASCADE".to_owned())]
        );
        let leftovers: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM sqlite_schema WHERE instr(name, '_v2') OR instr(sql, '_v2')",
        )
        .fetch_one(pool)
        .await
        .unwrap();
        assert_eq!(leftovers, 0, "no table or reference keeps a temporary name");
    }
    assert_eq!(raw.count("attachment_files").await, 3);
    let id = Uuid::parse_str(ARTICLE).unwrap();
    assert!(store.erase("free", id).await.unwrap());
    for table in [
        "article_snapshots",
        "attachment_files",
        "attachment_uploads",
    ] {
        assert_eq!(raw.count(table).await, 0, "{table} cascaded");
    }
    raw.close().await;
    store.close().await;
}
