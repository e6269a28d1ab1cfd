//! Throwaway PostgreSQL clusters for the tests, from the Debian
//! `postgresql` package's binaries: each in a temporary directory, on a
//! free loopback port (its unix socket in that directory too), started and
//! stopped with `pg_ctl`. The route tests share one cluster per test
//! process, with a fresh database per test; the topology tests start one
//! of their own, which they stop and start again. PostgreSQL refuses to
//! run as root, so under root `initdb` and `pg_ctl` run as `nobody`
//! (`setpriv`). A watchdog shell stops each cluster and removes its
//! directory once this process has exited, however it exits.

use std::{
    net::TcpListener,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::{
        OnceLock,
        atomic::{AtomicU32, Ordering},
    },
};

use sqlx::{Connection, PgConnection};

/// What to do when PostgreSQL is not installed.
const INSTALL: &str = "the PostgreSQL tests need the Debian package `postgresql` \
    (initdb, pg_ctl, postgres): run `sudo apt-get install -y postgresql`, or scripts/test as \
    root, which installs it";

/// A cluster of this test process.
pub struct Cluster {
    port: u16,
    bin: PathBuf,
    base: PathBuf,
    runner: Runner,
    /// `postgres` options: port, socket directory, settings.
    options: String,
}

static CLUSTER: OnceLock<Result<Cluster, String>> = OnceLock::new();

/// The route tests' cluster, started on first use; panics (failing the
/// test) with what to install or what went wrong when it cannot start.
pub fn cluster() -> &'static Cluster {
    // A throwaway cluster: no need to survive a power cut, or a crash.
    let settings = [("fsync", "off"), ("synchronous_commit", "off")];
    match CLUSTER.get_or_init(|| Cluster::start(&settings)) {
        Ok(cluster) => cluster,
        Err(err) => panic!("starting PostgreSQL: {err}"),
    }
}

/// The superuser `initdb` creates; it logs in without a password (`trust`),
/// which only this throwaway cluster on loopback allows.
const USER: &str = "bbs";

impl Cluster {
    /// A new cluster with `settings` (`-c name=value`), running.
    pub fn start(settings: &[(&str, &str)]) -> Result<Cluster, String> {
        let bin = server_binaries()?;
        let base = tempfile::Builder::new()
            .prefix("bbs-postgres-")
            .tempdir()
            .map_err(|err| format!("creating a temporary directory: {err}"))?
            .keep();
        let runner = Runner::for_this_user(&base)?;
        let initdb = runner
            .command(&bin.join("initdb"), &base)
            .args(["--no-sync", "--no-instructions", "--auth=trust"])
            .args(["--encoding=UTF8", "--locale=C", "--username", USER])
            .arg("--pgdata")
            .arg(base.join("data"))
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
        let mut options = format!(
            "-p {port} -k {} -c listen_addresses=127.0.0.1 -c max_connections=300",
            base.display()
        );
        for (name, value) in settings {
            options.push_str(&format!(" -c {name}={value}"));
        }
        watch_over(&base)?;
        let cluster = Cluster {
            port,
            bin,
            base,
            runner,
            options,
        };
        cluster.start_again()?;
        Ok(cluster)
    }

    /// Starts the server (again), waiting until it accepts connections.
    pub fn start_again(&self) -> Result<(), String> {
        self.pg_ctl(&["start", "-w", "-t", "60", "-o", &self.options])
    }

    /// Stops the server: `fast` (clients are told, work in progress is
    /// rolled back, then a checkpoint) or `immediate` (as a crash: no
    /// checkpoint, recovery from the WAL at the next start).
    #[allow(dead_code)] // The topology binary's.
    pub fn stop(&self, mode: &str) -> Result<(), String> {
        self.pg_ctl(&["stop", "-w", "-m", mode])
    }

    fn pg_ctl(&self, args: &[&str]) -> Result<(), String> {
        let output = self
            .runner
            .command(&self.bin.join("pg_ctl"), &self.base)
            .arg("-D")
            .arg(self.base.join("data"))
            .arg("-l")
            .arg(self.base.join("postgres.log"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .map_err(|err| format!("running pg_ctl: {err}"))?;
        if output.status.success() {
            return Ok(());
        }
        let log = std::fs::read_to_string(self.base.join("postgres.log")).unwrap_or_default();
        Err(format!(
            "pg_ctl {} failed ({}): {}{}\n{log}",
            args.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
        ))
    }

    /// The URL of `database` on this cluster.
    pub fn url(&self, database: &str) -> String {
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

/// Starts the watchdog of the cluster in `base`: once this test process
/// is gone, it stops the server (the first line of `postmaster.pid`) and
/// removes `base`. It runs in a process group of its own, so a ^C to the
/// tests does not kill it before it has cleaned up.
fn watch_over(base: &Path) -> Result<(), String> {
    let mut watchdog = Command::new("sh");
    watchdog
        .arg("-c")
        .arg(
            r#"base=$1 owner=$2
            while kill -0 "$owner" 2>/dev/null; do sleep 1; done
            pid=$(head -n 1 "$base/data/postmaster.pid" 2>/dev/null)
            if [ -n "$pid" ]; then
                kill -QUIT "$pid" 2>/dev/null
                while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
            fi
            rm -rf "$base""#,
        )
        .arg("watchdog")
        .arg(base)
        .arg(std::process::id().to_string())
        .current_dir(base)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    std::os::unix::process::CommandExt::process_group(&mut watchdog, 0);
    watchdog
        .spawn()
        .map(drop)
        .map_err(|err| format!("starting the watchdog shell: {err}"))
}

/// The directory with `initdb` and `postgres`: `pg_config --bindir`, else
/// the newest `/usr/lib/postgresql/<version>/bin`.
fn server_binaries() -> Result<PathBuf, String> {
    let has_server = |dir: &Path| {
        ["initdb", "pg_ctl", "postgres"]
            .iter()
            .all(|program| dir.join(program).is_file())
    };
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
