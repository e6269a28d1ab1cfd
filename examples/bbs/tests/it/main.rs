//! Integration tests of the BBS example: every route and error path through
//! the in-process client, and over real sockets against the `bbs` binary.

mod attachments;
mod binary;
mod browser;
mod deploy;
mod feed;
mod fuzz_corpus;
mod generators;
mod health;
mod mcp;
mod migrations;
mod moderation;
mod openapi;
mod pages;
mod postgres;
mod process;
mod properties;
mod routes;
mod sdk_e2e;
mod sdk_rust;
mod sdk_typescript;
mod soak;
mod support;
mod versions;
