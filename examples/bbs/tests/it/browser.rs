//! The pages in headless Chromium against the `bbs` binary: open the list,
//! post through the form, follow the redirect, see a refused form's
//! message at its field, and no script from content runs; the pages work
//! under their `Content-Security-Policy`, which blocks a script injected
//! into them; a form posted from another site's page is refused.
//!
//! Chromium is driven over the DevTools protocol on a pipe
//! (`--remote-debugging-pipe`: commands in on fd 3, answers out on fd 4,
//! each a JSON message ended by a NUL), so the test needs no WebSocket
//! client: a shell maps the child's stdin and stdout onto fds 3 and 4.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, Stdio},
    sync::mpsc::{Receiver, channel},
    time::{Duration, Instant},
};

use serde_json::{Value, json};
use tempfile::TempDir;

use crate::{
    process::{Bbs, tool},
    support::{create_input, send},
};

/// How long one protocol answer may take.
const ANSWER_WITHIN: Duration = Duration::from_secs(30);

/// A headless Chromium with one page, driven over the DevTools protocol.
struct Chromium {
    child: Child,
    commands: ChildStdin,
    messages: Receiver<Value>,
    /// Events read while waiting for an answer, oldest first.
    events: Vec<Value>,
    next_id: u64,
    session: String,
}

impl Chromium {
    fn start(profile: &std::path::Path) -> Chromium {
        // Fails with a clear message when Chromium is not installed.
        drop(tool("chromium", &[], "apt-get install chromium"));
        let mut child = std::process::Command::new("sh")
            .arg("-c")
            .arg(r#"exec "$0" "$@" 3<&0 4>&1 </dev/null >/dev/null"#)
            .arg("chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--remote-debugging-pipe",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let commands = child.stdin.take().unwrap();
        let mut answers = BufReader::new(child.stdout.take().unwrap());
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut message = Vec::new();
            while answers
                .read_until(0, &mut message)
                .is_ok_and(|read| read > 0)
            {
                message.pop();
                if let Ok(value) = serde_json::from_slice(&message) {
                    let _ = sender.send(value);
                }
                message.clear();
            }
        });
        let mut browser = Chromium {
            child,
            commands,
            messages,
            events: Vec::new(),
            next_id: 0,
            session: String::new(),
        };
        let target = browser.call("Target.createTarget", json!({ "url": "about:blank" }));
        let attached = browser.call(
            "Target.attachToTarget",
            json!({ "targetId": target["targetId"], "flatten": true }),
        );
        browser.session = attached["sessionId"].as_str().unwrap().to_owned();
        browser.call("Page.enable", json!({}));
        browser
    }

    /// Sends a command (to the page once attached) and waits for its answer.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut command = json!({ "id": id, "method": method, "params": params });
        if !self.session.is_empty() {
            command["sessionId"] = json!(self.session);
        }
        let mut bytes = serde_json::to_vec(&command).unwrap();
        bytes.push(0);
        self.commands.write_all(&bytes).unwrap();
        self.commands.flush().unwrap();
        loop {
            let message = self.next_message();
            if message["id"] == id {
                assert!(message.get("error").is_none(), "{method}: {message}");
                return message["result"].clone();
            }
            self.events.push(message);
        }
    }

    fn next_message(&self) -> Value {
        self.messages
            .recv_timeout(ANSWER_WITHIN)
            .expect("Chromium answers within 30 s")
    }

    /// Waits for the page's `load` event, fired after `self.events` was
    /// last cleared.
    fn wait_for_load(&mut self) {
        let deadline = Instant::now() + ANSWER_WITHIN;
        let loaded = |event: &Value| event["method"] == "Page.loadEventFired";
        while !self.events.iter().any(loaded) {
            assert!(Instant::now() < deadline, "the page loads within 30 s");
            let message = self.next_message();
            self.events.push(message);
        }
        self.events.clear();
    }

    /// Opens `url` and waits until it has loaded.
    fn open(&mut self, url: &str) {
        self.events.clear();
        self.call("Page.navigate", json!({ "url": url }));
        self.wait_for_load();
    }

    /// Runs `script` in the page (the test's own, not the page's) and
    /// answers its value.
    fn eval(&mut self, script: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({ "expression": script, "returnByValue": true }),
        );
        assert!(
            result.get("exceptionDetails").is_none(),
            "{script}: {result}"
        );
        result["result"]["value"].clone()
    }

    /// Runs `script`, which navigates (a click), and waits for the next page.
    fn eval_and_wait(&mut self, script: &str) {
        self.events.clear();
        self.eval(script);
        self.wait_for_load();
    }

    /// Fills the form fields named in `fields` and submits the form.
    fn submit(&mut self, fields: &[(&str, &str)]) {
        let mut script = String::from("(() => {");
        for (name, value) in fields {
            let selector = json!(format!("[name=\"{name}\"]"));
            script.push_str(&format!(
                "document.querySelector({selector}).value = {};",
                json!(value)
            ));
        }
        script.push_str("document.querySelector('form[method=post] button').click(); })()");
        self.eval_and_wait(&script);
    }

    /// Records, in every page opened from now on, the CSP violations the
    /// page reports (`window.violations`, as `directive blocked-uri`),
    /// from before the page's own script runs.
    fn record_violations(&mut self) {
        self.call(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": "window.violations = []; document.addEventListener('securitypolicyviolation', (event) => window.violations.push(`${event.effectiveDirective} ${event.blockedURI}`));" }),
        );
    }

    /// The HTTP status of the page shown.
    fn status(&mut self) -> Value {
        self.eval("performance.getEntriesByType('navigation')[0].responseStatus")
    }
}

