//! The servers compared, each serving the scenarios its idiomatic way on one
//! thread: the framework (also with its Prometheus metrics on), raw hyper
//! 1.x, axum 0.8 and actix-web 4, served by `bench-server`; and the node
//! peers (nestia, NestJS with class-validator, fastify) in `bench/node/`,
//! started by the runner with `--with-node`.

mod actix;
mod axum;
mod framework;
mod hyper;

use std::{fmt, io, net::TcpListener};

use crate::scenario::RouteSet;

/// The framework's app for a route set, as its peer serves it.
///
/// # Errors
/// The routes conflict (they do not).
pub fn framework_app(routes: RouteSet) -> Result<::framework::App, ::framework::BuildError> {
    framework::app(routes, false)
}

/// One server implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Peer {
    /// This framework, through its typed routes.
    Framework,
    /// The same app with `AppBuilder::metrics` on: every request counted
    /// and timed for Prometheus.
    FrameworkMetrics,
    /// hyper 1.x with a hand-written service: the ceiling for hyper-based
    /// frameworks.
    Hyper,
    /// axum 0.8 with `axum::serve`.
    Axum,
    /// actix-web 4 with one worker.
    Actix,
    /// nestia: NestJS on fastify with `@nestia/core` and typia's
    /// compile-time transform.
    Nestia,
    /// NestJS on fastify with class-validator's `ValidationPipe`.
    NestJs,
    /// fastify with a JSON schema per route.
    Fastify,
}

/// What a peer runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runtime {
    /// Served by `bench-server`.
    Rust,
    /// `node bench/node/dist/{script}.js`.
    Node {
        /// The compiled script's name.
        script: &'static str,
    },
}

impl Peer {
    /// Every peer, in report order.
    pub const ALL: [Peer; 8] = [
        Peer::Framework,
        Peer::FrameworkMetrics,
        Peer::Hyper,
        Peer::Axum,
        Peer::Actix,
        Peer::Nestia,
        Peer::NestJs,
        Peer::Fastify,
    ];

    /// The name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Peer::Framework => "framework",
            Peer::FrameworkMetrics => "framework+metrics",
            Peer::Hyper => "hyper",
            Peer::Axum => "axum",
            Peer::Actix => "actix-web",
            Peer::Nestia => "nestia",
            Peer::NestJs => "nestjs",
            Peer::Fastify => "fastify",
        }
    }

    /// The peer with this name.
    pub fn from_name(name: &str) -> Option<Peer> {
        Peer::ALL.into_iter().find(|peer| peer.name() == name)
    }

    /// What the peer runs on.
    pub fn runtime(self) -> Runtime {
        match self {
            Peer::Nestia => Runtime::Node { script: "nestia" },
            Peer::NestJs => Runtime::Node { script: "nestjs" },
            Peer::Fastify => Runtime::Node { script: "fastify" },
            _ => Runtime::Rust,
        }
    }

    /// Whether the peer serves `routes`: the metrics variant and the node
    /// peers serve the main scenarios only; the form scenarios, which
    /// compare the framework with its cross-origin protection on and off,
    /// and the versions scenarios, which compare its `json` with the same
    /// route in an app serving versions, are the framework's alone.
    pub fn serves(self, routes: RouteSet) -> bool {
        match routes {
            RouteSet::Main => true,
            RouteSet::Many | RouteSet::One => matches!(
                self,
                Peer::Framework | Peer::Hyper | Peer::Axum | Peer::Actix
            ),
            RouteSet::Form | RouteSet::FormCrossOriginOff | RouteSet::Versions => {
                self == Peer::Framework
            }
        }
    }

    /// Serves `routes` on `listener` with one thread until the process ends.
    ///
    /// # Errors
    /// The runtime or the listener fails, or the peer is not a Rust one.
    pub fn serve(self, routes: RouteSet, listener: TcpListener) -> io::Result<()> {
        if !self.serves(routes) {
            return Err(io::Error::other(format!(
                "{self} does not serve the {} routes",
                routes.name()
            )));
        }
        listener.set_nonblocking(true)?;
        match self {
            Peer::Framework => framework::serve(routes, listener, false),
            Peer::FrameworkMetrics => framework::serve(routes, listener, true),
            Peer::Hyper => hyper::serve(routes, listener),
            Peer::Axum => axum::serve(routes, listener),
            Peer::Actix => actix::serve(routes, listener),
            Peer::Nestia | Peer::NestJs | Peer::Fastify => Err(io::Error::other(format!(
                "{self} runs on node: the runner starts it"
            ))),
        }
    }
}

impl fmt::Display for Peer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A one-thread tokio runtime, as every tokio-based peer uses.
fn runtime() -> io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
}

/// The value `/stringify` answers with.
fn boxes() -> crate::with_validator::Boxes {
    serde_json::from_slice(&crate::boxes_json())
        .unwrap_or(crate::with_validator::Boxes { data: Vec::new() })
}
