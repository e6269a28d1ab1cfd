//! A peer's server process, pinned to its core, and plain HTTP/1.1 requests
//! to check its answers.

use std::{
    io::{self, BufRead, BufReader, Read, Write},
    net::{SocketAddr, TcpStream},
    path::PathBuf,
    process::{Child, Command, Stdio},
    time::Duration,
};

use bench::{
    peers::{Peer, Runtime},
    scenario::RouteSet,
};

use super::node::NodePeers;

/// A running `bench-server`; killed when dropped.
pub struct Server {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
    /// How many static routes its `many` set has.
    pub many: usize,
}

/// How to start each peer's server.
#[derive(Debug)]
pub struct Launcher {
    /// `bench-server`, for the Rust peers.
    pub binary: PathBuf,
    /// The node peers, when `--with-node` prepared them.
    pub node: Option<NodePeers>,
}

impl Launcher {
    /// The peer's server process, pinned to `core` with taskset (which
    /// execs it: the child's id is the server's).
    fn command(&self, peer: Peer, routes: RouteSet, core: usize) -> io::Result<Command> {
        let mut command = Command::new("taskset");
        command.arg("-c").arg(core.to_string());
        match peer.runtime() {
            Runtime::Rust => {
                command.arg(&self.binary).args([peer.name(), routes.name()]);
            }
            Runtime::Node { script } => {
                let node = self.node.as_ref().ok_or_else(|| {
                    io::Error::other(format!("{peer} runs on node: pass --with-node"))
                })?;
                command
                    .current_dir(&node.project)
                    .env("NODE_ENV", "production")
                    .arg("node")
                    .arg(format!("dist/{script}.js"))
                    .arg("0")
                    .arg(&node.stringify);
            }
        }
        Ok(command)
    }
}

impl Server {
    /// Starts `peer`'s `routes` on `core` and waits for its address.
    pub fn start(
        launcher: &Launcher,
        peer: Peer,
        routes: RouteSet,
        core: usize,
    ) -> io::Result<Server> {
        let mut child = launcher
            .command(peer, routes, core)?
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("no stdout"))?;
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line)?;
        let parsed = line
            .trim()
            .strip_prefix("listening on ")
            .and_then(|rest| rest.split_once(" routes="))
            .and_then(|(addr, many)| Some((addr.parse().ok()?, many.parse().ok()?)));
        let Some((addr, many)) = parsed else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other(format!("{peer} did not start: {line:?}")));
        };
        Ok(Server { child, addr, many })
    }

    /// The process id (taskset execs the server, so it is the server's).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Resident memory in KiB, from `/proc`.
    pub fn rss_kib(&self) -> io::Result<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid()))?;
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))
            .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
            .ok_or_else(|| io::Error::other("no VmRSS"))
    }
}

impl Server {
    /// CPU time (user + system, every thread) the server has used, seconds,
    /// from `/proc/PID/stat`.
    pub fn cpu_seconds(&self) -> io::Result<f64> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid()))?;
        let ticks = cpu_ticks(&stat).ok_or_else(|| io::Error::other("unreadable stat"))?;
        Ok(ticks as f64 / clock_ticks_per_second()? as f64)
    }
}

/// utime + stime of a `/proc/PID/stat` line (fields 14 and 15; the command
/// name in field 2 may hold spaces, so fields are counted after its `)`).
fn cpu_ticks(stat: &str) -> Option<u64> {
    let (_, after_name) = stat.rsplit_once(')')?;
    let mut fields = after_name.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(user + system)
}

/// The kernel's clock ticks per second (`getconf CLK_TCK`), asked once.
fn clock_ticks_per_second() -> io::Result<u64> {
    static TICKS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    if let Some(ticks) = TICKS.get() {
        return Ok(*ticks);
    }
    let output = Command::new("getconf").arg("CLK_TCK").output()?;
    let ticks = String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .map_err(|_| io::Error::other("getconf CLK_TCK gave no number"))?;
    Ok(*TICKS.get_or_init(|| ticks))
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One request to check an answer with.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    pub method: &'a str,
    pub path: &'a str,
    /// Headers besides `host`, `connection` and the body's.
    pub headers: &'a [(&'a str, String)],
    /// The body and its media type.
    pub body: Option<(&'a [u8], &'a str)>,
}

impl Request<'_> {
    /// Sends the request on a new connection; answers status and body.
    pub fn send(&self, addr: SocketAddr) -> io::Result<(u16, Vec<u8>)> {
        let mut stream = TcpStream::connect(addr)?;
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        let mut head = format!(
            "{} {} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n",
            self.method, self.path
        );
        for (name, value) in self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        if let Some((body, media_type)) = self.body {
            head.push_str(&format!(
                "content-type: {media_type}\r\ncontent-length: {}\r\n",
                body.len()
            ));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes())?;
        if let Some((body, _)) = self.body {
            stream.write_all(body)?;
        }
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw)?;
        parse(&raw)
    }
}

/// Status and body of one response (content-length or chunked).
fn parse(raw: &[u8]) -> io::Result<(u16, Vec<u8>)> {
    let bad = || {
        io::Error::other(format!(
            "not an HTTP response: {:.200}",
            String::from_utf8_lossy(raw)
        ))
    };
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(bad)?;
    let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|status| status.parse().ok())
        .ok_or_else(bad)?;
    let rest = &raw[end + 4..];
    if head.contains("transfer-encoding: chunked") {
        let mut body = Vec::new();
        let mut at = 0;
        loop {
            let line_end = rest[at..]
                .windows(2)
                .position(|w| w == b"\r\n")
                .ok_or_else(bad)?
                + at;
            let size =
                usize::from_str_radix(String::from_utf8_lossy(&rest[at..line_end]).trim(), 16)
                    .map_err(|_| bad())?;
            at = line_end + 2;
            if size == 0 {
                break;
            }
            body.extend_from_slice(rest.get(at..at + size).ok_or_else(bad)?);
            at += size + 2;
        }
        return Ok((status, body));
    }
    let length = head
        .lines()
        .find_map(|line| line.strip_prefix("content-length:"))
        .and_then(|value| value.trim().parse::<usize>().ok())
        .unwrap_or(rest.len());
    Ok((status, rest.get(..length).ok_or_else(bad)?.to_vec()))
}

/// Opens `count` keep-alive connections, each answered once, and keeps them
/// open while `measure` runs.
pub fn with_idle_connections<T>(
    addr: SocketAddr,
    count: usize,
    measure: impl FnOnce() -> T,
) -> io::Result<T> {
    let mut streams = Vec::with_capacity(count);
    for _ in 0..count {
        let mut stream = TcpStream::connect(addr)?;
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        stream.write_all(format!("GET /plaintext HTTP/1.1\r\nhost: {addr}\r\n\r\n").as_bytes())?;
        let mut buffer = [0_u8; 1024];
        let read = stream.read(&mut buffer)?;
        if read == 0 {
            return Err(io::Error::other("connection closed before answering"));
        }
        streams.push(stream);
    }
    let result = measure();
    drop(streams);
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_ticks_are_read_after_the_command_name() {
        let stat =
            "4242 (bench server) S 1 4242 4242 0 -1 4194560 180 0 0 0 731 269 0 0 20 0 1 0 5 0";
        assert_eq!(cpu_ticks(stat), Some(1000));
        assert_eq!(cpu_ticks("4242 (x"), None);
        assert!(clock_ticks_per_second().unwrap() > 0);
    }
}
