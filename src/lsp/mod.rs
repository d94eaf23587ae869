//! The language server: one loop over the client's messages. Edits go into the world of the
//! catalogue that holds the file and are checked once the client pauses, so a burst of edits
//! costs one check; a request is answered only after every edit before it was checked.
//! Findings are published for every file whose findings changed (so a change in one check
//! updates, or clears, the findings of the files it affects); requests are answered from the
//! world. A handler that panics is reported to the
//! client as a log message and an error response, and the loop goes on.

mod actions;
mod complete;
pub mod convert;
mod hover;
pub mod inputs;
mod navigate;
mod symbols;
pub mod world;

use convert::Encoding;
use lsp::notification::Notification as _;
use lsp::request::Request as _;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types as lsp;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use world::World;

/// Serve until the client says `exit`. `Ok(0)` after an orderly shutdown, `Ok(1)` when the
/// client exits without one (what the protocol asks of a server).
pub fn serve(conn: Connection) -> Result<u8, String> {
    let (id, params) = conn.initialize_start().map_err(|e| e.to_string())?;
    let params: lsp::InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let enc = negotiated(&params);
    let result = serde_json::json!({
        "capabilities": capabilities(enc),
        "serverInfo": { "name": "auditbook", "version": env!("CARGO_PKG_VERSION") },
    });
    conn.initialize_finish(id, result)
        .map_err(|e| e.to_string())?;
    let mut server = Server {
        conn: &conn,
        enc,
        worlds: BTreeMap::new(),
        dirty: BTreeMap::new(),
        dirty_since: None,
        published: BTreeMap::new(),
        owners: BTreeMap::new(),
        shutdown: false,
    };
    server.run()
}

fn negotiated(params: &lsp::InitializeParams) -> Encoding {
    let offered = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref());
    match offered {
        Some(v) if v.contains(&lsp::PositionEncodingKind::UTF8) => Encoding::Utf8,
        _ => Encoding::Utf16,
    }
}

fn capabilities(enc: Encoding) -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        position_encoding: Some(match enc {
            Encoding::Utf8 => lsp::PositionEncodingKind::UTF8,
            Encoding::Utf16 => lsp::PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(
            lsp::TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(lsp::TextDocumentSyncKind::INCREMENTAL),
                save: Some(lsp::TextDocumentSyncSaveOptions::Supported(true)),
                ..Default::default()
            },
        )),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(vec!["[".into(), "(".into(), "|".into(), " ".into()]),
            ..Default::default()
        }),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
            lsp::CodeActionOptions {
                code_action_kinds: Some(vec![lsp::CodeActionKind::QUICKFIX]),
                ..Default::default()
            },
        )),
        rename_provider: Some(lsp::OneOf::Right(lsp::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        semantic_tokens_provider: Some(
            lsp::SemanticTokensServerCapabilities::SemanticTokensOptions(
                lsp::SemanticTokensOptions {
                    legend: symbols::legend(),
                    full: Some(lsp::SemanticTokensFullOptions::Bool(true)),
                    ..Default::default()
                },
            ),
        ),
        ..Default::default()
    }
}

/// How long the client must be quiet after an edit before the catalogue is checked: a burst
/// of edits (a paste, a replace-all, fast typing) is checked once, when it settles. Short
/// enough that a pause in typing shows its findings at once.
const QUIET: Duration = Duration::from_millis(40);
/// The longest an edit waits for its check while edits keep coming without a pause.
const MAX_WAIT: Duration = Duration::from_millis(400);

/// What changed in a catalogue since it was last checked.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Pending {
    /// One file's text: read that file again (a check) or everything (anything else).
    One(PathBuf),
    Whole,
}

struct Server<'c> {
    conn: &'c Connection,
    enc: Encoding,
    /// One world per catalogue root.
    worlds: BTreeMap<PathBuf, World>,
    /// Roots edited since their last check, with what to read again.
    dirty: BTreeMap<PathBuf, Pending>,
    /// When the oldest edit not yet checked arrived.
    dirty_since: Option<Instant>,
    /// What was last published per file, so only changes are sent (and emptied lists clear).
    published: BTreeMap<PathBuf, Vec<lsp::Diagnostic>>,
    /// The catalogue each published file's findings came from (a profile may lie outside
    /// every catalogue's root).
    owners: BTreeMap<PathBuf, PathBuf>,
    shutdown: bool,
}

