//! The published artifact users install, as evidence: a package from PyPI or npm (or a wheel
//! file) is installed into a throwaway environment under the user's cache directory, from the
//! package index the machine's pip or npm is configured to use (auditbook names no index of
//! its own), and what was installed is read — name, version, the artifact's digest, the
//! declared dependencies, the console scripts, the top-level modules.
//!
//! Nothing of the package runs while it is installed: pip takes wheels only (`--only-binary
//! :all:`), npm runs with `--ignore-scripts`. What runs afterwards — the import check and the
//! server itself — runs in the sandbox (`sandbox`), bounded in time and memory.

use super::bounded_command::run;
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
    /// A source distribution (`.tar.gz`): unpacked and read, never built.
    Sdist(PathBuf),
    /// A source folder: read where it is.
    Folder(PathBuf),
}

impl Spec {
    /// `pypi:NAME[==VERSION]`, `npm:NAME[@VERSION]`, a `.whl` or `.tar.gz` file, or a folder.
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
        } else if s.ends_with(".tar.gz") {
            return Ok(Spec::Sdist(PathBuf::from(s)));
        } else if Path::new(s).is_dir() {
            return Ok(Spec::Folder(PathBuf::from(s)));
        }
        Err(format!(
            "`{}` names no package: write pypi:NAME[==VERSION], npm:NAME[@VERSION], a .whl or .tar.gz file, or a folder",
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
            Spec::Wheel(p) | Spec::Sdist(p) | Spec::Folder(p) => p.display().to_string(),
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
    /// Why the package was read but not installed (an sdist or a source folder: building one
    /// runs its build backend, which is the package's own code), when it was not.
    pub not_installed: Option<String>,
    /// What was run, one line each.
    pub log: Vec<String>,
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
        Spec::Sdist(p) => read_sdist(spec, p, &base, &mut log),
        Spec::Folder(p) => read_folder(spec, p, log),
    }
}

const NOT_BUILT: &str = "a source distribution or folder is read, not installed: building it runs its build backend, which is the package's own code; give a wheel or pypi:NAME for the facts of an installed package";

/// An sdist, unpacked (by `tar`, which keeps every member below the folder) under the cache,
/// keyed by its digest.
fn read_sdist(
    spec: &Spec,
    file: &Path,
    base: &Path,
    log: &mut Vec<String>,
) -> Result<Installed, String> {
    let digest = digest_of(file)?;
    let Keyed { dir, marker, done } = keyed(base, "sdist-", &digest, ".auditbook-unpacked")?;
    if !done {
        crate::write::dir(&dir).map_err(|e| format!("cannot make `{}`: {e}", dir.display()))?;
        run(
            Command::new("tar")
                .args(["-xzf"])
                .arg(file)
                .args(["--no-same-owner", "--no-same-permissions", "-C"])
                .arg(&dir),
            "tar -xzf (unpacked, not built)",
            log,
        )?;
        crate::write::file(&marker, &digest)
            .map_err(|e| format!("cannot write `{}`: {e}", marker.display()))?;
    }
    // An sdist holds one folder, NAME-VERSION.
    let mut inner: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    inner.sort();
    let root = match inner.as_slice() {
        [one] => one.clone(),
        _ => dir.clone(),
    };
    read_source(spec, &root, digest, log.clone())
}

fn read_folder(spec: &Spec, dir: &Path, log: Vec<String>) -> Result<Installed, String> {
    let tree = super::scan::tree::read(dir)
        .map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
    read_source(spec, dir, tree.digest, log)
}

/// Name, version and declared dependencies of a source tree, from its `PKG-INFO`,
/// `pyproject.toml` or `package.json`.
fn read_source(
    spec: &Spec,
    root: &Path,
    digest: String,
    log: Vec<String>,
) -> Result<Installed, String> {
    let read = |f: &str| std::fs::read_to_string(root.join(f)).ok();
    let (mut name, mut version, mut requires, mut python) =
        (String::new(), String::new(), Vec::new(), false);
    if let Some(info) = read("PKG-INFO") {
        python = true;
        let field = |k: &str| {
            info.lines()
                .find_map(|l| l.strip_prefix(&format!("{k}: ")))
                .unwrap_or("")
                .trim()
                .to_string()
        };
        name = field("Name");
        version = field("Version");
        requires = info
            .lines()
            .filter_map(|l| l.strip_prefix("Requires-Dist: "))
            .map(String::from)
            .collect();
    } else if let Some(t) = read("pyproject.toml") {
        python = true;
        if let Ok(v) = t.parse::<toml::Table>() {
            let project = v.get("project");
            let text = |k: &str| {
                project
                    .and_then(|p| p.get(k))
                    .and_then(|x| x.as_str())
                    .unwrap_or("")
                    .to_string()
            };
            name = text("name");
            version = text("version");
            requires = project
                .and_then(|p| p.get("dependencies"))
                .and_then(|d| d.as_array())
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str())
                        .map(String::from)
                        .collect()
                })
                .unwrap_or_default();
        }
    } else if let Some(t) = read("package.json") {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&t) {
            let text = |k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or("").to_string();
            name = text("name");
            version = text("version");
            requires = v
                .get("dependencies")
                .and_then(|d| d.as_object())
                .map(|d| {
                    d.iter()
                        .map(|(k, x)| format!("{k} {}", x.as_str().unwrap_or("")))
                        .collect()
                })
                .unwrap_or_default();
        }
    }
    if name.is_empty() {
        return Err(format!(
            "`{}` has no PKG-INFO, pyproject.toml with [project] or package.json naming the package",
            root.display()
        ));
    }
    Ok(Installed {
        spec: spec.shown(),
        name,
        version,
        digest,
        env: root.to_path_buf(),
        roots: vec![(root.to_path_buf(), String::new())],
        scripts: Vec::new(),
        modules: Vec::new(),
        requires,
        python,
        not_installed: Some(NOT_BUILT.into()),
        log,
    })
}

