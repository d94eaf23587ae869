//! `auditbook site --out DIR`: every internal link of the rendered shipped catalogue resolves,
//! catalogue text cannot inject markup, output is deterministic; and the pages load in headless
//! Chromium (Debian's `chromium`, installed by the test when absent: `common::prereq`). So do
//! the HTML pages with pictures: `portfolio --format html` and the fleet's state-of summary.

use crate::common;
use common::{auditbook, success, Fixture};
use regex::Regex;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

fn render(root: &Path, out: &Path) {
    let run = auditbook()
        .arg("-C")
        .arg(root)
        .arg("site")
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    success(&run, "site");
}

fn shipped(out: &Path) {
    render(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("catalogue"),
        out,
    );
}

/// Every file under `dir`, by `/`-separated relative path.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(base, &p, out);
            } else {
                let rel = p
                    .strip_prefix(base)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn unescape(s: &str) -> String {
    s.replace("&#x2F;", "/")
        .replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// `base/rel` with `.` and `..` folded; `None` if it climbs out of the site.
fn resolve(page: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<String> = page.split('/').map(str::to_string).collect();
    parts.pop();
    for c in Path::new(rel).components() {
        match c {
            Component::Normal(x) => parts.push(x.to_string_lossy().into_owned()),
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(parts.join("/"))
}

#[test]
fn every_internal_link_resolves() {
    let out = tempfile::tempdir().unwrap();
    shipped(out.path());
    let site = files(out.path());
    let checks = site.keys().filter(|k| k.starts_with("checks/")).count();
    assert_eq!(checks, 120);
    assert!(site.contains_key("index.html"));
    assert!(site.contains_key("rules.html"));
    assert!(site.contains_key("style.css"));
    assert!(site.contains_key("retired/DRIFT-007.html"));

    let attr = Regex::new(r#"(?:href|src)="([^"]*)""#).unwrap();
    let id_attr = Regex::new(r#"\bid="([^"]*)""#).unwrap();
    let ids: BTreeMap<&str, Vec<String>> = site
        .iter()
        .filter(|(k, _)| k.ends_with(".html"))
        .map(|(k, v)| {
            let text = String::from_utf8_lossy(v);
            (
                k.as_str(),
                id_attr
                    .captures_iter(&text)
                    .map(|c| unescape(&c[1]))
                    .collect(),
            )
        })
        .collect();
    let mut checked = 0;
    for (page, bytes) in site.iter().filter(|(k, _)| k.ends_with(".html")) {
        let text = String::from_utf8(bytes.clone()).unwrap();
        for cap in attr.captures_iter(&text) {
            let target = unescape(&cap[1]);
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, fragment) = match target.split_once('#') {
                Some((p, f)) => (p.to_string(), Some(f.to_string())),
                None => (target.clone(), None),
            };
            let path = path.split('?').next().unwrap().to_string();
            let file = if path.is_empty() {
                page.clone()
            } else {
                resolve(page, &path).unwrap_or_else(|| panic!("{page}: `{target}` leaves the site"))
            };
            assert!(
                site.contains_key(&file),
                "{page}: `{target}` → {file} was not written"
            );
            if let Some(f) = fragment.filter(|f| !f.is_empty()) {
                let anchors = ids.get(file.as_str()).unwrap();
                assert!(
                    anchors.contains(&f),
                    "{page}: `{target}`: no id `{f}` in {file}"
                );
            }
            checked += 1;
        }
    }
    // 120 index rows, the navigation of every page, section tables of contents, references.
    assert!(checked > 2000, "only {checked} links checked");

    let fid006 = String::from_utf8_lossy(&site["checks/FID-006.html"]).into_owned();
    assert!(
        fid006.contains("rules.html#FIDELITY-6"),
        "covering rule missing"
    );
    assert!(fid006.contains("Referenced by"));
    let retired = String::from_utf8_lossy(&site["retired/DRIFT-007.html"]).into_owned();
    assert!(
        retired.contains("checks&#x2F;FID-006.html") || retired.contains("checks/FID-006.html")
    );
}

#[test]
fn site_is_deterministic() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    shipped(a.path());
    shipped(b.path());
    assert!(files(a.path()) == files(b.path()), "two renderings differ");
}

#[test]
fn catalogue_text_cannot_inject_markup() {
    let f = Fixture::new("clean");
    f.edit(
        "checks/FID-001.md",
        "title: \"Scope parameters are sent explicitly\"",
        "title: \"Scope <b onmouseover=x>bold</b>\"",
    );
    f.edit(
        "checks/FID-001.md",
        "A source's default scope is not the caller's scope.",
        "A <script>alert(1)</script> scope.\n\n<iframe src=\"https://evil.example\"></iframe>\n\n[click](javascript:alert(2)) ![x](https://img.example/t.png)",
    );
    let out = tempfile::tempdir().unwrap();
    render(f.root(), out.path());
    let site = files(out.path());
    let page = String::from_utf8_lossy(&site["checks/FID-001.html"]).into_owned();
    for raw in [
        "<script>alert",
        "<iframe",
        "<b onmouseover",
        "javascript:",
        "<img",
    ] {
        assert!(!page.contains(raw), "`{raw}` reached the page");
    }
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(page.contains("Scope &lt;b onmouseover=x&gt;bold&lt;&#x2F;b&gt;"));
    let index = String::from_utf8_lossy(&site["index.html"]).into_owned();
    assert!(!index.contains("<b onmouseover"));
    // Exactly one script in the whole site: the index filter.
    let scripts: usize = site
        .values()
        .map(|v| String::from_utf8_lossy(v).matches("<script").count())
        .sum();
    assert_eq!(scripts, 1);
}

fn run_chromium(profile: &Path, extra: &[String], url: &str) -> std::process::Output {
    std::process::Command::new(common::prereq::chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1280,900",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .unwrap()
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    let be =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    (be(16), be(20))
}

#[test]
fn pages_load_in_headless_chromium() {
    let out = tempfile::tempdir().unwrap();
    shipped(out.path());
    let profile = tempfile::tempdir().unwrap();
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("site-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let url = |rel: &str| format!("file://{}/{rel}", out.path().display());

    for (page, shot) in [
        ("index.html", "index.png"),
        ("checks/FID-006.html", "check-FID-006.png"),
    ] {
        let path = shots.join(shot);
        let _ = std::fs::remove_file(&path);
        let o = run_chromium(
            profile.path(),
            &[format!("--screenshot={}", path.display())],
            &url(page),
        );
        assert!(
            path.is_file(),
            "no screenshot of {page}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let png = std::fs::read(&path).unwrap();
        assert_eq!(png_size(&png), (1280, 900));
        // A blank page compresses to a few kilobytes; a rendered table or text does not.
        assert!(png.len() > 20_000, "{shot} is only {} bytes", png.len());
    }

    // The DOM after the filter script ran: 120 rows, the form revealed, nothing hidden.
    let dom = run_chromium(profile.path(), &["--dump-dom".into()], &url("index.html"));
    let dom = String::from_utf8_lossy(&dom.stdout).into_owned();
    assert_eq!(
        dom.matches("<tr data-id=").count(),
        120,
        "{}",
        &dom[..dom.len().min(2000)]
    );
    assert!(
        dom.contains("<form id=\"filters\" class=\"filters\">"),
        "the filter form is still hidden"
    );
    assert!(!dom.contains("hidden=\"\""));

    // A filter from the query string hides every row of the other categories.
    let fid = dom.matches("data-category=\"FID\"").count();
    let dom = run_chromium(
        profile.path(),
        &["--dump-dom".into()],
        &(url("index.html") + "?category=FID"),
    );
    let dom = String::from_utf8_lossy(&dom.stdout).into_owned();
    assert_eq!(dom.matches("hidden=\"\"").count(), 120 - fid);
    assert!(dom.contains(&format!(
        "<output id=\"shown-count\" aria-live=\"polite\">{fid}</output>"
    )));

    // A check page: its sections rendered from Markdown, with links to other checks.
    let dom = run_chromium(
        profile.path(),
        &["--dump-dom".into()],
        &url("checks/FID-006.html"),
    );
    let dom = String::from_utf8_lossy(&dom.stdout).into_owned();
    assert!(dom.contains("<h2 id=\"pass-criteria\">Pass Criteria</h2>"));
    assert!(dom.contains("type=\"checkbox\""), "task list not rendered");
    assert!(
        dom.contains("href=\"../checks/"),
        "no link to another check"
    );
}

#[test]
fn rule_pages_show_the_rules_text_and_check_pages_the_fields_they_read() {
    let out = tempfile::tempdir().unwrap();
    shipped(out.path());
    let site = files(out.path());
    let rule = String::from_utf8_lossy(&site["rules/FIDELITY-1.html"]).into_owned();
    assert!(rule.contains("<h2>Rule</h2>"), "{rule}");
    assert!(
        rule.contains("Leaving out an optional filter rarely means"),
        "the rule file's text"
    );
    assert!(rule.contains("href=\"../checks/FID-001.html\""), "{rule}");
    let table = String::from_utf8_lossy(&site["rules.html"]).into_owned();
    assert!(table.contains("<a href=\"rules/FIDELITY-1.html\">FIDELITY-1</a>"));
    // FID-001 applies when `tools_make_external_requests == true`.
    let check = String::from_utf8_lossy(&site["checks/FID-001.html"]).into_owned();
    assert!(
        check.contains(
            "<dt>profile fields read</dt><dd><code>tools_make_external_requests</code></dd>"
        ),
        "{check}"
    );
    // The prebuilt search index: every check, with its description's words.
    let index: serde_json::Value = serde_json::from_slice(&site["search-index.json"]).unwrap();
    let entries = index.as_array().unwrap();
    assert_eq!(entries.len(), 120);
    assert_eq!(entries[0]["id"], "ARCH-001");
    assert!(entries
        .iter()
        .all(|e| !e["description"].as_str().unwrap().is_empty()));
}

#[test]
fn the_search_index_cannot_close_its_script() {
    let f = Fixture::new("clean");
    f.edit(
        "checks/FID-001.md",
        "A source's default scope is not the caller's scope.",
        "A `</script><script>alert(1)</script>` scope & more.",
    );
    let out = tempfile::tempdir().unwrap();
    render(f.root(), out.path());
    let index = std::fs::read_to_string(out.path().join("index.html")).unwrap();
    assert_eq!(index.matches("<script").count(), 1, "{index}");
    assert_eq!(index.matches("</script>").count(), 1);
    assert!(index.contains("\\u003c/script\\u003e"), "{index}");
}

/// A page of the test's own that loads the index in a frame and types into its search box one
/// key at a time (an `input` event per character, as a browser sends them), then records what
/// the index shows.
const TYPING_HARNESS: &str = r##"<!doctype html>
<html><body>
<pre id="result">not run</pre>
<iframe id="site" src="index.html" width="1200" height="800"></iframe>
<script>
document.getElementById("site").addEventListener("load", function () {
  var doc = this.contentDocument;
  var box = doc.getElementById("search");
  var typed = "TYPED";
  for (var i = 0; i < typed.length; i++) {
    box.value += typed[i];
    box.dispatchEvent(new Event("input", {bubbles: true}));
  }
  var visible = Array.prototype.slice.call(doc.querySelectorAll("#checks tbody tr"))
    .filter(function (r) { return !r.hidden; })
    .map(function (r) { return r.getAttribute("data-id"); });
  document.getElementById("result").textContent =
    "shown=" + doc.getElementById("shown-count").textContent + " ids=" + visible.join(",");
});
</script>
</body></html>
"##;

/// What the harness recorded after typing `typed` into the search box of the site in `dir`.
fn typed_search(dir: &Path, profile: &Path, typed: &str) -> String {
    std::fs::write(
        dir.join("harness.html"),
        TYPING_HARNESS.replace("TYPED", typed),
    )
    .unwrap();
    let o = run_chromium(
        profile,
        &[
            "--dump-dom".into(),
            "--allow-file-access-from-files".into(),
            "--virtual-time-budget=5000".into(),
        ],
        &format!("file://{}/harness.html", dir.display()),
    );
    let dom = String::from_utf8_lossy(&o.stdout).into_owned();
    let start = dom
        .find("<pre id=\"result\">")
        .unwrap_or_else(|| panic!("no result: {}", String::from_utf8_lossy(&o.stderr)))
        + "<pre id=\"result\">".len();
    let end = dom[start..].find("</pre>").unwrap() + start;
    dom[start..end].to_string()
}

#[test]
fn typing_into_the_search_box_filters_the_rows_in_headless_chromium() {
    let out = tempfile::tempdir().unwrap();
    shipped(out.path());
    let profile = tempfile::tempdir().unwrap();
    let site = files(out.path());
    let index: serde_json::Value = serde_json::from_slice(&site["search-index.json"]).unwrap();
    let expected = |needle: &[&str]| -> Vec<String> {
        index
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| {
                let hay = format!("{} {} {}", e["id"], e["title"], e["description"]).to_lowercase();
                needle.iter().all(|n| hay.contains(n))
            })
            .map(|e| e["id"].as_str().unwrap().to_string())
            .collect()
    };

    // An id: that check, and the checks whose description names it.
    let want = expected(&["fid-006"]);
    assert!(want.contains(&"FID-006".to_string()), "{want:?}");
    assert_eq!(
        typed_search(out.path(), profile.path(), "fid-006"),
        format!("shown={} ids={}", want.len(), want.join(","))
    );
    // Words from titles and descriptions, in any order and case: the checks holding all.
    let want = expected(&["ckan", "rows"]);
    assert!(!want.is_empty() && want.len() < 120, "{want:?}");
    assert_eq!(
        typed_search(out.path(), profile.path(), "Rows CKAN"),
        format!("shown={} ids={}", want.len(), want.join(","))
    );
    // Nothing matches: no row, and the count says so.
    assert_eq!(
        typed_search(out.path(), profile.path(), "qqqxxyz"),
        "shown=0 ids="
    );
}

#[test]
fn the_html_report_renders_remediation_code_blocks_in_headless_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.html");
    let run = auditbook()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "-C",
            "catalogue",
            "audit",
            "examples/amtsblatt-readonly.profile.yaml",
            "--results",
            "examples/amtsblatt-readonly.results.yaml",
            "--format",
            "html",
            "--out",
        ])
        .arg(&report)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(
        html.contains("<pre><code class=\"language-python\">"),
        "a fenced block becomes a monospace block"
    );
    assert!(!html.contains("```"), "no literal code fences");
    let profile = tempfile::tempdir().unwrap();
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("site-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    // Framed at the first detail block (a headless screenshot of a page scrolled to a
    // fragment comes out blank), so the shot shows a rendered Remediation.
    let anchor = Regex::new(r#"<div class="detail" id="([^"]+)">"#)
        .unwrap()
        .captures(&html)
        .map(|c| c[1].to_string())
        .unwrap();
    std::fs::write(
        dir.path().join("frame.html"),
        format!(
            "<!doctype html><html><body style=\"margin:0\"><iframe src=\"report.html#{anchor}\" \
             style=\"border:0;display:block\" width=\"1280\" height=\"900\"></iframe></body></html>"
        ),
    )
    .unwrap();
    let shot = shots.join("report-remediation.png");
    let _ = std::fs::remove_file(&shot);
    let o = run_chromium(
        profile.path(),
        &[
            format!("--screenshot={}", shot.display()),
            "--allow-file-access-from-files".into(),
            "--virtual-time-budget=3000".into(),
        ],
        &format!("file://{}", dir.path().join("frame.html").display()),
    );
    assert!(
        shot.is_file(),
        "no screenshot: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let png = std::fs::read(&shot).unwrap();
    assert!(png.len() > 20_000, "the shot is only {} bytes", png.len());
    let dom = run_chromium(
        profile.path(),
        &["--dump-dom".into()],
        &format!("file://{}", report.display()),
    );
    let dom = String::from_utf8_lossy(&dom.stdout).into_owned();
    assert!(
        dom.contains("<div class=\"remediation\"><p>"),
        "rendered, not raw"
    );
}

/// What Chromium printed to the console while it loaded `url` (`--enable-logging=stderr`), and
/// the DOM after the page loaded.
fn console_and_dom(profile: &Path, url: &str) -> (Vec<String>, String) {
    let o = run_chromium(
        profile,
        &[
            "--enable-logging=stderr".into(),
            "--v=0".into(),
            "--log-level=0".into(),
            "--dump-dom".into(),
        ],
        url,
    );
    let console = String::from_utf8_lossy(&o.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_string)
        .collect();
    (console, String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn site_portfolio_html_pictures_load_in_headless_chromium_without_console_errors() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let run = [
        r#"{"auditbook_run":1,"portfolio":"examples/portfolio.yaml","portfolio_digest":"d","catalogue":"c","shard":{"index":1,"count":1},"declared":["amtsblatt-mcp","hr-casefile-mcp","opendata-transit-mcp"],"started":1790000000}"#,
        r#"{"server":"amtsblatt-mcp","bucket":"legacy-only","artifact":"a","catalogue":"c","checks":{"SEC-001":"pass"}}"#,
        r#"{"server":"hr-casefile-mcp","bucket":"both","artifact":"a","catalogue":"c","checks":{"SEC-001":"fail"}}"#,
        r#"{"server":"opendata-transit-mcp","bucket":"not-mcp-html","artifact":"a","catalogue":"c","detail":"HTTP 200 text/html"}"#,
    ];
    let run_file = d.join("run.jsonl");
    std::fs::write(&run_file, run.join("\n") + "\n").unwrap();
    let portfolio = |format: &str, extra: &[&str]| {
        let out = auditbook()
            .current_dir(&root)
            .args([
                "-C",
                "catalogue",
                "portfolio",
                "examples/portfolio.yaml",
                "--format",
                format,
            ])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let html = portfolio("html", &["--run", run_file.to_str().unwrap()]);
    let m: serde_json::Value = serde_json::from_str(&portfolio("json", &[])).unwrap();
    std::fs::write(d.join("portfolio.html"), &html).unwrap();
    // The defect twin: the same page with a script that logs an error.
    std::fs::write(
        d.join("planted.html"),
        html.replace(
            "</body>",
            "<script>console.error(\"planted-error\")</script></body>",
        ),
    )
    .unwrap();
    let merge = auditbook()
        .current_dir(d)
        .args(["merge", "run.jsonl", "--state-of", "state.html"])
        .output()
        .unwrap();
    assert!(
        d.join("state.html").is_file(),
        "{}",
        String::from_utf8_lossy(&merge.stderr)
    );
    let profile = tempfile::tempdir().unwrap();
    let url = |f: &str| format!("file://{}", d.join(f).display());

    let (console, planted) = console_and_dom(profile.path(), &url("planted.html"));
    assert!(
        console.iter().any(|l| l.contains("planted-error")),
        "the console is read: {console:?}"
    );
    assert!(planted.contains("data-picture=\"heatmap\""));

    let (console, dom) = console_and_dom(profile.path(), &url("portfolio.html"));
    assert!(console.is_empty(), "{console:?}");
    for kind in ["heatmap", "checks", "revisions", "trend"] {
        assert_eq!(
            dom.matches(&format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"picture {kind}\""
            ))
            .count(),
            1,
            "{kind}: {}",
            &dom[..dom.len().min(2000)]
        );
    }
    // The numbers in the SVG, as the browser parsed them, are the JSON's.
    let servers = m["servers"].as_array().unwrap();
    let categories = m["categories"].as_array().unwrap();
    assert_eq!(
        dom.matches("<g class=\"cell\"").count(),
        servers.len() * categories.len()
    );
    for s in servers {
        for (j, c) in categories.iter().enumerate() {
            let cell = format!(
                "data-row=\"{}\" data-column=\"{}\"",
                s["name"].as_str().unwrap(),
                c["prefix"].as_str().unwrap()
            );
            let at = dom.find(&cell).unwrap_or_else(|| panic!("no cell {cell}"));
            let rest = &dom[at..at + dom[at..].find('>').unwrap()];
            assert!(
                rest.contains(&format!("data-checks=\"{}\"", s["by_category"][j])),
                "{rest}"
            );
        }
    }
    for (verdict, n) in m["verdicts"].as_object().unwrap() {
        assert!(dom.contains(&format!("data-verdict=\"{verdict}\" data-servers=\"{n}\"")));
    }
    // The newest run assessed two of the three: one legacy only, one both.
    assert!(
        dom.contains("data-label=\"legacy-only\" data-legacy-only=\"1\""),
        "{dom}"
    );
    assert!(dom
        .contains("data-assessed=\"2\" data-legacy-only=\"1\" data-legacy-only-percent=\"50.0\""));

    let (console, dom) = console_and_dom(profile.path(), &url("state.html"));
    assert!(console.is_empty(), "{console:?}");
    assert!(dom.contains("class=\"picture buckets\""));
    assert!(dom.contains("class=\"picture checks\""));
    for name in ["amtsblatt", "hr-casefile", "opendata"] {
        assert!(!dom.contains(name), "{name} in the state-of page");
    }

    let shot = d.join("portfolio.png");
    run_chromium(
        profile.path(),
        &[format!("--screenshot={}", shot.display())],
        &url("portfolio.html"),
    );
    let png = std::fs::read(&shot).unwrap();
    assert_eq!(png_size(&png), (1280, 900));
    assert!(
        png.len() > 20_000,
        "the page looks blank: {} bytes",
        png.len()
    );
}
