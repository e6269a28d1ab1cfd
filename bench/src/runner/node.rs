//! The node peers (`--with-node`): `bench/node/` installed from its
//! committed lockfile (`npm ci`), compiled with ts-patch's `tspc` (typia's
//! and nestia's transforms run at compile time), and started one process
//! per server, pinned to the server's core.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

/// The node project: `bench/node` in this crate.
pub fn project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("node")
}

/// The compiled peers and the file `GET /stringify` answers from.
#[derive(Debug)]
pub struct NodePeers {
    pub project: PathBuf,
    pub stringify: PathBuf,
}

/// Installs (when the lockfile changed since) and compiles the node peers;
/// `scratch` receives the `/stringify` value.
pub fn prepare(scratch: &Path) -> Result<NodePeers, String> {
    let project = project();
    let version = Command::new("node")
        .arg("--version")
        .output()
        .map_err(|err| format!("--with-node needs node and npm on the PATH: {err}"))?;
    eprintln!(
        "bench: node peers with node {}",
        String::from_utf8_lossy(&version.stdout).trim()
    );
    if needs_install(&project) {
        eprintln!("bench: npm ci in {}", project.display());
        run(Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&project))?;
    }
    eprintln!("bench: compiling the node peers (tspc: typia's transform)");
    run(Command::new("npx")
        .args(["--no-install", "tspc", "-p", "tsconfig.json"])
        .current_dir(&project))?;
    let stringify = scratch.join("stringify.json");
    std::fs::write(&stringify, bench::boxes_json()).map_err(|err| err.to_string())?;
    Ok(NodePeers { project, stringify })
}

/// Whether `node_modules` is missing or older than the lockfile (npm
/// writes `node_modules/.package-lock.json` on every install).
fn needs_install(project: &Path) -> bool {
    let modified = |path: PathBuf| std::fs::metadata(path).and_then(|meta| meta.modified());
    match (
        modified(project.join("package-lock.json")),
        modified(project.join("node_modules/.package-lock.json")),
    ) {
        (Ok(lock), Ok(installed)) => lock > installed,
        _ => true,
    }
}

fn run(command: &mut Command) -> Result<(), String> {
    let status = command
        .status()
        .map_err(|err| format!("{command:?}: {err}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{command:?} failed ({status})"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn read(name: &str) -> Value {
        let text = std::fs::read_to_string(project().join(name)).unwrap();
        serde_json::from_str(&text).unwrap()
    }

    /// What `npm ci` checks before installing, without the network: the
    /// lockfile records exactly the versions package.json pins, and every
    /// package it installs has a version and an integrity hash (the
    /// registry is the user's npm configuration's).
    #[test]
    fn the_committed_lockfile_matches_package_json() {
        let package = read("package.json");
        let lock = read("package-lock.json");
        assert_eq!(lock["lockfileVersion"], 3);
        let root = &lock["packages"][""];
        for field in ["dependencies", "devDependencies"] {
            let pinned = package[field].as_object().unwrap();
            assert_eq!(&root[field], &package[field], "{field} differ");
            for (name, version) in pinned {
                let version = version.as_str().unwrap();
                assert!(
                    version.chars().all(|c| c.is_ascii_digit() || c == '.'),
                    "{name} is pinned to a range ({version}), not a version"
                );
                let installed = &lock["packages"][format!("node_modules/{name}")];
                assert_eq!(installed["version"], version, "{name}");
            }
        }
        for (path, entry) in lock["packages"].as_object().unwrap() {
            if path.is_empty() || entry["link"] == true {
                continue;
            }
            assert!(entry["version"].is_string(), "{path} has no version");
            assert!(
                entry["integrity"]
                    .as_str()
                    .is_some_and(|hash| hash.starts_with("sha512-")),
                "{path} has no integrity hash"
            );
        }
    }
}