/// What a request handler sees: the world of the file, the file's name in it and its text.
pub struct Ctx<'w> {
    pub world: &'w World,
    pub rel: String,
    pub text: std::sync::Arc<str>,
    pub enc: Encoding,
}

impl Ctx<'_> {
    /// The word under byte `at` made of id characters (`A-Z`, digits, `-`, `_`, and any
    /// character in `extra`), with its byte range.
    pub fn word_at(&self, at: usize, extra: &[char]) -> Option<(&str, usize, usize)> {
        let t = &*self.text;
        let part = |c: char| c.is_alphanumeric() || c == '-' || c == '_' || extra.contains(&c);
        let at = at.min(t.len());
        let start = t[..at]
            .char_indices()
            .rev()
            .take_while(|(_, c)| part(*c))
            .last()
            .map_or(at, |(i, _)| i);
        let end = t[at..].find(|c: char| !part(c)).map_or(t.len(), |i| at + i);
        let w = t[start..end].trim_end_matches('-');
        (!w.is_empty()).then(|| (w, start, start + w.len()))
    }

    /// The check id (live or retired) under the cursor.
    pub fn id_at(&self, pos: lsp::Position) -> Option<(String, usize, usize)> {
        let (w, s, e) = self.word_at(self.offset(pos), &[])?;
        self.world.is_known(w).then(|| (w.to_string(), s, e))
    }

    pub fn offset(&self, pos: lsp::Position) -> usize {
        convert::offset(&self.text, pos, self.enc)
    }

    pub fn range(&self, start: usize, end: usize) -> lsp::Range {
        convert::range(&self.text, start, end, self.enc)
    }

    /// A location in another file of the same world.
    pub fn location(&self, file: &str, start: usize, end: usize) -> Option<lsp::Location> {
        let text = self.world.text_of(file)?;
        Some(lsp::Location {
            uri: uri_of(&self.world.absolute(file))?,
            range: convert::range(&text, start, end, self.enc),
        })
    }
}

