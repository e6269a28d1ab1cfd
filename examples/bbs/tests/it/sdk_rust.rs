//! The generated Rust SDK (`bbs-sdk`) against the server over a socket:
//! every route and every documented error it can provoke, values
//! round-tripping unchanged.

use bbs_sdk::{
    ArticleCreate, ArticleErase, ArticleFormat, ArticleIndexRequest, ArticleSearch, ArticleSort,
    ArticleUpdate, AttachmentFile, Client, Error,
};

use crate::support::{MODERATOR_TOKEN, Served};

fn create_input(title: &str, format: ArticleFormat) -> ArticleCreate {
    ArticleCreate {
        writer: "Robert «Bob» 鈴木".to_owned(),
        title: title.to_owned(),
        body: "Hello, 世界! 👋\n\"quoted\" \\ and \u{0}".to_owned(),
        format,
        files: vec![
            AttachmentFile {
                name: Some("logo".to_owned()),
                extension: Some("png".to_owned()),
                url: "https://example.com/logo.png".to_owned(),
            },
            AttachmentFile {
                name: None,
                extension: None,
                url: "https://example.com/README".to_owned(),
            },
        ],
        password: "correct horse".to_owned(),
    }
}

fn assert_api_error(err: Error, status: u16, code: &str) -> bbs_sdk::Problem {
    match err {
        Error::Api {
            status: found,
            problem,
            ..
        } => {
            assert_eq!(
                (found, problem.code.as_str()),
                (status, code),
                "{problem:?}"
            );
            *problem
        }
        other => panic!("expected a documented {status} {code}, got {other:?}"),
    }
}

#[tokio::test]
async fn every_route_and_documented_error_through_the_rust_sdk() {
    let server = Served::start().await;
    let client = Client::new(server.url());
    let articles = client.bbs().articles();
    let section = "free talk/ünïcode?&#";

    // create: every format round-trips, nulls stay null, unicode unchanged.
    let mut created = Vec::new();
    for (index, format) in [ArticleFormat::Md, ArticleFormat::Html, ArticleFormat::Txt]
        .into_iter()
        .enumerate()
    {
        let input = create_input(&format!("Title {index}"), format);
        let article = articles.create(section, &input).await.unwrap();
        assert_eq!(article.section, section);
        assert_eq!(article.writer, input.writer);
        let snapshot = &article.snapshots[0];
        assert_eq!(
            (
                &snapshot.title,
                &snapshot.body,
                snapshot.format,
                &snapshot.files
            ),
            (&input.title, &input.body, input.format, &input.files)
        );
        created.push(article);
    }

    // at: the stored article is the one returned, dates included.
    for article in &created {
        let read = articles.at(section, article.id).await.unwrap();
        assert_eq!(&read, article);
    }

    // index: filters, every sort key, paging; absent options stay absent.
    for sort in [
        ArticleSort::WriterAsc,
        ArticleSort::WriterDesc,
        ArticleSort::TitleAsc,
        ArticleSort::TitleDesc,
        ArticleSort::CreatedAtAsc,
        ArticleSort::CreatedAtDesc,
        ArticleSort::UpdatedAtAsc,
        ArticleSort::UpdatedAtDesc,
    ] {
        let page = articles
            .index(
                section,
                &ArticleIndexRequest {
                    page: Some(1),
                    limit: Some(2),
                    search: Some(ArticleSearch {
                        writer: Some("bob".to_owned()),
                        title: None,
                        body: None,
                    }),
                    sort: Some(vec![sort]),
                },
            )
            .await
            .unwrap();
        assert_eq!(page.data.len(), 2, "{sort:?}");
        assert_eq!(page.pagination.records, 3);
    }
    let titles = |page: &bbs_sdk::PageArticleSummary| {
        page.data
            .iter()
            .map(|summary| summary.title.clone())
            .collect::<Vec<_>>()
    };
    let ascending = articles
        .index(
            section,
            &ArticleIndexRequest {
                page: None,
                limit: None,
                search: None,
                sort: Some(vec![ArticleSort::TitleAsc]),
            },
        )
        .await
        .unwrap();
    assert_eq!(titles(&ascending), ["Title 0", "Title 1", "Title 2"]);

    // update: wrong password is a documented 403; the right one appends.
    let target = &created[0];
    let mut update = ArticleUpdate {
        title: "Second version".to_owned(),
        body: "Body v2 — ✓".to_owned(),
        format: ArticleFormat::Txt,
        files: Vec::new(),
        password: "wrong".to_owned(),
    };
    let err = articles
        .update(section, target.id, &update)
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(403));
    assert_api_error(err, 403, "wrong_password");
    update.password = "correct horse".to_owned();
    let snapshot = articles.update(section, target.id, &update).await.unwrap();
    assert_eq!(
        (
            snapshot.title.as_str(),
            snapshot.body.as_str(),
            snapshot.format
        ),
        ("Second version", "Body v2 — ✓", ArticleFormat::Txt)
    );
    let read = articles.at(section, target.id).await.unwrap();
    assert_eq!(read.snapshots.len(), 2);
    assert_eq!(read.snapshots[1], snapshot);

    // 400: every problem listed with its path.
    let mut invalid = create_input("no", ArticleFormat::Md);
    invalid.files[0].url = "not a uri".to_owned();
    let problem = assert_api_error(
        articles.create(section, &invalid).await.unwrap_err(),
        400,
        "invalid_body",
    );
    let paths: Vec<&str> = problem
        .errors
        .iter()
        .map(|issue| issue.path.as_str())
        .collect();
    assert_eq!(paths, ["$input.title", "$input.files[0].url"]);

    // 413: a body over the server's limit.
    let mut huge = create_input("Huge", ArticleFormat::Md);
    huge.body = "x".repeat(framework::DEFAULT_BODY_LIMIT + 1);
    assert_api_error(
        articles.create(section, &huge).await.unwrap_err(),
        413,
        "payload_too_large",
    );

    // erase: 403, then done, then 404 for the article and for at.
    let erase = |password: &str| ArticleErase {
        password: password.to_owned(),
    };
    assert_api_error(
        articles
            .erase(section, target.id, &erase("wrong"))
            .await
            .unwrap_err(),
        403,
        "wrong_password",
    );
    articles
        .erase(section, target.id, &erase("correct horse"))
        .await
        .unwrap();
    assert_api_error(
        articles.at(section, target.id).await.unwrap_err(),
        404,
        "not_found",
    );
    assert_api_error(
        articles
            .erase(section, target.id, &erase("correct horse"))
            .await
            .unwrap_err(),
        404,
        "not_found",
    );
}

