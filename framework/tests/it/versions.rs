//! API versions: routing by the version header, handlers serving older
//! versions through conversions, and a manifest and document per version.

use framework::prelude::*;
use framework::{ApiVersion, AppBuilder, BuildError, Versions, manifest::Severity};
use serde_json::{Value, json};

const V1: ApiVersion = ApiVersion::new(1, 0, 0);
const V2: ApiVersion = ApiVersion::new(2, 0, 0);
const V3: ApiVersion = ApiVersion::new(3, 0, 0);

/// How a note is written, in version 2: `Adoc` is new.
#[dto]
#[derive(Clone, Copy, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Md,
    Adoc,
}

/// A note, in version 2.
#[dto]
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    pub text: String,
    pub format: Format,
}

/// A new note, in version 2: `pinned` is required.
#[dto]
pub struct NoteCreate {
    #[tags(min_length = 1)]
    pub text: String,
    pub pinned: bool,
}

mod v1 {
    //! The types of version 1.

    use framework::prelude::*;

    /// How a note is written, in version 1.
    #[dto]
    #[derive(Clone, Copy, Debug, PartialEq)]
    #[serde(rename_all = "lowercase")]
    pub enum Format {
        Md,
    }

    /// A note, in version 1.
    #[dto]
    pub struct Note {
        pub text: String,
        pub format: Format,
    }

    /// A new note, in version 1.
    #[dto]
    pub struct NoteCreate {
        #[tags(min_length = 1)]
        pub text: String,
    }

    impl From<super::Note> for Note {
        fn from(note: super::Note) -> Self {
            // Version 1 knows Markdown only: the rest reads as it.
            Note {
                text: note.text,
                format: Format::Md,
            }
        }
    }

    impl From<NoteCreate> for super::NoteCreate {
        fn from(old: NoteCreate) -> Self {
            super::NoteCreate {
                text: old.text,
                pinned: false,
            }
        }
    }
}

struct Notes;

#[controller("notes")]
impl Notes {
    /// Read a note.
    #[typed_route::get(":id", versions = "2.0.0"..)]
    #[typed_route::converted(versions = .."2.0.0", answer = v1::Note)]
    async fn at(&self, #[param] id: u32) -> Result<Note, ApiError> {
        if id == 0 {
            return Err(ApiError::not_found("no note 0"));
        }
        Ok(Note {
            text: format!("note {id}"),
            format: Format::Adoc,
        })
    }

    /// Post a note.
    #[typed_route::post("", versions = V2..)]
    #[typed_route::converted(versions = ..V2, input = TypedBody<v1::NoteCreate>, answer = v1::Note)]
    async fn create(&self, input: TypedBody<NoteCreate>) -> Note {
        let input = input.into_inner();
        Note {
            text: format!("{} pinned={}", input.text, input.pinned),
            format: Format::Md,
        }
    }

    /// Count the notes: the same in every version.
    #[typed_route::get("count")]
    async fn count(&self) -> u32 {
        3
    }

    /// Erase every note: new in version 2.
    #[typed_route::delete("", versions = "2.0.0"..)]
    async fn clear(&self) {}
}

/// A controller of version 3 only.
struct Tags;

#[controller("tags", versions = "3.0.0"..)]
impl Tags {
    #[typed_route::get("")]
    async fn list(&self) -> Vec<String> {
        vec!["a".into()]
    }

    #[typed_route::get("later", versions = "4.0.0"..)]
    async fn later(&self) -> u32 {
        4
    }
}

