//! What an app's API is called and which routes it documents: what its
//! manifest is made from, and (with the `openapi` feature) its OpenAPI
//! document (`build.rs`).

#[cfg(feature = "openapi")]
use utoipa::openapi::security::SecurityScheme;

use crate::{
    describe::{
        RouteMeta,
        manifest::{ApiManifest, ManifestError, NamePrefix, Unanswered},
    },
    error::AnswersErrors,
    route::Controller,
};

/// An app's OpenAPI 3.1 document, built from its routes' metadata.
///
/// Its title, version, description and routes are also what the app's
/// manifest is made of, so it is there without the `openapi` feature too;
/// building the document itself (`to_json`,
/// `build`, `from_manifest`) needs the feature.
///
/// ```
/// use framework::prelude::*;
/// use framework::openapi::OpenApiDocument;
///
/// #[dto]
/// struct Note { #[tags(max_length = 280)] text: String }
///
/// struct Notes;
///
/// #[controller("notes")]
/// impl Notes {
///     /// Post a note.
///     #[typed_route::post("", errors(409 = "a note with this text exists"))]
///     async fn create(&self, body: TypedBody<Note>) -> Note { body.into_inner() }
/// }
///
/// let json = OpenApiDocument::new("Notes", "1.0.0").controller::<Notes>().to_json().unwrap();
/// let document: serde_json::Value = serde_json::from_str(&json).unwrap();
/// assert_eq!(document["openapi"], "3.1.0");
/// let create = &document["paths"]["/notes"]["post"];
/// assert_eq!(create["operationId"], "notes.create");
/// assert_eq!(create["summary"], "Post a note.");
/// assert!(create["responses"]["409"].is_object());
/// assert_eq!(document["components"]["schemas"]["Note"]["properties"]["text"]["maxLength"], 280);
/// ```
#[derive(Clone, Debug)]
pub struct OpenApiDocument {
    pub(super) title: String,
    pub(super) version: String,
    pub(super) description: Option<String>,
    pub(super) routes: Vec<&'static RouteMeta>,
    #[cfg(feature = "openapi")]
    pub(super) security_schemes: Vec<(String, SecurityScheme)>,
    pub(super) security: Vec<String>,
}

impl OpenApiDocument {
    /// A document with a title and the API's version.
    pub fn new(title: impl Into<String>, version: impl Into<String>) -> Self {
        OpenApiDocument {
            title: title.into(),
            version: version.into(),
            description: None,
            routes: Vec::new(),
            #[cfg(feature = "openapi")]
            security_schemes: Vec::new(),
            security: Vec::new(),
        }
    }

    /// The API's description.
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Documents a controller's routes (no instance needed).
    #[must_use]
    pub fn controller<C: Controller>(mut self) -> Self {
        self.routes
            .extend(C::routes().iter().map(|route| route.meta()));
        self
    }

    /// Documents routes.
    #[must_use]
    pub fn routes(mut self, routes: impl IntoIterator<Item = &'static RouteMeta>) -> Self {
        self.routes.extend(routes);
        self
    }

    /// Declares a security scheme, e.g. a bearer token.
    #[cfg(feature = "openapi")]
    #[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
    #[must_use]
    pub fn security_scheme(mut self, name: impl Into<String>, scheme: SecurityScheme) -> Self {
        self.security_schemes.push((name.into(), scheme));
        self
    }

    /// Requires a declared scheme on every operation.
    #[must_use]
    pub fn require(mut self, scheme: impl Into<String>) -> Self {
        self.security.push(scheme.into());
        self
    }

    /// The same document for one version of the API: `version` its
    /// version, and no routes yet.
    pub(crate) fn for_version(&self, version: crate::ApiVersion) -> Self {
        OpenApiDocument {
            version: version.to_string(),
            routes: Vec::new(),
            ..self.clone()
        }
    }

    /// The routes documented.
    pub fn route_metas(&self) -> &[&'static RouteMeta] {
        &self.routes
    }

    /// The routes resolved into a manifest, as `sdk-gen` reads it.
    ///
    /// # Errors
    /// Two different types whose names make the same identifier.
    pub fn manifest(&self) -> Result<ApiManifest, ManifestError> {
        self.manifest_answering(None, &NamePrefix::default(), &|_, _| false)
    }

    /// [`OpenApiDocument::manifest`] for an app whose errors `errors`
    /// answers, whose routes' names leave out `name_prefix`, and which
    /// never answers the refusals `unanswered` names.
    pub(crate) fn manifest_answering(
        &self,
        errors: Option<&dyn AnswersErrors>,
        name_prefix: &NamePrefix,
        unanswered: Unanswered<'_>,
    ) -> Result<ApiManifest, ManifestError> {
        ApiManifest::answering(
            &self.title,
            &self.version,
            self.description.as_deref(),
            self.routes.iter().copied(),
            errors,
            name_prefix,
            unanswered,
        )
    }
}
