//! `auditbook lsp` driven as an editor drives it: the real binary over stdio, on a copy of the
//! shipped catalogue and on the German fixture in the compatibility layout.

use crate::common;
use crate::lsp_client;

use common::Fixture;
use lsp_client::{find, uri, Client};
use serde_json::{json, Value};

const RETIRED_LINK: &str = "\nSiehe auch [DRIFT-007](DRIFT-007.md).\n";

/// A copy of the shipped catalogue whose prose mentions the retired DRIFT-007 in three files,
/// as history: the mentions these tests hover, follow and count (the catalogue itself keeps
/// that history in its ledger only).
fn shipped_with_history() -> Fixture {
    let f = Fixture::shipped();
    f.edit(
        "checks/DRIFT-008.md",
        "\n## Verification",
        "\nIts retired neighbour DRIFT-007 moved into FID-006.\n\n## Verification",
    );
    f.edit(
        "checks/FID-006.md",
        "\n## Verification",
        "\nDRIFT-007 was merged into this check.\n\n## Verification",
    );
    f.edit(
        "rules/FIDELITY-13.md",
        "\n## What the checks do not measure",
        "\nThis rule used to point at DRIFT-007.\n\n## What the checks do not measure",
    );
    f
}

/// A copy of the shipped catalogue served, with DRIFT-008 open and checked: the fixture, the
/// check's path, the client and the check's text. The mention of DRIFT-007 (history) is a
/// note; there is no link to a retired check yet.
fn drift_008_open() -> (Fixture, std::path::PathBuf, Client, String) {
    let f = shipped_with_history();
    let check = f.path("checks/DRIFT-008.md");
    let mut c = Client::start(f.root());
    let text = c.open(&check);
    c.sync();
    assert_eq!(c.codes(&check), ["AB213"]);
    (f, check, c, text)
}

#[test]
fn diagnostics_follow_the_unsaved_buffer_and_clear() {
    let (f, check, mut c, text) = drift_008_open();

    c.change(&check, &format!("{text}{RETIRED_LINK}"));
    c.sync();
    let diags = c.diagnostics[&uri(&check)].clone();
    let link: Vec<&Value> = diags.iter().filter(|d| d["code"] == "AB212").collect();
    assert_eq!(link.len(), 1, "{diags:#?}");
    let d = link[0];
    assert_eq!(d["severity"], 1);
    assert!(d["message"].as_str().unwrap().contains("FID-006"), "{d}");
    assert!(d["codeDescription"]["href"]
        .as_str()
        .unwrap()
        .ends_with("docs/lint-codes.md#ab212"));
    let (line, col) = find(&format!("{text}{RETIRED_LINK}"), "DRIFT-007](");
    assert_eq!(d["range"]["start"], json!({"line": line, "character": col}));
    // The disk was not read for it: the file there is unchanged.
    assert_eq!(f.read("checks/DRIFT-008.md"), text);

    // Undoing the edit clears the finding.
    c.change(&check, &text);
    c.sync();
    assert_eq!(c.codes(&check), ["AB213"]);
    assert_eq!(c.finish(), Some(0));
}

#[test]
fn an_edit_in_one_file_updates_the_findings_of_the_others() {
    let f = shipped_with_history();
    let config = f.path("catalogue.yaml");
    let elsewhere = f.path("checks/FID-006.md");
    let rule = f.path("rules/FIDELITY-13.md");
    let mut c = Client::start(f.root());
    let text = c.open(&config);
    c.sync();
    assert!(c.codes(&elsewhere).contains(&"AB213".to_string()));
    assert!(c.codes(&rule).contains(&"AB213".to_string()));

    // Without its ledger entry, DRIFT-007 is no longer a retired id: the notes on its
    // mentions in other files give way to findings of an unknown id.
    let entry_start = text.find("  - id: DRIFT-007").unwrap();
    let entry_end = text[entry_start..].find("\n\n").unwrap() + entry_start + 1;
    let edited = format!("{}{}", &text[..entry_start], &text[entry_end..]);
    c.change(&config, &edited);
    c.sync();
    assert!(!c.codes(&elsewhere).contains(&"AB213".to_string()));
    assert!(c.codes(&elsewhere).contains(&"AB211".to_string()));
    assert!(c.codes(&rule).contains(&"AB211".to_string()));

    // Closing the buffer unsaved: the file on disk holds again.
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri(&config)}}),
    );
    c.sync();
    assert!(c.codes(&elsewhere).contains(&"AB213".to_string()));
    assert!(!c.codes(&elsewhere).contains(&"AB211".to_string()));
}

