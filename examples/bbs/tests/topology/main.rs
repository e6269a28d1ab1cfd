//! The scale-out topology, tested: a PostgreSQL cluster, three `bbs`
//! replicas on separate ports and nginx in front of them
//! (`deploy/nginx.conf`: passive health checks, retries of requests that
//! no replica answered), and the checks of issue 13:
//!
//! 1. writes through the balancer are read back through every replica, and
//!    the live feed crosses replicas (subscribed on one, posted through
//!    another);
//! 2. a rolling restart of the three (SIGTERM, wait for readiness, next)
//!    under steady reads and writes fails no request, and a feed client
//!    that follows through nginx, resuming with `Last-Event-ID` when its
//!    replica goes, sees every article created, once, in order;
//! 3. `kill -9` of a replica under writes: every acknowledged write is in
//!    the database; only requests that replica held may fail;
//! 4. PostgreSQL stopped (as a crash) under load: `503 unavailable` with
//!    `Retry-After`, no replica down, full recovery, nothing acknowledged
//!    lost;
//! 5. (long form only) throughput with one and with two replicas.
//!
//! This is the short form that CI runs. `scripts/topology` runs the long
//! form (`BBS_TOPOLOGY=long`, a release build, longer loads, and check 5).
//!
//! A test binary of its own: cargo runs test binaries one after another,
//! so no other test loads the machine while these run (their timing counts:
//! nginx's 1 s keep-alive against the replicas' 2 s drain delay; beside the
//! `it` binary's load tests, nginx marked every replica down at once).

// The `it` binary's helpers, of which these checks use a part.
#[allow(dead_code)]
#[path = "../it/binary.rs"]
mod binary;
#[allow(dead_code)]
#[path = "../it/postgres.rs"]
mod postgres;
#[allow(dead_code, unused_macros, unused_imports)]
#[path = "../it/support.rs"]
mod support;

mod load;
mod nginx;

use std::{
    collections::HashSet,
    net::SocketAddr,
    time::{Duration, Instant},
};

use sqlx::{Connection, PgConnection};
use tokio::sync::watch;

use crate::{
    binary::Bbs,
    postgres::Cluster,
    support::{EventReader, SseEvent, create_input, send},
};
use load::{Load, Mix, Report};
use nginx::Nginx;

/// The replicas' drain delay: longer than nginx's `keepalive_timeout` for
/// its upstream connections (checked below).
const DRAIN_DELAY_MS: u64 = 2000;

/// How long each phase runs.
struct Scale {
    /// Load before and after each disruption.
    settle: Duration,
    /// Load after `kill -9`.
    after_kill: Duration,
    /// How long PostgreSQL stays down: longer than the pool's 5 s wait for
    /// a connection, so that requests get their 503.
    outage: Duration,
    /// Whether to measure throughput (check 5).
    throughput: bool,
}

const SHORT: Scale = Scale {
    settle: Duration::from_secs(1),
    after_kill: Duration::from_secs(2),
    outage: Duration::from_secs(6),
    throughput: false,
};

const LONG: Scale = Scale {
    settle: Duration::from_secs(5),
    after_kill: Duration::from_secs(10),
    outage: Duration::from_secs(15),
    throughput: true,
};

/// A loopback port nothing listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// PostgreSQL, the replicas and nginx.
struct Topology {
    dir: tempfile::TempDir,
    cluster: Cluster,
    database: String,
    ports: Vec<u16>,
    replicas: Vec<Option<Bbs>>,
    nginx: Option<Nginx>,
}

impl Topology {
    async fn start() -> Topology {
        let dir = tempfile::tempdir().unwrap();
        // Commits wait for their WAL to reach the OS (synchronous_commit is
        // on by default), which is what survives a crash of PostgreSQL;
        // fsync is off: the machine does not crash in these tests.
        let cluster = tokio::task::spawn_blocking(|| Cluster::start(&[("fsync", "off")]))
            .await
            .unwrap()
            .unwrap_or_else(|err| panic!("starting PostgreSQL: {err}"));
        let database = cluster.create_database().await;
        let mut topology = Topology {
            dir,
            cluster,
            database,
            ports: (0..3).map(|_| free_port()).collect(),
            replicas: (0..3).map(|_| None).collect(),
            nginx: None,
        };
        for replica in 0..3 {
            topology.start_replica(replica).await;
        }
        let ports = topology.ports.clone();
        let nginx_dir = topology.dir.path().join("nginx");
        topology.nginx = Some(
            tokio::task::spawn_blocking(move || Nginx::start(&nginx_dir, &ports))
                .await
                .unwrap(),
        );
        topology
    }

