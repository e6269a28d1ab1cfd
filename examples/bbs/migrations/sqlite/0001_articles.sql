-- Articles of the BBS. An article is never rewritten: every update appends a
-- snapshot, and the newest snapshot is the article's current content.
CREATE TABLE articles (
    id            TEXT PRIMARY KEY NOT NULL,
    section       TEXT NOT NULL,
    writer        TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_at    TEXT NOT NULL
);

CREATE INDEX articles_by_section ON articles (section, created_at);

CREATE TABLE article_snapshots (
    id         TEXT PRIMARY KEY NOT NULL,
    article_id TEXT NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    title      TEXT NOT NULL,
    body       TEXT NOT NULL,
    format     TEXT NOT NULL CHECK (format IN ('md', 'html', 'txt')),
    created_at TEXT NOT NULL,
    UNIQUE (article_id, seq)
);

CREATE TABLE attachment_files (
    snapshot_id TEXT NOT NULL REFERENCES article_snapshots (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    name        TEXT,
    extension   TEXT,
    url         TEXT NOT NULL,
    PRIMARY KEY (snapshot_id, seq)
);
