//! `cargo run -p sdk-gen`: regenerates the SDKs that the workspace's
//! `[workspace.metadata.sdk-gen]` configures, from the manifest its app
//! prints. `--check` only compares. `cargo run -p sdk-gen -- e2e <dir>`
//! writes end-to-end and load tests through the TypeScript SDK.
//! `cargo run -p sdk-gen -- diff OLD NEW --deny breaking` says what changed
//! between two manifests and fails on breaking changes.

use std::{
    io::Read,
    path::{Component, Path, PathBuf},
    process::{Command, ExitCode},
};

use clap::{Parser, Subcommand, ValueEnum};
use framework::manifest::ApiManifest;
use framework::manifest::Severity;
use sdk_gen::{Bump, Config, E2eOptions, RustOptions, Targets, TypeScriptOptions};

/// Generates the TypeScript and Rust client SDKs of an app from its API
/// manifest. Without flags, does what `[workspace.metadata.sdk-gen]` says.
#[derive(Debug, Parser)]
#[command(name = "sdk-gen", version)]
struct Args {
    #[command(subcommand)]
    command: Option<Step>,
    /// Read the manifest from this file (`-` for stdin) instead of running
    /// the configured `manifest-command`. An app prints it with `manifest`.
    #[arg(long, value_name = "FILE", global = true)]
    manifest: Option<PathBuf>,
    /// Where the TypeScript package goes.
    #[arg(long, value_name = "DIR")]
    typescript_out: Option<PathBuf>,
    /// The TypeScript package's name.
    #[arg(long, value_name = "NAME")]
    typescript_package: Option<String>,
    /// Where the Rust crate goes.
    #[arg(long, value_name = "DIR")]
    rust_out: Option<PathBuf>,
    /// The Rust crate's package name.
    #[arg(long, value_name = "NAME")]
    rust_package: Option<String>,
    /// Dates and times in the Rust crate as chrono's types
    /// (`chrono = true` in the configuration's `rust` table).
    #[arg(long)]
    rust_chrono: bool,
    /// Do not generate the TypeScript package.
    #[arg(long)]
    no_typescript: bool,
    /// Do not generate the Rust crate.
    #[arg(long)]
    no_rust: bool,
    /// Write nothing; exit 1 when the SDKs on disk differ from what would be
    /// generated.
    #[arg(long)]
    check: bool,
}

/// What else sdk-gen does.
#[derive(Debug, Subcommand)]
enum Step {
    /// Writes end-to-end and load tests of every route, through the
    /// TypeScript SDK, into DIR.
    ///
    /// A test function per route calls it with random valid input and
    /// checks the answer; `e2e.test.ts` runs them with node's test runner,
    /// `bench.ts` as a load test. Only missing files are written: the
    /// others are yours (`--force` replaces them).
    E2e {
        /// Where the tests go: `examples/bbs/sdk/typescript/e2e`.
        dir: PathBuf,
        /// The TypeScript SDK's folder; the configured `typescript` one by
        /// default.
        #[arg(long, value_name = "DIR")]
        sdk: Option<PathBuf>,
        /// Also replace the files that differ from what would be written,
        /// edits and all.
        #[arg(long)]
        force: bool,
    },
    /// Lists what changed from the OLD manifest to the NEW one, for a
    /// client generated from OLD talking to a server built from NEW: each
    /// change breaking, needing care or compatible, with the SDK functions
    /// and types each breaking one affects, and the SDK's next version.
    ///
    /// OLD and NEW are manifest files (what `app manifest` prints) or
    /// `git:REV:PATH`, the manifest committed at PATH (from the
    /// repository's root) in REV. Exits 1 when a change `--deny` names
    /// exists, 2 on errors.
    Diff {
        /// The manifest the clients were generated from.
        old: String,
        /// The manifest of the server they talk to.
        new: String,
        /// Print JSON instead of the report for people.
        #[arg(long)]
        json: bool,
        /// Exit 1 when a change this severe exists: `breaking`, or `care`
        /// (changes needing care and breaking ones).
        #[arg(long, value_enum, value_name = "SEVERITY")]
        deny: Option<Deny>,
        /// Append a changelog entry (markdown) for the next version to FILE.
        #[arg(long, value_name = "FILE")]
        changelog: Option<PathBuf>,
    },
}