fn app() -> App {
    App::builder()
        .controller(Notes)
        .versions(Versions::new([V2, V1]))
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_request_gets_the_route_of_its_version() {
    let app = app();
    let client = app.test_client();
    // No header: the oldest version.
    let old = client.get("/notes/7").send().await;
    assert_eq!(old.status(), 200);
    assert_eq!(
        old.json::<Value>(),
        json!({"text": "note 7", "format": "md"})
    );
    let new = client
        .get("/notes/7")
        .header("api-version", "2.0.0")
        .send()
        .await;
    assert_eq!(
        new.json::<Value>(),
        json!({"text": "note 7", "format": "adoc"})
    );
    let named_old = client
        .get("/notes/7")
        .header("api-version", "1.0.0")
        .send()
        .await;
    assert_eq!(named_old.json::<Value>()["format"], "md");
    // An error answer is not converted.
    let missing = client.get("/notes/0").send().await;
    assert_eq!(missing.status(), 404);
    // Routes without versions serve every version.
    for version in ["1.0.0", "2.0.0"] {
        let count = client
            .get("/notes/count")
            .header("api-version", version)
            .send()
            .await;
        assert_eq!(count.text(), "3");
    }
}

#[tokio::test]
async fn older_inputs_are_upgraded_and_checked_as_older_types() {
    let app = app();
    let client = app.test_client();
    let old = client
        .post("/notes")
        .json(&json!({"text": "hi"}))
        .send()
        .await;
    assert_eq!(old.status(), 201);
    assert_eq!(
        old.json::<Value>(),
        json!({"text": "hi pinned=false", "format": "md"})
    );
    // Version 2 requires `pinned`; version 1 refuses what version 1 refuses.
    let new = client
        .post("/notes")
        .header("api-version", "2.0.0")
        .json(&json!({"text": "hi"}))
        .send()
        .await;
    assert_eq!(new.status(), 400);
    assert!(new.text().contains("$input.pinned"), "{}", new.text());
    let old_refused = client
        .post("/notes")
        .json(&json!({"text": ""}))
        .send()
        .await;
    assert_eq!(old_refused.status(), 400);
    assert!(
        old_refused.text().contains("$input.text"),
        "{}",
        old_refused.text()
    );
}

#[tokio::test]
async fn a_version_not_served_is_refused_before_routing() {
    let app = app();
    let client = app.test_client();
    for bad in ["3.0.0", "2", "v2", "2.0.0.0", ""] {
        let response = client
            .get("/notes/7")
            .header("api-version", bad)
            .send()
            .await;
        assert_eq!(response.status(), 400, "{bad:?}");
        let problem: Value = response.json();
        assert_eq!(problem["code"], "unsupported_api_version", "{bad:?}");
        assert!(
            problem["detail"]
                .as_str()
                .unwrap()
                .contains("it serves 1.0.0, 2.0.0"),
            "{problem}"
        );
    }
}

#[tokio::test]
async fn a_route_not_in_a_version_is_absent_from_it() {
    let app = app();
    let client = app.test_client();
    let old = client.delete("/notes").send().await;
    assert_eq!(old.status(), 405);
    assert_eq!(old.header("allow"), Some("POST, OPTIONS"));
    let new = client
        .delete("/notes")
        .header("api-version", "2.0.0")
        .send()
        .await;
    assert_eq!(new.status(), 204);
    let allowed = client
        .request(http::Method::OPTIONS, "/notes")
        .header("api-version", "2.0.0")
        .send()
        .await;
    assert_eq!(allowed.header("allow"), Some("POST, DELETE, OPTIONS"));
    assert_eq!(
        app.route_for(&http::Method::GET, "/notes/1")
            .map(|meta| meta.versions),
        Some(framework::VersionRange::until(V2))
    );
}

#[tokio::test]
async fn the_header_and_default_are_the_apps_to_choose() {
    let app = App::builder()
        .controller(Notes)
        .versions(Versions::new([V1, V2]).header("x-api").default_version(V2))
        .build()
        .unwrap();
    let client = app.test_client();
    let new = client.get("/notes/7").send().await;
    assert_eq!(new.json::<Value>()["format"], "adoc");
    let old = client.get("/notes/7").header("x-api", "1.0.0").send().await;
    assert_eq!(old.json::<Value>()["format"], "md");
    // Another header is not read.
    let other = client
        .get("/notes/7")
        .header("api-version", "1.0.0")
        .send()
        .await;
    assert_eq!(other.json::<Value>()["format"], "adoc");
    assert_eq!(app.manifest().version, "2.0.0");
}

#[tokio::test]
async fn a_controller_narrows_its_routes() {
    let app = App::builder()
        .controller(Tags)
        .versions(Versions::new([V1, V2, V3, ApiVersion::new(4, 0, 0)]))
        .build()
        .unwrap();
    let client = app.test_client();
    let listed = client
        .get("/tags")
        .header("api-version", "3.0.0")
        .send()
        .await;
    assert_eq!(listed.status(), 200);
    assert_eq!(client.get("/tags").send().await.status(), 404);
    let routes = <Tags as Controller>::routes();
    assert_eq!(routes[0].meta().versions, framework::VersionRange::from(V3));
    // The route's own range, within the controller's.
    assert_eq!(
        routes[1].meta().versions,
        framework::VersionRange::from(ApiVersion::new(4, 0, 0))
    );
    // A route no served version reaches is refused.
    let unserved = App::builder()
        .controller(Tags)
        .versions(Versions::new([V1, V2, V3]))
        .build();
    assert!(unserved.is_err());
}

#[test]
fn versions_that_cannot_be_served_are_refused_at_build() {
    let reason = |builder: AppBuilder| match builder.build() {
        Err(BuildError::InvalidVersions { reason }) => reason,
        other => panic!("expected InvalidVersions, got {other:?}"),
    };
    let unversioned = reason(App::builder().controller(Notes));
    assert!(
        unversioned
            .contains("GET /notes/:id (Notes::at, versions 2.0.0..) serves versions 2.0.0.."),
        "{unversioned}"
    );
    assert!(
        unversioned.contains(".versions(Versions::new("),
        "{unversioned}"
    );
    let none = reason(App::builder().controller(Notes).versions(Versions::new([])));
    assert!(none.contains("no version is served"), "{none}");
    let default = reason(
        App::builder()
            .controller(Notes)
            .versions(Versions::new([V1, V2]).default_version(V3)),
    );
    assert!(default.contains("default version 3.0.0"), "{default}");
    let header = reason(
        App::builder()
            .controller(Notes)
            .versions(Versions::new([V1, V2]).header("api version")),
    );
    assert!(header.contains("not a header name"), "{header}");
    let unserved = reason(
        App::builder()
            .controller(Notes)
            .versions(Versions::new([V1])),
    );
    assert!(
        unserved.contains("none of which the app serves (1.0.0)"),
        "{unserved}"
    );
}

struct Overlapping;

#[controller("notes")]
impl Overlapping {
    #[typed_route::get(":id", versions = "1.0.0"..)]
    #[typed_route::converted(versions = .."2.0.0", answer = v1::Note)]
    async fn at(&self, #[param] id: u32) -> Note {
        Note {
            text: id.to_string(),
            format: Format::Md,
        }
    }
}

#[test]
fn routes_serving_one_version_twice_conflict() {
    let err = App::builder()
        .controller(Overlapping)
        .versions(Versions::new([V1, V2]))
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "route conflict: GET /notes/:id (Overlapping::at, versions ..2.0.0) conflicts with GET /notes/:id (Overlapping::at, versions 1.0.0..)"
    );
}

