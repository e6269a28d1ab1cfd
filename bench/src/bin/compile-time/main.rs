//! `cargo run -p bench --bin compile-time`: what users feel every edit.
//! Builds the same N-route app written with the framework and with axum,
//! each in its own workspace under a temporary directory (as a user's app
//! is: no `[patch]`, no profiles from this workspace), and measures, in this
//! order (each figure is printed and the markdown rewritten as soon as it is
//! known, so an interrupted run keeps what it measured):
//!
//! 1. per app, in the dev profile: a clean build of the dependencies with a
//!    10-route app, the build of the app crate grown to N routes, an
//!    incremental rebuild after changing one handler's body (the median of
//!    three edits), and the lines of macro-expanded code per route
//!    (`-Zunpretty=expanded`, what `cargo expand` prints), marginal between
//!    N and 10 routes;
//! 2. per app, in the release profile: the same clean build of the
//!    dependencies and the build of the app crate with N routes;
//! 3. a clean release build of the BBS example.
//!
//! Wall time and CPU time (user + system of every process the build ran)
//! are reported: CPU time is steadier when the machine is busy.

mod apps;

use std::{
    path::{Path, PathBuf},
    process::{Command, ExitCode},
    time::{Duration, Instant},
};

use apps::Kind;
use clap::Parser;

/// Measures build times of the framework against axum.
#[derive(Debug, Parser)]
#[command(name = "compile-time")]
struct Args {
    /// Routes in each app.
    #[arg(long, default_value_t = 1000)]
    routes: usize,
    /// Skip the release builds of both apps.
    #[arg(long)]
    no_release: bool,
    /// Skip the clean release build of the BBS example.
    #[arg(long)]
    no_bbs: bool,
    /// Where the markdown goes.
    #[arg(long, default_value = "bench/results/compile-time.md")]
    out: PathBuf,
    /// Build the framework app with `default-features = false` and these
    /// features (comma-separated, e.g. `server`) instead of the defaults.
    #[arg(long, value_name = "FEATURES")]
    framework_features: Option<String>,
}

/// One build's cost.
#[derive(Clone, Copy, Debug)]
struct Cost {
    wall: Duration,
    cpu: Duration,
}

/// One figure of one app.
#[derive(Clone, Copy, Debug)]
enum Figure {
    Build(Cost),
    LinesPerRoute(f64),
}

