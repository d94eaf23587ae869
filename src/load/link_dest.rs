//! Where a link destination leads, resolved against the file it is written in (catalogue
//! format, section 10). One resolver for every form an author writes — `checks/FID-006.md`,
//! `FID-006.md` beside the check, `./FID-006.md`, `../checks/FID-006.md#pass-criteria`, a
//! reference-style definition, an autolink, or an absolute URL under a configured base — so
//! loading (which check a link names) and linting (does the file exist, does the fragment
//! name a heading) can never disagree.

use std::borrow::Cow;

/// A link destination, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dest<'a> {
    /// Somewhere the engine does not check: a URL outside every configured base, `mailto:`,
    /// a root-absolute path (`/x`, whose meaning depends on the host).
    External,
    /// `#fragment` alone: a heading in the same file.
    SameFile { fragment: Cow<'a, str> },
    /// A file, as a lexical path relative to the catalogue root (it may start with `..` when
    /// it lies above the root), and the fragment, if one is written.
    Local {
        path: String,
        fragment: Option<Cow<'a, str>>,
    },
}

/// Resolve `dest`, written in the file `file` (a path relative to the catalogue root), with
/// `bases` the URLs under which the catalogue root is published.
pub fn resolve<'a>(dest: &'a str, file: &str, bases: &[String]) -> Dest<'a> {
    let dest = dest.trim();
    if let Some(fragment) = dest.strip_prefix('#') {
        return Dest::SameFile {
            fragment: percent_decode(fragment),
        };
    }
    if has_scheme(dest) || dest.starts_with("//") {
        return match bases.iter().find_map(|b| under_base(dest, b)) {
            Some(rest) => local(rest, ""),
            None => Dest::External,
        };
    }
    if dest.starts_with('/') || dest.is_empty() {
        return Dest::External;
    }
    let dir = file.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
    local(dest, dir)
}

/// `dest` (relative, with an optional `?query` and `#fragment`) against the directory `dir`.
fn local<'a>(dest: &'a str, dir: &str) -> Dest<'a> {
    let (path, fragment) = match dest.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (dest, None),
    };
    let path = path.split('?').next().unwrap_or(path);
    let fragment = fragment.filter(|f| !f.is_empty()).map(percent_decode);
    if path.is_empty() {
        // `?x#y` or `#y` after a base: the file itself is not named.
        return match fragment {
            Some(f) if dir.is_empty() => Dest::Local {
                path: String::new(),
                fragment: Some(f),
            },
            _ => Dest::External,
        };
    }
    let decoded = percent_decode(path);
    Dest::Local {
        path: lexical(dir, &decoded),
        fragment,
    }
}

/// The rest of `url` after `base`, if `url` lies under it. A base names a directory, so
/// `…/main` and `…/main/` mean the same.
fn under_base<'u>(url: &'u str, base: &str) -> Option<&'u str> {
    let base = base.trim_end_matches('/');
    if base.is_empty() {
        return None;
    }
    let rest = url.strip_prefix(base)?;
    let rest = rest.strip_prefix('/')?;
    Some(rest)
}

/// `scheme:` as RFC 3986 spells it (`https:`, `mailto:`); a Windows drive letter is not one,
/// but catalogues are written with `/` anyway.
fn has_scheme(s: &str) -> bool {
    let Some((scheme, _)) = s.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !scheme.contains('/')
}

