"""A scripted MCP server (Python standard library only) that serves 2026-07-28 and 2025-11-25
over stdio or Streamable HTTP, correct by default, with defects planted one by one:

    scripted_server.py [--http PORT] [--defects name,name,...]
    scripted_server.py --http PORT --not-mcp waf|moved|redirect|text

With --not-mcp the endpoint answers every request as something that is not MCP: a firewall's
403 page, a 404, a redirect to a login page, or a plain "OK". $SESSION_LOG, when set, gets a
line for every legacy session opened and closed.

Each defect is observed by one probe kind (the test names which). The clean server is what a
correct dual-era server answers; every defect departs from it in exactly one way, so a probe
that flags the clean server, or misses a defect, is wrong.

A tool that writes (`delete_record`) appends its argument to $DELETED_LOG when it runs: the
probe must never call it, even where a planted defect labels it read-only.
"""

import base64
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODERN = "2026-07-28"
LEGACY = "2025-11-25"
META_VERSION = "io.modelcontextprotocol/protocolVersion"

DEFECTS = set()
for i, a in enumerate(sys.argv):
    if a == "--defects" and i + 1 < len(sys.argv):
        DEFECTS = {d for d in sys.argv[i + 1].split(",") if d}


def has(d):
    return d in DEFECTS


RO = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}
WRITES = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True, "openWorldHint": False}


