//! A throwaway PostgreSQL cluster for the tests: started once per test
//! process from the Debian `postgresql` package's binaries, in a temporary
//! directory, on a free loopback port (its unix socket in that directory
//! too), with a fresh database per test. PostgreSQL refuses to run as root,
//! so under root `initdb` and `postgres` run as `nobody` (`setpriv`). A
//! watchdog shell started with the server stops it and removes the
//! directory once this process has exited, however it exits.

use std::{
    net::TcpListener,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::{
        OnceLock,
        atomic::{AtomicU32, Ordering},
    },
    time::{Duration, Instant},
};

use sqlx::{Connection, PgConnection};

/// What to do when PostgreSQL is not installed.
const INSTALL: &str = "the PostgreSQL tests need the Debian package `postgresql` \
    (initdb, postgres): run `sudo apt-get install -y postgresql`, or scripts/test as root, \
    which installs it";

/// The cluster of this test process.
pub struct Cluster {
    port: u16,
}

static CLUSTER: OnceLock<Result<Cluster, String>> = OnceLock::new();

/// The cluster, started on first use; panics (failing the test) with what
/// to install or what went wrong when it cannot start.
pub fn cluster() -> &'static Cluster {
    match CLUSTER.get_or_init(Cluster::start) {
        Ok(cluster) => cluster,
        Err(err) => panic!("starting PostgreSQL: {err}"),
    }
}

/// The superuser `initdb` creates; it logs in without a password (`trust`),
/// which only this throwaway cluster on loopback allows.
const USER: &str = "bbs";

