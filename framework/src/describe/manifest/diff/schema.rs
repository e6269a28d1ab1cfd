//! The type rules: two schemas compared in one direction. An input narrows
//! when it accepts less (old clients' requests refused); an answer breaks
//! when it may hold what old clients cannot read. Named types are compared
//! once per pair of names and direction, and every route that reaches a
//! pair, directly or through other types, is named by its changes.

use std::collections::{BTreeMap, BTreeSet};

use super::{Change, ManifestDiff, RouteRef, Rule, merged};
use crate::manifest::ApiManifest;
use crate::schema::{
    ArraySchema, Bounds, FieldDef, FileSchema, IntegerSchema, ObjectDef, Schema, StringSchema,
    TypeDef, TypeKind, UnionDef, VariantKind,
};

/// Which way a value travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Dir {
    /// From the client to the server.
    Input,
    /// From the server to the client.
    Output,
}

/// Two named types compared in one direction: old name, new name.
type Pair = (String, String, Dir);

/// Who a change belongs to.
#[derive(Clone, Debug)]
pub(super) enum Owner {
    /// A route's own inputs or answers.
    Route(RouteRef),
    /// A named type (its changes name the routes that reach it).
    Type(Pair),
    /// The whole API (its error body).
    Api,
}

/// The comparison under way.
pub(super) struct Walk<'a> {
    pub(super) old: &'a ApiManifest,
    pub(super) new: &'a ApiManifest,
    changes: Vec<Change>,
    /// Each pair's changes, filled once.
    pairs: BTreeMap<Pair, Vec<Change>>,
    /// The pairs each pair holds.
    children: BTreeMap<Pair, BTreeSet<Pair>>,
    /// The pairs each route reaches directly.
    reached: Vec<(RouteRef, Pair)>,
    /// Pairs the error body reaches: every route's answers.
    api_pairs: BTreeSet<Pair>,
}

impl<'a> Walk<'a> {
    pub(super) fn new(old: &'a ApiManifest, new: &'a ApiManifest) -> Self {
        Walk {
            old,
            new,
            changes: Vec::new(),
            pairs: BTreeMap::new(),
            children: BTreeMap::new(),
            reached: Vec::new(),
            api_pairs: BTreeSet::new(),
        }
    }

    pub(super) fn push(&mut self, change: Change) {
        self.changes.push(change);
    }

    /// A change of `route` itself.
    pub(super) fn route_change(
        &mut self,
        route: RouteRef,
        rule: Rule,
        place: String,
        detail: String,
    ) {
        self.push(Change {
            severity: rule.severity(),
            rule,
            place,
            detail,
            routes: vec![route],
            types: Vec::new(),
        });
    }

    fn say(&mut self, owner: &Owner, rule: Rule, place: &str, detail: String) {
        let change = Change {
            severity: rule.severity(),
            rule,
            place: place.to_owned(),
            detail,
            routes: match owner {
                Owner::Route(route) => vec![route.clone()],
                _ => Vec::new(),
            },
            types: match owner {
                Owner::Type((_, name, _)) => vec![name.clone()],
                _ => Vec::new(),
            },
        };
        match owner {
            Owner::Type(pair) => self.pairs.entry(pair.clone()).or_default().push(change),
            _ => self.changes.push(change),
        }
    }

    /// `input` narrows, `output` widens (by the direction).
    fn narrowed(&mut self, owner: &Owner, dir: Dir, place: &str, detail: String) {
        let rule = match dir {
            Dir::Input => Rule::InputNarrowed,
            Dir::Output => Rule::AnswerNarrowed,
        };
        self.say(owner, rule, place, detail);
    }

    fn widened(&mut self, owner: &Owner, dir: Dir, place: &str, detail: String) {
        let rule = match dir {
            Dir::Input => Rule::InputWidened,
            Dir::Output => Rule::AnswerWidened,
        };
        self.say(owner, rule, place, detail);
    }