    fn nginx(&self) -> &Nginx {
        self.nginx.as_ref().unwrap()
    }

    fn addr(&self, replica: usize) -> SocketAddr {
        ([127, 0, 0, 1], self.ports[replica]).into()
    }

    fn replica(&self, replica: usize) -> &Bbs {
        self.replicas[replica].as_ref().unwrap()
    }

    /// Starts `replica` on its port and waits until it is ready.
    async fn start_replica(&mut self, replica: usize) {
        let database = self.database.clone();
        let port = self.ports[replica];
        let drain = DRAIN_DELAY_MS.to_string();
        // The directory every replica keeps attachments in (a shared
        // volume in a deployment).
        let attachments = self.dir.path().join("attachments");
        // The outage makes every replica warn on each request; only errors
        // are shown.
        let started = tokio::task::spawn_blocking(move || {
            let attachments = attachments.to_string_lossy();
            let env = [
                ("BBS_DRAIN_DELAY_MS", drain.as_str()),
                ("BBS_ATTACHMENTS_DIR", &*attachments),
                ("RUST_LOG", "error"),
            ];
            Bbs::replica(&database, port, &env)
        })
        .await
        .unwrap();
        self.replicas[replica] = Some(started);
        ready(self.addr(replica)).await;
    }

    /// SIGTERM, then waits for the replica to drain and exit.
    async fn stop_replica(&mut self, replica: usize) {
        let running = self.replicas[replica].take().unwrap();
        running.signal("TERM");
        let exited = tokio::task::spawn_blocking(move || running.wait(Duration::from_secs(40)))
            .await
            .unwrap();
        assert_eq!(
            exited,
            Some(true),
            "replica {replica} exits cleanly on SIGTERM"
        );
    }

    /// The ids of every article in the database.
    async fn stored(&self) -> HashSet<String> {
        let mut connection = PgConnection::connect(&self.database).await.unwrap();
        let ids: Vec<String> = sqlx::query_scalar("SELECT id FROM articles")
            .fetch_all(&mut connection)
            .await
            .unwrap();
        ids.into_iter().collect()
    }
}

