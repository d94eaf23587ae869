//! `auditbook probe` against real MCP servers: the reference server
//! `@modelcontextprotocol/server-everything` (npm) and a FastMCP server with planted defects
//! (`tests/servers/planted_server.py`, PyPI `mcp`). Both are installed on first use under
//! `target/test-servers/` (`common::prereq`); a test whose server cannot be installed fails.

use crate::common;

use common::auditbook;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn catalogue() -> PathBuf {
    root().join("catalogue")
}

fn profile(name: &str) -> PathBuf {
    root().join("tests/fixtures/probe").join(name)
}

fn everything() -> String {
    format!(
        "node {} stdio",
        common::prereq::server_everything().display()
    )
}

fn python() -> PathBuf {
    common::prereq::mcp_python()
}

fn planted() -> String {
    format!(
        "{} {}",
        python().display(),
        root().join("tests/servers/planted_server.py").display()
    )
}

/// Run `probe --format json` and return (exit code, report, stderr).
fn probe(args: &[&str], dir: &Path, env: &[(&str, &str)]) -> (Option<i32>, Value, String) {
    let mut cmd = auditbook();
    cmd.current_dir(dir)
        .arg("-C")
        .arg(catalogue())
        .args(["--format", "json", "probe"])
        .args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run auditbook: {e}"));
    let report = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (
        out.status.code(),
        report,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn check<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["checks"]
        .as_array()
        .and_then(|a| a.iter().find(|c| c["id"] == id))
        .unwrap_or_else(|| panic!("{id} was not probed: {report}"))
}

fn evidence(c: &Value) -> String {
    c["evidence"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// The defect lines of one check (its `[probe …]` evidence when it failed).
fn defects(c: &Value) -> String {
    if c["status"] == "fail" {
        evidence(c)
            .lines()
            .filter(|l| l.starts_with("[probe"))
            .collect::<Vec<_>>()
            .join("\n")
    } else {
        String::new()
    }
}

#[test]
fn the_reference_server_is_probed_and_the_results_audit() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let cmd = everything();
    let p = profile("stdio.profile.yaml");
    let (code, report, stderr) = probe(
        &[
            p.to_str().unwrap_or(""),
            "--stdio",
            &cmd,
            "--results",
            "r.yaml",
        ],
        dir.path(),
        &[],
    );
    assert_eq!(code, Some(1), "server-everything has findings: {stderr}");
    assert_eq!(report["reach"]["outcome"], "reached", "{report}");
    assert_eq!(
        report["fingerprint"]["server_name"],
        "mcp-servers/everything"
    );
    // Evidence quotes the server and the spec page it is held against.
    let names = check(&report, "ARCH-001");
    assert_eq!(names["status"], "pass", "{names}");
    let ev = evidence(names);
    assert!(ev.contains("get-sum") && ev.contains("kebab-case"), "{ev}");
    assert!(ev.contains("held against: MCP 2025-11-25"), "{ev}");
    assert!(ev.contains("sha256:"), "{ev}");
    // No tool declares an outputSchema: a finding, named per tool.
    assert!(defects(check(&report, "ARCH-007")).contains("tool `echo`: no `outputSchema`"));
    // The results file is in the results format and `audit` renders it.
    let text = std::fs::read_to_string(dir.path().join("r.yaml")).unwrap_or_default();
    assert!(text.contains("source: probe"), "{text}");
    let out = auditbook()
        .current_dir(dir.path())
        .arg("-C")
        .arg(catalogue())
        .args(["audit"])
        .arg(&p)
        .args(["--results", "r.yaml"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(
        md.contains("# Audit report: mcp-servers/everything"),
        "{md}"
    );
    assert!(md.contains("ARCH-007"), "{md}");
    let errs = String::from_utf8_lossy(&out.stderr);
    assert!(
        !errs.contains("error["),
        "the probe's results are valid: {errs}"
    );
}

#[test]
fn every_planted_defect_is_found_by_its_probe_and_only_by_it() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let cmd = planted();
    let p = profile("stdio.profile.yaml");
    let (_, report, stderr) = probe(
        &[
            p.to_str().unwrap_or(""),
            "--stdio",
            &cmd,
            "--results",
            "r.yaml",
        ],
        dir.path(),
        &[],
    );
    assert_eq!(report["reach"]["outcome"], "reached", "{stderr}");
    let planted = [
        ("ARCH-001", "getRecordCount"),
        ("ARCH-009", "list_sources"),
        ("ARCH-007", "fetch_summary"),
        ("SDK-002", "fetch_summary"),
    ];
    for (id, tool) in planted {
        let d = defects(check(&report, id));
        assert!(
            d.contains(&format!("`{tool}`")),
            "{id} must name {tool}: {d}"
        );
        // Only the planted tool is named among the defects.
        for other in [
            "search_records",
            "getRecordCount",
            "list_sources",
            "fetch_summary",
            "describe_dataset",
        ] {
            if other != tool {
                assert!(
                    !d.contains(&format!("`{other}`")),
                    "{id} flags clean {other}: {d}"
                );
            }
        }
    }
    assert!(defects(check(&report, "ARCH-007")).contains("\"many\" is not of type \"integer\""));
    // The clean twins of the other probes: descriptions and error reporting are fine.
    for id in ["ARCH-002", "OBS-001"] {
        let c = check(&report, id);
        assert_eq!(c["status"], "not_verified", "{id}: {c}");
        assert!(defects(c).is_empty());
    }
    // Over stdio the HTTP probes are not applicable to this profile, and drift has no lock yet.
    let drift = check(&report, "SEC-022");
    assert_eq!(drift["status"], "not_verified");
    assert!(evidence(drift).contains("no lock file"));
}

#[test]
fn a_definition_change_is_drift_and_makes_recorded_results_stale() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let cmd = planted();
    let p = profile("stdio.profile.yaml");
    let ps = p.to_str().unwrap_or("");
    let args = [ps, "--stdio", &cmd, "--results", "r.yaml"];
    let (_, first, _) = probe(
        &[&args[..], &["--lock"]].concat(),
        dir.path(),
        &[("PLANTED_VARIANT", "1")],
    );
    assert!(dir.path().join("mcp-tools.lock").is_file());
    // Unchanged definitions: no drift.
    let (_, same, _) = probe(&args, dir.path(), &[("PLANTED_VARIANT", "1")]);
    assert!(defects(check(&same, "SEC-022")).is_empty(), "{same}");
    assert_eq!(first["fingerprint"], same["fingerprint"]);
    // A person records a result by hand.
    let path = dir.path().join("r.yaml");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let text = text.replace(
        "results:\n",
        "results:\n  ARCH-005:\n    status: pass\n    evidence: [\"gitleaks: 0 leaks in 412 commits\", \"no key in the image\", \"Geheimnisse nur über die Umgebung\"]\n",
    );
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
    // The description changes: drift names the tool and the field; the person's result is kept.
    let (_, after, stderr) = probe(&args, dir.path(), &[("PLANTED_VARIANT", "2")]);
    let d = defects(check(&after, "SEC-022"));
    assert!(
        d.contains("tool `describe_dataset` changed (`description`)"),
        "{d}"
    );
    assert!(stderr.contains("AB803"), "{stderr}");
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

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("{e}"))
}

fn http_server(strict: bool) -> (Server, String) {
    let port = free_port();
    let mut cmd = Command::new(python());
    cmd.arg(root().join("tests/servers/planted_server.py"))
        .args(["--http", &port.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    if strict {
        cmd.arg("--strict-origin");
    }
    let child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start the HTTP server: {e}"));
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    (Server(child), format!("http://127.0.0.1:{port}/mcp"))
}

#[test]
fn a_server_accepting_any_origin_is_found_and_its_strict_twin_is_not() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let p = profile("http.profile.yaml");
    let ps = p.to_str().unwrap_or("");
    let (_open, url) = http_server(false);
    let (_, report, stderr) = probe(
        &[ps, "--url", &url, "--results", "open.yaml"],
        dir.path(),
        &[],
    );
    let origin = check(&report, "SEC-024");
    assert_eq!(origin["status"], "fail", "{stderr} {origin}");
    assert!(defects(origin).contains("Origin: http://probe.invalid → HTTP 200"));
    // The version header is answered correctly by both.
    assert!(defects(check(&report, "SCALE-001")).is_empty());
    let (_strict, url) = http_server(true);
    let (_, report, _) = probe(
        &[ps, "--url", &url, "--results", "strict.yaml"],
        dir.path(),
        &[],
    );
    let origin = check(&report, "SEC-024");
    assert_eq!(origin["status"], "not_verified", "{origin}");
    assert!(evidence(origin).contains("HTTP 403"), "{origin}");
    assert!(evidence(check(&report, "SCALE-001")).contains("HTTP 400"));
}

#[test]
fn a_crashing_hanging_or_foreign_target_checks_nothing_and_says_so() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let p = profile("stdio.profile.yaml");
    let ps = p.to_str().unwrap_or("");
    let cases = [
        (vec!["--stdio", "exit 3"], "crashed"),
        (vec!["--stdio", "sleep 20", "--timeout-ms", "400"], "hung"),
        (
            vec![
                "--stdio",
                "echo '<html>captive portal</html>'; sleep 1",
                "--timeout-ms",
                "5000",
            ],
            "crashed",
        ),
    ];
    for (extra, outcome) in cases {
        let args = [&[ps, "--results", "x.yaml"][..], &extra[..]].concat();
        let (code, report, stderr) = probe(&args, dir.path(), &[]);
        assert_eq!(code, Some(1), "{extra:?}");
        assert_eq!(report["reach"]["outcome"], outcome, "{extra:?}: {report}");
        assert!(stderr.contains("AB801"), "{stderr}");
        for c in report["checks"].as_array().into_iter().flatten() {
            assert_eq!(c["status"], "not_verified", "{extra:?}: {c}");
        }
    }
    // A web page where the endpoint should be is not reachable as MCP.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("{e}"));
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
    std::thread::spawn(move || {
        for s in listener.incoming().flatten() {
            let mut s = s;
            let mut buf = [0u8; 4096];
            let _ = std::io::Read::read(&mut s, &mut buf);
            let body = "<html>Access denied</html>";
            let _ = std::io::Write::write_all(
                &mut s,
                format!("HTTP/1.1 403 Forbidden\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len()).as_bytes(),
            );
        }
    });
    let hp = profile("http.profile.yaml");
    let url = format!("http://127.0.0.1:{port}/mcp");
    let (code, report, _) = probe(
        &[
            hp.to_str().unwrap_or(""),
            "--url",
            &url,
            "--results",
            "w.yaml",
        ],
        dir.path(),
        &[],
    );
    assert_eq!(code, Some(1));
    assert_eq!(report["reach"]["outcome"], "not-mcp", "{report}");
    assert!(report["reach"]["detail"]
        .as_str()
        .unwrap_or("")
        .contains("HTTP 403"));
    for c in report["checks"].as_array().into_iter().flatten() {
        assert_eq!(c["status"], "not_verified", "{c}");
    }
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
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let p = profile("stdio.profile.yaml");
    let ps = p.to_str().unwrap_or("");
    let cmd = planted();
    probe(
        &[ps, "--stdio", &cmd, "--results", "r.yaml", "--lock"],
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
    assert_eq!(
        finding("OBS-001")["source"],
        Value::Null,
        "the person's result"
    );
    assert!(stderr.contains("OBS-001: the result recorded by a person was kept"));
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
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let d = dir.path();
    std::fs::copy(profile("stdio.profile.yaml"), d.join("stdio.profile.yaml"))
        .unwrap_or_else(|e| panic!("{e}"));
    std::fs::copy(profile("http.profile.yaml"), d.join("http.profile.yaml"))
        .unwrap_or_else(|e| panic!("{e}"));
    let (_open, url) = http_server(false);
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
            .args(["--server-timeout-ms", "12000", "--timeout-ms", "8000"])
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
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let tls = root().join("tests/fixtures/tls");
    let cert = tls.join("loopback.cert.pem");
    let port = free_port();
    let child = Command::new(python())
        .arg(root().join("tests/servers/planted_server.py"))
        .args(["--http", &port.to_string(), "--tls"])
        .arg(&cert)
        .arg(tls.join("loopback.key.pem"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start the HTTPS server: {e}"));
    let _server = Server(child);
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let url = format!("https://127.0.0.1:{port}/mcp");
    let p = profile("http.profile.yaml");
    let ps = p.to_str().unwrap_or("");
    let certs = cert.to_str().unwrap_or("");
    // The certificate trusted: the probe goes through, over TLS, and finds the planted name.
    let (_, report, stderr) = probe(
        &[ps, "--url", &url, "--results", "r.yaml"],
        dir.path(),
        &[("SSL_CERT_FILE", certs)],
    );
    assert_eq!(report["reach"]["outcome"], "reached", "{stderr} {report}");
    assert!(defects(check(&report, "ARCH-001")).contains("`getRecordCount`"));
    assert!(evidence(check(&report, "SEC-024")).contains("HTTP 200"));
    // Not trusted: not reached, and the detail says why.
    let none = dir.path().join("no-roots.pem");
    std::fs::write(&none, "").unwrap_or_else(|e| panic!("{e}"));
    let (code, report, _) = probe(
        &[ps, "--url", &url, "--results", "u.yaml"],
        dir.path(),
        &[("SSL_CERT_FILE", none.to_str().unwrap_or(""))],
    );
    assert_eq!(code, Some(1));
    assert_eq!(report["reach"]["outcome"], "unreachable", "{report}");
    let detail = report["reach"]["detail"].as_str().unwrap_or("");
    assert!(detail.to_lowercase().contains("certificate"), "{detail}");
}
