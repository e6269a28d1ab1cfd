//! The moderator route: a bearer token compared in constant time, `401`
//! with `WWW-Authenticate: Bearer` without it, `404` while unconfigured.

use bbs::{ArticleStore, ModeratorToken};
use framework::{App, TestClient};
use tempfile::TempDir;

use crate::support::{app, create_input, database_url};

const TOKEN: &str = "moderator-s3cret";

/// The app with moderation on.
async fn moderated() -> (App, TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store = ArticleStore::open(&database_url(&dir)).await.unwrap();
    let token = ModeratorToken::new(TOKEN).unwrap();
    (bbs::app_with(store, token).unwrap(), dir)
}

/// Posts an article into `free`; its moderation path.
async fn posted(client: &TestClient) -> (String, String) {
    let response = client
        .post("/bbs/articles/free")
        .json(&create_input("Spam"))
        .send()
        .await;
    assert_eq!(response.status(), 201);
    let id = response.json::<serde_json::Value>()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    (
        format!("/bbs/moderation/articles/free/{id}"),
        format!("/bbs/articles/free/{id}"),
    )
}

#[tokio::test]
async fn the_right_token_erases_without_the_password() {
    let (app, _dir) = moderated().await;
    let client = app.test_client();
    let (moderation, article) = posted(&client).await;
    let erased = client
        .delete(&moderation)
        .header("authorization", &format!("Bearer {TOKEN}"))
        .send()
        .await;
    assert_eq!(erased.status(), 204, "{}", erased.text());
    assert_eq!(client.get(&article).send().await.status(), 404);
    let again = client
        .delete(&moderation)
        .header("authorization", &format!("Bearer {TOKEN}"))
        .send()
        .await;
    assert_eq!(again.status(), 404);
    assert_eq!(again.problem().code, "not_found");
}

#[tokio::test]
async fn a_missing_or_wrong_token_is_401_with_www_authenticate() {
    let (app, _dir) = moderated().await;
    let client = app.test_client();
    let (moderation, article) = posted(&client).await;
    let near_misses = [
        None,
        Some("Bearer wrong".to_owned()),
        Some(format!("Bearer {TOKEN}x")),
        Some(format!("Bearer {}", &TOKEN[..TOKEN.len() - 1])),
        Some(format!("Basic {TOKEN}")),
        Some("Bearer".to_owned()),
    ];
    for authorization in near_misses {
        let mut request = client.delete(&moderation);
        if let Some(value) = &authorization {
            request = request.header("authorization", value);
        }
        let refused = request.send().await;
        assert_eq!(refused.status(), 401, "{authorization:?}");
        assert_eq!(refused.header("www-authenticate"), Some("Bearer"));
        assert_eq!(refused.problem().code, "unauthorized");
    }
    assert_eq!(client.get(&article).send().await.status(), 200);
}

#[tokio::test]
async fn without_a_configured_token_the_route_answers_as_if_absent() {
    let (app, _dir) = app().await;
    let client = app.test_client();
    let (moderation, article) = posted(&client).await;
    let absent = client
        .delete(&moderation)
        .header("authorization", "Bearer anything")
        .send()
        .await;
    assert_eq!(absent.status(), 404);
    assert!(absent.header("www-authenticate").is_none());
    let problem = absent.problem();
    assert_eq!(problem.code, "not_found");
    let unknown = client.delete("/bbs/nothing/here").send().await.problem();
    assert_eq!(
        problem.detail.replace(&moderation, "PATH"),
        unknown.detail.replace("/bbs/nothing/here", "PATH"),
        "the same words as a path no route serves"
    );
    assert_eq!(client.get(&article).send().await.status(), 200);
}

#[tokio::test]
async fn the_document_names_the_moderator_scheme() {
    let (app, _dir) = app().await;
    let document: serde_json::Value = serde_json::from_str(&app.openapi_json()).unwrap();
    let scheme = &document["components"]["securitySchemes"]["moderator"];
    assert_eq!(scheme["type"], "http");
    assert_eq!(scheme["scheme"], "bearer");
    let erase = &document["paths"]["/bbs/moderation/articles/{section}/{id}"]["delete"];
    assert_eq!(erase["security"], serde_json::json!([{ "moderator": [] }]));
    for status in ["204", "401", "404"] {
        assert!(erase["responses"][status].is_object(), "{status}: {erase}");
    }
    let route = app
        .manifest()
        .routes
        .iter()
        .find(|route| route.path == "/bbs/moderation/articles/:section/:id")
        .unwrap();
    assert!(route.sdk, "the SDKs call the moderator route");
}
