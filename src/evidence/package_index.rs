//! A release's standing on the Python package index pip is configured for, read over HTTP
//! through the Simple API (PEP 691 JSON, else PEP 503 HTML), instead of through two pip
//! processes that spend more than a second each, most of it starting up.
//!
//! Which index is pip's: `PIP_INDEX_URL`, else the `index-url` of pip's configuration files in
//! the order pip reads them, else pip's own default as the environment's pip names it. Nothing
//! here names an index. When any of that is uncertain — extra indexes configured, a file that
//! cannot be read, an answer that is not the Simple API — the caller asks pip itself.

use pep508_rs::pep440_rs::Version;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::str::FromStr;
use std::time::Duration;

/// The most of a project page that is read.
const MAX_PAGE: usize = 64 << 20;

/// The newest release and whether the installed one is yanked.
#[derive(Debug, PartialEq, Eq)]
pub struct Standing {
    pub latest: String,
    pub yanked: bool,
}

/// The single index pip in the environment of `python` would ask, or `None` when that cannot
/// be told without running pip (then pip is asked).
pub fn pip_index(python: &Path, env: Option<&Path>) -> Option<String> {
    if std::env::var_os("PIP_EXTRA_INDEX_URL").is_some()
        || std::env::var_os("PIP_NO_INDEX").is_some()
    {
        return None;
    }
    if let Some(url) = std::env::var("PIP_INDEX_URL")
        .ok()
        .filter(|u| !u.trim().is_empty())
    {
        return Some(url.trim().to_string());
    }
    let mut url = None;
    for file in config_files(env)? {
        let text = match std::fs::read_to_string(&file) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(_) => return None,
        };
        let (index, extra) = index_url_in(&text);
        if extra {
            return None;
        }
        if index.is_some() {
            url = index;
        }
    }
    if url.is_some() {
        return url;
    }
    // pip's built-in default, as this pip defines it.
    // Bounded in time like every other pip call of the package's environment.
    let out = super::bounded_command::run(
        Command::new(python).args([
            "-c",
            "from pip._internal.models.index import PyPI; print(PyPI.simple_url)",
        ]),
        "pip's default index",
        &mut Vec::new(),
    )
    .ok()?;
    let url = out.trim().to_string();
    url.starts_with("http").then_some(url)
}

/// pip's configuration files, in the order it reads them (a later one overrides): the
/// machine's, the user's (the old place, then the new), the environment's, then
/// `PIP_CONFIG_FILE` (set to the null device, it turns every file off).
fn config_files(env: Option<&Path>) -> Option<Vec<PathBuf>> {
    let named = std::env::var_os("PIP_CONFIG_FILE").map(PathBuf::from);
    if named.as_deref() == Some(Path::new("/dev/null")) {
        return Some(Vec::new());
    }
    let mut files = Vec::new();
    let xdg_dirs = std::env::var("XDG_CONFIG_DIRS").unwrap_or_else(|_| "/etc/xdg".into());
    for d in xdg_dirs.split(':').filter(|d| !d.is_empty()) {
        files.push(Path::new(d).join("pip/pip.conf"));
    }
    files.push(PathBuf::from("/etc/pip.conf"));
    let home = std::env::var_os("HOME").map(PathBuf::from);
    if let Some(h) = &home {
        files.push(h.join(".pip/pip.conf"));
    }
    let config_home = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| home.map(|h| h.join(".config")));
    if let Some(c) = config_home {
        files.push(c.join("pip/pip.conf"));
    }
    if let Some(e) = env {
        files.push(e.join("pip.conf"));
    }
    files.extend(named);
    Some(files)
}

/// The `index-url` an INI text sets for installs (`[global]`, then `[install]` over it), and
/// whether it names extra indexes.
fn index_url_in(text: &str) -> (Option<String>, bool) {
    let mut section = String::new();
    let (mut global, mut install, mut extra) = (None, None, false);
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.starts_with(';') || line.is_empty() {
            continue;
        }
        if let Some(s) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = s.trim().to_ascii_lowercase();
            continue;
        }
        let Some((key, value)) = line.split_once(['=', ':']) else {
            continue;
        };
        let key = key.trim().to_ascii_lowercase().replace('_', "-");
        let value = value.trim().to_string();
        if !matches!(section.as_str(), "global" | "install" | "index") {
            continue;
        }
        match key.as_str() {
            "index-url" | "i" if section == "global" => global = Some(value),
            "index-url" | "i" => install = Some(value),
            "extra-index-url" | "no-index" | "find-links" => extra = true,
            _ => {}
        }
    }
    (install.or(global), extra)
}

