"""An MCP server (FastMCP, the official Python SDK) with planted defects, for `auditbook probe`.

Each defect is found by exactly one probe; every other tool is clean:

- `getRecordCount`: a camelCase name among snake_case ones        -> tool-names
- `list_sources`: no annotations                                   -> tool-annotations
- `fetch_summary`: `structuredContent` that breaks its outputSchema -> output-schema
- `describe_dataset`: its description depends on PLANTED_VARIANT    -> tool-drift
- over HTTP without --strict-origin: any `Origin` is accepted       -> http-origin

Usage: planted_server.py [--http PORT [--strict-origin] [--tls CERT KEY]]   (stdio without --http)

With --tls the HTTP endpoint is served over HTTPS with the given PEM certificate and key.
"""

import os
import sys
from typing import TypedDict

from mcp.server.fastmcp import FastMCP
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import CallToolRequest, CallToolResult, ServerResult, ToolAnnotations

READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)


def build(port: int, strict_origin: bool) -> FastMCP:
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=strict_origin,
        allowed_hosts=[f"127.0.0.1:{port}", f"localhost:{port}"],
        allowed_origins=[f"http://127.0.0.1:{port}", f"http://localhost:{port}"],
    )
    mcp = FastMCP("planted-defects", host="127.0.0.1", port=port, transport_security=security)

    class Records(TypedDict):
        matches: list[str]
        hint: str

    class Count(TypedDict):
        count: int

    class Summary(TypedDict):
        count: int
        title: str

    records = ["Amtsblatt Zürich 2026", "Handelsregister Bern", "Baubewilligungen Luzern"]

    @mcp.tool(
        annotations=READ_ONLY,
        description="Search the public records by a keyword in their title. Use it to find a record before "
        "fetching its summary; an empty result carries a hint with shorter keywords to try.",
    )
    def search_records(query: str) -> Records:
        hits = [r for r in records if query.lower() in r.lower()]
        return {"matches": hits, "hint": "" if hits else "no match; try a shorter keyword such as a town name"}

    @mcp.tool(
        annotations=READ_ONLY,
        description="Count the public records whose title contains a keyword. Use it to size a search before "
        "paging through it; the count covers all records, not only the first page.",
    )
    def getRecordCount(query: str) -> Count:  # noqa: N802 - the planted camelCase name
        return {"count": sum(query.lower() in r.lower() for r in records)}

    @mcp.tool(
        description="List the sources the records come from, with their publisher. Use it to cite where a "
        "record was published; the list is fixed and does not depend on any argument.",
    )
    def list_sources() -> Records:
        return {"matches": ["amtsblattportal.ch", "zefix.ch"], "hint": ""}

    @mcp.tool(
        annotations=READ_ONLY,
        description="Fetch the summary of one record by its exact title as returned by search_records. Use it "
        "after a search; it returns the record's title and the number of pages it has.",
    )
    def fetch_summary(title: str) -> Summary:
        return {"count": 1, "title": title}

    variant = os.environ.get("PLANTED_VARIANT", "1")
    @mcp.tool(
        annotations=READ_ONLY,
        description=f"Describe the dataset behind the records: its licence, update rhythm and coverage (revision {variant}). "
        "Use it before publishing figures drawn from the records.",
    )
    def describe_dataset() -> Records:
        return {"matches": ["CC BY 4.0", "daily", "cantons ZH, BE, LU"], "hint": ""}

    # The planted output defect: the SDK validates structuredContent against outputSchema before
    # sending it, so the result is changed after that check, as a server without it would send it.
    handler = mcp._mcp_server.request_handlers[CallToolRequest]

    async def planted(req: CallToolRequest) -> ServerResult:
        result = await handler(req)
        if req.params.name == "fetch_summary" and isinstance(result.root, CallToolResult):
            result.root.structuredContent = {"count": "many", "title": 7}
        return result

    mcp._mcp_server.request_handlers[CallToolRequest] = planted
    return mcp


def main() -> None:
    args = sys.argv[1:]
    if "--http" in args:
        port = int(args[args.index("--http") + 1])
        mcp = build(port, "--strict-origin" in args)
        if "--tls" in args:
            import uvicorn

            cert, key = args[args.index("--tls") + 1 : args.index("--tls") + 3]
            app = mcp.streamable_http_app()
            uvicorn.run(app, host="127.0.0.1", port=port, ssl_certfile=cert, ssl_keyfile=key, log_level="warning")
        else:
            mcp.run(transport="streamable-http")
    else:
        build(0, False).run(transport="stdio")


if __name__ == "__main__":
    main()
