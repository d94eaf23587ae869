"""A correct MCP server on the official Python SDK `mcp` 2.x, which serves both revisions:
2026-07-28 (server/discover, per-request _meta, no session) and 2025-11-25 (initialize).

Every tool is clean: snake_case names, full annotations, descriptions that say when to use
the tool, output schemas its structured results validate against, input validation errors as
isError results. `delete_note` is a real write (not read-only, destructive), so the probe must
not call it; calling it would record the deletion in DELETED_LOG when that variable is set.

Usage: modern_server.py [--http PORT]   (stdio without --http)
"""

import os
import sys
from typing import TypedDict

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)
DELETES = ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=True, openWorldHint=False)

NOTES = {"1": "Gemeinderat Zürich, Sitzung vom 3. März", "2": "Kantonsrat Bern, Vernehmlassung"}


class Matches(TypedDict):
    ids: list[str]
    hint: str


class Note(TypedDict):
    id: str
    text: str


def build() -> MCPServer:
    mcp = MCPServer("modern-clean", version="1.4.0", instructions="Read public council notes.")

    @mcp.tool(
        annotations=READ_ONLY,
        description="Search the council notes for a keyword in their text. Use it before reading a note; "
        "an empty result carries a hint with a shorter keyword to try.",
    )
    def search_notes(query: str) -> Matches:
        ids = [k for k, v in NOTES.items() if query.lower() in v.lower()]
        return {"ids": ids, "hint": "" if ids else "no match; try a town name such as Bern"}

    @mcp.tool(
        annotations=READ_ONLY,
        description="Read one council note by the id a search returned. Use it after search_notes; an "
        "unknown id is reported as an error that names the ids that exist.",
    )
    def read_note(note_id: str) -> Note:
        if note_id not in NOTES:
            raise ValueError(f"unknown note id {note_id!r}; known ids: {', '.join(sorted(NOTES))}")
        return {"id": note_id, "text": NOTES[note_id]}

    @mcp.tool(
        annotations=DELETES,
        description="Delete one council note by its id. Use it only when a person asked to remove the "
        "note; the deletion cannot be undone.",
    )
    def delete_note(note_id: str) -> Note:
        log = os.environ.get("DELETED_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as f:
                f.write(note_id + "\n")
        return {"id": note_id, "text": NOTES.pop(note_id, "")}

    return mcp


def main() -> None:
    server = build()
    if "--http" in sys.argv:
        port = int(sys.argv[sys.argv.index("--http") + 1])
        server.run("streamable-http", host="127.0.0.1", port=port)
    else:
        server.run()


if __name__ == "__main__":
    main()