def tools():
    count_schema = {"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]}
    t = [
        {
            "name": "search_records",
            "description": "Search the public records by a keyword in their title. Use it to find a record before reading it; an empty result carries a hint.",
            "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
            "outputSchema": {"type": "object", "properties": {"matches": {"type": "array", "items": {"type": "string"}}}, "required": ["matches"]},
            "annotations": dict(RO),
        },
        {
            "name": "count_records",
            "description": "Count the public records whose title contains a keyword. Use it to size a search before paging through the results.",
            "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
            "outputSchema": count_schema,
            "annotations": dict(RO),
        },
        {
            "name": "delete_record",
            "description": "Delete one record by its id. Use it only when a person asked for the record to be removed; it cannot be undone.",
            "inputSchema": {"type": "object", "properties": {"record_id": {"type": "integer"}}, "required": ["record_id"]},
            "annotations": dict(WRITES),
        },
    ]
    if has("camel-name"):
        t[1]["name"] = "countRecords"
    if has("pascal-names"):
        for x in t:
            x["name"] = "".join(w.capitalize() for w in x["name"].split("_"))
    if has("placeholder-name"):
        t[1]["name"] = "tool1"
    if has("dotted-name"):
        t[1]["name"] = "records.count"
    if has("restated-description"):
        t[1]["description"] = "Count records"
    if has("no-annotations"):
        del t[1]["annotations"]
    if has("unset-hint"):
        del t[1]["annotations"]["openWorldHint"]
    if has("mislabelled-write"):
        t[2]["annotations"] = dict(RO)
    if has("short-descriptions"):
        for x in t:
            x["description"] = x["description"][:40]
    if has("bad-input-schema"):
        t[0]["inputSchema"]["properties"]["query"]["type"] = "text"
    if has("network-ref"):
        t[0]["inputSchema"]["properties"]["query"] = {"$ref": "https://schemas.example.org/query.json"}
    if has("bad-header-name"):
        t[0]["inputSchema"]["properties"]["query"]["x-mcp-header"] = "Bad Header"
    if has("hostile-names"):
        t[0]["name"] = "search_records\x1b[32m pass SEC-024\u202e"
        t[0]["description"] = "Search [click](javascript:alert(1)) \x07 records, and more words here to pass."
    if has("huge-description"):
        t[0]["description"] = "Search records. " + "x" * (6 << 20)
    if has("always-errors"):
        t[1]["outputSchema"] = count_schema
    return t


def tool_call(params, send_request=None):
    name = params.get("name")
    args = params.get("arguments") or {}
    if name == "delete_record":
        log = os.environ.get("DELETED_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as f:
                f.write(str(args.get("record_id")) + "\n")
        return {"content": [{"type": "text", "text": f"deleted {args.get('record_id')}"}], "structuredContent": {}}
    known = {t["name"]: t for t in tools()}
    if name not in known:
        return ("error", -32602, f"unknown tool: {name}")
    if "query" not in args or not isinstance(args["query"], str):
        if has("error-protocol"):
            return ("error", -32602, "invalid arguments: query must be a string")
        if has("error-unflagged"):
            return {"content": [{"type": "text", "text": "no query given"}]}
        return {"content": [{"type": "text", "text": "query must be a string naming a title keyword"}], "isError": True}
    if has("server-request") and send_request:
        send_request("sampling/createMessage")
    if name in ("count_records", "countRecords", "tool1", "records.count"):
        if has("always-errors"):
            return {"content": [{"type": "text", "text": "upstream said: internal failure"}], "isError": True}
        if has("bad-structured"):
            return {"content": [{"type": "text", "text": "many"}], "structuredContent": {"count": "many"}}
        return {"content": [{"type": "text", "text": "1"}], "structuredContent": {"count": 1}}
    return {"content": [{"type": "text", "text": "[]"}], "structuredContent": {"matches": []}}


def capabilities():
    caps = {"tools": {"listChanged": False}, "resources": {}, "prompts": {}}
    if has("core-tasks"):
        caps["tasks"] = {"list": {}}
    if has("bad-extension-id"):
        caps["extensions"] = {"tasks": {}}
    else:
        caps["extensions"] = {"io.modelcontextprotocol/tasks": {}}
    if has("logging"):
        caps["logging"] = {}
    return caps


CACHEABLE = {"server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"}
STATE = {"lists": 0, "calls": 0}


def shape(method, result):
    """Modern result fields: resultType, cache hints, serverInfo."""
    if not has("no-result-type"):
        result["resultType"] = "complete"
    if method in CACHEABLE and not has("no-cache-hints"):
        result["ttlMs"] = 60000
        result["cacheScope"] = "public"
    result.setdefault("_meta", {})["io.modelcontextprotocol/serverInfo"] = {"name": "scripted", "version": "0.3.0"}
    return result


def err(rid, code, message, data=None):
    e = {"code": code, "message": message}
    if data is not None:
        e["data"] = data
    return {"jsonrpc": "2.0", "id": rid, "error": e}


def ok(rid, result):
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def listing(method, params):
    if method == "tools/list":
        STATE["lists"] += 1
        t = tools()
        if has("unstable-order") and STATE["lists"] % 2 == 0:
            t = list(reversed(t))
        if has("repeat-cursor"):
            return {"tools": t, "nextCursor": "again"}
        if has("crash-after-open"):
            os._exit(3)
        if has("hang-after-open"):
            time.sleep(3600)
        return {"tools": t}
    if method == "resources/list":
        return {"resources": [{"uri": "records://index", "name": "index", "mimeType": "text/plain"}]}
    if method == "prompts/list":
        return {"prompts": []}
    if method == "resources/templates/list":
        return {"resourceTemplates": []}
    return None


def handle(msg, era, send_request=None):
    """Answer one request of `era` ('modern' or 'legacy'); None for a notification."""
    method = msg.get("method")
    rid = msg.get("id")
    params = msg.get("params") or {}
    if rid is None:
        return None
    if era == "modern":
        meta = params.get("_meta") or {}
        version = meta.get(META_VERSION)
        if version is None or "io.modelcontextprotocol/clientCapabilities" not in meta:
            return err(rid, -32602, "missing _meta protocol fields")
        if version != MODERN and not has("echo-version"):
            return err(rid, -32022, "Unsupported protocol version", {"supported": [MODERN], "requested": version})
        if method == "server/discover":
            return ok(rid, shape(method, {"supportedVersions": [MODERN], "capabilities": capabilities()}))
        lst = listing(method, params)
        if lst is not None:
            return ok(rid, shape(method, lst))
        if method == "resources/read":
            if params.get("uri") == "records://index":
                return ok(rid, shape(method, {"contents": [{"uri": "records://index", "text": "index"}]}))
            return err(rid, -32002 if has("resource-32002") else -32602, "unknown resource", {"uri": params.get("uri")})
        if method == "tools/call":
            r = tool_call(params, send_request)
            if isinstance(r, tuple):
                return err(rid, r[1], r[2])
            return ok(rid, shape(method, r))
        return err(rid, -32601, "Method not found")
    # legacy
    if method == "initialize":
        asked = params.get("protocolVersion")
        answer = asked if has("echo-version") else LEGACY
        return ok(rid, {"protocolVersion": answer, "capabilities": capabilities(), "serverInfo": {"name": "scripted", "version": "0.3.0"}})
    lst = listing(method, params)
    if lst is not None:
        return ok(rid, lst)
    if method == "tools/call":
        r = tool_call(params, send_request)
        if isinstance(r, tuple):
            return err(rid, r[1], r[2])
        return ok(rid, r)
    if method == "resources/read":
        return err(rid, -32002, "unknown resource")
    return err(rid, -32601, "Method not found")


def era_of(msg):
    if msg.get("method") == "initialize":
        return "legacy"
    meta = (msg.get("params") or {}).get("_meta") or {}
    return "modern" if META_VERSION in meta or msg.get("method") == "server/discover" else None


def serves(era):
    if era == "modern":
        return not has("legacy-only")
    return not has("modern-only")


# ---- stdio ---------------------------------------------------------------------------------

def stdio():
    if has("garbage-stdout"):
        print("Starting server on port 8080 ...", flush=True)
    if has("exit-at-start"):
        sys.stderr.write("fatal: configuration file /etc/scripted.toml not found\n")
        sys.exit(4)
    era = None
    out = sys.stdout

    def write(obj):
        out.write(json.dumps(obj) + "\n")
        out.flush()

    def send_request(method):
        write({"jsonrpc": "2.0", "id": "srv-1", "method": method, "params": {}})

    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if "method" not in msg:
            continue  # a response to a request of ours
        e = era_of(msg) or era
        if e is None or not serves(e):
            if "id" in msg:
                if msg.get("method") == "initialize":
                    write(err(msg["id"], -32022, "this server serves only 2026-07-28", {"supported": [MODERN], "requested": (msg.get("params") or {}).get("protocolVersion")}))
                else:
                    write(err(msg["id"], -32601, "Method not found"))
            continue
        era = era or e
        reply = handle(msg, e, send_request)
        if reply is not None:
            write(reply)


# ---- Streamable HTTP ------------------------------------------------------------------------

SESSIONS = set()
LOCK = threading.Lock()


def session_log(line):
    path = os.environ.get("SESSION_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def send_json(self, status, obj, headers=None, sse=False):
        body = json.dumps(obj).encode()
        if sse:
            body = b": priming\n\nevent: message\ndata: " + body + b"\n\n"
        self.send_response(status)
        self.send_header("Content-Type", "text/event-stream" if sse else "application/json")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def not_mcp(self):
        kind = sys.argv[sys.argv.index("--not-mcp") + 1]
        status, ctype, body, extra = {
            "waf": (403, "text/html", b"<html><body><h1>Access denied</h1>Request blocked by the web application firewall.</body></html>", {}),
            "moved": (404, "text/html", b"<html><body>Not Found</body></html>", {}),
            "redirect": (302, "text/html", b"", {"Location": "/login"}),
            "text": (200, "text/plain", b"OK", {}),
        }[kind]
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        for k, v in extra.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if "--not-mcp" in sys.argv:
            return self.not_mcp()
        if has("get-stream"):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(405)
        self.send_header("Allow", "POST")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_DELETE(self):
        sid = self.headers.get("Mcp-Session-Id")
        with LOCK:
            known = sid in SESSIONS
            if known:
                session_log("close " + sid)
            SESSIONS.discard(sid)
        self.send_response(200 if known else 405)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        if "--not-mcp" in sys.argv:
            self.rfile.read(n)
            return self.not_mcp()
        try:
            msg = json.loads(self.rfile.read(n) or b"null")
        except ValueError:
            return self.send_json(400, err(None, -32700, "parse error"))
        if not isinstance(msg, dict):
            return self.send_json(400, err(None, -32600, "invalid request"))
        origin = self.headers.get("Origin")
        host = (self.headers.get("Host") or "").split(":")[0]
        if host not in ("127.0.0.1", "localhost") and not has("any-origin"):
            return self.send_json(403, err(msg.get("id"), -32000, "forbidden host"))
        checks_origin = not has("any-origin") and not has("host-only")
        if origin and checks_origin and not origin.startswith("http://127.0.0.1"):
            return self.send_json(403, err(msg.get("id"), -32000, "forbidden origin"))
        sse = has("sse")
        e = era_of(msg)
        if e is None and self.headers.get("MCP-Protocol-Version") == MODERN:
            e = "modern"
        if e == "modern":
            if not serves("modern"):
                return self.send_json(400, err(msg.get("id"), -32000, "Bad Request: Server not initialized"))
            version = (self.headers.get("MCP-Protocol-Version") or "").strip() or None
            meta = (msg.get("params") or {}).get("_meta") or {}
            if not has("headers-ignored"):
                # Header values are compared without surrounding whitespace (HTTP field values).
                method_h = (self.headers.get("Mcp-Method") or "").strip() or None
                bad = 200 if has("http-200-errors") else 400
                if method_h != msg.get("method"):
                    return self.send_json(bad, err(msg.get("id"), -32020, "Mcp-Method header does not match the body"))
                if msg.get("method") in ("tools/call", "resources/read", "prompts/get"):
                    p = msg.get("params") or {}
                    want = p.get("name") if "name" in p else p.get("uri")
                    got = (self.headers.get("Mcp-Name") or "").strip()
                    if got.startswith("=?base64?") and got.endswith("?="):
                        got = base64.b64decode(got[9:-2]).decode()
                    if got != want:
                        return self.send_json(bad, err(msg.get("id"), -32020, "Mcp-Name header does not match the body"))
                if version != meta.get(META_VERSION) and meta.get(META_VERSION) is not None:
                    return self.send_json(bad, err(msg.get("id"), -32020, "MCP-Protocol-Version header does not match _meta"))
            reply = handle(msg, "modern")
            headers = {"Mcp-Session-Id": "minted-1"} if has("session-minted") else {}
            status = 200
            if reply and "error" in reply and reply["error"]["code"] in (-32022, -32602, -32020, -32021):
                status = 400
            if reply and "error" in reply and reply["error"]["code"] == -32601:
                status = 404
            if has("http-200-errors"):
                status = 200
            return self.send_json(status, reply, headers, sse)
        # legacy
        if msg.get("method") == "initialize":
            if not serves("legacy"):
                return self.send_json(400, err(msg.get("id"), -32022, "this server serves only 2026-07-28", {"supported": [MODERN], "requested": (msg.get("params") or {}).get("protocolVersion")}))
            with LOCK:
                STATE["sessions"] = STATE.get("sessions", 0) + 1
                sid = "s-%d" % STATE["sessions"]
                SESSIONS.add(sid)
                session_log("open " + sid)
            return self.send_json(200, handle(msg, "legacy"), {"Mcp-Session-Id": sid}, sse)
        sid = self.headers.get("Mcp-Session-Id")
        if sid not in SESSIONS:
            return self.send_json(400, err(msg.get("id"), -32000, "Bad Request: No valid session ID provided"))
        version = self.headers.get("MCP-Protocol-Version")
        if version not in (LEGACY, None) and not has("version-header-ignored"):
            return self.send_json(400, err(msg.get("id"), -32000, "Bad Request: Unsupported protocol version"))
        if "id" not in msg:
            self.send_response(202)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        return self.send_json(200, handle(msg, "legacy"), {}, sse)


def main():
    if "--http" in sys.argv:
        port = int(sys.argv[sys.argv.index("--http") + 1])
        server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        print(f"listening on {port}", file=sys.stderr, flush=True)
        server.serve_forever()
    else:
        stdio()


if __name__ == "__main__":
    main()
