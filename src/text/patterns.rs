//! Regular expressions a catalogue declares (its id pattern, `applies_when` regexes of the
//! profile schema), compiled once per process.

use regex::Regex;

/// `pattern` compiled, once per process. Validating `catalogue.yaml`, loading, linting and the
/// language server each need the same few patterns, and compiling one costs more than reading
/// a small catalogue's frontmatter (a `Regex` clone shares the compiled program).
pub fn compiled(pattern: &str) -> Result<Regex, regex::Error> {
    static COMPILED: std::sync::Mutex<Vec<(String, Regex)>> = std::sync::Mutex::new(Vec::new());
    let mut cache = COMPILED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, re)) = cache.iter().find(|(p, _)| p == pattern) {
        return Ok(re.clone());
    }
    let re = Regex::new(pattern)?;
    // A language server may see many patterns over a day of edits; keep the last few.
    if cache.len() >= 8 {
        cache.remove(0);
    }
    cache.push((pattern.to_string(), re.clone()));
    Ok(re)
}
