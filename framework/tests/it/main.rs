//! Integration tests of the framework: extractors, answers and errors
//! through the in-process client, and the server over real sockets.

mod alone;
mod authorization;
mod body_stream;
mod cross_origin;
mod decoders;
mod dto;
mod error_contract;
mod extractors;
mod features;
mod files;
mod handler_model;
#[cfg(feature = "mcp")]
mod mcp;
mod multipart;
mod observe;
mod openapi;
mod operation_ids;
mod optional_guard;
mod parity;
mod query_edges;
mod refusals;
mod server;
mod sse;
mod versions;
mod write_json;
mod ws;
