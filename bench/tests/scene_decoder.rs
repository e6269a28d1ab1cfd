//! The `assert` route's `Scene` through the decoder `#[dto]` generates
//! (issue 25) and through the reference decoder (simd-json under serde):
//! for every body, both accept it with the same value, or both refuse it.

use bench::{Scene, scene_json};
use framework::testing::{broken_variants, check_decoders};
use proptest::prelude::*;

/// Both decoders agree on `body`.
fn agree(body: &[u8]) -> Result<(), String> {
    check_decoders::<Scene>(body)
}

/// What the route decodes from `body`.
fn decode_scene(body: &[u8]) -> Option<Scene> {
    framework::from_json::<Scene>(body).ok()
}

fn one_box(fields: &str) -> Vec<u8> {
    format!(r#"{{"data":[{{{fields}}}]}}"#).into_bytes()
}

const COORDINATES: &str = r#"{"x":1,"y":-2.5,"z":1e2}"#;

fn box_with(name: &str, extra: &str) -> Vec<u8> {
    one_box(&format!(
        r#""name":{name},"owner":"a@example.com","scale":{c},"position":{c},"rotate":{c},"pivot":{c}{extra}"#,
        c = COORDINATES
    ))
}

#[test]
fn the_bench_payload_decodes_to_the_same_scene() {
    let body = scene_json();
    assert!(decode_scene(&body).is_some());
    agree(&body).unwrap();
}

#[test]
fn hand_made_bodies_are_accepted_and_refused_alike() {
    let mut bodies: Vec<Vec<u8>> = vec![
        b"{\"data\":[]}".to_vec(),
        b" \n{ \"data\" : [ ] } \t".to_vec(),
        b"{\"data\":[]} x".to_vec(),
        b"{\"data\":[],\"data\":[]}".to_vec(),
        b"{\"data\":null}".to_vec(),
        b"{}".to_vec(),
        b"[[]]".to_vec(),
        b"{\"data\":[],\"other\":{\"a\":1,\"a\":2}}".to_vec(),
        b"{\"data\":[],\"other\":{\"a\":1,\"b\":[true,false,null,\"s\",-0.0e+1]}}".to_vec(),
        b"{\"data\":[],\"other\":1,\"other\":2}".to_vec(),
        b"{\"data\":[],}".to_vec(),
        b"{\"data\":[1,]}".to_vec(),
        b"{\"da\\u0074a\":[]}".to_vec(),
        b"{\"data\":[]".to_vec(),
        b"".to_vec(),
    ];
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    bodies.push(format!(r#"{{"data":[],"deep":{deep}}}"#).into_bytes());
    // Around the nesting limit (the root object is one level): the limit
    // falls inside the range, and both put it at the same depth.
    let around_the_limit: Vec<Vec<u8>> = (125..=129)
        .map(|depth| {
            let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            format!(r#"{{"data":[],"deep":{nested}}}"#).into_bytes()
        })
        .collect();
    let accepted = around_the_limit
        .iter()
        .filter(|body| decode_scene(body).is_some())
        .count();
    assert!((1..5).contains(&accepted), "{accepted}");
    bodies.extend(around_the_limit);
    for name in [
        r#""Box""#,
        r#""""#,
        r#""caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t""#,
        r#""lone \ud83d""#,
        r#""lone \ude00 low""#,
        r#""bad \x escape""#,
        "\"raw \u{1} control\"",
        r#""short \u12""#,
        "null",
        "12",
    ] {
        bodies.push(box_with(name, ""));
    }
    bodies.push({
        let mut body = box_with(r#""ok""#, "");
        let at = body.iter().position(|b| *b == b'o').unwrap();
        body[at] = 0xff;
        body
    });
    // Keys out of declaration order, and a space before each colon: the
    // keys are read and looked up rather than predicted.
    let unpredicted = [
        br#"{"data":[{"pivot":{"z":3,"y":2,"x":1},"rotate":{"z":3,"y":2,"x":1},
            "position":{"z":3,"y":2,"x":1},"scale":{"z":3,"y":2,"x":1},
            "owner":"a@example.com","name":"n"}]}"#
            .to_vec(),
        String::from_utf8(box_with(r#""Box""#, ""))
            .unwrap()
            .replace("\":", "\" :")
            .into_bytes(),
    ];
    for body in unpredicted {
        assert!(
            decode_scene(&body).is_some(),
            "{}",
            String::from_utf8_lossy(&body)
        );
        bodies.push(body);
    }
    for extra in [
        r#","name":"again""#,
        r#","unknown":[1,2,{"k":"v"}]"#,
        r#","scale":{"x":1,"y":2,"z":3}"#,
    ] {
        bodies.push(box_with(r#""Box""#, extra));
    }
    for number in [
        "0",
        "-0",
        "1.5",
        "1E5",
        "1e-5",
        "1000",
        "1000.0000000000001",
        "-1000",
        "01",
        "1.",
        ".5",
        "+1",
        "1e",
        "1e400",
        "-1e400",
        "1e-400",
        "NaN",
        "Infinity",
        "0x10",
        "1_0",
        "\"1\"",
        "true",
        "123456789012345678901234567890",
        "0.30000000000000004",
        "2.2250738585072011e-308",
    ] {
        let c = format!(r#"{{"x":{number},"y":0,"z":0}}"#);
        bodies.push(one_box(&format!(
            r#""name":"n","owner":"a@example.com","scale":{c},"position":{c},"rotate":{c},"pivot":{c}"#
        )));
    }
    for body in &bodies {
        agree(body).unwrap();
    }
}

#[test]
fn broken_scenes_are_refused_by_both() {
    let mut scene: Scene = serde_json::from_slice(&scene_json()).unwrap();
    // Three boxes make every kind of break; a hundred make a hundred times
    // as many refusals, each reported in full.
    scene.data.truncate(3);
    let broken = broken_variants(&scene);
    assert!(broken.len() > 10, "{}", broken.len());
    for variant in broken {
        let body = serde_json::to_vec(&variant.value).unwrap();
        assert!(
            decode_scene(&body).is_none(),
            "{}: {}",
            variant.what,
            variant.path
        );
        agree(&body).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random valid scenes, written compactly and pretty.
    #[test]
    fn random_scenes_decode_alike(seed in any::<u64>()) {
        use rand::SeedableRng;
        let scene: Scene = framework::Random::random_with(&mut rand::rngs::StdRng::seed_from_u64(seed));
        let compact = serde_json::to_vec(&scene).unwrap();
        prop_assert_eq!(decode_scene(&compact), Some(scene.clone()));
        agree(&compact).map_err(TestCaseError::fail)?;
        let pretty = serde_json::to_vec_pretty(&scene).unwrap();
        agree(&pretty).map_err(TestCaseError::fail)?;
    }

    /// Numbers in every notation (shortest, exponent, 25 and 40 decimals:
    /// more digits than a `u64` holds), near the bounds and tiny ones.
    #[test]
    fn numbers_read_to_the_same_float(
        x in prop_oneof![-1000.0..1000.0f64, -1e-300..1e-300f64, 999.999_999..1_000.000_001_f64],
        notation in 0..4u8,
    ) {
        let text = match notation {
            0 => format!("{x}"),
            1 => format!("{x:e}"),
            2 => format!("{x:.25}"),
            _ => format!("{x:.40e}"),
        };
        let c = format!(r#"{{"x":{text},"y":0,"z":0}}"#);
        let body = one_box(&format!(
            r#""name":"n","owner":"a@example.com","scale":{c},"position":{c},"rotate":{c},"pivot":{c}"#
        ));
        agree(&body).map_err(TestCaseError::fail)?;
    }

    /// The bench payload with one byte replaced, inserted or removed.
    #[test]
    fn mutated_bodies_are_accepted_and_refused_alike(
        at in any::<prop::sample::Index>(),
        byte in prop::sample::select(b"{}[],:\"\\ .-+e0123456789xnul\x00\x7f\xc3\xff".to_vec()),
        how in 0..3u8,
    ) {
        let mut body = scene_json();
        let at = at.index(body.len());
        match how {
            0 => body[at] = byte,
            1 => body.insert(at, byte),
            _ => { body.remove(at); }
        }
        agree(&body).map_err(TestCaseError::fail)?;
    }
}
