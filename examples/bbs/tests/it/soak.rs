//! A bounded soak: mixed BBS traffic over loopback for `SOAK_SECONDS`
//! (default 30, as CI runs it; 600 for the full run), with zero errors and
//! resident memory flat after warm-up.

use std::{
    net::SocketAddr,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use serde_json::{Value, json};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

use crate::{
    process::Bbs,
    support::{create_input, parse_response},
};

/// Resident memory of a process, in KiB.
fn resident_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("VmRSS:"))
                .and_then(|value| value.trim().trim_end_matches(" kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// One keep-alive connection that sends requests one at a time.
struct Client {
    stream: TcpStream,
    buffer: Vec<u8>,
}

impl Client {
    async fn connect(addr: SocketAddr) -> Client {
        Client {
            stream: TcpStream::connect(addr).await.unwrap(),
            buffer: Vec::new(),
        }
    }

    async fn send(&mut self, method: &str, path: &str, body: Option<&Value>) -> (u16, Vec<u8>) {
        let body = body
            .map(|value| serde_json::to_vec(value).unwrap())
            .unwrap_or_default();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nhost: soak\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
            body.len()
        );
        self.stream.write_all(head.as_bytes()).await.unwrap();
        self.stream.write_all(&body).await.unwrap();
        loop {
            if let Some(end) = self.buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&self.buffer[..end]).to_ascii_lowercase();
                let length: usize = head
                    .lines()
                    .find_map(|line| {
                        line.strip_prefix("content-length:")
                            .map(|v| v.trim().parse().unwrap())
                    })
                    .unwrap_or(0);
                if self.buffer.len() >= end + 4 + length {
                    let response = parse_response(&self.buffer[..end + 4 + length]);
                    self.buffer.drain(..end + 4 + length);
                    return (response.status, response.body);
                }
            }
            let mut chunk = [0u8; 8192];
            let n = tokio::time::timeout(Duration::from_secs(30), self.stream.read(&mut chunk))
                .await
                .expect("an answer within 30 s")
                .unwrap();
            assert!(n > 0, "the server closed a keep-alive connection");
            self.buffer.extend_from_slice(&chunk[..n]);
        }
    }
}

#[tokio::test]
async fn soak_mixed_traffic_without_errors_and_with_flat_memory() {
    let seconds: u64 = std::env::var("SOAK_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let dir = tempfile::tempdir().unwrap();
    let server = Bbs::start(&dir);
    let addr = server.addr;
    let pid = server.pid();
    let requests = Arc::new(AtomicU64::new(0));
    let errors = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let workers: Vec<_> = (0..8u64)
        .map(|worker| {
            let (requests, errors) = (Arc::clone(&requests), Arc::clone(&errors));
            tokio::spawn(async move {
                let mut client = Client::connect(addr).await;
                let mut ids: Vec<String> = Vec::new();
                let mut n = 0u64;
                while Instant::now() < deadline {
                    n += 1;
                    let (expected, (status, body)) = match (n + worker) % 10 {
                        0 => (201, client.send("POST", "/bbs/articles/soak", Some(&create_input("Soaking"))).await),
                        1 if !ids.is_empty() => {
                            let id = &ids[(n as usize) % ids.len()];
                            let update = json!({ "title": "Soaked", "body": "again", "format": "txt", "files": [], "password": "correct horse" });
                            (200, client.send("PUT", &format!("/bbs/articles/soak/{id}"), Some(&update)).await)
                        }
                        2 => (400, client.send("GET", "/bbs/articles/soak/not-a-uuid", None).await),
                        3..=5 => (200, client.send("PATCH", "/bbs/articles/soak", Some(&json!({ "limit": 20 }))).await),
                        _ if !ids.is_empty() => {
                            let id = &ids[(n as usize * 7) % ids.len()];
                            (200, client.send("GET", &format!("/bbs/articles/soak/{id}"), None).await)
                        }
                        _ => (200, client.send("PATCH", "/bbs/articles/soak", Some(&json!({}))).await),
                    };
                    requests.fetch_add(1, Ordering::Relaxed);
                    if status != expected {
                        errors.fetch_add(1, Ordering::Relaxed);
                        eprintln!("unexpected {status} (wanted {expected}): {}", String::from_utf8_lossy(&body));
                    } else if status == 201 {
                        let created: Value = serde_json::from_slice(&body).unwrap();
                        ids.push(created["id"].as_str().unwrap().to_owned());
                    }
                }
            })
        })
        .collect();
    // Warm-up is the first third; `warm` is its highest sample (a single
    // sample reads 19 MiB more or less as a password hash is in progress or
    // not), and memory is sampled from then on.
    let warm_until = Instant::now() + Duration::from_secs(seconds / 3);
    let mut warm = resident_kib(pid);
    while Instant::now() < warm_until {
        tokio::time::sleep(Duration::from_millis(500)).await;
        warm = warm.max(resident_kib(pid));
    }
    let mut peak = warm;
    while Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(500)).await;
        peak = peak.max(resident_kib(pid));
    }
    for worker in workers {
        worker.await.unwrap();
    }
    let end = resident_kib(pid);
    let total = requests.load(Ordering::Relaxed);
    eprintln!(
        "soak: {seconds} s, {total} requests ({:.0}/s), {} errors, RSS peak during warm-up {warm} KiB, peak after {peak} KiB, end {end} KiB",
        total as f64 / seconds as f64,
        errors.load(Ordering::Relaxed)
    );
    assert_eq!(
        errors.load(Ordering::Relaxed),
        0,
        "every request got its expected answer"
    );
    assert!(total > seconds * 10, "the load ran: {total} requests");
    assert!(warm > 0, "resident memory was read");
    assert!(
        peak <= warm + warm / 2 + 16 * 1024,
        "memory grew from {warm} KiB to {peak} KiB"
    );
    // Password hashing fills 19 MiB per hash; it must not pile up.
    assert!(peak < 256 * 1024, "resident memory reached {peak} KiB");
}
