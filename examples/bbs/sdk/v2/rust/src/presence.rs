// Written by sdk-gen from the framework's `dto/presence.rs`: the server's own
// rules, shared with this SDK; do not edit.

//! How fields say "may be absent" apart from "may be null". The generated
//! Rust SDK reads answers with these same functions: sdk-gen writes this
//! file into it as it is (`PRESENCE_RS`), so it uses serde alone.

use serde::{Deserialize, Deserializer};

/// `x: Option<T>` in a `#[dto]`: the property must be present; `null` is
/// `None`. (serde alone would also take an absent property as `None`.)
#[doc(hidden)]
pub fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    Option::<T>::deserialize(deserializer)
}

/// `#[optional] x: Option<T>`: an absent property is `None` (serde's
/// `default`), a present one must be a `T`, so `null` is refused unless `T`
/// is itself an `Option`.
#[doc(hidden)]
pub fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}
