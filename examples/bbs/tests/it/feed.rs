//! The sections' live feed over a socket, on both backends: every change
//! in order with increasing ids, one section's events only, resumption
//! with `Last-Event-ID` or `?after=` (across a restart too), a `reset` for
//! an id the board never gave, a slow client that loses nothing and holds
//! back no one, and streams that end when the server shuts down.

use std::time::Duration;

use bbs::{ArticleStore, dto::ArticleCreate, store::Backend};
use serde_json::{Value, json};

use crate::support::{
    EventReader, Served, SseEvent, TestDatabase, create_input, on_both_backends, send, send_with,
};

on_both_backends!(
    the_feed_tells_a_sections_changes_in_order_and_resumes_after_a_restart,
    a_follower_that_falls_behind_catches_up_from_the_table,
    a_slow_client_holds_back_no_one,
    a_shutdown_ends_open_streams,
);

const FREE: &str = "/bbs/articles/free/events";

/// The ids of `events`, as numbers.
fn ids(events: &[SseEvent]) -> Vec<u64> {
    events
        .iter()
        .map(|event| event.id.parse().unwrap())
        .collect()
}

/// The next `count` events of `reader`.
async fn take(reader: &mut EventReader, count: usize) -> Vec<SseEvent> {
    let mut events = Vec::new();
    while events.len() < count {
        let event = reader
            .next()
            .await
            .unwrap_or_else(|| panic!("the stream ended after {events:?}"));
        events.push(event);
    }
    events
}

fn summary(article: &Value, title: &str, updated_at: &Value) -> Value {
    json!({
        "id": article["id"],
        "writer": article["writer"],
        "title": title,
        "created_at": article["created_at"],
        "updated_at": updated_at,
    })
}

async fn the_feed_tells_a_sections_changes_in_order_and_resumes_after_a_restart(backend: Backend) {
    let database = TestDatabase::new(backend).await;
    let served = Served::over(ArticleStore::open(&database.url).await.unwrap()).await;
    let addr = served.addr;
    let mut free = EventReader::open(addr, FREE, &[]).await;
    assert_eq!(free.status, 200);
    assert_eq!(free.header("content-type"), Some("text/event-stream"));
    let mut other = EventReader::open(addr, "/bbs/articles/other/events", &[]).await;

    let first = send(
        addr,
        "POST",
        "/bbs/articles/free",
        Some(&create_input("First post")),
    )
    .await;
    assert_eq!(first.status, 201);
    let first = first.json();
    let path = format!("/bbs/articles/free/{}", first["id"].as_str().unwrap());
    let update = json!({
        "title": "First post, edited", "body": "b", "format": "txt", "files": [],
        "password": "correct horse"
    });
    let updated = send(addr, "PUT", &path, Some(&update)).await;
    assert_eq!(updated.status, 200);
    let second = send(
        addr,
        "POST",
        "/bbs/articles/free",
        Some(&create_input("Second post")),
    )
    .await;
    let second = second.json();
    let erased = send(
        addr,
        "DELETE",
        &path,
        Some(&json!({ "password": "correct horse" })),
    )
    .await;
    assert_eq!(erased.status, 204);

    let events = take(&mut free, 4).await;
    let names: Vec<&str> = events.iter().map(|event| event.name.as_str()).collect();
    assert_eq!(names, ["created", "updated", "created", "erased"]);
    let numbers = ids(&events);
    assert!(
        numbers.windows(2).all(|pair| pair[0] < pair[1]),
        "{numbers:?}"
    );
    assert_eq!(
        events[0].data,
        json!({ "type": "created", "article": summary(&first, "First post", &first["created_at"]) })
    );
    assert_eq!(
        events[1].data,
        json!({
            "type": "updated",
            "article": summary(&first, "First post, edited", &updated.json()["created_at"]),
        })
    );
    assert_eq!(events[2].data["article"]["id"], second["id"]);
    assert_eq!(
        events[3].data,
        json!({ "type": "erased", "id": first["id"] })
    );

    // Another section's stream saw none of that.
    let posted = send(
        addr,
        "POST",
        "/bbs/articles/other",
        Some(&create_input("Elsewhere")),
    )
    .await;
    let seen = take(&mut other, 1).await;
    assert_eq!(seen[0].data["article"]["id"], posted.json()["id"]);

    // Resuming after the first event: the erased article's earlier events
    // went with it, so what follows is the second post and the erasure.
    let after_first = events[0].id.as_str();
    let mut resumed = EventReader::open(addr, FREE, &[("last-event-id", after_first)]).await;
    assert_eq!(ids(&take(&mut resumed, 2).await), [numbers[2], numbers[3]]);
    let mut from_query =
        EventReader::open(addr, &format!("{FREE}?after={}", numbers[2]), &[]).await;
    assert_eq!(ids(&take(&mut from_query, 1).await), [numbers[3]]);
    // The header wins over the query, as when a browser reconnects.
    let mut both = EventReader::open(
        addr,
        &format!("{FREE}?after=0"),
        &[("last-event-id", &events[2].id)],
    )
    .await;
    assert_eq!(ids(&take(&mut both, 1).await), [numbers[3]]);

    // A restart: another process over the same database resumes as well.
    drop((free, other, resumed, from_query, both));
    drop(served);
    let again = Served::over(ArticleStore::open(&database.url).await.unwrap()).await;
    let mut resumed = EventReader::open(again.addr, FREE, &[("last-event-id", after_first)]).await;
    assert_eq!(ids(&take(&mut resumed, 2).await), [numbers[2], numbers[3]]);
    // Then it follows live.
    let third = send(
        again.addr,
        "POST",
        "/bbs/articles/free",
        Some(&create_input("Third post")),
    )
    .await;
    let live = take(&mut resumed, 1).await;
    assert_eq!(live[0].data["article"]["id"], third.json()["id"]);
    assert!(ids(&live)[0] > numbers[3]);

    // An id beyond the newest is not this board's: reset, then live.
    let mut future = EventReader::open(again.addr, FREE, &[("last-event-id", "999999")]).await;
    let reset = take(&mut future, 1).await.remove(0);
    assert_eq!(
        (reset.name.as_str(), &reset.data),
        ("reset", &json!({ "type": "reset" }))
    );
    assert_eq!(reset.id, live[0].id, "follow on from the newest event");

    let refused = send_with(again.addr, "GET", FREE, &[("last-event-id", "seven")], None).await;
    assert_eq!(refused.status, 400);
    assert_eq!(refused.json()["code"], "invalid_last_event_id");
    let refused = send(again.addr, "GET", &format!("{FREE}?after=-1"), None).await;
    assert_eq!(refused.status, 400);
}