impl Cluster {
    fn start() -> Result<Cluster, String> {
        let bin = server_binaries()?;
        let base = tempfile::Builder::new()
            .prefix("bbs-postgres-")
            .tempdir()
            .map_err(|err| format!("creating a temporary directory: {err}"))?
            .keep();
        let runner = Runner::for_this_user(&base)?;
        let data = base.join("data");
        let initdb = runner
            .command(&bin.join("initdb"), &base)
            .args(["--no-sync", "--no-instructions", "--auth=trust"])
            .args(["--encoding=UTF8", "--locale=C", "--username", USER])
            .arg("--pgdata")
            .arg(&data)
            .output()
            .map_err(|err| format!("running {}: {err}", bin.join("initdb").display()))?;
        if !initdb.status.success() {
            return Err(format!(
                "initdb failed ({}): {}{}",
                initdb.status,
                String::from_utf8_lossy(&initdb.stdout),
                String::from_utf8_lossy(&initdb.stderr)
            ));
        }
        let port = free_port()?;
        let log = base.join("postgres.log");
        let mut server = runner.command(&bin.join("postgres"), &base);
        server
            .arg("-D")
            .arg(&data)
            .args(["-p", &port.to_string(), "-k"])
            .arg(&base)
            .args(["-c", "listen_addresses=127.0.0.1"])
            // A throwaway cluster: no need to survive a power cut.
            .args(["-c", "fsync=off", "-c", "synchronous_commit=off"])
            .args(["-c", "max_connections=300"]);
        // The watchdog: runs the server, and once this test process is
        // gone (or the server has stopped) stops it and removes `base`.
        let mut watchdog = Command::new("sh");
        watchdog
            .arg("-c")
            .arg(
                r#"base=$1 owner=$2 log=$3; shift 3
                "$@" >"$log" 2>&1 &
                server=$!
                while kill -0 "$owner" 2>/dev/null && kill -0 "$server" 2>/dev/null; do sleep 1; done
                kill -INT "$server" 2>/dev/null
                wait "$server"
                rm -rf "$base""#,
            )
            .arg("watchdog")
            .arg(&base)
            .arg(std::process::id().to_string())
            .arg(&log)
            .arg(server.get_program())
            .args(server.get_args())
            .current_dir(&base)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // Its own process group, so a ^C to the tests does not kill it
        // before it has cleaned up.
        std::os::unix::process::CommandExt::process_group(&mut watchdog, 0);
        let mut watchdog = watchdog
            .spawn()
            .map_err(|err| format!("starting the watchdog shell: {err}"))?;
        let started = Instant::now();
        loop {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
                && Command::new(bin.join("pg_isready"))
                    .args(["-q", "-h", "127.0.0.1", "-p", &port.to_string(), "-U", USER])
                    .status()
                    .is_ok_and(|status| status.success())
            {
                return Ok(Cluster { port });
            }
            let exited = watchdog.try_wait().ok().flatten();
            if exited.is_some() || started.elapsed() > Duration::from_secs(60) {
                let log = std::fs::read_to_string(&log).unwrap_or_default();
                let _ = watchdog.kill();
                return Err(format!(
                    "postgres did not accept connections on port {port} ({}): {log}",
                    exited.map_or("60 s passed".to_owned(), |status| status.to_string())
                ));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn url(&self, database: &str) -> String {
        format!("postgres://{USER}@127.0.0.1:{}/{database}", self.port)
    }

    /// A new, empty database; its URL.
    pub async fn create_database(&self) -> String {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let name = format!("bbs_test_{}", NEXT.fetch_add(1, Ordering::Relaxed));
        let mut admin = PgConnection::connect(&self.url("postgres"))
            .await
            .unwrap_or_else(|err| panic!("connecting to the test cluster: {err}"));
        sqlx::raw_sql(&format!("CREATE DATABASE {name}"))
            .execute(&mut admin)
            .await
            .unwrap_or_else(|err| panic!("CREATE DATABASE {name}: {err}"));
        admin.close().await.ok();
        self.url(&name)
    }
}

/// The directory with `initdb` and `postgres`: `pg_config --bindir`, else
/// the newest `/usr/lib/postgresql/<version>/bin`.
fn server_binaries() -> Result<PathBuf, String> {
    let has_server = |dir: &Path| dir.join("initdb").is_file() && dir.join("postgres").is_file();
    if let Ok(output) = Command::new("pg_config").arg("--bindir").output() {
        let dir = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
        if output.status.success() && has_server(&dir) {
            return Ok(dir);
        }
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            Some((version, entry.path().join("bin")))
        })
        .filter(|(_, dir)| has_server(dir))
        .collect();
    versions.sort();
    versions
        .pop()
        .map(|(_, dir)| dir)
        .ok_or_else(|| INSTALL.to_owned())
}

/// How the server's programs are run: as this user, or as `nobody` when
/// this is root.
enum Runner {
    Me,
    Nobody { uid: u32, gid: u32 },
}

impl Runner {
    /// The runner, having given `base` to the user it runs as.
    fn for_this_user(base: &Path) -> Result<Runner, String> {
        if id(&["-u"])? != 0 {
            return Ok(Runner::Me);
        }
        let (uid, gid) = (id(&["-u", "nobody"])?, id(&["-g", "nobody"])?);
        std::os::unix::fs::chown(base, Some(uid), Some(gid))
            .map_err(|err| format!("giving {} to nobody: {err}", base.display()))?;
        Ok(Runner::Nobody { uid, gid })
    }

    fn command(&self, program: &Path, base: &Path) -> Command {
        let mut command = match self {
            Runner::Me => Command::new(program),
            Runner::Nobody { uid, gid } => {
                let mut command = Command::new("setpriv");
                command
                    .arg(format!("--reuid={uid}"))
                    .arg(format!("--regid={gid}"))
                    .args(["--clear-groups", "--"])
                    .arg(program);
                command
            }
        };
        command.current_dir(base);
        command
    }
}

/// `id <args>`: a user or group id.
fn id(args: &[&str]) -> Result<u32, String> {
    let output = Command::new("id")
        .args(args)
        .output()
        .map_err(|err| format!("running id: {err}"))?;
    String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .map_err(|_| {
            format!(
                "`id {}` answered {:?}",
                args.join(" "),
                String::from_utf8_lossy(&output.stderr)
            )
        })
}

/// A loopback port nothing listens on now.
fn free_port() -> Result<u16, String> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .map_err(|err| format!("finding a free port: {err}"))
}
