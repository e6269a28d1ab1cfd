//! The deployment files (`examples/bbs/deploy/`) cannot run here (no
//! container engine): this keeps them consistent with what is tested. The
//! probes are the framework's health paths, the port is the one the image
//! listens on, the grace period covers a whole graceful shutdown, and the
//! database URL comes from a Secret.

use std::time::Duration;

const MANIFEST: &str = include_str!("../../deploy/kubernetes.yaml");
const DOCKERFILE: &str = include_str!("../../deploy/Dockerfile");

/// The value of the first `field:` at or after the first line containing
/// `after`.
fn field<'a>(text: &'a str, after: &str, field: &str) -> &'a str {
    let start = text
        .lines()
        .position(|line| line.contains(after))
        .unwrap_or_else(|| panic!("no `{after}` in the manifest"));
    text.lines()
        .skip(start)
        .find_map(|line| line.trim().strip_prefix(field)?.strip_prefix(':'))
        .map(|value| value.trim().trim_matches('"'))
        .unwrap_or_else(|| panic!("no `{field}:` after `{after}`"))
}

/// The value `name` gets in the Dockerfile's `ENV` line.
fn docker_env<'a>(name: &str) -> &'a str {
    DOCKERFILE
        .lines()
        .filter_map(|line| line.strip_prefix("ENV "))
        .flat_map(str::split_whitespace)
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("the Dockerfile sets no {name}"))
}

#[test]
fn the_deployment_files_agree_with_the_framework_and_each_other() {
    assert_eq!(
        field(MANIFEST, "livenessProbe:", "path"),
        framework::LIVENESS_PATH
    );
    assert_eq!(
        field(MANIFEST, "readinessProbe:", "path"),
        framework::READINESS_PATH
    );
    assert_eq!(field(MANIFEST, "livenessProbe:", "port"), "http");
    assert_eq!(field(MANIFEST, "readinessProbe:", "port"), "http");
    assert_eq!(field(MANIFEST, "- name: http", "containerPort"), "3000");

    // One port: where the image listens, what the pod declares.
    let port = docker_env("PORT");
    assert_eq!(field(MANIFEST, "- name: PORT", "value"), port);
    assert_eq!(field(MANIFEST, "- name: http", "containerPort"), port);
    assert!(DOCKERFILE.contains(&format!("\nEXPOSE {port}\n")));
    assert_eq!(field(MANIFEST, "- name: HOST", "value"), "0.0.0.0");
    assert_eq!(docker_env("HOST"), "0.0.0.0");

    // SIGKILL comes after the whole graceful shutdown.
    let drain: u64 = field(MANIFEST, "- name: BBS_DRAIN_DELAY_MS", "value")
        .parse()
        .unwrap();
    assert_eq!(docker_env("BBS_DRAIN_DELAY_MS"), drain.to_string());
    let shutdown = Duration::from_millis(drain)
        + framework::LAST_REQUEST_GRACE
        + framework::DEFAULT_SHUTDOWN_TIMEOUT;
    let grace = Duration::from_secs(
        field(
            MANIFEST,
            "terminationGracePeriodSeconds",
            "terminationGracePeriodSeconds",
        )
        .parse()
        .unwrap(),
    );
    assert!(
        grace >= shutdown && grace < shutdown + Duration::from_secs(2),
        "terminationGracePeriodSeconds {grace:?}: the shutdown takes up to {shutdown:?}"
    );

    // The database URL is a Secret's.
    assert_eq!(field(MANIFEST, "- name: DATABASE_URL", "key"), "url");
    assert!(
        MANIFEST.contains(
            "- name: DATABASE_URL\n              valueFrom:\n                secretKeyRef:"
        )
    );

    // Multi-stage, and the final stage runs as a non-root user.
    assert_eq!(
        DOCKERFILE
            .lines()
            .filter(|line| line.starts_with("FROM "))
            .count(),
        2
    );
    let user = DOCKERFILE
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix("USER "))
        .expect("a USER line");
    assert!(!matches!(user.trim(), "root" | "0"), "runs as {user}");
    assert!(MANIFEST.contains("runAsNonRoot: true"));
}

/// Replicas on PostgreSQL need a shared attachments directory (the binary
/// refuses to start without one), and uploads are spooled to `/tmp`, which
/// must be writable under a read-only root filesystem.
#[test]
fn the_replicas_share_their_attachments_and_can_spool_uploads() {
    let dir = field(MANIFEST, "- name: BBS_ATTACHMENTS_DIR", "value");
    assert_eq!(field(MANIFEST, "- name: attachments", "mountPath"), dir);
    assert_eq!(field(MANIFEST, "- name: tmp", "mountPath"), "/tmp");
    assert_eq!(
        field(MANIFEST, "persistentVolumeClaim:", "claimName"),
        field(MANIFEST, "kind: PersistentVolumeClaim", "name")
    );
    assert!(MANIFEST.contains("    - ReadWriteMany\n"));
}
