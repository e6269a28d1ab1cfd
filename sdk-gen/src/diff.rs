//! `sdk-gen diff OLD NEW`: the framework's manifest diff
//! ([`framework::manifest::diff`]) as the SDKs see it: each breaking
//! change names the generated functions and types it affects, the SDK's
//! next version follows from the worst change, and a changelog entry lists
//! them.

use std::{path::Path, process::Command};

use framework::manifest::{ApiManifest, Change, ManifestDiff, RouteRef, Severity};
use serde_json::{Value, json};

use crate::{
    rust::{pascal, snake},
    typescript::ident,
};

/// How much the SDK's version moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bump {
    /// Nothing changed.
    None,
    /// Only documentation, defaults and other changes that need care.
    Patch,
    /// Additions old clients do not notice.
    Minor,
    /// A breaking change.
    Major,
}

impl Bump {
    /// The bump a diff calls for.
    pub fn of(diff: &ManifestDiff) -> Bump {
        match diff.worst() {
            None => Bump::None,
            Some(Severity::Breaking) => Bump::Major,
            Some(Severity::Compatible) => Bump::Minor,
            Some(_) => Bump::Patch,
        }
    }

    /// `major`, `minor`, `patch`, `none`.
    pub fn as_str(self) -> &'static str {
        match self {
            Bump::None => "none",
            Bump::Patch => "patch",
            Bump::Minor => "minor",
            Bump::Major => "major",
        }
    }

    /// `version` moved by this bump, as Cargo reads versions: below 1.0.0
    /// a breaking change moves the minor number and an addition the
    /// patch. A version that is not `x.y.z` is returned as it is.
    ///
    /// ```
    /// use sdk_gen::Bump;
    /// assert_eq!(Bump::Major.next("1.4.2"), "2.0.0");
    /// assert_eq!(Bump::Minor.next("1.4.2"), "1.5.0");
    /// assert_eq!(Bump::Patch.next("1.4.2"), "1.4.3");
    /// assert_eq!(Bump::Major.next("0.3.1"), "0.4.0");
    /// assert_eq!(Bump::Minor.next("0.3.1"), "0.3.2");
    /// ```
    pub fn next(self, version: &str) -> String {
        let core = version.split(['-', '+']).next().unwrap_or_default();
        let numbers: Vec<u64> = core
            .split('.')
            .filter_map(|part| part.parse().ok())
            .collect();
        let [major, minor, patch] = numbers[..] else {
            return version.to_owned();
        };
        let (major, minor, patch) = match self {
            Bump::None => return version.to_owned(),
            Bump::Major if major == 0 => (0, minor + 1, 0),
            Bump::Major => (major + 1, 0, 0),
            Bump::Minor if major == 0 => (0, minor, patch + 1),
            Bump::Minor => (major, minor + 1, 0),
            Bump::Patch => (major, minor, patch + 1),
        };
        format!("{major}.{minor}.{patch}")
    }
}

/// Reads a manifest from a file, or from git: `git:REV:PATH` is the
/// manifest committed at `PATH` (from the repository's root) in `REV`.
///
/// # Errors
/// A file or revision that cannot be read, or is not a manifest.
pub fn read_source(source: &str) -> Result<ApiManifest, String> {
    let text = match source.strip_prefix("git:") {
        Some(spec) => {
            if !spec.contains(':') {
                return Err(format!("`{source}`: expected git:REV:PATH"));
            }
            let output = Command::new("git")
                .args(["show", spec])
                .output()
                .map_err(|err| format!("running git: {err}"))?;
            if !output.status.success() {
                return Err(format!(
                    "`git show {spec}` failed: {}",
                    String::from_utf8_lossy(&output.stderr).trim()
                ));
            }
            String::from_utf8(output.stdout).map_err(|err| format!("{source}: {err}"))?
        }
        None => std::fs::read_to_string(Path::new(source))
            .map_err(|err| format!("reading {source}: {err}"))?,
    };
    serde_json::from_str(&text).map_err(|err| format!("{source} is not a manifest: {err}"))
}

/// The generated functions a route is: TypeScript's and Rust's.
pub fn route_functions(route: &RouteRef) -> Option<(String, String)> {
    let (function, namespaces) = route.accessor.split_last()?;
    if !route.sdk {
        return None;
    }
    let mut typescript = String::from("api.functional");
    let mut rust = String::from("client");
    for namespace in namespaces {
        typescript.push('.');
        typescript.push_str(namespace);
        rust.push('.');
        rust.push_str(&snake(namespace));
        rust.push_str("()");
    }
    typescript.push('.');
    typescript.push_str(&ident(function));
    rust.push('.');
    rust.push_str(&snake(function));
    Some((typescript, rust))
}