impl Server<'_> {
    fn run(&mut self) -> Result<u8, String> {
        loop {
            let Some(msg) = self.next_message() else {
                return Ok(1);
            };
            match msg {
                Message::Request(req) => {
                    if self.shutdown {
                        self.reply(Response::new_err(
                            req.id,
                            ErrorCode::InvalidRequest as i32,
                            "the server is shutting down".into(),
                        ));
                        continue;
                    }
                    if req.method == "shutdown" {
                        self.shutdown = true;
                        self.reply(Response::new_ok(req.id, ()));
                        continue;
                    }
                    self.settle();
                    let id = req.id.clone();
                    let method = req.method.clone();
                    let response = guarded(&method, || self.request(req));
                    let response = match response {
                        Ok(r) => r,
                        Err(panic) => {
                            self.log(lsp::MessageType::ERROR, &panic);
                            Response::new_err(id, ErrorCode::InternalError as i32, panic)
                        }
                    };
                    self.reply(response);
                }
                Message::Notification(n) => {
                    if n.method == "exit" {
                        return Ok(if self.shutdown { 0 } else { 1 });
                    }
                    let method = n.method.clone();
                    if let Err(panic) = guarded(&method, || self.notification(n)) {
                        self.log(lsp::MessageType::ERROR, &panic);
                    }
                }
                Message::Response(_) => {}
            }
        }
    }

    /// The next message from the client, checking what changed once the client has been
    /// quiet for [`QUIET`] (or an edit has waited [`MAX_WAIT`]). `None` when the client is gone.
    fn next_message(&mut self) -> Option<Message> {
        use crossbeam_channel::RecvTimeoutError;
        loop {
            if self.dirty.is_empty() {
                return self.conn.receiver.recv().ok();
            }
            // A world created for a file is dirty from its first message on.
            let waited = self.dirty_since.get_or_insert_with(Instant::now).elapsed();
            if waited >= MAX_WAIT {
                self.settle();
                continue;
            }
            match self.conn.receiver.recv_timeout(QUIET.min(MAX_WAIT - waited)) {
                Ok(m) => return Some(m),
                Err(RecvTimeoutError::Timeout) => self.settle(),
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    fn reply(&self, r: Response) {
        let _ = self.conn.sender.send(Message::Response(r));
    }

    fn notify<N: lsp::notification::Notification>(&self, params: N::Params) {
        let n = Notification::new(N::METHOD.to_string(), params);
        let _ = self.conn.sender.send(Message::Notification(n));
    }

    fn log(&self, typ: lsp::MessageType, message: &str) {
        self.notify::<lsp::notification::LogMessage>(lsp::LogMessageParams {
            typ,
            message: message.to_string(),
        });
    }

    /// The world of the catalogue holding `path`, created and loaded on first use.
    fn world_for(&mut self, path: &Path) -> Option<PathBuf> {
        if let Some(root) = self.worlds.keys().find(|r| path.starts_with(r)) {
            return Some(root.clone());
        }
        if let Some((root, _)) = self.worlds.iter().find(|(_, w)| w.reads(path)) {
            return Some(root.clone());
        }
        let root = world::find_root(path)?;
        if !self.worlds.contains_key(&root) {
            self.log(
                lsp::MessageType::INFO,
                &format!("catalogue root: {}", root.display()),
            );
            self.worlds.insert(root.clone(), World::new(root.clone()));
            self.dirty.insert(root.clone(), Pending::Whole);
        }
        Some(root)
    }

    fn notification(&mut self, n: Notification) {
        use lsp::notification as note;
        match n.method.as_str() {
            note::DidOpenTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp::DidOpenTextDocumentParams>(n.params)
                else {
                    return;
                };
                self.set_text(&p.text_document.uri, Some(p.text_document.text));
            }
            note::DidChangeTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp::DidChangeTextDocumentParams>(n.params)
                else {
                    return;
                };
                let Some(path) = path_of(&p.text_document.uri) else {
                    return;
                };
                let Some(root) = self.world_for(&path) else {
                    return;
                };
                let enc = self.enc;
                let Some(w) = self.worlds.get_mut(&root) else {
                    return;
                };
                let rel = w.relative(&path).unwrap_or_default();
                let mut text = w.text_of(&rel).map(|t| t.to_string()).unwrap_or_default();
                for change in p.content_changes {
                    match change.range {
                        None => text = change.text,
                        Some(r) => {
                            let start = convert::offset(&text, r.start, enc);
                            let end = convert::offset(&text, r.end, enc).max(start);
                            text.replace_range(start..end, &change.text);
                        }
                    }
                }
                w.set_text(&path, text);
                self.mark(root, Pending::One(path));
            }
            note::DidSaveTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp::DidSaveTextDocumentParams>(n.params)
                else {
                    return;
                };
                // Saving changes nothing the buffer did not already hold; the file is read
                // again all the same, in case the editor wrote something else.
                if let Some(path) = path_of(&p.text_document.uri) {
                    if let Some(root) = self.world_for(&path) {
                        self.mark(root, Pending::One(path));
                    }
                }
            }
            note::DidCloseTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp::DidCloseTextDocumentParams>(n.params)
                else {
                    return;
                };
                self.set_text(&p.text_document.uri, None);
            }
            _ => {}
        }
    }

    fn set_text(&mut self, uri: &lsp::Uri, text: Option<String>) {
        let Some(path) = path_of(uri) else {
            return;
        };
        let Some(root) = self.world_for(&path) else {
            return;
        };
        if let Some(w) = self.worlds.get_mut(&root) {
            match text {
                Some(t) => w.set_text(&path, t),
                None => w.forget(&path),
            }
            self.mark(root, Pending::One(path));
        }
    }

    fn mark(&mut self, root: PathBuf, what: Pending) {
        self.dirty_since.get_or_insert_with(Instant::now);
        let merged = match self.dirty.remove(&root) {
            None => what,
            Some(before) if before == what => what,
            Some(_) => Pending::Whole,
        };
        self.dirty.insert(root, merged);
    }

    /// Check every edited catalogue and publish what changed.
    fn settle(&mut self) {
        self.dirty_since = None;
        let dirty = std::mem::take(&mut self.dirty);
        for (root, what) in dirty {
            let Some(w) = self.worlds.get_mut(&root) else {
                continue;
            };
            match what {
                Pending::One(path) => w.recheck_file(&path),
                Pending::Whole => w.recheck(),
            }
            if let Some(f) = w.fatal() {
                let f = f.to_string();
                self.log(lsp::MessageType::ERROR, &f);
            }
            self.publish(&root);
        }
    }

    fn publish(&mut self, root: &Path) {
        let Some(w) = self.worlds.get(root) else {
            return;
        };
        let mut now: BTreeMap<PathBuf, Vec<lsp::Diagnostic>> = BTreeMap::new();
        for (rel, diags) in w.findings() {
            let text = w.text_of(&rel).unwrap_or_default();
            let list = diags
                .iter()
                .map(|d| convert::diagnostic(&text, d, self.enc))
                .collect();
            now.insert(w.absolute(&rel), list);
        }
        let before: Vec<PathBuf> = self
            .published
            .keys()
            .filter(|p| {
                p.starts_with(root) || self.owners.get(*p).map(PathBuf::as_path) == Some(root)
            })
            .cloned()
            .collect();
        for path in before {
            if !now.contains_key(&path) {
                self.send_diagnostics(&path, Vec::new());
                self.published.remove(&path);
                self.owners.remove(&path);
            }
        }
        for (path, list) in now {
            if self.published.get(&path) != Some(&list) {
                self.send_diagnostics(&path, list.clone());
                self.owners.insert(path.clone(), root.to_path_buf());
                self.published.insert(path, list);
            }
        }
    }

    fn send_diagnostics(&self, path: &Path, diagnostics: Vec<lsp::Diagnostic>) {
        let Some(uri) = uri_of(path) else {
            return;
        };
        self.notify::<lsp::notification::PublishDiagnostics>(lsp::PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        });
    }

    fn ctx(&mut self, uri: &lsp::Uri) -> Option<Ctx<'_>> {
        let path = path_of(uri)?;
        let root = self.world_for(&path)?;
        if self.dirty.contains_key(&root) {
            self.settle();
        }
        let world = self.worlds.get(&root)?;
        let rel = world.relative(&path)?;
        let text = world.text_of(&rel)?;
        Some(Ctx {
            world,
            rel,
            text,
            enc: self.enc,
        })
    }

    fn request(&mut self, req: Request) -> Response {
        use lsp::request as r;
        let id = req.id.clone();
        let answer = match req.method.as_str() {
            r::HoverRequest::METHOD => self.with::<r::HoverRequest>(req, |c, p| {
                hover::hover(c, p.text_document_position_params.position)
            }),
            r::GotoDefinition::METHOD => self.with::<r::GotoDefinition>(req, |c, p| {
                navigate::definition(c, p.text_document_position_params.position)
            }),
            r::References::METHOD => self.with::<r::References>(req, |c, p| {
                navigate::references(c, p.text_document_position.position, &p.context)
            }),
            r::Completion::METHOD => self.with::<r::Completion>(req, |c, p| {
                complete::complete(c, p.text_document_position.position)
            }),
            r::CodeActionRequest::METHOD => {
                self.with::<r::CodeActionRequest>(req, |c, p| actions::actions(c, &p))
            }
            r::PrepareRenameRequest::METHOD => self.with::<r::PrepareRenameRequest>(req, |c, p| {
                navigate::prepare_rename(c, p.position)
            }),
            r::Rename::METHOD => self.with_result::<r::Rename>(req, |c, p| {
                navigate::rename(c, p.text_document_position.position, &p.new_name)
            }),
            r::DocumentSymbolRequest::METHOD => {
                self.with::<r::DocumentSymbolRequest>(req, |c, _| symbols::document_symbols(c))
            }
            r::SemanticTokensFullRequest::METHOD => {
                self.with::<r::SemanticTokensFullRequest>(req, |c, _| symbols::semantic_tokens(c))
            }
            _ => Err((
                ErrorCode::MethodNotFound,
                format!("unknown request `{}`", req.method),
            )),
        };
        match answer {
            Ok(v) => Response::new_ok(id, v),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        }
    }

    /// Answer a request about a position in a document; `null` when the file is in no
    /// catalogue.
    fn with<R>(
        &mut self,
        req: Request,
        f: impl FnOnce(&Ctx<'_>, R::Params) -> R::Result,
    ) -> Result<serde_json::Value, (ErrorCode, String)>
    where
        R: lsp::request::Request,
        R::Params: Documented,
    {
        self.with_result::<R>(req, |c, p| Ok(f(c, p)))
    }

    fn with_result<R>(
        &mut self,
        req: Request,
        f: impl FnOnce(&Ctx<'_>, R::Params) -> Result<R::Result, String>,
    ) -> Result<serde_json::Value, (ErrorCode, String)>
    where
        R: lsp::request::Request,
        R::Params: Documented,
    {
        let params: R::Params = serde_json::from_value(req.params)
            .map_err(|e| (ErrorCode::InvalidParams, e.to_string()))?;
        let uri = params.uri().clone();
        let Some(ctx) = self.ctx(&uri) else {
            return Ok(serde_json::Value::Null);
        };
        match f(&ctx, params) {
            Ok(v) => serde_json::to_value(v).map_err(|e| (ErrorCode::InternalError, e.to_string())),
            Err(e) => Err((ErrorCode::RequestFailed, e)),
        }
    }
}

/// Run `f`, turning a panic into a message naming the method.
pub fn guarded<T>(method: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        let what = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown cause".into());
        format!("internal error while handling `{method}`: {what}")
    })
}

