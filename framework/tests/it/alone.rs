//! Measurements of this process's memory, and those that need a process
//! of their own: the test runs itself again with one test selected and an
//! environment variable set, and reads a figure from the child's output.

/// Runs the test `name` alone in a child process with `variable` set to
/// `value`, and returns the number printed after `label` (`"peak growth: "`).
pub(crate) fn figure_of(name: &str, variable: &str, value: &str, label: &str) -> u64 {
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env(variable, value)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
        .lines()
        .find_map(|line| line.split(label).nth(1))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|figure| figure.parse().ok())
        .unwrap_or_else(|| panic!("no figure after {label:?} in the child's output:\n{stdout}"))
}

/// A figure of this process's `/proc/self/status`, in KiB: `VmRSS` (the
/// resident set) or `VmHWM` (its peak).
pub(crate) fn status_kib(key: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(key)?.strip_prefix(':'))
                .and_then(|value| value.trim().trim_end_matches(" kB").trim().parse().ok())
        })
        .unwrap_or(0)
}
