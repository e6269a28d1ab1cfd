//! The two apps whose builds are compared: the same N routes (`PUT
//! /itemsK/:id` taking a validated JSON body and answering it), written as a
//! user writes them with the framework (controllers, `#[dto]`) and with axum
//! (a `Router`, serde + validator), each in its own workspace.

use std::{fmt::Write, path::Path};

/// Routes per controller in the framework app (and per group in axum's).
const PER_CONTROLLER: usize = 10;

/// The literal each handler adds to the count; the incremental rebuild
/// changes route 0's to mimic an edit of one handler's body.
pub const EDIT_MARKER: &str = "/* edit */ 1";

/// Which framework an app uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Framework,
    Axum,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Framework => "framework",
            Kind::Axum => "axum",
        }
    }
}

/// `Cargo.toml` of an app in its own workspace (`framework` by path, with
/// its default features or `default-features = false` and `features`).
pub fn manifest(kind: Kind, framework_dir: &Path, features: Option<&str>) -> String {
    let chosen = match features {
        Some(features) => {
            let list: Vec<String> = features
                .split(',')
                .map(|feature| format!("{:?}", feature.trim()))
                .collect();
            format!(
                ", default-features = false, features = [{}]",
                list.join(", ")
            )
        }
        None => String::new(),
    };
    let dependencies = match kind {
        Kind::Framework => format!(
            "framework = {{ path = {:?}{chosen} }}\ntokio = {{ version = \"1\", features = [\"rt-multi-thread\", \"macros\"] }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\n",
            framework_dir.display().to_string()
        ),
        Kind::Axum => "axum = \"0.8\"\ntokio = { version = \"1\", features = [\"rt-multi-thread\", \"macros\"] }\nserde = { version = \"1\", features = [\"derive\"] }\nvalidator = { version = \"0.21\", features = [\"derive\"] }\n".to_owned(),
    };
    format!(
        "[package]\nname = \"{}-app\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\n{dependencies}\n[workspace]\n",
        kind.name()
    )
}

/// `src/main.rs` with `routes` routes.
pub fn main_rs(kind: Kind, routes: usize) -> String {
    match kind {
        Kind::Framework => framework_app(routes),
        Kind::Axum => axum_app(routes),
    }
}

fn framework_app(routes: usize) -> String {
    let mut out = String::from(
        "use framework::prelude::*;\n\n/// An item.\n#[dto]\npub struct Item {\n    #[tags(min_length = 1, max_length = 50)]\n    pub name: String,\n    #[tags(minimum = 0, maximum = 1000)]\n    pub count: u32,\n    #[tags(format = \"email\")]\n    pub owner: String,\n}\n\n",
    );
    let controllers = routes.div_ceil(PER_CONTROLLER);
    for controller in 0..controllers {
        let _ = writeln!(
            out,
            "pub struct Items{controller};\n\n#[controller(\"items{controller}\")]\nimpl Items{controller} {{"
        );
        for route in group(controller, routes) {
            let _ = writeln!(
                out,
                "    /// Updates an item.\n    #[typed_route::put(\"r{route}/:id\")]\n    async fn update{route}(&self, #[param] id: u32, body: TypedBody<Item>) -> Item {{\n        let mut item = body.into_inner();\n        item.count = item.count.wrapping_add(id % 7 + {EDIT_MARKER});\n        item\n    }}"
            );
        }
        out.push_str("}\n\n");
    }
    out.push_str(
        "#[tokio::main]\nasync fn main() -> std::io::Result<()> {\n    let app = App::builder()",
    );
    for controller in 0..controllers {
        let _ = write!(out, "\n        .controller(Items{controller})");
    }
    out.push_str(
        "\n        .build()\n        .map_err(std::io::Error::other)?;\n    Server::bind(\"127.0.0.1:3000\").await?.serve(app).await\n}\n",
    );
    out
}

fn axum_app(routes: usize) -> String {
    let mut out = String::from(
        "use axum::{Json, Router, extract::Path, http::StatusCode, routing::put};\nuse serde::{Deserialize, Serialize};\nuse validator::Validate;\n\n/// An item.\n#[derive(Deserialize, Serialize, Validate)]\npub struct Item {\n    #[validate(length(min = 1, max = 50))]\n    pub name: String,\n    #[validate(range(min = 0, max = 1000))]\n    pub count: u32,\n    #[validate(email)]\n    pub owner: String,\n}\n\n",
    );
    for route in 0..routes {
        let _ = writeln!(
            out,
            "/// Updates an item.\nasync fn update{route}(Path(id): Path<u32>, Json(mut item): Json<Item>) -> Result<Json<Item>, StatusCode> {{\n    item.validate().map_err(|_| StatusCode::BAD_REQUEST)?;\n    item.count = item.count.wrapping_add(id % 7 + {EDIT_MARKER});\n    Ok(Json(item))\n}}\n"
        );
    }
    out.push_str(
        "#[tokio::main]\nasync fn main() -> std::io::Result<()> {\n    let app = Router::new()",
    );
    for route in 0..routes {
        let _ = write!(
            out,
            "\n        .route(\"/items{}/r{route}/{{id}}\", put(update{route}))",
            route / PER_CONTROLLER
        );
    }
    out.push_str(
        ";\n    let listener = tokio::net::TcpListener::bind(\"127.0.0.1:3000\").await?;\n    axum::serve(listener, app).await\n}\n",
    );
    out
}

/// The routes of one controller.
fn group(controller: usize, routes: usize) -> std::ops::Range<usize> {
    let first = controller * PER_CONTROLLER;
    first..(first + PER_CONTROLLER).min(routes)
}

/// `source` with route 0's handler body edited (`edit` distinguishes
/// successive edits).
pub fn edit_first_handler(source: &str, edit: usize) -> Option<String> {
    let at = source.find(EDIT_MARKER)?;
    Some(format!(
        "{}/* edit */ {}{}",
        &source[..at],
        edit + 2,
        &source[at + EDIT_MARKER.len()..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_apps_have_every_route_once() {
        for routes in [1, 10, 25] {
            let framework = framework_app(routes);
            assert_eq!(framework.matches("#[typed_route::put(").count(), routes);
            assert_eq!(
                framework.matches(".controller(Items").count(),
                routes.div_ceil(10)
            );
            let axum = axum_app(routes);
            assert_eq!(axum.matches(".route(").count(), routes);
            assert_eq!(axum.matches("async fn update").count(), routes);
        }
    }

    #[test]
    fn an_edit_changes_only_the_first_handler() {
        for kind in [Kind::Framework, Kind::Axum] {
            let source = main_rs(kind, 20);
            let edited = edit_first_handler(&source, 0).unwrap();
            assert_eq!(edited.matches(EDIT_MARKER).count(), 19, "{}", kind.name());
            assert!(edited.contains("/* edit */ 2"));
            assert_ne!(edit_first_handler(&source, 1), Some(edited));
        }
    }
}