/// `dir/path` with `.` and `..` resolved without touching the file system (the target may not
/// exist). `..` above the root is kept, so a path outside the root stays recognisable.
pub fn lexical(dir: &str, path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for seg in dir.split('/').chain(path.split('/')) {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else {
                    parts.push("..");
                }
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

/// `%20` → ` `; an invalid escape is kept as written (a file name may hold a `%`).
pub fn percent_decode(s: &str) -> Cow<'_, str> {
    if !s.contains('%') {
        return Cow::Borrowed(s);
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes.get(i), bytes.get(i + 1), bytes.get(i + 2)) {
            (Some(b'%'), Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                let v = hex(h).unwrap_or(0) * 16 + hex(l).unwrap_or(0);
                out.push(u8::try_from(v).unwrap_or(b'?'));
                i += 3;
            }
            (Some(&b), _, _) => {
                out.push(b);
                i += 1;
            }
            _ => break,
        }
    }
    match String::from_utf8(out) {
        Ok(s) => Cow::Owned(s),
        Err(_) => Cow::Borrowed(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(d: Dest<'_>) -> (String, Option<String>) {
        match d {
            Dest::Local { path, fragment } => (path, fragment.map(|f| f.into_owned())),
            other => panic!("not local: {other:?}"),
        }
    }

    const BASES: &[&str] = &["https://github.com/o/r/blob/main/"];

    fn bases() -> Vec<String> {
        BASES.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn every_relative_form_resolves_against_the_file() {
        let b = bases();
        let f = "checks/SEC-028.md";
        for (dest, want) in [
            ("FID-006.md", "checks/FID-006.md"),
            ("./FID-006.md", "checks/FID-006.md"),
            ("../checks/FID-006.md", "checks/FID-006.md"),
            ("checks/FID-006.md", "checks/checks/FID-006.md"),
            ("../docs/x%20y.md", "docs/x y.md"),
            ("../../outside.md", "../outside.md"),
        ] {
            assert_eq!(path(resolve(dest, f, &b)).0, want, "{dest}");
        }
        assert_eq!(
            path(resolve("checks/FID-006.md", "README.md", &b)).0,
            "checks/FID-006.md"
        );
        assert_eq!(
            path(resolve("FID-006.md#pass-criteria", f, &b)),
            ("checks/FID-006.md".into(), Some("pass-criteria".into()))
        );
        assert_eq!(
            path(resolve("FID-006.md?plain=1#x", f, &b)),
            ("checks/FID-006.md".into(), Some("x".into()))
        );
    }

    #[test]
    fn urls_resolve_only_under_a_base() {
        let b = bases();
        assert_eq!(
            path(resolve(
                "https://github.com/o/r/blob/main/checks/FID-006.md#effort",
                "checks/A.md",
                &b
            )),
            ("checks/FID-006.md".into(), Some("effort".into()))
        );
        for dest in [
            "https://github.com/o/other/blob/main/checks/FID-006.md",
            "https://github.com/o/r/blob/mainline/x.md",
            "mailto:a@b.ch",
            "/checks/FID-006.md",
            "//cdn.example/x.md",
        ] {
            assert_eq!(resolve(dest, "README.md", &b), Dest::External, "{dest}");
        }
        assert_eq!(
            resolve("#wer-prüft", "README.md", &b),
            Dest::SameFile {
                fragment: "wer-prüft".into()
            }
        );
    }

    #[test]
    fn decoding_keeps_invalid_escapes() {
        assert_eq!(percent_decode("a%2"), "a%2");
        assert_eq!(percent_decode("%C3%BC"), "ü");
        assert_eq!(percent_decode("100%zz"), "100%zz");
    }

    proptest::proptest! {
        #[test]
        fn any_destination_resolves_without_panic(dest in "[a-zA-Z0-9./#?%: _-]{0,40}", file in "[a-z./]{0,20}") {
            let b = bases();
            if let Dest::Local { path, .. } = resolve(&dest, &file, &b) {
                // Normal form: no empty, `.` or inner `..` segments.
                let segs: Vec<&str> = path.split('/').collect();
                let first_real = segs.iter().position(|s| *s != "..").unwrap_or(segs.len());
                proptest::prop_assert!(path.is_empty() || segs[first_real..].iter().all(|s| !s.is_empty() && *s != "." && *s != ".."), "{path}");
            }
        }

        #[test]
        fn slugs_never_panic(h in "\\PC{0,40}") {
            let s = crate::load::anchors::slug(&h);
            proptest::prop_assert!(!s.contains(' '));
        }
    }
}
