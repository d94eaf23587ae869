//! The published artifact users install, as evidence: a package from PyPI or npm (or a wheel
//! file) is installed into a throwaway environment under the user's cache directory, from the
//! package index the machine's pip or npm is configured to use (auditbook names no index of
//! its own), and what was installed is read — name, version, the artifact's digest, the
//! declared dependencies, the console scripts, the top-level modules.
//!
//! Nothing of the package runs while it is installed: pip takes wheels only (`--only-binary
//! :all:`), npm runs with `--ignore-scripts`. What runs afterwards — the import check and the
//! server itself — runs in the sandbox (`sandbox`), bounded in time and memory.

use super::sandbox::{Launch, Policy};
use super::scan::facts::Artifact;
use super::untrusted;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// What to install.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    Pypi {
        name: String,
        version: Option<String>,
    },
    Npm {
        name: String,
        version: Option<String>,
    },
    Wheel(PathBuf),
}

impl Spec {
    /// `pypi:NAME[==VERSION]`, `npm:NAME[@VERSION]`, or a `.whl` file.
    pub fn parse(s: &str) -> Result<Spec, String> {
        let plain = |n: &str| {
            !n.is_empty()
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.@/".contains(c))
        };
        if let Some(rest) = s.strip_prefix("pypi:") {
            let (name, version) = match rest.split_once("==") {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (rest, None),
            };
            if plain(name) && version.as_deref().is_none_or(plain) {
                return Ok(Spec::Pypi {
                    name: name.to_string(),
                    version,
                });
            }
        } else if let Some(rest) = s.strip_prefix("npm:") {
            // A scoped name starts with `@`; a version follows the last `@` after it.
            let at = rest.get(1..).and_then(|r| r.rfind('@')).map(|i| i + 1);
            let (name, version) = match at {
                Some(i) => (&rest[..i], Some(rest[i + 1..].to_string())),
                None => (rest, None),
            };
            if plain(name) && version.as_deref().is_none_or(plain) {
                return Ok(Spec::Npm {
                    name: name.to_string(),
                    version,
                });
            }
        } else if s.ends_with(".whl") {
            return Ok(Spec::Wheel(PathBuf::from(s)));
        }
        Err(format!(
            "`{}` names no package: write pypi:NAME[==VERSION], npm:NAME[@VERSION] or a .whl file",
            untrusted::value(s)
        ))
    }

    pub fn shown(&self) -> String {
        match self {
            Spec::Pypi { name, version } => match version {
                Some(v) => format!("pypi:{name}=={v}"),
                None => format!("pypi:{name}"),
            },
            Spec::Npm { name, version } => match version {
                Some(v) => format!("npm:{name}@{v}"),
                None => format!("npm:{name}"),
            },
            Spec::Wheel(p) => p.display().to_string(),
        }
    }
}

/// An installed package.
#[derive(Clone, Debug)]
pub struct Installed {
    pub spec: String,
    pub name: String,
    pub version: String,
    /// `sha256:` of the artifact (wheel or npm tarball).
    pub digest: String,
    /// The environment's root (a virtual environment, or an npm prefix).
    pub env: PathBuf,
    /// The package's files: (folder, the name it has in the scanned tree).
    pub roots: Vec<(PathBuf, String)>,
    /// Console scripts: (name, path).
    pub scripts: Vec<(String, PathBuf)>,
    /// Top-level modules, root package first (Python).
    pub modules: Vec<String>,
    pub requires: Vec<String>,
    pub python: bool,
    /// What was run, one line each.
    pub log: Vec<String>,
}

/// How long an install may take.
pub const INSTALL_TIME: Duration = Duration::from_secs(600);

fn run(cmd: &mut Command, what: &str, log: &mut Vec<String>) -> Result<String, String> {
    log.push(what.to_string());
    let out = cmd
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("{what}: cannot run: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
        let tail = tail
            .iter()
            .rev()
            .take(6)
            .rev()
            .copied()
            .collect::<Vec<_>>()
            .join(" | ");
        Err(format!(
            "{what}: exit {}: {}",
            out.status.code().unwrap_or(-1),
            untrusted::quote(&tail, 600)
        ))
    }
}

