//! `cargo run -p bench --bin compile-time`: what users feel every
//! edit. Builds the same N-route app written with the framework and with
//! axum, each in its own workspace under a temporary directory (as a user's
//! app is: no `[patch]`, no profiles from this workspace), and measures:
//!
//! - a clean release build (dependencies included), and the app crate alone;
//! - an incremental debug rebuild after changing one handler's body (the
//!   median of three edits);
//! - the lines of macro-expanded code per route (`-Zunpretty=expanded`, as
//!   `cargo expand` prints it), marginal between N and 10 routes;
//! - a clean release build of the BBS example.
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
    /// Skip the clean builds (dependencies included) of both apps and BBS.
    #[arg(long)]
    no_clean: bool,
    /// Where the markdown goes.
    #[arg(long, default_value = "bench/results/compile-time.md")]
    out: PathBuf,
}

/// One build's cost.
#[derive(Clone, Copy, Debug)]
struct Cost {
    wall: Duration,
    cpu: Duration,
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
    let mut rows = Vec::new();
    for kind in [Kind::Framework, Kind::Axum] {
        let dir = scratch.join(kind.name());
        write_app(&dir, kind, args.routes, &workspace)?;
        rows.push((kind, measure_app(&dir, kind, args)?));
    }
    let bbs = if args.no_clean {
        None
    } else {
        let target = scratch.join("bbs-target");
        Some(timed(cargo(&workspace, &target).args([
            "build",
            "--release",
            "-p",
            "bbs",
        ]))?)
    };
    let _ = std::fs::remove_dir_all(&scratch);
    let table = markdown(args.routes, &rows, bbs);
    if let Some(parent) = args.out.parent() {
        std::fs::create_dir_all(parent).map_err(|err| err.to_string())?;
    }
    std::fs::write(&args.out, &table).map_err(|err| format!("{}: {err}", args.out.display()))?;
    Ok(table)
}

/// What was measured for one app.
struct AppCosts {
    clean_release: Option<Cost>,
    app_release: Cost,
    incremental_debug: Cost,
    lines_per_route: f64,
}

fn measure_app(dir: &Path, kind: Kind, args: &Args) -> Result<AppCosts, String> {
    let target = dir.join("target");
    eprintln!("compile-time: {} app, {} routes", kind.name(), args.routes);
    let clean_release = if args.no_clean {
        cargo(dir, &target)
            .args(["build", "--release"])
            .status()
            .map_err(|e| e.to_string())?;
        None
    } else {
        Some(timed(cargo(dir, &target).args(["build", "--release"]))?)
    };
    touch(&dir.join("src/main.rs"), &apps::main_rs(kind, args.routes))?;
    let app_release = timed(cargo(dir, &target).args(["build", "--release"]))?;
    timed(cargo(dir, &target).arg("build"))?;
    let source = apps::main_rs(kind, args.routes);
    let mut edits = Vec::new();
    for edit in 0..3 {
        let edited = apps::edit_first_handler(&source, edit).ok_or("no handler to edit")?;
        touch(&dir.join("src/main.rs"), &edited)?;
        edits.push(timed(cargo(dir, &target).arg("build"))?);
    }
    edits.sort_by_key(|cost| cost.wall);
    let lines = |routes: usize| -> Result<usize, String> {
        touch(&dir.join("src/main.rs"), &apps::main_rs(kind, routes))?;
        expanded_lines(dir, &target)
    };
    let few = lines(10)?;
    let many = lines(args.routes)?;
    Ok(AppCosts {
        clean_release,
        app_release,
        incremental_debug: edits[1],
        lines_per_route: (many as f64 - few as f64) / (args.routes as f64 - 10.0).max(1.0),
    })
}

fn write_app(dir: &Path, kind: Kind, routes: usize, workspace: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir.join("src")).map_err(|err| err.to_string())?;
    let write = |path: PathBuf, contents: String| {
        std::fs::write(&path, contents).map_err(|err| format!("{}: {err}", path.display()))
    };
    write(
        dir.join("Cargo.toml"),
        apps::manifest(kind, &workspace.join("framework")),
    )?;
    write(dir.join("src/main.rs"), apps::main_rs(kind, routes))?;
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

fn markdown(routes: usize, rows: &[(Kind, AppCosts)], bbs: Option<Cost>) -> String {
    let cost = |cost: Option<Cost>| {
        cost.map_or_else(
            || "-".to_owned(),
            |cost| {
                format!(
                    "{:.1} s ({:.1} s CPU)",
                    cost.wall.as_secs_f64(),
                    cost.cpu.as_secs_f64()
                )
            },
        )
    };
    let mut out = format!(
        "Measured with `cargo run --release -p bench --bin compile-time -- --routes {routes}`: the same {routes} routes (`PUT /itemsK/rN/:id`, a validated JSON body answered back) with the framework (controllers of 10, `#[dto]`) and with axum 0.8 (`Router::route`, serde + validator; no OpenAPI, which the framework app also gets), each in its own workspace.\n\n| | framework | axum | framework / axum |\n|---|---:|---:|---:|\n"
    );
    let (Some((_, mine)), Some((_, theirs))) = (
        rows.iter().find(|(kind, _)| *kind == Kind::Framework),
        rows.iter().find(|(kind, _)| *kind == Kind::Axum),
    ) else {
        return out;
    };
    let ratio = |a: Option<Cost>, b: Option<Cost>| match (a, b) {
        (Some(a), Some(b)) => format!("{:.2}x", a.wall.as_secs_f64() / b.wall.as_secs_f64()),
        _ => "-".to_owned(),
    };
    let mut row = |name: &str, a: Option<Cost>, b: Option<Cost>| {
        out.push_str(&format!(
            "| {name} | {} | {} | {} |\n",
            cost(a),
            cost(b),
            ratio(a, b)
        ));
    };
    row(
        "clean release build, dependencies included",
        mine.clean_release,
        theirs.clean_release,
    );
    row(
        &format!("release build of the app crate ({routes} routes)"),
        Some(mine.app_release),
        Some(theirs.app_release),
    );
    row(
        "incremental debug rebuild after editing one handler",
        Some(mine.incremental_debug),
        Some(theirs.incremental_debug),
    );
    out.push_str(&format!(
        "| expanded lines per route (`cargo expand`) | {:.0} | {:.0} | {:.2}x |\n",
        mine.lines_per_route,
        theirs.lines_per_route,
        mine.lines_per_route / theirs.lines_per_route
    ));
    if bbs.is_some() {
        out.push_str(&format!("\nClean release build of the BBS example (`cargo build --release -p bbs`, fresh target directory): {}.\n", cost(bbs)));
    }
    out
}
