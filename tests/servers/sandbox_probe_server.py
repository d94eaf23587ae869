"""A stdio MCP server (stdlib, legacy protocol) that tries, when it starts, what a sandbox must
refuse: a connection to PORT on the machine's loopback (where the test listens) and writing a
file into HOME (the real one, passed in, as a sandboxed server's HOME is its scratch folder).
It announces what happened as its server name, `net=…,home=…`, so the probe shows it.

    python3 sandbox_probe_server.py PORT HOME
"""

import json
import os
import socket
import sys


def attempt_connect(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            return "connected"
    except OSError as e:
        return type(e).__name__


def attempt_write(home):
    path = os.path.join(home, "auditbook-sandbox-probe.txt")
    try:
        with open(path, "w") as f:
            f.write("written from inside\n")
        return "written"
    except OSError as e:
        return type(e).__name__


def main():
    net = attempt_connect(int(sys.argv[1]))
    home = attempt_write(sys.argv[2])
    name = f"net={net},home={home}"
    for line in sys.stdin:
        try:
            m = json.loads(line)
        except ValueError:
            continue
        i = m.get("id")
        if i is None:
            continue
        if m.get("method") == "initialize":
            result = {
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": name, "version": "1.0.0"},
            }
        elif m.get("method") == "tools/list":
            result = {"tools": []}
        else:
            result = {}
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": i, "result": result}) + "\n")
        sys.stdout.flush()


main()
