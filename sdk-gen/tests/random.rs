//! Random values of every kitchen type are valid on their first draw: no
//! value is found by rejection, so a generator that is wrong even once in
//! 500 draws fails here. Two exceptions, named: `Patterns::bounded`
//! (`\bcat\b`), whose word boundaries the generator leaves out, and
//! `Patterns::palindrome` (`check = fn`); their draws are checked rather
//! than exact.

#[path = "kitchen/app.rs"]
#[allow(dead_code)]
mod app;

use framework::{Dto, testing::check_first_draw};

/// Draws `T` from seeds `0..500`, each once with no second try, and
/// returns how many draws were valid by construction; an exact draw that
/// is refused fails the test.
fn exact_first_draws<T: Dto + std::fmt::Debug>() -> usize {
    (0..500)
        .filter(|&seed| {
            check_first_draw::<T>(seed)
                .unwrap_or_else(|err| panic!("{}: {err}", std::any::type_name::<T>()))
        })
        .count()
}

#[test]
fn every_kitchen_type_is_valid_on_the_first_draw() {
    assert_eq!(exact_first_draws::<app::Shape>(), 500);
    assert_eq!(exact_first_draws::<app::Event>(), 500);
    assert_eq!(exact_first_draws::<app::Command>(), 500);
    assert_eq!(exact_first_draws::<app::Loose>(), 500);
    assert_eq!(exact_first_draws::<app::Tree>(), 500);
    assert_eq!(exact_first_draws::<app::Everything>(), 500);
    assert_eq!(exact_first_draws::<app::Wide>(), 500);
    assert_eq!(exact_first_draws::<app::Limits>(), 500);
    assert_eq!(exact_first_draws::<app::Filter>(), 500);
    assert_eq!(exact_first_draws::<app::Search>(), 500);
    assert_eq!(exact_first_draws::<app::Tenant>(), 500);
    assert_eq!(exact_first_draws::<app::Session>(), 500);
    assert_eq!(exact_first_draws::<app::Job>(), 500);
    assert_eq!(exact_first_draws::<app::Ticket>(), 500);
    assert_eq!(exact_first_draws::<app::Formats>(), 500);
    // Draws holding `bounded` or `palindrome` are not exact (about nine in
    // ten); every exact one must be valid, which `exact_first_draws` checks.
    let patterns = exact_first_draws::<app::Patterns>();
    assert!(
        (10..250).contains(&patterns),
        "{patterns} exact draws of 500"
    );
}