#[test]
fn hover_definition_and_references_know_the_whole_catalogue() {
    let f = shipped_with_history();
    let check = f.path("checks/DRIFT-008.md");
    let mut c = Client::start(f.root());
    let text = c.open(&check);

    // A live id: its fields and the rules covering it.
    let (l, ch) = find(&text, "FID-006");
    let h = c.at("textDocument/hover", &check, l, ch + 2);
    let value = h["result"]["contents"]["value"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(value.contains("**FID-006**"), "{value}");
    assert!(value.contains("| severity | high |"), "{value}");
    assert!(value.contains("| adoption | advisory |"), "{value}");
    assert!(
        value.contains("tools_make_external_requests == true"),
        "{value}"
    );
    // A retired id: date, reason, successor.
    let (l, ch) = find(&text, "DRIFT-007");
    let h = c.at("textDocument/hover", &check, l, ch);
    let value = h["result"]["contents"]["value"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(value.contains("retired on 2026-08-07"), "{value}");
    assert!(value.contains("successor: `FID-006`"), "{value}");
    // Plain prose: nothing.
    let (l, ch) = find(&text, "neighbour");
    assert_eq!(
        c.at("textDocument/hover", &check, l, ch)["result"],
        Value::Null
    );

    // Definition: the check file; for a retired id, its ledger entry.
    let (l, ch) = find(&text, "FID-006");
    let d = c.at("textDocument/definition", &check, l, ch);
    assert_eq!(d["result"]["uri"], uri(&f.path("checks/FID-006.md")));
    assert_eq!(
        d["result"]["range"]["start"],
        json!({"line": 1, "character": 4})
    );
    let (l, ch) = find(&text, "DRIFT-007");
    let d = c.at("textDocument/definition", &check, l, ch);
    assert_eq!(d["result"]["uri"], uri(&f.path("catalogue.yaml")));
    let yaml = f.read("catalogue.yaml");
    let (yl, _) = find(&yaml, "- id: DRIFT-007");
    assert_eq!(d["result"]["range"]["start"]["line"], yl);

    // References of DRIFT-007: the three mentions and the ledger, nowhere else.
    let r = c.at("textDocument/references", &check, l, ch);
    let mut files: Vec<String> = r["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            l["uri"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    files.sort();
    assert!(files.contains(&"FID-006.md".to_string()), "{files:?}");
    assert!(files.contains(&"FIDELITY-13.md".to_string()), "{files:?}");
    assert!(files.contains(&"catalogue.yaml".to_string()), "{files:?}");
    assert!(files.contains(&"DRIFT-008.md".to_string()), "{files:?}");
    assert!(!files.iter().any(|f| f.starts_with("ARCH")), "{files:?}");
    c.finish();
}

#[test]
fn completion_offers_ids_keys_values_and_profile_fields() {
    let f = Fixture::shipped();
    let check = f.path("checks/DRIFT-008.md");
    let mut c = Client::start(f.root());
    let text = c.open(&check);
    let labels = |v: &Value| -> Vec<String> {
        v["result"]
            .as_array()
            .unwrap_or_else(|| panic!("{v}"))
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };

    // An id in a link: live ids with the prefix, the retired one with its successor.
    let edited = format!("{text}\nSiehe [DRI");
    c.change(&check, &edited);
    let last = edited.lines().count() as u32 - 1;
    let r = c.at("textDocument/completion", &check, last, 10);
    let got = labels(&r);
    assert!(got.contains(&"DRIFT-001".to_string()), "{got:?}");
    assert!(got.contains(&"DRIFT-007 → FID-006".to_string()), "{got:?}");
    assert!(!got.iter().any(|l| l.starts_with("FID")), "{got:?}");
    let retired = r["result"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "DRIFT-007 → FID-006")
        .unwrap();
    assert_eq!(retired["insertText"], "FID-006");

    // Closed vocabularies in the frontmatter.
    let (l, _) = find(&text, "severity:");
    let got = labels(&c.at("textDocument/completion", &check, l, 10));
    assert_eq!(got, ["critical", "high", "medium", "low"]);
    let (l, _) = find(&text, "adoption:");
    let got = labels(&c.at("textDocument/completion", &check, l, 10));
    assert_eq!(got, ["enforced", "advisory"]);

    // Profile fields, then a field's literals, inside applies_when.
    let fm = text.replacen(
        &text[text.find("applies_when:").unwrap()..][..text[text.find("applies_when:").unwrap()..]
            .find('\n')
            .unwrap()],
        "applies_when: 'transport == ",
        1,
    );
    c.change(&check, &fm);
    let (l, _) = find(&fm, "applies_when:");
    let got = labels(&c.at("textDocument/completion", &check, l, 14));
    assert!(got.contains(&"transport".to_string()), "{got:?}");
    assert!(
        got.contains(&"data_source.is_swiss_open_data".to_string()),
        "{got:?}"
    );
    let got = labels(&c.at("textDocument/completion", &check, l, 28));
    assert_eq!(got, ["stdio-only", "dual", "HTTP/SSE"]);
    c.finish();
}

#[test]
fn a_code_action_replaces_a_retired_link_with_its_successor() {
    let f = Fixture::shipped();
    let check = f.path("checks/DRIFT-008.md");
    let mut c = Client::start(f.root());
    let text = c.open(&check);
    let edited = format!("{text}{RETIRED_LINK}");
    c.change(&check, &edited);
    c.sync();
    let (l, _) = find(&edited, "[DRIFT-007](");
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&check)},
            "range": {"start": {"line": l, "character": 0}, "end": {"line": l, "character": 5}},
            "context": {"diagnostics": []}}),
    );
    let actions = r["result"].as_array().unwrap();
    assert_eq!(actions.len(), 1, "{r}");
    assert_eq!(actions[0]["kind"], "quickfix");
    let edits = actions[0]["edit"]["changes"][uri(&check)]
        .as_array()
        .unwrap();
    let mut after = edited.clone();
    // Apply from the end so earlier offsets stay valid (both edits are on one line).
    let mut spans: Vec<(usize, usize)> = edits
        .iter()
        .map(|e| {
            let s = e["range"]["start"]["character"].as_u64().unwrap() as usize;
            let en = e["range"]["end"]["character"].as_u64().unwrap() as usize;
            assert_eq!(e["range"]["start"]["line"], l);
            assert_eq!(e["newText"], "FID-006");
            (s, en)
        })
        .collect();
    spans.sort();
    let line_start = edited
        .lines()
        .take(l as usize)
        .map(|x| x.len() + 1)
        .sum::<usize>();
    for (s, e) in spans.into_iter().rev() {
        after.replace_range(line_start + s..line_start + e, "FID-006");
    }
    assert!(
        after.ends_with("\nSiehe auch [FID-006](FID-006.md).\n"),
        "{after}"
    );

    // The clean line has no action.
    let (l, _) = find(&edited, "# DRIFT-008");
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&check)},
            "range": {"start": {"line": l, "character": 0}, "end": {"line": l, "character": 0}},
            "context": {"diagnostics": []}}),
    );
    assert_eq!(r["result"], json!([]));
    c.finish();
}

