//! The table of check fields (`model::fields::FIELDS`) is the one list every view reads: each
//! field the table exposes reaches the JSON Schema, the expression schema of `--where`,
//! `list --format json`, the named tables, the snapshot and the site under its format key, with
//! the same value; a field the table hides reaches none of the views. Adding a row to the table
//! is what makes a field appear, so these tests iterate the table rather than naming fields.

use crate::common;
use auditbook::model::fields::{self, FieldValue, Kind, FIELDS};
use common::{auditbook, success};
use serde_json::Value;
use std::path::Path;

/// A compatibility-layout catalogue: one check with every field written (the baseline as the
/// alias the real catalogue writes, odd quoting, a probe), one that leaves every optional field
/// to its default.
fn catalogue() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let checks = dir.path().join("checks");
    std::fs::create_dir_all(&checks).unwrap();
    std::fs::write(
        checks.join("FID-006.md"),
        "---\n\
         title: 'Antwortstruktur und Feldnamen vor dem Zählen bestätigen'\n\
         id: FID-006\n\
         severity: high\n\
         category: FID\n\
         applies_when: \"tools_make_external_requests == true\"\n\
         spec_baseline: beide\n\
         adoption: advisory\n\
         evidence_required: 2\n\
         pdf_ref: Portfolio-Befund, MCP-Register 2026-07\n\
         spec_ref: \"Spezifikation § 4.2 ‚Antworten‘\"\n\
         probe: [output-schema]\n\
         ---\n\n\
         # FID-006 — Antwortstruktur und Feldnamen vor dem Zählen bestätigen\n\n\
         ## Description\n\n\
         Zählt erst, wenn `result.items` wirklich die Liste ist; siehe [FID-003](FID-003.md).\n\n\
         ## Pass Criteria\n\n\
         - [ ] Wurzelpfad und gelesene Felder werden geprüft.\n",
    )
    .unwrap();
    std::fs::write(
        checks.join("FID-003.md"),
        "---\n\
         id: FID-003\n\
         title: Zahlen mit Quelle und Stichtag ausweisen\n\
         category: FID\n\
         severity: medium\n\
         applies_when: always\n\
         ---\n\n\
         # FID-003 — Zahlen mit Quelle und Stichtag ausweisen\n\n\
         ## Description\n\n\
         Jede Zahl nennt ihre Quelle (vgl. FID-006).\n",
    )
    .unwrap();
    dir
}

fn run(root: &Path, args: &[&str]) -> String {
    let out = auditbook().arg("-C").arg(root).args(args).output().unwrap();
    success(&out, args)
}

fn json(root: &Path, args: &[&str]) -> Value {
    serde_json::from_str(&run(root, args)).unwrap()
}

fn by_id<'v>(rows: &'v Value, id: &str) -> &'v Value {
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("{id} in {rows}"))
}

/// What the table's accessor says a check's field is, as `list --format json` writes it.
fn expected(list: &Value, id: &str, key: &str) -> Value {
    by_id(list, id)[key].clone()
}

#[test]
fn every_exposed_field_reaches_every_view_under_its_key() {
    let dir = catalogue();
    let root = dir.path();
    let list = json(root, &["list", "--format", "json"]);
    let schema = json(root, &["schema", "check"]);
    let table = json(root, &["table", "check-index", "--format", "json"]);
    let snapshot = json(root, &["snapshot"]);
    let snap_checks = &snapshot["checks"];
    let expression_fields =
        auditbook::model::check_fields::schema(&auditbook::load::load(root).unwrap().catalogue)
            .fields;

    for f in FIELDS {
        // Every field, exposed or not, is a frontmatter key the schema describes.
        assert!(
            schema["properties"].get(f.key).is_some(),
            "schema lacks {}",
            f.key
        );
        assert_eq!(
            schema["required"]
                .as_array()
                .unwrap()
                .contains(&Value::from(f.key)),
            f.required,
            "required {}",
            f.key
        );
        let in_list = by_id(&list, "FID-006").get(f.key).is_some();
        let in_table = by_id(&table["rows"], "FID-006").get(f.key).is_some();
        let in_snapshot = by_id(snap_checks, "FID-006").get(f.key).is_some();
        let in_expressions = expression_fields.contains_key(f.key);
        for (view, present) in [
            ("list --format json", in_list),
            ("table check-index", in_table),
            ("snapshot", in_snapshot),
            ("--where", in_expressions),
        ] {
            assert_eq!(present, f.exposed, "{} in {view}", f.key);
        }
        if !f.exposed {
            continue;
        }
        for id in ["FID-006", "FID-003"] {
            let want = expected(&list, id, f.key);
            assert_eq!(
                by_id(&table["rows"], id)[f.key],
                want,
                "{id}.{} in the table",
                f.key
            );
            // The snapshot records the expression in canonical form and leaves out what a
            // check does not have.
            if f.kind != Kind::Expression && !want.is_null() {
                assert_eq!(
                    by_id(snap_checks, id)[f.key],
                    want,
                    "{id}.{} in the snapshot",
                    f.key
                );
            }
        }
    }
    // The values are the effective ones: defaults applied, the alias resolved.
    let fid006 = by_id(&list, "FID-006");
    assert_eq!(fid006["spec_baseline"], "both");
    assert_eq!(fid006["evidence_required"], 2);
    assert_eq!(fid006["spec_ref"], "Spezifikation § 4.2 ‚Antworten‘");
    let fid003 = by_id(&list, "FID-003");
    assert_eq!(fid003["adoption"], "enforced");
    assert_eq!(fid003["evidence_required"], 1);
    assert_eq!(fid003["pdf_ref"], Value::Null);
}

