//! The integration tests that need nothing from outside Rust, one module per area, linked
//! into one binary: the dependency graph is linked once, not once per file.

#[path = "../common/mod.rs"]
mod common;
#[path = "../lsp_client/mod.rs"]
mod lsp_client;

mod applies_when_lint;
mod architecture;
mod audit_profiles;
mod audit_report;
mod audit_verdict;
mod catalogue_tests;
mod check_fields;
mod claims_elsewhere;
mod claims_forms;
mod claims_gates;
mod cli_output;
mod code_coverage;
mod compat;
mod compat_claims;
mod completions_man;
mod concurrent_writes;
mod config_graceful;
mod config_positions;
mod determinism;
mod docs_current;
mod examples_verify;
mod failure_chain;
mod fixes;
mod fleet;
mod format_doc;
mod formats_per_command;
mod graph_rules;
mod hostile_files;
mod hostile_paths;
mod init;
mod json_schemas;
mod lean_load;
mod ledger;
mod links;
mod lint_findings;
mod lsp;
mod lsp_actions;
mod lsp_world;
mod outline_cache;
mod output_injection;
mod output_pipes;
mod person_and_machine;
mod portfolio_pictures;
mod probe_lint;
mod proptest_inputs;
mod report_honesty;
mod rewrite_references;
mod robustness;
mod safe_writes;
mod scan;
mod shipped_catalogue;
mod shipped_documents;
mod snapshot_diff;
mod snippet_lints;
mod sources;
mod template_recursion;
mod unicode_ids;
mod verify_documents;
mod waivers;
mod write_journal;
