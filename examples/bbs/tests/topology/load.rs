//! Steady load through the balancer: writers post articles, readers read
//! them back and list the section; every answer is recorded.

use std::{
    collections::BTreeMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use serde_json::{Value, json};
use tokio::{sync::watch, task::JoinHandle};

/// What a request did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Op {
    /// `POST` an article.
    Write,
    /// `GET` an acknowledged article.
    Read,
    /// `PATCH` the section's first page.
    List,
}

/// One request's answer.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub op: Op,
    /// `None` when no answer came (the connection failed).
    pub status: Option<u16>,
    /// The problem's `code`, for an error.
    pub code: Option<String>,
    /// The `Retry-After` header.
    pub retry_after: Option<String>,
    /// Why no answer came.
    pub error: Option<String>,
    /// When the request was sent.
    pub sent: Instant,
}

impl Outcome {
    pub fn ok(&self) -> bool {
        self.status
            .is_some_and(|status| (200..300).contains(&status))
    }
}

/// How many tasks of each kind.
#[derive(Clone, Copy, Debug)]
pub struct Mix {
    pub writers: usize,
    pub readers: usize,
}

/// Load running against a base URL.
pub struct Load {
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<Vec<Outcome>>>,
    acknowledged: Arc<Mutex<Vec<String>>>,
}

/// What a load did.
pub struct Report {
    pub outcomes: Vec<Outcome>,
    /// The ids of the articles whose creation was answered `201`.
    pub acknowledged: Vec<String>,
}

impl Load {
    /// Starts `mix` against `base` (nginx), in `section`.
    pub fn start(base: &str, section: &str, mix: Mix) -> Load {
        let (stop, stopped) = watch::channel(false);
        let acknowledged = Arc::new(Mutex::new(Vec::new()));
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap();
        let section = section.replace(' ', "%20");
        let mut tasks = Vec::new();
        for n in 0..mix.writers {
            let worker = Worker {
                client: client.clone(),
                url: format!("{base}/bbs/articles/{section}"),
                acknowledged: Arc::clone(&acknowledged),
                stopped: stopped.clone(),
            };
            tasks.push(tokio::spawn(worker.write(n)));
        }
        for n in 0..mix.readers {
            let worker = Worker {
                client: client.clone(),
                url: format!("{base}/bbs/articles/{section}"),
                acknowledged: Arc::clone(&acknowledged),
                stopped: stopped.clone(),
            };
            tasks.push(tokio::spawn(worker.read(n)));
        }
        Load {
            stop,
            tasks,
            acknowledged,
        }
    }

    /// Stops the load once every task's request in flight is answered.
    pub async fn stop(self) -> Report {
        self.stop.send_replace(true);
        let mut outcomes = Vec::new();
        for task in self.tasks {
            outcomes.extend(task.await.unwrap());
        }
        outcomes.sort_by_key(|outcome| outcome.sent);
        let acknowledged = self.acknowledged.lock().unwrap().clone();
        Report {
            outcomes,
            acknowledged,
        }
    }
}

impl Report {
    pub fn failures(&self) -> Vec<&Outcome> {
        self.outcomes
            .iter()
            .filter(|outcome| !outcome.ok())
            .collect()
    }

    /// Requests by kind and answer: `Write 201: 120, Read 200: 300, ...`.
    pub fn summary(&self) -> String {
        let mut counts: BTreeMap<(Op, String), usize> = BTreeMap::new();
        for outcome in &self.outcomes {
            let answer = match (outcome.status, &outcome.code) {
                (Some(status), Some(code)) => format!("{status} {code}"),
                (Some(status), None) => status.to_string(),
                (None, _) => format!("no answer ({})", outcome.error.as_deref().unwrap_or("?")),
            };
            *counts.entry((outcome.op, answer)).or_default() += 1;
        }
        counts
            .iter()
            .map(|((op, answer), count)| format!("{op:?} {answer}: {count}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

struct Worker {
    client: reqwest::Client,
    /// The section's articles.
    url: String,
    acknowledged: Arc<Mutex<Vec<String>>>,
    stopped: watch::Receiver<bool>,
}

impl Worker {
    async fn write(self, writer: usize) -> Vec<Outcome> {
        let mut outcomes = Vec::new();
        let mut n = 0;
        while !*self.stopped.borrow() {
            n += 1;
            let input = json!({
                "writer": format!("writer {writer}"),
                "title": format!("Load {writer}-{n}"),
                "body": "under load",
                "format": "txt",
                "files": [],
                "password": "pw",
            });
            let request = json_body(self.client.post(&self.url), &input);
            let (outcome, body) = send(Op::Write, request).await;
            if outcome.status == Some(201)
                && let Some(id) = body.as_ref().and_then(|body| body["id"].as_str())
            {
                self.acknowledged.lock().unwrap().push(id.to_owned());
            }
            outcomes.push(outcome);
        }
        outcomes
    }

    async fn read(self, reader: usize) -> Vec<Outcome> {
        let mut outcomes = Vec::new();
        let mut n = reader;
        while !*self.stopped.borrow() {
            n += 1;
            let known = {
                let acknowledged = self.acknowledged.lock().unwrap();
                (!acknowledged.is_empty()).then(|| acknowledged[n % acknowledged.len()].clone())
            };
            let (outcome, _) = match known {
                Some(id) if !n.is_multiple_of(3) => {
                    send(Op::Read, self.client.get(format!("{}/{id}", self.url))).await
                }
                _ => {
                    let request = json_body(self.client.patch(&self.url), &json!({ "limit": 10 }));
                    send(Op::List, request).await
                }
            };
            outcomes.push(outcome);
            // Readers leave the cores to the writers' password hashing.
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        outcomes
    }
}

/// `request` with `value` as its JSON body.
fn json_body(request: reqwest::RequestBuilder, value: &Value) -> reqwest::RequestBuilder {
    request
        .header("content-type", "application/json")
        .body(serde_json::to_vec(value).unwrap())
}

/// Sends `request`; its outcome and, when JSON, its body.
async fn send(op: Op, request: reqwest::RequestBuilder) -> (Outcome, Option<Value>) {
    let sent = Instant::now();
    match request.send().await {
        Ok(response) => {
            let status = response.status().as_u16();
            let retry_after = response
                .headers()
                .get("retry-after")
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned);
            let body: Option<Value> = response
                .bytes()
                .await
                .ok()
                .and_then(|bytes| serde_json::from_slice(&bytes).ok());
            let code = if (200..300).contains(&status) {
                None
            } else {
                Some(
                    body.as_ref()
                        .and_then(|body| body["code"].as_str())
                        .unwrap_or("(not problem+json)")
                        .to_owned(),
                )
            };
            let outcome = Outcome {
                op,
                status: Some(status),
                code,
                retry_after,
                error: None,
                sent,
            };
            (outcome, body)
        }
        Err(err) => {
            let outcome = Outcome {
                op,
                status: None,
                code: None,
                retry_after: None,
                error: Some(err.to_string()),
                sent,
            };
            (outcome, None)
        }
    }
}
