//! Routes' names: operation ids without stutter, `operation_id = ".."`, the
//! app's name prefix, and two routes with one name refused at build time.

use framework::{BuildError, manifest::ManifestError, prelude::*};

struct Users;

#[controller("api/users")]
impl Users {
    /// Signs in.
    #[typed_route::post("login")]
    async fn login(&self) -> &'static str {
        "welcome"
    }

    /// Signs out.
    #[typed_route::post("logout", operation_id = "signOut")]
    async fn logout(&self) {}

    #[typed_route::get(":name")]
    async fn profile(&self, #[param] name: String) -> String {
        name
    }
}

struct Profiles;

#[controller("api/profiles/:username")]
impl Profiles {
    #[typed_route::post("follow")]
    async fn follow(&self, #[param] username: String) -> String {
        username
    }
}

/// `(operation id, accessor)` of every route, and each OpenAPI operation's
/// `operationId` by method and path.
fn names(app: &App) -> Vec<(String, String)> {
    let document: serde_json::Value = serde_json::from_str(&app.openapi_json()).unwrap();
    app.manifest()
        .routes
        .iter()
        .map(|route| {
            let operation =
                &document["paths"][route.router_path()][route.method.as_str().to_lowercase()];
            assert_eq!(operation["operationId"], route.operation_id.as_str());
            (route.operation_id.clone(), route.accessor.join("."))
        })
        .collect()
}

fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected
        .iter()
        .map(|(id, accessor)| ((*id).to_owned(), (*accessor).to_owned()))
        .collect()
}

#[test]
fn names_leave_out_the_segment_naming_the_handler() {
    let app = App::builder()
        .controller(Users)
        .controller(Profiles)
        .build()
        .unwrap();
    assert_eq!(
        names(&app),
        pairs(&[
            ("api.users.login", "api.users.login"),
            ("signOut", "api.users.signOut"),
            ("api.users.profile", "api.users.profile"),
            ("api.profiles.follow", "api.profiles.follow"),
        ])
    );
}

#[tokio::test]
async fn the_app_s_name_prefix_is_left_out_of_names_not_paths() {
    let app = App::builder()
        .controller(Users)
        .controller(Profiles)
        .strip_name_prefix("/api")
        .build()
        .unwrap();
    assert_eq!(
        names(&app),
        pairs(&[
            ("users.login", "users.login"),
            ("signOut", "users.signOut"),
            ("users.profile", "users.profile"),
            ("profiles.follow", "profiles.follow"),
        ])
    );
    let response = app.test_client().post("/api/users/login").send().await;
    assert_eq!(response.text(), "welcome");
}

#[test]
fn a_name_prefix_with_a_parameter_is_refused() {
    let refused = App::builder()
        .strip_name_prefix("/api/:version")
        .build()
        .unwrap_err();
    assert!(
        matches!(&refused, BuildError::InvalidNamePrefix { .. }),
        "{refused:?}"
    );
    assert!(
        refused
            .to_string()
            .contains("a name prefix is literal path segments"),
        "{refused}"
    );
}

struct Sessions;

#[controller("sessions")]
impl Sessions {
    #[typed_route::post("", operation_id = "signIn")]
    async fn open(&self) {}
}

struct Accounts;

#[controller("accounts")]
impl Accounts {
    #[typed_route::post("login", operation_id = "signIn")]
    async fn login(&self) {}
}

#[test]
fn two_routes_with_one_operation_id_are_refused_naming_both() {
    let err = App::builder()
        .controller(Sessions)
        .controller(Accounts)
        .build()
        .unwrap_err();
    assert_eq!(
        err,
        BuildError::Manifest(ManifestError::DuplicateOperationId {
            operation_id: "signIn".into(),
            first: "POST /sessions (Sessions::open)".into(),
            second: "POST /accounts/login (Accounts::login)".into(),
        })
    );
    let message = err.to_string();
    assert!(message.contains("`signIn`"), "{message}");
    assert!(
        message.contains("POST /sessions (Sessions::open)"),
        "{message}"
    );
    assert!(
        message.contains("POST /accounts/login (Accounts::login)"),
        "{message}"
    );
    assert!(message.contains("operation_id = \"...\""), "{message}");
}

struct Items;

#[controller("items")]
impl Items {
    #[typed_route::get("")]
    async fn items(&self) {}
}

struct MoreItems;

#[controller("items")]
impl MoreItems {
    #[typed_route::post("")]
    async fn items(&self) {}
}

#[test]
fn default_ids_are_checked_too() {
    let err = App::builder()
        .controller(Items)
        .controller(MoreItems)
        .build()
        .unwrap_err();
    assert_eq!(
        err,
        BuildError::Manifest(ManifestError::DuplicateOperationId {
            operation_id: "items".into(),
            first: "GET /items (Items::items)".into(),
            second: "POST /items (MoreItems::items)".into(),
        })
    );
}

struct Login;

#[controller("login")]
impl Login {
    #[typed_route::post("")]
    async fn login(&self) {}

    #[typed_route::post("refresh")]
    async fn refresh(&self) {}

    #[typed_route::get("again", operation_id = "login2")]
    async fn again(&self) {}
}

struct Hidden;

#[controller("hidden")]
impl Hidden {
    #[typed_route::get("", sdk = false)]
    async fn hidden(&self) {}

    #[typed_route::get("page", sdk = false)]
    async fn page(&self) {}
}

#[test]
fn a_function_that_is_also_a_namespace_is_refused() {
    let err = App::builder().controller(Login).build().unwrap_err();
    assert_eq!(
        err,
        BuildError::Manifest(ManifestError::SdkNameIsNamespace {
            name: "login".into(),
            function: "POST /login (Login::login)".into(),
            inside: "POST /login/refresh (Login::refresh)".into(),
            inside_name: "login.refresh".into(),
        })
    );
    // Out of the SDKs, a function may share a namespace's name.
    App::builder().controller(Hidden).build().unwrap();
}

struct Things;

#[controller("things")]
impl Things {
    #[typed_route::get("")]
    async fn list(&self) {}

    #[typed_route::post("list", operation_id = "list")]
    async fn replace(&self) {}
}

#[test]
fn two_sdk_functions_of_one_name_are_refused() {
    // The ids differ (`things.list`, `list`), the SDK functions do not.
    let err = App::builder().controller(Things).build().unwrap_err();
    assert_eq!(
        err,
        BuildError::Manifest(ManifestError::DuplicateSdkName {
            name: "things.list".into(),
            first: "GET /things (Things::list)".into(),
            second: "POST /things/list (Things::replace)".into(),
        })
    );
}
