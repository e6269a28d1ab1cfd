//! Instruction counts of parse + validate, per operation, under callgrind:
//! repeatable on a noisy machine where wall-clock micro-benchmarks are not.
//!
//! `cargo run --release -p bench --bin instructions` runs every variant under
//! `valgrind --tool=callgrind` and prints a table. Needs valgrind
//! (`apt-get install valgrind`).

use std::{
    hint::black_box,
    process::{Command, ExitCode},
};

use bench::{
    Boxes, Create, boxes_json, create_json, create_with_ten_errors_json, with_garde, with_validator,
};
use framework::Validate;

const VARIANTS: [&str; 6] = [
    "framework",
    "simd_json",
    "serde_json",
    "serde_json+generated",
    "validator",
    "garde",
];
const ITERATIONS: u64 = 2000;

fn run_once(payload: &str, variant: &str, json: &[u8]) -> bool {
    let boxes = payload == "box3d_x100";
    match (variant, boxes) {
        ("framework", true) => framework::from_json::<Boxes>(json).is_ok(),
        ("framework", false) => framework::from_json::<Create>(json).is_ok(),
        ("framework-invalid", _) => framework::from_json::<Create>(json).is_err(),
        ("simd_json", true) => simd_json::serde::from_slice::<Boxes>(&mut json.to_vec()).is_ok(),
        ("simd_json", false) => simd_json::serde::from_slice::<Create>(&mut json.to_vec()).is_ok(),
        ("serde_json", true) => serde_json::from_slice::<Boxes>(json).is_ok(),
        ("serde_json", false) => serde_json::from_slice::<Create>(json).is_ok(),
        ("serde_json+generated", true) => {
            serde_json::from_slice::<Boxes>(json).is_ok_and(|v| v.is_valid())
        }
        ("serde_json+generated", false) => {
            serde_json::from_slice::<Create>(json).is_ok_and(|v| v.is_valid())
        }
        ("validator", true) => {
            use validator::Validate as _;
            serde_json::from_slice::<with_validator::Boxes>(json)
                .is_ok_and(|v| v.validate().is_ok())
        }
        ("validator", false) => {
            use validator::Validate as _;
            serde_json::from_slice::<with_validator::Create>(json)
                .is_ok_and(|v| v.validate().is_ok())
        }
        ("garde", true) => {
            use garde::Validate as _;
            serde_json::from_slice::<with_garde::Boxes>(json).is_ok_and(|v| v.validate().is_ok())
        }
        ("garde", false) => {
            use garde::Validate as _;
            serde_json::from_slice::<with_garde::Create>(json).is_ok_and(|v| v.validate().is_ok())
        }
        _ => false,
    }
}

fn payload_json(payload: &str) -> Vec<u8> {
    match payload {
        "box3d_x100" => boxes_json(),
        "bbs_create_10_errors" => create_with_ten_errors_json(),
        _ => create_json(),
    }
}

/// Total instructions of `iterations` runs, from callgrind's summary.
///
/// # Errors
/// valgrind is missing, or the run failed: a variant that refuses the
/// valid payload (or accepts the invalid one) panics in `--run`, and its
/// count would measure a refusal, so it is an error, not a number.
fn count(payload: &str, variant: &str, iterations: u64) -> Result<u64, String> {
    let exe = std::env::current_exe().map_err(|err| err.to_string())?;
    let output = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(exe)
        .args(["--run", payload, variant, &iterations.to_string()])
        .output()
        .map_err(|err| {
            format!("valgrind did not run ({err}); install it with `apt-get install valgrind`")
        })?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        let tail: Vec<&str> = stderr.lines().rev().take(15).collect();
        return Err(format!(
            "{payload} {variant} failed ({}):\n{}",
            output.status,
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        ));
    }
    stderr
        .lines()
        .find_map(|line| line.split("Collected : ").nth(1))
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| format!("{payload} {variant}: no instruction count in callgrind's output"))
}

/// Instructions of one operation: the difference of two runs, which
/// cancels start-up and payload set-up.
fn per_op(payload: &str, variant: &str, iterations: u64) -> Result<u64, String> {
    let long = count(payload, variant, iterations)?;
    let short = count(payload, variant, iterations / 2)?;
    Ok(long.saturating_sub(short) / (iterations / 2))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, payload, variant, iterations] = args.as_slice()
        && flag == "--run"
    {
        let json = payload_json(payload);
        let iterations: u64 = iterations.parse().unwrap_or(0);
        let mut ok = 0;
        for _ in 0..iterations {
            ok += u64::from(run_once(payload, variant, black_box(&json)));
        }
        assert_eq!(ok, iterations, "{variant} refused or accepted wrongly");
        return ExitCode::SUCCESS;
    }
    match table() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("instructions: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Prints the table, stopping at the first variant that fails.
fn table() -> Result<(), String> {
    println!("| payload | variant | instructions per op | vs serde_json |");
    println!("|---|---|---:|---:|");
    for payload in ["box3d_x100", "bbs_create"] {
        let baseline = per_op(payload, "serde_json", ITERATIONS)?;
        for variant in VARIANTS {
            let n = per_op(payload, variant, ITERATIONS)?;
            #[allow(clippy::cast_precision_loss)]
            let ratio = n as f64 / baseline as f64;
            println!("| {payload} | {variant} | {n} | {ratio:.2}x |");
        }
    }
    let n = per_op("bbs_create_10_errors", "framework-invalid", 200)?;
    println!("| bbs_create_10_errors | framework: full list of 10 issues | {n} | |");
    Ok(())
}
