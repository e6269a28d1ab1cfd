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
    Boxes, Create, Scene, boxes_json, create_json, create_with_ten_errors_json, scene_json,
    with_garde, with_validator,
};
use framework::Dto;
use serde::de::DeserializeOwned;

/// The payloads of the table: nestia's unconstrained boxes, the BBS
/// `ICreate`, and the constrained `Scene` of the `assert` route.
const PAYLOADS: [&str; 3] = ["box3d_x100", "bbs_create", "scene"];

const VARIANTS: [&str; 9] = [
    "framework",
    "simd_json+generated",
    "simd_json",
    "serde_json",
    "serde_json+generated",
    "sonic_rs",
    "sonic_rs+generated",
    "validator",
    "garde",
];
const ITERATIONS: u64 = 2000;

/// Whether `variant` parses (and checks) `json` as a `T`; `None` for a
/// variant that is not the framework's or a bare parser's.
fn parse<T: Dto>(variant: &str, json: &[u8]) -> Option<bool> {
    Some(match variant {
        "framework" => framework::from_json::<T>(json).is_ok(),
        "framework-invalid" => framework::from_json::<T>(json).is_err(),
        "simd_json" => simd_json::serde::from_slice::<T>(&mut json.to_vec()).is_ok(),
        "simd_json+generated" => {
            simd_json::serde::from_slice::<T>(&mut json.to_vec()).is_ok_and(|v| v.is_valid())
        }
        "serde_json" => serde_json::from_slice::<T>(json).is_ok(),
        "serde_json+generated" => serde_json::from_slice::<T>(json).is_ok_and(|v| v.is_valid()),
        "sonic_rs" => sonic_rs::from_slice::<T>(json).is_ok(),
        "sonic_rs+generated" => sonic_rs::from_slice::<T>(json).is_ok_and(|v| v.is_valid()),
        _ => return None,
    })
}

/// serde_json, then validator's checks.
fn validator_checks<V: validator::Validate + DeserializeOwned>(json: &[u8]) -> Option<bool> {
    Some(serde_json::from_slice::<V>(json).is_ok_and(|v| v.validate().is_ok()))
}

/// serde_json, then garde's checks.
fn garde_checks<G: garde::Validate<Context = ()> + DeserializeOwned>(json: &[u8]) -> Option<bool> {
    Some(serde_json::from_slice::<G>(json).is_ok_and(|v| v.validate().is_ok()))
}

/// One parse of `payload` by `variant`: `None` when the variant has no
/// declaration of the payload (garde's `Scene`).
fn run_once(payload: &str, variant: &str, json: &[u8]) -> Option<bool> {
    match (payload, variant) {
        ("box3d_x100", "validator") => validator_checks::<with_validator::Boxes>(json),
        ("box3d_x100", "garde") => garde_checks::<with_garde::Boxes>(json),
        ("box3d_x100", _) => parse::<Boxes>(variant, json),
        ("scene", "validator") => validator_checks::<with_validator::Scene>(json),
        ("scene", "garde") => None,
        ("scene", _) => parse::<Scene>(variant, json),
        (_, "validator") => validator_checks::<with_validator::Create>(json),
        (_, "garde") => garde_checks::<with_garde::Create>(json),
        _ => parse::<Create>(variant, json),
    }
}

fn payload_json(payload: &str) -> Vec<u8> {
    match payload {
        "box3d_x100" => boxes_json(),
        "bbs_create_10_errors" => create_with_ten_errors_json(),
        "scene" => scene_json(),
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
        if run_once(payload, variant, &json).is_none() {
            eprintln!("instructions: no {variant} variant of {payload}");
            return ExitCode::FAILURE;
        }
        let mut ok = 0;
        for _ in 0..iterations {
            ok += u64::from(run_once(payload, variant, black_box(&json)) == Some(true));
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
    for payload in PAYLOADS {
        let baseline = per_op(payload, "serde_json", ITERATIONS)?;
        let json = payload_json(payload);
        for variant in VARIANTS {
            if run_once(payload, variant, &json).is_none() {
                continue;
            }
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