#[test]
fn each_version_has_its_manifest_and_document() {
    let app = app();
    assert_eq!(app.versions(), [V1, V2]);
    let v1 = app.manifest_for(V1).unwrap();
    let v2 = app.manifest_for(V2).unwrap();
    assert!(app.manifest_for(V3).is_none());
    assert_eq!(app.manifest(), v1);
    assert_eq!(
        (v1.version.as_str(), v2.version.as_str()),
        ("1.0.0", "2.0.0")
    );
    let routes = |manifest: &framework::manifest::ApiManifest| -> Vec<String> {
        manifest
            .routes
            .iter()
            .map(|route| format!("{} {}", route.method, route.path))
            .collect()
    };
    assert_eq!(
        routes(v1),
        ["GET /notes/:id", "POST /notes", "GET /notes/count"]
    );
    assert_eq!(
        routes(v2),
        [
            "GET /notes/:id",
            "POST /notes",
            "GET /notes/count",
            "DELETE /notes"
        ]
    );
    let version = v1.api_version.as_ref().unwrap();
    assert_eq!(
        (
            version.header.as_str(),
            version.version.as_str(),
            version.default
        ),
        ("api-version", "1.0.0", true)
    );
    assert_eq!(version.served, ["1.0.0", "2.0.0"]);
    assert!(!v2.api_version.as_ref().unwrap().default);
    // The same type names, each version its own shapes.
    let format = |manifest: &framework::manifest::ApiManifest| {
        serde_json::to_value(
            &manifest
                .types
                .iter()
                .find(|t| t.name == "Format")
                .unwrap()
                .def,
        )
        .unwrap()
        .to_string()
    };
    assert!(!format(v1).contains("adoc") && format(v2).contains("adoc"));
    // The gate: version 2 breaks a version-1 client, version 1 as served
    // now does not.
    let breaking = framework::manifest::diff(v1, v2);
    assert_eq!(breaking.worst(), Some(Severity::Breaking), "{breaking}");
    assert_eq!(framework::manifest::diff(v1, v1).worst(), None);
}

