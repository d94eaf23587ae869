//! What a file must contain for a structural rule to match anywhere in it, read from the rule
//! as written: the words of its patterns (a pattern matches leaf by leaf, so each of its
//! identifiers, keywords and literals is in the matched code) and the literal prefixes of its
//! regular expressions, combined as the rule combines them (`all`, `any`, relational rules
//! and the `utils` it `matches`). All the words of every rule are looked for in one pass of a
//! file (Aho-Corasick), so a rule whose words are absent is never parsed against the file —
//! most rules are about one library or one call, and most files never mention it.
//!
//! The test is a necessary condition only, and leans to "may match": whatever it cannot read
//! with certainty (`not`, a pattern with a `selector` or a loose `strictness`, a regex without
//! a finite set of prefixes, an unknown key) requires nothing, so a skipped rule is one that
//! could not have matched.

use aho_corasick::AhoCorasick;
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;

/// A condition on the words present in a file.
#[derive(Clone, Debug, PartialEq)]
pub enum Need {
    /// Nothing is required (the rule may match any file).
    Nothing,
    /// The word with this index must be present.
    Word(usize),
    /// Every one of these.
    All(Vec<Need>),
    /// At least one of these.
    Either(Vec<Need>),
}

impl Need {
    /// Whether a file whose words are `present` meets the condition.
    pub fn met(&self, present: &[bool]) -> bool {
        match self {
            Need::Nothing => true,
            Need::Word(i) => present.get(*i).copied().unwrap_or(true),
            Need::All(v) => v.iter().all(|n| n.met(present)),
            Need::Either(v) => v.iter().any(|n| n.met(present)),
        }
    }

    fn all(v: Vec<Need>) -> Need {
        let mut v: Vec<Need> = v.into_iter().filter(|n| *n != Need::Nothing).collect();
        match v.len() {
            0 => Need::Nothing,
            1 => v.swap_remove(0),
            _ => Need::All(v),
        }
    }

    fn either(v: Vec<Need>) -> Need {
        // One alternative that needs nothing makes the whole choice need nothing.
        if v.is_empty() || v.contains(&Need::Nothing) {
            return Need::Nothing;
        }
        let mut v = v;
        match v.len() {
            1 => v.swap_remove(0),
            _ => Need::Either(v),
        }
    }
}

/// Words shorter than this are in nearly every file; requiring them only costs the search.
const SHORTEST: usize = 3;
/// How deep `matches` may follow `utils` (a util may refer to another, or to itself).
const DEEPEST: u8 = 8;

/// The words of every rule, numbered, and one automaton that finds them all.
#[derive(Default)]
pub struct Words {
    index: BTreeMap<Vec<u8>, usize>,
}

impl Words {
    fn word(&mut self, w: &[u8]) -> Need {
        if w.len() < SHORTEST {
            return Need::Nothing;
        }
        let next = self.index.len();
        Need::Word(*self.index.entry(w.to_vec()).or_insert(next))
    }

    /// The condition of a rule core as written (`rule`, `utils`, …).
    pub fn need(&mut self, core: &Json) -> Need {
        let empty = Map::new();
        let utils = core
            .get("utils")
            .and_then(Json::as_object)
            .unwrap_or(&empty);
        match core.get("rule") {
            Some(rule) => self.rule(rule, utils, 0),
            None => Need::Nothing,
        }
    }

    fn rule(&mut self, rule: &Json, utils: &Map<String, Json>, depth: u8) -> Need {
        let Some(m) = rule.as_object() else {
            return Need::Nothing;
        };
        let mut all = Vec::new();
        if let Some(p) = m.get("pattern") {
            all.push(self.pattern(p));
        }
        if let Some(Json::String(r)) = m.get("regex") {
            all.push(self.regex(r));
        }
        // A relational rule's target must be in the file too (its `stopBy` and `field` are
        // not requirements and are skipped as unknown keys are).
        for k in ["inside", "has", "precedes", "follows"] {
            if let Some(r) = m.get(k) {
                all.push(self.rule(r, utils, depth));
            }
        }
        if let Some(Json::Array(rs)) = m.get("all") {
            for r in rs {
                all.push(self.rule(r, utils, depth));
            }
        }
        if let Some(Json::Array(rs)) = m.get("any") {
            let v = rs.iter().map(|r| self.rule(r, utils, depth)).collect();
            all.push(Need::either(v));
        }
        if let Some(Json::String(name)) = m.get("matches") {
            if depth < DEEPEST {
                if let Some(u) = utils.get(name) {
                    all.push(self.rule(u, utils, depth + 1));
                }
            }
        }
        Need::all(all)
    }