    /// A schema that was not there: its required fields are new required
    /// inputs (a query, headers or cookies the route reads now).
    pub(super) fn new_input(&mut self, owner: &Owner, place: &str, schema: &Schema) {
        let object = match schema {
            Schema::Ref(id) => match &self.new.get(*id).def.kind {
                TypeKind::Object(object) => Some(object),
                _ => None,
            },
            _ => None,
        };
        let Some(object) = object else {
            self.say(
                owner,
                Rule::InputRequired,
                place,
                "new required input".to_owned(),
            );
            return;
        };
        let required: Vec<&str> = object
            .fields
            .iter()
            .filter(|field| field.required)
            .map(|field| field.name.as_str())
            .collect();
        if required.is_empty() {
            self.say(
                owner,
                Rule::InputOptionalAdded,
                place,
                "new optional input".to_owned(),
            );
        } else {
            let detail = format!("new required input `{}`", required.join("`, `"));
            self.say(owner, Rule::InputRequired, place, detail);
        }
    }

    /// Compares `old` with `new` at `place`, travelling `dir`.
    pub(super) fn schema(
        &mut self,
        owner: &Owner,
        dir: Dir,
        place: &str,
        old: &Schema,
        new: &Schema,
    ) {
        use Schema as S;
        match (old, new) {
            (S::Nullable(old), S::Nullable(new)) => self.schema(owner, dir, place, old, new),
            (old, S::Nullable(new)) if !matches!(old, S::Null | S::Any) => {
                match dir {
                    Dir::Input => self.say(
                        owner,
                        Rule::InputWidened,
                        place,
                        "accepts `null`".to_owned(),
                    ),
                    Dir::Output => self.say(
                        owner,
                        Rule::AnswerFieldOptional,
                        place,
                        "may be `null`".to_owned(),
                    ),
                }
                self.schema(owner, dir, place, old, new);
            }
            (S::Nullable(old), new) if !matches!(new, S::Null | S::Any) => {
                self.narrowed(owner, dir, place, "is never `null` now".to_owned());
                self.schema(owner, dir, place, old, new);
            }
            (S::Ref(old_id), S::Ref(new_id)) => {
                let (old_type, new_type) = (self.old.get(*old_id), self.new.get(*new_id));
                let pair = (old_type.name.clone(), new_type.name.clone(), dir);
                if old_type.name != new_type.name {
                    self.say(
                        owner,
                        Rule::SdkNameChanged,
                        place,
                        format!("type `{}` is now `{}`", old_type.name, new_type.name),
                    );
                }
                self.reach(owner, &pair);
                if !self.pairs.contains_key(&pair) {
                    self.pairs.insert(pair.clone(), Vec::new());
                    let type_owner = Owner::Type(pair.clone());
                    self.def(
                        &type_owner,
                        dir,
                        &new_type.name,
                        &old_type.def,
                        &new_type.def,
                    );
                }
            }
            (S::Integer(old), S::Integer(new)) => self.integer(owner, dir, place, old, new),
            (S::Number(old), S::Number(new)) => {
                if old.format != new.format {
                    let detail = format!("{:?} -> {:?}", old.format, new.format);
                    let wider = new.format == crate::schema::NumberFormat::Double;
                    match (dir, wider) {
                        (Dir::Input, true) => self.widened(owner, dir, place, detail),
                        // A client's `f32` may not hold it.
                        (Dir::Output, true) => self.say(owner, Rule::TypeChanged, place, detail),
                        (_, false) => self.narrowed(owner, dir, place, detail),
                    }
                }
                self.bounds(owner, dir, place, &old.bounds, &new.bounds);
            }
            (S::Integer(_), S::Number(_)) if dir == Dir::Input => {
                self.widened(owner, dir, place, "integer -> number".to_owned())
            }
            (S::Number(_), S::Integer(_)) if dir == Dir::Output => {
                self.narrowed(owner, dir, place, "number -> integer".to_owned())
            }
            (S::String(old), S::String(new)) => self.string(owner, dir, place, old, new),
            (S::Array(old), S::Array(new)) => self.array(owner, dir, place, old, new),
            (S::Map(old), S::Map(new)) => {
                self.schema(owner, dir, &format!("{place}{{}}"), old, new)
            }
            (S::File(old), S::File(new)) => self.file(owner, dir, place, old, new),
            (old, new) if old == new => {}
            (_, S::Any) if dir == Dir::Input => {
                self.widened(owner, dir, place, "accepts any value".to_owned())
            }
            (S::Any, _) if dir == Dir::Output => {
                self.narrowed(owner, dir, place, "any value -> a typed one".to_owned())
            }
            (old, new) => {
                let (old_label, new_label) = (self.label(old, true), self.label(new, false));
                self.say(
                    owner,
                    Rule::TypeChanged,
                    place,
                    format!("{old_label} -> {new_label}"),
                );
            }
        }
    }

