//! Compile tests of the macros: accepted forms build, misuse is refused
//! with the message checked in next to each case.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/pass/*.rs");
    cases.compile_fail("tests/fail/*.rs");
}
