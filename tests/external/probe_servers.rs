//! `auditbook probe` against servers built on the official SDKs: the reference server
//! `@modelcontextprotocol/server-everything` (npm, TypeScript SDK, 2025-11-25), a correct
//! server on the Python SDK `mcp` 2.x that serves 2026-07-28 (`tests/servers/modern_server.py`)
//! and a FastMCP server on `mcp` 1.x, legacy only, with planted defects
//! (`tests/servers/planted_server.py`). They are installed on first use under
//! `target/test-servers/` (`common::prereq`); a test whose server cannot be installed fails.

use crate::common;

use common::auditbook;
use common::probe::{catalogue, free_port, listening, probe_json, profile, root, Probe, Server};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn everything_js() -> String {
    common::prereq::server_everything().display().to_string()
}

fn planted() -> String {
    format!(
        "{} {}",
        common::prereq::mcp_python().display(),
        root().join("tests/servers/planted_server.py").display()
    )
}

fn modern() -> String {
    format!(
        "{} {}",
        common::prereq::mcp2_python().display(),
        root().join("tests/servers/modern_server.py").display()
    )
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"))
}

fn stdio(cmd: &str, prof: &str, dir: &Path, env: &[(&str, &str)]) -> Probe {
    let p = profile(prof);
    probe_json(&[&p, "--stdio", cmd, "--results", "r.yaml"], dir, env)
}

fn url(url: &str, prof: &str, dir: &Path) -> Probe {
    let p = profile(prof);
    probe_json(&[&p, "--url", url, "--results", "r.yaml"], dir, &[])
}

fn everything_http() -> (Server, String) {
    let port = free_port();
    let mut cmd = Command::new("node");
    cmd.arg(everything_js())
        .arg("streamableHttp")
        .env("PORT", port.to_string());
    (listening(cmd, port), format!("http://127.0.0.1:{port}/mcp"))
}

fn python_http(python: std::path::PathBuf, script: &str, extra: &[&str]) -> (Server, String) {
    let port = free_port();
    let mut cmd = Command::new(python);
    cmd.arg(root().join("tests/servers").join(script))
        .args(["--http", &port.to_string()])
        .args(extra);
    (listening(cmd, port), format!("http://127.0.0.1:{port}/mcp"))
}