fn digest_of(path: &Path) -> Result<String, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    Ok(format!(
        "sha256:{}",
        crate::text::digest::hex(&Sha256::digest(&bytes))
    ))
}

fn only_file(dir: &Path, ending: &str) -> Result<PathBuf, String> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(ending))
        .collect();
    found.sort();
    found
        .into_iter()
        .next()
        .ok_or_else(|| format!("no {ending} was downloaded"))
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Where packages are installed: the user's cache directory, else the system's temporary one.
fn packages_dir() -> PathBuf {
    crate::write::cache_root()
        .unwrap_or_else(std::env::temp_dir)
        .join("packages")
}

/// Install `spec`. The environment is kept under the cache, keyed by the artifact's digest, so
/// installing the same artifact again reuses it.
pub fn install(spec: &Spec) -> Result<Installed, String> {
    let mut log = Vec::new();
    let base = packages_dir();
    crate::write::dir(&base).map_err(|e| format!("cannot make `{}`: {e}", base.display()))?;
    let work = tempfile::Builder::new()
        .prefix("download-")
        .tempdir_in(&base)
        .map_err(|e| format!("cannot make a download folder: {e}"))?;
    match spec {
        Spec::Pypi { .. } | Spec::Wheel(_) => install_python(spec, &base, work.path(), &mut log),
        Spec::Npm { name, version } => {
            install_npm(name, version.as_deref(), &base, work.path(), &mut log)
        }
    }
}

fn python() -> String {
    on_path("python3")
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "python3".into())
}

fn install_python(
    spec: &Spec,
    base: &Path,
    work: &Path,
    log: &mut Vec<String>,
) -> Result<Installed, String> {
    let wheel = match spec {
        Spec::Wheel(p) => p.clone(),
        Spec::Pypi { name, version } => {
            let req = match version {
                Some(v) => format!("{name}=={v}"),
                None => name.clone(),
            };
            run(
                Command::new(python())
                    .args([
                        "-m",
                        "pip",
                        "download",
                        "--quiet",
                        "--no-deps",
                        "--only-binary",
                        ":all:",
                        "--disable-pip-version-check",
                        "-d",
                    ])
                    .arg(work)
                    .arg(&req),
                &format!("pip download --no-deps --only-binary :all: {req}"),
                log,
            )?;
            only_file(work, ".whl")?
        }
        Spec::Npm { .. } => return Err("not a Python package".into()),
    };
    let digest = digest_of(&wheel)?;
    let env = base.join(
        digest
            .trim_start_matches("sha256:")
            .chars()
            .take(24)
            .collect::<String>(),
    );
    let marker = env.join(".auditbook-installed");
    if !marker.is_file() {
        crate::write::remove_tree(&env)
            .map_err(|e| format!("cannot clear `{}`: {e}", env.display()))?;
        if let Some(uv) = on_path("uv") {
            run(
                Command::new(&uv).arg("venv").arg("--quiet").arg(&env),
                "uv venv",
                log,
            )?;
            run(
                Command::new(&uv)
                    .args(["pip", "install", "--quiet", "--no-build", "--python"])
                    .arg(env.join("bin/python"))
                    .arg(&wheel),
                "uv pip install --no-build (wheels only)",
                log,
            )?;
        } else {
            run(
                Command::new(python()).args(["-m", "venv"]).arg(&env),
                "python3 -m venv",
                log,
            )?;
            run(
                Command::new(env.join("bin/pip"))
                    .args([
                        "install",
                        "--quiet",
                        "--disable-pip-version-check",
                        "--only-binary",
                        ":all:",
                    ])
                    .arg(&wheel),
                "pip install --only-binary :all: (wheels only)",
                log,
            )?;
        }
        crate::write::file(&marker, &digest)
            .map_err(|e| format!("cannot write `{}`: {e}", marker.display()))?;
    } else {
        log.push(format!("reused the environment of {digest}"));
    }
    read_python(spec, env, digest, log.clone())
}