#[test]
fn each_blessed_version_is_checked_against_its_own_manifest() {
    let app = app();
    let dir = tempfile::tempdir().unwrap();
    let mut v1 = app.manifest_for(V1).unwrap().clone();
    std::fs::write(dir.path().join("1.0.0.json"), v1.to_json()).unwrap();
    // Version 2 breaks version 1, but version 1 is served as blessed.
    framework::testing::assert_compatible(app.manifests(), dir.path());
    // A blessed version the app no longer serves fails, saying so.
    v1.api_version.as_mut().unwrap().version = "0.9.0".into();
    std::fs::write(dir.path().join("0.9.0.json"), v1.to_json()).unwrap();
    let report = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        framework::testing::assert_compatible(app.manifests(), dir.path());
    }))
    .unwrap_err();
    let report = report.downcast_ref::<String>().unwrap();
    assert!(
        report.contains("the API version 0.9.0 blessed in")
            && report.contains("not served any more"),
        "{report}"
    );
}

#[test]
fn each_document_names_its_version_in_its_header_parameter() {
    let app = app();
    let document = |version| -> Value {
        serde_json::from_str(&app.openapi_json_for(version).unwrap()).unwrap()
    };
    let header = |document: &Value| -> Value {
        document["paths"]["/notes/{id}"]["get"]["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|parameter| parameter["name"] == "api-version")
            .cloned()
            .unwrap()
    };
    let v1 = document(V1);
    assert_eq!(v1["info"]["version"], "1.0.0");
    assert_eq!(header(&v1)["required"], false);
    assert_eq!(header(&v1)["schema"]["enum"], json!(["1.0.0"]));
    let v2 = document(V2);
    assert_eq!(header(&v2)["required"], true);
    assert_eq!(header(&v2)["schema"]["enum"], json!(["2.0.0"]));
    assert!(v2["paths"]["/notes"]["delete"].is_object());
    assert!(v1["paths"]["/notes"]["delete"].is_null());
    assert_eq!(app.openapi_json(), app.openapi_json_for(V1).unwrap());
}

#[tokio::test]
async fn documents_are_served_per_version() {
    let app = app();
    let client = app.test_client();
    let v2 = client.get("/openapi/2.0.0.json").send().await;
    assert_eq!(v2.status(), 200);
    assert_eq!(v2.json::<Value>()["info"]["version"], "2.0.0");
    let default = client.get("/openapi.json").send().await;
    assert_eq!(default.json::<Value>()["info"]["version"], "1.0.0");
    let missing = client.get("/openapi/3.0.0.json").send().await;
    assert_eq!(missing.status(), 404);
    assert!(
        missing
            .text()
            .contains("/openapi/1.0.0.json, /openapi/2.0.0.json")
    );
    // The documents are the framework's: served whatever the version.
    let named = client
        .get("/openapi/1.0.0.json")
        .header("api-version", "2.0.0")
        .send()
        .await;
    assert_eq!(named.json::<Value>()["info"]["version"], "1.0.0");
}

#[cfg(feature = "docs-page")]
#[tokio::test]
async fn the_docs_page_offers_every_version() {
    let app = app();
    let script = app
        .test_client()
        .get("/docs/swagger-initializer.js")
        .send()
        .await
        .text();
    let v1 = script.find("/openapi/1.0.0.json").expect(&script);
    let v2 = script.find("/openapi/2.0.0.json").expect(&script);
    assert!(v1 < v2, "the default first: {script}");
    assert!(
        script.contains("\"urls.primaryName\": \"1.0.0\""),
        "{script}"
    );
}

#[tokio::test]
async fn an_app_without_versions_is_unchanged() {
    struct Plain;

    #[controller("plain")]
    impl Plain {
        #[typed_route::get("")]
        async fn get(&self) -> u32 {
            1
        }
    }

    let app = App::builder().controller(Plain).build().unwrap();
    assert!(app.manifest().api_version.is_none());
    assert!(app.versions().is_empty());
    let client = app.test_client();
    // The header means nothing to it.
    let response = client.get("/plain").header("api-version", "9").send().await;
    assert_eq!(response.text(), "1");
    assert_eq!(client.get("/openapi/1.0.0.json").send().await.status(), 404);
    assert_eq!(app.manifest_for(V1), Some(app.manifest()));
    assert!(!app.openapi_json().contains("api-version"));
}
