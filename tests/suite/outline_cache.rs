//! Outlines kept between runs (`load::outline_cache`, `session::outline_store`): a warm run
//! prints the same bytes as a cold one and as a run without the cache; an edited body is never
//! answered from the cache; a damaged cache file, or something other than a regular file at
//! its path, is ignored and never followed or overwritten; nothing is written into the
//! catalogue.

use crate::common;

use common::{auditbook, tree, Fixture};
use std::path::Path;

const PROFILE: &str = "../examples/amtsblatt-readonly.profile.yaml";
const RESULTS: &str = "../examples/amtsblatt-readonly.results.yaml";

/// What each kind of reading prints: lint and verify outline whole bodies, audit sections.
fn commands() -> Vec<Vec<&'static str>> {
    vec![
        vec!["lint", "--verify", "--format", "json"],
        vec!["lint"],
        vec!["audit", PROFILE, "--results", RESULTS],
        vec!["show", "FID-006"],
    ]
}

/// Stdout and exit code of `args` on `fx`, with the cache in `cache` (or off when `None`).
fn run(fx: &Fixture, cache: Option<&Path>, args: &[&str]) -> (String, i32) {
    let mut c = auditbook();
    c.arg("-C").arg(".").current_dir(fx.root()).args(args);
    c.env_remove("AUDITBOOK_NO_CACHE");
    match cache {
        Some(dir) => c.env("AUDITBOOK_CACHE_DIR", dir),
        None => c.env("AUDITBOOK_NO_CACHE", "1"),
    };
    let out = c
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

/// Each cache file with its bytes and modification time: equal means not rewritten.
fn stamps(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>, std::time::SystemTime)> {
    cache_files(dir)
        .into_iter()
        .map(|p| {
            let m = std::fs::metadata(&p).unwrap().modified().unwrap();
            (p.clone(), std::fs::read(&p).unwrap(), m)
        })
        .collect()
}

fn cache_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// A shipped catalogue run once with `args` and the cache in a new directory: the fixture, the
/// cache directory, what a run without the cache prints, and the one cache file written.
fn cached_once(
    args: &[&str],
) -> (
    Fixture,
    tempfile::TempDir,
    (String, i32),
    std::path::PathBuf,
) {
    let fx = Fixture::shipped();
    let cache = tempfile::tempdir().unwrap();
    let expected = run(&fx, None, args);
    run(&fx, Some(cache.path()), args);
    let files = cache_files(cache.path());
    assert_eq!(files.len(), 1, "{files:?}");
    let file = files[0].clone();
    (fx, cache, expected, file)
}

#[test]
fn warm_runs_print_what_cold_runs_and_uncached_runs_print() {
    let fx = Fixture::shipped();
    let cache = tempfile::tempdir().unwrap();
    let before = tree(fx.dir.path());
    let mut expected = Vec::new();
    for args in commands() {
        let uncached = run(&fx, None, &args);
        assert_eq!(
            run(&fx, Some(cache.path()), &args),
            uncached,
            "{args:?}: cold"
        );
        expected.push(uncached);
    }
    let written = stamps(cache.path());
    for (args, uncached) in commands().iter().zip(&expected) {
        assert_eq!(
            &run(&fx, Some(cache.path()), args),
            uncached,
            "{args:?}: warm"
        );
    }
    // Every outline came from the cache: a miss would have rewritten a file.
    assert_eq!(stamps(cache.path()), written, "warm runs computed nothing");
    // One file per kind of reading, in the cache directory only.
    let names: Vec<String> = cache_files(cache.path())
        .iter()
        .map(|p| p.extension().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.contains(&"outline".to_string()) && names.contains(&"sections".to_string()));
    assert_eq!(
        tree(fx.dir.path()),
        before,
        "nothing written into the catalogue"
    );
}

#[test]
fn an_edited_body_is_outlined_again() {
    let fx = Fixture::shipped();
    let cache = tempfile::tempdir().unwrap();
    let args = ["lint", "--format", "json"];
    let clean = run(&fx, Some(cache.path()), &args);
    assert_eq!(run(&fx, Some(cache.path()), &args), clean);
    // A link to a check that does not exist, added to a body the cache has seen.
    let file = "checks/FID-006.md";
    let text = fx.read(file);
    fx.write(
        file,
        &format!("{text}\nSee also [the old one](FID-999.md).\n"),
    );
    let edited = run(&fx, Some(cache.path()), &args);
    assert_ne!(edited, clean, "the new dead link is found");
    assert!(edited.0.contains("FID-999"), "{}", edited.0);
    assert_eq!(edited, run(&fx, None, &args));
    // And back: the old text is answered as before.
    fx.write(file, &text);
    assert_eq!(run(&fx, Some(cache.path()), &args), clean);
}

#[test]
fn a_damaged_cache_file_is_ignored_and_rewritten() {
    let args = ["lint", "--verify", "--format", "json"];
    let (fx, cache, expected, file) = cached_once(&args);
    let good = std::fs::read(&file).unwrap();
    let mut flipped = good.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x55;
    for damaged in [
        flipped,
        good[..good.len() / 3].to_vec(),
        b"ABOUTL01 not an outline".to_vec(),
        Vec::new(),
    ] {
        std::fs::write(&file, &damaged).unwrap();
        assert_eq!(run(&fx, Some(cache.path()), &args), expected);
        assert_eq!(
            std::fs::read(&file).unwrap(),
            good,
            "the damaged file is replaced by an intact one"
        );
    }
}

#[test]
fn what_is_not_a_regular_file_at_the_cache_path_is_left_alone() {
    let args = ["lint", "--format", "json"];
    let (fx, cache, expected, path) = cached_once(&args);

    // A symlink to another file: neither read as the cache nor written through.
    let victim = cache.path().join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink(&victim, &path).unwrap();
    assert_eq!(run(&fx, Some(cache.path()), &args), expected);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert!(std::fs::symlink_metadata(&path)
        .unwrap()
        .file_type()
        .is_symlink());

    // A FIFO: never opened (the run would block on it), never replaced.
    std::fs::remove_file(&path).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .expect("mkfifo is needed for this test");
    assert!(status.success());
    assert_eq!(run(&fx, Some(cache.path()), &args), expected);
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&path)
        .unwrap()
        .file_type()
        .is_fifo());

    // A directory.
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    assert_eq!(run(&fx, Some(cache.path()), &args), expected);
    assert!(path.is_dir());
}

