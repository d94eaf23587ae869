//! User templates (`--templates DIR`) that recurse: a component calling itself (directly or
//! through another), a template including itself. With tera 1 a recursive macro overflowed the
//! stack and aborted the process; tera 2 refuses an include cycle when the templates are read
//! and stops a component's recursion at a fixed depth, and either is an error with exit code 2,
//! never a crash. Recursion-free reuse of components renders as before.

use crate::common;

use common::auditbook;
use std::path::Path;

fn templates(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

/// `table NAME` on the shipped catalogue with the given template folder.
fn table(dir: &Path, name: &str) -> std::process::Output {
    auditbook()
        .args(["-C", "catalogue", "--templates"])
        .arg(dir)
        .args(["table", name])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap()
}

#[test]
fn a_component_that_calls_itself_is_an_error_not_a_crash() {
    let dir = templates(&[
        (
            "zeilen.tera",
            "{% component zeile(n: integer) %}- {{ n }}\n{{<zeile n={n + 1} />}}{% endcomponent zeile %}",
        ),
        ("zaehler.md.tera", "# Zähler\n{{<zeile n={1} />}}"),
    ]);
    let out = table(dir.path(), "zaehler");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("rendering `zaehler.md.tera` failed"), "{err}");
    assert!(err.contains("recursion depth"), "{err}");
    assert!(!err.contains("overflow"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn mutual_recursion_and_self_inclusion_are_refused() {
    let dir = templates(&[
        (
            "m.tera",
            "{% component ping(n: integer) %}{% if n > 0 %}{{<pong n={n - 1} />}}{% endif %}{% endcomponent ping %}\
             {% component pong(n: integer) %}{{<ping n={n + 1} />}}{% endcomponent pong %}",
        ),
        ("wechsel.md.tera", "{{<ping n={3} />}}"),
    ]);
    let out = table(dir.path(), "wechsel");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("recursion depth"), "{err}");

    let dir = templates(&[(
        "spiegel.md.tera",
        "Spiegel {% include \"spiegel.md.tera\" %}",
    )]);
    let out = table(dir.path(), "spiegel");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Circular include"), "{err}");
    assert!(out.stdout.is_empty());
}

/// The clean twin: a component used many times, from several templates, renders.
#[test]
fn reused_components_without_recursion_render() {
    let dir = templates(&[
        (
            "m.tera",
            "{% component fett(t) %}**{{ t }}**{% endcomponent fett %}\
             {% component zwei(t) %}{{<fett t={t} />}} {{<fett t={t} />}}{% endcomponent zwei %}",
        ),
        (
            "doppelt.md.tera",
            "{{<zwei t=\"Prüfung\" />}}\n{% include \"fuss.md.tera\" %}",
        ),
        ("fuss.md.tera", "{{<fett t=\"Ende\" />}}"),
    ]);
    let out = table(dir.path(), "doppelt");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim_end(),
        "**Prüfung** **Prüfung**\n**Ende**"
    );
}

/// In `verify`, a region rendered with a recursive template is a finding on the region's line.
#[test]
fn verify_reports_a_recursive_region_template_as_a_finding() {
    // The fixture's document holds a `category-counts` region.
    let dir = templates(&[(
        "category-counts.md.tera",
        "{% component f() %}{{<f />}}{% endcomponent f %}{{<f />}}",
    )]);
    let out = auditbook()
        .args(["-C", "tests/fixtures/graph", "--templates"])
        .arg(dir.path())
        .args(["verify", "--format", "json"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let found = common::findings_in(&v, "AB606");
    assert!(!found.is_empty(), "{v:#}");
    assert!(v.to_string().contains("recursion depth"), "{v}");
}