/// Requests about one document.
pub trait Documented {
    fn uri(&self) -> &lsp::Uri;
}

macro_rules! documented {
    ($($t:ty => |$p:ident| $e:expr;)*) => {$(
        impl Documented for $t {
            fn uri(&self) -> &lsp::Uri {
                let $p = self;
                $e
            }
        }
    )*};
}

documented! {
    lsp::HoverParams => |p| &p.text_document_position_params.text_document.uri;
    lsp::GotoDefinitionParams => |p| &p.text_document_position_params.text_document.uri;
    lsp::ReferenceParams => |p| &p.text_document_position.text_document.uri;
    lsp::CompletionParams => |p| &p.text_document_position.text_document.uri;
    lsp::CodeActionParams => |p| &p.text_document.uri;
    lsp::TextDocumentPositionParams => |p| &p.text_document.uri;
    lsp::RenameParams => |p| &p.text_document_position.text_document.uri;
    lsp::DocumentSymbolParams => |p| &p.text_document.uri;
    lsp::SemanticTokensParams => |p| &p.text_document.uri;
}

/// The file a `file:` URI names (percent-decoded), or `None` for any other scheme.
pub fn path_of(uri: &lsp::Uri) -> Option<PathBuf> {
    let s = uri.as_str();
    let rest = s.strip_prefix("file://")?;
    // `file://host/path`: only the local host is a file here.
    let path = if rest.starts_with('/') {
        rest
    } else {
        rest.strip_prefix("localhost")?
    };
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%' {
            let hex = path.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    let text = String::from_utf8(out).ok()?;
    Some(world::normal(Path::new(&text)))
}

/// The `file:` URI of an absolute path.
pub fn uri_of(path: &Path) -> Option<lsp::Uri> {
    let mut s = String::from("file://");
    for b in path.to_str()?.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_message() {
        let r: Result<(), String> = guarded("textDocument/hover", || panic!("boom"));
        assert_eq!(
            r,
            Err("internal error while handling `textDocument/hover`: boom".into())
        );
    }

    #[test]
    fn file_uris_round_trip() {
        let p = Path::new("/tmp/Prüf katalog/checks/FID-001.md");
        let u = uri_of(p).unwrap();
        assert_eq!(
            u.as_str(),
            "file:///tmp/Pr%C3%BCf%20katalog/checks/FID-001.md"
        );
        assert_eq!(path_of(&u).as_deref(), Some(p));
    }
}
