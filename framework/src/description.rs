//! What an app says of one version of its API ([`Description`]): its
//! document and manifest, and the document as served.

#[cfg(feature = "openapi")]
use crate::openapi::Docs;
use crate::{
    describe::{ApiVersion, RouteMeta},
    manifest::ApiManifest,
    openapi::OpenApiDocument,
};

/// One version of an app's API, described: every route of an app without
/// versions.
pub(crate) struct Description {
    /// The version; `None` for an app without versions.
    pub(crate) version: Option<ApiVersion>,
    #[cfg_attr(not(feature = "openapi"), allow(dead_code))]
    pub(crate) document: OpenApiDocument,
    pub(crate) manifest: ApiManifest,
    /// The document as served; `None` without docs.
    #[cfg(feature = "openapi")]
    pub(crate) docs: Option<Docs>,
}

impl Description {
    pub(crate) fn new(
        version: Option<ApiVersion>,
        document: OpenApiDocument,
        manifest: ApiManifest,
    ) -> Self {
        Description {
            version,
            document,
            manifest,
            #[cfg(feature = "openapi")]
            docs: None,
        }
    }

    /// Whether the route is part of this version.
    pub(crate) fn serves(&self, meta: &RouteMeta) -> bool {
        self.version
            .is_none_or(|version| meta.versions.contains(version))
    }

    /// The OpenAPI document as JSON: as served, or made now.
    #[cfg(feature = "openapi")]
    pub(crate) fn json(&self) -> String {
        match &self.docs {
            // Built from a `String`.
            Some(docs) => String::from_utf8_lossy(docs.json()).into_owned(),
            // The model holds only strings, numbers, maps and arrays.
            None => self
                .document
                .from_manifest(&self.manifest)
                .to_pretty_json()
                .unwrap_or_default(),
        }
    }
}
