//! `Authorization: <scheme> <credentials>` for a scheme other than
//! `Bearer`: what the extractor accepts and refuses, and how OpenAPI
//! documents a registered and an unregistered scheme.

use framework::{AuthScheme, Authorization, SecurityMeta, prelude::*};

/// `Authorization: Token <jwt>`: no registered HTTP scheme.
struct ApiToken;

impl AuthScheme for ApiToken {
    const SECURITY: &'static SecurityMeta =
        &SecurityMeta::authorization("api_token", "Token", "A JWT from the login route.");
}

/// `Authorization: Basic <base64>`: a registered one.
struct Login;

impl AuthScheme for Login {
    const SECURITY: &'static SecurityMeta =
        &SecurityMeta::authorization("login", "Basic", "The user's name and password.");
}

struct Guarded;

#[controller("guarded")]
impl Guarded {
    #[typed_route::get("token")]
    async fn token(&self, token: Authorization<ApiToken>) -> String {
        token.credentials().to_owned()
    }

    #[typed_route::get("basic")]
    async fn basic(&self, login: Authorization<Login>) -> String {
        login.credentials().to_owned()
    }
}

fn app() -> App {
    App::builder().controller(Guarded).build().unwrap()
}

#[tokio::test]
async fn a_declared_scheme_is_read_in_any_case() {
    let app = app();
    for value in ["Token abc", "token abc", "TOKEN  abc"] {
        let ok = app
            .test_client()
            .get("/guarded/token")
            .header("authorization", value)
            .send()
            .await;
        assert_eq!(ok.status(), 200, "{value}");
        assert_eq!(ok.text(), "abc", "{value}");
    }
}

#[tokio::test]
async fn another_scheme_or_no_credentials_is_401_naming_the_scheme() {
    let app = app();
    for value in [Some("Bearer abc"), None, Some("Token"), Some("Token   ")] {
        let mut request = app.test_client().get("/guarded/token");
        if let Some(value) = value {
            request = request.header("authorization", value);
        }
        let refused = request.send().await;
        assert_eq!(refused.status(), 401, "{value:?}");
        assert_eq!(
            refused.header("www-authenticate"),
            Some("Token"),
            "{value:?}"
        );
        let problem = refused.problem();
        assert_eq!(problem.code, "unauthorized");
        assert!(
            problem.detail.contains("`Token <credentials>`"),
            "{value:?}: {}",
            problem.detail
        );
    }
}

#[test]
fn openapi_names_a_registered_scheme_and_describes_another() {
    let document: serde_json::Value = serde_json::from_str(&app().openapi_json()).unwrap();
    let schemes = &document["components"]["securitySchemes"];
    assert_eq!(
        schemes["login"],
        serde_json::json!({
            "type": "http",
            "scheme": "basic",
            "description": "The user's name and password."
        })
    );
    assert_eq!(
        schemes["api_token"],
        serde_json::json!({
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "A JWT from the login route.\n\nSent as `Token <token>`."
        })
    );
    let token = &document["paths"]["/guarded/token"]["get"];
    assert_eq!(token["security"], serde_json::json!([{ "api_token": [] }]));
    assert!(token["responses"]["401"].is_object());
}

#[test]
fn the_manifest_keeps_the_scheme_word() {
    let manifest = app().manifest().clone();
    let scheme = manifest
        .security_schemes
        .iter()
        .find(|scheme| scheme.name == "api_token")
        .unwrap();
    assert_eq!(
        scheme.kind,
        framework::manifest::SecurityKindManifest::Authorization {
            scheme: "Token".to_owned()
        }
    );
}