impl Drop for Chromium {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A title and a body that would change the page's title if they ran.
const IMAGE_TITLE: &str = r#"<img src=x onerror="document.title='pwned'">"#;
const SCRIPT_BODY: &str = "<script>document.title='pwned'</script>";

#[test]
fn a_browser_posts_through_the_form_and_runs_no_script_from_content() {
    let dir = TempDir::new().unwrap();
    let server = Bbs::start(&dir);
    let base = format!("http://{}", server.addr);
    let mut browser = Chromium::start(&dir.path().join("chromium-profile"));

    browser.open(&format!("{base}/sections/free"));
    assert_eq!(browser.eval("document.title"), "free · BBS");
    assert_eq!(browser.status(), 200);
    browser.eval_and_wait("document.querySelector('a[href$=\"/new\"]').click()");
    assert_eq!(browser.eval("location.pathname"), "/sections/free/new");

    browser.submit(&[
        ("writer", "Kim"),
        ("title", IMAGE_TITLE),
        ("body", SCRIPT_BODY),
        ("format", "html"),
        ("password", "open sesame"),
    ]);
    let path = browser.eval("location.pathname");
    let path = path.as_str().unwrap().to_owned();
    assert!(
        path.starts_with("/sections/free/") && path.len() == "/sections/free/".len() + 36,
        "the 303 led to the article: {path}"
    );
    assert_eq!(browser.status(), 200);
    assert_article_shows_text(&mut browser);

    browser.open(&format!("{base}/sections/free"));
    let listed = browser.eval("document.querySelector('tbody a').textContent");
    assert_eq!(listed, IMAGE_TITLE, "the list shows the title as text");
    assert_eq!(
        browser.eval("document.querySelectorAll('main img').length"),
        0
    );
    settle_then_assert_title(&mut browser, "free · BBS");

    browser.open(&format!("{base}/sections/free/new"));
    browser.submit(&[
        ("writer", "Kim"),
        ("title", "ab"),
        ("body", "kept"),
        ("password", "open sesame"),
    ]);
    assert_eq!(browser.status(), 400);
    assert_eq!(
        browser.eval("document.getElementById('title-error').textContent"),
        "must be at least 3 and at most 50 characters"
    );
    assert_eq!(
        browser.eval("document.getElementById('title-error').closest('label').htmlFor"),
        "title",
        "the message is at the title field"
    );
    assert_eq!(browser.eval("document.getElementById('title').value"), "ab");
    assert_eq!(
        browser.eval("document.getElementById('body').value"),
        "kept"
    );
    assert_eq!(
        browser.eval("document.querySelectorAll('.error').length"),
        1
    );
    drop(server);
}

/// Waits until `script` evaluates to `expected` in the page.
fn wait_for(browser: &mut Chromium, script: &str, expected: Value) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let found = browser.eval(script);
        if found == expected {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{script}: still {found} after 10 s, waiting for {expected}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The section page follows the section's live feed: an article posted
/// through the JSON API appears at the top of the list, its title and
/// writer as text; an edit changes its title, an erasure removes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_section_page_shows_articles_as_they_arrive() {
    let dir = TempDir::new().unwrap();
    let server = Bbs::start(&dir);
    let addr = server.addr;
    let profile = dir.path().join("chromium-profile");
    let mut browser = tokio::task::block_in_place(|| {
        let mut browser = Chromium::start(&profile);
        browser.open(&format!("http://{addr}/sections/live%20feed"));
        browser
    });
    let rows = "document.querySelectorAll('#articles tbody tr').length";
    assert_eq!(browser.eval(rows), 0);
    assert_eq!(
        browser.eval("document.getElementById('no-articles').hidden"),
        false
    );

    // Posted right after the page was read: the script follows the feed
    // from the listing's position, so it is not missed.
    let mut input = create_input(IMAGE_TITLE);
    input["writer"] = json!("<b>Kim</b>");
    let first = send(addr, "POST", "/bbs/articles/live%20feed", Some(&input)).await;
    assert_eq!(first.status, 201);
    let first = first.json();
    tokio::task::block_in_place(|| {
        wait_for(&mut browser, rows, json!(1));
        assert_eq!(
            browser.eval("document.querySelector('#articles tbody a').textContent"),
            IMAGE_TITLE,
            "the title is text"
        );
        assert_eq!(
            browser.eval("document.querySelector('#articles tbody td:nth-child(2)').textContent"),
            "<b>Kim</b>"
        );
        assert_eq!(
            browser.eval("document.querySelectorAll('main img, main b').length"),
            0
        );
        let href = browser.eval("document.querySelector('#articles tbody a').getAttribute('href')");
        assert_eq!(
            href,
            json!(format!(
                "/sections/live%20feed/{}",
                first["id"].as_str().unwrap()
            ))
        );
        assert_eq!(
            browser.eval("document.getElementById('no-articles').hidden"),
            true
        );
        settle_then_assert_title(&mut browser, "live feed · BBS");
    });

    let second = send(
        addr,
        "POST",
        "/bbs/articles/live%20feed",
        Some(&create_input("Second")),
    )
    .await;
    let second = second.json();
    let path = format!(
        "/bbs/articles/live%20feed/{}",
        first["id"].as_str().unwrap()
    );
    let update = json!({
        "title": "Edited live", "body": "b", "format": "txt", "files": [],
        "password": "correct horse"
    });
    assert_eq!(send(addr, "PUT", &path, Some(&update)).await.status, 200);
    tokio::task::block_in_place(|| {
        wait_for(&mut browser, rows, json!(2));
        wait_for(
            &mut browser,
            "[...document.querySelectorAll('#articles tbody a')].map(a => a.textContent).join('|')",
            json!("Second|Edited live"),
        );
    });
    let erase = json!({ "password": "correct horse" });
    assert_eq!(send(addr, "DELETE", &path, Some(&erase)).await.status, 204);
    tokio::task::block_in_place(|| {
        wait_for(
            &mut browser,
            "[...document.querySelectorAll('#articles tbody tr')].map(tr => tr.dataset.id).join('|')",
            second["id"].clone(),
        );
    });
    drop(browser);
    drop(server);
}

/// The article page of the posted article: title and body as text, no
/// element made from them, the page's title untouched.
fn assert_article_shows_text(browser: &mut Chromium) {
    settle_then_assert_title(browser, &format!("{IMAGE_TITLE} · BBS"));
    assert_eq!(
        browser.eval("document.getElementById('title').textContent"),
        IMAGE_TITLE
    );
    assert_eq!(
        browser.eval("document.getElementById('body').textContent"),
        SCRIPT_BODY
    );
    assert_eq!(
        browser.eval("document.querySelectorAll('main img, main script').length"),
        0
    );
}

/// Gives a would-be `onerror` time to fire, then checks the title.
fn settle_then_assert_title(browser: &mut Chromium, expected: &str) {
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(browser.eval("document.title"), expected, "no script ran");
}

/// The pages run under their `Content-Security-Policy`: their own style
/// and script (allowed by hash) apply and run with no violation, while a
/// script injected into a page, as an element or as an event handler, is
/// blocked by the policy (not only escaped: it is in the page and does not
/// run).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_work_under_their_policy_and_an_injected_script_is_blocked() {
    let dir = TempDir::new().unwrap();
    let server = Bbs::start(&dir);
    let addr = server.addr;
    let page = send(addr, "GET", "/sections/csp", None).await;
    let policy = page.header("content-security-policy").unwrap().to_owned();
    assert!(policy.contains("script-src 'self' 'sha256-"), "{policy}");
    assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    assert!(!policy.contains("unsafe-inline"), "{policy}");
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(page.header("x-frame-options"), Some("DENY"));
    assert_eq!(
        page.header("referrer-policy"),
        Some("strict-origin-when-cross-origin")
    );
    let profile = dir.path().join("chromium-profile");
    let mut browser = tokio::task::block_in_place(|| {
        let mut browser = Chromium::start(&profile);
        browser.record_violations();
        browser.open(&format!("http://{addr}/sections/csp"));
        browser
    });
    tokio::task::block_in_place(|| {
        assert_eq!(browser.eval("window.violations"), json!([]));
        // The inline style applied: `max-width: 46rem`.
        assert_eq!(
            browser.eval("getComputedStyle(document.body).maxWidth"),
            "736px"
        );
    });
    // The inline script runs: it shows an article posted now.
    let posted = send(
        addr,
        "POST",
        "/bbs/articles/csp",
        Some(&create_input("Under the policy")),
    )
    .await;
    assert_eq!(posted.status, 201);
    tokio::task::block_in_place(|| {
        wait_for(
            &mut browser,
            "document.querySelector('#articles tbody a')?.textContent ?? ''",
            json!("Under the policy"),
        );
        browser.eval(
            r#"(() => {
                const script = document.createElement("script");
                script.textContent = "document.title = 'pwned'";
                document.body.append(script);
                document.body.insertAdjacentHTML("beforeend", `<img src="/nothing.png" onerror="document.title = 'pwned'">`);
            })()"#,
        );
        assert_eq!(
            browser.eval(
                "[...document.scripts].filter((s) => s.textContent.includes('pwned')).length"
            ),
            1,
            "the injected script is in the page"
        );
        wait_for(&mut browser, "window.violations.length", json!(2));
        assert_eq!(
            browser.eval("window.violations.map((v) => v.split(' ')[0]).sort()"),
            json!(["script-src-attr", "script-src-elem"])
        );
        settle_then_assert_title(&mut browser, "csp · BBS");
    });
    drop(browser);
    drop(server);
}