#[test]
fn rename_edits_every_occurrence_and_records_the_old_id() {
    let f = Fixture::shipped();
    let check = f.path("checks/FID-006.md");
    let mut c = Client::start(f.root());
    let text = c.open(&check);
    let (l, ch) = find(&text, "FID-006");
    let p = c.at("textDocument/prepareRename", &check, l, ch);
    assert_eq!(p["result"]["start"], json!({"line": l, "character": ch}));
    let r = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri(&check)}, "position": {"line": l, "character": ch},
            "newName": "FID-099"}),
    );
    let ops = r["result"]["documentChanges"].as_array().unwrap().clone();
    let edited: Vec<String> = ops
        .iter()
        .filter_map(|o| o["textDocument"]["uri"].as_str())
        .map(|u| u.rsplit('/').next().unwrap().to_string())
        .collect();
    for want in [
        "FID-006.md",
        "DRIFT-008.md",
        "FIDELITY-13.md",
        "catalogue.yaml",
    ] {
        assert!(edited.contains(&want.to_string()), "{want}: {edited:?}");
    }
    let yaml = ops
        .iter()
        .find(|o| o["textDocument"]["uri"] == uri(&f.path("catalogue.yaml")))
        .unwrap();
    let texts: Vec<&str> = yaml["edits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["newText"].as_str().unwrap())
        .collect();
    // DRIFT-007's merged_into follows the rename; the old id is burned in the ledger.
    assert!(texts.contains(&"FID-099"), "{texts:?}");
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("  - id: FID-006\n") && t.contains("replaced_by: FID-099")),
        "{texts:?}"
    );
    let last = ops.last().unwrap();
    assert_eq!(last["kind"], "rename");
    assert_eq!(last["newUri"], uri(&f.path("checks/FID-099.md")));

    // A name that breaks the pattern, or one already taken, is refused.
    for bad in ["fid-99", "DRIFT-007", "FID-001"] {
        let r = c.request(
            "textDocument/rename",
            json!({"textDocument": {"uri": uri(&check)},
                "position": {"line": l, "character": ch}, "newName": bad}),
        );
        assert!(r.get("error").is_some(), "{bad}: {r}");
    }
    c.finish();
}

