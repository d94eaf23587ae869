//! The `scan:` key of a check's frontmatter: structural rules over a server's source (in
//! ast-grep's rule format, compiled by the `ast-grep-config` crate) and file facts read with
//! real parsers (a dependency declared without an upper bound, a lockfile, a required file).
//! Each rule says what a match records and whether a match is a **proof** (it records its
//! status) or a **signal** (a person triages it first). Typed here once, rules compiled when
//! the catalogue loads, so lint reports a bad rule — syntax, unknown language, unknown key — at
//! the line it is written on.

use super::declared::{problem, Covers, Problem, Records};
use ast_grep_config::{GlobalRules, RuleConfig, SerializableRuleConfig};
use ast_grep_language::SupportLang;
use serde::Serialize;
use serde_json::{Map, Value as Json};
use serde_yaml::Value;

/// The languages a rule may be written for: the ones MCP servers are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    Python,
    TypeScript,
    Tsx,
    JavaScript,
    Go,
    Rust,
    CSharp,
}

impl Language {
    pub const ALL: [Language; 7] = [
        Language::Python,
        Language::TypeScript,
        Language::Tsx,
        Language::JavaScript,
        Language::Go,
        Language::Rust,
        Language::CSharp,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::JavaScript => "javascript",
            Language::Go => "go",
            Language::Rust => "rust",
            Language::CSharp => "csharp",
        }
    }

    /// How a report names the language.
    pub fn label(self) -> &'static str {
        match self {
            Language::Python => "Python",
            Language::TypeScript => "TypeScript",
            Language::Tsx => "TSX",
            Language::JavaScript => "JavaScript",
            Language::Go => "Go",
            Language::Rust => "Rust",
            Language::CSharp => "C#",
        }
    }

    pub fn parse(s: &str) -> Option<Language> {
        match s.to_ascii_lowercase().as_str() {
            "python" | "py" => Some(Language::Python),
            "typescript" | "ts" => Some(Language::TypeScript),
            "tsx" => Some(Language::Tsx),
            "javascript" | "js" | "jsx" => Some(Language::JavaScript),
            "go" | "golang" => Some(Language::Go),
            "rust" | "rs" => Some(Language::Rust),
            "csharp" | "cs" | "c#" => Some(Language::CSharp),
            _ => None,
        }
    }

    /// The language of a file, by its name's ending.
    pub fn of_file(name: &str) -> Option<Language> {
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        Some(match ext.as_str() {
            "py" | "pyi" => Language::Python,
            "ts" | "mts" | "cts" => Language::TypeScript,
            "tsx" => Language::Tsx,
            "js" | "mjs" | "cjs" | "jsx" => Language::JavaScript,
            "go" => Language::Go,
            "rs" => Language::Rust,
            "cs" => Language::CSharp,
            _ => return None,
        })
    }

    /// A rule for TypeScript also covers TSX files, and one for JavaScript also JSX.
    pub fn covers(self, file: Language) -> bool {
        self == file || (self == Language::TypeScript && file == Language::Tsx)
    }

    pub fn ast_grep(self) -> SupportLang {
        match self {
            Language::Python => SupportLang::Python,
            Language::TypeScript => SupportLang::TypeScript,
            Language::Tsx => SupportLang::Tsx,
            Language::JavaScript => SupportLang::JavaScript,
            Language::Go => SupportLang::Go,
            Language::Rust => SupportLang::Rust,
            Language::CSharp => SupportLang::CSharp,
        }
    }
}

/// Whether a match proves the defect or only points a person at a place to look.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Matching {
    Proof,
    Signal,
}

/// A fact about the files of a tree, read with a parser for the file's format.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "fact", rename_all = "kebab-case")]
pub enum Fact {
    /// A dependency declared without an upper bound (pyproject.toml, requirements*.txt,
    /// package.json, an installed package's metadata); `package` limits it to one.
    DependencyUpperBound { package: Option<String> },
    /// No lockfile (uv.lock, poetry.lock, pdm.lock, Pipfile.lock, package-lock.json,
    /// pnpm-lock.yaml, yarn.lock, bun.lockb, Cargo.lock, go.sum, packages.lock.json).
    Lockfile,
    /// None of the files `paths` (globs) exists.
    FilePresent { paths: Vec<String> },
    /// The installed package does not import in a fresh environment (root package first).
    PackageImports,
    /// The installed console script does not start, answer an MCP request and stay up.
    PackageStarts,
    /// The installed version is yanked, or a newer release exists on the index.
    PackageCurrent,
    /// The User-Agent the running server sends upstream names another version than the one
    /// installed.
    PackageUserAgent,
}

