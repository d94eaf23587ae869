"""Build the packages the collect tests install, and the package index they come from.

    python3 packages.py OUT BASE_URL

writes, below OUT:

- simple/<name>/index.html: a PEP 503 index (the wheels beside it), as pip reads one;
- npm/<name> and npm/<name>/-/<name>-<version>.tgz: the metadata and tarballs npm reads from
  a registry.

Served by `python3 -m http.server --directory OUT`, BASE_URL/simple is an index for pip and
BASE_URL/npm/ a registry for npm, so a test installs these packages through the same path as a
published one.

The Python packages, each a stdlib-only MCP server over stdio (legacy protocol) with one
read-only tool that asks two upstreams (plain HTTP and HTTPS, through the proxy the environment
names) and a console script:

- planted-mcp 1.0.0: every defect the collect fixture's rules look for, each on a known line
  (the test reads LINES); its index also lists 1.1.0, so 1.0.0 is not the newest release;
- clean-mcp 1.0.0: the clean twin, the only release on its index;
- silent-mcp 1.0.0: a console script that exits 0 without announcing anything;
- planted-dep 1.0.0: the dependency both declare.

The npm packages: planted-ts 1.0.0 ships TypeScript source with a User-Agent written into it;
clean-ts 1.0.0 builds it from the package's metadata.
"""

import base64
import hashlib
import io
import json
import os
import sys
import tarfile
import zipfile

SERVER = r'''
import json
import sys
import urllib.request

from . import {version_from}

TOOLS = [
    {{
        "name": "get_notice",
        "description": "Return the latest public notice from the upstream register, with its date and its source.",
        "inputSchema": {{"type": "object", "properties": {{}}}},
        "annotations": {{"readOnlyHint": True, "destructiveHint": False}},
    }},
    {{
        "name": "{second_tool}",
        "description": "Return every notice of the register, newest first, with its date and its source.",
        "inputSchema": {{"type": "object", "properties": {{}}}},
        "annotations": {{"readOnlyHint": True, "destructiveHint": False}},
    }},
]

USER_AGENT = {user_agent}


def ask(url):
    req = urllib.request.Request(url, headers={{"User-Agent": USER_AGENT}})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.read().decode("utf-8", "replace")
    except Exception as e:
        return {failure}


def reply(i, result):
    sys.stdout.write(json.dumps({{"jsonrpc": "2.0", "id": i, "result": result}}) + "\n")
    sys.stdout.flush()


def main():
    for line in sys.stdin:
        try:
            m = json.loads(line)
        except ValueError:
            continue
        method, i = m.get("method"), m.get("id")
        if i is None:
            continue
        if method == "initialize":
            reply(i, {{
                "protocolVersion": "2025-11-25",
                "capabilities": {{"tools": {{}}}},
                "serverInfo": {{"name": "{name}", "version": {version_from}}},
            }})
        elif method == "tools/list":
            reply(i, {{"tools": TOOLS}})
        elif method == "tools/call":
            text = ask("http://upstream.invalid/notices") + ask("https://api.upstream.invalid/notices")
            reply(i, {{"content": [{{"type": "text", "text": text[:200]}}]}})
        elif method == "ping":
            reply(i, {{}})
        else:
            sys.stdout.write(json.dumps({{"jsonrpc": "2.0", "id": i, "error": {{"code": -32601, "message": "Method not found"}}}}) + "\n")
            sys.stdout.flush()
'''

PLANTED_INIT = '__version__ = "0.9.0"\n'
CLEAN_INIT = (
    "from importlib.metadata import version as _version\n\n"
    '__version__ = _version("clean-mcp")\n'
)

# The lines the test expects each planted defect at (file inside the wheel, line).
LINES = {
    "version-literal": ("planted_mcp/__init__.py", 1),
    "ua-literal": ("planted_mcp/server.py", 22),
    "exception-text": ("planted_mcp/server.py", 31),
}