#[test]
fn symbols_and_tokens_outline_a_check() {
    let f = Fixture::shipped();
    let check = f.path("checks/FID-006.md");
    let mut c = Client::start(f.root());
    c.open(&check);
    let r = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&check)}}),
    );
    let top = r["result"].as_array().unwrap();
    assert_eq!(top.len(), 1);
    let sections: Vec<&str> = top[0]["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        &sections[..4],
        [
            "Description",
            "Verification",
            "Pass Criteria",
            "Common Failures"
        ]
    );
    let r = c.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": uri(&check)}}),
    );
    // applies_when (property), the field (variable), == (operator), true (keyword).
    let data: Vec<u64> = r["result"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let kinds: Vec<u64> = data.chunks(5).map(|t| t[3]).collect();
    assert_eq!(kinds, [4, 1, 3, 0]);
    assert_eq!(data[..5], [5, 0, 12, 4, 0]);
    c.finish();
}

#[test]
fn bad_input_gets_diagnostics_and_the_server_keeps_serving() {
    let f = shipped_with_history();
    let check = f.path("checks/DRIFT-008.md");
    let mut c = Client::start(f.root());
    c.open(&check);
    // A half-typed frontmatter.
    c.change(&check, "---\nid: DRIFT-008\ntitle: \"Halb\n");
    c.sync();
    assert!(!c.codes(&check).is_empty());
    // An unterminated expression.
    let text = f.read("checks/DRIFT-008.md");
    let start = text.find("applies_when:").unwrap();
    let end = start + text[start..].find('\n').unwrap();
    let broken = format!(
        "{}applies_when: '(transport == \"dual\"'{}",
        &text[..start],
        &text[end..]
    );
    c.change(&check, &broken);
    c.sync();
    assert!(!c.codes(&check).is_empty(), "{:?}", c.diagnostics);
    // Binary content in a check buffer, then a buffer over the size limit.
    c.change(&check, "\u{0}\u{1}PNG\u{0}\u{0}\u{7f}");
    c.sync();
    assert!(
        c.codes(&check).contains(&"AB101".to_string()),
        "{:?}",
        c.codes(&check)
    );
    c.change(&check, &"x".repeat(33 * 1024 * 1024));
    c.sync();
    assert_eq!(c.codes(&check), ["AB007"]);
    // A request with broken parameters is an error response, not the end of the server.
    let r = c.request("textDocument/hover", json!({"textDocument": 7}));
    assert!(r.get("error").is_some(), "{r}");
    // A file outside any catalogue: no answer, no crash.
    let outside = tempfile::tempdir().unwrap();
    let stray = outside.path().join("notiz.md");
    std::fs::write(&stray, "FID-006\n").unwrap();
    c.open(&stray);
    assert_eq!(
        c.at("textDocument/hover", &stray, 0, 1)["result"],
        Value::Null
    );
    // Still serving.
    c.change(&check, &text);
    c.sync();
    assert_eq!(c.codes(&check), ["AB213"]);
    assert_eq!(c.finish(), Some(0));
}

