//! The OpenAPI document: security schemes, ambiguous names, queries and
//! headers as parameters.

use framework::{
    BuildError,
    openapi::{
        OpenApiDocument, OpenApiError,
        openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme},
    },
    prelude::*,
};

mod first {
    use framework::prelude::*;

    #[dto]
    pub struct Item {
        pub a: u32,
    }
}

mod second {
    use framework::prelude::*;

    #[dto]
    pub struct Item {
        pub b: String,
    }
}

struct Clash;

#[controller("clash")]
impl Clash {
    #[typed_route::post("a")]
    async fn a(&self, body: TypedBody<first::Item>) -> u32 {
        body.a
    }

    #[typed_route::post("b")]
    async fn b(&self, body: TypedBody<second::Item>) -> String {
        body.into_inner().b
    }
}

#[test]
fn two_types_with_one_name_are_refused_at_startup() {
    let err = App::builder().controller(Clash).build().unwrap_err();
    let BuildError::Manifest(OpenApiError::AmbiguousName {
        name,
        first,
        second,
    }) = err
    else {
        panic!("expected an ambiguous name, got {err}");
    };
    assert_eq!(name, "Item");
    assert!(
        first.ends_with("first::Item") && second.ends_with("second::Item"),
        "{first} {second}"
    );
}

#[dto]
struct Filter {
    #[optional]
    #[tags(minimum = 1)]
    page: Option<u32>,
    #[optional]
    tags: Option<Vec<String>>,
}

#[dto]
#[serde(rename_all = "kebab-case")]
struct Auth {
    /// The bearer token.
    authorization: String,
}

struct Secure;

#[controller("secure")]
impl Secure {
    /// List things.
    #[typed_route::get("", errors(401 = "no valid token"))]
    async fn list(&self, filter: TypedQuery<Filter>, auth: TypedHeaders<Auth>) -> Vec<u32> {
        let _ = auth;
        vec![filter.page.unwrap_or(1)]
    }
}

#[test]
fn documents_security_queries_and_headers() {
    let bearer = SecurityScheme::Http(
        HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .bearer_format("JWT")
            .build(),
    );
    let app = App::builder()
        .openapi(
            OpenApiDocument::new("Secure", "2.0.0")
                .security_scheme("bearer", bearer)
                .require("bearer"),
        )
        .controller(Secure)
        .build()
        .unwrap();
    let document: serde_json::Value = serde_json::from_str(&app.openapi_json()).unwrap();
    assert_eq!(document["info"]["title"], "Secure");
    assert_eq!(
        document["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    let list = &document["paths"]["/secure"]["get"];
    assert_eq!(list["security"][0]["bearer"], serde_json::json!([]));
    assert_eq!(list["responses"]["401"]["description"], "no valid token");
    let parameters = list["parameters"].as_array().unwrap();
    let names: Vec<_> = parameters
        .iter()
        .map(|p| (p["name"].as_str().unwrap(), p["in"].as_str().unwrap()))
        .collect();
    assert_eq!(
        names,
        [
            ("page", "query"),
            ("tags", "query"),
            ("authorization", "header")
        ]
    );
    assert_eq!(parameters[0]["schema"]["minimum"], 1);
    assert_eq!(parameters[0]["required"], false);
    // An array in the query is written `tags=a&tags=b` (form, exploded),
    // as the server reads it; `deepObject` is for objects only.
    assert_eq!(parameters[1]["style"], "form");
    assert_eq!(parameters[2]["required"], true);
    assert_eq!(parameters[2]["description"], "The bearer token.");
}

#[test]
fn docs_can_be_switched_off() {
    let app = App::builder()
        .controller(Secure)
        .without_docs()
        .build()
        .unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(async {
        assert_eq!(
            app.test_client().get("/openapi.json").send().await.status(),
            404
        );
        assert_eq!(
            app.test_client()
                .get("/docs/index.html")
                .send()
                .await
                .status(),
            404
        );
    });
    assert!(
        app.openapi_json().contains("\"/secure\""),
        "the document is still built"
    );
}
