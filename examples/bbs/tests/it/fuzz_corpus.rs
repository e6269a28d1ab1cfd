//! Replays the fuzz targets' corpus and regressions (`fuzz/`) through the
//! same checks, on stable Rust: every input a fuzzer found interesting, and
//! every crash it ever found, stays covered.

use std::path::{Path, PathBuf};

use bbs::dto::{
    ArticleCreate, ArticleErase, ArticleFormat, ArticleIndexRequest, ArticleSearch,
    ArticleSnapshot, ArticleSort, ArticleSummary, ArticleUpdate, AttachmentFile, BbsArticle,
    Pagination,
};
use framework::testing::{check_decoders, fuzz_json, fuzz_query};

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

/// The `decoders` target's inputs: the first byte picks the DTO, as in
/// `fuzz/fuzz_targets/decoders.rs`. The body target's inputs are replayed
/// here too: they are JSON bodies whatever their first byte picks.
#[test]
fn the_decoders_corpus_decodes_the_same_both_ways() {
    let mut inputs = inputs("decoders");
    assert!(inputs.len() >= 14, "the seeds are missing");
    inputs.extend(self::inputs("body"));
    for path in inputs {
        let data = std::fs::read(&path).unwrap();
        let Some((which, json)) = data.split_first() else {
            continue;
        };
        let checked = match which % 14 {
            0 => check_decoders::<ArticleCreate>(json),
            1 => check_decoders::<ArticleUpdate>(json),
            2 => check_decoders::<ArticleErase>(json),
            3 => check_decoders::<ArticleIndexRequest>(json),
            4 => check_decoders::<ArticleSearch>(json),
            5 => check_decoders::<ArticleSort>(json),
            6 => check_decoders::<ArticleFormat>(json),
            7 => check_decoders::<AttachmentFile>(json),
            8 => check_decoders::<ArticleSnapshot>(json),
            9 => check_decoders::<ArticleSummary>(json),
            10 => check_decoders::<BbsArticle>(json),
            11 => check_decoders::<Pagination>(json),
            12 => check_decoders::<bbs::v1::ArticleCreate>(json),
            _ => check_decoders::<bbs::v1::BbsArticle>(json),
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
