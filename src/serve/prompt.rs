//! The prompt `audit_server`: the order of an audit with this server's tools, from the
//! server's profile to the report.

use rmcp::model::{Prompt, PromptArgument, PromptMessage, Role};

pub const NAME: &str = "audit_server";

pub fn describe() -> Prompt {
    Prompt::new(
        NAME,
        Some("Audit an MCP server against the catalogue: diagnosis, triage, results, report"),
        Some(vec![
            PromptArgument::new("server")
                .with_description("The server's name, as the report should show it")
                .with_required(false),
            PromptArgument::new("results_file")
                .with_description("The results file to record into (default: results.yaml)")
                .with_required(false),
        ]),
    )
}

pub fn messages(server: Option<&str>, results_file: Option<&str>) -> Vec<PromptMessage> {
    let server = server.unwrap_or("the server");
    let file = results_file.unwrap_or("results.yaml");
    let text = format!(
        "Audit {server} against the loaded catalogue, one step after another.\n\
\n\
1. Diagnosis. Write the server's profile as a JSON object (transport, auth model, data class, \
whether it writes, where it is deployed; the format reference resource lists the fields). Call \
`applicability` with it and read which checks apply and why the others do not.\n\
\n\
2. Triage. Call `remaining_for_a_person` with the profile: these checks no probe observes. \
Read each with `show_check` (or the resource auditbook://check/ID) and examine the server's \
source, documentation and behaviour against its Verification and Pass Criteria sections. For a \
scan signal, decide whether it is real and record it with `record_triage` (a server started \
with --allow-write offers it; otherwise write the decision into the results file).\n\
\n\
3. Results. For every applicable check, record what you observed with `record_result` (a new \
`idempotency_key` for each write, the same one only to retry it; on a read-only server, write it \
yourself) into \
`{file}`: a status (pass, fail, partial, not_verified) and evidence lines that name files, \
lines, commands and their output. Record gaps for fail and partial.\n\
\n\
4. Report. Call `audit` with the profile and the recorded results (`format: \"md\"` for the \
Markdown report), and `score_explanation` to show how the score came about. Summarise the \
verdict, the blocking findings and the remediation steps in order."
    );
    vec![PromptMessage::new_text(Role::User, text)]
}
