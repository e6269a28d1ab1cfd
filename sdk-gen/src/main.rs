//! `cargo run -p sdk-gen`: regenerates the SDKs that the workspace's
//! `[workspace.metadata.sdk-gen]` configures, from the manifest its app
//! prints. `--check` only compares.

use std::{
    io::Read,
    path::{Path, PathBuf},
    process::{Command, ExitCode},
};

use clap::Parser;
use framework::manifest::ApiManifest;
use sdk_gen::{Config, RustOptions, Targets, TypeScriptOptions};

/// Generates the TypeScript and Rust client SDKs of an app from its API
/// manifest. Without flags, does what `[workspace.metadata.sdk-gen]` says.
#[derive(Debug, Parser)]
#[command(name = "sdk-gen", version)]
struct Args {
    /// Read the manifest from this file (`-` for stdin) instead of running
    /// the configured `manifest-command`. An app prints it with `manifest`.
    #[arg(long, value_name = "FILE")]
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

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
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
    let manifest = read_manifest(args, &config)?;

    let Chosen {
        typescript,
        rust,
        targets,
    } = choose(args, &config)?;
    let sdks = sdk_gen::generate(&manifest, &targets).map_err(|err| err.to_string())?;
    let mut drifted = false;
    for sdk in &sdks {
        let dir = match sdk.dir_name {
            "typescript" => typescript.as_ref().map(|(dir, _)| dir),
            _ => rust.as_ref().map(|(dir, _)| dir),
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
    if drifted {
        eprintln!("sdk-gen: the SDKs are out of date; run `cargo run -p sdk-gen` and commit them");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
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

fn read_manifest(args: &Args, config: &Config) -> Result<ApiManifest, String> {
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
