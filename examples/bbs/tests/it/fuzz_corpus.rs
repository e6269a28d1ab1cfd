//! Replays the fuzz targets' corpus and regressions (`fuzz/`) through the
//! same checks, on stable Rust: every input a fuzzer found interesting, and
//! every crash it ever found, stays covered.

use std::path::{Path, PathBuf};

use bbs::dto::{ArticleCreate, ArticleErase, ArticleIndexRequest, ArticleUpdate};
use framework::testing::{fuzz_json, fuzz_query};

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

#[test]
fn the_body_corpus_decodes_without_panics() {
    let inputs = inputs("body");
    assert!(inputs.len() >= 3, "the seeds are missing");
    for path in inputs {
        let data = std::fs::read(&path).unwrap();
        let Some((which, json)) = data.split_first() else {
            continue;
        };
        let checked = match which % 4 {
            0 => fuzz_json::<ArticleCreate>(json),
            1 => fuzz_json::<ArticleUpdate>(json),
            2 => fuzz_json::<ArticleErase>(json),
            _ => fuzz_json::<ArticleIndexRequest>(json),
        };
        if let Err(failure) = checked {
            panic!("{}: {failure}", path.display());
        }
    }
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
