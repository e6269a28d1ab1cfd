//! The generated decoders against the reference decoder (issue 25): the
//! same bytes, given to `#[dto]`'s one-pass decoder and to simd-json under
//! serde, give the same value or are both refused. The first byte picks
//! the BBS DTO; `examples/bbs/tests/it/fuzz_corpus.rs` replays the corpus
//! with the same choice.
#![no_main]

use bbs::dto::{
    ArticleCreate, ArticleErase, ArticleFormat, ArticleIndexRequest, ArticleSearch,
    ArticleSnapshot, ArticleSort, ArticleSummary, ArticleUpdate, AttachmentFile, BbsArticle,
    Pagination,
};
use framework::testing::check_decoders;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((which, json)) = data.split_first() else {
        return;
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
        panic!("{failure}");
    }
});