/// Which changes fail `sdk-gen diff`.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Deny {
    /// Breaking changes.
    Breaking,
    /// Changes needing care, and breaking ones.
    Care,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let outcome = match &args.command {
        Some(Step::E2e { dir, sdk, force }) => e2e(&args, dir, sdk.as_deref(), *force),
        Some(Step::Diff {
            old,
            new,
            json,
            deny,
            changelog,
        }) => diff(old, new, *json, *deny, changelog.as_deref()),
        None => run(&args),
    };
    match outcome {
        Ok(code) => code,
        Err(message) => {
            eprintln!("sdk-gen: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &Args) -> Result<ExitCode, String> {
    let cwd = std::env::current_dir().map_err(|err| err.to_string())?;
    let config = Config::from_workspace(&cwd).map_err(|err| err.to_string())?;
    let mut jobs = vec![(None, choose(args, &config)?)];
    // Flags name one SDK of one manifest; the configuration, every version's.
    let flags = args.manifest.is_some() || args.typescript_out.is_some() || args.rust_out.is_some();
    if !flags {
        for (version, targets) in &config.versions {
            let versioned = Config {
                typescript: targets.typescript.clone(),
                rust: targets.rust.clone(),
                ..config.clone()
            };
            jobs.push((Some(version.as_str()), choose(args, &versioned)?));
        }
    }
    let mut drifted = false;
    for (version, chosen) in &jobs {
        let manifest = read_manifest(args, &config, *version)?;
        drifted |= emit(args, &manifest, chosen)?;
    }
    if drifted {
        eprintln!("sdk-gen: the SDKs are out of date; run `cargo run -p sdk-gen` and commit them");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// Generates the SDKs `chosen` names from `manifest`, writing them (or,
/// with `--check`, comparing them); whether any drifted.
fn emit(args: &Args, manifest: &ApiManifest, chosen: &Chosen) -> Result<bool, String> {
    let sdks = sdk_gen::generate(manifest, &chosen.targets).map_err(|err| err.to_string())?;
    let mut drifted = false;
    for sdk in &sdks {
        let dir = match sdk.dir_name {
            "typescript" => chosen.typescript.as_ref().map(|(dir, _)| dir),
            _ => chosen.rust.as_ref().map(|(dir, _)| dir),
        };
        let Some(dir) = dir else { continue };
        if args.check {
            drifted |= check(dir, sdk)?;
        } else {
            sdk_gen::write(dir, &sdk.files).map_err(|err| format!("{}: {err}", dir.display()))?;
            eprintln!(
                "sdk-gen: {} SDK in {} ({} files)",
                sdk.dir_name,
                dir.display(),
                sdk.files.len()
            );
        }
    }
    Ok(drifted)
}

/// `sdk-gen e2e`: writes the tests `dir` does not hold.
fn e2e(args: &Args, dir: &Path, sdk: Option<&Path>, force: bool) -> Result<ExitCode, String> {
    let cwd = std::env::current_dir().map_err(|err| err.to_string())?;
    let config = Config::from_workspace(&cwd).map_err(|err| err.to_string())?;
    let sdk = match (sdk, &config.typescript) {
        (Some(sdk), _) => cwd.join(sdk),
        (None, Some(typescript)) => config.root.join(&typescript.out),
        (None, None) => {
            return Err(
                "e2e: where is the TypeScript SDK? Pass --sdk DIR or configure `typescript` in [workspace.metadata.sdk-gen]"
                    .to_owned(),
            );
        }
    };
    let dir = cwd.join(dir);
    let manifest = read_manifest(args, &config, None)?;
    let options = E2eOptions {
        sdk: relative(&dir, &sdk),
    };
    let files = sdk_gen::generate_e2e(&manifest, &options).map_err(|err| err.to_string())?;
    let report = sdk_gen::write_e2e(&dir, &files, force)
        .map_err(|err| format!("{}: {err}", dir.display()))?;
    eprintln!(
        "sdk-gen: e2e tests in {}: {} written, {} replaced, {} kept, {} unchanged",
        dir.display(),
        report.written.len(),
        report.replaced.len(),
        report.kept.len(),
        report.current.len()
    );
    for (what, paths) in [
        ("written", &report.written),
        ("replaced", &report.replaced),
        (
            "kept (differs from what would be written; --force replaces it)",
            &report.kept,
        ),
        (
            "no route of the app any more (left alone: remove it)",
            &report.orphaned,
        ),
    ] {
        for path in paths {
            eprintln!("  {what}: {}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `sdk-gen diff`: prints the changes, appends the changelog entry, and
/// fails when a denied change exists.
fn diff(
    old: &str,
    new: &str,
    json: bool,
    deny: Option<Deny>,
    changelog: Option<&Path>,
) -> Result<ExitCode, String> {
    let old = sdk_gen::read_source(old)?;
    let new = sdk_gen::read_source(new)?;
    let changes = framework::manifest::diff(&old, &new);
    if json {
        let report = sdk_gen::json_report(&changes, &old.version);
        println!(
            "{}",
            serde_json::to_string_pretty(&report).map_err(|err| err.to_string())?
        );
    } else {
        print!("{}", sdk_gen::human_report(&changes));
    }
    let bump = Bump::of(&changes);
    eprintln!(
        "sdk-gen: next version {} ({} release from {})",
        bump.next(&old.version),
        bump.as_str(),
        old.version
    );
    if let Some(path) = changelog {
        use std::io::Write;
        let entry = sdk_gen::changelog_entry(&changes, &old.version);
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut file| writeln!(file, "{entry}"))
            .map_err(|err| format!("{}: {err}", path.display()))?;
    }
    let denied = match deny {
        None => false,
        Some(Deny::Breaking) => changes.worst() >= Some(Severity::Breaking),
        Some(Deny::Care) => changes.worst() >= Some(Severity::NeedsCare),
    };
    Ok(if denied {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The path from the folder `from` to `to`, both absolute: `../..`.
fn relative(from: &Path, to: &Path) -> PathBuf {
    let from = normalized(from);
    let to = normalized(to);
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut out: PathBuf = from[common..].iter().map(|_| "..").collect();
    out.extend(&to[common..]);
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// A path's components with `.` and `..` resolved, as text.
fn normalized(path: &Path) -> Vec<std::ffi::OsString> {
    let mut out = Vec::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str().to_owned()),
        }
    }
    out
}

/// The SDKs to generate: each one's folder and package, and the options
/// the generator takes.
struct Chosen {
    typescript: Option<(PathBuf, String)>,
    rust: Option<(PathBuf, String)>,
    targets: Targets,
}

/// The SDKs `args` and the workspace's configuration ask for; at least
/// one.
fn choose(args: &Args, config: &Config) -> Result<Chosen, String> {
    let typescript = target(
        args.no_typescript,
        &args.typescript_out,
        &args.typescript_package,
        config.typescript.as_ref(),
        &config.root,
        "typescript",
    )?;
    let rust = target(
        args.no_rust,
        &args.rust_out,
        &args.rust_package,
        config
            .rust
            .as_ref()
            .map(sdk_gen::RustTarget::target)
            .as_ref(),
        &config.root,
        "rust",
    )?;
    let chrono = args.rust_chrono || config.rust.as_ref().is_some_and(|rust| rust.chrono);
    if typescript.is_none() && rust.is_none() {
        return Err(
            "nothing to generate: configure [workspace.metadata.sdk-gen] or pass --typescript-out / --rust-out"
                .to_owned(),
        );
    }
    let targets = Targets {
        typescript: typescript.as_ref().map(|(_, package)| TypeScriptOptions {
            package: package.clone(),
        }),
        rust: rust.as_ref().map(|(_, package)| RustOptions {
            package: package.clone(),
            chrono,
        }),
    };
    Ok(Chosen {
        typescript,
        rust,
        targets,
    })
}

/// Compares `sdk` with what `dir` holds, printing each difference;
/// whether there is any.
fn check(dir: &Path, sdk: &sdk_gen::Sdk) -> Result<bool, String> {
    let drifts =
        sdk_gen::check(dir, &sdk.files).map_err(|err| format!("{}: {err}", dir.display()))?;
    for drift in &drifts {
        eprintln!("{}: {drift}", dir.display());
    }
    Ok(!drifts.is_empty())
}

/// The folder and package of one SDK, flags over configuration.
fn target(
    disabled: bool,
    out: &Option<PathBuf>,
    package: &Option<String>,
    configured: Option<&sdk_gen::Target>,
    root: &Path,
    what: &str,
) -> Result<Option<(PathBuf, String)>, String> {
    if disabled {
        return Ok(None);
    }
    let dir = out
        .clone()
        .or_else(|| configured.map(|target| root.join(&target.out)));
    let name = package
        .clone()
        .or_else(|| configured.map(|target| target.package.clone()));
    match (dir, name) {
        (Some(dir), Some(name)) => Ok(Some((dir, name))),
        (None, None) => Ok(None),
        (Some(_), None) => Err(format!("--{what}-out needs --{what}-package")),
        (None, Some(_)) => Err(format!("--{what}-package needs --{what}-out")),
    }
}

/// The manifest `--manifest` names, else what the manifest command prints
/// (of `version`, when given: the command plus `--version <version>`).
fn read_manifest(
    args: &Args,
    config: &Config,
    version: Option<&str>,
) -> Result<ApiManifest, String> {
    let json = match &args.manifest {
        Some(path) if path == Path::new("-") => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|err| format!("reading the manifest from stdin: {err}"))?;
            text
        }
        Some(path) => std::fs::read_to_string(path)
            .map_err(|err| format!("reading {}: {err}", path.display()))?,
        None => {
            let Some((program, rest)) = config.manifest_command.split_first() else {
                return Err(
                    "no manifest: pass --manifest FILE or set manifest-command in [workspace.metadata.sdk-gen]"
                        .to_owned(),
                );
            };
            let output = Command::new(program)
                .args(rest)
                .args(
                    version
                        .map(|version| ["--version", version])
                        .into_iter()
                        .flatten(),
                )
                .current_dir(&config.root)
                .output()
                .map_err(|err| format!("running {program}: {err}"))?;
            if !output.status.success() {
                return Err(format!(
                    "`{}` failed: {}",
                    config.manifest_command.join(" "),
                    String::from_utf8_lossy(&output.stderr).trim()
                ));
            }
            String::from_utf8(output.stdout).map_err(|err| err.to_string())?
        }
    };
    serde_json::from_str(&json).map_err(|err| format!("the manifest is not valid: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_to_the_common_folder() {
        let path = |text: &str| PathBuf::from(text);
        assert_eq!(
            relative(
                Path::new("/w/examples/bbs/sdk/typescript/e2e"),
                Path::new("/w/examples/bbs/sdk/typescript")
            ),
            path("..")
        );
        assert_eq!(
            relative(Path::new("/w/./a/b/../c"), Path::new("/w/d/e")),
            path("../../d/e")
        );
        assert_eq!(relative(Path::new("/w/a"), Path::new("/w/a")), path("."));
    }

    #[test]
    fn flags_without_a_step_still_generate_the_sdks() {
        let args = Args::try_parse_from(["sdk-gen", "--check", "--no-rust"]).unwrap();
        assert!(args.check && args.no_rust && args.command.is_none());
        let args =
            Args::try_parse_from(["sdk-gen", "e2e", "out", "--force", "--manifest", "m.json"])
                .unwrap();
        assert!(matches!(args.command, Some(Step::E2e { force: true, .. })));
        assert_eq!(args.manifest, Some(PathBuf::from("m.json")));
        let args = Args::try_parse_from([
            "sdk-gen",
            "diff",
            "git:origin/main:api/manifest.json",
            "new.json",
            "--deny",
            "breaking",
        ])
        .unwrap();
        assert!(matches!(
            args.command,
            Some(Step::Diff {
                deny: Some(Deny::Breaking),
                json: false,
                ..
            })
        ));
    }
}
