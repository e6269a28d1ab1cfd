//! Files uploaded to articles, on both backends: listed in a new snapshot's
//! `files` with their URL, served back streamed with the media type given
//! at upload, refused past the configured limits as they arrive, removed
//! with their article.

use bbs::{AttachmentConfig, dto::ArticleEvent, store::Backend};
use framework::{App, testing::MultipartBody};
use serde_json::{Value, json};

use crate::support::{app_with_uploads, create_input, on_both_backends};

on_both_backends!(
    uploads_are_listed_and_served_back,
    uploads_past_the_limits_are_refused,
    uploads_need_the_password_and_the_article
);

async fn create(app: &App, section: &str) -> String {
    let created = app
        .test_client()
        .post(&format!("/bbs/articles/{section}"))
        .json(&create_input("with files"))
        .send()
        .await;
    assert_eq!(created.status(), 201, "{}", created.text());
    created.json::<Value>()["id"].as_str().unwrap().to_owned()
}

fn form(password: &str) -> MultipartBody {
    MultipartBody::new()
        .text("password", password)
        .file("files", "photo.png", "image/png", b"\x89PNG pixels")
        .file(
            "files",
            "notes.txt",
            "text/plain",
            b"first line\nsecond line\n",
        )
}

async fn uploads_are_listed_and_served_back(backend: Backend) {
    let (app, database, dir) = app_with_uploads(backend, AttachmentConfig::default()).await;
    let client = app.test_client();
    let section = "free talk";
    let id = create(&app, "free%20talk").await;
    let uploaded = client
        .post(&format!("/bbs/articles/free%20talk/{id}/files"))
        .multipart(&form("correct horse"))
        .send()
        .await;
    assert_eq!(uploaded.status(), 201, "{}", uploaded.text());
    let snapshot = uploaded.json::<Value>();
    let files = snapshot["files"].as_array().unwrap();
    // The article's own two files, then the uploads.
    assert_eq!(files.len(), 4);
    assert_eq!(files[0]["url"], "https://example.com/logo.png");
    assert_eq!(
        (&files[2]["name"], &files[2]["extension"]),
        (&json!("photo"), &json!("png"))
    );
    assert_eq!(
        (&files[3]["name"], &files[3]["extension"]),
        (&json!("notes"), &json!("txt"))
    );
    let prefix = format!("/bbs/articles/free%20talk/{id}/files/");
    let url = files[3]["url"].as_str().unwrap();
    assert!(url.starts_with(&prefix), "{url}");

    let article = client
        .get(&format!("/bbs/articles/free%20talk/{id}"))
        .send()
        .await
        .json::<Value>();
    let snapshots = article["snapshots"].as_array().unwrap();
    assert_eq!(snapshots.len(), 2, "the upload appended a snapshot");
    assert_eq!(snapshots[1], snapshot);
    assert_eq!(snapshots[1]["title"], snapshots[0]["title"]);
    // The live feed tells the upload as an update of the article.
    let store = bbs::ArticleStore::open(&database.url).await.unwrap();
    let events = store.section_events(section, 0, 10).await.unwrap();
    let told: Vec<(&str, String, String)> = events
        .iter()
        .map(|entry| match &entry.event {
            ArticleEvent::Created { article } => (
                "created",
                article.id.to_string(),
                article.updated_at.to_rfc3339(),
            ),
            ArticleEvent::Updated { article } => (
                "updated",
                article.id.to_string(),
                article.updated_at.to_rfc3339(),
            ),
            other => panic!("{other:?}"),
        })
        .collect();
    let uploaded_at: chrono::DateTime<chrono::Utc> =
        snapshot["created_at"].as_str().unwrap().parse().unwrap();
    assert_eq!(told.len(), 2, "{told:?}");
    assert_eq!((told[0].0, &told[0].1), ("created", &id));
    assert_eq!(told[1], ("updated", id.clone(), uploaded_at.to_rfc3339()));

    let served = client.get(url).send().await;
    assert_eq!(served.status(), 200);
    assert_eq!(served.text(), "first line\nsecond line\n");
    assert_eq!(served.header("content-type"), Some("text/plain"));
    assert_eq!(served.header("content-length"), Some("23"));
    assert_eq!(
        served.header("content-disposition"),
        Some("attachment; filename=\"notes.txt\"")
    );
    let part = client.get(url).header("range", "bytes=0-9").send().await;
    assert_eq!(part.status(), 206);
    assert_eq!(part.text(), "first line");
    let etag = served.header("etag").unwrap().to_owned();
    let current = client.get(url).header("if-none-match", &etag).send().await;
    assert_eq!(current.status(), 304);
    let picture = client.get(files[2]["url"].as_str().unwrap()).send().await;
    assert_eq!(picture.header("content-type"), Some("image/png"));
    assert_eq!(picture.bytes().as_ref(), b"\x89PNG pixels");

    // Another section, or another article, does not reach the file.
    let file = url.rsplit('/').next().unwrap();
    let elsewhere = client
        .get(&format!("/bbs/articles/notice/{id}/files/{file}"))
        .send()
        .await;
    assert_eq!(elsewhere.status(), 404);

    let stored = dir.path().join(&id);
    assert_eq!(std::fs::read_dir(&stored).unwrap().count(), 2);
    let erased = client
        .delete(&format!("/bbs/articles/free%20talk/{id}"))
        .json(&json!({ "password": "correct horse" }))
        .send()
        .await;
    assert_eq!(erased.status(), 204);
    assert!(!stored.exists(), "the files went with the article");
    assert_eq!(client.get(url).send().await.status(), 404);
}

