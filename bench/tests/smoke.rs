//! The runner's quick mode end to end, as CI runs it: every Rust peer
//! answers every scenario it serves correctly (valid bodies accepted,
//! invalid ones refused), wrk loads each, and the report lists them all.
//! Debug builds and one-second runs: the numbers mean nothing here. The node
//! peers (`--with-node`) are not run in CI.

use std::process::Command;

#[test]
fn the_quick_run_checks_loads_and_reports_every_peer_and_scenario() {
    assert!(
        Command::new("wrk").arg("--version").output().is_ok(),
        "wrk is missing: `apt-get install wrk` (scripts/test installs it)"
    );
    let out = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_bench"))
        .args(["--quick", "--duration", "1", "--connections", "8"])
        .arg("--server-binary")
        .arg(env!("CARGO_BIN_EXE_bench-server"))
        .arg("--out")
        .arg(out.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let markdown = std::fs::read_to_string(out.path().join("quick.md")).unwrap();
    let rust = bench::peers::Peer::ALL
        .into_iter()
        .filter(|peer| peer.runtime() == bench::peers::Runtime::Rust);
    for peer in rust {
        for scenario in bench::scenario::Scenario::ALL {
            let row = format!("| {} | {} |", scenario.name(), peer.name());
            let expected = peer.serves(scenario.route_set());
            assert_eq!(
                markdown.contains(&row),
                expected,
                "row {row} in\n{markdown}"
            );
        }
    }
    assert!(
        !markdown.contains("| nestia |"),
        "node peers need --with-node"
    );
    assert!(markdown.contains("| plaintext pipelined x10 | framework |"));
    assert!(markdown.contains("| plaintext | framework+metrics |"));
    assert!(markdown.contains("with 1,000 keep-alive connections"));
    // Every run recorded the server's CPU time, so per-CPU-second figures exist.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("quick.json")).unwrap())
            .unwrap();
    for (scenario, peers) in json["runs"].as_object().unwrap() {
        for (peer, runs) in peers.as_object().unwrap() {
            let cpu = runs[0]["server_cpu_seconds"].as_f64().unwrap();
            assert!(cpu > 0.0, "{peer} {scenario}: no server CPU time");
            // Latencies come from wrk's histogram, corrected per call: a
            // pipelined batch's p99 is never 0 or below its median.
            let (p50, p99) = (runs[0]["p50_us"].as_f64(), runs[0]["p99_us"].as_f64());
            assert!(
                p50.is_some_and(|p50| p50 > 0.0) && p99 >= p50,
                "{peer} {scenario}: p50 {p50:?}, p99 {p99:?}"
            );
        }
    }
    let svg = std::fs::read_to_string(out.path().join("quick.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("routes-many-static"));
}

#[test]
fn a_wrong_answer_fails_the_run_before_timing() {
    // Each scenario's check refuses what another scenario answers.
    use bench::scenario::Scenario;
    assert!(
        Scenario::Plaintext
            .check(100, 200, b"Hello, World!")
            .is_ok()
    );
    // Plaintext is text for every peer, not a JSON string.
    assert!(
        Scenario::Plaintext
            .check(100, 200, b"\"Hello, World!\"")
            .is_err()
    );
    assert!(Scenario::Plaintext.check(100, 200, b"Hello").is_err());
    assert!(
        Scenario::Assert.check(100, 200, b"").is_err(),
        "assert answers 204"
    );
    // The constrained echo is not the unconstrained one.
    assert!(
        Scenario::Performance
            .check(100, 200, &bench::boxes_json())
            .is_err()
    );
    assert!(
        Scenario::Performance
            .check(100, 200, &bench::scene_json())
            .is_ok()
    );
    assert!(
        Scenario::Stringify
            .check(100, 200, br#"{"data":[]}"#)
            .is_err()
    );
    assert!(Scenario::ManyStatic.check(100, 200, b"99").is_err());
    assert!(
        Scenario::Stringify
            .check(100, 200, &bench::boxes_json())
            .is_ok()
    );
}