impl Fact {
    pub fn name(&self) -> &'static str {
        match self {
            Fact::DependencyUpperBound { .. } => "dependency-upper-bound",
            Fact::Lockfile => "lockfile",
            Fact::FilePresent { .. } => "file-present",
            Fact::PackageImports => "package-imports",
            Fact::PackageStarts => "package-starts",
            Fact::PackageCurrent => "package-current",
            Fact::PackageUserAgent => "package-user-agent",
        }
    }

    /// Whether the fact needs an installed package (`auditbook collect --package`).
    pub fn of_package(&self) -> bool {
        matches!(
            self,
            Fact::PackageImports
                | Fact::PackageStarts
                | Fact::PackageCurrent
                | Fact::PackageUserAgent
        )
    }
}

/// What a rule looks at.
#[derive(Clone, Serialize)]
#[serde(untagged)]
pub enum Body {
    /// A structural rule: the ast-grep rule core as written (`rule`, `constraints`, `utils`,
    /// `transform`), compiled once when read.
    Code {
        language: Language,
        rule: Json,
        /// Globs the file's path must match (all files of the language when empty).
        files: Vec<String>,
        #[serde(skip)]
        compiled: std::sync::Arc<RuleConfig<SupportLang>>,
    },
    Fact(Fact),
}

impl std::fmt::Debug for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Body::Code {
                language,
                rule,
                files,
                ..
            } => f
                .debug_struct("Code")
                .field("language", language)
                .field("rule", rule)
                .field("files", files)
                .finish(),
            Body::Fact(x) => f.debug_tuple("Fact").field(x).finish(),
        }
    }
}

impl PartialEq for Body {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (
                Body::Code {
                    language: a,
                    rule: r,
                    files: f,
                    ..
                },
                Body::Code {
                    language: b,
                    rule: s,
                    files: g,
                    ..
                },
            ) => a == b && r == s && f == g,
            (Body::Fact(a), Body::Fact(b)) => a == b,
            _ => false,
        }
    }
}

/// One rule of a check.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScanRule {
    pub id: String,
    #[serde(flatten)]
    pub body: Body,
    /// What a match means, in the check's words.
    pub message: String,
    /// What a proven match records.
    pub records: Records,
    #[serde(rename = "match")]
    pub matching: Matching,
    pub covers: Covers,
}

impl ScanRule {
    pub fn language(&self) -> Option<Language> {
        match &self.body {
            Body::Code { language, .. } => Some(*language),
            Body::Fact(_) => None,
        }
    }
}

const CODE_KEYS: &[&str] = &["rule", "constraints", "utils", "transform"];
const OWN_KEYS: &[&str] = &[
    "id", "language", "message", "records", "match", "covers", "files", "fact", "package", "paths",
];

fn describe(v: &Value) -> String {
    crate::text::yaml_value::describe(v)
}

fn to_json(v: &Value) -> Json {
    serde_json::to_value(v).unwrap_or(Json::Null)
}

/// Type the value of `scan:`: a list of rules. Every problem is returned with its path.
pub fn parse(value: &Value) -> Result<Vec<ScanRule>, Vec<Problem>> {
    let Value::Sequence(items) = value else {
        return Err(vec![problem(
            "scan",
            format!(
                "`scan` must be a list of rules; YAML reads it as {}",
                describe(value)
            ),
            "write `scan: [{id: NAME, language: python, rule: {pattern: '…'}, records: fail}]`",
        )]);
    };
    let mut rules = Vec::new();
    let mut problems = Vec::new();
    let mut ids = std::collections::BTreeSet::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("scan[{i}]");
        let n = i + 1;
        match one(item, n, &at) {
            Ok(r) => {
                if !ids.insert(r.id.clone()) {
                    problems.push(problem(
                        format!("{at}.id"),
                        format!(
                            "scan rule {n}: the id `{}` is used by an earlier rule",
                            r.id
                        ),
                        "give every rule of a check an id of its own",
                    ));
                }
                rules.push(r);
            }
            Err(p) => problems.extend(p),
        }
    }
    if problems.is_empty() {
        Ok(rules)
    } else {
        Err(problems)
    }
}