/// PEP 503's normal form of a project name.
pub fn normalise(name: &str) -> String {
    let mut out = String::new();
    let mut sep = false;
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            sep = true;
        } else {
            if sep && !out.is_empty() {
                out.push('-');
            }
            sep = false;
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// Ask `index` for the project's files and decide the standing of `version`.
pub fn standing(index: &str, name: &str, version: &str) -> Result<Standing, String> {
    let url = format!("{}/{}/", index.trim_end_matches('/'), normalise(name));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the HTTP client: {e}"))?;
    let (ctype, body) = rt.block_on(async {
        let client = super::probe::transport::http::client()?;
        let resp = client
            .get(&url)
            .header(
                "Accept",
                "application/vnd.pypi.simple.v1+json, text/html;q=0.1",
            )
            .header(
                "User-Agent",
                super::probe::transport::http::user_agent(None),
            )
            .timeout(Duration::from_secs(15))
            .send()
            .await
            .map_err(|e| super::probe::transport::http::with_causes(&e))?;
        if !resp.status().is_success() {
            return Err(format!("the index answered {} for {url}", resp.status()));
        }
        let ctype = resp
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        // A project page of a few thousand releases is well below this; read no further.
        let mut resp = resp;
        let mut body = Vec::new();
        while let Some(chunk) = resp
            .chunk()
            .await
            .map_err(|e| super::probe::transport::http::with_causes(&e))?
        {
            if body.len() + chunk.len() > MAX_PAGE {
                return Err(format!("the index's page for {name} is over 64 MB"));
            }
            body.extend_from_slice(&chunk);
        }
        Ok((ctype, body))
    })?;
    let text = String::from_utf8_lossy(&body);
    let files = if ctype.contains("json") {
        let v: Json = serde_json::from_str(&text)
            .map_err(|e| format!("the index's answer for {name} is not JSON: {e}"))?;
        files_of_json(&v, name)
    } else if ctype.contains("html") {
        files_of_html(&text, name)
    } else {
        return Err(format!("the index answered `{ctype}`, not the Simple API"));
    };
    decide(&files, version).ok_or_else(|| format!("the index lists no release of {name}"))
}

/// (version, yanked) of every distribution file the JSON form lists.
fn files_of_json(v: &Json, name: &str) -> Vec<(String, bool)> {
    v.get("files")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter_map(|f| {
            let file = f.get("filename")?.as_str()?;
            let yanked = match f.get("yanked") {
                Some(Json::Bool(b)) => *b,
                Some(Json::String(_)) => true,
                _ => false,
            };
            Some((version_of(file, name)?, yanked))
        })
        .collect()
}

/// (version, yanked) of every anchor of the HTML form.
fn files_of_html(text: &str, name: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("<a ") {
        let after = &rest[start..];
        let Some(open_end) = after.find('>') else {
            break;
        };
        let tag = &after[..open_end];
        let Some(close) = after[open_end..].find("</a>") else {
            break;
        };
        let file = after[open_end + 1..open_end + close].trim();
        if let Some(v) = version_of(file, name) {
            out.push((v, tag.contains("data-yanked")));
        }
        rest = &after[open_end + close..];
    }
    out
}

/// The version in a wheel's or sdist's file name (`name-1.2.0-py3-none-any.whl`,
/// `name-1.2.0.tar.gz`), the name compared in normal form.
fn version_of(file: &str, name: &str) -> Option<String> {
    let (n, v) = if let Some(w) = file.strip_suffix(".whl") {
        let mut parts = w.split('-');
        (parts.next()?, parts.next()?)
    } else {
        file.strip_suffix(".tar.gz")
            .or_else(|| file.strip_suffix(".zip"))?
            .rsplit_once('-')?
    };
    (normalise(n) == normalise(name)).then(|| v.to_string())
}

/// The newest release that is not yanked (pre-releases only when the installed one is one),
/// and whether every file of the installed version is yanked.
fn decide(files: &[(String, bool)], installed: &str) -> Option<Standing> {
    let mine = Version::from_str(installed).ok();
    let pre_ok = mine.as_ref().is_some_and(Version::any_prerelease);
    let mut latest: Option<(Version, &str)> = None;
    for (v, yanked) in files {
        if *yanked {
            continue;
        }
        let Ok(parsed) = Version::from_str(v) else {
            continue;
        };
        if parsed.any_prerelease() && !pre_ok {
            continue;
        }
        if latest.as_ref().is_none_or(|(l, _)| parsed > *l) {
            latest = Some((parsed, v));
        }
    }
    let same = |v: &str| match (&mine, Version::from_str(v)) {
        (Some(m), Ok(p)) => *m == p,
        _ => v == installed,
    };
    let of_mine: Vec<bool> = files.iter().filter(|(v, _)| same(v)).map(|f| f.1).collect();
    let yanked = !of_mine.is_empty() && of_mine.iter().all(|y| *y);
    let latest = match (latest, &mine) {
        (Some((l, _)), Some(m)) if l == *m => installed.to_string(),
        (Some((_, s)), _) => s.to_string(),
        (None, _) if yanked => installed.to_string(),
        (None, _) => return None,
    };
    Some(Standing { latest, yanked })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_compared_in_normal_form() {
        assert_eq!(normalise("Zurich_OpenData.MCP"), "zurich-opendata-mcp");
        assert_eq!(
            version_of(
                "zurich_opendata_mcp-1.2.0-py3-none-any.whl",
                "zurich-opendata-mcp"
            ),
            Some("1.2.0".into())
        );
        assert_eq!(
            version_of("zurich-opendata-mcp-1.2.0.tar.gz", "Zurich_OpenData_MCP"),
            Some("1.2.0".into())
        );
        assert_eq!(version_of("other-1.0.tar.gz", "zurich-opendata-mcp"), None);
    }

    #[test]
    fn the_newest_release_skips_yanked_and_pre_releases() {
        let files = vec![
            ("1.0.0".to_string(), false),
            ("1.1.0".to_string(), false),
            ("1.2.0".to_string(), true),
            ("2.0.0rc1".to_string(), false),
        ];
        assert_eq!(
            decide(&files, "1.0.0"),
            Some(Standing {
                latest: "1.1.0".into(),
                yanked: false
            })
        );
        assert_eq!(
            decide(&files, "1.2.0"),
            Some(Standing {
                latest: "1.1.0".into(),
                yanked: true
            })
        );
        // The clean twin: the installed version is the newest.
        assert_eq!(
            decide(&files[..2], "1.1.0"),
            Some(Standing {
                latest: "1.1.0".into(),
                yanked: false
            })
        );
        assert_eq!(decide(&[], "1.0.0"), None);
    }

    #[test]
    fn both_forms_of_the_simple_api_are_read() {
        let json: Json = serde_json::json!({"files": [
            {"filename": "p-1.0.0-py3-none-any.whl", "yanked": false},
            {"filename": "p-1.1.0.tar.gz", "yanked": "broken"},
        ]});
        assert_eq!(
            files_of_json(&json, "p"),
            [("1.0.0".to_string(), false), ("1.1.0".to_string(), true)]
        );
        let html = r#"<html><body><a href="p-1.0.0-py3-none-any.whl#sha256=0">p-1.0.0-py3-none-any.whl</a>
<a href="p-1.1.0.tar.gz" data-yanked="">p-1.1.0.tar.gz</a></body></html>"#;
        assert_eq!(
            files_of_html(html, "p"),
            [("1.0.0".to_string(), false), ("1.1.0".to_string(), true)]
        );
    }

    #[test]
    fn an_ini_file_sets_the_index_and_extra_indexes_are_told() {
        assert_eq!(
            index_url_in("[global]\nindex-url = https://a.invalid/simple\n"),
            (Some("https://a.invalid/simple".into()), false)
        );
        assert_eq!(
            index_url_in("[global]\nindex_url=https://a.invalid/simple\n[install]\nindex-url: https://b.invalid/simple\n"),
            (Some("https://b.invalid/simple".into()), false)
        );
        assert!(index_url_in("[global]\nextra-index-url = https://c.invalid/simple\n").1);
        assert_eq!(index_url_in("[freeze]\nindex-url = x\n"), (None, false));
    }
}
