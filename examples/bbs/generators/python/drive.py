"""Drives the BBS (at BBS_URL) with a client made by openapi-python-client
(the package `bbs_client`, generated from the committed document): what a
Python user of another generator gets. Type-checked with `mypy --strict`,
then run by examples/bbs/tests/it/generators.rs."""

import os

from bbs_client import Client
from bbs_client.api.bbs_articles_controller import (
    bbs_articles_at,
    bbs_articles_create,
    bbs_articles_index,
)
from bbs_client.models import (
    ArticleCreate,
    ArticleFormat,
    ArticleIndexRequest,
    ArticleSearch,
    ArticleSort,
    BbsArticle,
    PageArticleSummary,
    Problem,
)


def main() -> None:
    client = Client(base_url=os.environ["BBS_URL"], raise_on_unexpected_status=True)
    section = "generators-python"

    created = bbs_articles_create.sync_detailed(
        section,
        client=client,
        body=ArticleCreate(
            writer="lee",
            title="From openapi-python-client",
            body="Typed by attrs.",
            format_=ArticleFormat.MD,
            files=[],
            password="secret",
        ),
    )
    assert created.status_code == 201, created
    article = created.parsed
    assert isinstance(article, BbsArticle), article
    assert article.snapshots[0].title == "From openapi-python-client"

    page = bbs_articles_index.sync(
        section,
        client=client,
        body=ArticleIndexRequest(
            limit=10,
            sort=[ArticleSort("-created_at")],
            search=ArticleSearch(writer="lee"),
        ),
    )
    assert isinstance(page, PageArticleSummary), page
    assert any(summary.id == article.id for summary in page.data)

    read = bbs_articles_at.sync(section, article.id, client=client)
    assert isinstance(read, BbsArticle), read
    assert read.id == article.id

    refused = bbs_articles_create.sync_detailed(
        section,
        client=client,
        body=ArticleCreate(
            writer="lee",
            title="no",
            body="",
            format_=ArticleFormat.MD,
            files=[],
            password="secret",
        ),
    )
    assert refused.status_code == 400, refused
    assert refused.headers["content-type"] == "application/problem+json"
    problem = refused.parsed
    assert isinstance(problem, Problem), problem
    assert problem.code == "invalid_body", problem
    assert problem.status == 400
    assert any(issue.path == "$input.title" for issue in problem.errors or []), problem
    print("openapi-python-client: 4 calls as documented")


if __name__ == "__main__":
    main()
