//! Writing SDKs to disk, and checking the committed ones are current.

use std::{
    collections::BTreeSet,
    fmt, fs, io,
    path::{Path, PathBuf},
};

use crate::GeneratedFile;

/// The folder of an SDK that is wholly generated: a file there that the
/// generator no longer emits is stale.
const OWNED_DIR: &str = "src";

/// How a committed SDK differs from what the generator emits now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Drift {
    /// A file the generator emits is not there.
    Missing(PathBuf),
    /// A file's contents differ.
    Differs(PathBuf),
    /// A generated folder holds a file the generator no longer emits.
    Stale(PathBuf),
}

impl fmt::Display for Drift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Drift::Missing(path) => write!(f, "missing: {}", path.display()),
            Drift::Differs(path) => write!(f, "differs: {}", path.display()),
            Drift::Stale(path) => write!(f, "no longer generated: {}", path.display()),
        }
    }
}

/// Writes `files` under `dir`, removing stale files from its `src/`.
/// Files whose contents are already right are not touched.
///
/// # Errors
/// What the file system says.
pub fn write(dir: &Path, files: &[GeneratedFile]) -> io::Result<()> {
    for drift in check(dir, files)? {
        match drift {
            Drift::Stale(path) => fs::remove_file(dir.join(path))?,
            Drift::Missing(path) | Drift::Differs(path) => {
                let target = dir.join(&path);
                if let Some(parent) = target.parent() {
                    fs::create_dir_all(parent)?;
                }
                let file = files.iter().find(|file| file.path == path);
                fs::write(target, file.map_or("", |file| file.contents.as_str()))?;
            }
        }
    }
    Ok(())
}

/// Every way the SDK under `dir` differs from `files`; empty when current.
///
/// # Errors
/// What the file system says, other than a missing file.
pub fn check(dir: &Path, files: &[GeneratedFile]) -> io::Result<Vec<Drift>> {
    let mut drifts = Vec::new();
    for file in files {
        match fs::read_to_string(dir.join(&file.path)) {
            Ok(found) if found == file.contents => {}
            Ok(_) => drifts.push(Drift::Differs(file.path.clone())),
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                drifts.push(Drift::Missing(file.path.clone()))
            }
            Err(err) => return Err(err),
        }
    }
    let generated: BTreeSet<&Path> = files.iter().map(|file| file.path.as_path()).collect();
    let mut found = Vec::new();
    list(dir, Path::new(OWNED_DIR), &mut found)?;
    found.sort();
    for path in found {
        if !generated.contains(path.as_path()) {
            drifts.push(Drift::Stale(path));
        }
    }
    Ok(drifts)
}

/// The files under `dir/relative`, as paths relative to `dir`.
fn list(dir: &Path, relative: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    let entries = match fs::read_dir(dir.join(relative)) {
        Ok(entries) => entries,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(err) => return Err(err),
    };
    for entry in entries {
        let entry = entry?;
        let path = relative.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            list(dir, &path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, contents: &str) -> GeneratedFile {
        GeneratedFile {
            path: path.into(),
            contents: contents.into(),
        }
    }

    #[test]
    fn check_reports_every_drift_and_write_repairs_it() {
        let dir = tempfile::tempdir().unwrap();
        let files = vec![
            file("package.json", "{}"),
            file("src/a.ts", "a"),
            file("src/b/c.ts", "c"),
        ];
        write(dir.path(), &files).unwrap();
        assert!(check(dir.path(), &files).unwrap().is_empty());

        fs::write(dir.path().join("src/a.ts"), "edited").unwrap();
        fs::remove_file(dir.path().join("src/b/c.ts")).unwrap();
        fs::write(dir.path().join("src/old.ts"), "old").unwrap();
        fs::write(dir.path().join("README.md"), "not generated, left alone").unwrap();
        assert_eq!(
            check(dir.path(), &files).unwrap(),
            [
                Drift::Differs("src/a.ts".into()),
                Drift::Missing("src/b/c.ts".into()),
                Drift::Stale("src/old.ts".into()),
            ]
        );

        write(dir.path(), &files).unwrap();
        assert!(check(dir.path(), &files).unwrap().is_empty());
        assert!(dir.path().join("README.md").exists());
    }
}