async fn uploads_past_the_limits_are_refused(backend: Backend) {
    let config = AttachmentConfig {
        max_bytes: 1024,
        max_files: 2,
        types: vec!["text/plain".to_owned(), "image/*".to_owned()],
        ..AttachmentConfig::default()
    };
    let (app, _database, dir) = app_with_uploads(backend, config).await;
    let client = app.test_client();
    let id = create(&app, "free").await;
    let path = format!("/bbs/articles/free/{id}/files");

    let large = MultipartBody::new().text("password", "correct horse").file(
        "files",
        "big.txt",
        "text/plain",
        &[b'x'; 2000],
    );
    let refused = client.post(&path).multipart(&large).send().await;
    assert_eq!(refused.status(), 413);
    let problem = refused.problem();
    assert_eq!(problem.code, "file_too_large");
    assert_eq!(problem.errors[0].path, "$input.files[0]");
    assert_eq!(problem.errors[0].expected, "File & MaxSize<1024>");

    let wrong = MultipartBody::new()
        .text("password", "correct horse")
        .file("files", "page.html", "text/html", b"<script>")
        .file("files", "a.txt", "text/plain", b"a")
        .file("files", "b.txt", "text/plain", b"b");
    let refused = client.post(&path).multipart(&wrong).send().await;
    assert_eq!(refused.status(), 400);
    let issues: Vec<(String, String)> = refused
        .problem()
        .errors
        .into_iter()
        .map(|issue| (issue.path, issue.expected))
        .collect();
    assert_eq!(
        issues,
        [
            (
                "$input.files[0]".to_owned(),
                "File & MaxSize<1024> & Accept<\"text/plain, image/*\">".to_owned()
            ),
            (
                "$input.files".to_owned(),
                "Array<File & MaxSize<1024> & Accept<\"text/plain, image/*\">> & MinItems<1> & MaxItems<2>"
                    .to_owned()
            ),
        ]
    );
    let none = MultipartBody::new().text("password", "correct horse");
    let refused = client.post(&path).multipart(&none).send().await;
    assert_eq!(refused.status(), 400);
    assert_eq!(refused.problem().errors[0].path, "$input.files");
    assert!(!dir.path().join(&id).exists(), "nothing refused was stored");
}

async fn uploads_need_the_password_and_the_article(backend: Backend) {
    let (app, _database, dir) = app_with_uploads(backend, AttachmentConfig::default()).await;
    let client = app.test_client();
    let id = create(&app, "free").await;
    let wrong = client
        .post(&format!("/bbs/articles/free/{id}/files"))
        .multipart(&form("guess"))
        .send()
        .await;
    assert_eq!(wrong.status(), 403);
    assert_eq!(wrong.problem().code, "wrong_password");
    let elsewhere = client
        .post(&format!("/bbs/articles/notice/{id}/files"))
        .multipart(&form("correct horse"))
        .send()
        .await;
    assert_eq!(elsewhere.status(), 404);
    assert!(!dir.path().join(&id).exists());
    let missing = client
        .get(&format!(
            "/bbs/articles/free/{id}/files/00000000-0000-4000-8000-000000000000"
        ))
        .send()
        .await;
    assert_eq!(missing.status(), 404);
}
