//! What both generators need to know beyond the manifest itself: which
//! types are read, which are written, where the two shapes differ, and how
//! routes group into namespaces.

use std::collections::BTreeMap;

use framework::{
    manifest::{ApiManifest, RouteManifest, SecuritySchemeManifest},
    schema::{DefId, ObjectDef, Schema, TypeKind, VariantKind},
};

use crate::GenerateError;

/// Which way a value travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dir {
    /// Sent by the client: a property with a default may be left out.
    Input,
    /// Written by the server: only `#[optional]` properties may be absent.
    Output,
}

/// A manifest with the facts the generators share.
pub(crate) struct Model<'m> {
    pub(crate) manifest: &'m ApiManifest,
    /// Whether the type's input and output shapes differ.
    differs: Vec<bool>,
    used_as_input: Vec<bool>,
    used_as_output: Vec<bool>,
}

impl<'m> Model<'m> {
    /// The security scheme `name` that `route` needs.
    ///
    /// # Errors
    /// The manifest does not define it.
    pub(crate) fn scheme(
        &self,
        route: &RouteManifest,
        name: &str,
    ) -> Result<&'m SecuritySchemeManifest, GenerateError> {
        self.manifest
            .security_schemes
            .iter()
            .find(|scheme| scheme.name == name)
            .ok_or_else(|| {
                GenerateError::Conflict(format!(
                    "route {} needs the security scheme `{name}`, which the manifest does not define",
                    route.operation_id
                ))
            })
    }

    /// The security schemes of `route`'s guards, each with whether it is
    /// optional: those it needs first, then those of its optional guards.
    ///
    /// # Errors
    /// The manifest does not define one.
    pub(crate) fn schemes(
        &self,
        route: &RouteManifest,
    ) -> Result<Vec<(&'m SecuritySchemeManifest, bool)>, GenerateError> {
        let needed = route.security.iter().map(|name| (name, false));
        let optional = route.optional_security.iter().map(|name| (name, true));
        needed
            .chain(optional)
            .map(|(name, optional)| Ok((self.scheme(route, name)?, optional)))
            .collect()
    }

    pub(crate) fn new(manifest: &'m ApiManifest) -> Result<Self, GenerateError> {
        if manifest.manifest_version != framework::manifest::MANIFEST_VERSION {
            return Err(GenerateError::Version {
                found: manifest.manifest_version,
                expected: framework::manifest::MANIFEST_VERSION,
            });
        }
        let count = manifest.types.len();
        let mut model = Model {
            manifest,
            differs: vec![false; count],
            used_as_input: vec![false; count],
            used_as_output: vec![false; count],
        };
        if let Some(schema) = model.error_body() {
            model.mark(schema, Dir::Output);
        }
        for route in manifest.routes.iter().filter(|route| route.sdk) {
            if let Some(response) = route
                .responses
                .iter()
                .find(|response| crate::answer::content(response).is_none())
            {
                return Err(GenerateError::UnsupportedAnswer(format!(
                    "{} {} answers {} with {:?}, which this sdk-gen cannot read: update sdk-gen, or leave the route out of the SDKs (`sdk = false`)",
                    route.method,
                    route.path,
                    response.status,
                    response.content.as_ref().map(|content| content.kind)
                )));
            }
            for schema in route_inputs(route) {
                model.mark(schema, Dir::Input);
            }
            for schema in route_outputs(route) {
                model.mark(schema, Dir::Output);
            }
        }
        model.find_differences();
        model.check_names()?;
        Ok(model)
    }

    /// The body of every error answer when the app declares its own error
    /// contract (`App::builder().errors(..)`); `None` for the framework's
    /// problem document. A body without a schema is any JSON.
    pub(crate) fn error_body(&self) -> Option<&'m Schema> {
        static ANY: Schema = Schema::Any;
        let body = self.manifest.error_body.as_ref()?;
        Some(body.schema.as_ref().unwrap_or(&ANY))
    }

    /// The name a type goes by when travelling `dir`.
    pub(crate) fn type_name(&self, id: DefId, dir: Dir) -> String {
        let name = &self.manifest.types[id.0].name;
        if dir == Dir::Input && self.differs[id.0] && self.used_as_output[id.0] {
            format!("{name}Input")
        } else {
            name.clone()
        }
    }

    /// The shapes to declare for a type: one when both ways agree.
    pub(crate) fn shapes(&self, id: DefId) -> Vec<Dir> {
        let index = id.0;
        if !self.differs[index] {
            return vec![Dir::Output];
        }
        let mut shapes = Vec::new();
        if self.used_as_output[index] || !self.used_as_input[index] {
            shapes.push(Dir::Output);
        }
        if self.used_as_input[index] {
            shapes.push(Dir::Input);
        }
        shapes
    }

    /// Whether a route in the SDKs reads or answers the type: types that
    /// only `sdk = false` routes use are left out.
    pub(crate) fn is_used(&self, id: DefId) -> bool {
        self.used_as_input[id.0] || self.used_as_output[id.0]
    }

    /// Whether the shape of `id` depends on the direction.
    pub(crate) fn differs(&self, id: DefId) -> bool {
        self.differs[id.0]
    }

    fn mark(&mut self, schema: &Schema, dir: Dir) {
        let mut stack: Vec<DefId> = refs(schema);
        while let Some(id) = stack.pop() {
            let used = match dir {
                Dir::Input => &mut self.used_as_input,
                Dir::Output => &mut self.used_as_output,
            };
            let Some(slot) = used.get_mut(id.0) else {
                continue;
            };
            if *slot {
                continue;
            }
            *slot = true;
            stack.extend(type_refs(&self.manifest.types[id.0].def.kind));
        }
    }

    fn find_differences(&mut self) {
        for (index, named) in self.manifest.types.iter().enumerate() {
            self.differs[index] = object_defs(&named.def.kind).iter().any(|object| {
                object
                    .fields
                    .iter()
                    .any(|field| field.required != field.always_present)
            });
        }
        // A type that contains a differing type differs too.
        loop {
            let mut changed = false;
            for (index, named) in self.manifest.types.iter().enumerate() {
                if self.differs[index] {
                    continue;
                }
                if type_refs(&named.def.kind)
                    .iter()
                    .any(|id| self.differs.get(id.0).copied().unwrap_or(false))
                {
                    self.differs[index] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    fn check_names(&self) -> Result<(), GenerateError> {
        let mut taken: BTreeMap<String, usize> = BTreeMap::new();
        for index in 0..self.manifest.types.len() {
            for dir in self.shapes(DefId(index)) {
                let name = self.type_name(DefId(index), dir);
                if taken.insert(name.clone(), index).is_some() {
                    return Err(GenerateError::Conflict(format!(
                        "two types would be named `{name}`; rename one with #[serde(rename = \"...\")]"
                    )));
                }
            }
        }
        Ok(())
    }

    /// Routes grouped by their accessor's namespaces (the framework's
    /// naming, as the manifest states it: `RouteManifest::accessor`);
    /// routes marked `sdk = false` are left out. The framework already
    /// refuses routes that clash here; these checks guard a manifest
    /// written some other way.
    pub(crate) fn namespaces(&self) -> Result<Namespace, GenerateError> {
        let mut root = Namespace::default();
        let routes = self.manifest.routes.iter().enumerate();
        for (index, route) in routes.filter(|(_, route)| route.sdk) {
            let Some((function, path)) = route.accessor.split_last() else {
                return Err(GenerateError::Conflict(format!(
                    "route {} has no name",
                    route.operation_id
                )));
            };
            let mut node = &mut root;
            for segment in path {
                node = node.children.entry(segment.clone()).or_default();
            }
            if node.routes.iter().any(|(name, _)| name == function) {
                return Err(GenerateError::Conflict(format!(
                    "two routes would be called `{}`; name one with `operation_id = \"...\"` in its route attribute",
                    route.operation_id
                )));
            }
            node.routes.push((function.clone(), index));
        }
        root.check()?;
        Ok(root)
    }

    /// Whether a type can reach itself through fields that hold one value
    /// (not through an array or a map): Rust needs a `Box` there.
    pub(crate) fn reaches(&self, from: &Schema, target: DefId) -> bool {
        let mut seen = vec![false; self.manifest.types.len()];
        let mut stack = direct_refs(from);
        while let Some(id) = stack.pop() {
            if id == target {
                return true;
            }
            if std::mem::replace(&mut seen[id.0], true) {
                continue;
            }
            for object in object_defs(&self.manifest.types[id.0].def.kind) {
                for field in &object.fields {
                    stack.extend(direct_refs(&field.schema));
                }
            }
            if let TypeKind::Union(union) = &self.manifest.types[id.0].def.kind {
                for variant in &union.variants {
                    if let VariantKind::Newtype(schema) = &variant.kind {
                        stack.extend(direct_refs(schema));
                    }
                }
            }
        }
        false
    }
}

/// The schemas a route reads.
pub(crate) fn route_inputs(route: &RouteManifest) -> impl Iterator<Item = &Schema> {
    route
        .path_params
        .iter()
        .map(|param| &param.schema)
        .chain(route.query.iter())
        .chain(route.headers.iter())
        .chain(route.cookies.iter())
        .chain(route.body.iter().filter_map(|body| body.schema.as_ref()))
        .chain(route.websocket.iter().map(|websocket| &websocket.client))
}

/// The schemas of a route's answers.
pub(crate) fn route_outputs(route: &RouteManifest) -> impl Iterator<Item = &Schema> {
    route
        .responses
        .iter()
        .filter_map(|response| response.content.as_ref()?.schema.as_ref())
        .chain(route.websocket.iter().map(|websocket| &websocket.server))
}

/// A group of routes: `bbs` holds `articles`, which holds `create` ...
#[derive(Debug, Default)]
pub(crate) struct Namespace {
    pub(crate) children: BTreeMap<String, Namespace>,
    /// Function name and route index, in route order.
    pub(crate) routes: Vec<(String, usize)>,
}

impl Namespace {
    fn check(&self) -> Result<(), GenerateError> {
        for (name, _) in &self.routes {
            if self.children.contains_key(name) {
                return Err(GenerateError::Conflict(format!(
                    "`{name}` is both a function and a namespace; name the route with `operation_id = \"...\"` in its route attribute"
                )));
            }
        }
        self.children.values().try_for_each(Namespace::check)
    }
}

/// The named types a schema refers to anywhere.
pub(crate) fn refs(schema: &Schema) -> Vec<DefId> {
    let mut found = Vec::new();
    collect_refs(schema, &mut found, true);
    found
}

/// The named types a schema holds exactly one of (not inside an array or a map).
fn direct_refs(schema: &Schema) -> Vec<DefId> {
    let mut found = Vec::new();
    collect_refs(schema, &mut found, false);
    found
}

fn collect_refs(schema: &Schema, found: &mut Vec<DefId>, through_containers: bool) {
    match schema {
        Schema::Ref(id) => found.push(*id),
        Schema::Nullable(inner) => collect_refs(inner, found, through_containers),
        Schema::Array(array) if through_containers => {
            collect_refs(&array.items, found, through_containers)
        }
        Schema::Map(values) if through_containers => {
            collect_refs(values, found, through_containers)
        }
        _ => {}
    }
}

/// The objects a type declares: its own fields or its variants'.
fn object_defs(kind: &TypeKind) -> Vec<&ObjectDef> {
    match kind {
        TypeKind::Object(object) => vec![object],
        TypeKind::Union(union) => union
            .variants
            .iter()
            .filter_map(|variant| match &variant.kind {
                VariantKind::Struct(object) => Some(object),
                _ => None,
            })
            .collect(),
        TypeKind::StringEnum(_) => Vec::new(),
    }
}

/// The named types a definition refers to.
fn type_refs(kind: &TypeKind) -> Vec<DefId> {
    let mut found = Vec::new();
    for object in object_defs(kind) {
        for field in &object.fields {
            found.extend(refs(&field.schema));
        }
    }
    if let TypeKind::Union(union) = kind {
        for variant in &union.variants {
            if let VariantKind::Newtype(schema) = &variant.kind {
                found.extend(refs(schema));
            }
        }
    }
    found
}