    /// A schema's name in a report.
    fn label(&self, schema: &Schema, old: bool) -> String {
        let registry = if old {
            self.old.registry()
        } else {
            self.new.registry()
        };
        format!("`{}`", crate::schema::type_label(schema, &registry))
    }

    /// Records that `owner` reaches `pair`.
    fn reach(&mut self, owner: &Owner, pair: &Pair) {
        match owner {
            Owner::Route(route) => self.reached.push((route.clone(), pair.clone())),
            Owner::Type(parent) => {
                self.children
                    .entry(parent.clone())
                    .or_default()
                    .insert(pair.clone());
            }
            Owner::Api => {
                self.api_pairs.insert(pair.clone());
            }
        }
    }

    fn def(&mut self, owner: &Owner, dir: Dir, name: &str, old: &TypeDef, new: &TypeDef) {
        if old.description != new.description {
            self.say(
                owner,
                Rule::Documentation,
                name,
                "description changed".to_owned(),
            );
        }
        match (&old.kind, &new.kind) {
            (TypeKind::Object(old), TypeKind::Object(new)) => {
                self.object(owner, dir, name, old, new)
            }
            (TypeKind::StringEnum(old), TypeKind::StringEnum(new)) => {
                let values = |values: &[crate::schema::EnumValue]| {
                    values
                        .iter()
                        .map(|value| (value.value.clone(), value.rust_name.clone()))
                        .collect::<Vec<_>>()
                };
                let members = |values: &[(String, String)]| {
                    values
                        .iter()
                        .map(|(value, _)| format!("\"{value}\""))
                        .collect::<Vec<_>>()
                };
                self.members(
                    owner,
                    dir,
                    name,
                    &members(&values(old)),
                    &members(&values(new)),
                );
                for (value, rust_name) in values(new) {
                    if let Some((_, old_name)) = values(old)
                        .into_iter()
                        .find(|(old_value, _)| *old_value == value)
                        && old_name != rust_name
                    {
                        self.say(
                            owner,
                            Rule::SdkNameChanged,
                            name,
                            format!("variant of \"{value}\": `{old_name}` -> `{rust_name}`"),
                        );
                    }
                }
                let described = |values: &[crate::schema::EnumValue]| {
                    values
                        .iter()
                        .map(|value| (value.value.clone(), value.description.clone()))
                        .collect::<BTreeMap<_, _>>()
                };
                let (old_docs, new_docs) = (described(old), described(new));
                if old_docs
                    .iter()
                    .any(|(value, doc)| new_docs.get(value).is_some_and(|new_doc| new_doc != doc))
                {
                    self.say(
                        owner,
                        Rule::Documentation,
                        name,
                        "a value's description changed".to_owned(),
                    );
                }
            }
            (TypeKind::Union(old), TypeKind::Union(new)) => self.union(owner, dir, name, old, new),
            _ => self.say(
                owner,
                Rule::TypeChanged,
                name,
                "the type is now another kind (object, enum or union)".to_owned(),
            ),
        }
    }

