//! Where the SDKs go and which app they describe: `[workspace.metadata.sdk-gen]`
//! in the workspace's `Cargo.toml`, read through `cargo metadata`.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use serde::Deserialize;

/// The generator's configuration.
///
/// ```toml
/// [workspace.metadata.sdk-gen]
/// manifest-command = ["cargo", "run", "--quiet", "-p", "bbs", "--", "manifest"]
/// typescript = { out = "examples/bbs/sdk/typescript", package = "@bbs/sdk" }
/// rust = { out = "examples/bbs/sdk/rust", package = "bbs-sdk" }
/// ```
///
/// The Rust crate also takes `chrono = true` (see [`RustTarget`]).
///
/// An app that serves several API versions (`framework::Versions`) gets
/// the SDKs above for the version its manifest command prints (the
/// default), and an SDK per other version it lists; each is generated from
/// `manifest-command` plus `--version <version>` and sends its version:
///
/// ```toml
/// [workspace.metadata.sdk-gen.versions."2.0.0"]
/// typescript = { out = "examples/bbs/sdk/v2/typescript", package = "@bbs/sdk-v2" }
/// rust = { out = "examples/bbs/sdk/v2/rust", package = "bbs-sdk-v2" }
/// ```
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Config {
    /// The command that prints the app's manifest, run in the workspace root.
    #[serde(default)]
    pub manifest_command: Vec<String>,
    /// The TypeScript package.
    pub typescript: Option<Target>,
    /// The Rust crate.
    pub rust: Option<RustTarget>,
    /// The SDKs of other API versions, by version.
    #[serde(default)]
    pub versions: std::collections::BTreeMap<String, VersionTargets>,
    /// Where relative paths start: the workspace root.
    #[serde(skip)]
    pub root: PathBuf,
}

/// The SDKs of one API version.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct VersionTargets {
    /// The TypeScript package.
    pub typescript: Option<Target>,
    /// The Rust crate.
    pub rust: Option<RustTarget>,
}

/// One SDK's folder and package name.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// The folder, relative to the workspace root.
    pub out: PathBuf,
    /// The package name.
    pub package: String,
}

/// The Rust crate's folder, package name and options.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct RustTarget {
    /// The folder, relative to the workspace root.
    pub out: PathBuf,
    /// The package name.
    pub package: String,
    /// `date-time` and `date` strings as chrono's types
    /// ([`RustOptions::chrono`](crate::RustOptions::chrono)).
    #[serde(default)]
    pub chrono: bool,
}

impl RustTarget {
    /// Its folder and package name.
    pub fn target(&self) -> Target {
        Target {
            out: self.out.clone(),
            package: self.package.clone(),
        }
    }
}

/// Why the configuration could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// `cargo metadata` failed.
    #[error("running `cargo metadata`: {0}")]
    Cargo(String),
    /// The section is malformed.
    #[error("[workspace.metadata.sdk-gen] in {manifest}: {reason}")]
    Invalid {
        /// The workspace's `Cargo.toml`.
        manifest: String,
        /// What is wrong.
        reason: String,
    },
}

#[derive(Deserialize)]
struct Metadata {
    workspace_root: PathBuf,
    #[serde(default)]
    metadata: Option<serde_json::Value>,
}

impl Config {
    /// The configuration of the workspace that holds `dir`; empty (no
    /// targets) when the workspace has no `[workspace.metadata.sdk-gen]`.
    ///
    /// # Errors
    /// `cargo metadata` fails or the section is malformed.
    pub fn from_workspace(dir: &Path) -> Result<Config, ConfigError> {
        let output = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args([
                "metadata",
                "--format-version",
                "1",
                "--no-deps",
                "--offline",
            ])
            .current_dir(dir)
            .output()
            .map_err(|err| ConfigError::Cargo(err.to_string()))?;
        if !output.status.success() {
            return Err(ConfigError::Cargo(
                String::from_utf8_lossy(&output.stderr).trim().to_owned(),
            ));
        }
        let metadata: Metadata = serde_json::from_slice(&output.stdout)
            .map_err(|err| ConfigError::Cargo(err.to_string()))?;
        let manifest = metadata.workspace_root.join("Cargo.toml");
        let section = metadata
            .metadata
            .as_ref()
            .and_then(|metadata| metadata.get("sdk-gen"))
            .cloned();
        let mut config = match section {
            Some(section) => Config::deserialize(section).map_err(|err| ConfigError::Invalid {
                manifest: manifest.display().to_string(),
                reason: err.to_string(),
            })?,
            None => Config::default(),
        };
        config.root = metadata.workspace_root;
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_this_workspace() {
        let config = Config::from_workspace(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert_eq!(config.manifest_command[..2], ["cargo", "run"]);
        assert_eq!(
            config.typescript.unwrap().out,
            Path::new("examples/bbs/sdk/typescript")
        );
        assert_eq!(config.rust.unwrap().package, "bbs-sdk");
        assert!(config.root.join("Cargo.toml").exists());
    }

    #[test]
    fn each_version_names_its_sdks() {
        let config = Config::from_workspace(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        let v2 = &config.versions["2.0.0"];
        assert_eq!(
            v2.typescript.as_ref().unwrap().out,
            Path::new("examples/bbs/sdk/v2/typescript")
        );
        assert_eq!(v2.rust.as_ref().unwrap().package, "bbs-sdk-v2");
        let err = Config::deserialize(serde_json::json!({
            "versions": { "2.0.0": { "python": {} } }
        }))
        .unwrap_err();
        assert!(err.to_string().contains("python"), "{err}");
    }

    #[test]
    fn unknown_keys_are_refused() {
        let err = Config::deserialize(serde_json::json!({ "typescirpt": {} })).unwrap_err();
        assert!(err.to_string().contains("typescirpt"), "{err}");
    }
}
