//! The kitchen-sink fixture: golden SDKs for every shape the generators
//! map, the TypeScript one driven by node and the Rust one (`kitchen-sdk`,
//! a workspace member) against the fixture over a socket.

#[path = "kitchen/app.rs"]
mod app;
#[path = "fixture/e2e.rs"]
mod e2e;
mod fixture;

use std::path::{Path, PathBuf};

use sdk_gen::{E2eOptions, GeneratedFile, RustOptions, Targets, TypeScriptOptions};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kitchen")
}

/// The generated SDKs are committed under `tests/kitchen/`; `UPDATE_GOLDEN=1`
/// rewrites them.
#[test]
fn golden_sdks() {
    let targets = Targets {
        typescript: Some(TypeScriptOptions {
            package: "@kitchen/sdk".to_owned(),
        }),
        rust: Some(RustOptions {
            package: "kitchen-sdk".to_owned(),
            chrono: true,
        }),
    };
    fixture::check_golden_sdks(&app::app(), &targets, &fixture_dir(), "kitchen");
}

/// The end-to-end tests `sdk-gen e2e` writes for the kitchen, from
/// `tests/kitchen/e2e/`, where they are committed.
fn e2e_files() -> Vec<GeneratedFile> {
    let options = E2eOptions {
        sdk: "../typescript".into(),
    };
    sdk_gen::generate_e2e(app::app().manifest(), &options).unwrap()
}

/// The kitchen's end-to-end tests are committed under `tests/kitchen/e2e/`
/// as generated (a user's would be theirs to edit); `UPDATE_GOLDEN=1`
/// rewrites them.
#[test]
fn golden_e2e_tests() {
    let dir = fixture_dir().join("e2e");
    let files = e2e_files();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        sdk_gen::write_e2e(&dir, &files, true).unwrap();
    }
    let mut stale: Vec<String> = sdk_gen::check(&dir, &files)
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect();
    for entry in std::fs::read_dir(dir.join("features")).unwrap() {
        let path = Path::new("features").join(entry.unwrap().file_name());
        if !files.iter().any(|file| file.path == path) {
            stale.push(format!("no longer generated: {}", path.display()));
        }
    }
    assert!(
        stale.is_empty(),
        "golden e2e tests differ (UPDATE_GOLDEN=1 cargo test -p sdk-gen --test kitchen rewrites them):\n{}",
        stale.join("\n")
    );
}

/// `e2e` writes what is missing and keeps what is there: a test a user has
/// edited survives; `force` replaces it; a route's test whose route is gone
/// is reported, not removed.
#[test]
fn e2e_keeps_files_a_user_has_edited() {
    let dir = tempfile::tempdir().unwrap();
    let files = e2e_files();
    let first = sdk_gen::write_e2e(dir.path(), &files, false).unwrap();
    assert_eq!(first.written.len(), files.len());
    assert!(first.kept.is_empty() && first.orphaned.is_empty());

    let edited = dir.path().join("features/test_api_kitchen_echo.ts");
    std::fs::write(&edited, "// my own test\n").unwrap();
    std::fs::write(dir.path().join("connection.ts"), "// my own host\n").unwrap();
    std::fs::remove_file(dir.path().join("bench.ts")).unwrap();
    let gone = dir.path().join("features/test_api_kitchen_gone.ts");
    std::fs::write(&gone, "// a route that was removed\n").unwrap();

    let again = sdk_gen::write_e2e(dir.path(), &files, false).unwrap();
    assert_eq!(again.written, [PathBuf::from("bench.ts")]);
    assert_eq!(
        again.kept,
        [
            PathBuf::from("connection.ts"),
            PathBuf::from("features/test_api_kitchen_echo.ts")
        ]
    );
    assert_eq!(
        again.orphaned,
        [PathBuf::from("features/test_api_kitchen_gone.ts")]
    );
    assert_eq!(again.current.len(), files.len() - 3);
    assert_eq!(
        std::fs::read_to_string(&edited).unwrap(),
        "// my own test\n"
    );

    let forced = sdk_gen::write_e2e(dir.path(), &files, true).unwrap();
    assert_eq!(forced.replaced.len(), 2);
    assert!(sdk_gen::check(dir.path(), &files).unwrap().is_empty());
    assert!(gone.exists(), "e2e never removes a file");
}

