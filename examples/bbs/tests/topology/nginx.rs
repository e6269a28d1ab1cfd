//! nginx as the load balancer, running the committed configuration
//! (`examples/bbs/deploy/nginx.conf`, described in examples/bbs/README.md) with the
//! tests' ports, under a main configuration of the test's own (prefix,
//! pid, logs and temporary files in a temporary directory).

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

/// The committed configuration.
pub const CONFIG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/nginx.conf");

/// What to do when nginx is not installed.
const INSTALL: &str = "the topology tests need nginx (Debian package `nginx`): \
    run `sudo apt-get install -y nginx`, or scripts/test as root, which installs it";

/// A running nginx; stopped when dropped.
pub struct Nginx {
    child: Child,
    pub addr: SocketAddr,
    dir: PathBuf,
}

/// The committed configuration with the replicas on `replicas` (the first
/// `replicas.len()` of its three servers) and nginx listening on `listen`.
pub fn configure(config: &str, replicas: &[u16], listen: u16) -> String {
    let mut servers = 0;
    let mut listens = 0;
    let mut out = String::new();
    for line in config.lines() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("server 127.0.0.1:") {
            let options = rest.split_once(' ').map_or(";", |(_, options)| options);
            if let Some(port) = replicas.get(servers) {
                out.push_str(&format!("    server 127.0.0.1:{port} {options}\n"));
            }
            servers += 1;
        } else if trimmed == "listen 8080;" {
            out.push_str(&format!("    listen 127.0.0.1:{listen};\n"));
            listens += 1;
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    assert_eq!(
        (servers, listens),
        (3, 1),
        "{CONFIG} should have three `server 127.0.0.1:port ...` lines and one `listen 8080;`"
    );
    out
}

/// The seconds of a `name <n>s;` directive of the committed configuration.
pub fn seconds(config: &str, name: &str) -> f64 {
    config
        .lines()
        .find_map(|line| line.trim().strip_prefix(name)?.trim().strip_suffix("s;"))
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or_else(|| panic!("no `{name} <n>s;` in {CONFIG}"))
}

fn binary() -> PathBuf {
    let on_path = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .unwrap_or_default();
    on_path
        .into_iter()
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/sbin")])
        .map(|dir| dir.join("nginx"))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| panic!("{INSTALL}"))
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix("Uid:"))
        .and_then(|ids| ids.split_whitespace().next())
        == Some("0")
}

impl Nginx {
    /// nginx in `dir` (which it may fill) in front of `replicas`, on a free
    /// port; returns once it accepts connections.
    pub fn start(dir: &Path, replicas: &[u16]) -> Nginx {
        let config = std::fs::read_to_string(CONFIG).unwrap();
        let listen = super::free_port();
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("bbs.conf"), configure(&config, replicas, listen)).unwrap();
        let temp = dir.join("temp");
        std::fs::create_dir_all(&temp).unwrap();
        // Under root the workers run as nobody: they need to reach the
        // temporary files.
        for open in [dir, &temp] {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(open, std::fs::Permissions::from_mode(0o777)).unwrap();
        }
        let d = dir.display();
        let t = temp.display();
        let user = if is_root() {
            "user nobody nogroup;"
        } else {
            ""
        };
        let main = format!(
            "{user}
daemon off;
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    log_format upstream '$request_method $uri $status $upstream_addr $upstream_status';
    access_log {d}/access.log upstream;
    client_body_temp_path {t}/body;
    proxy_temp_path {t}/proxy;
    fastcgi_temp_path {t}/fastcgi;
    uwsgi_temp_path {t}/uwsgi;
    scgi_temp_path {t}/scgi;
    include {d}/bbs.conf;
}}
"
        );
        std::fs::write(dir.join("nginx.conf"), main).unwrap();
        let child = Command::new(binary())
            .arg("-p")
            .arg(dir)
            .arg("-e")
            .arg(dir.join("error.log"))
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|err| panic!("starting nginx: {err}. {INSTALL}"));
        let addr: SocketAddr = ([127, 0, 0, 1], listen).into();
        let mut nginx = Nginx {
            child,
            addr,
            dir: dir.to_owned(),
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(addr).is_err() {
            if let Ok(Some(status)) = nginx.child.try_wait() {
                panic!("nginx exited ({status}): {}", nginx.error_log());
            }
            assert!(Instant::now() < deadline, "nginx listens within 10 s");
            std::thread::sleep(Duration::from_millis(20));
        }
        nginx
    }

    /// nginx's own errors so far.
    pub fn error_log(&self) -> String {
        std::fs::read_to_string(self.dir.join("error.log")).unwrap_or_default()
    }

    /// One line per request: method, path, status, the replicas tried and
    /// their answers.
    pub fn access_log(&self) -> String {
        std::fs::read_to_string(self.dir.join("access.log")).unwrap_or_default()
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

impl Drop for Nginx {
    /// Stops nginx with SIGTERM: the master stops its workers, which would
    /// outlive a SIGKILLed master.
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_committed_configuration_takes_the_tests_ports() {
    let config = std::fs::read_to_string(CONFIG).unwrap();
    let two = configure(&config, &[4001, 4002], 9000);
    assert!(two.contains("    server 127.0.0.1:4001 max_fails=1 fail_timeout=2s;\n"));
    assert!(two.contains("    server 127.0.0.1:4002 max_fails=1 fail_timeout=2s;\n"));
    assert!(!two.contains("3003"), "{two}");
    assert!(two.contains("    listen 127.0.0.1:9000;\n"));
    assert_eq!(seconds(&config, "keepalive_timeout"), 1.0);
}