fn python() -> String {
    on_path("python3")
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "python3".into())
}

/// A folder under the cache made from one artifact, named by its digest.
struct Keyed {
    dir: PathBuf,
    /// Written last, once the folder is complete.
    marker: PathBuf,
    /// The marker is there: an earlier run finished this folder and it is reused.
    done: bool,
}

/// The folder `PREFIX<24 hex digits of digest>` under `base`. Without its marker it is what an
/// interrupted run left, and is cleared so the caller starts afresh.
fn keyed(base: &Path, prefix: &str, digest: &str, marker: &str) -> Result<Keyed, String> {
    let short: String = digest
        .trim_start_matches("sha256:")
        .chars()
        .take(24)
        .collect();
    let dir = base.join(format!("{prefix}{short}"));
    let marker = dir.join(marker);
    let done = marker.is_file();
    if !done {
        crate::write::remove_tree(&dir)
            .map_err(|e| format!("cannot clear `{}`: {e}", dir.display()))?;
    }
    Ok(Keyed { dir, marker, done })
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
        _ => return Err("not a Python package to install".into()),
    };
    let digest = digest_of(&wheel)?;
    let Keyed {
        dir: env,
        marker,
        done,
    } = keyed(base, "", &digest, ".auditbook-installed")?;
    if !done {
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
        not_installed: None,
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
    let Keyed {
        dir: env,
        marker,
        done,
    } = keyed(base, "npm-", &digest, ".auditbook-installed")?;
    if !done {
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
        not_installed: None,
        log: log.clone(),
    })
}

/// Whether each top-level module imports in the installed environment (sandboxed, bounded):
/// the root package first; after the first failure the rest are not tried.
pub fn imports(i: &Installed, policy: &Policy) -> Vec<(String, Result<(), String>)> {
    let mut out = Vec::new();
    if !i.python || i.not_installed.is_some() {
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
                // The exception is the traceback's last line.
                let last = err
                    .lines()
                    .rev()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or("");
                return Err(untrusted::quote(last.trim(), 400));
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
    if i.name.is_empty() || i.version.is_empty() {
        return None;
    }
    if i.python {
        // The environment's pip asks the index the machine's pip is configured for; an
        // unpacked source has no environment, so the machine's own pip asks.
        let (py, env) = match i.not_installed {
            None => (i.env.join("bin/python"), Some(i.env.as_path())),
            Some(_) => (PathBuf::from(python()), None),
        };
        // The index asked directly when pip's configuration names one index; pip itself
        // otherwise, or when that answer is not the Simple API.
        if let Some(index) = super::package_index::pip_index(&py, env) {
            if let Ok(s) = super::package_index::standing(&index, &i.name, &i.version) {
                return Some(verdict(i, &s.latest, s.yanked));
            }
        }
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
            Command::new("npm").args(["view", "--json", &format!("{}@{}", i.name, i.version)]),
            "npm view",
            &mut log,
        )
        .ok()?;
        // The version's manifest, with the package's dist-tags beside it.
        let v: serde_json::Value = serde_json::from_str(&out).ok()?;
        let latest = v
            .pointer("/dist-tags/latest")
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
    // The import and the index's answer are independent waits: taken side by side.
    let (imports, current) = std::thread::scope(|s| {
        let index = s.spawn(|| current(i));
        let imports = imports(i, policy);
        (imports, index.join().ok().flatten())
    });
    Artifact {
        imports,
        name: i.name.clone(),
        version: i.version.clone(),
        digest: i.digest.clone(),
        not_installed: i.not_installed.clone(),
        starts: None,
        current,
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