/// The site-packages folder of a virtual environment.
fn site_packages(env: &Path) -> Option<PathBuf> {
    let lib = env.join("lib");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&lib)
        .ok()?
        .flatten()
        .map(|e| e.path().join("site-packages"))
        .filter(|p| p.is_dir())
        .collect();
    found.sort();
    found.into_iter().next()
}

fn read_python(
    spec: &Spec,
    env: PathBuf,
    digest: String,
    log: Vec<String>,
) -> Result<Installed, String> {
    let site = site_packages(&env).ok_or("the environment has no site-packages")?;
    let wanted = match spec {
        Spec::Pypi { name, .. } => Some(name.to_ascii_lowercase().replace(['-', '.'], "_")),
        _ => None,
    };
    // The package's dist-info: the one named after it (or, for a wheel, the one not of a
    // dependency: the wheel's own name starts the file name).
    let wheel_name = match spec {
        Spec::Wheel(p) => p
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.split('-').next())
            .map(|n| n.to_ascii_lowercase()),
        _ => None,
    };
    let key = wanted.or(wheel_name).ok_or("no package name")?;
    let mut infos: Vec<PathBuf> = std::fs::read_dir(&site)
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.ends_with(".dist-info")
                    && n.to_ascii_lowercase()
                        .replace(['-', '.'], "_")
                        .starts_with(&format!("{key}_"))
            })
        })
        .collect();
    infos.sort();
    let info = infos
        .into_iter()
        .next()
        .ok_or_else(|| format!("no dist-info for `{key}` in the environment"))?;
    let metadata = std::fs::read_to_string(info.join("METADATA"))
        .map_err(|e| format!("cannot read METADATA: {e}"))?;
    let field = |k: &str| {
        metadata
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{k}: ")))
            .unwrap_or("")
            .trim()
            .to_string()
    };
    let name = field("Name");
    let version = field("Version");
    let requires: Vec<String> = metadata
        .lines()
        .filter_map(|l| l.strip_prefix("Requires-Dist: "))
        .map(String::from)
        .collect();
    let mut modules: Vec<String> = std::fs::read_to_string(info.join("top_level.txt"))
        .map(|t| {
            t.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    if modules.is_empty() {
        // From RECORD: the first component of every path that is not metadata.
        let record = std::fs::read_to_string(info.join("RECORD")).unwrap_or_default();
        let mut set: Vec<String> = record
            .lines()
            .filter_map(|l| l.split(',').next())
            .filter_map(|p| p.split('/').next())
            .filter(|p| {
                !p.ends_with(".dist-info") && !p.starts_with("..") && !p.contains("__pycache__")
            })
            .map(|p| p.trim_end_matches(".py").to_string())
            .collect();
        set.sort();
        set.dedup();
        modules = set;
    }
    // The root package first: the one named like the distribution.
    let dist = name.to_ascii_lowercase().replace(['-', '.'], "_");
    modules.sort_by_key(|m| (m != &dist, m.clone()));
    let mut roots = vec![(
        info.clone(),
        info.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    )];
    for m in &modules {
        let dir = site.join(m);
        if dir.is_dir() {
            roots.push((dir, m.clone()));
        }
    }
    let scripts = std::fs::read_to_string(info.join("entry_points.txt"))
        .map(|t| {
            let mut in_scripts = false;
            let mut out = Vec::new();
            for l in t.lines() {
                let l = l.trim();
                if l.starts_with('[') {
                    in_scripts = l == "[console_scripts]";
                } else if in_scripts {
                    if let Some((n, _)) = l.split_once('=') {
                        let n = n.trim().to_string();
                        let p = env.join("bin").join(&n);
                        if p.is_file() {
                            out.push((n, p));
                        }
                    }
                }
            }
            out
        })
        .unwrap_or_default();
    Ok(Installed {
        spec: spec.shown(),
        name,
        version,
        digest,
        env,
        roots,
        scripts,
        modules,
        requires,
        python: true,
        log,
    })
}

fn install_npm(
    name: &str,
    version: Option<&str>,
    base: &Path,
    work: &Path,
    log: &mut Vec<String>,
) -> Result<Installed, String> {
    let req = match version {
        Some(v) => format!("{name}@{v}"),
        None => name.to_string(),
    };
    run(
        Command::new("npm")
            .args(["pack", "--silent", "--pack-destination"])
            .arg(work)
            .arg(&req),
        &format!("npm pack {req}"),
        log,
    )?;
    let tgz = only_file(work, ".tgz")?;
    let digest = digest_of(&tgz)?;
    let env = base.join(format!(
        "npm-{}",
        digest
            .trim_start_matches("sha256:")
            .chars()
            .take(24)
            .collect::<String>()
    ));
    let marker = env.join(".auditbook-installed");
    if !marker.is_file() {
        crate::write::remove_tree(&env)
            .map_err(|e| format!("cannot clear `{}`: {e}", env.display()))?;
        run(
            Command::new("npm")
                .args([
                    "install",
                    "--silent",
                    "--no-audit",
                    "--no-fund",
                    "--ignore-scripts",
                    "--prefix",
                ])
                .arg(&env)
                .arg(&tgz),
            "npm install --ignore-scripts",
            log,
        )?;
        crate::write::file(&marker, &digest)
            .map_err(|e| format!("cannot write `{}`: {e}", marker.display()))?;
    } else {
        log.push(format!("reused the environment of {digest}"));
    }
    let dir = env.join("node_modules").join(name);
    let pkg: serde_json::Value = std::fs::read_to_string(dir.join("package.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .ok_or("the installed package has no package.json")?;
    let text = |k: &str| {
        pkg.get(k)
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string()
    };
    let requires = pkg
        .get("dependencies")
        .and_then(|d| d.as_object())
        .map(|d| {
            d.iter()
                .map(|(k, v)| format!("{k} {}", v.as_str().unwrap_or("")))
                .collect()
        })
        .unwrap_or_default();
    let scripts = match pkg.get("bin") {
        Some(serde_json::Value::String(_)) => {
            let n = name.rsplit('/').next().unwrap_or(name).to_string();
            vec![(n.clone(), env.join("node_modules/.bin").join(n))]
        }
        Some(serde_json::Value::Object(m)) => m
            .keys()
            .map(|k| (k.clone(), env.join("node_modules/.bin").join(k)))
            .filter(|(_, p)| p.exists())
            .collect(),
        _ => Vec::new(),
    };
    Ok(Installed {
        spec: format!("npm:{req}"),
        name: text("name"),
        version: text("version"),
        digest,
        roots: vec![(dir, name.to_string())],
        env,
        scripts,
        modules: Vec::new(),
        requires,
        python: false,
        log: log.clone(),
    })
}

/// Whether each top-level module imports in the installed environment (sandboxed, bounded):
/// the root package first; after the first failure the rest are not tried.
pub fn imports(i: &Installed, policy: &Policy) -> Vec<(String, Result<(), String>)> {
    let mut out = Vec::new();
    if !i.python {
        return out;
    }
    let python = i.env.join("bin/python");
    for m in i
        .modules
        .iter()
        .filter(|m| m.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    {
        let argv = vec![
            python.display().to_string(),
            "-c".into(),
            format!("import {m}"),
        ];
        let result = match Launch::argv(&argv, policy) {
            Err(e) => Err(e),
            Ok(launch) => {
                let mut cmd = launch.std_command();
                match run_bounded(&mut cmd, Duration::from_secs(60)) {
                    Ok(()) => Ok(()),
                    Err(e) => Err(e),
                }
            }
        };
        let failed = result.is_err();
        out.push((m.clone(), result));
        if failed {
            break;
        }
    }
    out
}

fn run_bounded(cmd: &mut Command, limit: Duration) -> Result<(), String> {
    let mut child = cmd
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let start = std::time::Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let mut err = String::new();
                if let Some(mut e) = child.stderr.take() {
                    let _ = std::io::Read::read_to_string(&mut e, &mut err);
                }
                if status.success() {
                    return Ok(());
                }
                let tail: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
                let tail = tail
                    .iter()
                    .rev()
                    .take(4)
                    .rev()
                    .copied()
                    .collect::<Vec<_>>()
                    .join(" | ");
                return Err(untrusted::quote(&tail, 400));
            }
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                return Err(format!("no end within {} s", limit.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// Whether the installed version is the newest release on the configured index and not
/// yanked. `None` when the index cannot be asked: never "current" by silence.
pub fn current(i: &Installed) -> Option<Result<String, String>> {
    let mut log = Vec::new();
    if i.python {
        let py = i.env.join("bin/python");
        let index = run(
            Command::new(&py).args([
                "-m",
                "pip",
                "index",
                "versions",
                "--disable-pip-version-check",
                &i.name,
            ]),
            "pip index versions",
            &mut log,
        )
        .ok()?;
        let latest = index
            .lines()
            .find_map(|l| l.trim().strip_prefix("LATEST:"))
            .map(|v| v.trim().to_string())
            .or_else(|| {
                index
                    .lines()
                    .next()
                    .and_then(|l| l.split_once('('))
                    .map(|(_, v)| v.trim_end_matches(')').trim().to_string())
            })?;
        let report = run(
            Command::new(&py)
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--dry-run",
                    "--quiet",
                    "--ignore-installed",
                    "--no-deps",
                    "--disable-pip-version-check",
                    "--report",
                    "-",
                ])
                .arg(format!("{}=={}", i.name, i.version)),
            "pip install --dry-run --report",
            &mut log,
        )
        .ok();
        let yanked = report
            .and_then(|r| serde_json::from_str::<serde_json::Value>(&r).ok())
            .and_then(|v| {
                v.pointer("/install/0/is_yanked")
                    .and_then(serde_json::Value::as_bool)
            })
            .unwrap_or(false);
        Some(verdict(i, &latest, yanked))
    } else {
        let out = run(
            Command::new("npm").args([
                "view",
                "--json",
                &format!("{}@{}", i.name, i.version),
                "deprecated",
                "dist-tags.latest",
            ]),
            "npm view",
            &mut log,
        )
        .ok()?;
        let v: serde_json::Value = serde_json::from_str(&out).ok()?;
        let latest = v
            .get("dist-tags.latest")
            .and_then(|x| x.as_str())?
            .to_string();
        let deprecated = v.get("deprecated").and_then(|x| x.as_str()).is_some();
        Some(verdict(i, &latest, deprecated))
    }
}

fn verdict(i: &Installed, latest: &str, withdrawn: bool) -> Result<String, String> {
    if withdrawn {
        Err(format!(
            "{} {} is yanked (or deprecated) on the package index",
            i.name, i.version
        ))
    } else if latest != i.version {
        Err(format!(
            "{} {} is installed, but the package index's newest release is {latest}",
            i.name, i.version
        ))
    } else {
        Ok(format!(
            "{} {} is the newest release on the package index and is not yanked",
            i.name, i.version
        ))
    }
}

/// The facts of an installed package the scan's package rules read.
pub fn artifact(i: &Installed, policy: &Policy) -> Artifact {
    Artifact {
        name: i.name.clone(),
        version: i.version.clone(),
        imports: imports(i, policy),
        starts: None,
        current: current(i),
        user_agents: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_read_and_refused() {
        assert_eq!(
            Spec::parse("pypi:amtsblatt-mcp==0.23.0"),
            Ok(Spec::Pypi {
                name: "amtsblatt-mcp".into(),
                version: Some("0.23.0".into())
            })
        );
        assert_eq!(
            Spec::parse("npm:@modelcontextprotocol/server-everything@2026.8.31"),
            Ok(Spec::Npm {
                name: "@modelcontextprotocol/server-everything".into(),
                version: Some("2026.8.31".into())
            })
        );
        assert_eq!(
            Spec::parse("npm:left-pad"),
            Ok(Spec::Npm {
                name: "left-pad".into(),
                version: None
            })
        );
        assert!(Spec::parse("pypi:x; rm -rf /").is_err());
        assert!(Spec::parse("git+https://example.org/x").is_err());
    }
}
