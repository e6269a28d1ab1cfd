//! API versions: version 2.0.0 adds AsciiDoc articles, version-1 clients
//! (the committed `bbs-sdk`, and clients without the version header) keep
//! the API they were written for, and the gate says so.

use framework::manifest::{ApiManifest, Severity, diff};

use crate::support::Served;

fn article(format_v1: bbs_sdk::ArticleFormat) -> bbs_sdk::ArticleCreate {
    bbs_sdk::ArticleCreate {
        writer: "ada".to_owned(),
        title: "Versions".to_owned(),
        body: "= Title".to_owned(),
        format: format_v1,
        files: Vec::new(),
        password: "pw".to_owned(),
    }
}

/// A version-2 client writes AsciiDoc; a version-1 client reads the same
/// article as plain text, updates it in a format it knows, and the
/// version-2 client sees every version as written.
#[tokio::test]
async fn both_sdks_serve_their_clients_from_one_server() {
    let server = Served::start().await;
    let v1 = bbs_sdk::Client::new(server.url());
    let v2 = bbs_sdk_v2::Client::new(server.url());
    assert_eq!(
        (bbs_sdk::API_VERSION, bbs_sdk_v2::API_VERSION),
        ("1.0.0", "2.0.0")
    );
    let section = "versions";
    let written = v2
        .bbs()
        .articles()
        .create(
            section,
            &bbs_sdk_v2::ArticleCreate {
                writer: "ada".to_owned(),
                title: "AsciiDoc".to_owned(),
                body: "= Title".to_owned(),
                format: bbs_sdk_v2::ArticleFormat::Adoc,
                files: Vec::new(),
                password: "pw".to_owned(),
            },
        )
        .await
        .unwrap();
    assert_eq!(written.snapshots[0].format, bbs_sdk_v2::ArticleFormat::Adoc);
    // Version 1 has no AsciiDoc: the article reads as plain text.
    let read = v1.bbs().articles().at(section, written.id).await.unwrap();
    assert_eq!(read.snapshots[0].format, bbs_sdk::ArticleFormat::Txt);
    assert_eq!(read.snapshots[0].body, "= Title");
    let updated = v1
        .bbs()
        .articles()
        .update(
            section,
            written.id,
            &bbs_sdk::ArticleUpdate {
                title: "Markdown now".to_owned(),
                body: "# Title".to_owned(),
                format: bbs_sdk::ArticleFormat::Md,
                files: Vec::new(),
                password: "pw".to_owned(),
            },
        )
        .await
        .unwrap();
    assert_eq!(updated.format, bbs_sdk::ArticleFormat::Md);
    let history = v2.bbs().articles().at(section, written.id).await.unwrap();
    let formats: Vec<_> = history.snapshots.iter().map(|s| s.format).collect();
    assert_eq!(
        formats,
        [
            bbs_sdk_v2::ArticleFormat::Adoc,
            bbs_sdk_v2::ArticleFormat::Md
        ]
    );
    // A version-1 article reads the same through both.
    let old = v1
        .bbs()
        .articles()
        .create(section, &article(bbs_sdk::ArticleFormat::Html))
        .await
        .unwrap();
    let new = v2.bbs().articles().at(section, old.id).await.unwrap();
    assert_eq!(new.snapshots[0].format, bbs_sdk_v2::ArticleFormat::Html);
}

/// Clients without the header are served version 1.0.0; a version the
/// board does not serve is refused with its code; version 1 refuses
/// `adoc` as it always did.
#[tokio::test]
async fn the_version_header_decides_what_is_served() {
    let server = Served::start().await;
    let http = reqwest::Client::new();
    let url = format!("{}/bbs/articles/free", server.url());
    let body = serde_json::json!({
        "writer": "ada", "title": "Header", "body": "x", "format": "adoc",
        "files": [], "password": "pw"
    });
    let send = |version: Option<&str>| {
        let mut request = http
            .post(&url)
            .header("content-type", "application/json")
            .body(body.to_string());
        if let Some(version) = version {
            request = request.header("api-version", version);
        }
        request.send()
    };
    let plain = send(None).await.unwrap();
    assert_eq!(plain.status(), 400);
    assert!(plain.text().await.unwrap().contains("$input.format"));
    assert_eq!(send(Some("1.0.0")).await.unwrap().status(), 400);
    assert_eq!(send(Some("2.0.0")).await.unwrap().status(), 201);
    let unknown = send(Some("3.0.0")).await.unwrap();
    assert_eq!(unknown.status(), 400);
    let problem: serde_json::Value = serde_json::from_str(&unknown.text().await.unwrap()).unwrap();
    assert_eq!(problem["code"], "unsupported_api_version");
}

fn blessed(version: &str) -> ApiManifest {
    let path = format!("{}/api/{version}.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The gate: version 2's changes break a version-1 client (the AsciiDoc
/// answer format, naming the SDK functions affected), while the board
/// serves version 1 as blessed.
#[tokio::test]
async fn the_gate_calls_version_two_breaking_for_version_one_clients() {
    let (app, _dir) = crate::support::app().await;
    let released = blessed("1.0.0");
    let versioned = diff(&released, app.manifest_for(bbs::V1).unwrap());
    assert_ne!(versioned.worst(), Some(Severity::Breaking), "{versioned}");
    let unversioned = diff(&released, app.manifest_for(bbs::V2).unwrap());
    assert_eq!(
        unversioned.worst(),
        Some(Severity::Breaking),
        "{unversioned}"
    );
    let report = unversioned.to_string();
    assert!(
        report.contains("[answer-member-added] ArticleFormat: new member \"adoc\""),
        "{report}"
    );
    for route in [
        "GET /bbs/articles/:section/:id",
        "POST /bbs/articles/:section",
        "PUT /bbs/articles/:section/:id",
        "POST /bbs/articles/:section/:id/files",
    ] {
        assert!(report.contains(route), "{route}: {report}");
    }
    // Version 2 is blessed as released too.
    let v2 = diff(&blessed("2.0.0"), app.manifest_for(bbs::V2).unwrap());
    assert_eq!(v2.worst(), None, "{v2}");
}