    fn pattern(&mut self, p: &Json) -> Need {
        let text = match p {
            Json::String(s) => s.as_str(),
            Json::Object(o) => {
                // A selector matches a part of the context, so the context's other words need
                // not be in the file; a strictness other than the default ones may skip words.
                let strict = o
                    .get("strictness")
                    .and_then(Json::as_str)
                    .is_none_or(|s| matches!(s, "smart" | "cst"));
                match (o.get("selector"), o.get("context").and_then(Json::as_str)) {
                    (None, Some(c)) if strict => c,
                    _ => return Need::Nothing,
                }
            }
            _ => return Need::Nothing,
        };
        let words = pattern_words(text)
            .into_iter()
            .map(|w| self.word(w.as_bytes()))
            .collect();
        Need::all(words)
    }

    fn regex(&mut self, r: &str) -> Need {
        let Ok(hir) = regex_syntax::parse(r) else {
            return Need::Nothing;
        };
        let seq = regex_syntax::hir::literal::Extractor::new().extract(&hir);
        // Every match starts with one of a finite set of prefixes, or nothing is known.
        let Some(lits) = seq.literals() else {
            return Need::Nothing;
        };
        if lits.is_empty() || lits.iter().any(|l| l.as_bytes().len() < SHORTEST) {
            return Need::Nothing;
        }
        let v = lits.iter().map(|l| self.word(l.as_bytes())).collect();
        Need::either(v)
    }

    /// The automaton over every word, and how many there are.
    pub fn finder(&self) -> Option<Finder> {
        if self.index.is_empty() {
            return None;
        }
        let mut words: Vec<(&Vec<u8>, usize)> = self.index.iter().map(|(w, i)| (w, *i)).collect();
        words.sort_by_key(|(_, i)| *i);
        let ac = AhoCorasick::new(words.iter().map(|(w, _)| w.as_slice())).ok()?;
        Some(Finder {
            ac,
            count: words.len(),
        })
    }
}

/// Finds which of the rules' words a file contains.
pub struct Finder {
    ac: AhoCorasick,
    count: usize,
}

impl Finder {
    pub fn present(&self, text: &str) -> Vec<bool> {
        let mut seen = vec![false; self.count];
        for m in self.ac.find_overlapping_iter(text) {
            seen[m.pattern().as_usize()] = true;
        }
        seen
    }
}

/// A cheaper rule every match of `core` also matches, tried first at each node: the rule's
/// own pattern, kind and regex (and its `any`/`all` of those alone) with its `constraints`.
/// ast-grep checks constraints only after the whole rule, relational parts (`inside`, `has`
/// with `stopBy: end`) included, so a log rule whose logger name is constrained otherwise
/// walks every call's ancestors first. `None` when the gate would be the rule itself or there
/// is nothing to gate on.
///
/// Why it is a necessary condition: ast-grep matches a rule's atomic parts first, so the
/// variables they bind are bound the same way in the full match, and a constraint on a
/// variable the gate does not bind holds trivially (constraints test bound variables only).
pub fn gate(core: &Json, id: &str, language: &str) -> Option<Json> {
    let rule = core.get("rule")?.as_object()?;
    let constraints = core.get("constraints")?.as_object()?;
    if constraints.is_empty() {
        return None;
    }
    let mut kept = Map::new();
    for (k, v) in rule {
        let keep = match k.as_str() {
            "pattern" | "kind" | "regex" => true,
            "any" | "all" => v.as_array().is_some_and(|a| a.iter().all(atomic)),
            _ => false,
        };
        if keep {
            kept.insert(k.clone(), v.clone());
        }
    }
    if kept.is_empty() || kept.len() == rule.len() {
        return None;
    }
    let mut g = Map::new();
    g.insert("id".into(), Json::String(format!("{id}.gate")));
    g.insert("language".into(), Json::String(language.into()));
    g.insert("rule".into(), Json::Object(kept));
    g.insert("constraints".into(), Json::Object(constraints.clone()));
    if let Some(u) = core.get("utils") {
        g.insert("utils".into(), u.clone());
    }
    Some(Json::Object(g))
}

