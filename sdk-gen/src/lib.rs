//! Generates client SDKs of an app from its API manifest (what
//! `app manifest` prints, see [`framework::manifest`]): a TypeScript package
//! and a Rust client crate, both through askama templates.
//!
//! What each input and answer becomes (TypeScript / Rust):
//!
//! - JSON bodies and answers: the DTO's type in both.
//! - Form bodies (`TypedForm<T>`): `T`, sent as
//!   `application/x-www-form-urlencoded` with nested fields `a[b]=1` and
//!   lists `a[0]=x`, as the server's serde_qs decoder reads them.
//! - Text (`PlainBody`, `String` answers): `string` / `&str` and `String`,
//!   sent as `text/plain; charset=utf-8`.
//! - Bytes: `Blob | Uint8Array` bodies and `Uint8Array` answers /
//!   `impl Into<Bytes>` and `Bytes`.
//! - Cookies (`Cookies<T>`): a `cookies: T` argument sent in one `Cookie`
//!   header (a browser's `fetch` drops it and sends its own cookies).
//! - Credentials: by scheme name on `connection.security` /
//!   `ClientBuilder::<scheme>_token` (a token in `Authorization`) or
//!   `<scheme>_key` (API key). For a scheme other than `Bearer`
//!   (`Authorization: Token <jwt>`) the user gives the bare token and the
//!   SDK adds the scheme's word.
//!   A route whose credential is missing fails before sending
//!   (`CredentialError` / `Error::MissingCredential`).
//! - Catch-all path parameters: each segment encoded, slashes kept.
//! - Redirects: reported as `Redirect { status, location }`, never followed
//!   (`redirect: "manual"` / `redirect::Policy::none()`).
//! - `Created<T>`: `Created { location, body }`.
//! - Several success statuses: the union of their data, and one
//!   `propagate` member per status / an enum per route in `answers`, a
//!   variant per status named after the handler's enum variant.
//! - Routes marked `sdk = false` are left out of both.
//!
//! [`human_report`] and [`json_report`] show what changed between two
//! manifests ([`framework::manifest::diff`]) with the SDK functions and
//! types each breaking change affects (`sdk-gen diff OLD NEW`), and
//! [`Bump`] the SDK's next version.
//!
//! [`generate_e2e`] writes end-to-end and load tests of the app through the
//! TypeScript SDK (`sdk-gen e2e <dir>`), each file the user's once written
//! ([`write_e2e`] keeps what is there).
//!
//! ```no_run
//! use sdk_gen::{Targets, TypeScriptOptions, generate};
//!
//! let json = std::fs::read_to_string("manifest.json").unwrap();
//! let manifest = serde_json::from_str(&json).unwrap();
//! let targets = Targets {
//!     typescript: Some(TypeScriptOptions { package: "@bbs/sdk".into() }),
//!     rust: None,
//! };
//! for output in generate(&manifest, &targets).unwrap() {
//!     println!("{}: {} files", output.dir_name, output.files.len());
//! }
//! ```

mod answer;
mod config;
mod diff;
mod e2e;
mod model;
mod output;
mod rust;
mod typescript;

use std::path::PathBuf;

use framework::manifest::ApiManifest;

pub use config::{Config, ConfigError, RustTarget, Target};
pub use diff::{Bump, changelog_entry, human_report, json_report, read_source, route_functions};
pub use e2e::{E2eOptions, E2eReport, generate_e2e, write_e2e};
pub use output::{Drift, check, write};
pub use rust::RustOptions;
pub use typescript::TypeScriptOptions;

/// Which SDKs to generate.
#[derive(Clone, Debug, Default)]
pub struct Targets {
    /// The TypeScript package, if wanted.
    pub typescript: Option<TypeScriptOptions>,
    /// The Rust crate, if wanted.
    pub rust: Option<RustOptions>,
}

/// One file of an SDK, its path relative to the SDK's folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    /// Where it goes, relative to the SDK's folder: `src/structures.ts`.
    pub path: PathBuf,
    /// What it holds.
    pub contents: String,
}

/// One generated SDK.
#[derive(Clone, Debug)]
pub struct Sdk {
    /// `typescript` or `rust`.
    pub dir_name: &'static str,
    /// Its files.
    pub files: Vec<GeneratedFile>,
}

/// Why an SDK could not be generated.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The manifest was written by another version of the framework.
    #[error(
        "the manifest is version {found}; this sdk-gen reads version {expected}: rebuild sdk-gen with the app's framework version"
    )]
    Version {
        /// The manifest's version.
        found: u32,
        /// The version this generator reads.
        expected: u32,
    },
    /// A schema refers to a type the manifest does not define.
    #[error("the manifest refers to type #{0}, which it does not define")]
    UnknownType(usize),
    /// Two things would get one name in an SDK.
    #[error("{0}")]
    Conflict(String),
    /// A route answers a content the SDKs cannot read.
    #[error("{0}")]
    UnsupportedAnswer(String),
    /// A template failed to render.
    #[error("rendering a template: {0}")]
    Template(#[from] askama::Error),
    /// rustfmt could not format the Rust SDK.
    #[error("formatting the Rust SDK with rustfmt: {0}")]
    Format(String),
}

/// Generates the SDKs `targets` asks for.
///
/// # Errors
/// A manifest from another framework version, or names that would clash
/// in an SDK.
pub fn generate(manifest: &ApiManifest, targets: &Targets) -> Result<Vec<Sdk>, GenerateError> {
    let model = model::Model::new(manifest)?;
    let mut sdks = Vec::new();
    if let Some(options) = &targets.typescript {
        sdks.push(Sdk {
            dir_name: "typescript",
            files: typescript::generate(&model, options)?,
        });
    }
    if let Some(options) = &targets.rust {
        sdks.push(Sdk {
            dir_name: "rust",
            files: rust::generate(&model, options)?,
        });
    }
    Ok(sdks)
}
