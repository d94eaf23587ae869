//! File facts, read with a parser for each format: dependencies declared without an upper bound
//! (`pyproject.toml` read as TOML, requirement strings as PEP 508 with their PEP 440 version
//! specifiers; `requirements*.txt` line by line as PEP 508; `package.json` as JSON with npm's
//! range forms; an installed package's `METADATA` `Requires-Dist`), a lockfile, required files.
//! Each fact says what it read; a fact with nothing to read decides nothing.

use super::tree::{File, Tree};
use super::Finding;
use crate::evidence::untrusted;
use crate::model::scan::Fact;
use pep508_rs::pep440_rs::Operator;
use std::str::FromStr;

/// What a fact found, and what it read.
pub struct Looked {
    pub findings: Vec<Finding>,
    /// What was read, one line each (the observations a clean fact rests on).
    pub read: Vec<String>,
    /// `false`: there was nothing to read (no manifest), so the fact decides nothing.
    pub decided: bool,
}

/// One declared dependency: its name (normalised), the requirement as written, and where.
struct Declared {
    name: String,
    written: String,
    bounded: bool,
    file: String,
    line: usize,
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .unwrap_or(1)
}

fn normalise(name: &str) -> String {
    name.to_ascii_lowercase().replace(['_', '.'], "-")
}

/// A PEP 508 requirement has an upper bound when a specifier caps the version: `<`, `<=`,
/// `==` (with or without `.*`), `===` or `~=`. A direct URL pins what it names.
fn pep508(written: &str) -> Option<(String, bool)> {
    let r = pep508_rs::Requirement::<pep508_rs::VerbatimUrl>::from_str(written.trim()).ok()?;
    let bounded = match &r.version_or_url {
        None => false,
        Some(pep508_rs::VersionOrUrl::Url(_)) => true,
        Some(pep508_rs::VersionOrUrl::VersionSpecifier(specs)) => specs.iter().any(|s| {
            matches!(
                s.operator(),
                Operator::LessThan
                    | Operator::LessThanEqual
                    | Operator::Equal
                    | Operator::EqualStar
                    | Operator::ExactEqual
                    | Operator::TildeEqual
            )
        }),
    };
    Some((normalise(r.name.as_ref()), bounded))
}

/// An npm range has an upper bound when every `||` alternative does: a caret or tilde, an
/// exact or x-range version, a hyphen range, or a `<`/`<=` comparator.
fn npm_bounded(range: &str) -> bool {
    let range = range.trim();
    if range.starts_with("file:") || range.starts_with("link:") || range.starts_with("workspace:") {
        return true;
    }
    range.split("||").all(|alt| {
        let alt = alt.trim();
        if alt.is_empty() || alt == "*" || alt == "x" || alt == "X" || alt == "latest" {
            return false;
        }
        if alt.contains(" - ") || alt.starts_with('^') || alt.starts_with('~') {
            return true;
        }
        let parts: Vec<&str> = alt.split_whitespace().collect();
        if parts.iter().any(|p| p.starts_with('<')) {
            return true;
        }
        // A bare version or x-range (`1.2.3`, `=1.2.3`, `1.x`, `2`) caps itself.
        parts.len() == 1
            && parts[0]
                .trim_start_matches(['=', 'v'])
                .starts_with(|c: char| c.is_ascii_digit())
    })
}

