//! Query strings, decoded as the BBS listing's filters (nested objects and
//! arrays): never panics, a refusal is a 400 that says why.
#![no_main]

use bbs::dto::ArticleIndexRequest;
use framework::testing::fuzz_query;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let query = String::from_utf8_lossy(data);
    if let Err(failure) = fuzz_query::<ArticleIndexRequest>(&query) {
        panic!("{failure}");
    }
});
