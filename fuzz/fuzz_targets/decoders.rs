//! The generated decoders against the reference decoder (issue 25): the
//! same bytes, given to `#[dto]`'s one-pass decoder and to simd-json under
//! serde, give the same value or are both refused. The first byte picks
//! the BBS DTO (`bbs::fuzzing::decoders`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((which, json)) = data.split_first() else {
        return;
    };
    if let Err(failure) = bbs::fuzzing::decoders(*which, json) {
        panic!("{failure}");
    }
});
