//! The `bbs` binary over real sockets: the routes, restarts, `kill -9`,
//! SIGTERM.

use std::{net::SocketAddr, process::Command, time::Duration};

use serde_json::json;
use tempfile::TempDir;

use crate::support::{create_input, database_url, send};

pub(crate) use crate::binary::Bbs;

#[tokio::test]
async fn serves_the_table_over_sockets_and_keeps_data_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let server = Bbs::start(&dir);
    let addr = server.addr;

    let created = send(
        addr,
        "POST",
        "/bbs/articles/free",
        Some(&create_input("Persistent")),
    )
    .await;
    assert_eq!(created.status, 201);
    let article = created.json();
    let path = format!("/bbs/articles/free/{}", article["id"].as_str().unwrap());

    let updated = send(
        addr,
        "PUT",
        &path,
        Some(&json!({ "title": "Persistent 2", "body": "b", "format": "txt", "files": [], "password": "correct horse" })),
    )
    .await;
    assert_eq!(updated.status, 200);
    let listed = send(
        addr,
        "PATCH",
        "/bbs/articles/free",
        Some(&json!({ "limit": 10 })),
    )
    .await;
    assert_eq!(listed.status, 200);
    assert_eq!(listed.json()["pagination"]["records"], 1);
    let bad = send(addr, "GET", "/bbs/articles/free/xyz", None).await;
    assert_eq!(bad.status, 400);
    assert_eq!(bad.header("content-type"), Some("application/problem+json"));
    assert_eq!(bad.json()["errors"][0]["path"], "$path.id");
    let wrong = send(addr, "DELETE", &path, Some(&json!({ "password": "nope" }))).await;
    assert_eq!(wrong.status, 403);
    let before = send(addr, "GET", &path, None).await;
    assert_eq!(before.status, 200);

    server.signal("TERM");
    assert_eq!(
        server.wait(Duration::from_secs(10)),
        Some(true),
        "clean exit on SIGTERM"
    );

    let server = Bbs::start(&dir);
    let after = send(server.addr, "GET", &path, None).await;
    assert_eq!(after.status, 200);
    assert_eq!(after.json(), before.json(), "data survives a restart");
    let erased = send(
        server.addr,
        "DELETE",
        &path,
        Some(&json!({ "password": "correct horse" })),
    )
    .await;
    assert_eq!(erased.status, 204);
    assert_eq!(send(server.addr, "GET", &path, None).await.status, 404);
}

