//! What the fuzz targets in `fuzz/` check, shared with the test that
//! replays their corpus on stable Rust (`tests/it/fuzz_corpus.rs`): an
//! input's first byte picks the DTO, the rest is the JSON body.

use framework::testing::{check_decoders, fuzz_json};

use crate::dto::{
    ArticleCreate, ArticleErase, ArticleFormat, ArticleIndexRequest, ArticleSearch,
    ArticleSnapshot, ArticleSort, ArticleSummary, ArticleUpdate, AttachmentFile, BbsArticle,
    Pagination,
};

/// The `body` target: a request body of the BBS routes decodes and
/// validates as a route does (no panic, an accepted body round-trips, a
/// refusal is a 400 that says why).
///
/// # Errors
/// The property that failed.
pub fn body(which: u8, json: &[u8]) -> Result<(), String> {
    match which % 4 {
        0 => fuzz_json::<ArticleCreate>(json),
        1 => fuzz_json::<ArticleUpdate>(json),
        2 => fuzz_json::<ArticleErase>(json),
        _ => fuzz_json::<ArticleIndexRequest>(json),
    }
}

/// The `decoders` target: the decoder `#[dto]` generated for a BBS DTO and
/// the reference decoder give the same value or both refuse.
///
/// # Errors
/// What differs.
pub fn decoders(which: u8, json: &[u8]) -> Result<(), String> {
    match which % 14 {
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
        12 => check_decoders::<crate::v1::ArticleCreate>(json),
        _ => check_decoders::<crate::v1::BbsArticle>(json),
    }
}
