//! Replays the fuzz targets' corpus and regressions (`fuzz/`) through the
//! same checks, on stable Rust: every input a fuzzer found interesting, and
//! every crash it ever found, stays covered.

use std::path::{Path, PathBuf};

use bbs::dto::ArticleIndexRequest;
use framework::testing::fuzz_query;

fn inputs(target: &str) -> Vec<PathBuf> {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut found = Vec::new();
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(fuzz.join(dir).join(target)) else {
            continue;
        };
        found.extend(entries.map(|entry| entry.unwrap().path()));
    }
    found.sort();
    found
}

/// Replays the inputs of `target` (and, with them, `also`'s) through
/// `check`, the target's own property.
fn replay(target: &str, also: &[&str], check: fn(u8, &[u8]) -> Result<(), String>) {
    let mut inputs = inputs(target);
    assert!(inputs.len() >= 3, "the seeds of {target} are missing");
    for other in also {
        inputs.extend(self::inputs(other));
    }
    for path in inputs {
        let data = std::fs::read(&path).unwrap();
        let Some((which, json)) = data.split_first() else {
            continue;
        };
        if let Err(failure) = check(*which, json) {
            panic!("{}: {failure}", path.display());
        }
    }
}

#[test]
fn the_body_corpus_decodes_without_panics() {
    replay("body", &[], bbs::fuzzing::body);
}

/// The `decoders` target's inputs, and the body target's: they are JSON
/// bodies whatever their first byte picks.
#[test]
fn the_decoders_corpus_decodes_the_same_both_ways() {
    assert!(inputs("decoders").len() >= 14, "a seed per DTO");
    replay("decoders", &["body"], bbs::fuzzing::decoders);
}

#[test]
fn the_query_corpus_decodes_without_panics() {
    let inputs = inputs("query");
    assert!(inputs.len() >= 2, "the seeds are missing");
    for path in inputs {
        let data = std::fs::read(&path).unwrap();
        let query = String::from_utf8_lossy(&data);
        if let Err(failure) = fuzz_query::<ArticleIndexRequest>(&query) {
            panic!("{}: {failure}", path.display());
        }
    }
}