/// What a change touches in the SDKs: TypeScript's functions and types,
/// then Rust's.
fn affected(change: &Change) -> (Vec<String>, Vec<String>) {
    let (mut typescript, mut rust) = (Vec::new(), Vec::new());
    for (ts, rs) in change.routes.iter().filter_map(route_functions) {
        typescript.push(format!("{ts}()"));
        rust.push(format!("{rs}()"));
    }
    for name in &change.types {
        typescript.push(name.clone());
        rust.push(pascal(name));
    }
    (typescript, rust)
}

/// The report for people: each breaking change followed by the SDK
/// functions and types it affects.
pub fn human_report(diff: &ManifestDiff) -> String {
    diff.render_with(&|change| {
        if change.severity != Severity::Breaking {
            return Vec::new();
        }
        let (typescript, rust) = affected(change);
        if typescript.is_empty() {
            return Vec::new();
        }
        vec![
            format!("TypeScript: {}", typescript.join(", ")),
            format!("Rust: {}", rust.join(", ")),
        ]
    })
}

/// The report for machines: the diff, each breaking change with its
/// `sdk` functions and types, the bump and the next version.
pub fn json_report(diff: &ManifestDiff, old_version: &str) -> Value {
    let bump = Bump::of(diff);
    let changes: Vec<Value> = diff
        .changes
        .iter()
        .map(|change| {
            let mut value = serde_json::to_value(change).unwrap_or_default();
            if change.severity == Severity::Breaking
                && let Some(object) = value.as_object_mut()
            {
                let (typescript, rust) = affected(change);
                object.insert(
                    "sdk".to_owned(),
                    json!({ "typescript": typescript, "rust": rust }),
                );
            }
            value
        })
        .collect();
    json!({
        "breaking": diff.count(Severity::Breaking),
        "needs_care": diff.count(Severity::NeedsCare),
        "compatible": diff.count(Severity::Compatible),
        "bump": bump.as_str(),
        "version": old_version,
        "next_version": bump.next(old_version),
        "changes": changes,
    })
}

/// A changelog entry in markdown: the next version, then the changes by
/// severity.
pub fn changelog_entry(diff: &ManifestDiff, old_version: &str) -> String {
    let bump = Bump::of(diff);
    let mut out = format!(
        "## {}\n\nFrom {old_version} ({} release): {} breaking, {} needing care, {} compatible.\n",
        bump.next(old_version),
        bump.as_str(),
        diff.count(Severity::Breaking),
        diff.count(Severity::NeedsCare),
        diff.count(Severity::Compatible),
    );
    for (severity, title) in [
        (Severity::Breaking, "Breaking"),
        (Severity::NeedsCare, "Needs care"),
        (Severity::Compatible, "Compatible"),
    ] {
        let changes: Vec<&Change> = diff
            .changes
            .iter()
            .filter(|change| change.severity == severity)
            .collect();
        if changes.is_empty() {
            continue;
        }
        out.push_str(&format!("\n### {title}\n\n"));
        for change in changes {
            out.push_str(&format!("- `{}`: {}", change.place, change.detail));
            let (typescript, rust) = affected(change);
            if severity == Severity::Breaking && !typescript.is_empty() {
                out.push_str(&format!(
                    " (TypeScript: `{}`; Rust: `{}`)",
                    typescript.join("`, `"),
                    rust.join("`, `")
                ));
            }
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifests_are_read_from_files_and_git() {
        let err = read_source("git:HEAD").unwrap_err();
        assert!(err.contains("expected git:REV:PATH"), "{err}");
        let err = read_source("no/such/manifest.json").unwrap_err();
        assert!(err.starts_with("reading no/such/manifest.json"), "{err}");
        // In a clone: git finds the file, which is OpenAPI, not a manifest.
        if Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.git")).exists() {
            let err = read_source("git:HEAD:examples/bbs/openapi.json").unwrap_err();
            assert!(err.contains("is not a manifest"), "{err}");
        }
    }

    #[test]
    fn versions_follow_the_worst_change() {
        assert_eq!(Bump::of(&ManifestDiff::default()), Bump::None);
        assert_eq!(Bump::None.next("1.2.3"), "1.2.3");
        assert_eq!(Bump::Major.next("1.2.3-beta.1"), "2.0.0");
        assert_eq!(Bump::Minor.next("next"), "next");
    }

    #[test]
    fn functions_are_named_as_the_sdks_name_them() {
        let route = RouteRef {
            method: framework::HttpMethod::Delete,
            path: "/bbs/articles/:id".to_owned(),
            operation_id: "bbs.articles.erase".to_owned(),
            accessor: vec!["bbs".into(), "articles".into(), "delete".into()],
            sdk: true,
        };
        let (typescript, rust) = route_functions(&route).unwrap();
        assert_eq!(typescript, "api.functional.bbs.articles.delete_");
        assert_eq!(rust, "client.bbs().articles().delete");
        assert_eq!(
            route_functions(&RouteRef {
                sdk: false,
                ..route
            }),
            None
        );
    }
}
