//! `Option<G>` for a guard `G`: anonymous callers are served with `None`,
//! a credential that is sent is checked (wrong is still refused), and the
//! documents list anonymous access as an alternative.

use framework::{
    AuthScheme, Authorization, ErrorMeta, InputMeta, RequestContext, SecurityKind, SecurityMeta,
    prelude::*,
};
use serde_json::{Value, json};

/// `Authorization: Token <jwt>`.
struct ApiToken;

impl AuthScheme for ApiToken {
    const SECURITY: &'static SecurityMeta =
        &SecurityMeta::authorization("api_token", "Token", "A JWT from the login route.");
}

/// A signed-in user: `jwt-kim` is kim, any other token is refused.
struct User(String);

impl FromRequestParts for User {
    const INPUT: InputMeta = <Authorization<ApiToken> as FromRequestParts>::INPUT
        .with_errors(&[ErrorMeta::new(401, "No valid token.")]);

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        match Authorization::<ApiToken>::from_request_parts(cx)
            .await?
            .credentials()
        {
            "jwt-kim" => Ok(User("kim".to_owned())),
            _ => Err(Authorization::<ApiToken>::refused("the token is not known")),
        }
    }
}

static DEVICE_KEY: SecurityMeta = SecurityMeta::new(
    "device_key",
    SecurityKind::ApiKeyHeader { name: "x-device" },
    "The device's key.",
);

/// A known device, by its `X-Device` key.
struct Device;

impl FromRequestParts for Device {
    const INPUT: InputMeta = InputMeta::request().with_security(&DEVICE_KEY);

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        match cx.headers().get("x-device") {
            Some(key) if key == "phone" => Ok(Device),
            _ => Err(ApiError::new(
                http::StatusCode::FORBIDDEN,
                "unknown_device",
                "the device is not known",
            )),
        }
    }
}

struct Feed;

#[controller("feed")]
impl Feed {
    #[typed_route::get("")]
    async fn read(&self, user: Option<User>) -> String {
        match user {
            Some(User(name)) => format!("hello {name}"),
            None => "hello stranger".to_owned(),
        }
    }

    /// Needs a device; a user is optional.
    #[typed_route::get("device")]
    async fn device(&self, _device: Device, user: Option<User>) -> String {
        format!(
            "device of {}",
            user.map_or("nobody".to_owned(), |User(name)| name)
        )
    }

    /// A user is optional and also needed: needed wins.
    #[typed_route::get("both")]
    async fn both(&self, _user: User, _again: Option<User>) -> String {
        String::new()
    }

    /// Two needed schemes: one requirement with both.
    #[typed_route::get("guarded")]
    async fn guarded(&self, _device: Device, _user: User) -> String {
        String::new()
    }

    /// Two optional schemes.
    #[typed_route::get("either")]
    async fn either(&self, user: Option<User>, device: Option<Device>) -> String {
        format!("{} {}", user.is_some(), device.is_some())
    }
}

fn app() -> App {
    App::builder().controller(Feed).build().unwrap()
}

async fn get(app: &App, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
    let mut request = app.test_client().get(path);
    for (name, value) in headers {
        request = request.header(name, value);
    }
    let answer = request.send().await;
    (answer.status().as_u16(), answer.text())
}

#[tokio::test]
async fn no_credential_is_none_and_a_valid_one_is_some() {
    let app = app();
    assert_eq!(
        get(&app, "/feed", &[]).await,
        (200, "hello stranger".to_owned())
    );
    let kim = [("authorization", "token jwt-kim")];
    assert_eq!(
        get(&app, "/feed", &kim).await,
        (200, "hello kim".to_owned())
    );
    // Another scheme is no credential of this one.
    let basic = [("authorization", "Basic a2ltOnB3")];
    assert_eq!(
        get(&app, "/feed", &basic).await,
        (200, "hello stranger".to_owned())
    );
}

#[tokio::test]
async fn a_credential_sent_but_wrong_is_refused_as_the_guard_refuses_it() {
    let app = app();
    for value in ["Token guess", "Token", "TOKEN   "] {
        let answer = app
            .test_client()
            .get("/feed")
            .header("authorization", value)
            .send()
            .await;
        assert_eq!(answer.status(), 401, "{value}");
        assert_eq!(answer.headers()["www-authenticate"], "Token", "{value}");
    }
    let (status, _) = get(&app, "/feed/either", &[("x-device", "tablet")]).await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn optional_guards_beside_needed_ones() {
    let app = app();
    assert_eq!(get(&app, "/feed/device", &[]).await.0, 403);
    let phone = [("x-device", "phone")];
    assert_eq!(
        get(&app, "/feed/device", &phone).await,
        (200, "device of nobody".to_owned())
    );
    let both = [("x-device", "phone"), ("authorization", "Token jwt-kim")];
    assert_eq!(
        get(&app, "/feed/device", &both).await,
        (200, "device of kim".to_owned())
    );
    assert_eq!(get(&app, "/feed/either", &both).await.1, "true true");
    assert_eq!(get(&app, "/feed/either", &[]).await.1, "false false");
}

#[test]
fn the_manifest_lists_optional_schemes_apart() {
    let app = app();
    let route = |handler: &str| {
        app.manifest()
            .routes
            .iter()
            .find(|route| route.handler == handler)
            .unwrap()
            .clone()
    };
    let read = route("read");
    assert!(read.security.is_empty());
    assert_eq!(read.optional_security, ["api_token"]);
    let device = route("device");
    assert_eq!(device.security, ["device_key"]);
    assert_eq!(device.optional_security, ["api_token"]);
    let both = route("both");
    assert_eq!(both.security, ["api_token"]);
    assert!(both.optional_security.is_empty());
    // Its 401 is documented whether the guard is optional or not.
    assert!(read.errors.iter().any(|error| error.status == 401));
}

#[test]
fn openapi_lists_anonymous_access_as_an_alternative() {
    let document: Value = serde_json::from_str(&app().openapi_json()).unwrap();
    let security = |path: &str| document["paths"][path]["get"]["security"].clone();
    assert_eq!(security("/feed"), json!([{ "api_token": [] }, {}]));
    assert_eq!(
        security("/feed/device"),
        json!([{ "api_token": [], "device_key": [] }, { "device_key": [] }])
    );
    assert_eq!(security("/feed/both"), json!([{ "api_token": [] }]));
    assert_eq!(
        security("/feed/guarded"),
        json!([{ "api_token": [], "device_key": [] }])
    );
    assert_eq!(
        security("/feed/either"),
        json!([{ "api_token": [] }, { "device_key": [] }, {}])
    );
}