#[test]
fn the_cache_can_be_turned_off() {
    let fx = Fixture::shipped();
    let cache = tempfile::tempdir().unwrap();
    let mut c = auditbook();
    c.arg("-C")
        .arg(".")
        .current_dir(fx.root())
        .args(["lint", "-q"])
        .env("AUDITBOOK_CACHE_DIR", cache.path())
        .env("AUDITBOOK_NO_CACHE", "1");
    c.assert().success();
    assert!(cache_files(cache.path()).is_empty(), "nothing written");
}

#[test]
fn a_german_compatibility_catalogue_warm_and_cold() {
    let fx = Fixture::new("compat-de");
    let cache = tempfile::tempdir().unwrap();
    for args in [vec!["lint", "--format", "json"], vec!["lint", "--verify"]] {
        let uncached = run(&fx, None, &args);
        assert_eq!(run(&fx, Some(cache.path()), &args), uncached, "{args:?}");
        assert_eq!(run(&fx, Some(cache.path()), &args), uncached, "{args:?}");
    }
}

/// A cache folder that others may write (made so by someone else, or named by
/// `AUDITBOOK_CACHE_DIR`) could be handed forged outlines: it is neither read nor written,
/// and the run prints what a run without the cache prints. The folder auditbook creates itself
/// is private (`0700`).
#[test]
fn a_cache_folder_others_can_write_is_not_used() {
    use std::os::unix::fs::PermissionsExt;
    let args = ["lint", "--format", "json"];
    let fx = Fixture::shipped();
    let expected = run(&fx, None, &args);
    for mode in [0o777, 0o770, 0o1777] {
        let parent = tempfile::tempdir().unwrap();
        let cache = parent.path().join("shared");
        std::fs::create_dir(&cache).unwrap();
        std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(mode)).unwrap();
        assert_eq!(run(&fx, Some(&cache), &args), expected, "{mode:o}");
        assert!(cache_files(&cache).is_empty(), "{mode:o}: nothing written");
    }
    // The twin: a folder auditbook makes is its user's alone, and used.
    let parent = tempfile::tempdir().unwrap();
    let made = parent.path().join("made/here");
    assert_eq!(run(&fx, Some(&made), &args), expected);
    assert_eq!(cache_files(&made).len(), 1);
    let mode = std::fs::metadata(&made).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o700, "{mode:o}");
}

/// A cache file others may write, or one another user owns, is not read: the run outlines
/// everything as if there were none and puts its own private file in its place.
#[test]
fn a_cache_file_others_can_write_or_own_is_not_read() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let args = ["lint", "--verify", "--format", "json"];
    let (fx, cache, expected, file) = cached_once(&args);
    let own = std::fs::metadata(&file).unwrap();
    assert_eq!(own.mode() & 0o777, 0o600);
    // The twin first: the private file is read, not replaced.
    assert_eq!(run(&fx, Some(cache.path()), &args), expected);
    assert_eq!(std::fs::metadata(&file).unwrap().ino(), own.ino());

    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666)).unwrap();
    let before = std::fs::metadata(&file).unwrap().ino();
    assert_eq!(run(&fx, Some(cache.path()), &args), expected);
    let after = std::fs::metadata(&file).unwrap();
    assert_ne!(after.ino(), before, "a file others can write is replaced");
    assert_eq!(after.mode() & 0o777, 0o600);

    // Another user's file (only root can make one).
    if std::os::unix::fs::chown(&file, Some(4321), Some(4321)).is_ok() {
        let before = std::fs::metadata(&file).unwrap().ino();
        assert_eq!(run(&fx, Some(cache.path()), &args), expected);
        let after = std::fs::metadata(&file).unwrap();
        assert_ne!(after.ino(), before, "another user's file is replaced");
        assert_eq!(after.uid(), own.uid());
    }
}