#[tokio::test]
async fn an_unavailable_store_is_a_documented_503_and_transport_errors_are_told_apart() {
    let server = Served::unavailable().await;
    let client = Client::new(server.url());
    let err = client
        .bbs()
        .articles()
        .at("general", uuid::Uuid::nil())
        .await
        .unwrap_err();
    assert_api_error(err, 503, "unavailable");

    // A port nobody listens on: the request never gets an answer.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let closed = Client::new(format!("http://127.0.0.1:{port}"));
    let err = closed
        .bbs()
        .articles()
        .at("general", uuid::Uuid::nil())
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Transport(_)), "{err:?}");
    assert_eq!(err.status(), None);
}

#[tokio::test]
async fn a_moderator_erases_with_the_token_set_on_the_client() {
    let server = Served::start().await;
    let client = Client::new(server.url());
    let section = "moderated";
    let article = client
        .bbs()
        .articles()
        .create(section, &create_input("To be moderated", ArticleFormat::Md))
        .await
        .unwrap();

    // No credential: refused before anything is sent.
    let missing = client
        .bbs()
        .moderation()
        .articles()
        .erase(section, article.id)
        .await;
    assert!(
        matches!(
            missing,
            Err(Error::MissingCredential {
                scheme: "moderator"
            })
        ),
        "{missing:?}"
    );
    let wrong = Client::builder(server.url())
        .moderator_token("not it")
        .build();
    let err = wrong
        .bbs()
        .moderation()
        .articles()
        .erase(section, article.id)
        .await
        .unwrap_err();
    assert_api_error(err, 401, "unauthorized");

    let moderator = Client::builder(server.url())
        .moderator_token(MODERATOR_TOKEN)
        .build();
    moderator
        .bbs()
        .moderation()
        .articles()
        .erase(section, article.id)
        .await
        .unwrap();
    let gone = client
        .bbs()
        .articles()
        .at(section, article.id)
        .await
        .unwrap_err();
    assert_api_error(gone, 404, "not_found");
}

/// The live feed through the Rust SDK: typed events as they come, then
/// resumed after the first with `Last-Event-ID` (the method's
/// `last_event_id`) and with `after`.
#[tokio::test]
async fn the_live_feed_through_the_rust_sdk() {
    use bbs_sdk::{ArticleEvent, ArticleEventsQuery};
    use futures_util::StreamExt;

    let server = Served::start().await;
    let client = Client::new(server.url());
    let articles = client.bbs().articles();
    let section = "live feed/ü";
    let mut events = articles
        .events()
        .follow(section, &ArticleEventsQuery { after: None }, None)
        .await
        .unwrap();
    let first = articles
        .create(section, &create_input("Live one", ArticleFormat::Md))
        .await
        .unwrap();
    let second = articles
        .create(section, &create_input("Live two", ArticleFormat::Txt))
        .await
        .unwrap();
    let created = events.next().await.unwrap().unwrap();
    assert_eq!(created.event, "created");
    let ArticleEvent::Created { article } = &created.data else {
        panic!("{:?}", created.data);
    };
    assert_eq!(
        (article.id, article.title.as_str(), &article.created_at),
        (first.id, "Live one", &first.created_at)
    );
    assert_eq!(article.updated_at, first.created_at);
    let then = events.next().await.unwrap().unwrap();
    assert!(matches!(&then.data, ArticleEvent::Created { article } if article.id == second.id));
    assert!(then.id.parse::<u64>().unwrap() > created.id.parse::<u64>().unwrap());
    drop(events);

    let mut events = articles
        .events()
        .follow(
            section,
            &ArticleEventsQuery { after: None },
            Some(&created.id),
        )
        .await
        .unwrap();
    assert_eq!(events.next().await.unwrap().unwrap().id, then.id);

    let after = ArticleEventsQuery {
        after: Some(then.id.parse().unwrap()),
    };
    let mut events = articles
        .events()
        .follow(section, &after, None)
        .await
        .unwrap();
    let erase = ArticleErase {
        password: "correct horse".to_owned(),
    };
    articles.erase(section, second.id, &erase).await.unwrap();
    let erased = events.next().await.unwrap().unwrap();
    assert_eq!(erased.event, "erased");
    assert!(matches!(erased.data, ArticleEvent::Erased { id } if id == second.id));

    let refused = articles
        .events()
        .follow(section, &ArticleEventsQuery { after: None }, Some("seven"))
        .await;
    match refused {
        Err(err) => {
            assert_api_error(err, 400, "invalid_last_event_id");
        }
        Ok(_) => panic!("a Last-Event-ID that is not an event id is refused"),
    }
}

