//! Request bodies of the BBS routes: decode + validate never panics, what is
//! accepted round-trips, what is refused is a 400 that says why. The first
//! byte picks the DTO (`bbs::fuzzing::body`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((which, json)) = data.split_first() else {
        return;
    };
    if let Err(failure) = bbs::fuzzing::body(*which, json) {
        panic!("{failure}");
    }
});
