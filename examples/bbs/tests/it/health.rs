//! Liveness, readiness (the database check) and metrics (the pool's
//! gauges): in-process, and the binary draining on SIGTERM.

use std::{
    process::Command,
    time::{Duration, Instant},
};

use bbs::ArticleStore;
use prometheus_parse::{Sample, Scrape, Value};
use serde_json::json;

use crate::{
    process::Bbs,
    support::{app, create_input, database_url, send},
};

fn scrape(text: &str) -> Vec<Sample> {
    Scrape::parse(text.lines().map(|line| Ok(line.to_owned())))
        .expect("a well-formed exposition")
        .samples
}

fn value(samples: &[Sample], name: &str, labels: &[(&str, &str)]) -> f64 {
    let found: Vec<&Sample> = samples
        .iter()
        .filter(|sample| sample.metric == name)
        .filter(|sample| {
            labels
                .iter()
                .all(|(key, value)| sample.labels.get(key) == Some(*value))
        })
        .collect();
    assert_eq!(found.len(), 1, "one sample {name} {labels:?}");
    match found[0].value {
        Value::Counter(value) | Value::Gauge(value) | Value::Untyped(value) => value,
        _ => panic!("{name} is not a single number"),
    }
}

#[tokio::test]
async fn health_readiness_checks_the_database_and_metrics_show_the_pool() {
    let (app, _dir) = app().await;
    let client = app.test_client();
    let live = client.get("/healthz").send().await;
    assert_eq!(live.status(), 200);
    let ready = client.get("/readyz").send().await;
    assert_eq!(ready.status(), 200);
    assert_eq!(
        ready.json::<serde_json::Value>()["checks"],
        json!([{ "name": "database", "status": "passed" }])
    );

    let created = client
        .post("/bbs/articles/free")
        .json(&create_input("counted"))
        .send()
        .await;
    assert_eq!(created.status(), 201);
    let missing = client
        .get("/bbs/articles/free/00000000-0000-4000-8000-000000000000")
        .send()
        .await;
    assert_eq!(missing.status(), 404);

    let samples = scrape(&client.get("/metrics").send().await.text());
    let requests = |operation, method, status| {
        value(
            &samples,
            "http_requests_total",
            &[
                ("operation", operation),
                ("method", method),
                ("status", status),
            ],
        )
    };
    assert_eq!(requests("bbs.articles.create", "POST", "2xx"), 1.0);
    assert_eq!(requests("bbs.articles.at", "GET", "4xx"), 1.0);
    assert_eq!(requests("readyz", "GET", "2xx"), 1.0);
    let open = value(&samples, "bbs_db_connections", &[]);
    let idle = value(&samples, "bbs_db_idle_connections", &[]);
    assert!(open >= 1.0, "the pool has a connection open: {open}");
    assert!(idle <= open, "idle {idle} of {open}");
}

#[tokio::test]
async fn health_readiness_fails_when_the_database_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let store = ArticleStore::open(&database_url(&dir)).await.unwrap();
    let app = bbs::app(store.clone()).unwrap();
    assert_eq!(app.test_client().get("/readyz").send().await.status(), 200);
    store.close().await;
    let ready = app.test_client().get("/readyz").send().await;
    assert_eq!(ready.status(), 503);
    assert_eq!(ready.problem().code, "unavailable");
    assert!(ready.header("retry-after").is_some());
    assert_eq!(
        ready.json::<serde_json::Value>()["checks"],
        json!([{ "name": "database", "status": "failed" }])
    );
    // Liveness does not depend on the database.
    assert_eq!(app.test_client().get("/healthz").send().await.status(), 200);
}

#[tokio::test]
async fn health_sigterm_turns_readiness_503_while_the_binary_still_serves() {
    let dir = tempfile::tempdir().unwrap();
    let server = Bbs::start_with(&dir, &[("BBS_DRAIN_DELAY_MS", "1500")]);
    let addr = server.addr;
    assert_eq!(send(addr, "GET", "/readyz", None).await.status, 200);

    let signalled = Instant::now();
    let status = Command::new("kill")
        .args(["-TERM", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let ready = loop {
        let ready = send(addr, "GET", "/readyz", None).await;
        if ready.status == 503 || signalled.elapsed() > Duration::from_secs(1) {
            break ready;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(ready.status, 503, "not ready once SIGTERM arrived");
    assert_eq!(ready.json()["code"], "unavailable");
    // Draining: alive, and still answering the API.
    assert_eq!(send(addr, "GET", "/healthz", None).await.status, 200);
    let created = send(
        addr,
        "POST",
        "/bbs/articles/free",
        Some(&create_input("late")),
    )
    .await;
    assert_eq!(created.status, 201);
    assert!(signalled.elapsed() < Duration::from_millis(1500));

    // Then it stops accepting.
    let deadline = Instant::now() + Duration::from_secs(10);
    while tokio::net::TcpStream::connect(addr).await.is_ok() {
        assert!(
            Instant::now() < deadline,
            "still accepting 10 s after SIGTERM"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(signalled.elapsed() >= Duration::from_millis(1500));
}