fn one(item: &Value, n: usize, at: &str) -> Result<ScanRule, Vec<Problem>> {
    let Value::Mapping(m) = item else {
        return Err(vec![problem(
            at,
            format!(
                "scan rule {n} must be a mapping; YAML reads it as {}",
                describe(item)
            ),
            "e.g. `{id: no-eval, language: python, rule: {pattern: 'eval($X)'}, records: fail}`",
        )]);
    };
    let mut problems = Vec::new();
    for k in m.keys() {
        let key = k.as_str().unwrap_or("");
        if !OWN_KEYS.contains(&key) && !CODE_KEYS.contains(&key) {
            let all: Vec<&str> = OWN_KEYS.iter().chain(CODE_KEYS).copied().collect();
            let help =
                crate::text::suggest::did_you_mean(key, all.iter().copied()).unwrap_or_else(|| {
                    format!(
                        "a scan rule takes {}",
                        all.iter()
                            .map(|k| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                });
            problems.push(problem(
                format!("{at}.{key}"),
                format!("scan rule {n}: unknown key `{key}`"),
                help,
            ));
        }
    }
    let id = match m.get("id") {
        Some(Value::String(s)) if super::probe_steps::plain_name(s) => s.clone(),
        _ => {
            problems.push(problem(
                format!("{at}.id"),
                format!("scan rule {n} needs an `id` of letters, digits, `-` and `_`"),
                "the id names the rule in evidence and in triage decisions",
            ));
            String::new()
        }
    };
    let message = m
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let records = match m.get("records") {
        None => Records::Fail,
        Some(v) => match v.as_str().and_then(Records::parse) {
            Some(r) => r,
            None => {
                problems.push(problem(
                    format!("{at}.records"),
                    format!("scan rule {n}: `records` must be `fail`, `partial` or `not_verified`"),
                    "what a proven match records for the check",
                ));
                Records::Fail
            }
        },
    };
    let matching = match m.get("match").and_then(Value::as_str) {
        None | Some("proof") => Matching::Proof,
        Some("signal") => Matching::Signal,
        Some(other) => {
            problems.push(problem(
                format!("{at}.match"),
                format!("scan rule {n}: `match` must be `proof` or `signal`, not `{other}`"),
                "`signal` when a match only shows a person where to look",
            ));
            Matching::Proof
        }
    };
    let covers = match m.get("covers").and_then(Value::as_str) {
        None | Some("part") => Covers::Part,
        Some("all") => Covers::All,
        Some(_) => {
            problems.push(problem(
                format!("{at}.covers"),
                format!("scan rule {n}: `covers` must be `all` or `part`"),
                "`all` when a clean scan decides the whole check",
            ));
            Covers::Part
        }
    };
    let body = match (m.get("fact"), m.get("language")) {
        (Some(f), None) => fact(f, m, n, at, &mut problems),
        (None, Some(l)) => code(l, m, n, at, &id, &mut problems),
        (Some(_), Some(_)) => {
            problems.push(problem(
                at,
                format!("scan rule {n}: a rule is either a code rule (`language`, `rule`) or a file fact (`fact`), not both"),
                "split it into two rules",
            ));
            None
        }
        (None, None) => {
            problems.push(problem(
                at,
                format!("scan rule {n} has neither `language` nor `fact`"),
                "a code rule names its `language` (python, typescript, tsx, javascript, go, rust, csharp); a file fact is `fact: dependency-upper-bound|lockfile|file-present`",
            ));
            None
        }
    };
    match (body, problems.is_empty()) {
        (Some(body), true) => Ok(ScanRule {
            id,
            body,
            message,
            records,
            matching,
            covers,
        }),
        _ => Err(problems),
    }
}

fn fact(
    f: &Value,
    m: &serde_yaml::Mapping,
    n: usize,
    at: &str,
    problems: &mut Vec<Problem>,
) -> Option<Body> {
    for k in CODE_KEYS.iter().chain(&["files"]) {
        if m.contains_key(*k) {
            problems.push(problem(
                format!("{at}.{k}"),
                format!("scan rule {n}: `{k}` belongs to a code rule, not to a file fact"),
                "a file fact takes `package` (dependency-upper-bound) or `paths` (file-present)",
            ));
        }
    }
    let fact = match f.as_str() {
        Some("dependency-upper-bound") => Fact::DependencyUpperBound {
            package: m
                .get("package")
                .and_then(Value::as_str)
                .map(|s| s.to_ascii_lowercase()),
        },
        Some("lockfile") => Fact::Lockfile,
        Some("package-imports") => Fact::PackageImports,
        Some("package-starts") => Fact::PackageStarts,
        Some("package-current") => Fact::PackageCurrent,
        Some("package-user-agent") => Fact::PackageUserAgent,
        Some("file-present") => {
            let paths: Option<Vec<String>> = match m.get("paths") {
                Some(Value::Sequence(s)) if !s.is_empty() => {
                    s.iter().map(|x| x.as_str().map(String::from)).collect()
                }
                Some(Value::String(s)) => Some(vec![s.clone()]),
                _ => None,
            };
            match paths {
                Some(p) if p.iter().all(|g| globset::Glob::new(g).is_ok()) => {
                    Fact::FilePresent { paths: p }
                }
                _ => {
                    problems.push(problem(
                        format!("{at}.paths"),
                        format!("scan rule {n}: `file-present` needs `paths`, a list of globs"),
                        "e.g. `paths: [CHANGELOG.md, docs/CHANGELOG.md]`",
                    ));
                    return None;
                }
            }
        }
        other => {
            let name = other.unwrap_or("");
            let facts = [
                "dependency-upper-bound",
                "lockfile",
                "file-present",
                "package-imports",
                "package-starts",
                "package-current",
                "package-user-agent",
            ];
            let help = crate::text::suggest::did_you_mean(name, facts.iter().copied())
                .unwrap_or_else(|| {
                    format!(
                        "the file facts are {}",
                        facts
                            .iter()
                            .map(|f| format!("`{f}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                });
            problems.push(problem(
                format!("{at}.fact"),
                format!("scan rule {n}: unknown file fact `{name}`"),
                help,
            ));
            return None;
        }
    };
    Some(Body::Fact(fact))
}

fn code(
    l: &Value,
    m: &serde_yaml::Mapping,
    n: usize,
    at: &str,
    id: &str,
    problems: &mut Vec<Problem>,
) -> Option<Body> {
    let Some(language) = l.as_str().and_then(Language::parse) else {
        problems.push(problem(
            format!("{at}.language"),
            format!(
                "scan rule {n}: unknown language {}",
                l.as_str()
                    .map(|s| format!("`{s}`"))
                    .unwrap_or_else(|| describe(l))
            ),
            "the languages are python, typescript, tsx, javascript, go, rust, csharp",
        ));
        return None;
    };
    for k in ["package", "paths"] {
        if m.contains_key(k) {
            problems.push(problem(
                format!("{at}.{k}"),
                format!("scan rule {n}: `{k}` belongs to a file fact, not to a code rule"),
                "a code rule takes `rule` (and `constraints`, `utils`, `transform`, `files`)",
            ));
        }
    }
    let files: Vec<String> = match m.get("files") {
        None => Vec::new(),
        Some(Value::Sequence(s)) => s
            .iter()
            .filter_map(|x| x.as_str().map(String::from))
            .collect(),
        Some(Value::String(s)) => vec![s.clone()],
        Some(_) => {
            problems.push(problem(
                format!("{at}.files"),
                format!("scan rule {n}: `files` must be a list of globs"),
                "e.g. `files: ['src/**/*.py']`",
            ));
            Vec::new()
        }
    };
    for g in &files {
        if globset::Glob::new(g).is_err() {
            problems.push(problem(
                format!("{at}.files"),
                format!("scan rule {n}: `{g}` is not a glob"),
                "e.g. `src/**/*.py`",
            ));
        }
    }
    if !m.contains_key("rule") {
        problems.push(problem(
            at,
            format!("scan rule {n} has no `rule`"),
            "e.g. `rule: {pattern: 'eval($X)'}`; the rule is ast-grep's (pattern, kind, regex, has, inside, all, any, not, …)",
        ));
        return None;
    }
    let mut core = Map::new();
    for k in CODE_KEYS {
        if let Some(v) = m.get(*k) {
            core.insert((*k).to_string(), to_json(v));
        }
    }
    let mut full = core.clone();
    full.insert("id".into(), Json::String(id.to_string()));
    full.insert("language".into(), Json::String(language.as_str().into()));
    let compiled = match compile(Json::Object(full)) {
        Ok(c) => c,
        Err(e) => {
            problems.push(problem(
                format!("{at}.rule"),
                format!("scan rule {n}: the rule does not compile: {e}"),
                "ast-grep's rule format: https://ast-grep.github.io/reference/yaml.html",
            ));
            return None;
        }
    };
    Some(Body::Code {
        language,
        rule: Json::Object(core),
        files,
        compiled: std::sync::Arc::new(compiled),
    })
}

/// Compile an ast-grep rule (as JSON) for matching.
pub fn compile(rule: Json) -> Result<RuleConfig<SupportLang>, String> {
    let ser: SerializableRuleConfig<SupportLang> =
        serde_json::from_value(rule).map_err(|e| e.to_string())?;
    RuleConfig::try_from(ser, &GlobalRules::default()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_yaml(s: &str) -> Result<Vec<ScanRule>, Vec<Problem>> {
        parse(&serde_yaml::from_str(s).unwrap_or(Value::Null))
    }

    #[test]
    fn rules_and_facts_are_typed_and_compiled() {
        let r = parse_yaml(
            "[{id: root-version, language: python, rule: {pattern: 'from . import __version__'}, match: signal, records: partial}, {id: sdk-bound, fact: dependency-upper-bound, package: MCP}, {id: changelog, fact: file-present, paths: [CHANGELOG.md]}]",
        )
        .unwrap_or_else(|p| panic!("{p:?}"));
        assert_eq!(r.len(), 3);
        assert_eq!(r[0].language(), Some(Language::Python));
        assert_eq!(r[0].matching, Matching::Signal);
        assert_eq!(
            r[1].body,
            Body::Fact(Fact::DependencyUpperBound {
                package: Some("mcp".into())
            })
        );
    }

    #[test]
    fn every_problem_is_found_where_it_is() {
        let p = parse_yaml(
            "[{id: a, language: cobol, rule: {pattern: x}}, {id: b, language: python, rule: {patern: x}}, {id: c, language: python, rule: {pattern: x}, recrods: fail}, {id: d, fact: lockfiles}]",
        )
        .err()
        .unwrap_or_default();
        let paths: Vec<&str> = p.iter().map(|x| x.path.as_str()).collect();
        assert!(paths.contains(&"scan[0].language"), "{p:?}");
        assert!(paths.contains(&"scan[1].rule"), "{p:?}");
        assert!(p.iter().any(|x| x.message.contains("patern")), "{p:?}");
        assert!(paths.contains(&"scan[2].recrods"), "{p:?}");
        assert!(
            p.iter().any(|x| x.help.contains("did you mean `records`")),
            "{p:?}"
        );
        assert!(
            p.iter().any(|x| x.help.contains("did you mean `lockfile`")),
            "{p:?}"
        );
    }

    #[test]
    fn files_have_their_language() {
        assert_eq!(Language::of_file("src/server.py"), Some(Language::Python));
        assert_eq!(Language::of_file("a/b.tsx"), Some(Language::Tsx));
        assert_eq!(Language::of_file("Program.cs"), Some(Language::CSharp));
        assert_eq!(Language::of_file("README.md"), None);
        assert!(Language::TypeScript.covers(Language::Tsx));
    }
}
