//! The web front-end through the in-process client: every page and form,
//! redirects, refused forms shown again, and escaping.

use framework::{TestClient, TestResponse};
use serde_json::json;

use crate::support::{app, create_input};

/// Posts `title` into `free` through the JSON API; the article's id.
async fn post_json(client: &TestClient, section: &str, input: serde_json::Value) -> String {
    let response = client
        .post(&format!("/bbs/articles/{section}"))
        .json(&input)
        .send()
        .await;
    assert_eq!(response.status(), 201, "{}", response.text());
    response.json::<serde_json::Value>()["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A form body from `(name, value)` pairs.
pub fn form(fields: &[(&str, &str)]) -> String {
    fields
        .iter()
        .map(|(name, value)| format!("{name}={}", encode(value)))
        .collect::<Vec<_>>()
        .join("&")
}

fn encode(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (byte as char).to_string()
            }
            _ => format!("%{byte:02X}"),
        })
        .collect()
}

fn assert_html(response: &TestResponse, status: u16) -> String {
    assert_eq!(response.status(), status, "{}", response.text());
    assert_eq!(
        response.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    response.text()
}

const POST_FIELDS: [(&str, &str); 5] = [
    ("writer", "Kim"),
    ("title", "Posted from a form"),
    ("body", "Line one\nLine two"),
    ("format", "txt"),
    ("password", "open sesame"),
];

/// Posts the form into `free`; the article's page.
async fn post_form(client: &TestClient, fields: &[(&str, &str)]) -> String {
    let response = client
        .post("/sections/free/new")
        .form(&form(fields))
        .send()
        .await;
    assert_eq!(response.status(), 303, "{}", response.text());
    let location = response.header("location").unwrap().to_owned();
    assert!(location.starts_with("/sections/free/"), "{location}");
    location
}

#[tokio::test]
async fn the_sections_page_lists_sections_and_opens_one() {
    let (app, _dir) = app().await;
    let client = app.test_client();
    let empty = assert_html(&client.get("/").send().await, 200);
    assert!(empty.contains("No articles yet."), "{empty}");
    post_json(&client, "free", create_input("One")).await;
    post_json(&client, "a%2Fb%20%3Cc%3E", create_input("Two")).await;
    let page = assert_html(&client.get("/").send().await, 200);
    assert!(
        page.contains(r#"<a href="/sections/free">free</a>"#),
        "{page}"
    );
    assert!(
        page.contains(r#"<a href="/sections/a%2Fb%20%3Cc%3E">a/b &#60;c&#62;</a>"#),
        "{page}"
    );
    let open = client.get("/sections?name=a%2Fb+%3Cc%3E").send().await;
    assert_eq!(open.status(), 303);
    assert_eq!(open.header("location"), Some("/sections/a%2Fb%20%3Cc%3E"));
    let section = assert_html(&client.get("/sections/a%2Fb%20%3Cc%3E").send().await, 200);
    assert!(section.contains("Two"), "{section}");
    let blank = client.get("/sections?name=+").send().await;
    assert_eq!(blank.header("location"), Some("/"));
}

#[tokio::test]
async fn a_section_page_paginates_and_searches() {
    let (app, _dir) = app().await;
    let client = app.test_client();
    for n in 1..=5 {
        post_json(&client, "free", create_input(&format!("Article {n}"))).await;
    }
    post_json(&client, "free", create_input("The needle")).await;
    let first = assert_html(
        &client
            .get("/sections/free?limit=2&sort%5B0%5D=%2Btitle")
            .send()
            .await,
        200,
    );
    assert!(
        first.contains("Article 1") && first.contains("Article 2"),
        "{first}"
    );
    assert!(!first.contains("Article 3"), "{first}");
    assert!(first.contains("Page 1 of 3 (6 articles)"), "{first}");
    assert!(
        first.contains(r#"href="/sections/free?page=2&#38;limit=2&#38;sort%5B0%5D=%2Btitle""#),
        "the next link keeps the sort: {first}"
    );
    assert!(!first.contains(r#"rel="prev""#));
    let last = assert_html(
        &client
            .get("/sections/free?page=3&limit=2&sort%5B0%5D=%2Btitle")
            .send()
            .await,
        200,
    );
    assert!(
        last.contains("Article 5") && last.contains("The needle"),
        "{last}"
    );
    assert!(last.contains(r#"rel="prev""#) && !last.contains(r#"rel="next""#));
    let found = assert_html(
        &client
            .get("/sections/free?search%5Btitle%5D=NEEDLE&search%5Bwriter%5D=")
            .send()
            .await,
        200,
    );
    assert!(
        found.contains("The needle") && !found.contains("Article 1"),
        "{found}"
    );
    assert!(
        found.contains(r#"value="NEEDLE""#),
        "the search form is filled: {found}"
    );
    let refused = client.get("/sections/free?page=0").send().await;
    assert_eq!(refused.status(), 400);
    assert_eq!(refused.problem().errors[0].path, "$query.page");
}

/// The section page names the live feed its script follows, from the
/// feed's newest event as of the listing; new articles go at the top only
/// of the first page, newest first, unfiltered.
#[tokio::test]
async fn a_section_page_follows_the_feed_from_its_listing() {
    let (app, _dir) = app().await;
    let client = app.test_client();
    let page = assert_html(&client.get("/sections/q%26a%20board").send().await, 200);
    assert!(
        page.contains(r#"data-events="/bbs/articles/q%26a%20board/events""#),
        "{page}"
    );
    assert!(page.contains(r#"data-after="0""#), "{page}");
    assert!(page.contains(r#"data-insert="true""#), "{page}");
    assert!(
        page.contains(r#"<p id="no-articles">No articles.</p>"#),
        "{page}"
    );
    for n in 1..=3 {
        post_json(
            &client,
            "q%26a%20board",
            create_input(&format!("Article {n}")),
        )
        .await;
    }
    let id = post_json(&client, "elsewhere", create_input("Elsewhere")).await;
    let page = assert_html(&client.get("/sections/q%26a%20board").send().await, 200);
    // Three events of this section and one of another: the position is the
    // board's.
    assert!(page.contains(r#"data-after="4""#), "{page}");
    assert!(page.contains(r#"<p id="no-articles" hidden>"#), "{page}");
    let elsewhere = assert_html(&client.get("/sections/elsewhere").send().await, 200);
    assert!(
        elsewhere.contains(&format!(r#"<tr data-id="{id}">"#)),
        "{elsewhere}"
    );
    for query in [
        "?page=2&limit=1",
        "?search%5Btitle%5D=1",
        "?sort%5B0%5D=%2Btitle",
    ] {
        let page = assert_html(
            &client
                .get(&format!("/sections/q%26a%20board{query}"))
                .send()
                .await,
            200,
        );
        assert!(page.contains(r#"data-insert="false""#), "{query}: {page}");
    }
}

#[tokio::test]
async fn the_post_form_redirects_to_the_new_article() {
    let (app, _dir) = app().await;
    let client = app.test_client();
    let blank = assert_html(&client.get("/sections/free/new").send().await, 200);
    assert!(
        blank.contains(r#"<form method="post" action="/sections/free/new">"#),
        "{blank}"
    );
    assert!(blank.contains(r#"name="title""#) && blank.contains(r#"name="password""#));
    let location = post_form(&client, &POST_FIELDS).await;
    let article = assert_html(&client.get(&location).send().await, 200);
    assert!(
        article.contains("<title>Posted from a form · BBS</title>"),
        "{article}"
    );
    assert!(article.contains("Line one\nLine two"), "{article}");
    assert!(
        article.contains(r#"<span id="writer">Kim</span>"#),
        "{article}"
    );
    let id = location.rsplit('/').next().unwrap();
    let json = client.get(&format!("/bbs/articles/free/{id}")).send().await;
    assert_eq!(
        json.status(),
        200,
        "the JSON API reads what the form posted"
    );
    assert_eq!(
        json.json::<serde_json::Value>()["snapshots"][0]["format"],
        "txt"
    );
}

/// AsciiDoc (API version 2.0.0) is offered, and its body shown as text,
/// as every format's is.
#[tokio::test]
async fn an_asciidoc_article_is_posted_and_shown_as_text() {
    let (app, _dir) = app().await;
    let client = app.test_client();
    let blank = assert_html(&client.get("/sections/free/new").send().await, 200);
    assert!(
        blank.contains(r#"<option value="adoc">adoc</option>"#),
        "{blank}"
    );
    let mut fields = POST_FIELDS;
    fields[2] = ("body", "= Title\n\n*bold* <b>not html</b>");
    fields[3] = ("format", "adoc");
    let location = post_form(&client, &fields).await;
    let article = assert_html(&client.get(&location).send().await, 200);
    assert!(
        article.contains("= Title\n\n*bold* &#60;b&#62;not html&#60;/b&#62;"),
        "{article}"
    );
    assert!(article.contains("(adoc)"), "{article}");
    let edit = assert_html(&client.get(&format!("{location}/edit")).send().await, 200);
    assert!(edit.contains(r#"<option value="adoc" selected>"#), "{edit}");
}

#[tokio::test]
async fn a_refused_post_shows_each_problem_at_its_field() {
    let (app, _dir) = app().await;
    let client = app.test_client();
    let fields = [
        ("writer", "Kim <b>"),
        ("title", "ab"),
        ("body", "kept"),
        ("format", "doc"),
        ("password", "s3cret-not-echoed"),
    ];
    let response = client
        .post("/sections/free/new")
        .form(&form(&fields))
        .send()
        .await;
    let page = assert_html(&response, 400);
    assert!(
        page.contains(r#"<span class="error" id="title-error">must be at least 3 and at most 50 characters</span>"#),
        "{page}"
    );
    assert!(
        page.contains(r#"id="format-error">must be one of md, html, txt, adoc<"#),
        "{page}"
    );
    assert!(!page.contains("writer-error"), "the writer is fine: {page}");
    assert!(
        page.contains(r#"value="ab""#),
        "the form is filled again: {page}"
    );
    assert!(page.contains(r#"value="Kim &#60;b&#62;""#), "{page}");
    assert!(
        !page.contains("s3cret-not-echoed"),
        "the password is not echoed"
    );
    let listed = client
        .patch("/bbs/articles/free")
        .json(&json!({}))
        .send()
        .await;
    assert_eq!(
        listed.json::<serde_json::Value>()["pagination"]["records"],
        0
    );
    let missing = client
        .post("/sections/free/new")
        .form("title=abc")
        .send()
        .await;
    assert_eq!(
        missing.status(),
        400,
        "a form without its fields is refused"
    );
}

#[tokio::test]
async fn user_text_is_escaped_everywhere() {
    let (app, _dir) = app().await;
    let client = app.test_client();
    let script = "<script>alert(1)</script>";
    let image = r#"<img src=x onerror="alert(2)">"#;
    let mut input = create_input(script);
    input["body"] = json!(image);
    input["writer"] = json!(script);
    input["files"] = json!([
        { "name": "evil", "extension": null, "url": "javascript:alert(3)" },
        { "name": "fine", "extension": "png", "url": "https://example.com/a.png?a=1&b=2" }
    ]);
    let id = post_json(&client, "free", input).await;
    let pages = [
        format!("/sections/free/{id}"),
        "/sections/free".to_owned(),
        format!("/sections/free/{id}/edit"),
        format!("/sections/free/{id}/erase"),
    ];
    for path in &pages {
        let page = assert_html(&client.get(path).send().await, 200);
        assert!(!page.contains("<script>alert"), "{path}: {page}");
        assert!(!page.contains("<img src=x"), "{path}: {page}");
        assert!(
            page.contains("&#60;script&#62;alert(1)&#60;/script&#62;"),
            "{path} shows the title as text: {page}"
        );
    }
    let article = client.get(&pages[0]).send().await.text();
    assert!(!article.contains("href=\"javascript:"), "{article}");
    assert!(article.contains("<li>evil</li>"), "{article}");
    assert!(
        article.contains(r#"href="https://example.com/a.png?a=1&#38;b=2""#),
        "{article}"
    );
    assert!(
        article.contains("&#60;img src=x onerror=&#34;alert(2)&#34;&#62;"),
        "the body is text: {article}"
    );
}

#[tokio::test]
async fn the_edit_form_appends_a_version_with_the_password() {
    let (app, _dir) = app().await;
    let client = app.test_client();
    let location = post_form(&client, &POST_FIELDS).await;
    let edit_url = format!("{location}/edit");
    let filled = assert_html(&client.get(&edit_url).send().await, 200);
    assert!(filled.contains(r#"value="Posted from a form""#), "{filled}");
    assert!(
        filled.contains(r#"<option value="txt" selected>"#),
        "{filled}"
    );
    let mut fields = vec![
        ("title", "Edited title"),
        ("body", "New body"),
        ("format", "md"),
        ("password", "wrong"),
    ];
    let wrong = client.post(&edit_url).form(&form(&fields)).send().await;
    let page = assert_html(&wrong, 403);
    assert!(
        page.contains(
            r#"id="password-error">does not match the password the article was posted with<"#
        ),
        "{page}"
    );
    assert!(page.contains(r#"value="Edited title""#), "{page}");
    fields[0].1 = "no";
    let refused = client.post(&edit_url).form(&form(&fields)).send().await;
    assert!(assert_html(&refused, 400).contains(r#"id="title-error""#));
    fields[0].1 = "Edited title";
    fields[3].1 = "open sesame";
    let saved = client.post(&edit_url).form(&form(&fields)).send().await;
    assert_eq!(saved.status(), 303, "{}", saved.text());
    assert_eq!(saved.header("location"), Some(location.as_str()));
    let article = assert_html(&client.get(&location).send().await, 200);
    assert!(
        article.contains(r#"<h1 id="title">Edited title</h1>"#),
        "{article}"
    );
    assert!(article.contains("<h2>History</h2>"), "{article}");
    assert!(
        article.contains("Version 1: Posted from a form"),
        "{article}"
    );
    let missing = client
        .get("/sections/free/00000000-0000-0000-0000-000000000000/edit")
        .send()
        .await;
    assert_eq!(missing.status(), 404);
}

#[tokio::test]
async fn the_erase_form_erases_with_the_password_and_redirects_to_the_section() {
    let (app, _dir) = app().await;
    let client = app.test_client();
    let location = post_form(&client, &POST_FIELDS).await;
    let erase_url = format!("{location}/erase");
    let confirm = assert_html(&client.get(&erase_url).send().await, 200);
    assert!(confirm.contains("Erase <a href="), "{confirm}");
    let wrong = client.post(&erase_url).form("password=nope").send().await;
    assert!(assert_html(&wrong, 403).contains(r#"id="password-error""#));
    assert_eq!(client.get(&location).send().await.status(), 200);
    let erased = client
        .post(&erase_url)
        .form(&form(&[("password", "open sesame")]))
        .send()
        .await;
    assert_eq!(erased.status(), 303);
    assert_eq!(erased.header("location"), Some("/sections/free"));
    assert_eq!(client.get(&location).send().await.status(), 404);
    assert_eq!(
        client
            .post(&erase_url)
            .form("password=x")
            .send()
            .await
            .status(),
        404
    );
}

#[tokio::test]
async fn pages_are_left_out_of_the_sdks_and_the_api_keeps_its_routes() {
    let (app, _dir) = app().await;
    for route in app.routes() {
        let page = route.path == "/" || route.path.starts_with("/sections");
        assert_eq!(route.sdk, !page, "{} {}", route.method.as_str(), route.path);
    }
    let in_sdk: Vec<&str> = app
        .manifest()
        .routes
        .iter()
        .filter(|route| route.sdk)
        .map(|route| route.path.as_str())
        .collect();
    assert!(
        in_sdk.iter().all(|path| path.starts_with("/bbs/")),
        "{in_sdk:?}"
    );
    let head = app
        .test_client()
        .request(http::Method::HEAD, "/")
        .send()
        .await;
    assert_eq!(head.status(), 200);
    assert!(head.bytes().is_empty());
}