/// A new article in `section`, written straight into the store (no
/// password hashing: these tests write many).
async fn post(store: &ArticleStore, section: &str, n: usize) {
    let mut input: ArticleCreate =
        serde_json::from_value(create_input(&format!("Post number {n}"))).unwrap();
    input.files.clear();
    store
        .create(section, input, "not a hash".to_owned())
        .await
        .unwrap();
}

/// A follower that is not read while many events are written falls
/// behind the broadcast (a channel of 16 here); read again, it gets every
/// event, in order, once, caught up from the table, then follows live,
/// all in one stream.
async fn a_follower_that_falls_behind_catches_up_from_the_table(backend: Backend) {
    use futures_util::StreamExt;

    let database = TestDatabase::new(backend).await;
    let store = ArticleStore::open_with(&database.url, 16).await.unwrap();
    let behind = bbs::feed::follow(&store, "busy".to_owned(), None)
        .await
        .unwrap();
    let mut behind = Box::pin(behind);
    for n in 0..200 {
        post(&store, "busy", n).await;
        // Another section's events interleave and are left out.
        if n % 10 == 0 {
            post(&store, "quiet", n).await;
        }
    }
    let mut titles = Vec::new();
    while titles.len() < 200 {
        let event = tokio::time::timeout(Duration::from_secs(10), behind.next())
            .await
            .expect("an event within 10 s")
            .expect("the stream goes on");
        let bbs::dto::ArticleEvent::Created { article } = event.data() else {
            panic!("{event:?}");
        };
        titles.push(article.title.clone());
    }
    let expected: Vec<String> = (0..200).map(|n| format!("Post number {n}")).collect();
    assert_eq!(titles, expected, "every event, in order, once");
    let catch_ups = store.feed_metrics().catch_ups();
    assert!(catch_ups >= 1, "it fell behind and caught up: {catch_ups}");
    post(&store, "busy", 200).await;
    let live = tokio::time::timeout(Duration::from_secs(10), behind.next())
        .await
        .unwrap()
        .unwrap();
    assert!(
        matches!(live.data(), bbs::dto::ArticleEvent::Created { article } if article.title == "Post number 200")
    );
}

/// One client reads nothing while events are written: the client that
/// reads gets each as it comes, and the other, once it reads, every one in
/// order.
async fn a_slow_client_holds_back_no_one(backend: Backend) {
    const EVENTS: usize = 300;
    let database = TestDatabase::new(backend).await;
    let store = ArticleStore::open_with(&database.url, 16).await.unwrap();
    let served = Served::over(store.clone()).await;
    let addr = served.addr;
    let path = "/bbs/articles/slow/events";
    let mut fast = EventReader::open(addr, path, &[]).await;
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut slow = EventReader::open_on(socket.connect(addr).await.unwrap(), path, &[]).await;

    let writer = tokio::spawn(async move {
        for n in 0..EVENTS {
            post(&store, "slow", n).await;
        }
    });
    let seen_fast = ids(&take(&mut fast, EVENTS).await);
    writer.await.unwrap();
    assert!(seen_fast.windows(2).all(|pair| pair[0] < pair[1]));
    let seen_slow = ids(&take(&mut slow, EVENTS).await);
    assert_eq!(seen_slow, seen_fast, "every event, in order, once");
}

