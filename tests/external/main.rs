//! The integration tests that drive programs from outside Rust — Python validators, MCP
//! servers from npm and PyPI, Chromium, Neovim — installed on first use by `common::prereq`.
//! A target of their own, so the suite runs without them (`cargo test --test suite`);
//! plain `cargo test` runs both.

#[path = "../common/mod.rs"]
mod common;

mod audit_ci;
mod ci_formats;
mod collect_packages;
mod fleet_manifests;
mod lsp_neovim;
mod mcp_confined;
mod mcp_conformance;
mod mcp_server;
mod own_audit;
mod probe_conformance;
mod probe_planted;
mod probe_servers;
mod readme_collect;
mod site;
mod workflows;
