//! Blessed versions: the manifests of released API versions, committed
//! beside the app (`api/1.0.0.json`), that the current app must not break.

use std::path::{Path, PathBuf};

use super::{ApiManifest, Severity, diff};

/// Fails when the app whose manifests are `current` breaks any manifest
/// blessed in `dir`: every `*.json` file there is the manifest of a
/// released API version that is still supported (remove a file when its
/// version no longer is). An app with [`Versions`](crate::Versions) gives
/// every version's manifest ([`App::manifests`](crate::App::manifests)),
/// and each blessed file is checked against the manifest of its version;
/// an app without versions gives its one manifest (`[app.manifest()]`). The
/// panic's message is the report of each breaking change.
///
/// Bless a version by writing its manifest there when it is released
/// (`cargo run -p app -- manifest --version 1.0.0 > api/1.0.0.json`).
///
/// # Panics
/// When `current` breaks a blessed manifest, or when `dir` cannot be read
/// or holds a file that is not a manifest.
///
/// ```
/// use framework::prelude::*;
/// use framework::testing::assert_compatible;
///
/// #[dto]
/// struct Note { text: String }
/// struct Notes;
/// #[controller("notes")]
/// impl Notes {
///     #[typed_route::get("")]
///     async fn latest(&self) -> Note { Note { text: "hi".into() } }
/// }
///
/// let manifest = App::builder().controller(Notes).build().unwrap().manifest().clone();
/// let blessed = std::env::temp_dir().join(format!("blessed-{}", std::process::id()));
/// std::fs::create_dir_all(&blessed).unwrap();
/// std::fs::write(blessed.join("1.0.0.json"), manifest.to_json()).unwrap();
/// assert_compatible([&manifest], &blessed);
/// # std::fs::remove_dir_all(&blessed).unwrap();
/// ```
#[track_caller]
pub fn assert_compatible<'a>(
    current: impl IntoIterator<Item = &'a ApiManifest>,
    dir: impl AsRef<Path>,
) {
    let current: Vec<&ApiManifest> = current.into_iter().collect();
    if let Err(message) = check_compatible(&current, dir.as_ref()) {
        panic!("{message}");
    }
}

fn check_compatible(current: &[&ApiManifest], dir: &Path) -> Result<(), String> {
    let mut failures = Vec::new();
    for path in blessed_files(dir)? {
        let text = std::fs::read_to_string(&path)
            .map_err(|err| format!("reading {}: {err}", path.display()))?;
        let blessed: ApiManifest = serde_json::from_str(&text)
            .map_err(|err| format!("{} is not a manifest: {err}", path.display()))?;
        let Some(served) = serving(current, &blessed) else {
            failures.push(format!(
                "the API version {} blessed in {} is not served any more; delete the file to retire the version",
                blessed_version(&blessed),
                path.display()
            ));
            continue;
        };
        let changes = diff(&blessed, served);
        if changes.worst() == Some(Severity::Breaking) {
            failures.push(format!(
                "the app breaks the API blessed in {}:\n{changes}",
                path.display()
            ));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

/// The version a blessed manifest is of: its API version, else the
/// document's version.
fn blessed_version(blessed: &ApiManifest) -> &str {
    blessed
        .api_version
        .as_ref()
        .map_or(&blessed.version, |version| &version.version)
}

/// The manifest of `current` that serves what `blessed` was: of the same
/// API version when the app serves versions, else the app's one.
fn serving<'a>(current: &[&'a ApiManifest], blessed: &ApiManifest) -> Option<&'a ApiManifest> {
    match current {
        [only] if only.api_version.is_none() => Some(only),
        _ => current.iter().copied().find(|manifest| {
            manifest
                .api_version
                .as_ref()
                .is_some_and(|version| version.version == blessed_version(blessed))
        }),
    }
}

/// The `*.json` files in `dir`, by name.
fn blessed_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|err| format!("reading {}: {err}", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|err| format!("reading {}: {err}", dir.display()))?
            .path();
        if path
            .extension()
            .is_some_and(|extension| extension == "json")
        {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::check_compatible;
    use crate::prelude::*;

    #[dto]
    struct Note {
        text: String,
    }

    struct Notes;

    #[controller("notes")]
    impl Notes {
        #[typed_route::get("")]
        async fn latest(&self) -> Note {
            Note {
                text: String::new(),
            }
        }
    }

    /// A blessed version the app breaks fails with the report; one it
    /// only extends passes; a folder that is not there is an error.
    #[test]
    fn breaking_a_blessed_version_fails_with_the_report() {
        let app = App::builder().controller(Notes).build().unwrap();
        let current = app.manifest();
        let dir = tempfile::tempdir().unwrap();
        let mut blessed = current.clone();
        blessed.routes[0].path = "/notes/latest".to_owned();
        blessed.routes[0].operation_id = "notes.newest".to_owned();
        std::fs::write(dir.path().join("1.0.0.json"), blessed.to_json()).unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not a manifest").unwrap();
        let report = check_compatible(&[current], dir.path()).unwrap_err();
        assert!(report.contains("1.0.0.json"), "{report}");
        assert!(
            report.contains("[route-removed] GET /notes/latest: route removed"),
            "{report}"
        );

        let mut older = current.clone();
        older.routes.clear();
        std::fs::write(dir.path().join("1.0.0.json"), older.to_json()).unwrap();
        assert_eq!(check_compatible(&[current], dir.path()), Ok(()));
        assert!(check_compatible(&[current], &dir.path().join("missing")).is_err());
    }
}
