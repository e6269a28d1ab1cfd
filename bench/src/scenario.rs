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
    /// `POST /form`, an HTML form read by `TypedForm`, with the
    /// framework's cross-origin protection on (its default).
    Form,
    /// The same route with the protection off (`CrossOrigin::off()`).
    FormCrossOriginOff,
    /// `GET /json` in an app serving API versions 1.0.0 and 2.0.0: served
    /// by the route of 2.0.0, or for 1.0.0 through its `From` conversion.
    Versions,
}

impl RouteSet {
    /// Every set.
    pub const ALL: [RouteSet; 6] = [
        RouteSet::Main,
        RouteSet::Many,
        RouteSet::One,
        RouteSet::Form,
        RouteSet::FormCrossOriginOff,
        RouteSet::Versions,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            RouteSet::Main => "main",
            RouteSet::Many => "many",
            RouteSet::One => "one",
            RouteSet::Form => "form",
            RouteSet::FormCrossOriginOff => "form-cross-origin-off",
            RouteSet::Versions => "versions",
        }
    }

    /// The set with this name.
    pub fn from_name(name: &str) -> Option<RouteSet> {
        RouteSet::ALL.into_iter().find(|set| set.name() == name)
    }

    /// The static routes' numbers: `/uuid/1` ... `/uuid/N`, or only N.
    pub fn static_routes(self) -> std::ops::Range<usize> {
        match self {
            RouteSet::Main | RouteSet::Form | RouteSet::FormCrossOriginOff | RouteSet::Versions => {
                0..0
            }
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
    /// `POST /form`: a form a browser posts from the app's own page
    /// ([`FORM_BODY`], with `Sec-Fetch-Site: same-origin` and an `Origin`
    /// that is the `Host`), read by `TypedForm` and answered `303`, with
    /// the framework's cross-origin protection on (its default).
    Form,
    /// The same request with the protection off.
    FormCrossOriginOff,
    /// `GET /json` with `api-version: 2.0.0`, to an app serving versions
    /// 1.0.0 and 2.0.0 (the [`Json`](Scenario::Json) route, of 2.0.0 on).
    Versions,
    /// `GET /json` with `api-version: 1.0.0`: the same handler, its answer
    /// converted into version 1's type.
    VersionsConverted,
}

/// The `User-Agent` of the form scenarios' browser.
const BROWSER: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/// The form [`Scenario::Form`] posts: a note's title and text.
pub const FORM_BODY: &str =
    "title=Groceries+for+the+weekend&body=Milk%2C+eggs%2C+bread+and+a+bag+of+apples.";

impl Scenario {
    /// Every scenario.
    pub const ALL: [Scenario; 15] = [
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
        Scenario::Form,
        Scenario::FormCrossOriginOff,
        Scenario::Versions,
        Scenario::VersionsConverted,
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
            Scenario::Form => "form",
            Scenario::FormCrossOriginOff => "form-cross-origin-off",
            Scenario::Versions => "versions",
            Scenario::VersionsConverted => "versions-converted",
        }
    }

    /// The scenario with this name.
    pub fn from_name(name: &str) -> Option<Scenario> {
        Scenario::ALL
            .into_iter()
            .find(|scenario| scenario.name() == name)
    }

    /// The routes the server needs.
    pub fn route_set(self) -> RouteSet {
        match self {
            Scenario::ManyStatic | Scenario::ManyDynamic => RouteSet::Many,
            Scenario::OneStatic | Scenario::OneDynamic => RouteSet::One,
            Scenario::Form => RouteSet::Form,
            Scenario::FormCrossOriginOff => RouteSet::FormCrossOriginOff,
            Scenario::Versions | Scenario::VersionsConverted => RouteSet::Versions,
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
            Scenario::Form | Scenario::FormCrossOriginOff => "/form".into(),
            Scenario::Versions | Scenario::VersionsConverted => "/json".into(),
            _ => format!("/{}", self.name()),
        }
    }

    /// The request body's media type, when it has a body.
    pub fn content_type(self) -> Option<&'static str> {
        match self {
            Scenario::Form | Scenario::FormCrossOriginOff => {
                Some("application/x-www-form-urlencoded")
            }
            _ => self.body().map(|_| "application/json"),
        }
    }

    /// The headers a browser adds to the request besides `Host` and the
    /// body's: `host` is the `Host` it is sent with (`127.0.0.1:8080`).
    /// A form posted from the app's own page carries what Chrome sends
    /// with it, and says twice where it comes from: `Sec-Fetch-Site:
    /// same-origin` and an `Origin` whose host is `host`.
    pub fn browser_headers(self, host: &str) -> Vec<(&'static str, String)> {
        match self {
            Scenario::Form | Scenario::FormCrossOriginOff => vec![
                ("Origin", format!("http://{host}")),
                ("Referer", format!("http://{host}/notes/new")),
                ("Sec-Fetch-Site", "same-origin".to_owned()),
                ("Sec-Fetch-Mode", "navigate".to_owned()),
                ("Sec-Fetch-Dest", "document".to_owned()),
                ("Sec-Fetch-User", "?1".to_owned()),
                ("Upgrade-Insecure-Requests", "1".to_owned()),
                ("User-Agent", BROWSER.to_owned()),
                ("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8".to_owned()),
                ("Accept-Language", "en-US,en;q=0.9".to_owned()),
                ("Accept-Encoding", "gzip, deflate, br, zstd".to_owned()),
            ],
            // Not a browser's: the API version an SDK names.
            Scenario::Versions => vec![("api-version", "2.0.0".to_owned())],
            Scenario::VersionsConverted => vec![("api-version", "1.0.0".to_owned())],
            _ => Vec::new(),
        }
    }

    /// The status the same request gets when the browser says it was sent
    /// from another site's page (`Sec-Fetch-Site: cross-site`, a foreign
    /// `Origin`): `403` where the cross-origin protection is on, the usual
    /// answer where it is off; `None` for scenarios that are not forms.
    pub fn cross_site_status(self) -> Option<u16> {
        match self {
            Scenario::Form => Some(403),
            Scenario::FormCrossOriginOff => Some(303),
            _ => None,
        }
    }

    /// The whole HTTP/1.1 request, as sent with `Host: host`.
    pub fn request(self, host: &str, many: usize) -> Vec<u8> {
        let mut head = format!(
            "{} {} HTTP/1.1\r\nHost: {host}\r\n",
            self.method(),
            self.path(many)
        );
        for (name, value) in self.browser_headers(host) {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        let body = self.body();
        if let (Some(body), Some(media_type)) = (&body, self.content_type()) {
            head.push_str(&format!(
                "Content-Type: {media_type}\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        head.push_str("\r\n");
        let mut request = head.into_bytes();
        request.extend(body.unwrap_or_default());
        request
    }

    /// The request body.
    pub fn body(self) -> Option<Vec<u8>> {
        match self {
            Scenario::Assert | Scenario::Performance => Some(crate::scene_json()),
            Scenario::AssertNoConstraints | Scenario::PerformanceNoConstraints => {
                Some(crate::boxes_json())
            }
            Scenario::Form | Scenario::FormCrossOriginOff => Some(FORM_BODY.as_bytes().to_vec()),
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
            Scenario::Form | Scenario::FormCrossOriginOff => crate::invalid::forms(),
            _ => Vec::new(),
        }
    }

    /// The scenarios a route set serves.
    pub fn of(set: RouteSet) -> impl Iterator<Item = Scenario> {
        Scenario::ALL
            .into_iter()
            .filter(move |scenario| scenario.route_set() == set)
    }

    /// The status of the right answer.
    pub fn status(self) -> u16 {
        match self {
            Scenario::Assert | Scenario::AssertNoConstraints => 204,
            Scenario::Form | Scenario::FormCrossOriginOff => 303,
            _ => 200,
        }
    }

    /// Whether `status` and `body` are the right answer.
    ///
    /// # Errors
    /// What is wrong with the answer.
    pub fn check(self, many: usize, status: u16, body: &[u8]) -> Result<(), String> {
        let text = String::from_utf8_lossy(body);
        let expected_status = self.status();
        if status != expected_status {
            return Err(format!(
                "status {status}, expected {expected_status}: {text:.200}"
            ));
        }
        // Every peer answers `text/plain`: the bare text, not a JSON string.
        let is_text = |expected: &str| {
            (text == expected)
                .then_some(())
                .ok_or_else(|| text.to_string())
        };
        let ok = match self {
            Scenario::Plaintext => is_text(HELLO),
            Scenario::Json | Scenario::Versions | Scenario::VersionsConverted => {
                match serde_json::from_slice::<Message>(body) {
                    Ok(message) if message.message == HELLO => Ok(()),
                    _ => Err(text.to_string()),
                }
            }
            Scenario::Assert
            | Scenario::AssertNoConstraints
            | Scenario::Form
            | Scenario::FormCrossOriginOff => is_text(""),
            Scenario::Stringify | Scenario::PerformanceNoConstraints => {
                same_value::<crate::Boxes>(&crate::boxes_json(), body)
            }
            Scenario::Performance => same_value::<crate::Scene>(&crate::scene_json(), body),
            Scenario::ManyStatic | Scenario::OneStatic => is_text(&many.to_string()),
            Scenario::ManyDynamic | Scenario::OneDynamic => is_text("abc"),
        };
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
