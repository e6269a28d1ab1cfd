//! Every route and error path, through the in-process client, on SQLite
//! and on PostgreSQL: each test is an `async fn(Backend)`, run on both by
//! [`on_both_backends!`] (`routes::sqlite::*`, `routes::postgres::*`). A test
//! left out of the list is dead code, which the lints refuse.

use bbs::{
    ArticleStore,
    dto::{ArticleCreate, ArticleSnapshot, ArticleSummary, ArticleUpdate, BbsArticle, Page},
    store::Backend,
};
use serde_json::{Value, json};

use framework::TestClient;

use crate::support::{TestDatabase, app_on, create_input, on_both_backends};

on_both_backends!(
    create_answers_201_with_the_article_and_no_password,
    at_reads_back_exactly_what_was_created,
    at_in_another_section_or_unknown_is_404,
    a_bad_uuid_is_400_naming_id,
    update_appends_a_snapshot_and_keeps_history,
    update_and_erase_refuse_a_wrong_password,
    update_and_erase_of_an_unknown_article_are_404,
    erase_answers_204_and_the_article_is_gone,
    index_pages_searches_and_sorts,
    index_summary_follows_the_newest_snapshot,
    index_refuses_page_zero_and_huge_limits,
    bad_bodies_are_refused_with_a_problem,
    unknown_paths_are_404_and_wrong_methods_405_with_allow,
    percent_encoded_sections_are_decoded,
    the_routes_metadata_matches_the_contract,
    create_lists_every_constraint_error_with_its_path,
    nullable_fields_must_be_present,
    index_refuses_null_for_optional_fields,
    huge_strings_under_the_body_limit_are_stored_or_refused_quickly,
    a_database_that_cannot_be_reached_answers_503,
    concurrent_updates_of_one_article_each_append_a_snapshot,
);

/// Posts an article to section `free` and returns it.
async fn post_article(client: &TestClient, title: &str) -> BbsArticle {
    let response = client
        .post("/bbs/articles/free")
        .json(&create_input(title))
        .send()
        .await;
    assert_eq!(response.status(), 201, "{}", response.text());
    response.json()
}

async fn create_answers_201_with_the_article_and_no_password(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    let response = app
        .test_client()
        .post("/bbs/articles/free")
        .json(&create_input("First post"))
        .send()
        .await;
    assert_eq!(response.status(), 201);
    assert_eq!(response.header("content-type"), Some("application/json"));
    let raw: Value = response.json();
    assert!(!response.text().contains("password"), "{}", response.text());
    assert!(!response.text().contains("correct horse"));
    let article: BbsArticle = serde_json::from_value(raw).unwrap();
    assert_eq!(article.section, "free");
    assert_eq!(article.writer, "Robert");
    assert_eq!(article.snapshots.len(), 1);
    let snapshot = &article.snapshots[0];
    assert_eq!(snapshot.title, "First post");
    assert_eq!(snapshot.body, "Hello, 世界! 👋");
    assert_eq!(snapshot.files.len(), 2);
    assert_eq!(snapshot.files[1].name, None);
    assert_eq!(snapshot.created_at, article.created_at);
}

async fn at_reads_back_exactly_what_was_created(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    let client = app.test_client();
    let created = post_article(&client, "Round trip").await;
    let response = client
        .get(&format!("/bbs/articles/free/{}", created.id))
        .send()
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.json::<BbsArticle>(), created);
}

async fn at_in_another_section_or_unknown_is_404(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    let client = app.test_client();
    let created = post_article(&client, "Scoped").await;
    let response = client
        .get(&format!("/bbs/articles/notice/{}", created.id))
        .send()
        .await;
    assert_eq!(response.status(), 404);
    assert_eq!(response.problem().code, "not_found");
    let response = client
        .get("/bbs/articles/free/00000000-0000-4000-8000-000000000000")
        .send()
        .await;
    assert_eq!(response.status(), 404);
}

