//! Request bodies of the BBS routes: decode + validate never panics, what is
//! accepted round-trips, what is refused is a 400 that says why. The first
//! byte picks the DTO.
#![no_main]

use bbs::dto::{ArticleCreate, ArticleErase, ArticleIndexRequest, ArticleUpdate};
use framework::testing::fuzz_json;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((which, json)) = data.split_first() else {
        return;
    };
    let checked = match which % 4 {
        0 => fuzz_json::<ArticleCreate>(json),
        1 => fuzz_json::<ArticleUpdate>(json),
        2 => fuzz_json::<ArticleErase>(json),
        _ => fuzz_json::<ArticleIndexRequest>(json),
    };
    if let Err(failure) = checked {
        panic!("{failure}");
    }
});