/// A page of another origin (here a `data:` page, whose origin is opaque)
/// posting the BBS's form gets `403 cross_origin_request`: the browser
/// says `Sec-Fetch-Site: cross-site`. The BBS's own form posts, as the
/// first test shows.
#[test]
fn a_form_posted_from_another_sites_page_is_refused() {
    let dir = TempDir::new().unwrap();
    let server = Bbs::start(&dir);
    let mut browser = Chromium::start(&dir.path().join("chromium-profile"));
    let form = format!(
        r#"<form method="post" action="http://{}/sections/free/new"><input name="writer" value="Eve"><input name="title" value="Forged"><input name="body" value="x"><input name="password" value="open sesame"><button>Post</button></form>"#,
        server.addr
    );
    browser.open(&format!("data:text/html,{}", form.replace('#', "%23")));
    browser.eval_and_wait("document.querySelector('button').click()");
    assert_eq!(browser.status(), 403);
    let body = browser.eval("document.body.innerText");
    assert!(
        body.as_str().unwrap().contains("cross_origin_request"),
        "{body}"
    );
    browser.open(&format!("http://{}/sections/free", server.addr));
    assert_eq!(
        browser.eval("document.querySelectorAll('#articles tbody tr').length"),
        0,
        "nothing was posted"
    );
    drop(server);
}
