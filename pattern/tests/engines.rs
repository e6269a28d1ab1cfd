//! What the dialect refuses and rewrites, and that the rewrites give Rust
//! the JavaScript meaning. The verdicts of both engines on a shared corpus
//! are checked end to end in `sdk-gen/tests/kitchen.rs` (Rust) and
//! `sdk-gen/tests/kitchen/test/parity.test.ts` (node).

use framework_pattern::to_rust;

fn rust(pattern: &str) -> regex::Regex {
    let translated = to_rust(pattern).unwrap_or_else(|err| panic!("{pattern}: {err}"));
    regex::Regex::new(&translated).unwrap_or_else(|err| panic!("{pattern} as {translated}: {err}"))
}

#[test]
fn classes_mean_what_javascript_says() {
    let cases: &[(&str, &[&str], &[&str])] = &[
        (r"^\d+$", &["0123"], &["١٢٣", "12a"]),
        (r"^\w+$", &["a_Z9"], &["é", "日本"]),
        (r"^\W$", &["é", "-"], &["a"]),
        (r"^\D$", &["٣", "x"], &["3"]),
        (
            r"^\s$",
            &[" ", "\u{feff}", "\u{a0}", "\u{2028}"],
            &["\u{85}", "a"],
        ),
        (r"^\S$", &["\u{85}"], &["\u{feff}"]),
        (
            r"^.$",
            &["a", "é", "😀"],
            &["\n", "\r", "\u{2028}", "\u{2029}"],
        ),
        (r"^[\d_]+$", &["1_2"], &["١"]),
        (r"^[^\d]$", &["a", "١"], &["1"]),
        (r"\bcat\b", &["a cat.", "écat"], &["cats", "bobcat"]),
        (r"^é\b", &[], &["é"]),
        (r"^a\Bb", &["ab"], &["a b"]),
        (r"^\p{Lu}\p{Ll}+$", &["Élan"], &["élan"]),
        (r"^\p{Script=Greek}+$", &["αβγ"], &["abc"]),
        (r"^[.]$", &["."], &["a"]),
        (r"^\u{1F600}\u0041\x42$", &["😀AB"], &["AB"]),
        (r"^a{0,2}$", &["", "aa"], &["aaa"]),
        (r"^(?<word>[a-z]+)-(?:\d)\/$", &["ab-1/"], &["ab-x/"]),
    ];
    for (pattern, good, bad) in cases {
        let regex = rust(pattern);
        for text in *good {
            assert!(regex.is_match(text), "{pattern} should accept {text:?}");
        }
        for text in *bad {
            assert!(!regex.is_match(text), "{pattern} should refuse {text:?}");
        }
    }
}

#[test]
fn refuses_what_either_engine_reads_otherwise() {
    let refused = [
        "(?i)abc",
        "(?i:a)",
        r"\Aabc\z",
        r"\pL",
        r"\p{Greek}",
        r"\p{sc:Greek}",
        r"\p{greek}",
        "[[:alpha:]]",
        "[a-z&&[^aeiou]]",
        "[[a]]",
        "(?P<name>a)",
        r"\x{41}",
        r"\U00000041",
        r"\#",
        r"\-",
        r"\%",
        r"\a",
        "a{,3}",
        "^*",
        "a]",
        "a}",
        "[]a]",
        "(?<1a>x)",
        r"\<word\>",
        "(",
        "a**",
        r"(a)\1",
        "(?=a)",
    ];
    for pattern in refused {
        assert!(to_rust(pattern).is_err(), "{pattern} should be refused");
    }
}

#[test]
fn an_error_names_the_construct_and_the_fix() {
    let err = to_rust(r"ab(?i)c").unwrap_err();
    assert_eq!((err.start, err.end), (2, 6));
    assert!(err.message.contains("[Aa]"), "{}", err.message);
    let err = to_rust(r"x\pL").unwrap_err();
    assert!(err.message.contains(r"\p{L}"), "{}", err.message);
}

#[test]
fn rewrites_only_what_differs() {
    assert_eq!(
        to_rust("^[a-z]{2,5}-[0-9]{3}$").unwrap(),
        "^[a-z]{2,5}-[0-9]{3}$"
    );
    assert_eq!(to_rust(r"^\d\.\w$").unwrap(), r"^[0-9]\.[0-9A-Za-z_]$");
    assert_eq!(to_rust(r"[\d.]").unwrap(), r"[[0-9].]");
    assert_eq!(to_rust(r"\bcat\B").unwrap(), r"(?-u:\b)cat(?-u:\B)");
    assert_eq!(
        framework_pattern::to_rust_for_drawing(r"^\bcat\b\d$").unwrap(),
        "^cat[0-9]$"
    );
}