def record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def wheel(out, name, version, files, requires=(), scripts=None, top_level=None):
    """A pure-Python wheel of `files` ({path: text})."""
    dist = name.replace("-", "_")
    info = f"{dist}-{version}.dist-info"
    meta = [f"Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    meta += [f"Requires-Dist: {r}" for r in requires]
    files = dict(files)
    files[f"{info}/METADATA"] = "\n".join(meta) + "\n"
    files[f"{info}/WHEEL"] = "Wheel-Version: 1.0\nGenerator: auditbook-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    if scripts:
        files[f"{info}/entry_points.txt"] = "[console_scripts]\n" + "".join(
            f"{k} = {v}\n" for k, v in scripts.items()
        )
    if top_level:
        files[f"{info}/top_level.txt"] = "".join(t + "\n" for t in top_level)
    record = [record_line(p, t.encode()) for p, t in sorted(files.items())]
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = "\n".join(record) + "\n"
    path = os.path.join(out, f"{dist}-{version}-py3-none-any.whl")
    with zipfile.ZipFile(path, "w") as z:
        for p, t in sorted(files.items()):
            zi = zipfile.ZipInfo(p, date_time=(2026, 1, 1, 0, 0, 0))
            z.writestr(zi, t)
    return path


def index(root, name, wheels):
    d = os.path.join(root, "simple", name)
    os.makedirs(d, exist_ok=True)
    links = []
    for w in wheels:
        data = open(w, "rb").read()
        base = os.path.basename(w)
        with open(os.path.join(d, base), "wb") as f:
            f.write(data)
        links.append(f'<a href="{base}#sha256={hashlib.sha256(data).hexdigest()}">{base}</a><br>')
    with open(os.path.join(d, "index.html"), "w") as f:
        f.write("<!DOCTYPE html><html><body>\n" + "\n".join(links) + "\n</body></html>\n")


def server_files(pkg, name, init, user_agent, failure, second_tool, version_from):
    return {
        f"{pkg}/__init__.py": init,
        f"{pkg}/__main__.py": f"from .server import main\n\nmain()\n",
        f"{pkg}/server.py": SERVER.format(
            name=name,
            user_agent=user_agent,
            failure=failure,
            second_tool=second_tool,
            version_from=version_from,
        ).lstrip("\n"),
    }


def npm_package(root, base_url, name, version, files):
    """An npm tarball (`package/…`) and the registry's metadata for it."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for p, text in sorted(files.items()):
            data = text.encode()
            ti = tarfile.TarInfo("package/" + p)
            ti.size = len(data)
            ti.mtime = 1767225600
            ti.mode = 0o755 if p.startswith("bin/") else 0o644
            t.addfile(ti, io.BytesIO(data))
    data = buf.getvalue()
    d = os.path.join(root, "npm", name, "-")
    os.makedirs(d, exist_ok=True)
    tgz = f"{name}-{version}.tgz"
    with open(os.path.join(d, tgz), "wb") as f:
        f.write(data)
    integrity = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    pkg = json.loads(files["package.json"])
    pkg["dist"] = {
        "tarball": f"{base_url}/npm/{name}/-/{tgz}",
        "shasum": hashlib.sha1(data).hexdigest(),
        "integrity": integrity,
    }
    meta = {"name": name, "dist-tags": {"latest": version}, "versions": {version: pkg}}
    # The registry's document for a package is served at `/<name>`; a folder of that name
    # holds the tarballs, so the document is the folder's index.
    with open(os.path.join(root, "npm", name, "index.html"), "w") as f:
        json.dump(meta, f)


def ts_files(name, user_agent_line):
    return {
        "package.json": json.dumps(
            {"name": name, "version": "1.0.0", "bin": {name: "bin/server.js"}, "dependencies": {}},
            indent=2,
        ),
        "bin/server.js": "#!/usr/bin/env node\nprocess.stdin.resume();\n",
        "src/client.ts": (
            "import pkg from '../package.json';\n"
            "\n"
            "export function headers(): Record<string, string> {\n"
            f"  {user_agent_line}\n"
            "  return { 'User-Agent': ua };\n"
            "}\n"
        ),
    }


def main(out, base_url):
    os.makedirs(out, exist_ok=True)
    build = os.path.join(out, "build")
    os.makedirs(build, exist_ok=True)
    dep = wheel(build, "planted-dep", "1.0.0", {"planted_dep/__init__.py": ""})
    planted = server_files(
        "planted_mcp",
        "planted-mcp",
        PLANTED_INIT,
        '"planted-mcp/0.9.0 (+https://example.invalid)"',
        "str(e)",
        "GetAllNotices",
        "__version__",
    )
    planted["planted_extra/__init__.py"] = "import planted_mcp.removed_module  # gone in this release\n"
    scripts = {"planted-mcp": "planted_mcp.server:main"}
    p1 = wheel(build, "planted-mcp", "1.0.0", planted, ["planted-dep>=1.0"], scripts,
               ["planted_mcp", "planted_extra"])
    p2 = wheel(build, "planted-mcp", "1.1.0", planted, ["planted-dep>=1.0"], scripts,
               ["planted_mcp", "planted_extra"])
    clean = server_files(
        "clean_mcp",
        "clean-mcp",
        CLEAN_INIT,
        'f"clean-mcp/{__version__} (+https://example.invalid)"',
        '"the upstream could not be asked"',
        "list_notices",
        "__version__",
    )
    c1 = wheel(build, "clean-mcp", "1.0.0", clean, ["planted-dep>=1.0,<2"],
               {"clean-mcp": "clean_mcp.server:main"}, ["clean_mcp"])
    silent = {"silent_mcp/__init__.py": "", "silent_mcp/server.py": "def main():\n    return 0\n"}
    s1 = wheel(build, "silent-mcp", "1.0.0", silent, ["planted-dep>=1.0,<2"],
               {"silent-mcp": "silent_mcp.server:main"}, ["silent_mcp"])
    index(out, "planted-dep", [dep])
    index(out, "planted-mcp", [p1, p2])
    index(out, "clean-mcp", [c1])
    index(out, "silent-mcp", [s1])
    npm_package(out, base_url, "planted-ts", "1.0.0",
                ts_files("planted-ts", "const ua = 'planted-ts/0.0.1';"))
    npm_package(out, base_url, "clean-ts", "1.0.0",
                ts_files("clean-ts", "const ua = `${pkg.name}/${pkg.version}`;"))
    json.dump(LINES, open(os.path.join(out, "lines.json"), "w"), indent=2, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2].rstrip("/"))
