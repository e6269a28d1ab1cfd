-- Files uploaded to articles: the bytes are in the attachments directory
-- (BBS_ATTACHMENTS_DIR, at <article_id>/<id>), what the upload said of them
-- is here. Snapshots list them (attachment_files) by their URL.
CREATE TABLE attachment_uploads (
    id         TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    article_id TEXT COLLATE "C" NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    media_type TEXT NOT NULL,
    size       BIGINT NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL
);

CREATE INDEX attachment_uploads_by_article ON attachment_uploads (article_id);
