//! Every server auditbook starts is someone else's code. It runs in a sandbox where one is
//! available (bubblewrap, Debian package `bubblewrap`): the whole file system read-only but
//! for a throwaway folder that is its home, cache and temporary directory; no network but its
//! own loopback; its own process, IPC and host-name namespaces; killed with auditbook. Beside
//! the sandbox (and without one) its address space is bounded, and the process runs in a group
//! of its own that the probe kills when it is done.
//!
//! `auto` sandboxes when bubblewrap is there and says when it is not; `require` refuses to start
//! a server without it; `off` starts it as it is (still bounded in memory and time).

use super::catch::Catch;
use serde::Serialize;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Auto,
    Require,
    Off,
}

/// The address-space bound when none is given: enough for Node.js (whose engine reserves
/// about 2 GiB of address space at start) and Python servers, small enough that a runaway
/// server fails instead of the machine.
pub const MEMORY_BYTES: u64 = 4 << 30;

/// How servers are started.
#[derive(Clone, Debug)]
pub struct Policy {
    pub mode: Mode,
    pub memory_bytes: u64,
    /// Extra environment for the server (e.g. `HTTP_PROXY` pointing at a catcher).
    pub env: Vec<(String, String)>,
    /// Where bubblewrap is looked for (tests point it elsewhere).
    pub bwrap: Option<PathBuf>,
    /// A loopback proxy to start beside the server, inside its sandbox (so the server can
    /// reach it): what it catches goes to `catch`'s file, and the server's `HTTP_PROXY` and
    /// `HTTPS_PROXY` point at it.
    pub catch: Option<Catch>,
    /// Folders the server must see that may lie under the sandbox's fresh `/tmp` or `/run`
    /// (an installed package's environment), bound read-only.
    pub visible: Vec<PathBuf>,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            mode: Mode::Auto,
            memory_bytes: MEMORY_BYTES,
            env: Vec::new(),
            bwrap: None,
            catch: None,
            visible: Vec::new(),
        }
    }
}

/// Whether a started server was sandboxed, and why not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Used {
    pub sandboxed: bool,
    /// One line for the report: how the server ran.
    pub how: String,
}

/// A prepared start: the command line and its environment, with the folder it may write.
pub struct Launch {
    argv: Vec<String>,
    env: Vec<(String, String)>,
    memory_bytes: u64,
    pub used: Used,
    // Removed when the launch is dropped, after the server is gone.
    _scratch: tempfile::TempDir,
}

