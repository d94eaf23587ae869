//! `portfolio --format html`: the pictures' figures (the SVG's `data-` attributes) equal what
//! the JSON forms say — the portfolio's own JSON, each server's `audit --format json`, and
//! `merge --format json` of the fleet runs given with `--run` — and a server's name is text,
//! never markup. The "state of" summary as HTML (`--state-of FILE.html`) counts and names no
//! server.

use crate::common;
use common::auditbook;
use regex::Regex;
use serde_json::Value;
use sha2::Digest;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = auditbook()
        .current_dir(dir)
        .arg("-C")
        .arg(root().join("catalogue"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(dir: &Path, args: &[&str]) -> Value {
    let (_, out, err) = run(dir, args);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"))
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The attributes of every element of `class` inside the picture `kind`.
fn marks(html: &str, kind: &str, class: &str) -> Vec<BTreeMap<String, String>> {
    let start = html
        .find(&format!("data-picture=\"{kind}\""))
        .unwrap_or_else(|| panic!("no {kind} picture"));
    let end = start + html[start..].find("</svg>").unwrap();
    let tag = Regex::new(&format!(r#"<g class="{class}"([^>]*)>"#)).unwrap();
    let attr = Regex::new(r#"data-([a-z-]+)="([^"]*)""#).unwrap();
    tag.captures_iter(&html[start..end])
        .map(|c| {
            attr.captures_iter(&c[1])
                .map(|a| (a[1].to_string(), unescape(&a[2])))
                .collect()
        })
        .collect()
}

/// The worst status first, as the heatmap orders them.
const WORST_FIRST: [&str; 9] = [
    "fail",
    "partial",
    "rejected",
    "missing",
    "needs_triage",
    "todo",
    "not_verified",
    "pass",
    "n/a",
];

#[test]
fn portfolio_html_pictures_say_what_the_json_says() {
    let dir = root();
    let pf = "examples/portfolio.yaml";
    let (code, html, err) = run(&dir, &["portfolio", pf, "--format", "html"]);
    assert_eq!(code, Some(1), "two servers are unaudited: {err}");
    assert!(!html.contains("<script"), "no script");
    for external in ["<link", " src=", " href=", "url(", "@import"] {
        assert!(!html.contains(external), "no external resource: {external}");
    }
    let m = json(&dir, &["portfolio", pf, "--format", "json"]);
    for (verdict, n) in m["verdicts"].as_object().unwrap() {
        assert!(
            html.contains(&format!("data-verdict=\"{verdict}\" data-servers=\"{n}\"")),
            "{verdict}"
        );
    }
    let cells = marks(&html, "heatmap", "cell");
    let servers = m["servers"].as_array().unwrap();
    let categories = m["categories"].as_array().unwrap();
    assert_eq!(cells.len(), servers.len() * categories.len());
    // Each server's own audit: the statuses of its applicable checks.
    let mut by_check: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let entries = [
        (
            "amtsblatt-mcp",
            "examples/amtsblatt-readonly.profile.yaml",
            Some("examples/amtsblatt-readonly.results.yaml"),
        ),
        (
            "opendata-transit-mcp",
            "examples/cloud-http-apikey.profile.yaml",
            None,
        ),
        (
            "hr-casefile-mcp",
            "examples/personal-data-writer.profile.yaml",
            None,
        ),
    ];
    let mut totals: BTreeMap<String, usize> = BTreeMap::new();
    for (i, (name, profile, results)) in entries.iter().enumerate() {
        let s = &servers[i];
        assert_eq!(s["name"], *name);
        let mut args = vec!["audit", profile, "--format", "json"];
        if let Some(r) = results {
            args.extend(["--results", r]);
        }
        let audit = json(&dir, &args);
        let applicable: Vec<&Value> = audit["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["applicability"] == "applies")
            .collect();
        for c in &applicable {
            let e = by_check
                .entry(c["id"].as_str().unwrap().to_string())
                .or_default();
            match c["status"].as_str().unwrap() {
                "pass" => e.0 += 1,
                "fail" => e.1 += 1,
                _ => {}
            }
        }
        for (j, cat) in categories.iter().enumerate() {
            let prefix = cat["prefix"].as_str().unwrap();
            let cell = cells
                .iter()
                .find(|c| c["row"] == *name && c["column"] == prefix)
                .unwrap_or_else(|| panic!("no cell {name} {prefix}"));
            assert_eq!(
                cell["checks"],
                s["by_category"][j].to_string(),
                "{name} {prefix}"
            );
            let worst = applicable
                .iter()
                .filter(|c| c["category"] == prefix)
                .map(|c| c["status"].as_str().unwrap())
                .min_by_key(|st| WORST_FIRST.iter().position(|w| w == st).unwrap())
                .unwrap_or("none");
            assert_eq!(cell["status"], worst, "{name} {prefix}");
            *totals.entry(worst.to_string()).or_default() += 1;
        }
    }
    for t in marks(&html, "heatmap", "total") {
        assert_eq!(t["cells"], totals[&t["status"]].to_string(), "{t:?}");
    }
    assert_eq!(
        marks(&html, "heatmap", "total").len(),
        totals.len(),
        "every status shown is in the legend"
    );
    let bars = marks(&html, "checks", "bar");
    let decided: Vec<_> = by_check.iter().filter(|(_, (p, f))| p + f > 0).collect();
    assert_eq!(bars.len(), decided.len());
    for (b, (id, (pass, fail))) in bars.iter().zip(decided) {
        assert_eq!(&b["label"], id);
        assert_eq!(b["pass"], pass.to_string(), "{id}");
        assert_eq!(b["fail"], fail.to_string(), "{id}");
    }
    // No run file, no probe block: every server's revision support is unknown; no trend.
    let rev = marks(&html, "revisions", "bar");
    assert_eq!(rev.len(), 4);
    assert_eq!(rev[3]["unknown"], "3");
    assert!(!html.contains("data-picture=\"trend\""));
    // Deterministic.
    let (_, again, _) = run(&dir, &["portfolio", pf, "--format", "html"]);
    assert_eq!(html, again);
}

const HEADER: &str = r#"{"auditbook_run":1,"portfolio":"pf.yaml","portfolio_digest":"d","catalogue":"c","shard":{"index":INDEX,"count":COUNT},"declared":DECLARED,"started":STARTED}"#;

fn header(index: u32, count: u32, declared: &str, started: u64) -> String {
    HEADER
        .replace("INDEX", &index.to_string())
        .replace("COUNT", &count.to_string())
        .replace("DECLARED", declared)
        .replace("STARTED", &started.to_string())
}

fn line(server: &str, bucket: &str, checks: &str) -> String {
    format!(
        r#"{{"server":"{}","bucket":"{bucket}","artifact":"a","catalogue":"c","checks":{checks}}}"#,
        server.replace('\\', "\\\\").replace('"', "\\\"")
    )
}

/// A portfolio of three servers, one of them named with markup, one with results whose probe
/// block says it served the legacy revision only; two fleet runs, the second in two shards.
fn fleet(d: &Path, evil: &str) {
    for f in [
        "amtsblatt-readonly.profile.yaml",
        "cloud-http-apikey.profile.yaml",
        "personal-data-writer.profile.yaml",
    ] {
        std::fs::copy(root().join("examples").join(f), d.join(f)).unwrap();
    }
    let results =
        std::fs::read_to_string(root().join("examples/amtsblatt-readonly.results.yaml")).unwrap();
    let results = results.replacen(
        "\nresults:",
        "\nprobe:\n  reached: true\n  serves: [\"2025-11-25\"]\n\nresults:",
        1,
    );
    std::fs::write(d.join("alpha.results.yaml"), results).unwrap();
    let quoted = serde_json::to_string(evil).unwrap();
    std::fs::write(
        d.join("pf.yaml"),
        format!(
            "servers:\n  - {{name: alpha, profile: amtsblatt-readonly.profile.yaml, results: alpha.results.yaml}}\n  - {{name: beta, profile: cloud-http-apikey.profile.yaml}}\n  - {{name: {quoted}, profile: personal-data-writer.profile.yaml}}\n"
        ),
    )
    .unwrap();
    let declared = format!("[\"beta\",{quoted}]");
    let first = [
        header(1, 1, &declared, 1_780_000_000),
        line("beta", "both", r#"{"SEC-001":"fail"}"#),
        line(evil, "timed-out", "{}"),
    ];
    std::fs::write(d.join("old.jsonl"), first.join("\n") + "\n").unwrap();
    let one = [
        header(1, 2, "[\"beta\"]", 1_790_000_000),
        line("beta", "both", r#"{"SEC-001":"pass"}"#),
    ];
    let two = [
        header(2, 2, &format!("[{quoted}]"), 1_790_000_100),
        line(evil, "modern-only", r#"{"SEC-001":"fail"}"#),
    ];
    std::fs::write(d.join("new-1.jsonl"), one.join("\n") + "\n").unwrap();
    std::fs::write(d.join("new-2.jsonl"), two.join("\n") + "\n").unwrap();
}

#[test]
fn portfolio_html_trend_and_revisions_follow_the_runs_and_a_name_stays_text() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let evil = "gamma<img src=x onerror=\"alert(1)\">&amp;";
    fleet(d, evil);
    // Runs given newest first: the trend is ordered by when they started.
    let (code, html, err) = run(
        d,
        &[
            "portfolio",
            "pf.yaml",
            "--format",
            "html",
            "--run",
            "new-1.jsonl,new-2.jsonl",
            "--run",
            "old.jsonl",
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    // The run files name another portfolio digest than pf.yaml's: a note, the runs still read.
    for given in ["new-1.jsonl,new-2.jsonl", "old.jsonl"] {
        assert!(
            err.contains(&format!(
                "note: --run `{given}` was collected from another version of the portfolio"
            )),
            "{err}"
        );
    }
    assert!(!html.contains("<img"), "markup in a name is text");
    assert!(html.contains("gamma&lt;img"), "the name is shown escaped");
    let steps = marks(&html, "trend", "step");
    assert_eq!(steps.len(), 2);
    for (step, files) in steps
        .iter()
        .zip([vec!["old.jsonl"], vec!["new-1.jsonl", "new-2.jsonl"]])
    {
        let mut args = vec!["merge", "--partial", "--format", "json"];
        args.extend(files.iter().copied());
        let merged = json(d, &args);
        assert_eq!(step["assessed"], merged["denominator"].to_string());
        for share in merged["shares"].as_array().unwrap() {
            let b = share["bucket"].as_str().unwrap();
            assert_eq!(step[b], share["servers"].to_string(), "{b}");
            assert_eq!(
                step[&format!("{b}-percent")],
                format!("{:.1}", share["percent"].as_f64().unwrap()),
                "{b}"
            );
        }
    }
    assert_eq!(steps[0]["run"], "2026-05-28 20:26");
    assert_eq!(
        (steps[0]["both"].as_str(), steps[0]["assessed"].as_str()),
        ("1", "1")
    );
    assert_eq!(steps[1]["modern-only-percent"], "50.0");
    // Revision support: alpha from its probe block, the others from the newest run.
    let rev: BTreeMap<String, String> = marks(&html, "revisions", "bar")
        .into_iter()
        .map(|b| {
            let l = b["label"].clone();
            (l.clone(), b[&l].clone())
        })
        .collect();
    let want: BTreeMap<String, String> = [
        ("legacy-only", "1"),
        ("both", "1"),
        ("modern-only", "1"),
        ("unknown", "0"),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(rev, want);
    assert!(
        html.contains("<tr><td>alpha</td><td>legacy-only</td><td>probe</td></tr>"),
        "{html}"
    );
    // The other formats do not read run files.
    let (code, _, err) = run(
        d,
        &[
            "portfolio",
            "pf.yaml",
            "--format",
            "json",
            "--run",
            "old.jsonl",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--run is read by `--format html` only"),
        "{err}"
    );
}

#[test]
fn portfolio_html_clean_twin_names_a_plain_server_as_it_is() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    fleet(d, "gamma");
    // Run files of this very portfolio file: no note about another version.
    let pf = std::fs::read(d.join("pf.yaml")).unwrap();
    let digest: String = sha2::Sha256::digest(&pf)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let old = std::fs::read_to_string(d.join("old.jsonl")).unwrap();
    std::fs::write(
        d.join("old.jsonl"),
        old.replace(
            "\"portfolio_digest\":\"d\"",
            &format!("\"portfolio_digest\":\"{digest}\""),
        ),
    )
    .unwrap();
    let (_, html, err) = run(
        d,
        &[
            "portfolio",
            "pf.yaml",
            "--format",
            "html",
            "--run",
            "old.jsonl",
        ],
    );
    assert!(html.contains("<tr><td>gamma</td>"), "{err}");
    assert!(html.contains("data-row=\"gamma\""));
    assert_eq!(marks(&html, "trend", "step").len(), 1);
    assert!(!err.contains("note:"), "{err}");
}

#[test]
fn the_state_of_summary_in_html_counts_and_names_no_server() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let evil = "gamma<b>geheim</b>";
    fleet(d, evil);
    let (code, _, err) = run(
        d,
        &[
            "merge",
            "new-1.jsonl",
            "new-2.jsonl",
            "--state-of",
            "state.html",
        ],
    );
    assert_eq!(code, Some(1), "a failing check: {err}");
    let html = std::fs::read_to_string(d.join("state.html")).unwrap();
    for name in ["alpha", "beta", "gamma", "geheim"] {
        assert!(!html.contains(name), "{name} in {html}");
    }
    assert!(!html.contains("<script"));
    let merged = json(
        d,
        &["merge", "new-1.jsonl", "new-2.jsonl", "--format", "json"],
    );
    let buckets = marks(&html, "buckets", "bar");
    assert_eq!(buckets.len(), merged["buckets"].as_array().unwrap().len());
    for (b, m) in buckets.iter().zip(merged["buckets"].as_array().unwrap()) {
        assert_eq!(b["label"], m["bucket"].as_str().unwrap());
        assert_eq!(b["servers"], m["servers"].to_string());
    }
    let checks = marks(&html, "checks", "bar");
    assert_eq!(checks[0]["label"], "SEC-001");
    assert_eq!(
        checks[0]["pass"],
        merged["checks"]["SEC-001"]["pass"].to_string()
    );
    assert_eq!(
        checks[0]["fail"],
        merged["checks"]["SEC-001"]["fail"].to_string()
    );
    assert!(
        html.contains("<p id=\"verdict\">Verdict: fail.</p>"),
        "{html}"
    );
    insta::assert_snapshot!("state_of_html", html);
    // A Markdown file name still gets the Markdown summary.
    run(
        d,
        &[
            "merge",
            "new-1.jsonl",
            "new-2.jsonl",
            "--state-of",
            "state.md",
        ],
    );
    let md = std::fs::read_to_string(d.join("state.md")).unwrap();
    assert!(md.starts_with("# State of the fleet\n"), "{md}");
}