fn pyproject(f: &File, out: &mut Vec<Declared>) -> Option<()> {
    let doc: toml::Table = f.text.parse().ok()?;
    let mut strings: Vec<String> = Vec::new();
    if let Some(project) = doc.get("project").and_then(|p| p.as_table()) {
        if let Some(deps) = project.get("dependencies").and_then(|d| d.as_array()) {
            strings.extend(deps.iter().filter_map(|d| d.as_str().map(String::from)));
        }
    }
    for s in strings {
        if let Some((name, bounded)) = pep508(&s) {
            out.push(Declared {
                name,
                line: line_of(&f.text, &s),
                written: s,
                bounded,
                file: f.path.clone(),
            });
        }
    }
    // Poetry's own table: a caret, tilde or exact version caps; `*` or `>=` does not.
    if let Some(deps) = doc
        .get("tool")
        .and_then(|t| t.get("poetry"))
        .and_then(|p| p.get("dependencies"))
        .and_then(|d| d.as_table())
    {
        for (name, v) in deps {
            if name == "python" {
                continue;
            }
            let spec = v
                .as_str()
                .map(String::from)
                .or_else(|| v.get("version").and_then(|x| x.as_str()).map(String::from))
                .unwrap_or_default();
            out.push(Declared {
                name: normalise(name),
                written: format!("{name} = \"{spec}\""),
                bounded: npm_bounded(&spec) || spec.contains('<'),
                file: f.path.clone(),
                line: line_of(&f.text, name),
            });
        }
    }
    Some(())
}

fn requirements(f: &File, out: &mut Vec<Declared>) {
    for (i, raw) in f.text.lines().enumerate() {
        let l = raw.split(" #").next().unwrap_or("").trim();
        if l.is_empty() || l.starts_with('#') || l.starts_with('-') {
            continue;
        }
        if let Some((name, bounded)) = pep508(l) {
            out.push(Declared {
                name,
                written: l.to_string(),
                bounded,
                file: f.path.clone(),
                line: i + 1,
            });
        }
    }
}

fn metadata(f: &File, out: &mut Vec<Declared>) {
    for (i, raw) in f.text.lines().enumerate() {
        let Some(req) = raw.strip_prefix("Requires-Dist:") else {
            continue;
        };
        // Extras-only requirements are not what a plain install pulls in.
        if req.contains("extra ==") || req.contains("extra==") {
            continue;
        }
        if let Some((name, bounded)) = pep508(req) {
            out.push(Declared {
                name,
                written: req.trim().to_string(),
                bounded,
                file: f.path.clone(),
                line: i + 1,
            });
        }
    }
}

fn package_json(f: &File, out: &mut Vec<Declared>) {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&f.text) else {
        return;
    };
    for section in ["dependencies", "peerDependencies", "optionalDependencies"] {
        let Some(deps) = v.get(section).and_then(|d| d.as_object()) else {
            continue;
        };
        for (name, range) in deps {
            let range = range.as_str().unwrap_or("");
            out.push(Declared {
                name: name.to_ascii_lowercase(),
                written: format!("\"{name}\": \"{range}\""),
                bounded: npm_bounded(range),
                file: f.path.clone(),
                line: line_of(&f.text, &format!("\"{name}\"")),
            });
        }
    }
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn declared(tree: &Tree) -> (Vec<Declared>, Vec<String>) {
    let mut out = Vec::new();
    let mut read = Vec::new();
    for f in &tree.files {
        let name = file_name(&f.path);
        let before = out.len();
        let kind = if name == "pyproject.toml" {
            pyproject(f, &mut out);
            true
        } else if name.starts_with("requirements") && name.ends_with(".txt") {
            requirements(f, &mut out);
            true
        } else if name == "package.json" {
            package_json(f, &mut out);
            true
        } else if name == "METADATA" && f.path.contains(".dist-info/") {
            metadata(f, &mut out);
            true
        } else {
            false
        };
        if kind {
            read.push(format!(
                "{}: {} dependencies declared",
                f.path,
                out.len() - before
            ));
        }
    }
    (out, read)
}

const LOCKFILES: &[&str] = &[
    "uv.lock",
    "poetry.lock",
    "pdm.lock",
    "Pipfile.lock",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "pnpm-lock.yaml",
    "yarn.lock",
    "bun.lockb",
    "bun.lock",
    "Cargo.lock",
    "go.sum",
    "packages.lock.json",
];