    /// Enum values or union members: a new one breaks an answer, a removed
    /// one breaks an input.
    fn members(&mut self, owner: &Owner, dir: Dir, place: &str, old: &[String], new: &[String]) {
        let added: Vec<&String> = new.iter().filter(|member| !old.contains(member)).collect();
        let removed: Vec<&String> = old.iter().filter(|member| !new.contains(member)).collect();
        let list = |members: &[&String]| {
            members
                .iter()
                .map(|member| member.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !added.is_empty() {
            let rule = match dir {
                Dir::Input => Rule::InputValueAdded,
                Dir::Output => Rule::AnswerMemberAdded,
            };
            self.say(owner, rule, place, format!("new member {}", list(&added)));
        }
        if !removed.is_empty() {
            let detail = format!("member {} removed", list(&removed));
            match dir {
                Dir::Input => self.say(owner, Rule::InputValueRemoved, place, detail),
                Dir::Output => self.say(owner, Rule::AnswerNarrowed, place, detail),
            }
        }
    }

    fn union(&mut self, owner: &Owner, dir: Dir, name: &str, old: &UnionDef, new: &UnionDef) {
        if old.repr != new.repr {
            self.say(
                owner,
                Rule::TypeChanged,
                name,
                format!("tagged {:?} -> {:?}", old.repr, new.repr),
            );
            return;
        }
        let names = |union: &UnionDef| {
            union
                .variants
                .iter()
                .map(|variant| variant.name.clone())
                .collect::<Vec<_>>()
        };
        self.members(owner, dir, name, &names(old), &names(new));
        for new_variant in &new.variants {
            let Some(old_variant) = old
                .variants
                .iter()
                .find(|variant| variant.name == new_variant.name)
            else {
                continue;
            };
            let place = format!("{name}::{}", new_variant.name);
            if old_variant.rust_name != new_variant.rust_name {
                self.say(
                    owner,
                    Rule::SdkNameChanged,
                    &place,
                    format!(
                        "variant `{}` -> `{}`",
                        old_variant.rust_name, new_variant.rust_name
                    ),
                );
            }
            if old_variant.description != new_variant.description {
                self.say(
                    owner,
                    Rule::Documentation,
                    &place,
                    "description changed".to_owned(),
                );
            }
            match (&old_variant.kind, &new_variant.kind) {
                (VariantKind::Unit, VariantKind::Unit) => {}
                (VariantKind::Newtype(old), VariantKind::Newtype(new)) => {
                    self.schema(owner, dir, &place, old, new)
                }
                (VariantKind::Struct(old), VariantKind::Struct(new)) => {
                    self.object(owner, dir, &place, old, new)
                }
                _ => self.say(
                    owner,
                    Rule::TypeChanged,
                    &place,
                    "the variant carries another kind of value".to_owned(),
                ),
            }
        }
    }

    fn object(&mut self, owner: &Owner, dir: Dir, name: &str, old: &ObjectDef, new: &ObjectDef) {
        for old_field in &old.fields {
            let place = format!("{name}.{}", old_field.name);
            if new.fields.iter().any(|field| field.name == old_field.name) {
                continue;
            }
            match dir {
                Dir::Output => self.say(
                    owner,
                    Rule::AnswerFieldRemoved,
                    &place,
                    "field removed".to_owned(),
                ),
                Dir::Input if new.strict => self.say(
                    owner,
                    Rule::InputNarrowed,
                    &place,
                    "field removed, and the type refuses unknown fields".to_owned(),
                ),
                Dir::Input => self.say(
                    owner,
                    Rule::InputIgnored,
                    &place,
                    "field removed: the server ignores it".to_owned(),
                ),
            }
        }
        for new_field in &new.fields {
            let place = format!("{name}.{}", new_field.name);
            let Some(old_field) = old.fields.iter().find(|field| field.name == new_field.name)
            else {
                match dir {
                    Dir::Input if new_field.required => self.say(
                        owner,
                        Rule::InputRequired,
                        &place,
                        "new required field".to_owned(),
                    ),
                    Dir::Input => self.say(
                        owner,
                        Rule::InputOptionalAdded,
                        &place,
                        "new optional field".to_owned(),
                    ),
                    Dir::Output => self.say(
                        owner,
                        Rule::AnswerFieldAdded,
                        &place,
                        "new field".to_owned(),
                    ),
                }
                continue;
            };
            self.field(owner, dir, &place, old_field, new_field);
        }
        if dir == Dir::Input && !old.strict && new.strict {
            self.say(
                owner,
                Rule::InputNarrowed,
                name,
                "refuses unknown fields now (`strict`)".to_owned(),
            );
        }
    }

    fn field(&mut self, owner: &Owner, dir: Dir, place: &str, old: &FieldDef, new: &FieldDef) {
        match dir {
            Dir::Input if !old.required && new.required => {
                self.say(owner, Rule::InputRequired, place, "required now".to_owned())
            }
            Dir::Input if old.required && !new.required => {
                self.say(owner, Rule::InputWidened, place, "optional now".to_owned())
            }
            Dir::Output if old.always_present && !new.always_present => self.say(
                owner,
                Rule::AnswerFieldOptional,
                place,
                "may be absent".to_owned(),
            ),
            Dir::Output if !old.always_present && new.always_present => self.say(
                owner,
                Rule::AnswerNarrowed,
                place,
                "always present now".to_owned(),
            ),
            _ => {}
        }
        if old.default != new.default {
            let show = |value: &Option<serde_json::Value>| {
                value
                    .as_ref()
                    .map_or("none".to_owned(), ToString::to_string)
            };
            self.say(
                owner,
                Rule::DefaultChanged,
                place,
                format!("default {} -> {}", show(&old.default), show(&new.default)),
            );
        }
        if old.description != new.description || old.example != new.example {
            self.say(
                owner,
                Rule::Documentation,
                place,
                "description or example changed".to_owned(),
            );
        }
        if dir == Dir::Input && old.server_check != new.server_check {
            match &new.server_check {
                Some(check) => {
                    self.narrowed(owner, dir, place, format!("checked by `{check}` now"))
                }
                None => self.widened(owner, dir, place, "no server check now".to_owned()),
            }
        }
        self.schema(owner, dir, place, &old.schema, &new.schema);
    }

    fn integer(
        &mut self,
        owner: &Owner,
        dir: Dir,
        place: &str,
        old: &IntegerSchema,
        new: &IntegerSchema,
    ) {
        if old.format != new.format {
            let ((old_min, old_max), (new_min, new_max)) = (old.format.range(), new.format.range());
            let detail = format!("{} -> {}", old.format.name(), new.format.name());
            let wider = new_min <= old_min && new_max >= old_max;
            match (dir, wider) {
                (Dir::Input, true) => self.widened(owner, dir, place, detail),
                (Dir::Input, false) => self.narrowed(owner, dir, place, detail),
                // A client's integer of the old width may not hold it.
                (Dir::Output, true) => self.say(owner, Rule::TypeChanged, place, detail),
                (Dir::Output, false) => {
                    if new_min >= old_min && new_max <= old_max {
                        self.narrowed(owner, dir, place, detail);
                    } else {
                        self.say(owner, Rule::TypeChanged, place, detail);
                    }
                }
            }
        }
        self.bounds(owner, dir, place, &old.bounds, &new.bounds);
    }

    fn bounds(&mut self, owner: &Owner, dir: Dir, place: &str, old: &Bounds, new: &Bounds) {
        let lower = |old: Option<f64>, new: Option<f64>| compare(old, new, |a, b| a < b);
        let upper = |old: Option<f64>, new: Option<f64>| compare(old, new, |a, b| a > b);
        let step = |old: Option<f64>, new: Option<f64>| {
            compare(old, new, |old, new| {
                // Every multiple of `old` is one of `new` when `old / new` is whole.
                !crate::schema::is_multiple_of(old, new)
            })
        };
        for (what, verdict) in [
            ("minimum", lower(old.minimum, new.minimum)),
            (
                "exclusiveMinimum",
                lower(old.exclusive_minimum, new.exclusive_minimum),
            ),
            ("maximum", upper(old.maximum, new.maximum)),
            (
                "exclusiveMaximum",
                upper(old.exclusive_maximum, new.exclusive_maximum),
            ),
            ("multipleOf", step(old.multiple_of, new.multiple_of)),
        ] {
            self.verdict(owner, dir, place, what, verdict);
        }
    }

    fn verdict(
        &mut self,
        owner: &Owner,
        dir: Dir,
        place: &str,
        what: &str,
        verdict: Option<(bool, String)>,
    ) {
        match verdict {
            Some((true, detail)) => self.widened(owner, dir, place, format!("{what} {detail}")),
            Some((false, detail)) => self.narrowed(owner, dir, place, format!("{what} {detail}")),
            None => {}
        }
    }

    fn string(
        &mut self,
        owner: &Owner,
        dir: Dir,
        place: &str,
        old: &StringSchema,
        new: &StringSchema,
    ) {
        let shown = |format: Option<crate::schema::Format>| {
            format.map(|format| format!("\"{}\"", format.name()))
        };
        let lengths = [
            (
                "minLength",
                compare(old.min_length, new.min_length, |a, b| a < b),
            ),
            (
                "maxLength",
                compare(old.max_length, new.max_length, |a, b| a > b),
            ),
            ("format", changed(shown(old.format), shown(new.format))),
            (
                "pattern",
                changed(
                    old.pattern.clone().map(|p| format!("/{p}/")),
                    new.pattern.clone().map(|p| format!("/{p}/")),
                ),
            ),
        ];
        for (what, verdict) in lengths {
            self.verdict(owner, dir, place, what, verdict);
        }
    }

    fn array(
        &mut self,
        owner: &Owner,
        dir: Dir,
        place: &str,
        old: &ArraySchema,
        new: &ArraySchema,
    ) {
        self.verdict(
            owner,
            dir,
            place,
            "minItems",
            compare(old.min_items, new.min_items, |a, b| a < b),
        );
        self.verdict(
            owner,
            dir,
            place,
            "maxItems",
            compare(old.max_items, new.max_items, |a, b| a > b),
        );
        if old.unique_items != new.unique_items {
            let verdict = Some((
                !new.unique_items,
                format!("{} -> {}", old.unique_items, new.unique_items),
            ));
            self.verdict(owner, dir, place, "uniqueItems", verdict);
        }
        self.schema(owner, dir, &format!("{place}[]"), &old.items, &new.items);
    }

    fn file(&mut self, owner: &Owner, dir: Dir, place: &str, old: &FileSchema, new: &FileSchema) {
        self.verdict(
            owner,
            dir,
            place,
            "maxSize",
            compare(old.max_size, new.max_size, |a, b| a > b),
        );
        if old.accept != new.accept {
            let wider = new.accept.is_empty()
                || (!old.accept.is_empty()
                    && old.accept.iter().all(|media_type| {
                        crate::schema::media_type_accepted(&new.accept, media_type)
                    }));
            let detail = format!("{:?} -> {:?}", old.accept, new.accept);
            self.verdict(owner, dir, place, "accept", Some((wider, detail)));
        }
    }

    /// The changes, each type's naming the routes that reach it.
    pub(super) fn finish(mut self) -> ManifestDiff {
        let mut routes_of: BTreeMap<Pair, Vec<RouteRef>> = BTreeMap::new();
        let mut starts: Vec<(Option<RouteRef>, Pair)> = self
            .reached
            .iter()
            .map(|(route, pair)| (Some(route.clone()), pair.clone()))
            .collect();
        starts.extend(self.api_pairs.iter().map(|pair| (None, pair.clone())));
        for (route, start) in starts {
            let mut stack = vec![start];
            let mut seen = BTreeSet::new();
            while let Some(pair) = stack.pop() {
                if !seen.insert(pair.clone()) {
                    continue;
                }
                let routes = routes_of.entry(pair.clone()).or_default();
                match &route {
                    Some(route) if !routes.contains(route) => routes.push(route.clone()),
                    Some(_) => {}
                    // The error body: every route answers it.
                    None => {
                        for route in &self.new.routes {
                            let route = RouteRef::of(route);
                            if !routes.contains(&route) {
                                routes.push(route);
                            }
                        }
                    }
                }
                if let Some(children) = self.children.get(&pair) {
                    stack.extend(children.iter().cloned());
                }
            }
        }
        for (pair, changes) in std::mem::take(&mut self.pairs) {
            let routes = routes_of.get(&pair).cloned().unwrap_or_default();
            for mut change in changes {
                change.routes = routes.clone();
                self.changes.push(change);
            }
        }
        ManifestDiff {
            changes: merged(self.changes),
        }
    }
}

/// One constraint, old and new: `Some((true, ..))` when the new accepts
/// more, `Some((false, ..))` when less, `None` when the same. `tighter(a,
/// b)` says whether `b` accepts less than `a`; no constraint accepts most.
fn compare<T: PartialEq + Copy + std::fmt::Display>(
    old: Option<T>,
    new: Option<T>,
    tighter: impl Fn(T, T) -> bool,
) -> Option<(bool, String)> {
    let show = |value: Option<T>| value.map_or("none".to_owned(), |value| value.to_string());
    let detail = format!("{} -> {}", show(old), show(new));
    match (old, new) {
        (old, new) if old == new => None,
        (None, Some(_)) => Some((false, detail)),
        (Some(_), None) => Some((true, detail)),
        (Some(old), Some(new)) => Some((!tighter(old, new), detail)),
        _ => None,
    }
}

/// A constraint that is either the same or another (a format, a pattern):
/// gone widens, anything else narrows.
fn changed(old: Option<String>, new: Option<String>) -> Option<(bool, String)> {
    if old == new {
        return None;
    }
    let show = |value: &Option<String>| value.clone().unwrap_or_else(|| "none".to_owned());
    Some((new.is_none(), format!("{} -> {}", show(&old), show(&new))))
}
