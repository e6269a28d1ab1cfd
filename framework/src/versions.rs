//! The API versions an app serves ([`Versions`]), and how a request's is
//! found ([`VersionPolicy`]): its version header, or the default.

use http::{HeaderMap, HeaderName};

use crate::{
    describe::{ApiVersion, RouteMeta},
    error::{ApiError, refusal},
    manifest::VersionManifest,
    router::{BuildError, describe},
};

/// The versions of its API an app serves, and how a client names the one
/// it speaks: a header (`api-version` unless [`Versions::header`] says
/// otherwise) holding `MAJOR.MINOR.PATCH`. A request without it is served
/// the default version: the oldest unless [`Versions::default_version`]
/// says otherwise, so that clients written before the app had versions
/// keep the API they were written for.
///
/// Each route serves the versions its `versions = ..` (or its
/// controller's) says, every version when it says nothing; a request goes
/// to the route of its method and path that serves its version. A handler
/// serves older versions through `#[typed_route::converted(..)]`, which
/// reads older inputs and answers older types through `From` conversions.
/// The app has a manifest and an OpenAPI document per version
/// ([`App::manifest_for`](crate::App::manifest_for)), served at
/// `/openapi/<version>.json`; `/openapi.json` is the default version's.
///
/// ```
/// use framework::prelude::*;
/// use framework::{ApiVersion, Versions};
///
/// const V2: ApiVersion = ApiVersion::new(2, 0, 0);
///
/// #[dto]
/// pub struct Note { pub text: String, pub pinned: bool }
///
/// /// A note as version 1.0.0 answers it.
/// #[dto]
/// pub struct NoteV1 { pub text: String }
///
/// impl From<Note> for NoteV1 {
///     fn from(note: Note) -> Self { NoteV1 { text: note.text } }
/// }
///
/// struct Notes;
///
/// #[controller("notes")]
/// impl Notes {
///     #[typed_route::get(":id", versions = "2.0.0"..)]
///     #[typed_route::converted(versions = .."2.0.0", answer = NoteV1)]
///     async fn at(&self, #[param] id: u32) -> Note {
///         Note { text: format!("note {id}"), pinned: true }
///     }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder()
///     .controller(Notes)
///     .versions(Versions::new([ApiVersion::new(1, 0, 0), V2]))
///     .build()
///     .unwrap();
/// let old = app.test_client().get("/notes/7").send().await;
/// assert_eq!(old.text(), r#"{"text":"note 7"}"#);
/// let new = app.test_client().get("/notes/7").header("api-version", "2.0.0").send().await;
/// assert_eq!(new.text(), r#"{"text":"note 7","pinned":true}"#);
/// let unknown = app.test_client().get("/notes/7").header("api-version", "3.0.0").send().await;
/// assert_eq!(unknown.status(), 400);
/// # });
/// ```
#[derive(Clone, Debug)]
#[must_use]
pub struct Versions {
    served: Vec<ApiVersion>,
    header: String,
    default: Option<ApiVersion>,
}

impl Versions {
    /// The header a client names its version in unless
    /// [`Versions::header`] says otherwise.
    pub const HEADER: &'static str = "api-version";

    /// Serves `served` (in any order), named in the `api-version` header,
    /// the oldest by default.
    pub fn new(served: impl IntoIterator<Item = ApiVersion>) -> Self {
        let mut served: Vec<ApiVersion> = served.into_iter().collect();
        served.sort();
        served.dedup();
        Versions {
            served,
            header: Self::HEADER.to_owned(),
            default: None,
        }
    }

    /// Names the header clients name their version in.
    pub fn header(mut self, name: &str) -> Self {
        name.clone_into(&mut self.header);
        self
    }

    /// The version a request without the header is served (one of those
    /// served).
    pub fn default_version(mut self, version: ApiVersion) -> Self {
        self.default = Some(version);
        self
    }

    /// Checks the versions against the routes: the app's run-time policy.
    pub(crate) fn prepare<'a>(
        self,
        routes: impl IntoIterator<Item = &'a RouteMeta>,
    ) -> Result<VersionPolicy, BuildError> {
        let invalid = |reason: String| BuildError::InvalidVersions { reason };
        let header = HeaderName::from_bytes(self.header.as_bytes()).map_err(|_| {
            invalid(format!(
                "`{}` is not a header name; write one such as `api-version`",
                self.header
            ))
        })?;
        let Some(&oldest) = self.served.first() else {
            return Err(invalid(
                "no version is served; list them: `Versions::new([ApiVersion::new(1, 0, 0)])`"
                    .to_owned(),
            ));
        };
        let default = self.default.unwrap_or(oldest);
        if !self.served.contains(&default) {
            return Err(invalid(format!(
                "the default version {default} is not one of those served ({})",
                list(&self.served)
            )));
        }
        for meta in routes {
            if !self
                .served
                .iter()
                .any(|version| meta.versions.contains(*version))
            {
                return Err(invalid(format!(
                    "route {} serves versions {}, none of which the app serves ({}); serve one of them, or remove the route",
                    describe(meta),
                    meta.versions,
                    list(&self.served)
                )));
            }
        }
        let names = self
            .served
            .iter()
            .map(|version| version.to_string().into_bytes().into_boxed_slice())
            .collect();
        Ok(VersionPolicy {
            header,
            served: self.served,
            names,
            default,
        })
    }
}

/// `1.0.0, 2.0.0`.
pub(crate) fn list(versions: &[ApiVersion]) -> String {
    versions
        .iter()
        .map(ApiVersion::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// How the app finds a request's version: [`Versions`], checked.
#[derive(Clone, Debug)]
pub(crate) struct VersionPolicy {
    pub(crate) header: HeaderName,
    /// Oldest first.
    pub(crate) served: Vec<ApiVersion>,
    /// Each served version as written (`2.0.0`), in the same order: a
    /// version is written one way only (no leading zeros, no spaces), so a
    /// header naming a served version is one of these, byte for byte.
    names: Vec<Box<[u8]>>,
    pub(crate) default: ApiVersion,
}

impl VersionPolicy {
    /// What the manifest of `version` says of it.
    pub(crate) fn manifest(&self, version: ApiVersion) -> VersionManifest {
        VersionManifest {
            header: self.header.as_str().to_owned(),
            version: version.to_string(),
            default: version == self.default,
            served: self.served.iter().map(ApiVersion::to_string).collect(),
        }
    }

    /// The version a request with `headers` is served, or
    /// `unsupported_api_version`.
    pub(crate) fn of(&self, headers: &HeaderMap) -> Result<ApiVersion, ApiError> {
        let Some(value) = headers.get(&self.header) else {
            return Ok(self.default);
        };
        let named = self
            .names
            .iter()
            .position(|name| **name == *value.as_bytes());
        match named.and_then(|index| self.served.get(index)) {
            Some(version) => Ok(*version),
            None => Err(self.refusal(value)),
        }
    }

    #[cold]
    fn refusal(&self, value: &http::HeaderValue) -> ApiError {
        refusal::UNSUPPORTED_API_VERSION.error(format!(
            "header `{}`: {:?} is not a version this API serves; it serves {} (without the header, {})",
            self.header,
            String::from_utf8_lossy(value.as_bytes()),
            list(&self.served),
            self.default
        ))
    }
}
