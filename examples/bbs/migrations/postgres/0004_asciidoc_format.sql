-- API version 2.0.0: an article's body may also be AsciiDoc (`adoc`). The
-- format's CHECK constraint is replaced in place; PostgreSQL named the one
-- 0001 declared on the column `article_snapshots_format_check`. Rows and
-- foreign keys are untouched; as on SQLite (migrations/sqlite), the
-- constraint keeps its shape: the stored names of `ArticleFormat`.
ALTER TABLE article_snapshots
    DROP CONSTRAINT article_snapshots_format_check,
    ADD CONSTRAINT article_snapshots_format_check
        CHECK (format IN ('md', 'html', 'txt', 'adoc'));