async fn a_shutdown_ends_open_streams(backend: Backend) {
    let database = TestDatabase::new(backend).await;
    let store = ArticleStore::open(&database.url).await.unwrap();
    let app = bbs::app(store).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = framework::Server::from_listener(listener);
    let addr = server.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let served = tokio::spawn(server.serve_with_shutdown(app, async {
        let _ = stopped.await;
    }));
    let mut reader = EventReader::open(addr, FREE, &[]).await;
    stop.send(()).unwrap();
    assert_eq!(
        reader.next_within(Duration::from_secs(5)).await,
        None,
        "the stream ends, complete"
    );
    tokio::time::timeout(Duration::from_secs(5), served)
        .await
        .expect("the server stops at once: no stream holds it")
        .unwrap()
        .unwrap();
}

/// The resident memory of process `pid`, in KiB (`VmRSS`).
pub fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no VmRSS in {status}"))
}

/// Makes sure this process may open `files` descriptors (the server it
/// starts inherits the limit), raising the soft limit with `prlimit`.
fn allow_open_files(files: u64) {
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap();
    let soft: u64 = limits
        .lines()
        .find(|line| line.starts_with("Max open files"))
        .and_then(|line| line.split_whitespace().nth(3))
        .and_then(|soft| soft.parse().ok())
        .unwrap_or(0);
    if soft < files {
        let pid = std::process::id().to_string();
        let status = std::process::Command::new("prlimit")
            .args(["--pid", &pid, &format!("--nofile={files}:{files}")])
            .status()
            .unwrap();
        assert!(status.success(), "this test needs {files} open files");
    }
}

/// 1,000 clients follow a section of the `bbs` binary at once: each gets
/// the next article's event, and the server's resident memory grows by a
/// bounded amount per stream (the figure is printed).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_followers_are_held_with_bounded_memory() {
    const FOLLOWERS: usize = 1000;
    allow_open_files(4 * FOLLOWERS as u64);
    let dir = tempfile::tempdir().unwrap();
    let server = crate::process::Bbs::start(&dir);
    let addr = server.addr;
    // Warm up: a stream opened and closed, one article.
    drop(EventReader::open(addr, FREE, &[]).await);
    send(
        addr,
        "POST",
        "/bbs/articles/free",
        Some(&create_input("Warm-up")),
    )
    .await;
    let before = resident_kib(server.pid());

    let mut readers = Vec::with_capacity(FOLLOWERS);
    for batch in 0..FOLLOWERS / 100 {
        let opened = (0..100).map(|_| tokio::spawn(EventReader::open(addr, FREE, &[])));
        for reader in futures_util::future::join_all(opened).await {
            let reader = reader.unwrap();
            assert_eq!(reader.status, 200, "stream {batch}");
            readers.push(reader);
        }
    }
    let held = resident_kib(server.pid());
    let metrics = send(addr, "GET", "/metrics", None).await;
    let metrics = String::from_utf8(metrics.body).unwrap();
    assert!(
        metrics.contains(&format!("\nbbs_feed_followers {FOLLOWERS}\n")),
        "{metrics}"
    );

    let posted = send(
        addr,
        "POST",
        "/bbs/articles/free",
        Some(&create_input("To all")),
    )
    .await;
    let id = posted.json()["id"].clone();
    let delivered = readers.into_iter().map(|mut reader| {
        let id = id.clone();
        tokio::spawn(async move {
            let event = reader.next_within(Duration::from_secs(30)).await.unwrap();
            assert_eq!(event.data["article"]["id"], id);
            reader
        })
    });
    let readers = futures_util::future::join_all(delivered).await;
    let after = resident_kib(server.pid());
    assert_eq!(
        readers.iter().filter(|reader| reader.is_ok()).count(),
        FOLLOWERS
    );
    let per_stream = (held.saturating_sub(before)) * 1024 / FOLLOWERS as u64;
    println!(
        "bbs resident memory: {before} KiB before, {held} KiB holding {FOLLOWERS} streams, \
         {after} KiB after one event to each ({per_stream} bytes per stream)"
    );
    assert!(
        after.saturating_sub(before) < 64 * 1024,
        "{FOLLOWERS} streams grew the server by {} KiB",
        after - before
    );
}
