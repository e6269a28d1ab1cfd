//! String formats (`Format<"...">`), as typia and JSON Schema name them.

use std::{
    collections::HashMap,
    net::{Ipv4Addr, Ipv6Addr},
    str::FromStr,
    sync::{Arc, LazyLock, RwLock},
};

use regex::Regex;

/// A string format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// `uuid`: `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
    Uuid,
    /// `email`: an address as HTML forms accept it.
    Email,
    /// `hostname`: RFC 1123.
    Hostname,
    /// `ipv4`: dotted quad.
    Ipv4,
    /// `ipv6`: RFC 4291 text form.
    Ipv6,
    /// `uri`: an absolute URI (RFC 3986).
    Uri,
    /// `url`: an absolute URL with a host (WHATWG).
    Url,
    /// `uri-reference`: a URI or a relative reference (RFC 3986).
    UriReference,
    /// `date-time`: RFC 3339.
    DateTime,
    /// `date`: RFC 3339 full-date, `2026-11-30`.
    Date,
    /// `time`: `HH:MM:SS`, optional fraction and offset.
    Time,
    /// `duration`: ISO 8601, `P3DT4H`.
    Duration,
    /// `byte`: base64 with padding.
    Byte,
    /// `password`: any string (a hint for docs and forms).
    Password,
    /// `regex`: a regular expression.
    Regex,
    /// `json-pointer`: RFC 6901.
    JsonPointer,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 16] = [
        Format::Uuid,
        Format::Email,
        Format::Hostname,
        Format::Ipv4,
        Format::Ipv6,
        Format::Uri,
        Format::Url,
        Format::UriReference,
        Format::DateTime,
        Format::Date,
        Format::Time,
        Format::Duration,
        Format::Byte,
        Format::Password,
        Format::Regex,
        Format::JsonPointer,
    ];

    /// The format's name: `uuid`, `date-time`, ...
    pub const fn name(self) -> &'static str {
        match self {
            Format::Uuid => "uuid",
            Format::Email => "email",
            Format::Hostname => "hostname",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Uri => "uri",
            Format::Url => "url",
            Format::UriReference => "uri-reference",
            Format::DateTime => "date-time",
            Format::Date => "date",
            Format::Time => "time",
            Format::Duration => "duration",
            Format::Byte => "byte",
            Format::Password => "password",
            Format::Regex => "regex",
            Format::JsonPointer => "json-pointer",
        }
    }

    /// The format with this name.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|format| format.name() == name)
    }

    /// Whether `text` is in this format.
    ///
    /// ```
    /// use framework::schema::Format;
    /// assert!(Format::Uri.matches("https://example.com/a?b#c"));
    /// assert!(!Format::Uri.matches("not a url"));
    /// assert!(Format::Duration.matches("P1Y2M3DT4H5M6.5S"));
    /// assert!(!Format::Duration.matches("PT"));
    /// ```
    pub fn matches(self, text: &str) -> bool {
        match self {
            Format::Uuid => is_uuid(text),
            Format::Email => is_email(text),
            Format::Hostname => is_hostname(text),
            Format::Ipv4 => Ipv4Addr::from_str(text).is_ok(),
            Format::Ipv6 => Ipv6Addr::from_str(text).is_ok(),
            Format::Uri => fluent_uri::Uri::parse(text).is_ok(),
            Format::Url => url::Url::parse(text).is_ok_and(|url| url.has_host()),
            Format::UriReference => fluent_uri::UriRef::parse(text).is_ok(),
            // RFC 3339 itself: chrono also takes a space for the `T` and
            // U+2212 for the offset's minus.
            Format::DateTime => {
                text.is_ascii()
                    && matches!(text.as_bytes().get(10), Some(b'T' | b't'))
                    && chrono::DateTime::parse_from_rfc3339(text).is_ok()
            }
            Format::Date => {
                text.len() == 10 && chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").is_ok()
            }
            Format::Time => TIME.is_match(text),
            Format::Duration => is_duration(text),
            Format::Byte => BASE64.is_match(text),
            Format::Password => true,
            Format::Regex => compile_pattern(text).is_some(),
            Format::JsonPointer => JSON_POINTER.is_match(text),
        }
    }
}

