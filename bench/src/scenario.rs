//! The scenarios every peer serves, and what a correct answer is.

use std::fmt;

use serde::{Deserialize, Serialize};

/// `GET /plaintext`'s text.
pub const HELLO: &str = "Hello, World!";

/// `GET /json`'s body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Always [`HELLO`].
    pub message: String,
}

/// Which routes a server has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RouteSet {
    /// `/plaintext`, `/json`, `/assert`, `/stringify`, `/performance`.
    Main,
    /// [`MANY_ROUTES`] static routes `/uuid/{n}` and `/zzz/{a}`.
    Many,
    /// One static route, `/uuid/{MANY_ROUTES}`, and `/zzz/{a}`.
    One,
}

impl RouteSet {
    /// Every set.
    pub const ALL: [RouteSet; 3] = [RouteSet::Main, RouteSet::Many, RouteSet::One];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            RouteSet::Main => "main",
            RouteSet::Many => "many",
            RouteSet::One => "one",
        }
    }

    /// The set with this name.
    pub fn from_name(name: &str) -> Option<RouteSet> {
        RouteSet::ALL.into_iter().find(|set| set.name() == name)
    }

    /// The static routes' numbers: `/uuid/1` ... `/uuid/N`, or only N.
    pub fn static_routes(self) -> std::ops::Range<usize> {
        match self {
            RouteSet::Main => 0..0,
            RouteSet::Many => 1..MANY_ROUTES + 1,
            RouteSet::One => MANY_ROUTES..MANY_ROUTES + 1,
        }
    }
}

/// How many static routes the `many` set has: 10,000 when the bench crate
/// is built with `--features routes-10k` (as the runner's full mode does;
/// the framework's 10,000 handlers take minutes to compile), 100 otherwise.
pub const MANY_ROUTES: usize = if cfg!(feature = "routes-10k") {
    10_000
} else {
    100
};

/// One load scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scenario {
    /// `GET /plaintext`.
    Plaintext,
    /// `GET /json`.
    Json,
    /// `POST /assert`: validate `{ data: IBox3D[100] }`, answer 204.
    Assert,
    /// `GET /stringify`: answer `{ data: IBox3D[100] }`.
    Stringify,
    /// `POST /performance`: validate and echo.
    Performance,
    /// `GET /uuid/{N}` among N static routes.
    ManyStatic,
    /// `GET /zzz/{a}` beside N static routes.
    ManyDynamic,
    /// `GET /uuid/{N}`, the only static route.
    OneStatic,
    /// `GET /zzz/{a}` beside one static route.
    OneDynamic,
}

impl Scenario {
    /// Every scenario.
    pub const ALL: [Scenario; 9] = [
        Scenario::Plaintext,
        Scenario::Json,
        Scenario::Assert,
        Scenario::Stringify,
        Scenario::Performance,
        Scenario::ManyStatic,
        Scenario::ManyDynamic,
        Scenario::OneStatic,
        Scenario::OneDynamic,
    ];

    /// The name in reports and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Scenario::Plaintext => "plaintext",
            Scenario::Json => "json",
            Scenario::Assert => "assert",
            Scenario::Stringify => "stringify",
            Scenario::Performance => "performance",
            Scenario::ManyStatic => "routes-many-static",
            Scenario::ManyDynamic => "routes-many-dynamic",
            Scenario::OneStatic => "routes-one-static",
            Scenario::OneDynamic => "routes-one-dynamic",
        }
    }

    /// The routes the server needs.
    pub fn route_set(self) -> RouteSet {
        match self {
            Scenario::ManyStatic | Scenario::ManyDynamic => RouteSet::Many,
            Scenario::OneStatic | Scenario::OneDynamic => RouteSet::One,
            _ => RouteSet::Main,
        }
    }

    /// `GET` or `POST`.
    pub fn method(self) -> &'static str {
        match self {
            Scenario::Assert | Scenario::Performance => "POST",
            _ => "GET",
        }
    }

    /// The request path; `many` is the number of static routes the server
    /// has (its last is requested).
    pub fn path(self, many: usize) -> String {
        match self {
            Scenario::Plaintext => "/plaintext".into(),
            Scenario::Json => "/json".into(),
            Scenario::Assert => "/assert".into(),
            Scenario::Stringify => "/stringify".into(),
            Scenario::Performance => "/performance".into(),
            Scenario::ManyStatic | Scenario::OneStatic => format!("/uuid/{many}"),
            Scenario::ManyDynamic | Scenario::OneDynamic => "/zzz/abc".into(),
        }
    }

    /// The request body.
    pub fn body(self) -> Option<Vec<u8>> {
        matches!(self, Scenario::Assert | Scenario::Performance).then(crate::boxes_json)
    }

    /// A body the route must refuse (a box without its points), if it reads one.
    pub fn invalid_body(self) -> Option<Vec<u8>> {
        matches!(self, Scenario::Assert | Scenario::Performance)
            .then(|| br#"{"data":[{"scale":{"x":1,"y":2,"z":3}}]}"#.to_vec())
    }

    /// The scenarios a route set serves.
    pub fn of(set: RouteSet) -> impl Iterator<Item = Scenario> {
        Scenario::ALL
            .into_iter()
            .filter(move |scenario| scenario.route_set() == set)
    }

    /// Whether `status` and `body` are the right answer.
    ///
    /// # Errors
    /// What is wrong with the answer.
    pub fn check(self, many: usize, status: u16, body: &[u8]) -> Result<(), String> {
        let text = String::from_utf8_lossy(body);
        // Every peer answers `text/plain`: the bare text, not a JSON string.
        let is_text = |expected: &str| text == expected;
        let boxes = || {
            let expected: crate::Boxes =
                serde_json::from_slice(&crate::boxes_json()).map_err(|err| err.to_string())?;
            let found: crate::Boxes =
                serde_json::from_slice(body).map_err(|err| format!("{err}: {text:.200}"))?;
            if found == expected {
                Ok(())
            } else {
                Err("a different value of { data: IBox3D[100] }".to_owned())
            }
        };
        let (expected_status, ok) = match self {
            Scenario::Plaintext => (
                200,
                is_text(HELLO).then_some(()).ok_or_else(|| text.to_string()),
            ),
            Scenario::Json => (
                200,
                match serde_json::from_slice::<Message>(body) {
                    Ok(message) if message.message == HELLO => Ok(()),
                    _ => Err(text.to_string()),
                },
            ),
            Scenario::Assert => (
                204,
                body.is_empty()
                    .then_some(())
                    .ok_or_else(|| text.to_string()),
            ),
            Scenario::Stringify | Scenario::Performance => (200, boxes()),
            Scenario::ManyStatic | Scenario::OneStatic => (
                200,
                is_text(&many.to_string())
                    .then_some(())
                    .ok_or_else(|| text.to_string()),
            ),
            Scenario::ManyDynamic | Scenario::OneDynamic => (
                200,
                is_text("abc").then_some(()).ok_or_else(|| text.to_string()),
            ),
        };
        if status != expected_status {
            return Err(format!(
                "status {status}, expected {expected_status}: {text:.200}"
            ));
        }
        ok.map_err(|found| format!("wrong body: {found:.200}"))
    }
}

impl fmt::Display for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
