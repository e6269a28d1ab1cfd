-- Articles of the BBS on PostgreSQL: the same tables as on SQLite
-- (migrations/sqlite). Identifiers and timestamps are text in one
-- fixed-width format, as there, so both backends share their queries.
-- Text columns compare byte by byte (`COLLATE "C"`), as SQLite's BINARY
-- collation does: sorting is in code-point order, and ILIKE folds ASCII
-- case only, as SQLite's LIKE.
CREATE TABLE articles (
    id            TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    section       TEXT COLLATE "C" NOT NULL,
    writer        TEXT COLLATE "C" NOT NULL,
    password_hash TEXT NOT NULL,
    created_at    TEXT COLLATE "C" NOT NULL
);

CREATE INDEX articles_by_section ON articles (section, created_at);

CREATE TABLE article_snapshots (
    id         TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    article_id TEXT COLLATE "C" NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    seq        BIGINT NOT NULL,
    title      TEXT COLLATE "C" NOT NULL,
    body       TEXT COLLATE "C" NOT NULL,
    format     TEXT NOT NULL CHECK (format IN ('md', 'html', 'txt')),
    created_at TEXT COLLATE "C" NOT NULL,
    UNIQUE (article_id, seq)
);

CREATE TABLE attachment_files (
    snapshot_id TEXT COLLATE "C" NOT NULL REFERENCES article_snapshots (id) ON DELETE CASCADE,
    seq         BIGINT NOT NULL,
    name        TEXT,
    extension   TEXT,
    url         TEXT NOT NULL,
    PRIMARY KEY (snapshot_id, seq)
);