/// A rule of pattern, kind and regex alone (and `any`/`all` of such).
fn atomic(r: &Json) -> bool {
    r.as_object().is_some_and(|m| {
        !m.is_empty()
            && m.iter().all(|(k, v)| match k.as_str() {
                "pattern" | "kind" | "regex" => true,
                "any" | "all" => v.as_array().is_some_and(|a| a.iter().all(atomic)),
                _ => false,
            })
    })
}

/// The words of a pattern: runs of letters, digits and `_`, except a metavariable's name (the
/// word after `$`, `$$` or `$$$`), which stands for any code.
fn pattern_words(p: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = p.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphanumeric() || b[i] == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            if start == 0 || b[start - 1] != b'$' {
                out.push(&p[start..i]);
            }
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(core: Json, text: &str) -> bool {
        let mut w = Words::default();
        let need = w.need(&core);
        let present = w
            .finder()
            .map(|f| f.present(text))
            .unwrap_or_default();
        need.met(&present)
    }

    #[test]
    fn a_pattern_needs_its_words_but_not_its_metavariables() {
        let core = json!({"rule": {"pattern": "httpx.get($URL, verify=False)"}});
        assert!(check(core.clone(), "r = httpx.get(u, verify=False)"));
        assert!(!check(core.clone(), "r = requests.get(u, verify=False)"));
        assert_eq!(pattern_words("$$$ARGS.timeout($X)"), vec!["timeout"]);
    }

    #[test]
    fn any_needs_one_all_needs_each_and_not_needs_nothing() {
        let any = json!({"rule": {"any": [{"pattern": "eval($X)"}, {"pattern": "exec($X)"}]}});
        assert!(check(any.clone(), "exec(code)"));
        assert!(!check(any, "run(code)"));
        let all = json!({"rule": {"kind": "call", "all": [{"pattern": "open($F)"}, {"inside": {"pattern": "def handler($$$): $$$", "stopBy": "end"}}]}});
        assert!(!check(all.clone(), "def other(): open(f)"));
        assert!(check(all, "def handler(x): open(f)"));
        let not = json!({"rule": {"kind": "call", "not": {"pattern": "print($X)"}}});
        assert!(check(not, "anything"));
    }

    #[test]
    fn a_regex_needs_one_of_its_prefixes_or_nothing_when_it_has_none() {
        let ua = json!({"rule": {"kind": "string", "regex": "(Mozilla|Chrome)/[0-9]"}});
        assert!(check(ua.clone(), "h = 'Chrome/120'"));
        assert!(!check(ua, "h = 'my-server/1.0'"));
        let open = json!({"rule": {"kind": "string", "regex": "[a-z]+://"}});
        assert!(check(open, "nothing like it"));
    }

    #[test]
    fn a_gate_keeps_the_atomic_parts_and_the_constraints() {
        let log = json!({"rule": {"pattern": "$L.$LVL($$$)", "inside": {"kind": "except_clause", "stopBy": "end"}}, "constraints": {"L": {"regex": "^log$"}}});
        let g = gate(&log, "r", "python").unwrap_or_default();
        assert_eq!(g["rule"], json!({"pattern": "$L.$LVL($$$)"}));
        assert_eq!(g["constraints"], log["constraints"]);
        // Nothing relational to skip, or no constraint to apply early: no gate.
        let plain = json!({"rule": {"any": [{"pattern": "a($X)"}]}, "constraints": {"X": {"regex": "b"}}});
        assert_eq!(gate(&plain, "r", "python"), None);
        let free = json!({"rule": {"pattern": "a($X)", "has": {"kind": "string"}}});
        assert_eq!(gate(&free, "r", "python"), None);
    }

    #[test]
    fn utils_are_followed_and_a_selector_requires_nothing() {
        let util = json!({"rule": {"matches": "client"}, "utils": {"client": {"pattern": "AsyncClient($$$)"}}});
        assert!(!check(util.clone(), "x = Client()"));
        assert!(check(util, "x = AsyncClient()"));
        let sel = json!({"rule": {"pattern": {"context": "class A: timeout = 3", "selector": "integer"}}});
        assert!(check(sel, "x = 3"));
    }
}
