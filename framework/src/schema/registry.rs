//! The named types a schema refers to.

use std::{
    any::TypeId,
    collections::HashMap,
    sync::{Arc, LazyLock, RwLock},
};

use super::{Schema, ToSchema, TypeDef};

/// The index of a named type in its [`Registry`].
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct DefId(pub usize);

/// The named types (`#[dto]` structs and enums) reachable from some
/// schemas, each defined once, recursion included.
///
/// ```
/// use framework::schema::{Registry, ToSchema};
/// let mut registry = Registry::default();
/// let _ = <Option<String> as ToSchema>::schema(&mut registry);
/// assert_eq!(registry.defs().count(), 0, "no named types in Option<String>");
/// ```
#[derive(Clone, Debug, Default)]
pub struct Registry {
    defs: Vec<Option<TypeDef>>,
    index: HashMap<TypeId, DefId>,
    /// The names of definitions in progress (a type that contains itself,
    /// maybe through a generic: `Node { replies: Page<Node> }`).
    pending: HashMap<DefId, String>,
}

impl Registry {
    /// Defines the named type `T` once and refers to it. `build` runs only
    /// the first time; a type that contains itself gets a reference to the
    /// definition in progress.
    pub fn define<T: 'static>(&mut self, build: impl FnOnce(&mut Registry) -> TypeDef) -> Schema {
        let type_id = TypeId::of::<T>();
        if let Some(id) = self.index.get(&type_id) {
            return Schema::Ref(*id);
        }
        let id = DefId(self.defs.len());
        self.defs.push(None);
        self.index.insert(type_id, id);
        let def = build(self);
        self.defs[id.0] = Some(def);
        Schema::Ref(id)
    }

    /// Defines the named type `T` once and refers to it, like
    /// [`define`](Registry::define), naming it first: `label` may refer to
    /// types whose definitions are in progress, `T` included, and `build`
    /// gets the name.
    ///
    /// ```
    /// use framework::schema::{Registry, Schema, TypeDef, TypeKind, ObjectDef, type_label};
    /// struct Node;
    /// let mut registry = Registry::default();
    /// let schema = registry.define_named::<Node>(
    ///     |_| "Node".to_owned(),
    ///     |registry, name| {
    ///         let me = registry.define_named::<Node>(|_| unreachable!(), |_, _| unreachable!());
    ///         assert_eq!(type_label(&me, registry), "Node");
    ///         TypeDef {
    ///             name,
    ///             rust_name: "Node",
    ///             description: String::new(),
    ///             kind: TypeKind::Object(ObjectDef { fields: vec![], strict: false }),
    ///         }
    ///     },
    /// );
    /// assert!(matches!(schema, Schema::Ref(_)));
    /// ```
    pub fn define_named<T: 'static>(
        &mut self,
        label: impl FnOnce(&mut Registry) -> String,
        build: impl FnOnce(&mut Registry, String) -> TypeDef,
    ) -> Schema {
        let type_id = TypeId::of::<T>();
        if let Some(id) = self.index.get(&type_id) {
            return Schema::Ref(*id);
        }
        let id = DefId(self.defs.len());
        self.defs.push(None);
        self.index.insert(type_id, id);
        self.pending
            .insert(id, std::any::type_name::<T>().to_owned());
        let name = label(self);
        self.pending.insert(id, name.clone());
        let def = build(self, name);
        self.pending.remove(&id);
        self.defs[id.0] = Some(def);
        Schema::Ref(id)
    }

    /// The name of a named type, its definition done or in progress.
    ///
    /// # Panics
    /// If `id` is from another registry.
    pub fn name(&self, id: DefId) -> &str {
        match (self.defs.get(id.0), self.pending.get(&id)) {
            (Some(Some(def)), _) => &def.name,
            (_, Some(name)) => name,
            _ => panic!("type #{} is not defined in this registry", id.0),
        }
    }

    /// A registry of definitions already built, the `n`th with `DefId(n)`.
    pub fn from_defs(defs: impl IntoIterator<Item = TypeDef>) -> Registry {
        Registry {
            defs: defs.into_iter().map(Some).collect(),
            index: HashMap::new(),
            pending: HashMap::new(),
        }
    }

    /// The definition of a named type.
    ///
    /// # Panics
    /// If `id` is from another registry.
    pub fn get(&self, id: DefId) -> &TypeDef {
        match self.defs.get(id.0) {
            Some(Some(def)) => def,
            _ => panic!("type #{} is not defined in this registry", id.0),
        }
    }

    /// Every definition, with its id, in the order first met.
    pub fn defs(&self) -> impl Iterator<Item = (DefId, &TypeDef)> {
        self.defs
            .iter()
            .enumerate()
            .filter_map(|(index, def)| def.as_ref().map(|def| (DefId(index), def)))
    }
}

/// A type's schema with the registry it refers to.
#[derive(Debug)]
pub struct SchemaOf {
    /// The named types.
    pub registry: Registry,
    /// The type's own schema.
    pub schema: Schema,
}

/// The schema of `T`, built once per process and shared.
///
/// ```
/// use framework::schema::{Schema, schema_of};
/// assert_eq!(schema_of::<bool>().schema, Schema::Boolean);
/// ```
pub fn schema_of<T: ToSchema + 'static>() -> Arc<SchemaOf> {
    static CACHE: LazyLock<RwLock<HashMap<TypeId, Arc<SchemaOf>>>> =
        LazyLock::new(Default::default);
    let type_id = TypeId::of::<T>();
    if let Some(found) = CACHE
        .read()
        .unwrap_or_else(|poison| poison.into_inner())
        .get(&type_id)
    {
        return Arc::clone(found);
    }
    let mut registry = Registry::default();
    let schema = T::schema(&mut registry);
    let built = Arc::new(SchemaOf { registry, schema });
    let mut cache = CACHE.write().unwrap_or_else(|poison| poison.into_inner());
    Arc::clone(cache.entry(type_id).or_insert(built))
}