fn served() -> (std::net::SocketAddr, tokio::task::JoinHandle<()>) {
    fixture::serve(app::app())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_sdk_round_trips_every_shape() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    fixture::compile_typescript("tests/kitchen/test/tsconfig.json");
    let (addr, task) = served();
    let scripts = workspace.join("target/kitchen-typescript/test");
    let output = tokio::task::spawn_blocking(move || {
        std::process::Command::new("node")
            // Node 20 has a global WebSocket only with this flag (22 has it
            // always); the flag is passed on to each test file's process.
            .arg("--experimental-websocket")
            // A socket a failed test leaves open must not keep node alive.
            .arg("--test-force-exit")
            .arg("--test")
            .arg(scripts.join("e2e.test.js"))
            .arg(scripts.join("parity.test.js"))
            .env("KITCHEN_URL", format!("http://{addr}"))
            .env("KITCHEN_CORPUS", fixture_dir().join("parity.json"))
            .env("KITCHEN_STRINGS", fixture_dir().join("strings.json"))
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        report.contains("# pass 40") && report.contains("# fail 0"),
        "{report}"
    );
    // The generated end-to-end suite, compiled with the tests above, against
    // the same server.
    let suite = workspace.join("target/kitchen-typescript/e2e");
    tokio::task::spawn_blocking(move || generated_suite(&suite, addr))
        .await
        .unwrap();
    task.abort();
}

/// The kitchen's generated end-to-end suite passes against its server (the
/// WebSocket route skipped, saying why), its load runner reports every
/// other route, and an answer of the wrong shape fails both.
fn generated_suite(suite: &Path, addr: std::net::SocketAddr) {
    let credentials = [
        ("E2E_MODERATOR", app::MODERATOR_TOKEN.to_owned()),
        ("E2E_READER", app::READER_TOKEN.to_owned()),
    ];
    let env = [
        [("E2E_HOST", format!("http://{addr}"))].as_slice(),
        &credentials,
    ]
    .concat();
    let (routes, skipped) = e2e::feature_routes(&fixture_dir().join("e2e"));
    let ran = e2e::node_tests(suite, &env, None);
    e2e::assert_passed(&ran, routes.len(), skipped);
    assert!(ran.stdout.contains("# SKIP a WebSocket route"), "{ran}");
    let ran = e2e::bench(suite, &env, "1");
    e2e::assert_bench_report(&ran, &routes);

    let wrong = [
        [("E2E_HOST", format!("http://{}", e2e::wrong_server()))].as_slice(),
        &credentials,
    ]
    .concat();
    let ran = e2e::node_tests(suite, &wrong, Some("test_api_kitchen_streams_sum"));
    assert!(!ran.success, "{ran}");
    for line in [
        "# fail 1\n",
        "PUT /kitchen/streams answered 200 with a body that is not of its type:",
        "$output.size: expected number & Type<\"uint64\">, got nothing",
    ] {
        assert!(ran.stdout.contains(line), "expected `{line}`:\n{ran}");
    }
    let ran = e2e::bench(suite, &wrong, "1");
    assert!(!ran.success, "{ran}");
    assert!(
        ran.stdout
            .contains("POST /kitchen/trees answered 200, which it does not document")
            && !ran.stdout.contains("validation failures: 0\n"),
        "{ran}"
    );
}

/// One value of `tests/kitchen/parity.json` and the server's verdict on it.
/// The node test `test/parity.test.ts` reads the same file and asserts that
/// the TypeScript runtime's `validate` gives the same verdict (issue 14).
#[derive(serde::Deserialize)]
struct ParityEntry {
    /// A kitchen type's name.
    r#type: String,
    /// The value, or (`json`) the text when no value can hold it: a key
    /// written twice.
    value: Option<serde_json::Value>,
    json: Option<String>,
    valid: bool,
    /// Holds an integer beyond 2^53: the TypeScript runtime refuses it
    /// (`& SafeInteger`) instead of rounding it, by design.
    #[serde(default)]
    r#unsafe: bool,
    /// The refusal's issues, `[path, expected]`, when the entry names them.
    issues: Option<Vec<(String, String)>>,
}

impl ParityEntry {
    /// The entry as JSON text.
    fn text(&self) -> String {
        match (&self.value, &self.json) {
            (Some(value), None) => value.to_string(),
            (None, Some(json)) => json.clone(),
            _ => panic!("parity.json: {} needs a value or a json text", self.r#type),
        }
    }
}

fn parity_corpus() -> Vec<ParityEntry> {
    let text = std::fs::read_to_string(fixture_dir().join("parity.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The server's verdict on `json` as the kitchen type `name`: `Ok` or the
/// issues of its `400`.
fn server_verdict(name: &str, json: &str) -> Result<(), Vec<(String, String)>> {
    fn decode<T: framework::Dto>(json: &str) -> Result<(), Vec<(String, String)>> {
        framework::from_json::<T>(json.as_bytes())
            .map(drop)
            .map_err(|err| {
                err.issues()
                    .iter()
                    .map(|issue| (issue.path.clone(), issue.expected.clone()))
                    .collect()
            })
    }
    match name {
        "Limits" => decode::<app::Limits>(json),
        "Tree" => decode::<app::Tree>(json),
        "Command" => decode::<app::Command>(json),
        "Event" => decode::<app::Event>(json),
        "Shape" => decode::<app::Shape>(json),
        "Formats" => decode::<app::Formats>(json),
        "Patterns" => decode::<app::Patterns>(json),
        "Loose" => decode::<app::Loose>(json),
        "Filter" => decode::<app::Filter>(json),
        other => panic!("parity.json: no kitchen type {other}"),
    }
}

/// Whether `json` decodes as the kitchen type `name`, by the server
/// (serde and its shape adapters, before the constraint checks) and by the
/// Rust SDK (`kitchen_sdk::from_json`, how it reads every answer).
fn decoded_by_both(name: &str, json: &str) -> (Result<(), String>, Result<(), String>) {
    fn both<S: framework::Dto, C: serde::de::DeserializeOwned>(
        json: &str,
    ) -> (Result<(), String>, Result<(), String>) {
        let mut deserializer = serde_json::Deserializer::from_str(json);
        let server = <S as serde::Deserialize>::deserialize(framework::__private::tags::KeysOnce(
            &mut deserializer,
        ))
        .and_then(|_| deserializer.end())
        .map_err(|err| err.to_string());
        let client = kitchen_sdk::from_json::<C>(json.as_bytes())
            .map(drop)
            .map_err(|err| err.to_string());
        (server, client)
    }
    use kitchen_sdk as sdk;
    match name {
        "Limits" => both::<app::Limits, sdk::Limits>(json),
        "Tree" => both::<app::Tree, sdk::Tree>(json),
        "Command" => both::<app::Command, sdk::Command>(json),
        "Event" => both::<app::Event, sdk::Event>(json),
        "Shape" => both::<app::Shape, sdk::Shape>(json),
        "Formats" => both::<app::Formats, sdk::Formats>(json),
        "Patterns" => both::<app::Patterns, sdk::Patterns>(json),
        "Loose" => both::<app::Loose, sdk::Loose>(json),
        "Filter" => both::<app::Filter, sdk::Filter>(json),
        other => panic!("parity.json: no kitchen type {other}"),
    }
}

/// The Rust SDK reads what the server reads and refuses what it refuses
/// (issue 23, item 8): a struct written as an array, a unit variant with
/// content, a key written twice at any depth, while `1.0` is an integer
/// for both. Constraints (`minimum`, `pattern` ...) are the server's to
/// check: the SDK must refuse what the server's decoding refuses, and may
/// refuse more only what the server's checks refuse too (a chrono date
/// reads its format). A property the type does not declare is one
/// difference by design: an answer may gain fields without breaking older
/// clients.
#[test]
fn the_rust_sdk_decodes_the_parity_corpus_as_the_server_does() {
    let mut wrong = Vec::new();
    let mut refused = 0;
    for entry in parity_corpus() {
        let json = entry.text();
        let (server, client) = decoded_by_both(&entry.r#type, &json);
        if matches!(&server, Err(reason) if reason.starts_with("unknown field")) {
            continue;
        }
        refused += usize::from(server.is_err());
        let looser = server.is_err() && client.is_ok();
        let stricter = client.is_err() && server_verdict(&entry.r#type, &json).is_ok();
        if looser || stricter {
            wrong.push(format!(
                "{} {json}: server {server:?}, SDK {client:?}",
                entry.r#type
            ));
        }
    }
    assert!(refused >= 10, "the corpus holds shapes the server refuses");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_server_gives_the_parity_corpus_verdicts() {
    let mut wrong = Vec::new();
    for entry in parity_corpus() {
        let json = entry.text();
        let verdict = server_verdict(&entry.r#type, &json);
        let fits = match (&verdict, entry.valid, &entry.issues) {
            (Ok(()), true, _) => true,
            (Err(found), false, Some(issues)) => found == issues,
            (Err(_), false, None) => true,
            _ => false,
        };
        if !fits {
            wrong.push(format!(
                "{} {json} (valid: {}, unsafe: {}): {verdict:?}",
                entry.r#type, entry.valid, entry.r#unsafe
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The kitchen's generated decoders (issue 25) agree with the reference
/// decoder on every entry of the parity corpus, and on random, broken and
/// mutated values of each type that has one; unions and generic types are
/// read by serde alone.
#[test]
fn the_generated_decoders_agree_with_the_reference_on_the_parity_corpus() {
    fn agree<T: framework::Dto + std::fmt::Debug + PartialEq>(
        json: &str,
    ) -> Option<Result<(), String>> {
        T::json_decoder().map(|_| framework::testing::check_decoders::<T>(json.as_bytes()))
    }
    let mut compared = 0;
    let mut wrong = Vec::new();
    for entry in parity_corpus() {
        let json = entry.text();
        let verdict = match entry.r#type.as_str() {
            "Limits" => agree::<app::Limits>(&json),
            "Tree" => agree::<app::Tree>(&json),
            "Command" => agree::<app::Command>(&json),
            "Event" => agree::<app::Event>(&json),
            "Shape" => agree::<app::Shape>(&json),
            "Formats" => agree::<app::Formats>(&json),
            "Patterns" => agree::<app::Patterns>(&json),
            "Loose" => agree::<app::Loose>(&json),
            "Filter" => agree::<app::Filter>(&json),
            other => panic!("parity.json: no kitchen type {other}"),
        };
        compared += usize::from(verdict.is_some());
        if let Some(Err(err)) = verdict {
            wrong.push(format!("{}: {err}", entry.r#type));
        }
    }
    assert!(
        compared >= 20,
        "only {compared} entries have a generated decoder"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    for seed in 0..32 {
        for result in [
            framework::testing::check_decoders_from_seed::<app::Limits>(seed, 32),
            framework::testing::check_decoders_from_seed::<app::Tree>(seed, 32),
            framework::testing::check_decoders_from_seed::<app::Formats>(seed, 32),
            framework::testing::check_decoders_from_seed::<app::Patterns>(seed, 32),
            framework::testing::check_decoders_from_seed::<app::Filter>(seed, 32),
        ] {
            if let Err(err) = result {
                panic!("seed {seed}: {err}");
            }
        }
    }
}

#[tokio::test]
async fn the_rust_sdk_round_trips_every_shape() {
    use kitchen_sdk::{
        Client, Command, Event, Everything, Filter, Loose, Search, Shape, Tenant, Tree,
    };

    let (addr, task) = served();
    let client = Client::new(format!("http://{addr}"));
    let leaf = |label: &str| Tree {
        label: label.to_owned(),
        children: Vec::new(),
        only: None,
    };
    let base = Everything {
        shape: Shape::Circle { radius: 1.5 },
        event: Event::Started,
        command: Command::Stop,
        loose: Loose::Number(2.5),
        tree: Tree {
            label: "root ✓".to_owned(),
            children: vec![leaf("leaf")],
            only: Some(Box::new(leaf("only"))),
        },
        scores: [("a b".to_owned(), -3), ("ünï".to_owned(), i64::MAX)].into(),
        big_number: u64::MAX,
        small: -10,
        nullable: None,
        absent: None,
        both: None,
        defaulted: None,
        when: "2026-11-30T04:20:11.123+09:00".parse().unwrap(),
        anything: serde_json::json!({ "nested": [1, "two", null] }),
    };
    let variants = [
        Everything {
            shape: Shape::Square { side: 2.0 },
            event: Event::Renamed("new ✓".to_owned()),
            command: Command::Say("hi".to_owned()),
            loose: Loose::Text("text".to_owned()),
            ..base.clone()
        },
        Everything {
            shape: Shape::Dot,
            event: Event::Moved { x: -1, y: 2 },
            command: Command::Go { speed: 255 },
            loose: Loose::Pair { a: true, b: false },
            nullable: Some("present".to_owned()),
            absent: Some(7),
            both: Some(None),
            ..base.clone()
        },
        Everything {
            both: Some(Some("text".to_owned())),
            defaulted: Some(5),
            ..base.clone()
        },
    ];
    for input in std::iter::once(base.clone()).chain(variants) {
        let output = client.kitchen().echo(&input).await.unwrap();
        let expected = Everything {
            defaulted: Some(input.defaulted.unwrap_or(0)),
            ..input.clone()
        };
        assert_eq!(output, expected);
    }

    let filter = Filter {
        page: Some(2),
        search: Some(Search {
            writer: Some("kim & lee".to_owned()),
            title: Some("a=b?c#d[0]".to_owned()),
        }),
        tags: Some(vec!["x y".to_owned(), "ü".to_owned(), "+plus".to_owned()]),
        counts: Some([("a b".to_owned(), 1), ("ü&=".to_owned(), 2)].into()),
    };
    assert_eq!(client.kitchen().query(&filter).await.unwrap(), filter);
    // A key the server would read as nesting is refused before sending.
    let bracketed = Filter {
        counts: Some([("a[b]".to_owned(), 1)].into()),
        ..filter.clone()
    };
    let err = client.kitchen().query(&bracketed).await.unwrap_err();
    assert!(
        matches!(&err, kitchen_sdk::Error::Encode(message) if message.contains("a[b]")),
        "{err:?}"
    );
    let tenant = Tenant {
        x_tenant_id: 7,
        x_label: Some(vec!["a".to_owned(), "b c".to_owned()]),
    };
    assert_eq!(client.kitchen().headers(&tenant).await.unwrap(), tenant);
    // What the server would refuse or read otherwise is refused before sending.
    for (label, expected) in [
        ("ü", "visible ASCII text"),
        ("a ", "text without white space at either end"),
        ("a,b", "a list item without a comma"),
    ] {
        let tenant = Tenant {
            x_tenant_id: 7,
            x_label: Some(vec!["ok".to_owned(), label.to_owned()]),
        };
        let err = client.kitchen().headers(&tenant).await.unwrap_err();
        assert!(
            matches!(&err, kitchen_sdk::Error::Encode(message) if message.contains(expected)),
            "{label:?}: {err:?}"
        );
    }
    assert_eq!(
        client.kitchen().numbers().number(1 << 60).await.unwrap(),
        1 << 60
    );
    let err = client
        .kitchen()
        .query(&Filter {
            page: Some(0),
            search: None,
            tags: None,
            counts: None,
        })
        .await
        .unwrap_err();
    assert_eq!(
        err.problem().map(|problem| problem.code.as_str()),
        Some("invalid_query")
    );
    task.abort();
}

#[tokio::test]
async fn the_rust_sdk_sends_and_reads_every_kind() {
    use kitchen_sdk::{
        Bytes, Client, Created, Error, Filter, Job, Redirect, Search, Session, Ticket, Tree,
        answers::KitchenJobsJob,
    };

    let (addr, task) = served();
    let base = format!("http://{addr}");
    let client = Client::new(&base);
    let kitchen = client.kitchen();

    let filter = Filter {
        page: Some(2),
        search: Some(Search {
            writer: Some("kim & lee".to_owned()),
            title: Some("a=b?c#d[0]".to_owned()),
        }),
        tags: Some(vec!["x y".to_owned(), "ü".to_owned()]),
        counts: Some([("one".to_owned(), 1)].into()),
    };
    assert_eq!(kitchen.forms().form(&filter).await.unwrap(), filter);
    let bracketed = Filter {
        counts: Some([("]".to_owned(), 1)].into()),
        ..filter.clone()
    };
    assert!(matches!(
        kitchen.forms().form(&bracketed).await,
        Err(Error::Encode(_))
    ));
    let refused = kitchen
        .forms()
        .form(&Filter {
            page: Some(0),
            search: None,
            tags: None,
            counts: None,
        })
        .await
        .unwrap_err();
    let paths: Vec<&str> = refused
        .problem()
        .unwrap()
        .errors
        .iter()
        .map(|issue| issue.path.as_str())
        .collect();
    assert_eq!(paths, ["$input.page"]);

    let shouted: String = kitchen.text().shout("héllo ✓").await.unwrap();
    assert_eq!(shouted, "HÉLLO ✓");

    // `operation_id = "signIn"` names the function; the app's `/api` is
    // left out of the namespaces.
    let welcome: String = client.accounts().sign_in("ada").await.unwrap();
    assert_eq!(welcome, "welcome ada");
    assert_eq!(
        client.accounts().profile("ada").await.unwrap(),
        "profile of ada"
    );

    let reversed: Bytes = kitchen.bytes().reverse(vec![0u8, 1, 255]).await.unwrap();
    assert_eq!(reversed.as_ref(), [255, 1, 0]);
    assert!(
        kitchen
            .bytes()
            .reverse(Bytes::new())
            .await
            .unwrap()
            .is_empty()
    );

    let session = Session {
        sid: "a b;c=d,ü".to_owned(),
        theme: Some("dark".to_owned()),
    };
    assert_eq!(kitchen.cookies(&session).await.unwrap(), session);
    let refused = kitchen
        .cookies(&Session {
            sid: String::new(),
            theme: None,
        })
        .await
        .unwrap_err();
    assert_eq!(refused.problem().unwrap().errors[0].path, "$cookies.sid");

    let missing = kitchen.moderation().erase(7).await.unwrap_err();
    assert!(
        matches!(
            missing,
            Error::MissingCredential {
                scheme: "moderator"
            }
        ),
        "{missing}"
    );
    let wrong = Client::builder(&base).moderator_token("guess").build();
    let refused = wrong.kitchen().moderation().erase(7).await.unwrap_err();
    assert_eq!(refused.status(), Some(401));
    assert_eq!(refused.problem().unwrap().code, "unauthorized");
    let moderator = Client::builder(&base)
        .moderator_token(app::MODERATOR_TOKEN)
        .build();
    moderator.kitchen().moderation().erase(7).await.unwrap();
    let absent = moderator.kitchen().moderation().erase(0).await.unwrap_err();
    assert_eq!(absent.status(), Some(404));
    assert!(!format!("{moderator:?}").contains(app::MODERATOR_TOKEN));

    // `Authorization: Token <token>`: the client is given the bare token.
    let missing = kitchen.reading().read().await.unwrap_err();
    assert!(
        matches!(missing, Error::MissingCredential { scheme: "reader" }),
        "{missing}"
    );
    let wrong = Client::builder(&base).reader_token("guess").build();
    let refused = wrong.kitchen().reading().read().await.unwrap_err();
    assert_eq!(refused.status(), Some(401));
    assert_eq!(refused.problem().unwrap().code, "unauthorized");
    let reader = Client::builder(&base)
        .reader_token(app::READER_TOKEN)
        .build();
    assert_eq!(reader.kitchen().reading().read().await.unwrap(), "read");

    let path = "a b/ünï/c.txt";
    let file = kitchen.files().file(path).await.unwrap();
    assert_eq!(file.body.as_ref(), path.as_bytes());
    assert_eq!(
        file.header("content-disposition"),
        Some("attachment; filename=\"path.txt\"")
    );

    let redirect = kitchen.go("x/y").await.unwrap();
    assert_eq!(
        redirect,
        Redirect {
            status: 303,
            location: "/kitchen/files/x/y".to_owned()
        }
    );

    let tree = Tree {
        label: "oak".to_owned(),
        children: vec![Tree {
            label: "twig".to_owned(),
            children: Vec::new(),
            only: None,
        }],
        only: None,
    };
    assert_eq!(
        kitchen.trees().plant(&tree).await.unwrap(),
        Created {
            location: "/kitchen/trees/1".to_owned(),
            body: tree
        }
    );

    assert_eq!(
        kitchen.jobs().job(2).await.unwrap(),
        KitchenJobsJob::Done(Job { id: 2 })
    );
    assert_eq!(
        kitchen.jobs().job(3).await.unwrap(),
        KitchenJobsJob::Queued(Ticket {
            id: 3,
            poll: "/kitchen/jobs/3".to_owned()
        })
    );
    task.abort();
}

/// `sdk = false` routes are in the manifest and in neither SDK.
#[test]
fn routes_left_out_of_the_sdks_are_not_generated() {
    let manifest = app::app().manifest().clone();
    let page = manifest
        .routes
        .iter()
        .find(|route| route.handler == "page")
        .unwrap();
    assert!(!page.sdk);
    let targets = Targets {
        typescript: Some(TypeScriptOptions {
            package: "@kitchen/sdk".to_owned(),
        }),
        rust: Some(RustOptions {
            package: "kitchen-sdk".to_owned(),
            chrono: true,
        }),
    };
    for sdk in sdk_gen::generate(&manifest, &targets).unwrap() {
        for file in &sdk.files {
            assert!(
                !file.contents.contains("/kitchen/page"),
                "{}: {}",
                sdk.dir_name,
                file.path.display()
            );
        }
    }
}

/// The ```ts blocks of a file's doc comments.
fn doc_examples(source: &str) -> Vec<String> {
    let mut examples = Vec::new();
    let mut current: Option<String> = None;
    for line in source.lines() {
        let text = line.trim_start().trim_start_matches('*');
        let text = text.strip_prefix(' ').unwrap_or(text);
        match (&mut current, text.trim()) {
            (None, "```ts") => current = Some(String::new()),
            (Some(_), "```") => examples.extend(current.take()),
            (Some(example), _) => {
                example.push_str(text);
                example.push('\n');
            }
            (None, _) => {}
        }
    }
    examples
}

/// The examples in the generated TypeScript docs compile, for the kitchen,
/// the BBS (a type named through the default export, `api.IConnection`,
/// once did not) and the app with an error contract (`err.data`).
#[test]
fn the_typescript_doc_examples_compile() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let tsc = workspace.join("examples/bbs/sdk/typescript/node_modules/typescript/bin/tsc");
    assert!(
        tsc.exists(),
        "TypeScript is not installed: run `npm ci` in examples/bbs/sdk/typescript"
    );
    let dir = workspace.join("target/sdk-doc-examples");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let sdks = [
        ("sdk-gen/tests/kitchen/typescript", "@kitchen/sdk"),
        ("examples/bbs/sdk/typescript", "@bbs/sdk"),
        ("sdk-gen/tests/contract/typescript", "@contract/sdk"),
    ];
    let mut count = 0;
    for (sdk, package) in sdks {
        let index = std::fs::read_to_string(workspace.join(sdk).join("src/index.ts")).unwrap();
        let examples = doc_examples(&index);
        assert!(!examples.is_empty(), "{sdk}/src/index.ts shows no example");
        for example in examples {
            let import = format!("\"../../{sdk}/src/index.js\"");
            let example = example.replace(&format!("\"{package}\""), &import);
            assert!(
                example.contains(&import),
                "{sdk}: the example does not import {package}"
            );
            count += 1;
            std::fs::write(dir.join(format!("example{count}.mts")), example).unwrap();
        }
    }
    let config = serde_json::json!({
        "extends": workspace.join("sdk-gen/tests/kitchen/typescript/tsconfig.json"),
        "compilerOptions": { "noEmit": true, "declaration": false, "rootDir": workspace },
        "include": ["*.mts"],
    });
    std::fs::write(dir.join("tsconfig.json"), config.to_string()).unwrap();
    let compile = std::process::Command::new("node")
        .arg(&tsc)
        .args(["-p", "tsconfig.json"])
        .current_dir(&dir)
        .output()
        .expect("node runs (install Node.js 18+)");
    assert!(
        compile.status.success(),
        "the doc examples do not compile:\n{}{}",
        String::from_utf8_lossy(&compile.stdout),
        String::from_utf8_lossy(&compile.stderr)
    );
}

/// `tests/kitchen/strings.json`: for every string format and every pattern
/// of the fixture, strings the server and the TypeScript runtime must both
/// accept or both refuse. The node test `test/parity.test.ts` reads it too.
#[derive(serde::Deserialize)]
struct StringCorpus {
    formats: std::collections::BTreeMap<String, Verdicts>,
    patterns: std::collections::BTreeMap<String, PatternVerdicts>,
    headers: HeaderCorpus,
}

/// Items of a header list: read as sent, or refused (or read otherwise) by
/// the server and refused by both SDKs before sending.
#[derive(serde::Deserialize)]
struct HeaderCorpus {
    sent: Vec<String>,
    refused: Vec<String>,
}

#[derive(serde::Deserialize)]
struct Verdicts {
    valid: Vec<String>,
    invalid: Vec<String>,
}

#[derive(serde::Deserialize)]
struct PatternVerdicts {
    pattern: String,
    #[serde(flatten)]
    verdicts: Verdicts,
}

fn string_corpus() -> StringCorpus {
    let text = std::fs::read_to_string(fixture_dir().join("strings.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The verdicts of `verdicts` that the server does not give to `{field: s}`
/// as the kitchen type `name`.
/// The header items of `strings.json` (issue 23, item 7): those the server
/// reads as sent go through the Rust SDK and come back unchanged; the
/// others the SDK refuses before sending, and the server, sent them raw,
/// refuses them or reads something else (HTTP itself cannot carry some).
/// `test/e2e.test.ts` holds the TypeScript runtime to the same corpus.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn header_items_are_read_as_sent_or_refused_before_sending() {
    use kitchen_sdk::{Client, Error, Tenant};

    let corpus = string_corpus().headers;
    let (addr, task) = served();
    let client = Client::new(format!("http://{addr}"));
    let raw = reqwest::Client::new();
    let tenant = |label: &str| Tenant {
        x_tenant_id: 7,
        x_label: Some(vec![label.to_owned()]),
    };
    let mut wrong = Vec::new();
    for label in &corpus.sent {
        match client.kitchen().headers(&tenant(label)).await {
            Ok(echo) if echo == tenant(label) => {}
            other => wrong.push(format!("sent {label:?}: {other:?}")),
        }
    }
    for label in &corpus.refused {
        let sent = client.kitchen().headers(&tenant(label)).await;
        if !matches!(sent, Err(Error::Encode(_))) {
            wrong.push(format!("the SDK sent {label:?}: {sent:?}"));
        }
        let Ok(value) = reqwest::header::HeaderValue::from_bytes(label.as_bytes()) else {
            continue;
        };
        let answer = raw
            .get(format!("http://{addr}/kitchen/headers"))
            .header("x-tenant-id", "7")
            .header("x-label", value)
            .send()
            .await
            .unwrap();
        if answer.status() == 200 {
            let echo: serde_json::Value =
                serde_json::from_str(&answer.text().await.unwrap()).unwrap();
            if echo["x-label"] == serde_json::json!([label]) {
                wrong.push(format!("the server read {label:?} as sent"));
            }
        }
    }
    task.abort();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The SDK's default features include `tls` (rustls): a client built as
/// the docs show speaks TLS to an `https://` host. The host here is a
/// socket that records the first byte it is sent: a TLS handshake record
/// (`0x16`), where a client without TLS would send nothing at all.
#[tokio::test]
async fn the_rust_sdk_speaks_tls_to_https_hosts_by_default() {
    use tokio::io::AsyncReadExt;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let first = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut byte = [0u8; 1];
        socket.read_exact(&mut byte).await.unwrap();
        byte[0]
    });
    let client = kitchen_sdk::Client::new(format!("https://{addr}"));
    let err = client.kitchen().numbers().number(1).await.unwrap_err();
    assert!(matches!(err, kitchen_sdk::Error::Transport(_)), "{err:?}");
    assert_eq!(first.await.unwrap(), 0x16, "a TLS ClientHello");
}

/// The kitchen's Rust SDK is generated with `chrono` (`RustOptions`):
/// `date-time` and `date` strings are chrono's types, and every one the
/// server's format accepts decodes as the same instant or day; the wire
/// form stays the text.
#[test]
fn chrono_types_read_every_date_the_server_accepts() {
    fn decodes<T: serde::de::DeserializeOwned + serde::Serialize>(
        texts: &[String],
        wrong: &mut Vec<String>,
    ) {
        for text in texts {
            let json = serde_json::to_string(text).unwrap();
            match kitchen_sdk::from_json::<T>(json.as_bytes()) {
                Ok(value) => {
                    let again = serde_json::to_string(&value).unwrap();
                    if kitchen_sdk::from_json::<T>(again.as_bytes()).is_err() {
                        wrong.push(format!("{text}: written back as {again}"));
                    }
                }
                Err(err) => wrong.push(format!("{text}: {err}")),
            }
        }
    }
    let corpus = string_corpus();
    let mut wrong = Vec::new();
    decodes::<chrono::DateTime<chrono::FixedOffset>>(
        &corpus.formats["date-time"].valid,
        &mut wrong,
    );
    decodes::<chrono::NaiveDate>(&corpus.formats["date"].valid, &mut wrong);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let everything = include_str!("kitchen/rust/src/types.rs");
    assert!(everything.contains("pub when: chrono::DateTime<chrono::FixedOffset>,"));
}

fn wrong_verdicts(name: &str, field: &str, verdicts: &Verdicts) -> Vec<String> {
    let cases = verdicts
        .valid
        .iter()
        .map(|text| (text, true))
        .chain(verdicts.invalid.iter().map(|text| (text, false)));
    cases
        .filter_map(|(text, valid)| {
            let json = serde_json::json!({ field: text }).to_string();
            let verdict = server_verdict(name, &json);
            (verdict.is_ok() != valid)
                .then(|| format!("{field} {text:?} (valid: {valid}): {verdict:?}"))
        })
        .collect()
}

#[test]
fn the_server_gives_the_string_corpus_verdicts() {
    let corpus = string_corpus();
    let mut wrong = Vec::new();
    for format in framework::schema::Format::ALL {
        let Some(verdicts) = corpus.formats.get(format.name()) else {
            wrong.push(format!(
                "strings.json has no entry for the format {}",
                format.name()
            ));
            continue;
        };
        let field = format.name().replace('-', "_");
        wrong.extend(wrong_verdicts("Formats", &field, verdicts));
    }
    assert_eq!(corpus.formats.len(), framework::schema::Format::ALL.len());
    let manifest = serde_json::to_value(app::app().manifest()).unwrap();
    let patterns = manifest["types"]
        .as_array()
        .unwrap()
        .iter()
        .find(|named| named["name"] == "Patterns")
        .expect("the manifest has Patterns")
        .to_string();
    assert!(
        patterns.contains(r#""server_check":"palindrome""#),
        "the manifest names the server-only check: {patterns}"
    );
    for (field, entry) in &corpus.patterns {
        let written = serde_json::to_string(&entry.pattern).unwrap();
        assert!(
            patterns.contains(&written),
            "strings.json's pattern for {field}, {written}, is not the fixture's"
        );
        wrong.extend(wrong_verdicts("Patterns", field, &entry.verdicts));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Server-sent events through the Rust SDK: typed events as they arrive,
/// names, ids, a multi-line note framed and read back, resumption with
/// `Last-Event-ID`, and a refused query as the API's 400.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rust_sdk_reads_server_sent_events() {
    use futures_util::StreamExt;
    use kitchen_sdk::{Client, Error, TickCount};

    let (addr, task) = served();
    let client = Client::new(format!("http://{addr}"));
    let events: Vec<_> = client
        .kitchen()
        .ticks(&TickCount { count: 3 }, None)
        .await
        .unwrap()
        .collect()
        .await;
    let events: Vec<_> = events.into_iter().map(Result::unwrap).collect();
    assert_eq!(events.len(), 3);
    for (index, event) in events.iter().enumerate() {
        let n = index as u64 + 1;
        assert_eq!((event.data.n, event.event.as_str()), (n, "tick"));
        assert_eq!(event.id, n.to_string());
        assert_eq!(event.data.note, format!("tick {n}\nof 3"));
    }
    let rest: Vec<_> = client
        .kitchen()
        .ticks(&TickCount { count: 4 }, Some("2"))
        .await
        .unwrap()
        .map(|event| event.unwrap().data.n)
        .collect()
        .await;
    assert_eq!(rest, [3, 4]);
    let refused = client
        .kitchen()
        .ticks(&TickCount { count: 101 }, None)
        .await;
    let refused_id = client
        .kitchen()
        .ticks(&TickCount { count: 3 }, Some(" 2"))
        .await;
    assert!(
        matches!(&refused_id, Err(Error::Encode(_))),
        "{:?}",
        refused_id.err()
    );
    assert!(
        matches!(&refused, Err(Error::Api { status: 400, .. })),
        "{:?}",
        refused.err()
    );
    task.abort();
}

/// `reconnecting` through the Rust SDK: a stream broken by a transport
/// error is opened again after the last event read (nothing missed or read
/// twice), a refusal ends it without a retry, and failures in a row stop
/// once the attempts run out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rust_sdk_reconnects_event_streams() {
    use futures_util::{StreamExt, stream};
    use kitchen_sdk::{Client, Error, EventStream, Reconnect, Tick, TickCount, reconnecting};
    use std::sync::{Arc, Mutex};

    let (addr, task) = served();
    let client = Client::new(format!("http://{addr}"));
    // Nothing listens there: its error is a real transport error.
    let dead = Client::new("http://127.0.0.1:9");
    let quick = Reconnect::default().delay(std::time::Duration::from_millis(1));
    let opened: Arc<Mutex<Vec<Option<String>>>> = Arc::default();
    let seen = opened.clone();
    let (client, dead) = (&client, &dead);
    let events = reconnecting(
        move |last: Option<String>| {
            let first = {
                let mut opened = seen.lock().unwrap();
                opened.push(last.clone());
                opened.len() == 1
            };
            async move {
                let events = client
                    .kitchen()
                    .ticks(&TickCount { count: 3 }, last.as_deref())
                    .await?;
                if !first {
                    return Ok(events);
                }
                // The first connection breaks after its first event.
                let broken = dead
                    .kitchen()
                    .ticks(&TickCount { count: 3 }, None)
                    .await
                    .err()
                    .unwrap();
                let events: EventStream<Tick> = Box::pin(
                    events
                        .take(1)
                        .chain(stream::once(async move { Err(broken) })),
                );
                Ok(events)
            }
        },
        quick.clone(),
    );
    let ns: Vec<u64> = events
        .take(3)
        .map(|event| event.unwrap().data.n)
        .collect()
        .await;
    assert_eq!(ns, [1, 2, 3], "nothing missed or read twice");
    assert_eq!(*opened.lock().unwrap(), [None, Some("1".to_owned())]);

    let calls = Arc::new(Mutex::new(0));
    let counted = calls.clone();
    let refused: Vec<_> = reconnecting(
        move |_| {
            *counted.lock().unwrap() += 1;
            async move {
                client
                    .kitchen()
                    .ticks(&TickCount { count: 101 }, None)
                    .await
            }
        },
        quick.clone(),
    )
    .collect()
    .await;
    assert!(matches!(
        refused.as_slice(),
        [Err(Error::Api { status: 400, .. })]
    ));
    assert_eq!(*calls.lock().unwrap(), 1, "a 4xx is not retried");

    *calls.lock().unwrap() = 0;
    let counted = calls.clone();
    let down: Vec<_> = reconnecting(
        move |_| {
            *counted.lock().unwrap() += 1;
            async move { dead.kitchen().ticks(&TickCount { count: 3 }, None).await }
        },
        quick.attempts(3),
    )
    .collect()
    .await;
    assert!(matches!(down.as_slice(), [Err(Error::Transport(_))]));
    assert_eq!(
        *calls.lock().unwrap(),
        3,
        "retried until the attempts run out"
    );
    task.abort();
}

/// A WebSocket route through the Rust SDK: typed messages both ways, the
/// server's closes (1007 for a refused message, 1009 for a long one, 1000
/// when the chat ends) and a refused handshake as the route's 400.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rust_sdk_chats_over_a_websocket() {
    use kitchen_sdk::{ChatEcho, ChatJoin, ChatLine, Client, Error, Tenant};

    let (addr, task) = served();
    let client = Client::new(format!("http://{addr}"));
    let join = ChatJoin {
        nick: "kim".to_owned(),
    };
    let tenant = Tenant {
        x_tenant_id: 7,
        x_label: None,
    };
    let line = |text: &str, aside: Option<&str>| ChatLine {
        text: text.to_owned(),
        aside: aside.map(str::to_owned),
    };
    let mut socket = client
        .kitchen()
        .chat("lobby ✓", &tenant, &join)
        .await
        .unwrap();
    socket.send(&line("hello", None)).await.unwrap();
    socket.send(&line("there", Some("quietly"))).await.unwrap();
    for (seq, text) in [(1, "hello"), (2, "there")] {
        let echo = socket.recv().await.unwrap().unwrap();
        assert_eq!(
            echo,
            ChatEcho {
                room: "lobby ✓".to_owned(),
                nick: "kim".to_owned(),
                tenant: 7,
                text: text.to_owned(),
                seq,
            }
        );
    }
    socket.close().await.unwrap();

    let closed_with = |code: u16| {
        move |ended: Option<Result<ChatEcho, Error>>| match ended {
            Some(Err(Error::Closed { code: got, reason })) if got == code => reason,
            other => panic!("expected a close with {code}, got {other:?}"),
        }
    };
    let mut socket = client
        .kitchen()
        .chat("lobby", &tenant, &join)
        .await
        .unwrap();
    socket.send(&line("hi", Some("SHOUT"))).await.unwrap();
    let reason = closed_with(1007)(socket.recv().await);
    assert!(
        reason.starts_with("message: $input.aside is not "),
        "{reason}"
    );

    let mut socket = client
        .kitchen()
        .chat("lobby", &tenant, &join)
        .await
        .unwrap();
    socket.send(&line(&"x".repeat(2000), None)).await.unwrap();
    let reason = closed_with(1009)(socket.recv().await);
    assert_eq!(reason, "message_too_large: larger than 1024 bytes");

    let mut socket = client
        .kitchen()
        .chat("lobby", &tenant, &join)
        .await
        .unwrap();
    socket.send(&line("one", None)).await.unwrap();
    socket.send(&line("bye", None)).await.unwrap();
    assert_eq!(socket.recv().await.unwrap().unwrap().text, "one");
    assert!(socket.recv().await.is_none(), "the server ended the chat");

    let refused = client
        .kitchen()
        .chat(
            "lobby",
            &tenant,
            &ChatJoin {
                nick: String::new(),
            },
        )
        .await;
    match refused {
        Err(Error::Api {
            status: 400,
            problem,
            ..
        }) => {
            assert_eq!(problem.errors[0].path, "$query.nick");
        }
        other => panic!("expected the route's 400, got {other:?}"),
    }
    task.abort();
}

/// Multipart uploads, a streamed upload and a file streamed back through
/// the Rust SDK: text fields and files (bytes and a path streamed from
/// disk) as the server reads them, every problem of a refused form, a file
/// over its limit (413), and 200/206/304/416 with their headers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rust_sdk_uploads_and_streams_files() {
    use kitchen_sdk::{
        Client, Error, FileConditions, Received, ReceivedFile, StreamSum, Upload, UploadFile,
        answers::KitchenStreamed,
    };

    let (addr, task) = served();
    let client = Client::new(format!("http://{addr}"));
    let kitchen = client.kitchen();
    let dir = tempfile::tempdir().unwrap();
    let note = dir.path().join("note.txt");
    std::fs::write(&note, "a note").unwrap();
    let upload = || Upload {
        title: "holiday ü & co".to_owned(),
        copies: 2,
        labels: vec!["a b".to_owned(), "c".to_owned()],
        picture: UploadFile::from_bytes("sea.png", &b"PNG!"[..]).media_type("image/png"),
        note: Some(UploadFile::from_path(&note)),
        attachments: vec![
            UploadFile::from_bytes("1.txt", "one"),
            UploadFile::from_bytes("2.bin", vec![0u8, 1, 2]),
        ],
    };
    let file = |name: &str, media_type: &str, text: &str| ReceivedFile {
        name: name.to_owned(),
        media_type: media_type.to_owned(),
        size: text.len() as u64,
        text: text.to_owned(),
    };
    assert_eq!(
        kitchen.uploads().upload(&upload()).await.unwrap(),
        Received {
            title: "holiday ü & co".to_owned(),
            copies: 2,
            labels: vec!["a b".to_owned(), "c".to_owned()],
            picture: file("sea.png", "image/png", "PNG!"),
            note: Some(file("note.txt", "text/plain", "a note")),
            attachments: vec![
                file("1.txt", "application/octet-stream", "one"),
                file("2.bin", "application/octet-stream", "\u{0}\u{1}\u{2}"),
            ],
        }
    );
    let bare = Upload {
        labels: Vec::new(),
        note: None,
        attachments: Vec::new(),
        ..upload()
    };
    let received = kitchen.uploads().upload(&bare).await.unwrap();
    assert_eq!((received.note, received.attachments), (None, Vec::new()));

    let wrong = Upload {
        copies: 0,
        picture: UploadFile::from_bytes("a.gif", "GIF89a").media_type("image/gif"),
        ..upload()
    };
    let refused = kitchen.uploads().upload(&wrong).await.unwrap_err();
    let issues: Vec<(&str, &str)> = refused
        .problem()
        .unwrap()
        .errors
        .iter()
        .map(|issue| (issue.path.as_str(), issue.expected.as_str()))
        .collect();
    assert_eq!(
        issues,
        [
            (
                "$input.picture",
                "File & MaxSize<65536> & Accept<\"image/png, image/jpeg\">"
            ),
            ("$input.copies", "number & Type<\"uint32\"> & Minimum<1>"),
        ]
    );
    let big = Upload {
        attachments: vec![UploadFile::from_bytes("big", vec![0u8; 2000])],
        ..upload()
    };
    let too_large = kitchen.uploads().upload(&big).await.unwrap_err();
    assert_eq!(too_large.status(), Some(413));
    assert_eq!(too_large.problem().unwrap().code, "file_too_large");
    assert_eq!(
        too_large.problem().unwrap().errors[0].path,
        "$input.attachments[0]"
    );

    let bytes: Vec<u8> = (0..1024 * 1024).map(|index| (index % 251) as u8).collect();
    let sum = bytes.iter().map(|byte| u64::from(*byte)).sum();
    assert_eq!(
        kitchen.streams().sum(bytes.clone()).await.unwrap(),
        StreamSum {
            size: bytes.len() as u64,
            sum
        }
    );
    let refused = kitchen
        .streams()
        .sum(vec![0u8; 3 * 1024 * 1024])
        .await
        .unwrap_err();
    assert!(
        matches!(&refused, Error::Api { status: 413, problem, .. } if problem.code == "payload_too_large"),
        "{refused}"
    );

    let KitchenStreamed::Status200(whole) =
        kitchen.streamed(&FileConditions::default()).await.unwrap()
    else {
        panic!("expected 200");
    };
    assert_eq!(whole.body.as_ref(), app::streamed_bytes().as_slice());
    assert_eq!(whole.header("content-length"), Some("4096"));
    let etag = whole.etag().unwrap().to_owned();
    let range = |range: &str| FileConditions {
        range: Some(range.to_owned()),
        ..FileConditions::default()
    };
    let KitchenStreamed::Status206(part) = kitchen.streamed(&range("bytes=16-35")).await.unwrap()
    else {
        panic!("expected 206");
    };
    assert_eq!(part.body.as_ref(), b"0123456789abcdef0123");
    assert_eq!(part.content_range(), Some("bytes 16-35/4096"));
    let current = FileConditions {
        if_none_match: Some(etag),
        ..FileConditions::default()
    };
    assert_eq!(
        kitchen.streamed(&current).await.unwrap(),
        KitchenStreamed::Status304
    );
    // Read as it arrives: the same bytes, chunk by chunk; no body for a 304.
    let mut streamed = kitchen
        .streamed_stream(&FileConditions::default())
        .await
        .unwrap();
    assert_eq!(streamed.status, 200);
    let mut read = Vec::new();
    while let Some(chunk) = streamed.chunk().await.unwrap() {
        read.extend_from_slice(&chunk);
    }
    assert_eq!(read, app::streamed_bytes());
    let mut part = kitchen
        .streamed_stream(&range("bytes=16-35"))
        .await
        .unwrap();
    assert_eq!(
        (part.status, part.content_range()),
        (206, Some("bytes 16-35/4096"))
    );
    assert_eq!(
        part.chunk().await.unwrap().as_deref(),
        Some(&b"0123456789abcdef0123"[..])
    );
    let mut unchanged = kitchen.streamed_stream(&current).await.unwrap();
    assert_eq!(unchanged.status, 304);
    assert_eq!(unchanged.chunk().await.unwrap(), None);
    let beyond = kitchen.streamed(&range("bytes=5000-")).await.unwrap_err();
    assert_eq!(beyond.status(), Some(416));
    assert_eq!(beyond.problem().unwrap().code, "range_not_satisfiable");
    let length = beyond
        .headers()
        .and_then(|headers| headers.get("content-range"));
    assert_eq!(
        length.and_then(|value| value.to_str().ok()),
        Some("bytes */4096"),
        "the error carries its headers: the file's length"
    );
    task.abort();
}