static TIME: LazyLock<Regex> = LazyLock::new(|| {
    compiled(
        r"^([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?([zZ]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])?$",
    )
});
static BASE64: LazyLock<Regex> =
    LazyLock::new(|| compiled(r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"));
static JSON_POINTER: LazyLock<Regex> = LazyLock::new(|| compiled(r"^(?:/(?:[^~/]|~[01])*)*$"));

fn compiled(pattern: &str) -> Regex {
    match Regex::new(pattern) {
        Ok(regex) => regex,
        Err(err) => unreachable!("built-in pattern {pattern}: {err}"),
    }
}

fn is_uuid(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 36
        && bytes.iter().enumerate().all(|(index, byte)| match index {
            8 | 13 | 18 | 23 => *byte == b'-',
            _ => byte.is_ascii_hexdigit(),
        })
}

fn is_hostname(text: &str) -> bool {
    let text = text.strip_suffix('.').unwrap_or(text);
    !text.is_empty()
        && text.len() <= 253
        && text.as_bytes().split(|byte| *byte == b'.').all(is_label)
}

/// The bytes a set of ASCII letters, digits and `extra` holds.
const fn byte_set(extra: &[u8]) -> [bool; 256] {
    let mut set = [false; 256];
    let mut byte = 0;
    while byte < 128 {
        set[byte] = (byte as u8).is_ascii_alphanumeric();
        byte += 1;
    }
    let mut at = 0;
    while at < extra.len() {
        set[extra[at] as usize] = true;
        at += 1;
    }
    set
}

/// What a DNS label is made of.
static LABEL_BYTES: [bool; 256] = byte_set(b"-");

/// What the local part of an e-mail address is made of.
static LOCAL_BYTES: [bool; 256] = byte_set(b".!#$%&'*+/=?^_`{|}~-");

/// A DNS label: 1 to 63 letters, digits and hyphens, neither first nor
/// last a hyphen.
fn is_label(label: &[u8]) -> bool {
    is_label_shaped(label) && label.iter().all(|byte| LABEL_BYTES[usize::from(*byte)])
}

/// Whether a label of label bytes has a label's length and ends: 1 to 63
/// bytes, neither first nor last a hyphen.
fn is_label_shaped(label: &[u8]) -> bool {
    matches!(
        (label.first(), label.last()),
        (Some(first), Some(last)) if *first != b'-' && *last != b'-'
    ) && label.len() <= 63
}

/// The HTML living standard's "valid e-mail address": a local part of
/// letters, digits and ``.!#$%&'*+/=?^_`{|}~-``, an `@`, and labels joined
/// by dots. Written out rather than run as the standard's regular
/// expression (kept in the tests, which hold the two equal), on the path
/// of every body with an address: one pass over the bytes.
fn is_email(text: &str) -> bool {
    let bytes = text.as_bytes();
    // `@` is no local byte: the local part ends at the first one.
    let local = bytes
        .iter()
        .take_while(|byte| LOCAL_BYTES[usize::from(**byte)])
        .count();
    if local == 0 || bytes.get(local) != Some(&b'@') {
        return false;
    }
    let mut label = local + 1;
    for (at, byte) in bytes.iter().enumerate().skip(label) {
        if *byte == b'.' {
            if !is_label_shaped(&bytes[label..at]) {
                return false;
            }
            label = at + 1;
        } else if !LABEL_BYTES[usize::from(*byte)] {
            return false;
        }
    }
    is_label_shaped(&bytes[label..])
}

/// ISO 8601 durations: `PnYnMnWnDTnHnMnS`, at least one part, a `T` only
/// before time parts, a fraction only on the last part.
fn is_duration(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('P') else {
        return false;
    };
    let (date, time) = match rest.split_once('T') {
        Some((date, time)) => (date, Some(time)),
        None => (rest, None),
    };
    let mut fraction_seen = false;
    let Some(date_parts) = duration_parts(date, b"YMWD", &mut fraction_seen) else {
        return false;
    };
    let time_parts = match time {
        Some(time) => match duration_parts(time, b"HMS", &mut fraction_seen) {
            Some(0) | None => return false,
            Some(parts) => parts,
        },
        None => 0,
    };
    date_parts + time_parts > 0
}

/// Counts the `n<unit>` parts of one section, units in order; `None` when
/// malformed. A fraction may only be on the very last part.
fn duration_parts(section: &str, units: &[u8], fraction_seen: &mut bool) -> Option<usize> {
    let mut number = String::new();
    let mut next_unit = 0;
    let mut parts = 0;
    for c in section.chars() {
        if c.is_ascii_digit() || (c == '.' || c == ',') && !number.is_empty() {
            number.push(c);
            continue;
        }
        let position = units[next_unit..]
            .iter()
            .position(|unit| *unit as char == c)?;
        if number.is_empty() || *fraction_seen {
            return None;
        }
        if number.contains(['.', ',']) {
            *fraction_seen = true;
            if number.ends_with(['.', ',']) {
                return None;
            }
        }
        next_unit += position + 1;
        number.clear();
        parts += 1;
    }
    number.is_empty().then_some(parts)
}

/// A pattern of the shared dialect (ECMAScript's meaning, see
/// [`framework_pattern`]), compiled for Rust; `None` outside the dialect.
pub(crate) fn compile_pattern(pattern: &str) -> Option<Regex> {
    Regex::new(&framework_pattern::to_rust(pattern).ok()?).ok()
}

/// A tag's pattern, compiled once per process.
pub(crate) fn pattern_regex(pattern: &str) -> Option<Arc<Regex>> {
    static CACHE: LazyLock<RwLock<HashMap<String, Arc<Regex>>>> = LazyLock::new(Default::default);
    if let Some(found) = CACHE
        .read()
        .unwrap_or_else(|poison| poison.into_inner())
        .get(pattern)
    {
        return Some(Arc::clone(found));
    }
    let regex = Arc::new(compile_pattern(pattern)?);
    CACHE
        .write()
        .unwrap_or_else(|poison| poison.into_inner())
        .insert(pattern.to_owned(), Arc::clone(&regex));
    Some(regex)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_every_format() {
        let cases: &[(Format, &[&str], &[&str])] = &[
            (
                Format::Uuid,
                &["3f1c2a4e-9b7d-4c21-8e5f-0a1b2c3d4e5f"],
                &["3f1c2a4e9b7d4c218e5f0a1b2c3d4e5f", "not-a-uuid", ""],
            ),
            (
                Format::Email,
                &["kim@example.com", "a.b+c@sub.example.org"],
                &["kim", "kim@", "@example.com", "a b@x.com"],
            ),
            (
                Format::Hostname,
                &["example.com", "localhost", "a-b.c"],
                &["-a.com", "a..b", "a_b.com", ""],
            ),
            (
                Format::Ipv4,
                &["127.0.0.1", "255.255.255.255"],
                &["256.0.0.1", "1.2.3", "01.2.3.4"],
            ),
            (
                Format::Ipv6,
                &["::1", "2001:db8::8a2e:370:7334"],
                &["12345::", "1.2.3.4"],
            ),
            (
                Format::Uri,
                &[
                    "https://example.com/a?b=c#d",
                    "urn:isbn:0451450523",
                    "mailto:kim@example.com",
                ],
                &["not a url", "/relative", "http://exa mple.com"],
            ),
            (
                Format::Url,
                &["https://example.com/logo.png", "http://127.0.0.1:3000"],
                &["mailto:kim@example.com", "example.com"],
            ),
            (
                Format::UriReference,
                &["/relative/path", "https://example.com", "../up?q#f", ""],
                &["a b", "http://[::1"],
            ),
            (
                Format::DateTime,
                &["2026-11-30T01:02:03Z", "2026-11-30T01:02:03.5+09:00"],
                &["2026-11-30", "2026-11-30 01:02:03", "2026-13-01T00:00:00Z"],
            ),
            (
                Format::Date,
                &["2026-11-30", "2024-02-29"],
                &["2026-02-30", "26-11-30", "2026-11-30T00:00:00Z"],
            ),
            (
                Format::Time,
                &["01:02:03", "23:59:60.123Z", "12:00:00+09:00"],
                &["24:00:00", "1:02:03", "12:00"],
            ),
            (
                Format::Duration,
                &["P1D", "PT1H", "P1Y2M3W4DT5H6M7.5S", "P0D"],
                &["P", "PT", "1D", "P1H", "PT1D", "P1.5DT1H"],
            ),
            (
                Format::Byte,
                &["", "aGVsbG8=", "aGk="],
                &["aGVsbG8", "a===", "!!!!"],
            ),
            (Format::Password, &["anything at all", ""], &[]),
            (
                Format::Regex,
                &["^[a-z]+$", "a|b", r"^\d{3}$"],
                &["(", "[a-", "(?i)a", r"\pL"],
            ),
            (
                Format::JsonPointer,
                &["", "/a/b", "/a~0b/~1c"],
                &["a/b", "/a~2"],
            ),
        ];
        for (format, good, bad) in cases {
            for text in *good {
                assert!(
                    format.matches(text),
                    "{} should accept {text:?}",
                    format.name()
                );
            }
            for text in *bad {
                assert!(
                    !format.matches(text),
                    "{} should refuse {text:?}",
                    format.name()
                );
            }
        }
        for format in Format::ALL {
            assert_eq!(Format::from_name(format.name()), Some(format));
        }
    }

    /// The HTML living standard's expression for a valid e-mail address,
    /// which `is_email` is held to.
    const EMAIL_STANDARD: &str = r"^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$";

    fn agrees_with_the_standard(text: &str) -> Result<(), proptest::test_runner::TestCaseError> {
        static STANDARD: LazyLock<Regex> = LazyLock::new(|| compiled(EMAIL_STANDARD));
        proptest::prop_assert_eq!(is_email(text), STANDARD.is_match(text), "{:?}", text);
        Ok(())
    }

    #[test]
    fn the_email_check_accepts_and_refuses_at_each_edge() {
        let label = |n| "a".repeat(n);
        for text in [
            "a@b".to_owned(),
            format!("a@{}", label(63)),
            format!("a@{}", label(64)),
            format!("a@x.{}.y", label(63)),
            format!("a@x.{}.y", label(64)),
            "a@-b".into(),
            "a@b-".into(),
            "a@b-c".into(),
            "a@b..c".into(),
            "a@b.".into(),
            "a@.b".into(),
            "@b".into(),
            "a@".into(),
            "a@@b".into(),
            "a@b@c".into(),
            ".!#$%&'*+/=?^_`{|}~-@b".into(),
            "a b@c".into(),
            "é@b".into(),
            "a@bé".into(),
            "a@b\n".into(),
            "a@b_c".into(),
        ] {
            agrees_with_the_standard(&text).unwrap();
        }
    }

    proptest::proptest! {
        #[test]
        fn the_email_check_is_the_standards_expression_on_valid_addresses(
            text in &EMAIL_STANDARD[1..EMAIL_STANDARD.len() - 1],
        ) {
            proptest::prop_assert!(is_email(&text), "{:?}", text);
            agrees_with_the_standard(&text)?;
        }

        #[test]
        fn the_email_check_is_the_standards_expression_near_its_edges(
            text in "[a-z.!~-]{0,3}@?[a-z0-9-]{0,3}(\\.[a-z0-9_-]{0,3}){0,3}|[a@.]{0,8}|[a-z]{1,2}@[a-z]{60,66}(\\.[a-z]{0,2})?",
        ) {
            agrees_with_the_standard(&text)?;
        }

        #[test]
        fn the_email_check_is_the_standards_expression_on_any_text(text in "\\PC{0,40}") {
            agrees_with_the_standard(&text)?;
        }
    }
}