#[tokio::test]
async fn kill_9_loses_no_acknowledged_write() {
    let dir = tempfile::tempdir().unwrap();
    let server = Bbs::start(&dir);
    let addr = server.addr;
    // Writers keep going until the kill; every 201 is recorded.
    let writers: Vec<_> = (0..4)
        .map(|writer| {
            tokio::spawn(async move {
                let mut acknowledged = Vec::new();
                for n in 0..1000 {
                    let input = create_input(&format!("w{writer}-{n}"));
                    let Ok(response) =
                        tokio::time::timeout(Duration::from_secs(5), try_send(addr, &input)).await
                    else {
                        break;
                    };
                    match response {
                        Some((201, id)) => acknowledged.push(id),
                        _ => break,
                    }
                }
                acknowledged
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    server.signal("KILL");
    assert_eq!(server.wait(Duration::from_secs(10)), Some(false));
    let mut acknowledged = Vec::new();
    for writer in writers {
        acknowledged.extend(writer.await.unwrap());
    }
    assert!(
        acknowledged.len() >= 4,
        "the load made writes: {}",
        acknowledged.len()
    );

    let server = Bbs::start(&dir);
    for id in &acknowledged {
        let response = send(
            server.addr,
            "GET",
            &format!("/bbs/articles/free/{id}"),
            None,
        )
        .await;
        assert_eq!(response.status, 200, "acknowledged article {id} is there");
        assert_eq!(response.json()["snapshots"].as_array().unwrap().len(), 1);
    }
    let listed = send(
        server.addr,
        "PATCH",
        "/bbs/articles/free",
        Some(&json!({ "limit": 1000 })),
    )
    .await;
    let records = listed.json()["pagination"]["records"].as_u64().unwrap();
    assert!(records as usize >= acknowledged.len());
    assert!(
        records as usize <= acknowledged.len() + 4,
        "at most one unacknowledged write per writer"
    );
}

/// Like `send`, but a refused or cut connection is `None` instead of a panic.
async fn try_send(addr: SocketAddr, input: &serde_json::Value) -> Option<(u16, String)> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.ok()?;
    let body = serde_json::to_vec(input).ok()?;
    let head = format!(
        "POST /bbs/articles/free HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.ok()?;
    stream.write_all(&body).await.ok()?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.ok()?;
    if !raw.windows(4).any(|window| window == b"\r\n\r\n") {
        return None;
    }
    let response = crate::support::parse_response(&raw);
    let id = response.json()["id"].as_str()?.to_owned();
    Some((response.status, id))
}

/// A command the contract tests need (`program` with `prefix` arguments),
/// or a failure that says how to install it.
pub(crate) fn tool(program: &str, prefix: &[&str], install: &str) -> Command {
    let found = Command::new(program).args(prefix).arg("--version").output();
    assert!(
        found.is_ok_and(|output| output.status.success()),
        "`{program} {}` is needed for this test and is not installed: {install} (scripts/test does)",
        prefix.join(" ")
    );
    let mut command = Command::new(program);
    command.args(prefix);
    command
}

#[tokio::test]
async fn schemathesis_finds_no_server_error_and_no_schema_violation() {
    let dir = tempfile::tempdir().unwrap();
    let server = Bbs::start(&dir);
    let url = format!("http://{}/openapi.json", server.addr);
    // The JSON API; the HTML pages are no API to fuzz. The live feed never
    // ends, so it is read for half a second per case: the events that came
    // by then are checked against the schema.
    let api = schemathesis(&dir, &url, &["--exclude-path-regex", "/events$"]);
    assert!(api.contains("8 selected / 19 total"), "{api}");
    assert!(api.contains("passed"), "{api}");
    let feed = schemathesis(
        &dir,
        &url,
        &[
            "--include-path-regex",
            "/events$",
            "--request-timeout",
            "0.5",
        ],
    );
    assert!(feed.contains("1 selected / 19 total"), "{feed}");
    assert!(feed.contains("passed"), "{feed}");
}

/// Runs schemathesis's checks on the JSON API of the schema at `url`,
/// with `args`; its report, or a failure with the problems it found.
fn schemathesis(dir: &TempDir, url: &str, args: &[&str]) -> String {
    let output = tool("python3", &["-m", "schemathesis.cli"], "pip install schemathesis")
        .args(["run", url])
        .args([
            "--checks",
            "not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance",
        ])
        .args(["--include-path-regex", "^/bbs/"])
        .args(args)
        .args(["--max-examples", "25", "--no-color"])
        .arg("--report-dir")
        .arg(dir.path().join("schemathesis"))
        // schemathesis keeps a cache in its working directory.
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "schemathesis found problems:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

#[tokio::test]
async fn the_docs_page_lists_the_operations_in_a_browser() {
    let dir = tempfile::tempdir().unwrap();
    let server = Bbs::start(&dir);
    let profile = dir.path().join("chromium-profile");
    let output = tool("chromium", &[], "apt-get install chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=15000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("http://{}/docs/index.html", server.addr))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&output.stdout);
    for expected in [
        "/bbs/articles/{section}/{id}",
        "Update an article; needs the writer's password.",
        "Post a new article.",
        "List a section's articles, a page at a time.",
        "Read an article with its whole history.",
        "Erase an article and its history; needs the writer's password.",
    ] {
        assert!(
            dom.contains(expected),
            "the docs page does not show {expected:?}:\n{dom}"
        );
    }
}

#[tokio::test]
async fn the_binary_reads_the_moderator_token_from_its_environment() {
    let dir = tempfile::tempdir().unwrap();
    let server = Bbs::start_with(&dir, &[("BBS_MODERATOR_TOKEN", "from-the-env")]);
    let created = send(
        server.addr,
        "POST",
        "/bbs/articles/free",
        Some(&create_input("Moderated")),
    )
    .await;
    let id = created.json()["id"].as_str().unwrap().to_owned();
    let path = format!("/bbs/moderation/articles/free/{id}");
    let refused = send(server.addr, "DELETE", &path, None).await;
    assert_eq!(refused.status, 401);
    assert_eq!(refused.header("www-authenticate"), Some("Bearer"));
    let erased = crate::support::send_with(
        server.addr,
        "DELETE",
        &path,
        &[("authorization", "Bearer from-the-env")],
        None,
    )
    .await;
    assert_eq!(erased.status, 204);
    drop(server);

    let unset = Bbs::start(&dir);
    assert_eq!(send(unset.addr, "DELETE", &path, None).await.status, 404);
}

#[test]
fn an_empty_moderator_token_stops_the_binary_before_it_serves() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_bbs"))
        .env("PORT", "0")
        .env("DATABASE_URL", database_url(&dir))
        .env("BBS_MODERATOR_TOKEN", "")
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("BBS_MODERATOR_TOKEN is set but empty"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty(), "it never listened");
}

/// A small tmpfs, unmounted on drop: a disk this test can fill.
struct SmallDisk(std::path::PathBuf);

impl SmallDisk {
    fn mount(at: std::path::PathBuf, size: &str) -> SmallDisk {
        std::fs::create_dir_all(&at).unwrap();
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&at)
            .status();
        assert!(
            status.is_ok_and(|status| status.success()),
            "this test mounts a small tmpfs to fill it: run it as root (CI does)"
        );
        SmallDisk(at)
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

#[tokio::test]
async fn a_full_disk_answers_503_and_the_server_recovers() {
    let dir = tempfile::tempdir().unwrap();
    let disk = SmallDisk::mount(dir.path().join("disk"), "4m");
    let server = Bbs::start_at(&format!("sqlite://{}", disk.0.join("bbs.db").display()));
    let addr = server.addr;
    let first = send(
        addr,
        "POST",
        "/bbs/articles/free",
        Some(&create_input("Before")),
    )
    .await;
    assert_eq!(first.status, 201);
    let path = format!(
        "/bbs/articles/free/{}",
        first.json()["id"].as_str().unwrap()
    );

    // Fill the disk.
    let filler = disk.0.join("filler");
    {
        use std::io::Write;
        let mut file = std::fs::File::create(&filler).unwrap();
        let chunk = vec![0u8; 64 * 1024];
        while file
            .write_all(&chunk)
            .and_then(|()| file.sync_data())
            .is_ok()
        {}
    }
    let mut big = create_input("Too much");
    big["body"] = json!("x".repeat(256 * 1024));
    let mut statuses = Vec::new();
    for _ in 0..8 {
        let response = send(addr, "POST", "/bbs/articles/free", Some(&big)).await;
        if response.status == 503 {
            assert_eq!(response.json()["code"], "unavailable");
        }
        statuses.push(response.status);
    }
    assert!(
        statuses.contains(&503),
        "a full disk answers 503: {statuses:?}"
    );
    assert!(
        statuses.iter().all(|status| [201, 503].contains(status)),
        "{statuses:?}"
    );
    assert_eq!(
        send(addr, "GET", &path, None).await.status,
        200,
        "reads still work"
    );

    // Free the disk: writes work again.
    std::fs::remove_file(&filler).unwrap();
    let after = send(
        addr,
        "POST",
        "/bbs/articles/free",
        Some(&create_input("After")),
    )
    .await;
    assert_eq!(
        after.status,
        201,
        "{:?}",
        String::from_utf8_lossy(&after.body)
    );
    drop(server);
}

#[tokio::test]
async fn sigterm_under_load_finishes_in_flight_requests_then_exits() {
    let dir = tempfile::tempdir().unwrap();
    let server = Bbs::start(&dir);
    let addr = server.addr;
    // Creates hash a password (tens of milliseconds): some are in flight
    // when the signal arrives.
    let writers: Vec<_> = (0..8)
        .map(|n| {
            tokio::spawn(async move {
                let input = create_input(&format!("in flight {n}"));
                tokio::time::timeout(Duration::from_secs(10), try_send(addr, &input)).await
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(30)).await;
    server.signal("TERM");
    let mut answered = 0;
    for writer in writers {
        match writer.await.unwrap() {
            Ok(Some((status, _))) => {
                assert_eq!(status, 201, "an accepted request completes");
                answered += 1;
            }
            // Not accepted before the listener closed: refused, never cut.
            Ok(None) => {}
            Err(_) => panic!("a request hung through shutdown"),
        }
    }
    assert!(answered > 0, "some requests were in flight");
    assert_eq!(
        server.wait(Duration::from_secs(10)),
        Some(true),
        "exits cleanly within the timeout"
    );
    assert!(
        tokio::net::TcpStream::connect(addr).await.is_err(),
        "new connections are refused"
    );
}

#[tokio::test]
async fn running_out_of_file_descriptors_does_not_crash_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let server = Bbs::start_with_fd_limit(&dir, 64);
    let addr = server.addr;
    let path = {
        let created = send(
            addr,
            "POST",
            "/bbs/articles/free",
            Some(&create_input("Kept")),
        )
        .await;
        assert_eq!(created.status, 201);
        format!(
            "/bbs/articles/free/{}",
            created.json()["id"].as_str().unwrap()
        )
    };
    // Far more idle connections than the process may hold descriptors.
    let mut idle = Vec::new();
    // Once the listen backlog is full too, a connect waits for SYN retries:
    // stop there.
    for _ in 0..200 {
        match tokio::time::timeout(
            Duration::from_millis(500),
            tokio::net::TcpStream::connect(addr),
        )
        .await
        {
            Ok(Ok(stream)) => idle.push(stream),
            _ => break,
        }
    }
    assert!(idle.len() > 64, "only {} connections opened", idle.len());
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        server.child_alive(),
        "the server survived running out of descriptors"
    );
    // Once they go, a new client is served.
    idle.clear();
    let response = tokio::time::timeout(Duration::from_secs(10), send(addr, "GET", &path, None))
        .await
        .expect("served within 10 s once descriptors are free");
    assert_eq!(response.status, 200);
    drop(server);
}

/// Files made immutable (`chattr +i`, ext4): even root cannot write them,
/// where plain file modes do not stop root. Made writable again on drop.
struct Immutable(Vec<std::path::PathBuf>);

impl Immutable {
    fn set(paths: Vec<std::path::PathBuf>) -> Immutable {
        let status = Command::new("chattr").arg("+i").args(&paths).status();
        assert!(
            status.is_ok_and(|status| status.success()),
            "this test needs chattr (e2fsprogs) on a filesystem with attributes (ext4), as root"
        );
        Immutable(paths)
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        let _ = Command::new("chattr").arg("-i").args(&self.0).status();
    }
}

#[tokio::test]
async fn a_read_only_database_answers_503_and_the_server_recovers() {
    let dir = tempfile::tempdir().unwrap();
    let server = Bbs::start(&dir);
    let addr = server.addr;
    let first = send(
        addr,
        "POST",
        "/bbs/articles/free",
        Some(&create_input("Before")),
    )
    .await;
    assert_eq!(first.status, 201);
    let path = format!(
        "/bbs/articles/free/{}",
        first.json()["id"].as_str().unwrap()
    );

    // The database and its write-ahead log become read-only.
    let database = dir.path().join("bbs.db");
    let read_only = Immutable::set(vec![database.clone(), dir.path().join("bbs.db-wal")]);
    for n in 0..3 {
        let input = create_input(&format!("Read-only {n}"));
        let response = send(addr, "POST", "/bbs/articles/free", Some(&input)).await;
        assert_eq!(
            response.status,
            503,
            "{}",
            String::from_utf8_lossy(&response.body)
        );
        assert_eq!(response.json()["code"], "unavailable");
    }
    let read = send(addr, "GET", &path, None).await.status;
    assert!(
        [200, 503].contains(&read),
        "a read answers or is unavailable: {read}"
    );
    assert!(server.child_alive());

    // Writable again: writes work, nothing was lost.
    drop(read_only);
    let mut statuses = Vec::new();
    for n in 0..5 {
        let input = create_input(&format!("After {n}"));
        statuses.push(
            send(addr, "POST", "/bbs/articles/free", Some(&input))
                .await
                .status,
        );
    }
    assert!(
        statuses.iter().all(|status| *status == 201),
        "after the fault: {statuses:?}"
    );
    assert_eq!(send(addr, "GET", &path, None).await.status, 200);
    drop(server);
}
