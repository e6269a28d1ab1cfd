//! The servers compared, each serving the scenarios its idiomatic way on one
//! thread: the framework, raw hyper 1.x, axum 0.8 and actix-web 4.

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
    framework::app(routes)
}

/// One server implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Peer {
    /// This framework, through its typed routes.
    Framework,
    /// hyper 1.x with a hand-written service: the ceiling for hyper-based
    /// frameworks.
    Hyper,
    /// axum 0.8 with `axum::serve`.
    Axum,
    /// actix-web 4 with one worker.
    Actix,
}

impl Peer {
    /// Every peer, in report order.
    pub const ALL: [Peer; 4] = [Peer::Framework, Peer::Hyper, Peer::Axum, Peer::Actix];

    /// The name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Peer::Framework => "framework",
            Peer::Hyper => "hyper",
            Peer::Axum => "axum",
            Peer::Actix => "actix-web",
        }
    }

    /// The peer with this name.
    pub fn from_name(name: &str) -> Option<Peer> {
        Peer::ALL.into_iter().find(|peer| peer.name() == name)
    }

    /// Serves `routes` on `listener` with one thread until the process ends.
    ///
    /// # Errors
    /// The runtime or the listener fails.
    pub fn serve(self, routes: RouteSet, listener: TcpListener) -> io::Result<()> {
        listener.set_nonblocking(true)?;
        match self {
            Peer::Framework => framework::serve(routes, listener),
            Peer::Hyper => hyper::serve(routes, listener),
            Peer::Axum => axum::serve(routes, listener),
            Peer::Actix => actix::serve(routes, listener),
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