/// Files uploaded to an article through the Rust SDK: listed in the new
/// snapshot, downloaded whole and in part, refused with the server's
/// documented errors.
#[tokio::test]
async fn files_are_uploaded_and_downloaded_through_the_rust_sdk() {
    use bbs_sdk::{
        ArticleFilesUpload, FileConditions, UploadFile, answers::BbsArticlesFilesDownload,
    };

    let server = Served::start().await;
    let client = Client::new(server.url());
    let articles = client.bbs().articles();
    let section = "free talk/ünïcode?&#";
    let article = articles
        .create(section, &create_input("with files", ArticleFormat::Md))
        .await
        .unwrap();
    let upload = |password: &str, files: Vec<UploadFile>| ArticleFilesUpload {
        password: password.to_owned(),
        files,
    };
    let snapshot = articles
        .files()
        .upload(
            section,
            article.id,
            &upload(
                "correct horse",
                vec![
                    UploadFile::from_bytes("photo.png", vec![0x89, b'P', b'N', b'G'])
                        .media_type("image/png"),
                    UploadFile::from_bytes("notes.txt", "first line\n").media_type("text/plain"),
                ],
            ),
        )
        .await
        .unwrap();
    assert_eq!(snapshot.files.len(), 4);
    assert_eq!(snapshot.files[3].name.as_deref(), Some("notes"));
    assert_eq!(snapshot.files[3].extension.as_deref(), Some("txt"));
    let file: uuid::Uuid = snapshot.files[2]
        .url
        .rsplit('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let whole = articles
        .files()
        .download(section, article.id, file, &FileConditions::default())
        .await
        .unwrap();
    let BbsArticlesFilesDownload::Status200(whole) = whole else {
        panic!("expected 200, got {whole:?}");
    };
    assert_eq!(whole.body.as_ref(), [0x89, b'P', b'N', b'G']);
    assert_eq!(whole.header("content-type"), Some("image/png"));
    let range = FileConditions {
        range: Some("bytes=1-3".to_owned()),
        ..FileConditions::default()
    };
    let part = articles
        .files()
        .download(section, article.id, file, &range)
        .await
        .unwrap();
    let BbsArticlesFilesDownload::Status206(part) = part else {
        panic!("expected 206, got {part:?}");
    };
    assert_eq!(part.body.as_ref(), b"PNG");
    assert_eq!(part.content_range(), Some("bytes 1-3/4"));

    let wrong = articles
        .files()
        .upload(
            section,
            article.id,
            &upload(
                "guess",
                vec![UploadFile::from_bytes("a.txt", "a").media_type("text/plain")],
            ),
        )
        .await
        .unwrap_err();
    assert_api_error(wrong, 403, "wrong_password");
    let html = articles
        .files()
        .upload(
            section,
            article.id,
            &upload(
                "correct horse",
                vec![UploadFile::from_bytes("page.html", "<script>").media_type("text/html")],
            ),
        )
        .await
        .unwrap_err();
    let problem = assert_api_error(html, 400, "invalid_body");
    assert_eq!(problem.errors[0].path, "$input.files[0]");
    let large = articles
        .files()
        .upload(
            section,
            article.id,
            &upload(
                "correct horse",
                vec![
                    UploadFile::from_bytes("big.txt", vec![b'x'; 11 * 1024 * 1024])
                        .media_type("text/plain"),
                ],
            ),
        )
        .await
        .unwrap_err();
    assert_api_error(large, 413, "file_too_large");
    let missing = articles
        .files()
        .download(
            section,
            article.id,
            uuid::Uuid::new_v4(),
            &FileConditions::default(),
        )
        .await
        .unwrap_err();
    assert_api_error(missing, 404, "not_found");
}
