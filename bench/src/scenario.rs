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
    /// `POST /assert`: validate a [`Scene`](crate::Scene) (100 boxes with
    /// ranges, lengths, an e-mail format, `max_items`), answer 204.
    Assert,
    /// `POST /assert-no-constraints`: validate nestia's `{ data:
    /// IBox3D[100] }` (types only), answer 204.
    AssertNoConstraints,
    /// `GET /stringify`: answer `{ data: IBox3D[100] }`.
    Stringify,
    /// `POST /performance`: validate a [`Scene`](crate::Scene) and echo it.
    Performance,
    /// `POST /performance-no-constraints`: validate nestia's `{ data:
    /// IBox3D[100] }` and echo it.
    PerformanceNoConstraints,
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
    pub const ALL: [Scenario; 11] = [
        Scenario::Plaintext,
        Scenario::Json,
        Scenario::Assert,
        Scenario::AssertNoConstraints,
        Scenario::Stringify,
        Scenario::Performance,
        Scenario::PerformanceNoConstraints,
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
            Scenario::AssertNoConstraints => "assert-no-constraints",
            Scenario::Stringify => "stringify",
            Scenario::Performance => "performance",
            Scenario::PerformanceNoConstraints => "performance-no-constraints",
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
        if self.body().is_some() { "POST" } else { "GET" }
    }

    /// The request path; `many` is the number of static routes the server
    /// has (its last is requested).
    pub fn path(self, many: usize) -> String {
        match self {
            Scenario::ManyStatic | Scenario::OneStatic => format!("/uuid/{many}"),
            Scenario::ManyDynamic | Scenario::OneDynamic => "/zzz/abc".into(),
            _ => format!("/{}", self.name()),
        }
    }

    /// The request body.
    pub fn body(self) -> Option<Vec<u8>> {
        match self {
            Scenario::Assert | Scenario::Performance => Some(crate::scene_json()),
            Scenario::AssertNoConstraints | Scenario::PerformanceNoConstraints => {
                Some(crate::boxes_json())
            }
            _ => None,
        }
    }

    /// Bodies the route must refuse (400 or 422), each with what is wrong
    /// with it; none for routes without a body.
    pub fn invalid_bodies(self) -> Vec<(&'static str, Vec<u8>)> {
        match self {
            Scenario::Assert | Scenario::Performance => crate::invalid::scenes(),
            Scenario::AssertNoConstraints | Scenario::PerformanceNoConstraints => {
                crate::invalid::boxes()
            }
            _ => Vec::new(),
        }
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
        let boxes = || same_value::<crate::Boxes>(&crate::boxes_json(), body);
        let scene = || same_value::<crate::Scene>(&crate::scene_json(), body);
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
            Scenario::Assert | Scenario::AssertNoConstraints => (
                204,
                body.is_empty()
                    .then_some(())
                    .ok_or_else(|| text.to_string()),
            ),
            Scenario::Stringify | Scenario::PerformanceNoConstraints => (200, boxes()),
            Scenario::Performance => (200, scene()),
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

/// Whether `body` holds the same value as `expected` (both JSON of `T`).
fn same_value<T: serde::de::DeserializeOwned + PartialEq>(
    expected: &[u8],
    body: &[u8],
) -> Result<(), String> {
    let expected: T = serde_json::from_slice(expected).map_err(|err| err.to_string())?;
    let found: T = serde_json::from_slice(body)
        .map_err(|err| format!("{err}: {:.200}", String::from_utf8_lossy(body)))?;
    if found == expected {
        Ok(())
    } else {
        Err(format!(
            "a different value of {}",
            std::any::type_name::<T>()
        ))
    }
}

impl fmt::Display for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