/// Waits until `addr` answers `/readyz` with 200.
async fn ready(addr: SocketAddr) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if try_get(addr, "/readyz").await == Some(200) {
            return;
        }
        assert!(Instant::now() < deadline, "{addr} is ready within 30 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The status of `GET path`, `None` when the connection fails.
async fn try_get(addr: SocketAddr, path: &str) -> Option<u16> {
    let client = reqwest::Client::new();
    let response = client
        .get(format!("http://{addr}{path}"))
        .send()
        .await
        .ok()?;
    Some(response.status().as_u16())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_replicas_behind_nginx_lose_nothing() {
    let long = std::env::var("BBS_TOPOLOGY").is_ok_and(|form| form == "long");
    let scale = if long { LONG } else { SHORT };
    let config = std::fs::read_to_string(nginx::CONFIG).unwrap();
    assert!(
        nginx::seconds(&config, "keepalive_timeout") * 1000.0 < DRAIN_DELAY_MS as f64,
        "nginx closes idle upstream connections before a replica stops draining"
    );
    let started = Instant::now();
    let mut topology = Topology::start().await;
    println!("topology up in {:?}", started.elapsed());
    let mut acknowledged = HashSet::new();

    acknowledged.extend(writes_are_read_back_through_every_replica(&topology).await);
    the_feed_crosses_replicas(&topology).await;
    attachments_are_shared(&topology, &acknowledged).await;
    let report = a_rolling_restart_fails_no_request(&mut topology, &scale).await;
    acknowledged.extend(report.acknowledged);
    let report = a_killed_replica_loses_no_acknowledged_write(&mut topology, &scale).await;
    acknowledged.extend(report.acknowledged);
    let report = a_database_outage_answers_503_and_recovers(&mut topology, &scale).await;
    acknowledged.extend(report.acknowledged);

    let stored = topology.stored().await;
    let lost: Vec<&String> = acknowledged.difference(&stored).collect();
    assert!(lost.is_empty(), "acknowledged writes lost: {lost:?}");
    println!(
        "nothing acknowledged lost: {} acknowledged writes, all among the {} stored",
        acknowledged.len(),
        stored.len()
    );
    if scale.throughput {
        throughput_with_one_and_two_replicas(&mut topology).await;
    }
    println!("topology checks done in {:?}", started.elapsed());
}

/// Check 1: articles posted through nginx are read back, unchanged, from
/// each replica directly.
async fn writes_are_read_back_through_every_replica(topology: &Topology) -> Vec<String> {
    let mut ids = Vec::new();
    for n in 0..6 {
        let posted = send(
            topology.nginx().addr,
            "POST",
            "/bbs/articles/everywhere",
            Some(&create_input(&format!("Posted {n}"))),
        )
        .await;
        assert_eq!(posted.status, 201, "{:?}", posted);
        ids.push(posted.json());
    }
    for replica in 0..3 {
        for article in &ids {
            let path = format!(
                "/bbs/articles/everywhere/{}",
                article["id"].as_str().unwrap()
            );
            let read = send(topology.addr(replica), "GET", &path, None).await;
            assert_eq!(read.status, 200, "replica {replica} reads {path}");
            assert_eq!(&read.json(), article);
        }
    }
    println!(
        "check 1: {} writes through nginx read back from each of 3 replicas",
        ids.len()
    );
    ids.iter()
        .map(|article| article["id"].as_str().unwrap().to_owned())
        .collect()
}

/// Check 1, attachments: a file uploaded through nginx is downloaded from
/// each replica directly (the replicas share `BBS_ATTACHMENTS_DIR`).
async fn attachments_are_shared(topology: &Topology, articles: &HashSet<String>) {
    use bbs_sdk::{
        ArticleFilesUpload, FileConditions, UploadFile, answers::BbsArticlesFilesDownload,
    };

    let article: uuid::Uuid = articles.iter().next().unwrap().parse().unwrap();
    let through_nginx = bbs_sdk::Client::new(format!("http://{}", topology.nginx().addr));
    let upload = ArticleFilesUpload {
        password: "correct horse".to_owned(),
        files: vec![
            UploadFile::from_bytes("shared.txt", "on every replica").media_type("text/plain"),
        ],
    };
    let snapshot = through_nginx
        .bbs()
        .articles()
        .files()
        .upload("everywhere", article, &upload)
        .await
        .unwrap();
    let url = &snapshot.files.last().unwrap().url;
    let file: uuid::Uuid = url.rsplit('/').next().unwrap().parse().unwrap();
    for replica in 0..3 {
        let direct = bbs_sdk::Client::new(format!("http://{}", topology.addr(replica)));
        let downloaded = direct
            .bbs()
            .articles()
            .files()
            .download("everywhere", article, file, &FileConditions::default())
            .await
            .unwrap();
        let BbsArticlesFilesDownload::Status200(whole) = downloaded else {
            panic!("replica {replica}: expected 200, got {downloaded:?}");
        };
        assert_eq!(
            whole.body.as_ref(),
            b"on every replica",
            "replica {replica}"
        );
    }
    println!("check 1: a file uploaded through nginx is downloaded from each of 3 replicas");
}

/// Check 1, the feed: a client of replica 0 sees an article posted
/// through replica 1, and one of replica 2 through replica 0.
async fn the_feed_crosses_replicas(topology: &Topology) {
    for (listen, post) in [(0, 1), (2, 0)] {
        let mut follower =
            EventReader::open(topology.addr(listen), "/bbs/articles/crossing/events", &[]).await;
        assert_eq!(follower.status, 200);
        let posted = send(
            topology.addr(post),
            "POST",
            "/bbs/articles/crossing",
            Some(&create_input("Across replicas")),
        )
        .await;
        let event = follower.next().await.expect("the event crosses replicas");
        assert_eq!(event.name, "created");
        assert_eq!(event.data["article"]["id"], posted.json()["id"]);
    }
    println!("check 1: the live feed crosses replicas (LISTEN/NOTIFY)");
}

/// Follows `section` through nginx until told to stop, reconnecting with
/// `Last-Event-ID` whenever a stream ends (its replica shut down); every
/// event seen.
fn follow_through(
    addr: SocketAddr,
    section: &str,
    mut stop: watch::Receiver<bool>,
) -> tokio::task::JoinHandle<(Vec<SseEvent>, usize)> {
    let path = format!("/bbs/articles/{section}/events");
    tokio::spawn(async move {
        let mut seen: Vec<SseEvent> = Vec::new();
        let mut streams = 0;
        while !*stop.borrow() {
            let last = seen.last().map(|event| event.id.clone());
            let headers: Vec<(&str, &str)> = last
                .iter()
                .map(|id| ("last-event-id", id.as_str()))
                .collect();
            let mut reader = EventReader::open(addr, &path, &headers).await;
            assert_eq!(reader.status, 200, "the feed through nginx");
            streams += 1;
            loop {
                tokio::select! {
                    event = reader.next_within(Duration::from_secs(60)) => match event {
                        Some(event) => seen.push(event),
                        None => break,
                    },
                    _ = stop.changed() => break,
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        (seen, streams)
    })
}

/// Check 2: each replica in turn gets SIGTERM, drains, exits and starts
/// again (ready before the next) under steady load: no request fails, and
/// the feed client sees every article created.
async fn a_rolling_restart_fails_no_request(topology: &mut Topology, scale: &Scale) -> Report {
    let section = "rolling";
    let (stop_following, stopped) = watch::channel(false);
    let follower = follow_through(topology.nginx().addr, section, stopped);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let load = Load::start(
        &topology.nginx().url(),
        section,
        Mix {
            writers: 3,
            readers: 3,
        },
    );
    tokio::time::sleep(scale.settle).await;
    let restarting = Instant::now();
    for replica in 0..3 {
        topology.stop_replica(replica).await;
        topology.start_replica(replica).await;
    }
    let restart_took = restarting.elapsed();
    tokio::time::sleep(scale.settle).await;
    let report = load.stop().await;
    // The last events reach the follower.
    tokio::time::sleep(Duration::from_millis(500)).await;
    stop_following.send_replace(true);
    let (seen, streams) = follower.await.unwrap();

    let failures = report.failures();
    println!(
        "check 2: rolling restart of 3 replicas in {restart_took:?} under load: {} requests ({}), {} failed",
        report.outcomes.len(),
        report.summary(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "failed during the rolling restart: {failures:#?}"
    );
    assert!(
        report.acknowledged.len() >= 3,
        "the load wrote: {}",
        report.summary()
    );

    let ids: Vec<u64> = seen.iter().map(|event| event.id.parse().unwrap()).collect();
    assert!(
        ids.windows(2).all(|pair| pair[0] < pair[1]),
        "in order, once: {ids:?}"
    );
    let created: HashSet<String> = seen
        .iter()
        .filter(|event| event.name == "created")
        .map(|event| event.data["article"]["id"].as_str().unwrap().to_owned())
        .collect();
    let written: HashSet<String> = report.acknowledged.iter().cloned().collect();
    assert_eq!(
        created, written,
        "the follower saw every article created, no other"
    );
    println!(
        "check 2: the feed client saw all {} creations over {streams} streams (it resumed with Last-Event-ID)",
        created.len()
    );
    report
}

/// Check 3: `kill -9` of replica 1 under writes. Every write answered 201
/// is in the database; the only failures are requests that replica held
/// (nginx's 502 for a POST it cannot resend), at most one per writer.
async fn a_killed_replica_loses_no_acknowledged_write(
    topology: &mut Topology,
    scale: &Scale,
) -> Report {
    const WRITERS: usize = 6;
    let victim = 1;
    let load = Load::start(
        &topology.nginx().url(),
        "killed",
        Mix {
            writers: WRITERS,
            readers: 0,
        },
    );
    tokio::time::sleep(scale.settle).await;
    topology.replica(victim).signal("KILL");
    let killed = topology.replicas[victim].take().unwrap();
    assert_eq!(
        tokio::task::spawn_blocking(move || killed.wait(Duration::from_secs(5)))
            .await
            .unwrap(),
        Some(false),
        "killed"
    );
    tokio::time::sleep(scale.after_kill).await;
    let report = load.stop().await;
    let failures = report.failures();
    println!(
        "check 3: kill -9 of a replica under {WRITERS} writers: {} requests ({}), {} failed",
        report.outcomes.len(),
        report.summary(),
        failures.len()
    );
    assert!(
        failures.len() <= WRITERS,
        "at most the requests in flight on the killed replica fail: {failures:#?}"
    );
    assert!(
        failures.iter().all(|failure| failure.status == Some(502)),
        "nginx answers 502 for what the killed replica held: {failures:#?}"
    );
    // nginx's log: each failed request was on the killed replica.
    let victim_addr = format!("127.0.0.1:{}", topology.ports[victim]);
    let log = topology.nginx().access_log();
    let failed: Vec<&str> = log
        .lines()
        .filter(|line| line.starts_with("POST /bbs/articles/killed 502 "))
        .collect();
    assert_eq!(failed.len(), failures.len(), "{log}");
    for line in &failed {
        assert!(
            line.contains(&victim_addr),
            "failed on another replica: {line}"
        );
    }
    let stored = topology.stored().await;
    let lost: Vec<&String> = report
        .acknowledged
        .iter()
        .filter(|id| !stored.contains(*id))
        .collect();
    assert!(lost.is_empty(), "acknowledged writes lost: {lost:?}");
    println!(
        "check 3: all {} acknowledged writes are in the database",
        report.acknowledged.len()
    );
    topology.start_replica(victim).await;
    report
}

/// Check 4: PostgreSQL stops as if it crashed (`pg_ctl stop -m
/// immediate`) under load, for longer than the pool waits for a
/// connection, then starts again. Requests meanwhile fail only with
/// `503 unavailable` and `Retry-After`; every replica stays up, is ready
/// again and serves writes, and its feed resumes.
async fn a_database_outage_answers_503_and_recovers(
    topology: &mut Topology,
    scale: &Scale,
) -> Report {
    let mut follower =
        EventReader::open(topology.addr(0), "/bbs/articles/outage/events", &[]).await;
    let load = Load::start(
        &topology.nginx().url(),
        "outage",
        Mix {
            writers: 3,
            readers: 3,
        },
    );
    tokio::time::sleep(scale.settle).await;
    topology.cluster.stop("immediate").unwrap();
    let stopped = Instant::now();
    tokio::time::sleep(scale.outage).await;
    topology.cluster.start_again().unwrap();
    let down_for = stopped.elapsed();
    for replica in 0..3 {
        ready(topology.addr(replica)).await;
    }
    let recovered = stopped.elapsed();
    tokio::time::sleep(scale.settle).await;
    let report = load.stop().await;
    let failures = report.failures();
    println!(
        "check 4: PostgreSQL down for {down_for:?}, every replica ready again {:?} after it stopped: {} requests ({}), {} failed",
        recovered,
        report.outcomes.len(),
        report.summary(),
        failures.len()
    );
    for failure in &failures {
        assert_eq!(
            (
                failure.status,
                failure.code.as_deref(),
                failure.retry_after.as_deref()
            ),
            (Some(503), Some("unavailable"), Some("1")),
            "{failure:?}"
        );
    }
    assert!(
        !failures.is_empty(),
        "the outage was seen: {}",
        report.summary()
    );
    for replica in 0..3 {
        assert!(
            topology.replica(replica).child_alive(),
            "replica {replica} is up"
        );
    }
    // Writes work again, and reach the feed of another replica.
    let posted = send(
        topology.addr(1),
        "POST",
        "/bbs/articles/outage",
        Some(&create_input("After the outage")),
    )
    .await;
    assert_eq!(posted.status, 201);
    let id = posted.json()["id"].clone();
    let seen = loop {
        let event = follower.next_within(Duration::from_secs(30)).await.unwrap();
        if event.data["article"]["id"] == id {
            break event;
        }
    };
    assert_eq!(seen.name, "created");
    println!("check 4: writes and the feed work again after the outage");
    let mut report = report;
    report.acknowledged.push(id.as_str().unwrap().to_owned());
    report
}

/// Check 5 (long form): `wrk` reading one article through nginx for 10 s
/// with one replica behind it, then with two.
async fn throughput_with_one_and_two_replicas(topology: &mut Topology) {
    let posted = send(
        topology.nginx().addr,
        "POST",
        "/bbs/articles/throughput",
        Some(&create_input("Read many times")),
    )
    .await;
    let path = format!(
        "/bbs/articles/throughput/{}",
        posted.json()["id"].as_str().unwrap()
    );
    for replicas in [1, 2] {
        topology.nginx = None;
        let ports = topology.ports[..replicas].to_vec();
        let dir = topology.dir.path().join(format!("nginx-{replicas}"));
        let nginx = tokio::task::spawn_blocking(move || Nginx::start(&dir, &ports))
            .await
            .unwrap();
        let url = format!("{}{path}", nginx.url());
        topology.nginx = Some(nginx);
        let output = tokio::task::spawn_blocking(move || {
            // Not `process::tool`: `wrk --version` exits with 1.
            std::process::Command::new("wrk")
                .args(["-t", "2", "-c", "32", "-d", "10s", "--latency", &url])
                .output()
                .unwrap_or_else(|err| panic!("running wrk (apt-get install wrk): {err}"))
        })
        .await
        .unwrap();
        let report = String::from_utf8_lossy(&output.stdout);
        let rate = report
            .lines()
            .find_map(|line| line.strip_prefix("Requests/sec:"))
            .unwrap_or("?")
            .trim();
        let errors = report
            .lines()
            .find(|line| line.contains("Non-2xx") || line.contains("Socket errors"))
            .unwrap_or("no errors");
        println!(
            "check 5: {replicas} replica(s) behind nginx: {rate} requests/s reading one article ({errors})"
        );
    }
}
