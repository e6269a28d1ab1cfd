//! The runner's parts: server processes, wrk, and the report.

pub mod latency;
pub mod node;
pub mod oha;
pub mod report;
pub mod server;
pub mod wrk;