/// What an installed package showed, for the facts about it (`evidence::package` gathers it).
#[derive(Clone, Debug, Default)]
pub struct Artifact {
    pub name: String,
    pub version: String,
    /// `sha256:` of the artifact (wheel, npm tarball, sdist) or of a source folder.
    pub digest: String,
    /// Why the package was read but not installed, when it was not: the facts of an installed
    /// package (imports, start, the User-Agent on the wire) then stay open.
    pub not_installed: Option<String>,
    /// Each top-level module, root package first, and why it failed to import.
    pub imports: Vec<(String, Result<(), String>)>,
    /// Whether the console script started, answered MCP and stayed up (the probe's reach).
    pub starts: Option<Result<String, String>>,
    /// Whether the installed version is the newest release and not yanked.
    pub current: Option<Result<String, String>>,
    /// The User-Agents the running server sent upstream; `None` when none was caught.
    pub user_agents: Option<Vec<String>>,
}

fn undecided(why: String) -> Looked {
    Looked {
        findings: Vec::new(),
        read: vec![why],
        decided: false,
    }
}

/// A fact about the installed package.
fn package(check: &str, rule: &str, fact: &Fact, a: Option<&Artifact>) -> Looked {
    let Some(a) = a else {
        return undecided(format!(
            "`{}` needs an installed package: `auditbook collect --package …`",
            fact.name()
        ));
    };
    let finding = |code: String| Finding {
        check: check.to_string(),
        rule: rule.to_string(),
        file: format!("{}=={}", a.name, a.version),
        line: 0,
        column: 0,
        fingerprint: super::code::fingerprint(check, rule, &a.name, &code),
        code: untrusted::quote(&code, 200),
    };
    let decided = |findings: Vec<Finding>, read: Vec<String>| Looked {
        findings,
        read,
        decided: true,
    };
    if let (Some(why), Fact::PackageImports | Fact::PackageStarts | Fact::PackageUserAgent) =
        (&a.not_installed, fact)
    {
        return undecided(format!("{} {}: {why}", a.name, a.version));
    }
    match fact {
        Fact::PackageImports => {
            if a.imports.is_empty() {
                return undecided(format!("{} {} names no module to import", a.name, a.version));
            }
            let findings = a
                .imports
                .iter()
                .filter_map(|(m, r)| r.as_ref().err().map(|e| finding(format!("import {m}: {e}"))))
                .collect();
            let read = a
                .imports
                .iter()
                .filter(|(_, r)| r.is_ok())
                .map(|(m, _)| format!("`import {m}` works in a fresh environment with {} {}", a.name, a.version))
                .collect();
            decided(findings, read)
        }
        Fact::PackageStarts => match &a.starts {
            None => undecided(format!(
                "no console script of {} {} was started (it installs none, or `--no-start`)",
                a.name, a.version
            )),
            Some(Ok(how)) => decided(Vec::new(), vec![how.clone()]),
            Some(Err(why)) => decided(vec![finding(why.clone())], Vec::new()),
        },
        Fact::PackageCurrent => match &a.current {
            None => undecided("the package index could not be asked; whether the release is current stays open".into()),
            Some(Ok(line)) => decided(Vec::new(), vec![line.clone()]),
            Some(Err(line)) => decided(vec![finding(line.clone())], Vec::new()),
        },
        Fact::PackageUserAgent => match &a.user_agents {
            None => undecided("no upstream request was caught, so the User-Agent on the wire was not seen".into()),
            Some(uas) if uas.is_empty() => undecided("upstream requests were caught, but none carried a User-Agent (HTTPS tunnels hide it)".into()),
            Some(uas) => {
                let name = a.name.to_ascii_lowercase().replace('_', "-");
                let mut findings = Vec::new();
                let mut read = Vec::new();
                for ua in uas {
                    let lower = ua.to_ascii_lowercase().replace('_', "-");
                    // A server that calls itself a browser hides who is asking.
                    if lower.starts_with("mozilla/") {
                        findings.push(finding(format!(
                            "User-Agent `{}` presents the server as a browser",
                            untrusted::value(ua)
                        )));
                        continue;
                    }
                    let announced = lower
                        .split_whitespace()
                        .find_map(|tok| tok.strip_prefix(&format!("{name}/")))
                        .map(|v| v.trim_end_matches([';', ')', ',']).to_string());
                    match announced {
                        Some(v) if v != a.version => findings.push(finding(format!(
                            "User-Agent `{}` announces {v}; the installed version is {}",
                            untrusted::value(ua),
                            a.version
                        ))),
                        Some(_) => read.push(format!("User-Agent `{}` names the installed version", untrusted::value(ua))),
                        // A library's default (`python-httpx/0.28`) says nothing of which
                        // server, in which version, is asking.
                        None => findings.push(finding(format!(
                            "User-Agent `{}` does not name {} and its version (a library's default?)",
                            untrusted::value(ua),
                            a.name
                        ))),
                    }
                }
                decided(findings, read)
            }
        },
        _ => undecided(String::new()),
    }
}

