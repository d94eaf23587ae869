//! auditbook as an MCP server (`auditbook mcp`): the catalogue, loaded once, and the audit,
//! served as tools, resources and a prompt over stdio or Streamable HTTP on loopback.
//!
//! The tools are plain functions from JSON arguments to a JSON value (`tool::Def`); this file
//! lists them, answers `tools/list` in name order, and turns a tool's refusal into an
//! `isError` result that says how to correct the call. Writing tools write only inside the
//! folder the server was started for (`confine`), through `crate::write`.

mod confine;
mod http;
mod prompt;
mod resources;
pub mod idempotency;
pub mod state;
mod tool;
mod tools_audit;
mod tools_catalogue;
mod tools_probe;
mod tools_write;

pub use http::serve as http;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, Implementation, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ServerCapabilities,
    ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::Value;
use state::State;
use std::sync::Arc;

/// The handler: the state, shared by every connection, and the tools it offers.
#[derive(Clone)]
pub struct Server {
    state: Arc<State>,
    tools: Arc<Vec<tool::Def>>,
}

impl Server {
    pub fn new(state: Arc<State>) -> Server {
        let mut tools = tools_catalogue::defs();
        tools.extend(tools_audit::defs());
        // The phases of a rollout, each opted into at start (ROADMAP.md): read-only by default,
        // probing other servers with --allow-probe, writing with --allow-write.
        if state.allow_write {
            tools.extend(tools_write::defs());
        }
        if !state.allow_probe.is_empty() {
            tools.extend(tools_probe::defs());
        }
        tools.sort_by_key(|t| t.name);
        Server {
            state,
            tools: Arc::new(tools),
        }
    }

    fn describe(t: &tool::Def) -> Tool {
        let annotations = ToolAnnotations::with_title(t.title)
            .read_only(t.hints.read_only)
            .destructive(t.hints.destructive)
            .idempotent(t.hints.idempotent)
            .open_world(t.hints.open_world);
        Tool::new(t.name, t.description, Arc::new((t.input)()))
            .with_title(t.title)
            .with_raw_output_schema(Arc::new((t.output)()))
            .with_annotations(annotations)
    }

    /// One call, answered: the tool's value with its text, or a refusal as an error result.
    pub fn call(
        &self,
        name: &str,
        arguments: Option<serde_json::Map<String, Value>>,
    ) -> CallToolResult {
        let Some(t) = self.tools.iter().find(|t| t.name == name) else {
            let names: Vec<&str> = self.tools.iter().map(|t| t.name).collect();
            return refused(&tool::Refusal::new(
                format!("no tool `{}`", crate::confine::shown_path(name)),
                format!("call one of: {}", names.join(", ")),
            ));
        };
        let args = Value::Object(arguments.unwrap_or_default());
        match (t.run)(&self.state, args) {
            Ok(done) => {
                let text = match done.text {
                    Some(t) => t,
                    None => serde_json::to_string_pretty(&done.value).unwrap_or_default(),
                };
                let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
                r.structured_content = Some(done.value);
                r
            }
            Err(refusal) => refused(&refusal),
        }
    }
}

fn refused(r: &tool::Refusal) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(r.text())])
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let cat = self.state.catalogue();
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .build(),
        )
        .with_server_info(
            Implementation::new("auditbook", env!("CARGO_PKG_VERSION")).with_title("auditbook"),
        )
        .with_instructions(format!(
            "The audit catalogue `{}` {} ({} checks), served by auditbook. Read checks with \
             search_checks and show_check, decide what applies with applicability, {} and \
             build the report with audit. The prompt audit_server walks through an audit.",
            cat.name(),
            cat.config.version.as_deref().unwrap_or("(no version)"),
            cat.checks.len(),
            if self.state.allow_write {
                "record results with record_result"
            } else {
                "write results into a results file (this server is read-only; started with \
                 --allow-write it records them itself)"
            }
        ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            self.tools.iter().map(Server::describe).collect(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // An unknown tool is a protocol error (-32602), not a tool's failed result: the
        // specification says so, and a client then knows no tool ran.
        if !self.tools.iter().any(|t| t.name == request.name.as_ref()) {
            let names: Vec<&str> = self.tools.iter().map(|t| t.name).collect();
            return Err(ErrorData::invalid_params(
                format!(
                    "no tool `{}`; call one of: {}",
                    crate::confine::shown_path(&request.name),
                    names.join(", ")
                ),
                None,
            ));
        }
        let this = self.clone();
        let name = request.name.to_string();
        let arguments = request.arguments;
        // The engine's work is synchronous; it runs off the transport's threads.
        let log = self.state.log;
        let called = request.name.to_string();
        let result = tokio::task::spawn_blocking(move || this.call(&name, arguments))
            .await
            .map_err(|e| {
                // What stopped it stays in the server's log; the caller gets no internals.
                log(&format!("auditbook mcp: the tool `{called}` stopped: {e}\n"));
                ErrorData::internal_error(
                    format!("the tool `{called}` stopped unexpectedly; the server's log has the cause"),
                    None,
                )
            })?;
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(resources::list(
            &self.state,
        )))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            resources::check_template(),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match resources::read(&self.state, &request.uri) {
            Ok(contents) => Ok(ReadResourceResult::new(vec![contents]).into()),
            // The error names the URI it could not find (`data.uri`), as the specification
            // asks, beside the text that says which URIs exist.
            Err(why) => Err(ErrorData::resource_not_found(
                why,
                Some(serde_json::json!({ "uri": request.uri })),
            )),
        }
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![prompt::describe()]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != prompt::NAME {
            return Err(ErrorData::invalid_params(
                format!(
                    "no prompt `{}`; the prompt is `{}`",
                    crate::confine::shown_path(&request.name),
                    prompt::NAME
                ),
                None,
            ));
        }
        let arg = |k: &str| {
            request
                .arguments
                .as_ref()
                .and_then(|a| a.get(k))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        let messages = prompt::messages(arg("server").as_deref(), arg("results_file").as_deref());
        Ok(GetPromptResult::new(messages)
            .with_description("An audit of one MCP server, step by step")
            .into())
    }
}

/// Serve one client over a byte stream pair (stdin and stdout) until it closes.
pub async fn stdio<R, W>(state: Arc<State>, io: (R, W)) -> Result<(), String>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let running = Server::new(state)
        .serve(io)
        .await
        .map_err(|e| format!("the MCP connection did not start: {e}"))?;
    running
        .waiting()
        .await
        .map_err(|e| format!("the MCP connection ended with an error: {e}"))?;
    Ok(())
}