#[test]
fn the_german_compatibility_layout_is_served() {
    let f = Fixture::new("compat-de");
    let check = f.path("checks/FID-006.md");
    let mut c = Client::start(f.root());
    let text = c.open(&check);
    c.sync();
    // The same finding `lint` reports: FID-008 does not exist.
    assert!(
        c.codes(&check).contains(&"AB211".to_string()),
        "{:?}",
        c.diagnostics
    );
    let (l, ch) = find(&text, "FID-008");
    let d = c.diagnostics[&uri(&check)]
        .iter()
        .find(|d| d["code"] == "AB211")
        .unwrap()
        .clone();
    assert_eq!(d["range"]["start"], json!({"line": l, "character": ch}));
    // Creating the missing check in an unsaved buffer is not needed to clear it: changing the
    // mention to an existing id is.
    c.change(&check, &text.replace("FID-008", "FID-003"));
    c.sync();
    assert!(!c.codes(&check).contains(&"AB211".to_string()));

    // Hover and definition across files, umlauts before the id counted in UTF-16 units.
    let other = f.path("checks/FID-003.md");
    let t3 = c.open(&other);
    let (l, ch) = find(&t3, "FID-003 —");
    let h = c.at("textDocument/hover", &other, l, ch);
    let v = h["result"]["contents"]["value"].as_str().unwrap();
    assert!(v.contains("Leere Treffer liefern"), "{v}");
    let refs = c.at("textDocument/references", &other, l, ch);
    let files: Vec<&str> = refs["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["uri"].as_str().unwrap())
        .collect();
    assert!(
        files.iter().any(|u| u.ends_with("MANIFEST.txt")),
        "{files:?}"
    );
    // Rename in the compatibility layout: no ledger to write, every occurrence edited.
    let r = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri(&other)}, "position": {"line": l, "character": ch},
            "newName": "FID-010"}),
    );
    let ops = r["result"]["documentChanges"].as_array().unwrap();
    assert!(ops.iter().any(|o| o["textDocument"]["uri"]
        .as_str()
        .is_some_and(|u| u.ends_with("MANIFEST.txt"))));
    assert!(!ops.iter().any(|o| o["textDocument"]["uri"]
        .as_str()
        .is_some_and(|u| u.ends_with("catalogue.yaml"))));
    assert_eq!(c.finish(), Some(0));
}

#[test]
fn documents_are_checked_as_typed_and_found_from_above_the_root() {
    let f = Fixture::shipped();
    let readme = f.path("README.md");
    let mut c = Client::start(f.dir.path());
    let text = c.open(&readme);
    c.sync();
    assert!(!c.codes(&readme).contains(&"AB601".to_string()));
    // A count typed into a generated region: the region is stale.
    let edited = text.replacen(
        "| critical | 16 | 16 | 0 |",
        "| critical | 17 | 16 | 0 |",
        1,
    );
    assert_ne!(edited, text);
    c.change(&readme, &edited);
    c.sync();
    assert!(
        c.codes(&readme).contains(&"AB601".to_string()),
        "{:?}",
        c.codes(&readme)
    );

    // The repository's README sits above the catalogue root; it is found through the
    // catalogue that declares it.
    let above = f.dir.path().join("README.md");
    let top = c.open(&above);
    let (l, ch) = find(&top, "FID-006");
    let h = c.at("textDocument/hover", &above, l, ch);
    assert!(
        h["result"]["contents"]["value"]
            .as_str()
            .is_some_and(|v| v.contains("**FID-006**")),
        "{h}"
    );
    c.finish();
}

/// The shipped example profile and its results beside the catalogue, in `examples/` of the
/// fixture's repository (outside the catalogue root, as in this project).
fn examples(f: &Fixture) -> (std::path::PathBuf, std::path::PathBuf) {
    let project = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let dir = f.root().parent().unwrap().join("examples");
    std::fs::create_dir_all(&dir).unwrap();
    let mut out = Vec::new();
    for name in [
        "amtsblatt-readonly.profile.yaml",
        "amtsblatt-readonly.results.yaml",
    ] {
        std::fs::copy(project.join(name), dir.join(name)).unwrap();
        out.push(dir.join(name));
    }
    (out[0].clone(), out[1].clone())
}