/// The figures measured so far, in the order they were.
#[derive(Debug, Default)]
struct Table {
    routes: usize,
    /// The framework's features, when not its defaults.
    features: Option<String>,
    rows: Vec<(String, [Option<Figure>; 2])>,
    bbs: Option<Cost>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(table) => {
            println!("{table}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("compile-time: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<String, String> {
    let workspace = workspace_dir()?;
    let scratch = std::env::temp_dir().join(format!("compile-time-{}", std::process::id()));
    let mut table = Table {
        routes: args.routes,
        ..Table::default()
    };
    let kinds = [Kind::Framework, Kind::Axum];
    let features = args.framework_features.as_deref();
    for kind in kinds {
        write_app(&scratch.join(kind.name()), kind, args, &workspace)?;
    }
    table.features = features.map(str::to_owned);
    for kind in kinds {
        dev_builds(&scratch.join(kind.name()), kind, args, &mut table)?;
    }
    if !args.no_release {
        for kind in kinds {
            release_builds(&scratch.join(kind.name()), kind, args, &mut table)?;
        }
    }
    if !args.no_bbs {
        eprintln!("compile-time: clean release build of the BBS example");
        let target = scratch.join("bbs-target");
        table.bbs = Some(timed(cargo(&workspace, &target).args([
            "build",
            "--release",
            "-p",
            "bbs",
        ]))?);
        save(args, &table)?;
    }
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(table.markdown())
}

/// Dev-profile figures of one app: clean build, N routes, incremental
/// rebuild, expanded lines.
fn dev_builds(dir: &Path, kind: Kind, args: &Args, table: &mut Table) -> Result<(), String> {
    let target = dir.join("target");
    let routes = args.routes;
    let source = apps::main_rs(kind, routes);
    touch(&dir.join("src/main.rs"), &apps::main_rs(kind, 10))?;
    let clean = timed(cargo(dir, &target).arg("build"))?;
    table.record(
        args,
        kind,
        "clean debug build: dependencies and a 10-route app",
        Figure::Build(clean),
    )?;
    touch(&dir.join("src/main.rs"), &source)?;
    let grown = timed(cargo(dir, &target).arg("build"))?;
    table.record(
        args,
        kind,
        &format!("debug build of the app crate grown to {routes} routes"),
        Figure::Build(grown),
    )?;
    let mut edits = Vec::new();
    for edit in 0..3 {
        let edited = apps::edit_first_handler(&source, edit).ok_or("no handler to edit")?;
        touch(&dir.join("src/main.rs"), &edited)?;
        edits.push(timed(cargo(dir, &target).arg("build"))?);
    }
    edits.sort_by_key(|cost| cost.wall);
    table.record(
        args,
        kind,
        "incremental debug rebuild after editing one handler's body (median of 3)",
        Figure::Build(edits[1]),
    )?;
    let lines = |routes: usize| -> Result<usize, String> {
        touch(&dir.join("src/main.rs"), &apps::main_rs(kind, routes))?;
        expanded_lines(dir, &target)
    };
    let many = lines(routes)?;
    let few = lines(10)?;
    let per_route = (many as f64 - few as f64) / (routes as f64 - 10.0).max(1.0);
    table.record(
        args,
        kind,
        "expanded lines per route (`cargo expand`)",
        Figure::LinesPerRoute(per_route),
    )
}

/// Release-profile figures of one app: clean build with 10 routes, then N.
fn release_builds(dir: &Path, kind: Kind, args: &Args, table: &mut Table) -> Result<(), String> {
    let target = dir.join("target");
    touch(&dir.join("src/main.rs"), &apps::main_rs(kind, 10))?;
    let clean = timed(cargo(dir, &target).args(["build", "--release"]))?;
    table.record(
        args,
        kind,
        "clean release build: dependencies and a 10-route app",
        Figure::Build(clean),
    )?;
    touch(&dir.join("src/main.rs"), &apps::main_rs(kind, args.routes))?;
    let grown = timed(cargo(dir, &target).args(["build", "--release"]))?;
    table.record(
        args,
        kind,
        &format!(
            "release build of the app crate grown to {} routes",
            args.routes
        ),
        Figure::Build(grown),
    )
}

impl Table {
    /// Adds a figure, says it, and rewrites the markdown.
    fn record(
        &mut self,
        args: &Args,
        kind: Kind,
        what: &str,
        figure: Figure,
    ) -> Result<(), String> {
        eprintln!(
            "compile-time: {} app: {what}: {}",
            kind.name(),
            figure_text(Some(figure))
        );
        let column = usize::from(kind == Kind::Axum);
        match self.rows.iter_mut().find(|(name, _)| name == what) {
            Some((_, figures)) => figures[column] = Some(figure),
            None => {
                let mut figures = [None, None];
                figures[column] = Some(figure);
                self.rows.push((what.to_owned(), figures));
            }
        }
        save(args, self)
    }

    fn markdown(&self) -> String {
        let routes = self.routes;
        let (flag, build) = match &self.features {
            Some(features) => (
                format!(" --framework-features {features}"),
                format!("`default-features = false, features = [{features}]`"),
            ),
            None => (String::new(), "its default features".to_owned()),
        };
        let mut out = format!(
            "Measured with `cargo run -p bench --bin compile-time -- --routes {routes}{flag}`, the framework with {build}: the same {routes} routes (`PUT /itemsK/rN/:id`, a validated JSON body answered back) with the framework (controllers of 10, `#[dto]`; with the `openapi` feature, a default, it also builds the OpenAPI document, which the axum app has not) and with axum 0.8 (`Router::route`, serde + validator), each in its own workspace with its own target directory. Wall time, then CPU time (user + system of every process the build ran); the ratio of wall times, then of CPU times.\n\n| | framework | axum | framework / axum |\n|---|---:|---:|---:|\n"
        );
        for (what, [mine, theirs]) in &self.rows {
            let ratio = match (mine, theirs) {
                (Some(Figure::Build(a)), Some(Figure::Build(b))) => format!(
                    "{:.2}x ({:.2}x)",
                    a.wall.as_secs_f64() / b.wall.as_secs_f64(),
                    a.cpu.as_secs_f64() / b.cpu.as_secs_f64()
                ),
                (Some(Figure::LinesPerRoute(a)), Some(Figure::LinesPerRoute(b))) => {
                    format!("{:.2}x", a / b)
                }
                _ => "-".to_owned(),
            };
            out.push_str(&format!(
                "| {what} | {} | {} | {ratio} |\n",
                figure_text(*mine),
                figure_text(*theirs)
            ));
        }
        if let Some(bbs) = self.bbs {
            out.push_str(&format!(
                "\nClean release build of the BBS example (`cargo build --release -p bbs`, fresh target directory): {}.\n",
                figure_text(Some(Figure::Build(bbs)))
            ));
        }
        out
    }
}

fn figure_text(figure: Option<Figure>) -> String {
    match figure {
        None => "-".to_owned(),
        Some(Figure::Build(cost)) => format!(
            "{:.1} s ({:.1} s CPU)",
            cost.wall.as_secs_f64(),
            cost.cpu.as_secs_f64()
        ),
        Some(Figure::LinesPerRoute(lines)) => format!("{lines:.0}"),
    }
}

/// Writes the markdown measured so far.
fn save(args: &Args, table: &Table) -> Result<(), String> {
    if let Some(parent) = args.out.parent() {
        std::fs::create_dir_all(parent).map_err(|err| err.to_string())?;
    }
    std::fs::write(&args.out, table.markdown())
        .map_err(|err| format!("{}: {err}", args.out.display()))
}

fn write_app(dir: &Path, kind: Kind, args: &Args, workspace: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir.join("src")).map_err(|err| err.to_string())?;
    let write = |path: PathBuf, contents: String| {
        std::fs::write(&path, contents).map_err(|err| format!("{}: {err}", path.display()))
    };
    write(
        dir.join("Cargo.toml"),
        apps::manifest(
            kind,
            &workspace.join("framework"),
            args.framework_features.as_deref(),
        ),
    )?;
    write(dir.join("src/main.rs"), apps::main_rs(kind, args.routes))?;
    // The workspace's lock pins the same versions the bench peers use.
    std::fs::copy(workspace.join("Cargo.lock"), dir.join("Cargo.lock"))
        .map_err(|err| format!("copying Cargo.lock: {err}"))?;
    Ok(())
}

/// Rewrites a source file (a new modification time even if unchanged).
fn touch(path: &Path, contents: &str) -> Result<(), String> {
    std::fs::write(path, contents).map_err(|err| format!("{}: {err}", path.display()))
}

fn cargo(dir: &Path, target: &Path) -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .arg("--quiet");
    command
}

/// Runs a build and measures its wall time and the CPU time of every
/// process it waited for (this process's children's times from
/// `/proc/self/stat`).
fn timed(command: &mut Command) -> Result<Cost, String> {
    let cpu_before = children_cpu()?;
    let started = Instant::now();
    let status = command.status().map_err(|err| format!("cargo: {err}"))?;
    let wall = started.elapsed();
    if !status.success() {
        return Err(format!("{command:?} failed"));
    }
    Ok(Cost {
        wall,
        cpu: children_cpu()?.saturating_sub(cpu_before),
    })
}

/// cutime + cstime of this process (fields 16 and 17 of `/proc/self/stat`).
fn children_cpu() -> Result<Duration, String> {
    let stat = std::fs::read_to_string("/proc/self/stat").map_err(|err| err.to_string())?;
    let ticks: Option<u64> = stat.rsplit_once(')').and_then(|(_, rest)| {
        let mut fields = rest.split_whitespace().skip(13);
        Some(fields.next()?.parse::<u64>().ok()? + fields.next()?.parse::<u64>().ok()?)
    });
    let ticks = ticks.ok_or("unreadable /proc/self/stat")?;
    let output = Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .map_err(|e| e.to_string())?;
    let per_second: u64 = String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .map_err(|_| "getconf CLK_TCK gave no number")?;
    Ok(Duration::from_millis(ticks * 1000 / per_second))
}

/// Lines of the macro-expanded crate (what `cargo expand` prints).
fn expanded_lines(dir: &Path, target: &Path) -> Result<usize, String> {
    let output = cargo(dir, target)
        .env("RUSTC_BOOTSTRAP", "1")
        // The dev profile: its dependencies are built already.
        .args(["rustc", "--", "-Zunpretty=expanded"])
        .output()
        .map_err(|err| format!("cargo rustc: {err}"))?;
    if !output.status.success() {
        return Err(format!(
            "expanding failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).lines().count())
}

fn workspace_dir() -> Result<PathBuf, String> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .ok_or_else(|| "no workspace directory".to_owned())
}
