//! Bodies every peer must refuse: each breaks one constraint of the valid
//! payload, so a peer that skips a check is caught before it is timed.

use serde_json::Value;

/// What is wrong with a body, and the body.
pub type Invalid = (&'static str, Vec<u8>);

/// [`Scene`](crate::Scene) bodies that each break one constraint.
pub fn scenes() -> Vec<Invalid> {
    let scene = || serde_json::from_slice::<Value>(&crate::scene_json()).unwrap_or(Value::Null);
    let edited = |what: &'static str, edit: &dyn Fn(&mut Value)| {
        let mut value = scene();
        edit(&mut value);
        (what, json(&value))
    };
    let mut bodies = vec![
        edited("a coordinate above its maximum", &|scene| {
            scene["data"][3]["position"]["y"] = 1000.5.into();
        }),
        edited("a coordinate below its minimum", &|scene| {
            scene["data"][4]["pivot"]["x"] = (-1000.5).into();
        }),
        edited("an empty name", &|scene| {
            scene["data"][0]["name"] = "".into();
        }),
        edited("a name of 65 characters", &|scene| {
            scene["data"][1]["name"] = "n".repeat(65).into();
        }),
        edited("an owner that is no e-mail address", &|scene| {
            scene["data"][2]["owner"] = "owner2.example.com".into();
        }),
        edited("101 boxes", &|scene| {
            if let Some(boxes) = scene["data"].as_array_mut() {
                let first = boxes[0].clone();
                boxes.push(first);
            }
        }),
        edited("a box without its pivot", &|scene| {
            if let Some(object) = scene["data"][5].as_object_mut() {
                object.remove("pivot");
            }
        }),
    ];
    // JSON cannot write infinity; a number too large for a double reads as
    // one in JavaScript and is refused by Rust's parsers.
    let (_, mut infinite) = edited("", &|scene| {
        scene["data"][6]["scale"]["z"] = "INFINITY".into();
    });
    infinite = String::from_utf8_lossy(&infinite)
        .replacen("\"INFINITY\"", "1e999", 1)
        .into_bytes();
    bodies.push(("a coordinate that is not finite (1e999)", infinite));
    bodies
}

/// Bodies of nestia's `{ data: IBox3D[] }` with a wrong type or a missing
/// property (it has no other constraints).
pub fn boxes() -> Vec<Invalid> {
    vec![
        (
            "a box without its points",
            br#"{"data":[{"scale":{"x":1,"y":2,"z":3}}]}"#.to_vec(),
        ),
        (
            "a coordinate that is a word",
            br#"{"data":[{"scale":{"x":"one","y":2,"z":3},"position":{"x":1,"y":2,"z":3},"rotate":{"x":1,"y":2,"z":3},"pivot":{"x":1,"y":2,"z":3}}]}"#.to_vec(),
        ),
    ]
}

/// [`Note`](crate::Note) forms that each break one constraint.
pub fn forms() -> Vec<Invalid> {
    vec![
        ("an empty title", b"title=&body=Milk".to_vec()),
        (
            "a title of 65 characters",
            format!("title={}&body=Milk", "t".repeat(65)).into_bytes(),
        ),
        ("no body field", b"title=Groceries".to_vec()),
    ]
}

fn json(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_body_breaks_the_framework_s_checks_and_the_valid_one_passes() {
        assert!(framework::from_json::<crate::Scene>(&crate::scene_json()).is_ok());
        for (what, body) in scenes() {
            assert!(
                framework::from_json::<crate::Scene>(&body).is_err(),
                "accepted: {what}"
            );
        }
        assert!(framework::from_json::<crate::Boxes>(&crate::boxes_json()).is_ok());
        for (what, body) in boxes() {
            assert!(
                framework::from_json::<crate::Boxes>(&body).is_err(),
                "accepted: {what}"
            );
        }
    }

    #[tokio::test]
    async fn each_form_breaks_the_note_s_checks_and_the_valid_one_passes() {
        use crate::scenario::{FORM_BODY, RouteSet};
        for set in [RouteSet::Form, RouteSet::FormCrossOriginOff] {
            let app = crate::peers::framework_app(set).unwrap();
            let client = app.test_client();
            let valid = client.post("/form").form(FORM_BODY).send().await;
            assert_eq!(valid.status(), 303, "{}", valid.text());
            for (what, body) in forms() {
                let text = String::from_utf8(body).unwrap();
                let refused = client.post("/form").form(&text).send().await;
                assert_eq!(refused.status(), 400, "accepted: {what}");
            }
            let cross_site = client
                .post("/form")
                .header("host", "127.0.0.1:8080")
                .header("origin", "https://evil.example")
                .header("sec-fetch-site", "cross-site")
                .form(FORM_BODY)
                .send()
                .await;
            let expected = if set == RouteSet::Form { 403 } else { 303 };
            assert_eq!(cross_site.status(), expected, "{}", set.name());
        }
    }
}
