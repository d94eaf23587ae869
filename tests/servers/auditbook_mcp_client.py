"""Drive `auditbook mcp` with the official Python SDK client (`mcp` 2.x) and print what it
answered as one JSON document on stdout; tests/external/mcp_server.rs judges it.

    python auditbook_mcp_client.py --stdio BINARY CATALOGUE ROOT
    python auditbook_mcp_client.py --url http://127.0.0.1:PORT/mcp
"""

import asyncio
import json
import sys

from mcp import Client, StdioServerParameters

PROFILE = {
    "transport": "stdio-only",
    "sdk_language": "Python",
    "mcp_spec_version": "2025-11-25",
    "auth_model": "none",
    "data_class": "Public Open Data",
    "write_capable": False,
    "deployment": ["local-stdio"],
    "is_cloud_deployed": False,
}


def dump(result):
    """A tool result as plain data."""
    return {
        "is_error": bool(result.is_error),
        "structured": result.structured_content,
        "text": "".join(getattr(c, "text", "") for c in result.content),
    }


async def drive(server):
    out = {}
    async with Client(server) as client:
        out["protocol_version"] = client.protocol_version
        tools = await client.list_tools()
        out["tools"] = [
            {
                "name": t.name,
                "annotations": t.annotations.model_dump(by_alias=True, exclude_none=True)
                if t.annotations
                else None,
                "has_input_schema": bool(t.input_schema),
                "has_output_schema": bool(t.output_schema),
            }
            for t in tools.tools
        ]
        calls = {
            "search_checks": {"where": 'severity == "critical"', "text": "secret"},
            "show_check": {"id": "ARCH-001"},
            "explain_code": {"code": "AB212"},
            "applicability": {"profile": PROFILE},
            "rules_table": {},
            "graph_neighbourhood": {"id": "ARCH-001", "depth": 1},
            "audit": {
                "profile": PROFILE,
                "results": {"results": {"ARCH-001": {"status": "pass", "evidence": ["names checked"]}}},
                "format": "md",
            },
            "score_explanation": {"profile": PROFILE},
            "remaining_for_a_person": {"profile": PROFILE},
        }
        out["calls"] = {}
        for name, arguments in calls.items():
            out["calls"][name] = dump(await client.call_tool(name, arguments))
        out["bad_argument"] = dump(await client.call_tool("show_check", {"id": 7}))
        out["unknown_check"] = dump(await client.call_tool("show_check", {"id": "ARCH-0001"}))
        out["bad_where"] = dump(await client.call_tool("search_checks", {"where": "severity =="}))
        writes = {
            "inside": {"file": "results.yaml"},
            "parent": {"file": "../outside.yaml"},
            "absolute": {"file": "/tmp/auditbook-mcp-outside.yaml"},
            "link": {"file": "out/escaped.yaml"},
        }
        out["writes"] = {}
        for name, where in writes.items():
            arguments = dict(
                where,
                idempotency_key=f"write-{name}",
                check="ARCH-001",
                status="pass",
                evidence=["tool names are snake_case"],
            )
            out["writes"][name] = dump(await client.call_tool("record_result", arguments))
        out["triage"] = dump(
            await client.call_tool(
                "record_triage",
                {
                    "idempotency_key": "triage-1",
                    "file": "results.yaml",
                    "check": "ARCH-001",
                    "finding": "#a1b2c3d4e5f6",
                    "real": False,
                    "reason": "a test fixture",
                },
            )
        )
        resources = await client.list_resources()
        out["resources"] = [str(r.uri) for r in resources.resources]
        read = await client.read_resource("auditbook://check/ARCH-001")
        out["check_resource"] = {
            "mime_type": read.contents[0].mime_type,
            "text": read.contents[0].text,
        }
        fmt = await client.read_resource("auditbook://format-reference")
        out["format_reference_length"] = len(fmt.contents[0].text)
        prompts = await client.list_prompts()
        out["prompts"] = [p.name for p in prompts.prompts]
        prompt = await client.get_prompt("audit_server", {"server": "demo-server"})
        out["prompt"] = "".join(getattr(m.content, "text", "") for m in prompt.messages)
    return out


async def probe(server, target):
    """Only probe_target: one allowed target, one that is not."""
    out = {}
    async with Client(server) as client:
        tools = await client.list_tools()
        out["tools"] = [t.name for t in tools.tools]
        out["allowed"] = dump(await client.call_tool("probe_target", {"target": target, "profile": PROFILE}))
        out["refused"] = dump(
            await client.call_tool("probe_target", {"target": "http://127.0.0.1:9/mcp", "profile": PROFILE})
        )
    return out


def main():
    if sys.argv[1] == "--probe":
        binary, catalogue, target = sys.argv[2:5]
        server = StdioServerParameters(
            command=binary, args=["-C", catalogue, "mcp", "--allow-probe", target]
        )
        print(json.dumps(asyncio.run(probe(server, target))))
        return
    if sys.argv[1] == "--stdio":
        binary, catalogue, root = sys.argv[2:5]
        server = StdioServerParameters(
            command=binary, args=["-C", catalogue, "mcp", "--allow-write", "--root", root], cwd=root
        )
    else:
        server = sys.argv[2]
    print(json.dumps(asyncio.run(drive(server))))


if __name__ == "__main__":
    main()