/// The findings of the reference server, each a true one: its median description is shorter
/// than the catalogue's house threshold (60 of 100 characters), and over HTTP it serves a
/// request that carries a foreign `Origin` (it checks the Host header only).
#[test]
fn server_everything_is_reached_over_both_transports_with_only_its_real_findings() {
    let dir = tmp();
    let cmd = format!("node {} stdio", everything_js());
    let over_stdio = stdio(&cmd, "stdio.profile.yaml", dir.path(), &[]);
    let (_server, endpoint) = everything_http();
    let over_http = url(&endpoint, "http.profile.yaml", dir.path());
    for (name, r, expected) in [
        ("stdio", &over_stdio, vec![("ARCH-002", "partial")]),
        (
            "http",
            &over_http,
            vec![("ARCH-002", "partial"), ("SEC-024", "fail")],
        ),
    ] {
        assert_eq!(r.reach(), "reached", "{name}: {}", r.report["reach"]);
        assert_eq!(
            r.report["fingerprint"]["server_name"], "mcp-servers/everything",
            "{name}"
        );
        let found: Vec<(String, String)> = r.findings();
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(found, expected, "{name}: {}", r.stdout);
        // A legacy server: discover is refused, initialize answers 2025-11-25, and the profile
        // targets 2025-11-25, so ARCH-012 is no finding.
        assert_ne!(r.status("ARCH-012"), "fail", "{name}");
        assert!(r.evidence("ARCH-012").contains("2025-11-25"), "{name}");
        assert!(r.evidence("ARCH-001").contains("kebab-case"), "{name}");
        // Sampled structured content validates; tools without an output schema are no finding.
        assert!(
            r.evidence("ARCH-007")
                .contains("validates against its `outputSchema`"),
            "{name}"
        );
    }
    assert!(over_http
        .evidence("SEC-024")
        .contains("a foreign Origin is accepted"));
    // The results audit: valid, and the report names the server.
    let out = auditbook()
        .current_dir(dir.path())
        .arg("-C")
        .arg(catalogue())
        .arg("audit")
        .arg(profile("http.profile.yaml"))
        .args(["--results", "r.yaml"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(
        md.contains("# Audit report: mcp-servers/everything"),
        "{md}"
    );
    let errs = String::from_utf8_lossy(&out.stderr);
    assert!(
        !errs.contains("error["),
        "the probe's results are valid: {errs}"
    );
}

/// A correct 2026-07-28 server on the official Python SDK: every stateless check is observed
/// and none finds anything; the destructive tool is never called.
#[test]
fn a_correct_2026_server_on_the_python_sdk_passes_the_stateless_checks() {
    let dir = tmp();
    let log = dir.path().join("deleted.log");
    let l = log.display().to_string();
    let over_stdio = stdio(
        &modern(),
        "modern.profile.yaml",
        dir.path(),
        &[("DELETED_LOG", &l)],
    );
    let (_server, endpoint) = python_http(common::prereq::mcp2_python(), "modern_server.py", &[]);
    let over_http = url(&endpoint, "modern.profile.yaml", dir.path());
    for (name, r) in [("stdio", &over_stdio), ("http", &over_http)] {
        assert_eq!(r.reach(), "reached", "{name}: {}", r.report["reach"]);
        assert_eq!(
            r.findings(),
            Vec::<(String, String)>::new(),
            "{name}: {}",
            r.stdout
        );
        assert_eq!(r.code, Some(0), "{name}: {}", r.stderr);
        assert_ne!(r.status("ARCH-012"), "fail");
        assert!(
            r.evidence("ARCH-012")
                .contains("server/discover as a 2026-07-28 client → served"),
            "{name}"
        );
        for id in [
            "ARCH-016", "ARCH-018", "ARCH-020", "ARCH-021", "HITL-006", "ARCH-015",
        ] {
            let ev = r.evidence(id);
            assert!(
                !ev.contains("was not observed") && !ev.contains("could not"),
                "{name} {id}: {ev}"
            );
        }
        assert!(
            r.report["not_called"].to_string().contains("delete_note"),
            "{name}"
        );
    }
    assert!(over_http
        .evidence("SCALE-008")
        .contains("refused as required"));
    assert!(!log.exists(), "the destructive tool was called");
}

#[test]
fn every_planted_defect_of_the_legacy_sdk_server_is_found_by_its_probe_and_only_by_it() {
    let dir = tmp();
    let r = stdio(&planted(), "stdio.profile.yaml", dir.path(), &[]);
    assert_eq!(r.reach(), "reached", "{}", r.stderr);
    let defects = [
        ("ARCH-001", "getRecordCount"),
        ("ARCH-009", "list_sources"),
        ("ARCH-007", "fetch_summary"),
        ("SDK-002", "fetch_summary"),
    ];
    let tools = [
        "search_records",
        "getRecordCount",
        "list_sources",
        "fetch_summary",
        "describe_dataset",
    ];
    for (id, tool) in defects {
        assert_eq!(r.status(id), "fail", "{id}: {}", r.evidence(id));
        let defects: String = r
            .evidence(id)
            .lines()
            .filter(|l| l.contains(": fail)"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            defects.contains(&format!("`{tool}`")),
            "{id} must name {tool}: {defects}"
        );
        for other in tools.iter().filter(|t| **t != tool) {
            assert!(
                !defects.contains(&format!("`{other}`")),
                "{id} flags clean {other}: {defects}"
            );
        }
    }
    assert!(r
        .evidence("ARCH-007")
        .contains("\"many\" is not of type \"integer\""));
    for id in ["ARCH-002", "OBS-001"] {
        assert_eq!(r.status(id), "not_verified", "{id}: {}", r.evidence(id));
    }
    // Legacy only: no finding for a profile that targets 2025-11-25, a failure for one that
    // targets 2026-07-28.
    assert_ne!(r.status("ARCH-012"), "fail");
    let m = stdio(&planted(), "modern.profile.yaml", dir.path(), &[]);
    assert_eq!(m.status("ARCH-012"), "fail", "{}", m.evidence("ARCH-012"));
    assert!(m
        .evidence("ARCH-012")
        .contains("legacy only: serves 2025-11-25, not 2026-07-28"));
    // The stateless checks could not look, and say so.
    assert!(
        m.evidence("ARCH-018").contains("does not serve 2026-07-28"),
        "{}",
        m.evidence("ARCH-018")
    );
}

#[test]
fn a_definition_change_is_drift_and_makes_recorded_results_stale() {
    let dir = tmp();
    let cmd = planted();
    let p = profile("stdio.profile.yaml");
    let args = [p.as_str(), "--stdio", &cmd, "--results", "r.yaml"];
    let first = probe_json(
        &[&args[..], &["--lock"]].concat(),
        dir.path(),
        &[("PLANTED_VARIANT", "1")],
    );
    assert!(
        dir.path().join("mcp-tools.lock").is_file(),
        "{}",
        first.stderr
    );
    let same = probe_json(&args, dir.path(), &[("PLANTED_VARIANT", "1")]);
    assert_ne!(
        same.status("SEC-022"),
        "fail",
        "{}",
        same.evidence("SEC-022")
    );
    assert_eq!(first.report["fingerprint"], same.report["fingerprint"]);
    // A person records a result by hand.
    let path = dir.path().join("r.yaml");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let text = text.replace(
        "results:\n",
        "results:\n  ARCH-005:\n    status: pass\n    evidence: [\"gitleaks: 0 leaks in 412 commits\", \"no key in the image\", \"Geheimnisse nur über die Umgebung\"]\n",
    );
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
    // The description changes: drift names the tool, the field, the old and the new text.
    let after = probe_json(&args, dir.path(), &[("PLANTED_VARIANT", "2")]);
    let d = after.evidence("SEC-022");
    assert!(
        d.contains("tool `describe_dataset` changed: `description`"),
        "{d}"
    );
    assert!(
        d.contains("(revision 1)") && d.contains("(revision 2)"),
        "{d}"
    );
    assert!(after.stderr.contains("AB803"), "{}", after.stderr);
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(kept.contains("gitleaks: 0 leaks"), "{kept}");
    // `audit` lists exactly the stale result.
    let out = auditbook()
        .current_dir(dir.path())
        .arg("-C")
        .arg(catalogue())
        .arg("audit")
        .arg(&p)
        .args(["--results", "r.yaml"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let errs = String::from_utf8_lossy(&out.stderr);
    let stale: Vec<&str> = errs.lines().filter(|l| l.contains("AB531")).collect();
    assert_eq!(stale.len(), 1, "{errs}");
    assert!(stale[0].contains("ARCH-005"), "{errs}");
}

/// `audit --probe` in one format: (exit code, report text, stderr).
fn audit_probe(dir: &Path, variant: &str, format: &str) -> (Option<i32>, String, String) {
    let out = auditbook()
        .current_dir(dir)
        .env("PLANTED_VARIANT", variant)
        .arg("-C")
        .arg(catalogue())
        .args(["--format", format, "audit"])
        .arg(profile("stdio.profile.yaml"))
        .args(["--results", "r.yaml", "--probe", "--stdio", &planted()])
        .output()
        .unwrap_or_else(|e| panic!("cannot run auditbook: {e}"));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn audit_probe_marks_probe_results_and_lists_exactly_the_stale_ones() {
    let dir = tmp();
    let p = profile("stdio.profile.yaml");
    let cmd = planted();
    probe_json(
        &[&p, "--stdio", &cmd, "--results", "r.yaml", "--lock"],
        dir.path(),
        &[("PLANTED_VARIANT", "1")],
    );
    // A person records two results by hand: one the probe also covers, one it does not.
    let path = dir.path().join("r.yaml");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let mut doc: serde_yaml::Value =
        serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let by_hand: serde_yaml::Value = serde_yaml::from_str(
        "ARCH-005:\n  status: pass\n  evidence: [\"gitleaks: 0 Funde in 412 Commits\", \"kein Schlüssel im Image\", \"Geheimnisse nur über die Umgebung\"]\n  note: 'Geprüft von A. Müller'\nOBS-001:\n  status: fail\n  evidence: [\"Fehler kommen als JSON-RPC-Fehler\", \"kein isError\", \"Log: -32603\"]\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    if let (Some(results), serde_yaml::Value::Mapping(m)) = (
        doc.get_mut("results").and_then(|r| r.as_mapping_mut()),
        by_hand,
    ) {
        results.extend(m);
    }
    let text = serde_yaml::to_string(&doc).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&path, &text).unwrap_or_else(|e| panic!("{e}"));
    let before = std::fs::read(&path).unwrap_or_default();

    // Clean twin: the server is unchanged, so nothing is stale.
    let (_, json, stderr) = audit_probe(dir.path(), "1", "json");
    let rep: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    assert_eq!(rep["probe"]["stale"], serde_json::json!([]), "{stderr}");
    assert!(!stderr.contains("AB531"), "{stderr}");

    // The definitions change: the probe merges in, the person's results are kept and are the
    // only ones listed as stale, in every format.
    let (code, json, stderr) = audit_probe(dir.path(), "2", "json");
    assert_eq!(code, Some(1), "{stderr}");
    let rep: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    let stale: Vec<&str> = rep["probe"]["stale"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["id"].as_str())
        .collect();
    assert_eq!(stale, ["ARCH-005", "OBS-001"], "{}", rep["probe"]);
    let recorded = rep["probe"]["recorded"].to_string();
    assert!(
        recorded.contains("ARCH-009") && !recorded.contains("OBS-001"),
        "{recorded}"
    );
    let finding = |id: &str| {
        rep["findings"]
            .as_array()
            .and_then(|a| a.iter().find(|f| f["id"] == id))
            .cloned()
            .unwrap_or_else(|| panic!("{id} is not a finding: {}", rep["findings"]))
    };
    assert_eq!(finding("ARCH-009")["source"], "probe");
    // The person's fail judged definitions that have changed: it is kept on disk but reopened,
    // so it is no longer a finding until someone looks again.
    let findings = rep["findings"].to_string();
    assert!(!findings.contains("\"OBS-001\""), "{findings}");
    assert!(
        stderr.contains("OBS-001: the result recorded by a person was kept"),
        "{stderr}"
    );
    assert!(stderr.contains("the result is reopened (todo)"), "{stderr}");
    // The results file on disk is not changed by `audit --probe`.
    assert_eq!(std::fs::read(&path).unwrap_or_default(), before);

    let (_, md, _) = audit_probe(dir.path(), "2", "md");
    assert!(md.contains("| fail (probe) |"), "{md}");
    let stale_rows: Vec<&str> = md
        .lines()
        .skip_while(|l| !l.starts_with("Stale results"))
        .filter(|l| l.starts_with("| [") && l.contains("| person |"))
        .collect();
    assert_eq!(stale_rows.len(), 2, "{md}");
    assert!(stale_rows[0].contains("ARCH-005") && stale_rows[1].contains("OBS-001"));
    let (_, html, _) = audit_probe(dir.path(), "2", "html");
    assert!(html.contains("<h2>Probed results</h2>"), "{html}");
    assert!(html.contains("fail (probe)"));
    assert!(html.contains(">ARCH-005</a>") && html.contains("Stale results"));
}

#[test]
fn a_portfolio_is_probed_concurrently_one_results_file_per_server_names_only_when_asked() {
    let dir = tmp();
    let d = dir.path();
    for f in ["stdio.profile.yaml", "http.profile.yaml"] {
        std::fs::copy(profile(f), d.join(f)).unwrap_or_else(|e| panic!("{e}"));
    }
    let (_open, url) = python_http(common::prereq::mcp_python(), "planted_server.py", &[]);
    let closed = format!("http://127.0.0.1:{}/mcp", free_port());
    let portfolio = format!(
        r#"# Portfolio der Fachstelle Daten: Server, die wir regelmässig prüfen
name: "Stadt — Datenportal"
servers:
  - name: amtsblatt-stdio
    profile: stdio.profile.yaml
    stdio: '{planted}'
  - name: "amtsblatt-http"
    profile: http.profile.yaml
    url: {url}
    results: ../draussen.results.yaml
  - name: abgeschaltet
    profile: http.profile.yaml
    url: "{closed}"
  - name: stürzt-ab
    profile: stdio.profile.yaml
    stdio: exit 3
  - name: hängt
    profile: stdio.profile.yaml
    stdio: sleep 30
  - name: ohne-adresse
    profile: stdio.profile.yaml
  - name: ../ausbruch
    profile: stdio.profile.yaml
    stdio: exit 0
"#,
        planted = planted()
    );
    std::fs::write(d.join("portfolio.yaml"), portfolio).unwrap_or_else(|e| panic!("{e}"));
    let run = |extra: &[&str]| {
        let out = auditbook()
            .current_dir(d)
            .arg("-C")
            .arg(catalogue())
            .args(["--format", "json", "probe", "--portfolio", "portfolio.yaml"])
            .args(["--results-dir", "ergebnisse", "--jobs", "3"])
            // Generous for the real servers on a loaded machine; `sleep 30` still ends as hung.
            .args(["--server-timeout-ms", "20000", "--timeout-ms", "8000"])
            .args(extra)
            .output()
            .unwrap_or_else(|e| panic!("cannot run auditbook: {e}"));
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stdout, stderr) = run(&[]);
    assert_eq!(code, Some(1), "{stderr}");
    let sum: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    assert_eq!(sum["servers"], 7, "{sum}");
    let outcomes = &sum["outcomes"];
    for (k, n) in [
        ("reached", 2),
        ("unreachable", 1),
        ("crashed", 1),
        ("hung", 1),
        ("skipped", 2),
        ("not-mcp", 0),
    ] {
        assert_eq!(outcomes[k], n, "{k}: {sum}");
    }
    // Per probe kind, counted once per reached server: the planted camelCase name on both
    // transports, the open Origin only over HTTP.
    assert_eq!(sum["kinds"]["tool-names"]["defect"], 2, "{sum}");
    assert_eq!(sum["kinds"]["tool-errors"]["clean"], 2, "{sum}");
    assert_eq!(sum["kinds"]["http-origin"]["defect"], 1, "{sum}");
    assert_eq!(sum["kinds"]["http-version-header"]["clean"], 1, "{sum}");
    assert_eq!(sum["named"], Value::Null);
    for name in ["amtsblatt", "abgeschaltet", "hängt", "ausbruch"] {
        assert!(
            !stdout.contains(name),
            "{name} named without --name-servers"
        );
    }
    // The name that is not a plain file name is refused where it is written.
    assert!(
        stderr.contains("AB010") && stderr.contains("../ausbruch"),
        "{stderr}"
    );
    let mut files: Vec<String> = std::fs::read_dir(d.join("ergebnisse"))
        .map(|r| {
            r.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    assert_eq!(
        files,
        [
            "abgeschaltet.results.yaml",
            "amtsblatt-http.results.yaml",
            "amtsblatt-stdio.results.yaml",
            "hängt.results.yaml",
            "stürzt-ab.results.yaml",
        ]
    );
    assert!(!d.join("ausbruch.results.yaml").exists());
    // `portfolio --results-dir` reads what the probe wrote.
    let out = auditbook()
        .current_dir(d)
        .arg("-C")
        .arg(catalogue())
        .args(["--format", "json", "portfolio", "portfolio.yaml"])
        .args(["--results-dir", "ergebnisse"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let m: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let row = m["servers"]
        .as_array()
        .and_then(|a| a.iter().find(|s| s["name"] == "amtsblatt-stdio"))
        .cloned()
        .unwrap_or(Value::Null);
    assert_eq!(
        row["results"], "ergebnisse/amtsblatt-stdio.results.yaml",
        "{m}"
    );
    // Named when asked, in name order.
    let (_, stdout, _) = run(&["--name-servers"]);
    let sum: Value = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    let names: Vec<&str> = sum["named"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "../ausbruch",
            "abgeschaltet",
            "amtsblatt-http",
            "amtsblatt-stdio",
            "hängt",
            "ohne-adresse",
            "stürzt-ab"
        ]
    );
}

#[test]
fn an_https_endpoint_is_probed_over_rustls_and_an_untrusted_certificate_is_not_reached() {
    let dir = tmp();
    let tls = root().join("tests/fixtures/tls");
    let cert = tls.join("loopback.cert.pem");
    let key = tls.join("loopback.key.pem");
    let (_server, http_url) = python_http(
        common::prereq::mcp_python(),
        "planted_server.py",
        &[
            "--tls",
            cert.to_str().unwrap_or(""),
            key.to_str().unwrap_or(""),
        ],
    );
    let endpoint = http_url.replacen("http://", "https://", 1);
    let p = profile("http.profile.yaml");
    let certs = cert.display().to_string();
    // The certificate trusted: the probe goes through, over TLS, and finds the planted name.
    let r = probe_json(
        &[&p, "--url", &endpoint, "--results", "r.yaml"],
        dir.path(),
        &[("SSL_CERT_FILE", &certs)],
    );
    assert_eq!(r.reach(), "reached", "{} {}", r.stderr, r.report);
    assert!(r.evidence("ARCH-001").contains("`getRecordCount`"));
    assert!(r.evidence("SEC-024").contains("HTTP 200"));
    // Not trusted: not reached, and the detail says why.
    let none = dir.path().join("no-roots.pem");
    std::fs::write(&none, "").unwrap_or_else(|e| panic!("{e}"));
    let n = none.display().to_string();
    let r = probe_json(
        &[&p, "--url", &endpoint, "--results", "u.yaml"],
        dir.path(),
        &[("SSL_CERT_FILE", &n)],
    );
    assert_eq!(r.code, Some(1));
    assert_eq!(r.reach(), "unreachable", "{}", r.report);
    let detail = r.report["reach"]["detail"].as_str().unwrap_or("");
    assert!(detail.to_lowercase().contains("certificate"), "{detail}");
}