/// Code, 0-based line and message of each finding the CLI gives about `file`.
fn cli_findings(f: &Fixture, args: &[&str], file: &std::path::Path) -> Vec<(String, u64, String)> {
    let out = common::auditbook()
        .arg("-C")
        .arg(f.root())
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let name = file.file_name().unwrap().to_str().unwrap();
    let list = if v["problems"].is_array() {
        &v["problems"]
    } else {
        &v["diagnostics"]
    };
    list.as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["file"].as_str().is_some_and(|p| p.ends_with(name)))
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["line"].as_u64().unwrap_or(1) - 1,
                d["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn published(c: &Client, file: &std::path::Path) -> Vec<(String, u64, String)> {
    c.diagnostics
        .get(&uri(file))
        .into_iter()
        .flatten()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["range"]["start"]["line"].as_u64().unwrap_or(0),
                // The help follows the message in the editor.
                d["message"]
                    .as_str()
                    .unwrap_or("")
                    .split("\nhelp: ")
                    .next()
                    .unwrap_or("")
                    .to_string(),
            )
        })
        .collect()
}

#[test]
fn a_profile_value_outside_its_vocabulary_is_published_as_the_cli_reports_it_and_cleared() {
    let f = Fixture::shipped();
    let (profile, _) = examples(&f);
    let mut c = Client::start(f.root());
    let text = c.open(&profile);
    c.sync();
    // The clean twin: the shipped example publishes nothing.
    assert_eq!(c.codes(&profile), Vec::<String>::new());

    let bad = text.replacen("transport: stdio-only", "transport: nur-stdio", 1);
    assert_ne!(bad, text);
    c.change(&profile, &bad);
    c.sync();
    let got = published(&c, &profile);
    assert_eq!(got.len(), 1, "{got:#?}");
    assert_eq!(got[0].0, "AB505");
    assert_eq!(got[0].1, find(&bad, "transport: nur-stdio").0 as u64);
    // The disk holds the clean text; the CLI judges the same bad text alike.
    assert_eq!(std::fs::read_to_string(&profile).unwrap(), text);
    std::fs::write(&profile, &bad).unwrap();
    let path = profile.to_str().unwrap();
    assert_eq!(got, cli_findings(&f, &["profile", "check", path], &profile));

    c.change(&profile, &text);
    c.sync();
    assert_eq!(c.codes(&profile), Vec::<String>::new());
    assert!(
        c.diagnostics.contains_key(&uri(&profile)),
        "the fix was published"
    );
    assert_eq!(c.finish(), Some(0));
}

#[test]
fn results_for_unknown_and_retired_check_ids_are_published_and_cleared() {
    let f = Fixture::shipped();
    let (profile, results) = examples(&f);
    let mut c = Client::start(f.root());
    let text = c.open(&results);
    c.sync();
    assert_eq!(c.codes(&results), Vec::<String>::new());

    let entries = "  DRIFT-007:\n    status: pass\n    evidence:\n      - \"Prüfprotokoll vom 3. März\"\n  FID-999:\n    status: fail\n    evidence:\n      - \"Antwort leer, obwohl die Quelle Treffer liefert\"\n";
    let at = text.find("results:\n").unwrap() + "results:\n".len();
    let bad = format!("{}{entries}{}", &text[..at], &text[at..]);
    c.change(&results, &bad);
    c.sync();
    let got = published(&c, &results);
    let codes: Vec<&str> = got.iter().map(|g| g.0.as_str()).collect();
    assert_eq!(codes, ["AB522", "AB521"], "{got:#?}");
    assert_eq!(got[0].1, find(&bad, "  DRIFT-007:").0 as u64);
    assert_eq!(got[1].1, find(&bad, "  FID-999:").0 as u64);
    assert!(got[0].2.contains("DRIFT-007"), "{got:#?}");
    // What `audit PROFILE --results RESULTS` reports about the same text.
    std::fs::write(&results, &bad).unwrap();
    let args = [
        "audit",
        profile.to_str().unwrap(),
        "--results",
        results.to_str().unwrap(),
    ];
    let mut cli = cli_findings(&f, &args, &results);
    cli.sort_by_key(|g| g.1);
    assert_eq!(got, cli);

    c.change(&results, &text);
    c.sync();
    assert_eq!(c.codes(&results), Vec::<String>::new());
    assert_eq!(c.finish(), Some(0));
}

