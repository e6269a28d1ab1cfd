//! What the fuzz targets check, shared with the tests that replay their
//! corpus: decoding arbitrary bytes never panics, and what is accepted
//! survives a round trip.

use std::fmt::Debug;

use crate::{Dto, error::ApiError};

/// Decodes `data` as a JSON body of `T` the way a route does; where `T`
/// has a generated decoder, it must agree with the reference decoder
/// ([`check_decoders`](crate::testing::check_decoders)). An accepted
/// value must serialize and decode again to an equal value; a refused one
/// must be a `400` listing at least one issue.
///
/// ```
/// framework::testing::fuzz_json::<Vec<u8>>(b"[1, 2, 3]").unwrap();
/// framework::testing::fuzz_json::<Vec<u8>>(b"[1, 2, 300]").unwrap();
/// framework::testing::fuzz_json::<Vec<u8>>(&[0xff, b'[']).unwrap();
/// ```
///
/// # Errors
/// The property that failed.
pub fn fuzz_json<T: Dto + Debug + PartialEq>(data: &[u8]) -> Result<(), String> {
    super::read::check_if_generated::<T>(data)?;
    match crate::from_json::<T>(data) {
        Ok(value) => {
            let json = serde_json::to_vec(&value).map_err(|err| err.to_string())?;
            let again = crate::from_json::<T>(&json)
                .map_err(|err| format!("accepted {value:?} but not its own JSON: {err:?}"))?;
            if again == value {
                Ok(())
            } else {
                Err(format!("{value:?} came back as {again:?}"))
            }
        }
        Err(err) => refused(&err),
    }
}

/// Decodes `query` as a query string of `T` the way a route does; the same
/// properties as [`fuzz_json`] for what is refused.
///
/// ```
/// framework::testing::fuzz_query::<std::collections::BTreeMap<String, String>>("a=1&b[c]=%ff").unwrap();
/// ```
///
/// # Errors
/// The property that failed.
pub fn fuzz_query<T: Dto + Debug>(query: &str) -> Result<(), String> {
    match crate::extractor::parse_query::<T>(query) {
        Ok(_) => Ok(()),
        Err(err) => refused(&err),
    }
}

fn refused(err: &ApiError) -> Result<(), String> {
    if err.status() != 400 {
        return Err(format!(
            "refused with {} instead of 400: {err:?}",
            err.status()
        ));
    }
    if err.issues().is_empty() {
        return Err(format!("refused without saying why: {err:?}"));
    }
    Ok(())
}
