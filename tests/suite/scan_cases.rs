//! `auditbook test` holds every source rule to a sample it must match and a clean twin it must
//! not: a rule that drifts fails with a diff, a rule without a case fails naming it, a case
//! that cannot hold its rule is reported at its line.

use crate::common;

use common::auditbook;
use std::path::Path;

fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scan");
    for sub in ["", "checks"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        for e in std::fs::read_dir(from.join(sub)).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_file() {
                std::fs::copy(e.path(), dir.path().join(sub).join(e.file_name())).unwrap();
            }
        }
    }
    std::fs::create_dir_all(dir.path().join("tests/scan")).unwrap();
    dir
}

/// A case for every rule of the fixture catalogue, each right.
const ALL_HELD: &str = r#"tests:
  - name: DEP-001 sdk-bound
    check: DEP-001
    rule: sdk-bound
    match:
      pyproject.toml: "[project]\nname = 'x'\ndependencies = ['mcp>=1.2']\n"
    clean:
      pyproject.toml: "[project]\nname = 'x'\ndependencies = ['mcp>=1.2,<2']\n"
  - name: DEP-001 lockfile
    check: DEP-001
    rule: lockfile
    match:
      pyproject.toml: "[project]\nname = 'x'\n"
    clean:
      pyproject.toml: "[project]\nname = 'x'\n"
      uv.lock: "version = 1\n"
  - name: IDENT-001 python
    check: IDENT-001
    rule: ua-literal-version
    match:
      src/app.py: "UA = 'my-server/1.4.0'\n"
    clean:
      src/app.py: "UA = f'my-server/{version(\"my-server\")}'\n"
  - name: IDENT-001 typescript
    check: IDENT-001
    rule: ua-literal-version-ts
    match:
      src/app.ts: "const ua = 'my-server/1.4.0';\n"
    clean:
      src/app.ts: "const ua = `my-server/${pkg.version}`;\n"
  - name: IDENT-002
    check: IDENT-002
    rule: version-literal
    match:
      src/pkg/__init__.py: "__version__ = '1.2.3'\n"
    clean:
      src/pkg/__init__.py: "from importlib.metadata import version\n__version__ = version('pkg')\n"
  - name: OBS-001
    check: OBS-001
    rule: exception-text-returned
    match:
      src/app.py: "try:\n    go()\nexcept Exception as e:\n    return str(e)\n"
    clean:
      src/app.py: "try:\n    go()\nexcept Exception:\n    return 'the upstream failed'\n"
"#;

fn test(dir: &Path) -> (Option<i32>, String) {
    let out = auditbook()
        .args(["-C", dir.to_str().unwrap(), "test"])
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn every_rule_held_by_a_right_case_passes() {
    let dir = fixture();
    std::fs::write(dir.path().join("tests/scan/all.yaml"), ALL_HELD).unwrap();
    let (code, text) = test(dir.path());
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("6 test(s): 6 passed, 0 failed"), "{text}");
}

#[test]
fn a_rule_that_drifted_fails_on_both_samples_with_a_diff() {
    let dir = fixture();
    // The rule now looks for a number, so the string literal is missed and the clean
    // twin's number is found.
    let check = dir.path().join("checks/IDENT-002.md");
    let text = std::fs::read_to_string(&check).unwrap();
    let drifted = text.replace("{V: {kind: string}}", "{V: {kind: integer}}");
    assert_ne!(text, drifted);
    std::fs::write(&check, drifted).unwrap();
    let cases = ALL_HELD.replace(
        "from importlib.metadata import version\\n__version__ = version('pkg')\\n",
        "__version__ = 3\\n",
    );
    std::fs::write(dir.path().join("tests/scan/all.yaml"), cases).unwrap();
    let (code, text) = test(dir.path());
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("FAIL  IDENT-002"), "{text}");
    assert!(
        text.contains("-version-literal: the match sample is found\n")
            && text.contains("+version-literal: the match sample is not found\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "+version-literal: the clean twin is found: src/pkg/__init__.py:1:1: `__version__ = 3`"
        ),
        "{text}"
    );
    assert!(text.contains("6 test(s): 5 passed, 1 failed"), "{text}");
}

#[test]
fn a_rule_without_a_case_fails_at_its_check() {
    let dir = fixture();
    // Every case but the TypeScript one.
    let cut = ALL_HELD.find("  - name: IDENT-001 typescript").unwrap();
    let end = ALL_HELD.find("  - name: IDENT-002").unwrap();
    let cases = format!("{}{}", &ALL_HELD[..cut], &ALL_HELD[end..]);
    std::fs::write(dir.path().join("tests/scan/all.yaml"), cases).unwrap();
    let (code, text) = test(dir.path());
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("FAIL  IDENT-001 scan rule ua-literal-version-ts (")
            && text.contains("checks/IDENT-001.md:8)"),
        "{text}"
    );
    assert!(
        text.contains("+IDENT-001 ua-literal-version-ts: no case under `tests/` holds it"),
        "{text}"
    );
    assert!(!text.contains("scan rule ua-literal-version ("), "{text}");
}

#[test]
fn a_case_that_cannot_hold_its_rule_is_reported_with_its_line() {
    let dir = fixture();
    let cases = format!(
        "{ALL_HELD}  - name: no such rule\n    check: IDENT-002\n    rule: version-literl\n    match: {{a.py: 'x'}}\n    clean: {{a.py: 'y'}}\n  - name: no clean twin\n    check: IDENT-002\n    rule: version-literal\n    match: {{a.py: 'x'}}\n"
    );
    std::fs::write(dir.path().join("tests/scan/all.yaml"), cases).unwrap();
    let (code, text) = test(dir.path());
    assert_ne!(code, Some(0), "{text}");
    assert!(
        text.contains("`IDENT-002` has no scan rule `version-literl`; its rules: version-literal"),
        "{text}"
    );
    assert!(text.contains("a scan case needs `clean:`"), "{text}");
    assert!(text.contains("tests/scan/all.yaml:"), "{text}");
}