pub fn look(
    tree: &Tree,
    check: &str,
    rule: &str,
    fact: &Fact,
    artifact: Option<&Artifact>,
) -> Looked {
    if fact.of_package() {
        return package(check, rule, fact, artifact);
    }
    let finding = |file: &str, line: usize, code: String| Finding {
        check: check.to_string(),
        rule: rule.to_string(),
        file: file.to_string(),
        line,
        column: 1,
        fingerprint: super::code::fingerprint(check, rule, file, &code),
        code: untrusted::quote(&code, 160),
    };
    if tree.shipped && matches!(fact, Fact::Lockfile | Fact::FilePresent { .. }) {
        return undecided(format!(
            "`{}` reads a repository's files; a published package leaves lockfiles, CI and tests out by design, so scan the source tree (`--source DIR`)",
            fact.name()
        ));
    }
    match fact {
        Fact::DependencyUpperBound { package } => {
            let (deps, read) = declared(tree);
            let wanted: Vec<&Declared> = deps
                .iter()
                .filter(|d| package.as_deref().is_none_or(|p| normalise(p) == d.name))
                .collect();
            if wanted.is_empty() {
                let what = package
                    .as_deref()
                    .map(|p| format!("`{p}` is not declared"))
                    .unwrap_or_else(|| "no dependency is declared".into());
                return Looked {
                    findings: Vec::new(),
                    decided: false,
                    read: if read.is_empty() {
                        vec!["no dependency manifest (pyproject.toml, requirements*.txt, package.json, METADATA) was found".into()]
                    } else {
                        read.into_iter().chain([what]).collect()
                    },
                };
            }
            let findings = wanted
                .iter()
                .filter(|d| !d.bounded)
                .map(|d| finding(&d.file, d.line, d.written.clone()))
                .collect();
            let mut read = read;
            read.extend(wanted.iter().filter(|d| d.bounded).map(|d| {
                format!(
                    "{}:{}: `{}` has an upper bound",
                    d.file,
                    d.line,
                    untrusted::value(&d.written)
                )
            }));
            Looked {
                findings,
                read,
                decided: true,
            }
        }
        Fact::Lockfile => {
            let found: Vec<&str> = tree
                .files
                .iter()
                .map(|f| f.path.as_str())
                .filter(|p| LOCKFILES.contains(&file_name(p)))
                .collect();
            if found.is_empty() {
                Looked {
                    findings: vec![finding(".", 1, "no lockfile".into())],
                    read: vec![format!(
                        "{} files read; none of {} is among them",
                        tree.files.len(),
                        LOCKFILES.join(", ")
                    )],
                    decided: true,
                }
            } else {
                Looked {
                    findings: Vec::new(),
                    read: vec![format!("lockfile: {}", found.join(", "))],
                    decided: true,
                }
            }
        }
        Fact::FilePresent { paths } => {
            let mut b = globset::GlobSetBuilder::new();
            for g in paths {
                if let Ok(g) = globset::Glob::new(g) {
                    b.add(g);
                }
            }
            let set = b.build().unwrap_or_else(|_| globset::GlobSet::empty());
            let found: Vec<&str> = tree
                .files
                .iter()
                .map(|f| f.path.as_str())
                .filter(|p| set.is_match(p))
                .collect();
            if found.is_empty() {
                Looked {
                    findings: vec![finding(
                        ".",
                        1,
                        format!("none of {} exists", paths.join(", ")),
                    )],
                    read: vec![format!("{} files read", tree.files.len())],
                    decided: true,
                }
            } else {
                Looked {
                    findings: Vec::new(),
                    read: vec![format!("present: {}", found.join(", "))],
                    decided: true,
                }
            }
        }
        _ => undecided(String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_agent_that_does_not_name_the_server_is_a_finding_and_one_that_does_is_not() {
        let mut a = Artifact {
            name: "x_mcp".into(),
            version: "1.2.0".into(),
            ..Artifact::default()
        };
        let look_ua = |a: &Artifact| package("IDENT-001", "ua", &Fact::PackageUserAgent, Some(a));
        a.user_agents = Some(vec!["python-httpx/0.28.1".into()]);
        let l = look_ua(&a);
        assert!(l.decided && l.findings.len() == 1, "{:?}", l.read);
        assert!(l.findings[0].code.contains("does not name x_mcp"));
        a.user_agents = Some(vec!["x-mcp/1.1.0 (+https://example.org)".into()]);
        assert!(look_ua(&a).findings[0].code.contains("announces 1.1.0"));
        a.user_agents = Some(vec!["x-mcp/1.2.0 (+https://example.org)".into()]);
        let clean = look_ua(&a);
        assert!(
            clean.decided && clean.findings.is_empty(),
            "{:?}",
            clean.read
        );
    }

    #[test]
    fn a_shipped_package_decides_no_repository_fact_and_a_source_tree_does() {
        let texts = vec![("pkg/__init__.py".to_string(), "x = 1\n".to_string())];
        let mut t = super::super::tree::of_texts(std::path::Path::new("."), &texts);
        let facts = [
            Fact::Lockfile,
            Fact::FilePresent {
                paths: vec!["tests/**".into()],
            },
        ];
        for f in &facts {
            let source = look(&t, "X-001", "r", f, None);
            assert!(source.decided && source.findings.len() == 1, "{f:?}");
        }
        t.shipped = true;
        for f in &facts {
            let shipped = look(&t, "X-001", "r", f, None);
            assert!(!shipped.decided && shipped.findings.is_empty(), "{f:?}");
            assert!(
                shipped.read[0].contains("--source DIR"),
                "{:?}",
                shipped.read
            );
        }
    }

    #[test]
    fn upper_bounds_are_read_from_the_specifiers() {
        assert_eq!(pep508("mcp[cli]>=1.2"), Some(("mcp".into(), false)));
        assert_eq!(pep508("mcp[cli]>=2,<3"), Some(("mcp".into(), true)));
        assert_eq!(pep508("httpx~=0.27"), Some(("httpx".into(), true)));
        assert_eq!(
            pep508("Pydantic_Core==2.*"),
            Some(("pydantic-core".into(), true))
        );
        assert_eq!(pep508("starlette"), Some(("starlette".into(), false)));
        assert_eq!(
            pep508("tzdata>=2024.1; sys_platform == 'win32'"),
            Some(("tzdata".into(), false))
        );
        assert!(
            npm_bounded("^1.30.0")
                && npm_bounded("~2.1")
                && npm_bounded("1.x")
                && npm_bounded(">=1 <2")
        );
        assert!(
            !npm_bounded(">=1.0.0")
                && !npm_bounded("*")
                && !npm_bounded("latest")
                && !npm_bounded("^1 || >=3")
        );
    }
}
