-- The live feed of the sections: one row per change of an article, written
-- in the change's own transaction, numbered in commit order (writers take
-- turns: `BEGIN IMMEDIATE`). AUTOINCREMENT never reuses a number, even
-- once the newest rows are deleted, so an event id names one event for
-- good. `data` is the event's JSON, as sent.
CREATE TABLE article_events (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    section    TEXT NOT NULL,
    article_id TEXT NOT NULL,
    data       TEXT NOT NULL
);

CREATE INDEX article_events_by_section ON article_events (section, seq);
CREATE INDEX article_events_by_article ON article_events (article_id);
