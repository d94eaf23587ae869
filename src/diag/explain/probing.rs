//! AB7xx and AB8xx: scoring and probing live servers.

use super::row::*;

/// The smallest MCP server over stdio the probes can talk to (needs only `python3`).
const SERVER: &str = r#"# Ein MCP-Server über stdio, so klein wie möglich: ein Werkzeug, keine Ressourcen, keine Prompts.
import json, sys

TOOLS = [{"name": "anzahl_datensaetze", "description": "Zählt die Datensätze des Amtsblatts.",
          "inputSchema": {"type": "object", "properties": {}},
          "annotations": {"readOnlyHint": True, "destructiveHint": False,
                          "idempotentHint": True, "openWorldHint": False}}]

for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg.get("method") == "initialize":
        result = {"protocolVersion": msg["params"]["protocolVersion"],
                  "capabilities": {"tools": {}},
                  "serverInfo": {"name": "amtsblatt", "version": "1.0.0"}}
    elif msg.get("method") == "tools/list":
        result = {"tools": TOOLS}
    else:
        answer = {"code": -32601, "message": "unbekannte Methode"}
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "error": answer}), flush=True)
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
"#;

/// ARCH-001 declares a probe, and the server is beside the catalogue.
const PROBED: [(&str, Edit); 2] = [
    arch(
        "severity: medium\n",
        "severity: medium\nprobe: {kind: tool-names}\n",
    ),
    file("server.py", SERVER),
];

const fn lock(description: &'static str) -> (&'static str, Edit) {
    file("mcp-tools.lock", description)
}

const LOCK_OLD: &str = r#"{
  "definitions": {
    "prompts": {},
    "resources": {},
    "tools": {
      "anzahl_datensaetze": {
        "annotations": {"destructiveHint": false, "idempotentHint": true, "openWorldHint": false, "readOnlyHint": true},
        "description": "Zählt Datensätze.",
        "inputSchema": {"properties": {}, "type": "object"},
        "name": "anzahl_datensaetze"
      }
    }
  },
  "digest": "sha256:5d1e0c6b3a0f",
  "lock_version": 1,
  "server": {"name": "amtsblatt", "version": "0.9.0"}
}
"#;

const LOCK_NOW: &str = r#"{
  "definitions": {
    "prompts": {},
    "resources": {},
    "tools": {
      "anzahl_datensaetze": {
        "annotations": {"destructiveHint": false, "idempotentHint": true, "openWorldHint": false, "readOnlyHint": true},
        "description": "Zählt die Datensätze des Amtsblatts.",
        "inputSchema": {"properties": {}, "type": "object"},
        "name": "anzahl_datensaetze"
      }
    }
  },
  "digest": "sha256:fee58414e22d9921edef427911e94c5c71c628a045b3f306e5f292f27afed0d4",
  "lock_version": 1,
  "server": {"name": "amtsblatt", "version": "1.0.0"}
}
"#;

const PROBE: Run = Run::Command {
    args: &[
        "probe",
        "p.yaml",
        "--stdio",
        "python3 server.py",
        "--results",
        "probe.yaml",
    ],
};

pub static ROWS: &[Explanation] = &[
    ex(
        "AB701",
        "The `scoring` block sets how much each finding costs: points per severity, the \
fraction a partial or an advisory finding costs, the floor and the maximum. A negative \
weight, a fraction outside 0 to 1, or a weight for a severity that is not declared would make \
the score mean something other than what the report says it means.

Defaults apply for every scoring value not written; `audit --explain-score` shows the computation with the values in use.",
        over(&[cat_add("scoring: {partial_fraction: 1.5}\n")], LINT),
        over(&[cat_add("scoring: {partial_fraction: 0.5}\n")], LINT),
    ),
    ex(
        "AB801",
        "`auditbook probe` starts or calls the server and speaks MCP to it. When the other end \
does not answer as an MCP server — the command exits, hangs, or a URL answers with a login \
page, a 404 or a proxy's error — nothing was observed, and every probed check is recorded as \
not_verified with the reason.

It is a warning, not an error: the run did its job and says why nothing could be seen. Check \
the command or URL first; a web page is not the server.",
        over(
            &[PROBED[0], PROBED[1]],
            Run::Command {
                args: &[
                    "probe",
                    "p.yaml",
                    "--stdio",
                    "exit 3",
                    "--results",
                    "probe.yaml",
                ],
            },
        ),
        over(&PROBED, PROBE),
    ),
    ex(
        "AB802",
        "A probe writes its observations into the results file, but a result a person \
recorded there (without `source: probe`) is kept: a person's judgement is not overwritten by \
a machine's. The note names each such check, so the two can be compared; `--overwrite` \
replaces them.

The kept result is the one the audit uses.",
        over(
            &PROBED,
            Run::Command {
                args: &[
                    "probe",
                    "p.yaml",
                    "--stdio",
                    "python3 server.py",
                    "--results",
                    "r.yaml",
                ],
            },
        ),
        over(&PROBED, PROBE),
    ),
    ex(
        "AB803",
        "`probe --lock` records the server's tool, resource and prompt definitions in \
`mcp-tools.lock`. A later probe compares what it sees with the lock and lists every added, \
removed or changed definition: a changed description or schema changes what a model does \
with the tool, and an audit made before the change may no longer hold.

When the change is intended, `probe --lock` records the new definitions.",
        over(&[PROBED[0], PROBED[1], lock(LOCK_OLD)], PROBE),
        over(&[PROBED[0], PROBED[1], lock(LOCK_NOW)], PROBE),
    ),
];
