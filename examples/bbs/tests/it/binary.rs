//! The `bbs` binary as a child process: started on a database (on a port
//! of its own as a replica), signalled, waited for. Shared by the `it` and
//! `topology` test binaries.

use std::{
    io::{BufRead, BufReader},
    net::SocketAddr,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use tempfile::TempDir;

use crate::support::database_url;

/// A running `bbs` process.
pub(crate) struct Bbs {
    child: Child,
    pub(crate) addr: SocketAddr,
}

impl Bbs {
    pub(crate) fn start(dir: &TempDir) -> Bbs {
        Bbs::start_at(&database_url(dir))
    }

    /// The server with `env` added to its environment.
    pub(crate) fn start_with(dir: &TempDir, env: &[(&str, &str)]) -> Bbs {
        let mut command = Command::new(env!("CARGO_BIN_EXE_bbs"));
        command.envs(env.iter().copied());
        Bbs::spawn(command, &database_url(dir), 0)
    }

    pub(crate) fn start_at(database_url: &str) -> Bbs {
        Bbs::spawn(Command::new(env!("CARGO_BIN_EXE_bbs")), database_url, 0)
    }

    /// A replica: the server on `port` over `database_url`, with `env`
    /// added to its environment.
    #[allow(dead_code)] // The topology binary's.
    pub(crate) fn replica(database_url: &str, port: u16, env: &[(&str, &str)]) -> Bbs {
        let mut command = Command::new(env!("CARGO_BIN_EXE_bbs"));
        command.envs(env.iter().copied());
        Bbs::spawn(command, database_url, port)
    }

    fn spawn(command: Command, database_url: &str, port: u16) -> Bbs {
        Bbs::spawn_logging(command, database_url, port, "warn")
    }

    /// The server with at most `files` open file descriptors (prlimit, from
    /// util-linux, execs it).
    pub(crate) fn start_with_fd_limit(dir: &TempDir, files: u32) -> Bbs {
        let mut command = Command::new("prlimit");
        command
            .arg(format!("--nofile={files}:{files}"))
            .arg(env!("CARGO_BIN_EXE_bbs"));
        Bbs::spawn(command, &database_url(dir), 0)
    }

    /// The server at `log` level (`RUST_LOG`) unless `command` sets it.
    fn spawn_logging(mut command: Command, database_url: &str, port: u16, log: &str) -> Bbs {
        if !command.get_envs().any(|(name, _)| name == "RUST_LOG") {
            command.env("RUST_LOG", log);
        }
        let mut child = command
            .env("PORT", port.to_string())
            .env("HOST", "127.0.0.1")
            .env("DATABASE_URL", database_url)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).unwrap();
        let addr = line
            .trim()
            .strip_prefix("bbs listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .parse()
            .unwrap();
        Bbs { child, addr }
    }

    pub(crate) fn child_alive(&self) -> bool {
        // Signal 0 checks the process exists without touching it.
        Command::new("kill")
            .args(["-0", &self.child.id().to_string()])
            .status()
            .is_ok_and(|status| status.success())
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    pub(crate) fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Waits for the process to exit, returning whether it exited cleanly.
    pub(crate) fn wait(mut self, within: Duration) -> Option<bool> {
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status.success());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        None
    }
}

impl Drop for Bbs {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