fn find_bwrap(policy: &Policy) -> Option<PathBuf> {
    if let Some(p) = &policy.bwrap {
        return p.is_file().then(|| p.clone());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin")])
        .map(|d| d.join("bwrap"))
        .find(|p| p.is_file())
}

/// The folders directly under `/tmp` that the command names (its program or script may live
/// there, e.g. a checkout in `/tmp`): the sandbox's fresh `/tmp` would hide them, so they are
/// bound again, read-only.
fn under_tmp(argv: &[String]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for arg in argv {
        for token in arg.split(|c: char| c.is_whitespace() || c == '\'' || c == '"' || c == '=') {
            let Some(rest) = token.strip_prefix("/tmp/") else {
                continue;
            };
            let Some(top) = rest
                .split('/')
                .next()
                .filter(|t| !t.is_empty() && *t != "." && *t != "..")
            else {
                continue;
            };
            let dir = Path::new("/tmp").join(top);
            if dir.is_dir() && !out.contains(&dir) {
                out.push(dir);
            }
        }
    }
    out
}

fn bwrap_args(
    bwrap: &Path,
    scratch: &Path,
    visible: &[PathBuf],
    writable: &[PathBuf],
) -> Vec<String> {
    let s = scratch.display().to_string();
    let mut a: Vec<String> = vec![bwrap.display().to_string()];
    a.extend(
        [
            "--die-with-parent",
            "--unshare-all",
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--proc",
            "/proc",
            "--tmpfs",
            "/tmp",
            "--tmpfs",
            "/run",
        ]
        .map(String::from),
    );
    // The command runs where auditbook was started, read-only (bound again, as it may lie
    // under the fresh /tmp), so a relative `python3 server.py` finds its file.
    let cwd = std::env::current_dir()
        .ok()
        .map(|c| c.display().to_string());
    if let Some(c) = &cwd {
        a.extend(["--ro-bind".to_string(), c.clone(), c.clone()]);
    }
    for v in visible {
        let v = v.display().to_string();
        a.extend(["--ro-bind".to_string(), v.clone(), v]);
    }
    a.extend(["--bind".to_string(), s.clone(), s]);
    for w in writable {
        let w = w.display().to_string();
        a.extend(["--bind".to_string(), w.clone(), w]);
    }
    if let Some(c) = cwd {
        a.extend(["--chdir".to_string(), c]);
    }
    a.push("--".to_string());
    a
}

impl Launch {
    /// Prepare `sh -c CMD` under `policy`. `Err` when the policy requires a sandbox and none
    /// can be had, or the scratch folder cannot be made.
    pub fn shell(cmd: &str, policy: &Policy) -> Result<Launch, String> {
        let cmd = match &policy.catch {
            None => cmd.to_string(),
            Some(c) => {
                let me = std::env::current_exe().map_err(|e| {
                    format!("cannot find auditbook's own program for the catching proxy: {e}")
                })?;
                // The proxy starts first, in the same process group (killed with the server);
                // the server starts once the proxy has written its authority's certificate,
                // which it does when it listens (at most 5 s later).
                format!(
                    "'{}' catch-proxy --port {} --out '{}' & i=0; while [ ! -s '{}' ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done; {cmd}",
                    me.display(),
                    c.port,
                    c.file.display(),
                    super::catch::authority_file(&c.file).display()
                )
            }
        };
        Launch::argv(&["sh".to_string(), "-c".to_string(), cmd], policy)
    }

    /// Prepare a program with its arguments under `policy`.
    pub fn argv(argv: &[String], policy: &Policy) -> Result<Launch, String> {
        let scratch = tempfile::Builder::new()
            .prefix("auditbook-server-")
            .tempdir()
            .map_err(|e| format!("cannot make the server's scratch folder: {e}"))?;
        let dir = scratch.path().to_path_buf();
        for sub in ["home", "cache", "tmp"] {
            crate::write::dir(&dir.join(sub))
                .map_err(|e| format!("cannot make the server's scratch folder: {e}"))?;
        }
        let mut env = vec![
            ("HOME".to_string(), dir.join("home").display().to_string()),
            (
                "XDG_CACHE_HOME".to_string(),
                dir.join("cache").display().to_string(),
            ),
            ("TMPDIR".to_string(), dir.join("tmp").display().to_string()),
        ];
        env.extend(policy.env.iter().cloned());
        if let Some(c) = &policy.catch {
            env.extend(super::catch::environment(c.port, &c.file));
        }
        let (full, used) = match (policy.mode, find_bwrap(policy)) {
            (Mode::Off, _) => (
                argv.to_vec(),
                Used {
                    sandboxed: false,
                    how: "not sandboxed (--sandbox off)".into(),
                },
            ),
            (_, Some(b)) => {
                let writable: Vec<PathBuf> = policy
                    .catch
                    .iter()
                    .filter_map(|c| c.file.parent().map(Path::to_path_buf))
                    .collect();
                let mut visible = policy.visible.clone();
                visible.extend(under_tmp(argv));
                let mut a = bwrap_args(&b, &dir, &visible, &writable);
                a.extend(argv.iter().cloned());
                (
                    a,
                    Used {
                        sandboxed: true,
                        how: "sandboxed (bubblewrap: read-only file system but a scratch folder, loopback only)".into(),
                    },
                )
            }
            (Mode::Require, None) => {
                return Err(
                    "--sandbox require: bubblewrap (`bwrap`) is not installed, so the server is not started; install Debian's package `bubblewrap`".into(),
                )
            }
            (Mode::Auto, None) => (
                argv.to_vec(),
                Used {
                    sandboxed: false,
                    how: "not sandboxed: bubblewrap (`bwrap`) is not installed".into(),
                },
            ),
        };
        Ok(Launch {
            argv: full,
            env,
            memory_bytes: policy.memory_bytes,
            used,
            _scratch: scratch,
        })
    }

    /// The same command for a caller without a runtime.
    pub fn std_command(&self) -> std::process::Command {
        use std::os::unix::process::CommandExt;
        let mut c = std::process::Command::new(&self.argv[0]);
        c.args(&self.argv[1..]);
        for (k, v) in &self.env {
            c.env(k, v);
        }
        c.process_group(0);
        let limit = self.memory_bytes;
        // SAFETY: setrlimit is async-signal-safe and touches only the child being started.
        unsafe {
            c.pre_exec(move || limit_memory(limit));
        }
        c
    }

    /// The command to spawn: its own process group, the memory bound set before exec.
    pub fn command(&self) -> tokio::process::Command {
        let mut c = tokio::process::Command::new(&self.argv[0]);
        c.args(&self.argv[1..]);
        for (k, v) in &self.env {
            c.env(k, v);
        }
        c.process_group(0);
        let limit = self.memory_bytes;
        // SAFETY: setrlimit is async-signal-safe and touches only the child being started.
        unsafe {
            c.pre_exec(move || limit_memory(limit));
        }
        c
    }
}

/// Bound the address space of the process about to exec (called between fork and exec).
fn limit_memory(limit: u64) -> std::io::Result<()> {
    let l = libc::rlimit {
        rlim_cur: limit as libc::rlim_t,
        rlim_max: limit as libc::rlim_t,
    };
    // SAFETY: setrlimit only reads the struct passed; it is async-signal-safe.
    if unsafe { libc::setrlimit(libc::RLIMIT_AS, &l) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {

    #[test]
    fn folders_under_tmp_that_the_command_names_are_bound_again() {
        let dir = tempfile::tempdir_in("/tmp").unwrap();
        let top = dir.path().to_path_buf();
        let script = top.join("server.py");
        let cmd = format!("python3 '{}' --out={}/x", script.display(), top.display());
        let got = under_tmp(&["sh".into(), "-c".into(), cmd]);
        assert_eq!(got, vec![top.clone()]);
        // Not /tmp itself, however it is written, and nothing that does not exist.
        let none = under_tmp(&[
            "/tmp/./x".into(),
            "/tmp/../etc".into(),
            "/tmp/no-such-folder-x/y".into(),
        ]);
        assert!(none.is_empty(), "{none:?}");
    }

    use super::*;

    #[test]
    fn require_without_bubblewrap_refuses_and_auto_says_so() {
        let missing = Policy {
            mode: Mode::Require,
            bwrap: Some(PathBuf::from("/nonexistent/bwrap")),
            ..Policy::default()
        };
        assert!(Launch::shell("true", &missing).is_err());
        let auto = Policy {
            mode: Mode::Auto,
            ..missing
        };
        let l = Launch::shell("true", &auto).unwrap_or_else(|e| panic!("{e}"));
        assert!(!l.used.sandboxed);
        assert!(l.used.how.contains("not installed"));
    }
}