/// A burst of edits is checked once it settles, not once per edit: 300 edits sent as fast as
/// an editor can send them, each one adding or removing a link to a retired check (so every
/// check of an edit would publish), end in a handful of publications, and the findings
/// answer the newest text.
#[test]
fn a_burst_of_edits_is_checked_once_it_settles() {
    let (_f, check, mut c, text) = drift_008_open();
    let before = c.publications.get(&uri(&check)).copied().unwrap_or(0);
    let linked = format!("{text}{RETIRED_LINK}");
    const EDITS: usize = 300;
    for i in 0..EDITS {
        c.change(&check, if i % 2 == 0 { &linked } else { &text });
    }
    // The last edit (an even count) removed the link again; one more puts it back.
    c.change(&check, &linked);
    c.sync();
    let published = c.publications.get(&uri(&check)).copied().unwrap_or(0) - before;
    assert!(
        published <= EDITS / 10,
        "{published} publications for {EDITS} edits: the server checked edit by edit"
    );
    let codes = c.codes(&check);
    assert!(codes.contains(&"AB212".to_string()), "{codes:?}");
    assert_eq!(c.finish(), Some(0));
}

/// An editor that sends no request (it types and waits) still gets findings: for the file it
/// opened, and after each pause in typing, for the newest text.
#[test]
fn findings_arrive_after_a_pause_without_a_request() {
    let f = shipped_with_history();
    let check = f.path("checks/DRIFT-008.md");
    let mut c = Client::start(f.root());
    let text = c.open(&check);
    let first = c.published_unasked(&check);
    assert!(first.iter().any(|d| d["code"] == "AB213"), "{first:?}");
    c.change(&check, &format!("{text}{RETIRED_LINK}"));
    let after = c.published_unasked(&check);
    assert!(after.iter().any(|d| d["code"] == "AB212"), "{after:?}");
    assert_eq!(c.finish(), Some(0));
}

/// The raw server on stdio with its stderr kept, for input no client library would send.
fn raw_server() -> std::process::Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("auditbook"))
        .arg("lsp")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Wait for the server to end on its own, its stdin still open; `None` if it is still
/// running after a minute (it waits for a body it should have refused).
fn ends_on_its_own(child: &mut std::process::Child) -> Option<(i32, String)> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::time::Instant::now() < deadline {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            return Some((status.code().unwrap_or(-1), err));
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// A message is bounded before anything is allocated for it: a `Content-Length` of 2 GB in a
/// 30-byte header, one of 2^64 − 1 (which once panicked the input thread), and a header line
/// that never ends are each refused at once with a message, the stream still open.
#[test]
fn oversized_or_endless_headers_are_refused_before_reading() {
    use std::io::Write;
    let cases: [(&str, Vec<u8>); 3] = [
        (
            "2 GB",
            b"Content-Length: 2000000000\r\n\r\n{\"jsonrpc\":\"2.0\"}".to_vec(),
        ),
        (
            "2^64 - 1",
            b"Content-Length: 18446744073709551615\r\n\r\n{}".to_vec(),
        ),
        ("endless header", {
            let mut v = b"Content-Length: 10\r\nX-Padding: ".to_vec();
            v.extend(std::iter::repeat_n(b'a', 1 << 20));
            v
        }),
    ];
    for (what, bytes) in cases {
        let mut child = raw_server();
        let mut stdin = child.stdin.take().unwrap();
        // The server may stop reading (and close the pipe) before the last byte is written.
        let _ = stdin.write_all(&bytes).and_then(|()| stdin.flush());
        let ended = ends_on_its_own(&mut child);
        drop(stdin);
        let (code, err) = ended.unwrap_or_else(|| panic!("{what}: the server waited for more"));
        assert_eq!(code, 2, "{what}: {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
        assert!(err.contains("language server input"), "{what}: {err}");
    }
}

/// The clean twin: a well-formed message just under the bound is read and answered.
#[test]
fn a_large_well_formed_message_is_read() {
    let f = shipped_with_history();
    let check = f.path("checks/DRIFT-008.md");
    let mut c = Client::start(f.root());
    let text = c.open(&check);
    // About 8 MB of prose in one edit.
    let long = format!("{text}\n{}\n", "Langer Absatz. ".repeat(550_000));
    c.change(&check, &long);
    c.sync();
    assert!(c.codes(&check).contains(&"AB213".to_string()));
    assert_eq!(c.finish(), Some(0));
}
