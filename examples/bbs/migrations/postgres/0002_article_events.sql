-- The live feed of the sections, as on SQLite (migrations/sqlite): one row
-- per change of an article, written in the change's own transaction. Rows
-- are numbered in commit order: a writer takes a transaction-level
-- advisory lock just before it inserts its event and keeps it until it
-- commits, so a row is never visible before one with a smaller number.
CREATE TABLE article_events (
    seq        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    section    TEXT COLLATE "C" NOT NULL,
    article_id TEXT COLLATE "C" NOT NULL,
    data       TEXT NOT NULL
);

CREATE INDEX article_events_by_section ON article_events (section, seq);
CREATE INDEX article_events_by_article ON article_events (article_id);
