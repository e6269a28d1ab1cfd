-- API version 2.0.0: an article's body may also be AsciiDoc (`adoc`).
--
-- SQLite cannot alter a CHECK constraint, so article_snapshots is rebuilt
-- with the new one, in this migration's transaction (sqlx runs each in
-- one). Foreign keys stay on (the store opens with `foreign_keys = ON`,
-- and the pragma cannot change inside a transaction), which shapes the
-- order of the steps:
--
-- * DROP TABLE deletes the table's rows first, firing foreign key actions,
--   and `attachment_files.snapshot_id REFERENCES article_snapshots (id) ON
--   DELETE CASCADE`: dropping article_snapshots while attachment_files
--   refers to it would empty attachment_files. So the child is rebuilt
--   too, and its new table refers to the NEW parent's name: when the old
--   parent is dropped, no table refers to it any more.
-- * ALTER TABLE ... RENAME TO rewrites the REFERENCES clauses of every
--   other table that names the renamed one (SQLite 3.26 and later, always
--   with foreign keys on; only `legacy_alter_table = ON` with foreign keys
--   off would skip it). Renaming article_snapshots_v2 therefore points
--   attachment_files_v2 at article_snapshots.
--
-- Nothing else refers to these two tables: article_events (0002) keeps the
-- article's id without a foreign key, attachment_uploads (0003) refers to
-- articles, which is left as it is. 0001-0003 declare no index on these
-- tables beyond their keys, which CREATE TABLE declares again.

CREATE TABLE article_snapshots_v2 (
    id         TEXT PRIMARY KEY NOT NULL,
    article_id TEXT NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    title      TEXT NOT NULL,
    body       TEXT NOT NULL,
    format     TEXT NOT NULL CHECK (format IN ('md', 'html', 'txt', 'adoc')),
    created_at TEXT NOT NULL,
    UNIQUE (article_id, seq)
);

CREATE TABLE attachment_files_v2 (
    snapshot_id TEXT NOT NULL REFERENCES article_snapshots_v2 (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    name        TEXT,
    extension   TEXT,
    url         TEXT NOT NULL,
    PRIMARY KEY (snapshot_id, seq)
);

INSERT INTO article_snapshots_v2 (id, article_id, seq, title, body, format, created_at)
    SELECT id, article_id, seq, title, body, format, created_at FROM article_snapshots;

INSERT INTO attachment_files_v2 (snapshot_id, seq, name, extension, url)
    SELECT snapshot_id, seq, name, extension, url FROM attachment_files;

-- The child first: once it is gone, dropping the parent cascades nowhere.
DROP TABLE attachment_files;
DROP TABLE article_snapshots;

ALTER TABLE article_snapshots_v2 RENAME TO article_snapshots;
ALTER TABLE attachment_files_v2 RENAME TO attachment_files;