async fn a_bad_uuid_is_400_naming_id(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    let response = app
        .test_client()
        .get("/bbs/articles/free/not-a-uuid")
        .send()
        .await;
    assert_eq!(response.status(), 400);
    let problem = response.problem();
    assert_eq!(problem.code, "invalid_path_parameter");
    assert!(problem.detail.contains("`id`"), "{}", problem.detail);
    assert_eq!(problem.errors[0].path, "$path.id");
    assert_eq!(problem.errors[0].expected, r#"string & Format<"uuid">"#);
    assert_eq!(problem.errors[0].value, Some(json!("not-a-uuid")));
}

async fn update_appends_a_snapshot_and_keeps_history(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    let client = app.test_client();
    let created = post_article(&client, "Version 1").await;
    let update = json!({
        "title": "Version 2",
        "body": "rewritten",
        "format": "html",
        "files": [],
        "password": "correct horse"
    });
    let response = client
        .put(&format!("/bbs/articles/free/{}", created.id))
        .json(&update)
        .send()
        .await;
    assert_eq!(response.status(), 200);
    let snapshot: ArticleSnapshot = response.json();
    assert_eq!(snapshot.title, "Version 2");
    assert_ne!(snapshot.id, created.snapshots[0].id);

    let article: BbsArticle = client
        .get(&format!("/bbs/articles/free/{}", created.id))
        .send()
        .await
        .json();
    assert_eq!(article.snapshots.len(), 2);
    assert_eq!(
        article.snapshots[0], created.snapshots[0],
        "history is never rewritten"
    );
    assert_eq!(article.snapshots[1], snapshot);
}

async fn update_and_erase_refuse_a_wrong_password(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    let client = app.test_client();
    let created = post_article(&client, "Guarded").await;
    let path = format!("/bbs/articles/free/{}", created.id);
    let update = json!({ "title": "Hijacked", "body": "", "format": "txt", "files": [], "password": "wrong" });
    let response = client.put(&path).json(&update).send().await;
    assert_eq!(response.status(), 403);
    assert_eq!(response.problem().code, "wrong_password");

    let response = client
        .delete(&path)
        .json(&json!({ "password": "wrong" }))
        .send()
        .await;
    assert_eq!(response.status(), 403);
    assert_eq!(response.problem().code, "wrong_password");

    let article: BbsArticle = client.get(&path).send().await.json();
    assert_eq!(article, created, "nothing changed");
}

async fn update_and_erase_of_an_unknown_article_are_404(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    let client = app.test_client();
    let path = "/bbs/articles/free/00000000-0000-4000-8000-000000000000";
    let update =
        json!({ "title": "xyz", "body": "", "format": "txt", "files": [], "password": "p" });
    assert_eq!(client.put(path).json(&update).send().await.status(), 404);
    assert_eq!(
        client
            .delete(path)
            .json(&json!({ "password": "p" }))
            .send()
            .await
            .status(),
        404
    );
}

async fn erase_answers_204_and_the_article_is_gone(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    let client = app.test_client();
    let created = post_article(&client, "Short-lived").await;
    let path = format!("/bbs/articles/free/{}", created.id);
    let response = client
        .delete(&path)
        .json(&json!({ "password": "correct horse" }))
        .send()
        .await;
    assert_eq!(response.status(), 204);
    assert!(response.bytes().is_empty());
    assert_eq!(client.get(&path).send().await.status(), 404);
    let response = client
        .delete(&path)
        .json(&json!({ "password": "correct horse" }))
        .send()
        .await;
    assert_eq!(response.status(), 404);
}

async fn index_pages_searches_and_sorts(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    let client = app.test_client();
    for title in ["alpha", "Bravo", "charlie", "delta 50%", "echo"] {
        let response = client
            .post("/bbs/articles/free")
            .json(&create_input(title))
            .send()
            .await;
        assert_eq!(response.status(), 201);
    }
    client
        .post("/bbs/articles/other")
        .json(&create_input("alpha elsewhere"))
        .send()
        .await;

    let response = client
        .patch("/bbs/articles/free")
        .json(&json!({}))
        .send()
        .await;
    assert_eq!(response.status(), 200);
    let page: Page<ArticleSummary> = response.json();
    assert_eq!(page.pagination.records, 5, "only this section");
    assert_eq!(page.pagination.limit, 100);
    assert_eq!(page.pagination.current, 1);
    assert_eq!(page.pagination.pages, 1);
    assert_eq!(page.data[0].title, "echo", "newest first by default");

    let page: Page<ArticleSummary> = client
        .patch("/bbs/articles/free")
        .json(&json!({ "page": 2, "limit": 2, "sort": ["+title"] }))
        .send()
        .await
        .json();
    let titles: Vec<_> = page
        .data
        .iter()
        .map(|summary| summary.title.as_str())
        .collect();
    assert_eq!(titles, ["charlie", "delta 50%"], "ASCII order, B < c");
    assert_eq!(page.pagination.pages, 3);

    let page: Page<ArticleSummary> = client
        .patch("/bbs/articles/free")
        .json(&json!({ "search": { "title": "50%" } }))
        .send()
        .await
        .json();
    assert_eq!(page.data.len(), 1, "% is matched literally");
    assert_eq!(page.data[0].title, "delta 50%");

    let page: Page<ArticleSummary> = client
        .patch("/bbs/articles/free")
        .json(&json!({ "search": { "writer": "ROB", "body": "世界" }, "sort": ["-created_at"] }))
        .send()
        .await
        .json();
    assert_eq!(page.data.len(), 5);
}

async fn index_summary_follows_the_newest_snapshot(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    let client = app.test_client();
    let created = post_article(&client, "old title").await;
    let snapshot: ArticleSnapshot = client
        .put(&format!("/bbs/articles/free/{}", created.id))
        .json(&json!({ "title": "new title", "body": "", "format": "txt", "files": [], "password": "correct horse" }))
        .send()
        .await
        .json();
    let page: Page<ArticleSummary> = client
        .patch("/bbs/articles/free")
        .json(&json!({}))
        .send()
        .await
        .json();
    assert_eq!(page.data[0].title, "new title");
    assert_eq!(page.data[0].updated_at, snapshot.created_at);
    assert_eq!(page.data[0].created_at, created.created_at);
}

async fn index_refuses_page_zero_and_huge_limits(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    let response = app
        .test_client()
        .patch("/bbs/articles/free")
        .json(&json!({ "page": 0, "limit": 5000 }))
        .send()
        .await;
    assert_eq!(response.status(), 400);
    let problem = response.problem();
    let paths: Vec<_> = problem
        .errors
        .iter()
        .map(|issue| issue.path.as_str())
        .collect();
    assert_eq!(paths, ["$input.page", "$input.limit"]);
}

async fn bad_bodies_are_refused_with_a_problem(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    let client = app.test_client();
    let response = client
        .post("/bbs/articles/free")
        .body("text/plain", "hello")
        .send()
        .await;
    assert_eq!(response.status(), 415);
    assert_eq!(response.problem().code, "unsupported_media_type");

    let response = client
        .post("/bbs/articles/free")
        .body("application/json", "{")
        .send()
        .await;
    assert_eq!(response.status(), 400);
    assert_eq!(response.problem().code, "invalid_body");

    let mut missing = create_input("x");
    missing.as_object_mut().unwrap().remove("writer");
    let response = client
        .post("/bbs/articles/free")
        .json(&missing)
        .send()
        .await;
    assert_eq!(response.status(), 400);
    assert!(
        response.problem().detail.contains("writer"),
        "{}",
        response.text()
    );

    let mut wrong_enum = create_input("x");
    wrong_enum["format"] = json!("pdf");
    let response = client
        .post("/bbs/articles/free")
        .json(&wrong_enum)
        .send()
        .await;
    assert_eq!(response.status(), 400);

    let response = client
        .post("/bbs/articles/free")
        .body("application/json", "")
        .send()
        .await;
    assert_eq!(response.status(), 400);
}

async fn unknown_paths_are_404_and_wrong_methods_405_with_allow(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    let client = app.test_client();
    let response = client.get("/bbs/nothing").send().await;
    assert_eq!(response.status(), 404);
    assert_eq!(response.problem().code, "not_found");

    let response = client
        .post("/bbs/articles/free/00000000-0000-4000-8000-000000000000")
        .send()
        .await;
    assert_eq!(response.status(), 405);
    assert_eq!(
        response.header("allow"),
        Some("GET, HEAD, PUT, DELETE, OPTIONS")
    );
    assert_eq!(response.problem().code, "method_not_allowed");

    let response = client.get("/bbs/articles/free").send().await;
    assert_eq!(response.status(), 405);
    assert_eq!(response.header("allow"), Some("POST, PATCH, OPTIONS"));
}

async fn percent_encoded_sections_are_decoded(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    let client = app.test_client();
    let created: BbsArticle = client
        .post("/bbs/articles/q%26a%20board")
        .json(&create_input("Question"))
        .send()
        .await
        .json();
    assert_eq!(created.section, "q&a board");
    let response = client
        .get(&format!("/bbs/articles/q%26a%20board/{}", created.id))
        .send()
        .await;
    assert_eq!(response.status(), 200);
}

async fn the_routes_metadata_matches_the_contract(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    // Version 1.0.0's routes: each route once.
    let routes: Vec<_> = app
        .routes()
        .iter()
        .filter(|meta| meta.versions.contains(bbs::V1))
        .map(|meta| (meta.handler, meta.method.as_str(), meta.path, meta.status))
        .collect();
    // The routes whose answers carry a format serve version 2.0.0 as
    // declared and older versions converted.
    let versioned: Vec<_> = app
        .routes()
        .iter()
        .filter(|meta| !meta.versions.is_all())
        .map(|meta| (meta.handler, meta.versions.to_string()))
        .collect();
    let both = |handler| {
        [
            (handler, "2.0.0..".to_owned()),
            (handler, "..2.0.0".to_owned()),
        ]
    };
    assert_eq!(
        versioned,
        [both("at"), both("create"), both("update"), both("upload")].concat()
    );
    assert_eq!(
        routes,
        [
            ("index", "PATCH", "/bbs/articles/:section", 200),
            ("follow", "GET", "/bbs/articles/:section/events", 200),
            ("at", "GET", "/bbs/articles/:section/:id", 200),
            ("create", "POST", "/bbs/articles/:section", 201),
            ("update", "PUT", "/bbs/articles/:section/:id", 200),
            ("erase", "DELETE", "/bbs/articles/:section/:id", 204),
            (
                "erase",
                "DELETE",
                "/bbs/moderation/articles/:section/:id",
                204
            ),
            ("upload", "POST", "/bbs/articles/:section/:id/files", 201),
            (
                "download",
                "GET",
                "/bbs/articles/:section/:id/files/:file",
                200
            ),
            ("sections_page", "GET", "/", 200),
            ("open_section", "GET", "/sections", 303),
            ("section_page", "GET", "/sections/:section", 200),
            ("post_form", "GET", "/sections/:section/new", 200),
            ("post", "POST", "/sections/:section/new", 201),
            ("article_page", "GET", "/sections/:section/:id", 200),
            ("edit_form", "GET", "/sections/:section/:id/edit", 200),
            ("edit", "POST", "/sections/:section/:id/edit", 201),
            ("erase_form", "GET", "/sections/:section/:id/erase", 200),
            ("erase", "POST", "/sections/:section/:id/erase", 201),
        ]
    );
    let update = app.routes()[6];
    assert_eq!(update.handler, "update");
    assert_eq!(
        update.summary,
        "Update an article; needs the writer's password."
    );
    assert_eq!(update.controller, "BbsArticlesController");
}

async fn create_lists_every_constraint_error_with_its_path(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    let mut input = create_input("Hi");
    input["files"] = json!([
        { "name": "ok", "extension": "png", "url": "https://example.com/a.png" },
        { "name": "", "extension": "markdown-file", "url": "https://example.com/b" },
        { "name": null, "extension": null, "url": "not a url" }
    ]);
    input["format"] = json!("pdf");
    input.as_object_mut().unwrap().remove("writer");
    let response = app
        .test_client()
        .post("/bbs/articles/free")
        .json(&input)
        .send()
        .await;
    assert_eq!(response.status(), 400);
    let problem = response.problem();
    assert_eq!(problem.code, "invalid_body");
    let issues: Vec<_> = problem
        .errors
        .iter()
        .map(|issue| {
            (
                issue.path.as_str(),
                issue.expected.as_str(),
                issue.value.clone(),
            )
        })
        .collect();
    assert_eq!(
        issues,
        [
            (
                "$input.writer",
                "string & MinLength<1> & MaxLength<50>",
                None
            ),
            (
                "$input.title",
                "string & MinLength<3> & MaxLength<50>",
                Some(json!("Hi"))
            ),
            (
                "$input.format",
                r#""md" | "html" | "txt""#,
                Some(json!("pdf"))
            ),
            (
                "$input.files[1].name",
                "(string & MinLength<1> & MaxLength<255>) | null",
                Some(json!(""))
            ),
            (
                "$input.files[1].extension",
                "(string & MinLength<1> & MaxLength<8>) | null",
                Some(json!("markdown-file"))
            ),
            (
                "$input.files[2].url",
                r#"string & Format<"uri-reference">"#,
                Some(json!("not a url"))
            ),
        ]
    );
}

async fn nullable_fields_must_be_present(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    let mut input = create_input("Attachments");
    input["files"] = json!([{ "url": "https://example.com/a" }]);
    let response = app
        .test_client()
        .post("/bbs/articles/free")
        .json(&input)
        .send()
        .await;
    assert_eq!(response.status(), 400);
    let paths: Vec<_> = response
        .problem()
        .errors
        .iter()
        .map(|issue| issue.path.clone())
        .collect();
    assert_eq!(paths, ["$input.files[0].name", "$input.files[0].extension"]);
}

async fn index_refuses_null_for_optional_fields(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    let response = app
        .test_client()
        .patch("/bbs/articles/free")
        .json(&json!({ "page": null, "sort": ["+title", "+title"] }))
        .send()
        .await;
    assert_eq!(response.status(), 400);
    let issues: Vec<_> = response
        .problem()
        .errors
        .iter()
        .map(|issue| (issue.path.clone(), issue.expected.clone()))
        .collect();
    assert_eq!(
        issues,
        [
            ("$input.page".to_owned(), r#"number & Type<"uint32"> & Minimum<1>"#.to_owned()),
            (
                "$input.sort".to_owned(),
                r#"Array<"+writer" | "-writer" | "+title" | "-title" | "+created_at" | "-created_at" | "+updated_at" | "-updated_at"> & UniqueItems ([0] and [1] are equal)"#
                    .to_owned()
            ),
        ]
    );
}

async fn huge_strings_under_the_body_limit_are_stored_or_refused_quickly(backend: Backend) {
    let (app, _db) = app_on(backend).await;
    let client = app.test_client();
    // 1.9 MB of text where the body allows any length: stored whole.
    let body = "長".repeat(600_000);
    let mut input = create_input("Huge body");
    input["body"] = json!(body);
    let started = std::time::Instant::now();
    let response = client.post("/bbs/articles/free").json(&input).send().await;
    assert_eq!(
        response.status(),
        201,
        "{}",
        &response.text()[..200.min(response.text().len())]
    );
    let article: BbsArticle = response.json();
    assert_eq!(article.snapshots[0].body, body);

    // The same where at most 50 characters fit: refused, and the answer
    // does not echo the whole value back.
    let mut input = create_input("x");
    input["title"] = json!("t".repeat(1_900_000));
    let response = client.post("/bbs/articles/free").json(&input).send().await;
    assert_eq!(response.status(), 400);
    let problem: Value = response.json();
    assert_eq!(problem["errors"][0]["path"], "$input.title");
    assert!(
        response.text().len() < 4096,
        "the report of a huge value is {} bytes",
        response.text().len()
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

async fn a_database_that_cannot_be_reached_answers_503(backend: Backend) {
    let url = match backend {
        Backend::Sqlite => "sqlite:///nonexistent-directory/for/sure/bbs.db".to_owned(),
        Backend::Postgres => {
            // A port nothing listens on.
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port();
            format!("postgres://bbs@127.0.0.1:{port}/bbs")
        }
    };
    let store = ArticleStore::lazy(&url).unwrap();
    assert_eq!(store.backend(), backend);
    let client = bbs::app(store).unwrap().test_client();
    let response = client
        .get("/bbs/articles/free/00000000-0000-4000-8000-000000000000")
        .send()
        .await;
    assert_eq!(response.status(), 503, "{}", response.text());
    assert_eq!(response.problem().code, "unavailable");
    assert_eq!(response.header("retry-after"), Some("1"), "when to retry");
    let response = client
        .post("/bbs/articles/free")
        .json(&create_input("Nowhere to go"))
        .send()
        .await;
    assert_eq!(response.status(), 503, "{}", response.text());
    assert_eq!(response.problem().code, "unavailable");
}

/// Updates of one article at once take turns: each appends its own
/// snapshot, none fails (on PostgreSQL the article's row is locked).
async fn concurrent_updates_of_one_article_each_append_a_snapshot(backend: Backend) {
    let database = TestDatabase::new(backend).await;
    let store = ArticleStore::open(&database.url).await.unwrap();
    let input: ArticleCreate = serde_json::from_value(create_input("Busy")).unwrap();
    let article = store
        .create("free", input, "hash".to_owned())
        .await
        .unwrap();
    let updates = (0..16).map(|n| {
        let store = store.clone();
        tokio::spawn(async move {
            let update: ArticleUpdate = serde_json::from_value(json!({
                "title": format!("Version {n}"), "body": "", "format": "txt", "files": [], "password": "p"
            }))
            .unwrap();
            store.append_snapshot("free", article.id, update).await
        })
    });
    for update in updates.collect::<Vec<_>>() {
        let appended = update.await.unwrap().unwrap();
        assert!(appended.is_some(), "the article is there");
    }
    let stored = store.find("free", article.id).await.unwrap().unwrap();
    assert_eq!(stored.snapshots.len(), 17);
    let mut titles: Vec<_> = stored.snapshots[1..]
        .iter()
        .map(|snapshot| snapshot.title.clone())
        .collect();
    titles.sort();
    let mut expected: Vec<_> = (0..16).map(|n| format!("Version {n}")).collect();
    expected.sort();
    assert_eq!(titles, expected);
}
