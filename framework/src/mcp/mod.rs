#![doc = include_str!("../docs/mcp.md")]

mod call;
mod catalogue;
mod encode;
mod rpc;
mod settings;

pub(crate) use catalogue::Catalogue;
pub(crate) use rpc::McpEndpoint;
pub use settings::{DEFAULT_MCP_PATH, LeftOut, Mcp};
