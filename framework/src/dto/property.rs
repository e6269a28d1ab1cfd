//! Property checks of DTOs, for users' property tests (proptest, quickcheck
//! or a plain loop over seeds): random values validate and round-trip, and
//! each single broken constraint is refused at its path.

use std::fmt::Debug;

use rand::{SeedableRng, rngs::SmallRng};

use super::{Dto, Random, broken::broken_variants, decode::from_json, random::draw_value};
use crate::schema::schema_of;

/// A random `T` from `seed` is valid, and JSON gives it back unchanged.
///
/// ```
/// use framework::prelude::*;
///
/// #[dto]
/// #[derive(Debug, PartialEq)]
/// struct Tag { #[tags(min_length = 1, max_length = 8)] name: String }
///
/// for seed in 0..20 {
///     framework::testing::check_random_value::<Tag>(seed).unwrap();
///     framework::testing::check_broken_values::<Tag>(seed).unwrap();
/// }
/// ```
pub fn check_random_value<T: Dto + Debug + PartialEq>(seed: u64) -> Result<(), String> {
    let value = T::random_with(&mut SmallRng::seed_from_u64(seed));
    if !value.is_valid() {
        return Err(format!("a random value is not valid: {value:?}"));
    }
    let json = serde_json::to_vec(&value).map_err(|err| format!("serializing {value:?}: {err}"))?;
    match from_json::<T>(&json) {
        Ok(decoded) if decoded == value => Ok(()),
        Ok(decoded) => Err(format!("{value:?} came back as {decoded:?}")),
        Err(err) => Err(format!(
            "a random value was refused: {}: {:?}",
            String::from_utf8_lossy(&json),
            err.issues()
        )),
    }
}

/// The first random `T` drawn from `seed`, taken as it is (no second
/// draw): `Ok(true)` when it is valid by construction and valid, `Ok(false)`
/// when `T` has a constraint the generator cannot construct (see
/// [`Random`]'s module docs: a `check = fn`, a pattern with a length, ...),
/// and an error when a value built to be valid is refused, which is a bug
/// in the generator. A property test over many seeds asserts that every
/// type is exact, or names the ones that are not.
///
/// ```
/// use framework::prelude::*;
///
/// #[dto]
/// #[derive(Debug)]
/// struct Tag { #[tags(min_length = 1, max_length = 8)] name: String }
///
/// for seed in 0..200 {
///     assert_eq!(framework::testing::check_first_draw::<Tag>(seed), Ok(true));
/// }
/// ```
pub fn check_first_draw<T: Dto + Debug>(seed: u64) -> Result<bool, String> {
    let described = schema_of::<T>();
    let draw = draw_value(
        &described.schema,
        &described.registry,
        &mut SmallRng::seed_from_u64(seed),
    );
    if !draw.exact {
        return Ok(false);
    }
    match serde_json::from_value::<T>(draw.value.clone()) {
        Ok(value) if value.is_valid() => Ok(true),
        Ok(value) => Err(format!(
            "a value built to be valid is not: {} read as {value:?}",
            draw.value
        )),
        Err(err) => Err(format!(
            "a value built to be valid does not read: {}: {err}",
            draw.value
        )),
    }
}

/// Every single-constraint break of a random `T` from `seed` (see
/// [`broken_variants`]) is refused, and every issue listed is at the broken
/// value's path.
pub fn check_broken_values<T: Dto + Debug>(seed: u64) -> Result<(), String> {
    let value = T::random_with(&mut SmallRng::seed_from_u64(seed));
    for case in broken_variants(&value) {
        match from_json::<T>(case.value.to_string().as_bytes()) {
            Ok(accepted) => {
                return Err(format!(
                    "{} at {} was accepted: {accepted:?}",
                    case.what, case.path
                ));
            }
            Err(err) => {
                let paths: Vec<&str> = err
                    .issues()
                    .iter()
                    .map(|issue| issue.path.as_str())
                    .collect();
                if paths.is_empty() || paths.iter().any(|path| *path != case.path) {
                    return Err(format!(
                        "{} at {}: reported at {paths:?}",
                        case.what, case.path
                    ));
                }
            }
        }
    }
    Ok(())
}
