//! Evidence from a server's source and package: `cargo bench --bench evidence`.
//!
//! 1. `scan` of a generated source tree of 1,000 files (Python, TypeScript, JavaScript and the
//!    manifests beside them) with every `scan:` rule the shipped catalogue declares: a copy of
//!    the catalogue whose checks all apply (`applies_when: 'always'`), so no rule is left out by
//!    the profile. Whole-process CPU time (user + system) and wall time, medians of several runs.
//! 2. `collect` on an installed package, install and server start excluded: the clean wheel
//!    `tests/servers/packages.py` builds, served from a loopback index; the first run installs
//!    it (not counted), the measured runs reuse the environment and pass `--no-start`. What is
//!    left is reading the metadata and files, the sandboxed import, the index's view of the
//!    release, the scan and the merge.
//!
//! BENCHMARKS.md records the figures beside the goals (scan < 1 s CPU; collect < 500 ms).

mod common;

use common::{children_cpu_ms, measured_binary as binary};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One run: (CPU ms of the process and its children, wall time, exit code, stdout).
fn run(cmd: &mut Command) -> (f64, Duration, i32, String) {
    let before = children_cpu_ms();
    let start = Instant::now();
    let out = cmd
        .stderr(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run auditbook: {e}"));
    let wall = start.elapsed();
    (
        children_cpu_ms() - before,
        wall,
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn median<T: Copy + PartialOrd>(mut v: Vec<T>) -> T {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    v[v.len() / 2]
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{e}"));
    for e in std::fs::read_dir(from).unwrap_or_else(|e| panic!("{e}")) {
        let e = e.unwrap_or_else(|e| panic!("{e}"));
        let p = e.path();
        let t = to.join(e.file_name());
        if p.is_dir() {
            copy_dir(&p, &t);
        } else {
            std::fs::copy(&p, &t).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

/// The shipped catalogue with every check applying, so every rule runs.
fn catalogue_with_every_check(dir: &Path) -> (PathBuf, usize) {
    let cat = dir.join("catalogue");
    copy_dir(&root().join("catalogue"), &cat);
    copy_dir(&root().join("examples"), &dir.join("examples"));
    std::fs::copy(root().join("README.md"), dir.join("README.md"))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut with_rules = 0;
    for e in std::fs::read_dir(cat.join("checks")).unwrap_or_else(|e| panic!("{e}")) {
        let p = e.unwrap_or_else(|e| panic!("{e}")).path();
        if p.extension().is_none_or(|x| x != "md") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{e}"));
        let mut out = String::new();
        let mut skipping = false;
        for line in text.lines() {
            if skipping && (line.starts_with(' ') || line.starts_with('\t')) {
                continue;
            }
            skipping = false;
            if line.starts_with("applies_when:") {
                out.push_str("applies_when: 'always'\n");
                skipping = true;
                continue;
            }
            if line.starts_with("scan:") {
                with_rules += 1;
            }
            out.push_str(line);
            out.push('\n');
        }
        std::fs::write(&p, out).unwrap_or_else(|e| panic!("{e}"));
    }
    (cat, with_rules)
}

/// A Python module of a typical server: imports, a client with and without time-outs, tools,
/// error handling, logging, literals — the constructs the shipped rules look at, mostly clean.
fn python_file(i: usize) -> String {
    let mut s = format!(
        "\"\"\"Module {i} of a generated server.\"\"\"\n\nimport logging\nimport os\nfrom typing import Any\n\nimport httpx\n\nlog = logging.getLogger(__name__)\nBASE = os.environ.get(\"BASE_URL\", \"https://example.invalid\")\n\n"
    );
    for f in 0..6 {
        let n = i * 6 + f;
        s.push_str(&format!(
            "async def tool_{n}(query: str, limit: int = 20) -> dict[str, Any]:\n    \"\"\"Search part {n}.\"\"\"\n    if limit > 100:\n        raise ValueError('limit is at most 100')\n    async with httpx.AsyncClient(timeout=10.0) as client:\n        try:\n            r = await client.get(f\"{{BASE}}/search/{n}\", params={{'q': query, 'rows': limit}})\n            r.raise_for_status()\n        except httpx.HTTPError as e:\n            log.warning('upstream failed: %s', e)\n            return {{'error': str(e), 'items': []}}\n    items = r.json().get('items', [])[:limit]\n    return {{'items': items, 'count': len(items), 'source': 'part-{n}'}}\n\n"
        ));
    }
    if i.is_multiple_of(7) {
        s.push_str("def debug_dump(x):\n    print(x)\n\n");
    }
    if i.is_multiple_of(11) {
        s.push_str("def fetch_plain(url):\n    return httpx.get(url, verify=False)\n\n");
    }
    s
}

fn typescript_file(i: usize) -> String {
    let mut s = format!(
        "// Module {i} of a generated server.\nimport {{ z }} from \"zod\";\n\nconst BASE = process.env.BASE_URL ?? \"https://example.invalid\";\n\n"
    );
    for f in 0..5 {
        let n = i * 5 + f;
        s.push_str(&format!(
            "export async function tool{n}(query: string, limit = 20): Promise<{{ items: unknown[] }}> {{\n  if (limit > 100) throw new Error(\"limit is at most 100\");\n  const ctl = AbortSignal.timeout(10_000);\n  const r = await fetch(`${{BASE}}/search/{n}?q=${{encodeURIComponent(query)}}`, {{ signal: ctl }});\n  if (!r.ok) return {{ items: [] }};\n  const body = (await r.json()) as {{ items?: unknown[] }};\n  return {{ items: (body.items ?? []).slice(0, limit) }};\n}}\n\nexport const schema{n} = z.object({{ query: z.string(), limit: z.number().max(100) }});\n\n"
        ));
    }
    if i.is_multiple_of(9) {
        s.push_str("export function debug(x: unknown) {\n  console.log(x);\n}\n");
    }
    s
}

/// 1,000 files: 700 Python, 200 TypeScript, 80 JavaScript, and 20 manifests and documents.
fn source_tree(dir: &Path) -> PathBuf {
    let tree = dir.join("server");
    for i in 0..700 {
        let d = tree.join(format!("src/server/part{}", i / 50));
        std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(d.join(format!("mod_{i}.py")), python_file(i))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    for i in 0..200 {
        let d = tree.join(format!("web/src/part{}", i / 50));
        std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(d.join(format!("tool{i}.ts")), typescript_file(i))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    for i in 0..80 {
        let d = tree.join("web/scripts");
        std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(
            d.join(format!("task{i}.js")),
            format!("'use strict';\nconst n = {i};\nmodule.exports = function task() {{\n  return n * 2;\n}};\n"),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }
    let docs = tree.join("docs");
    std::fs::create_dir_all(&docs).unwrap_or_else(|e| panic!("{e}"));
    for i in 0..16 {
        std::fs::write(
            docs.join(format!("page{i}.md")),
            format!("# Page {i}\n\nText.\n"),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }
    std::fs::write(
        tree.join("pyproject.toml"),
        "[project]\nname = \"generated-mcp\"\nversion = \"1.0.0\"\ndependencies = [\"mcp>=1.20,<2\", \"httpx>=0.27\"]\n\n[project.scripts]\ngenerated-mcp = \"server:main\"\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(
        tree.join("web/package.json"),
        "{\"name\": \"generated-web\", \"version\": \"1.0.0\", \"dependencies\": {\"zod\": \"^3.23.0\", \"@modelcontextprotocol/sdk\": \">=1.0.0\"}}\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(tree.join("README.md"), "# generated\n").unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(tree.join("LICENSE"), "MIT\n").unwrap_or_else(|e| panic!("{e}"));
    tree
}

fn bench_scan(runs: usize) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (cat, with_rules) = catalogue_with_every_check(dir.path());
    let tree = source_tree(dir.path());
    let profile = dir.path().join("examples/amtsblatt-readonly.profile.yaml");
    let mut cpu = Vec::new();
    let mut wall = Vec::new();
    let mut summary = String::new();
    for k in 0..runs + 1 {
        let mut c = Command::new(binary());
        c.current_dir(dir.path())
            .arg("-C")
            .arg(&cat)
            .args(["--format", "json", "scan"])
            .arg(&profile)
            .arg("--source")
            .arg(&tree)
            .arg("--results")
            .arg(dir.path().join(format!("scan{k}.results.yaml")));
        let (ms, w, _, out) = run(&mut c);
        if k == 0 {
            // The first run warms the page cache; it is not counted.
            let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_default();
            summary = format!(
                "{} files scanned, {} checks with results, {} findings",
                v["files"],
                v["checks"].as_array().map_or(0, Vec::len),
                v["findings"].as_array().map_or(0, Vec::len)
            );
            continue;
        }
        cpu.push(ms);
        wall.push(w);
    }
    println!(
        "scan, 1,000 generated files, every rule of the {with_rules} checks that declare `scan:`: CPU median {:.0} ms (min {:.0}), wall median {} ms; {summary}",
        median(cpu.clone()),
        cpu.iter().copied().fold(f64::INFINITY, f64::min),
        median(wall).as_millis()
    );
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("{e}"))
}

struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn bench_collect(runs: usize) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = dir.path().join("packages");
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let built = Command::new("python3")
        .arg(root().join("tests/servers/packages.py"))
        .arg(&out)
        .arg(&base)
        .status();
    if !built.is_ok_and(|s| s.success()) {
        println!("collect: skipped, tests/servers/packages.py did not build the packages");
        return;
    }
    let _server = Server(
        Command::new("python3")
            .args(["-m", "http.server", "--bind", "127.0.0.1"])
            .arg(port.to_string())
            .arg("--directory")
            .arg(&out)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{e}")),
    );
    std::thread::sleep(Duration::from_millis(500));
    let wheel = std::fs::read_dir(out.join("simple/clean-mcp"))
        .ok()
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "whl"));
    let Some(wheel) = wheel else {
        println!("collect: skipped, no clean-mcp wheel was built");
        return;
    };
    let fixture = root().join("tests/fixtures/collect");
    let mut cpu = Vec::new();
    let mut wall = Vec::new();
    let mut line = String::new();
    for k in 0..runs + 1 {
        let mut c = Command::new(binary());
        c.current_dir(dir.path())
            .arg("-C")
            .arg(&fixture)
            .args(["--format", "json", "collect"])
            .arg(fixture.join("server.profile.yaml"))
            .arg("--package")
            .arg(&wheel)
            .args(["--no-start", "--overwrite", "--results"])
            .arg(dir.path().join("r.yaml"))
            .env("AUDITBOOK_CACHE_DIR", dir.path().join("cache"))
            .env("PIP_INDEX_URL", format!("{base}/simple"))
            .env("UV_INDEX_URL", format!("{base}/simple"))
            .env("PIP_DISABLE_PIP_VERSION_CHECK", "1");
        let (ms, w, code, out) = run(&mut c);
        if k == 0 {
            // The install: not counted.
            line = format!("first run (installs) {} ms, exit {code}", w.as_millis());
            let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_default();
            if v.is_null() {
                println!("collect: the first run printed no JSON: {out}");
            }
            continue;
        }
        cpu.push(ms);
        wall.push(w);
    }
    println!(
        "collect --package WHEEL --no-start, environment reused: wall median {} ms, CPU median {:.0} ms (auditbook and the sandboxed import and pip it runs); {line}",
        median(wall).as_millis(),
        median(cpu)
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument picks one part.
    let only: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let runs = std::env::var("AUDITBOOK_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(7);
    if only.as_deref().is_none_or(|o| o == "scan") {
        bench_scan(runs);
    }
    if only.as_deref().is_none_or(|o| o == "collect") {
        bench_collect(runs);
    }
}