#[test]
fn where_reads_every_exposed_field_by_its_key() {
    let dir = catalogue();
    let root = dir.path();
    let list = json(root, &["list", "--format", "json"]);
    for f in fields::exposed() {
        let value = match &expected(&list, "FID-006", f.key) {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            other => panic!("{}: {other}", f.key),
        };
        assert!(!value.contains('\''), "{value}");
        let expr = format!("{} == '{}'", f.key, value);
        let shown = json(root, &["list", "--format", "json", "--where", &expr]);
        assert!(
            shown
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["id"] == "FID-006"),
            "{expr} selects FID-006: {shown}"
        );
        // Its clean twin: a value no check has selects nothing.
        let none = format!("{} == 'kein-solcher-wert'", f.key);
        if fields::closed().iter().any(|c| c.key == f.key) {
            continue; // a closed vocabulary refuses an unknown literal outright
        }
        let shown = run(root, &["list", "--format", "json", "--where", &none]);
        assert_eq!(shown.trim(), "[]", "{none}");
    }
}

#[test]
fn list_columns_and_show_follow_the_table() {
    let dir = catalogue();
    let root = dir.path();
    let csv = run(root, &["list", "--format", "csv"]);
    let header = csv.lines().next().unwrap();
    let columns: Vec<&str> = fields::columns().iter().map(|f| f.key).collect();
    assert_eq!(header, columns.join(","));

    let show = run(root, &["show", "FID-006"]);
    for f in fields::detail() {
        assert!(
            show.contains(&format!("  {:<18} ", f.key)),
            "{} in {show}",
            f.key
        );
    }
    assert!(show.contains("spec_baseline      both (written `beide`)"));
    // An optional field a check leaves out is not shown; a defaulted one says so.
    let show = run(root, &["show", "FID-003"]);
    assert!(!show.contains("pdf_ref"), "{show}");
    assert!(
        show.contains("adoption           enforced (default)"),
        "{show}"
    );
    assert!(show.contains("evidence_required  1 (default)"), "{show}");
}

#[test]
fn stats_count_every_closed_field_under_its_key() {
    let dir = catalogue();
    let stats = json(dir.path(), &["stats", "--format", "json"]);
    for f in fields::closed() {
        let key = format!("by_{}", f.label.to_lowercase());
        let counts = stats[&key].as_array().unwrap();
        let total: u64 = counts.iter().map(|c| c["count"].as_u64().unwrap()).sum();
        assert_eq!(total, 2, "{key}: {counts:?}");
    }
    // The JSON keys scripts read stay as they were.
    assert_eq!(stats["by_baseline"][2]["value"], "both");
    assert_eq!(stats["by_baseline"][2]["count"], 2);
    let human = run(dir.path(), &["stats"]);
    assert!(human.contains("by spec_baseline:"), "{human}");
}

#[test]
fn the_site_names_the_baseline_by_its_key() {
    let dir = catalogue();
    let out = tempfile::tempdir().unwrap();
    let root = dir.path();
    let site = out.path().join("site");
    let run = auditbook()
        .arg("-C")
        .arg(root)
        .arg("site")
        .arg("--out")
        .arg(&site)
        .output()
        .unwrap();
    success(&run, "site");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    // One filter per closed field, each row carrying the value the filter compares.
    for f in fields::closed() {
        assert!(
            index.contains(&format!("<select name=\"{}\">", f.key)),
            "{} filter",
            f.key
        );
        assert!(
            index.contains(&format!(" data-{}=\"", f.key)),
            "{} row data",
            f.key
        );
    }
    assert!(index.contains("data-spec_baseline=\"both\""), "{index}");
    assert!(!index.contains("data-baseline="), "{index}");
    let page = std::fs::read_to_string(site.join("checks/FID-006.html")).unwrap();
    assert!(page.contains("baseline both"), "{page}");
    assert!(
        page.contains("Portfolio-Befund, MCP-Register 2026-07"),
        "{page}"
    );
}

#[test]
fn the_format_reference_lists_every_field() {
    let block = auditbook::render::format_doc::block("frontmatter-keys").unwrap();
    for f in FIELDS {
        let required = if f.required { "yes" } else { "no" };
        assert!(
            block.contains(&format!("| `{}` | {required} |", f.key)),
            "{} in {block}",
            f.key
        );
    }
    assert!(matches!(
        FieldValue::Absent.to_json(),
        serde_json::Value::Null
    ));
}
