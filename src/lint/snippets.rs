//! Code in a check body that looks like verification and verifies nothing: a `grep` pattern
//! with a backslash escape grep does not interpret (`["\x27]` never matches a single quote,
//! `\d` matches the letter `d`), and an assertion no answer can fail (`assert len(hits) >= 0`).
//! Both are read from the body's fenced code blocks and inline code. The Common Failures
//! section shows wrong code on purpose, so its code is not judged.
//!
//! A lean load has released the check's text; it is read again, as a finding's source line
//! is, and a file that changed since loading is left to the next run.

use crate::diag::{codes, Diagnostic};
use crate::model::{Catalogue, Check, CheckText};

/// The section whose code shows what is wrong on purpose.
const ANTI_PATTERNS: &str = "Common Failures";

pub fn one(cat: &Catalogue, c: &Check) -> Vec<Diagnostic> {
    let read_again;
    let text: &str = match &c.source {
        CheckText::Held(t) => t,
        // The file again, if it still holds the text that was loaded; a check read from a
        // snapshot matches no file, and a file changed since loading is judged by the next run.
        CheckText::Released(stamp) => {
            match crate::load::text::read(&cat.root, &cat.root.join(c.file.as_str())) {
                Ok(t) if stamp.matches(&t.text) => {
                    read_again = t.text;
                    &read_again
                }
                _ => return Vec::new(),
            }
        }
    };
    let Some(body) = text.get(c.body_start..) else {
        return Vec::new();
    };
    let skipped = c.section(ANTI_PATTERNS).map(|s| s.content());
    let mut out = Vec::new();
    for s in snippets(body) {
        if skipped.as_ref().is_some_and(|r| r.contains(&s.start)) {
            continue;
        }
        let mut found: Vec<Found> = Vec::new();
        if s.shell {
            found.extend(stray_escapes(s.code));
        }
        found.extend(unfailable_assertions(s.code));
        for f in found {
            let (line, column) = place(body, s.start + f.at);
            out.push(
                Diagnostic::new(f.code, f.message)
                    .file(c.file.clone())
                    .at(c.body_line + line, column)
                    .width(f.width)
                    .id(c.id.clone()),
            );
        }
    }
    out
}

/// A finding inside one snippet: where (byte offset in the snippet), how wide, what.
struct Found {
    code: &'static crate::diag::Code,
    at: usize,
    width: usize,
    message: String,
}

/// 0-based line and 1-based character column of a byte offset in `text`.
fn place(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before.get(line_start..).map_or(0, |s| s.chars().count()) + 1;
    (line, column)
}

// ---------------------------------------------------------------------------------------
// Snippets: fenced code blocks and inline code spans.

/// One piece of code in a body.
#[derive(Debug, PartialEq)]
struct Snippet<'t> {
    code: &'t str,
    /// Byte offset of `code` in the body.
    start: usize,
    /// Whether the code is read as shell: inline code, and blocks whose info string names a
    /// shell, a file format whose values are commands (YAML workflows, Dockerfiles), or none.
    shell: bool,
}

/// The snippets of `body` that may hold a finding: the fenced blocks and the code spans of the
/// paragraphs that name `grep` or an assertion. They are found from those words outward, so a
/// body's other lines are never looked at one by one (most bodies are mostly prose).
fn snippets(body: &str) -> Vec<Snippet<'_>> {
    let mut hits: Vec<usize> = ["grep", "assert", "expect("]
        .iter()
        .flat_map(|w| memchr::memmem::find_iter(body.as_bytes(), w.as_bytes()))
        .collect();
    if hits.is_empty() {
        return Vec::new();
    }
    hits.sort_unstable();
    let fences = fences(body);
    let mut out = Vec::new();
    // Everything before `done` is judged already.
    let mut done = 0;
    for hit in hits {
        if hit < done {
            continue;
        }
        match fences.iter().find(|f| f.start <= hit && hit < f.end) {
            Some(f) => {
                out.push(Snippet {
                    code: body.get(f.content.clone()).unwrap_or(""),
                    start: f.content.start,
                    shell: f.shell,
                });
                done = f.end;
            }
            None => {
                let (from, to) = paragraph_around(body, hit, &fences);
                out.extend(inline_spans(body, from, to));
                done = to;
            }
        }
    }
    out
}

/// A fenced code block: from its opening line to the end of its closing line (or of the text,
/// when it is never closed, as in CommonMark), its content between the two.
struct Fence {
    start: usize,
    end: usize,
    content: std::ops::Range<usize>,
    shell: bool,
}

fn fences(body: &str) -> Vec<Fence> {
    let mut out = Vec::new();
    // An open fence: its character, its length, where it starts, where its content starts.
    let mut open: Option<(char, usize, usize, usize, bool)> = None;
    for (at, line) in fence_lines(body) {
        let trimmed = line.trim_start_matches([' ', '\t']);
        match open {
            Some((ch, len, start, content, shell)) => {
                if closes_fence(trimmed, ch, len) {
                    out.push(Fence {
                        start,
                        end: at + line.len(),
                        content: content..at,
                        shell,
                    });
                    open = None;
                }
            }
            None => {
                if let Some((ch, len, info)) = opens_fence(trimmed) {
                    open = Some((ch, len, at, at + line.len(), shell_info(info)));
                }
            }
        }
    }
    if let Some((_, _, start, content, shell)) = open {
        out.push(Fence {
            start,
            end: body.len(),
            content: content..body.len(),
            shell,
        });
    }
    out
}

/// The lines that begin (after blanks) with three backticks or tildes, in order, each with
/// its start: the only lines that can open or close a fence.
fn fence_lines(body: &str) -> Vec<(usize, &str)> {
    let mut starts: Vec<usize> = ["```", "~~~"]
        .iter()
        .flat_map(|f| memchr::memmem::find_iter(body.as_bytes(), f.as_bytes()))
        .filter_map(|at| {
            let line = line_start(body, at);
            body.get(line..at)
                .filter(|lead| lead.bytes().all(|b| b == b' ' || b == b'\t'))
                .map(|_| line)
        })
        .collect();
    starts.sort_unstable();
    starts.dedup();
    starts
        .into_iter()
        .map(|at| (at, body.get(at..line_end(body, at)).unwrap_or("")))
        .collect()
}

/// The paragraph holding byte `at`: the lines around it up to a blank line or a fence.
fn paragraph_around(body: &str, at: usize, fences: &[Fence]) -> (usize, usize) {
    let blank = |from: usize, to: usize| body.get(from..to).is_none_or(|l| l.trim().is_empty());
    let mut from = line_start(body, at);
    while from > 0 && !fences.iter().any(|f| f.end == from) {
        let prev = line_start(body, from - 1);
        if blank(prev, from) {
            break;
        }
        from = prev;
    }
    let mut to = line_end(body, at);
    while to < body.len() && !fences.iter().any(|f| f.start == to) {
        let next = line_end(body, to);
        if blank(to, next) {
            break;
        }
        to = next;
    }
    (from, to)
}

/// Where the line holding byte `at` starts.
fn line_start(body: &str, at: usize) -> usize {
    memchr::memrchr(b'\n', &body.as_bytes()[..at.min(body.len())]).map_or(0, |i| i + 1)
}

/// Where the line holding byte `at` ends, its line break included.
fn line_end(body: &str, at: usize) -> usize {
    let at = at.min(body.len());
    memchr::memchr(b'\n', &body.as_bytes()[at..]).map_or(body.len(), |i| at + i + 1)
}

/// A fence opening: three or more backticks or tildes, and the info string after them.
fn opens_fence(line: &str) -> Option<(char, usize, &str)> {
    let ch = line.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let len = line.chars().take_while(|c| *c == ch).count();
    let info = line.get(len..).unwrap_or("").trim();
    (len >= 3 && !(ch == '`' && info.contains('`'))).then_some((ch, len, info))
}

fn closes_fence(line: &str, ch: char, len: usize) -> bool {
    let run = line.chars().take_while(|c| *c == ch).count();
    run >= len && line.get(run..).is_some_and(|rest| rest.trim().is_empty())
}

fn shell_info(info: &str) -> bool {
    let lang = info.split_whitespace().next().unwrap_or("");
    matches!(
        lang.to_ascii_lowercase().as_str(),
        "" | "sh"
            | "bash"
            | "shell"
            | "zsh"
            | "console"
            | "shell-session"
            | "yaml"
            | "yml"
            | "dockerfile"
    )
}

/// The code spans of the paragraph `body[from..to]`: a run of backticks up to the next run of
/// the same length (line breaks inside allowed, as in CommonMark).
fn inline_spans(body: &str, from: usize, to: usize) -> Vec<Snippet<'_>> {
    let mut out = Vec::new();
    let Some(text) = body.get(from..to) else {
        return out;
    };
    let bytes = text.as_bytes();
    let run_at = |i: usize| bytes[i..].iter().take_while(|b| **b == b'`').count();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'`' {
            i += 1;
            continue;
        }
        let open = run_at(i);
        let content = i + open;
        let mut j = content;
        let mut close = None;
        while j < bytes.len() {
            if bytes[j] == b'`' {
                let run = run_at(j);
                if run == open {
                    close = Some(j);
                    break;
                }
                j += run;
            } else {
                j += 1;
            }
        }
        match close {
            Some(end) => {
                out.push(Snippet {
                    code: text.get(content..end).unwrap_or(""),
                    start: from + content,
                    shell: true,
                });
                i = end + open;
            }
            None => i = content,
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Shell words, as far as a grep command line needs them.

/// A word after quote removal: each character with the byte offset it was written at.
#[derive(Debug, Default, Clone)]
struct Word(Vec<(char, usize)>);

impl Word {
    fn text(&self) -> String {
        self.0.iter().map(|(c, _)| c).collect()
    }
}

#[derive(Debug)]
enum Token {
    Word(Word),
    /// The end of a simple command: a line break, `;`, `|`, `&`, a parenthesis, a
    /// redirection, a command substitution.
    Break,
}

fn words(code: &str) -> Vec<Token> {
    let chars: Vec<(usize, char)> = code.char_indices().collect();
    let mut out = Vec::new();
    let mut word: Option<Word> = None;
    let mut i = 0;
    let end_word = |word: &mut Option<Word>, out: &mut Vec<Token>| {
        if let Some(w) = word.take() {
            out.push(Token::Word(w));
        }
    };
    while let Some(&(at, c)) = chars.get(i) {
        let next = chars.get(i + 1).map(|(_, c)| *c);
        match c {
            ' ' | '\t' => {
                end_word(&mut word, &mut out);
                i += 1;
            }
            '\n' | ';' | '|' | '&' | '(' | ')' | '<' | '>' | '`' => {
                end_word(&mut word, &mut out);
                out.push(Token::Break);
                i += 1;
            }
            '#' if word.is_none() => {
                while chars.get(i).is_some_and(|(_, c)| *c != '\n') {
                    i += 1;
                }
            }
            '\\' => {
                match chars.get(i + 1) {
                    Some((_, '\n')) => {}
                    Some(&(at, c)) => word.get_or_insert_with(Word::default).0.push((c, at)),
                    None => word.get_or_insert_with(Word::default).0.push(('\\', at)),
                }
                i += 2;
            }
            '\'' => {
                let w = word.get_or_insert_with(Word::default);
                i += 1;
                while let Some(&(at, c)) = chars.get(i) {
                    i += 1;
                    if c == '\'' {
                        break;
                    }
                    w.0.push((c, at));
                }
            }
            '"' => {
                let w = word.get_or_insert_with(Word::default);
                i += 1;
                while let Some(&(at, c)) = chars.get(i) {
                    if c == '"' {
                        i += 1;
                        break;
                    }
                    let escaped = chars.get(i + 1).map(|(_, c)| *c);
                    if c == '\\' && matches!(escaped, Some('$' | '`' | '"' | '\\' | '\n')) {
                        if let Some(&(at, e)) = chars.get(i + 1).filter(|(_, e)| *e != '\n') {
                            w.0.push((e, at));
                        }
                        i += 2;
                    } else {
                        w.0.push((c, at));
                        i += 1;
                    }
                }
            }
            '$' if next == Some('\'') => {
                let w = word.get_or_insert_with(Word::default);
                i = ansi_c(&chars, i + 2, w);
            }
            '$' if next == Some('(') => {
                end_word(&mut word, &mut out);
                out.push(Token::Break);
                i += 2;
            }
            _ => {
                word.get_or_insert_with(Word::default).0.push((c, at));
                i += 1;
            }
        }
    }
    end_word(&mut word, &mut out);
    out
}

/// The body of a `$'…'` word from `chars[i]` on, with its escapes decoded; the index after it.
fn ansi_c(chars: &[(usize, char)], mut i: usize, w: &mut Word) -> usize {
    while let Some(&(at, c)) = chars.get(i) {
        if c == '\'' {
            return i + 1;
        }
        if c != '\\' {
            w.0.push((c, at));
            i += 1;
            continue;
        }
        let Some(&(_, e)) = chars.get(i + 1) else {
            w.0.push((c, at));
            return i + 1;
        };
        let simple = match e {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'e' | 'E' => Some('\u{1b}'),
            'f' => Some('\u{c}'),
            'v' => Some('\u{b}'),
            '\\' | '\'' | '"' | '?' => Some(e),
            _ => None,
        };
        if let Some(s) = simple {
            w.0.push((s, at));
            i += 2;
            continue;
        }
        let (radix, max, skip) = match e {
            'x' => (16, 2, 2),
            'u' => (16, 4, 2),
            'U' => (16, 8, 2),
            '0'..='7' => (8, 3, 1),
            _ => (0, 0, 0),
        };
        let digits: String = chars
            .iter()
            .skip(i + skip)
            .take(max)
            .map(|(_, c)| *c)
            .take_while(|c| c.is_digit(radix.max(2)))
            .collect();
        match u32::from_str_radix(&digits, radix.max(2))
            .ok()
            .filter(|_| radix > 0 && !digits.is_empty())
            .and_then(char::from_u32)
        {
            Some(d) => {
                w.0.push((d, at));
                i += skip + digits.chars().count();
            }
            None => {
                w.0.push(('\\', at));
                i += 1;
            }
        }
    }
    i
}

// ---------------------------------------------------------------------------------------
// grep patterns and the escapes grep does not interpret.

#[derive(Clone, Copy, Debug, PartialEq)]
enum Syntax {
    Basic,
    Extended,
    Fixed,
    Perl,
}

/// Long options that take their value from the next word when written without `=`.
const LONG_WITH_VALUE: &[&str] = &[
    "after-context",
    "before-context",
    "binary-files",
    "context",
    "devices",
    "directories",
    "exclude",
    "exclude-dir",
    "exclude-from",
    "file",
    "group-separator",
    "include",
    "label",
    "max-count",
    "regexp",
];

/// The patterns of every grep command in a shell snippet, with the syntax each is read in.
fn grep_patterns(code: &str) -> Vec<(Syntax, Word)> {
    let tokens = words(code);
    let mut out = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        let Token::Word(w) = t else { continue };
        // grep, egrep and fgrep all end in `p`: the text of most words is never built.
        if w.0.last().is_none_or(|(c, _)| *c != 'p') {
            continue;
        }
        let name = w.text();
        let name = name.rsplit('/').next().unwrap_or("");
        let mut syntax = match name {
            "grep" => Syntax::Basic,
            "egrep" => Syntax::Extended,
            "fgrep" => Syntax::Fixed,
            _ => continue,
        };
        let args: Vec<&Word> = tokens
            .get(k + 1..)
            .unwrap_or(&[])
            .iter()
            .map_while(|t| match t {
                Token::Word(w) => Some(w),
                Token::Break => None,
            })
            .collect();
        let mut given: Vec<Word> = Vec::new();
        let mut operands: Vec<&Word> = Vec::new();
        let mut from_file = false;
        let mut options_end = false;
        let mut j = 0;
        while let Some(a) = args.get(j) {
            let text = a.text();
            j += 1;
            if options_end || !text.starts_with('-') || text == "-" {
                operands.push(a);
                continue;
            }
            if text == "--" {
                options_end = true;
                continue;
            }
            if let Some(long) = text.strip_prefix("--") {
                let (name, value) = match long.split_once('=') {
                    Some((n, _)) => (n, Some(Word(a.0[2 + n.chars().count() + 1..].to_vec()))),
                    None => (long, None),
                };
                match name {
                    "extended-regexp" => syntax = Syntax::Extended,
                    "basic-regexp" => syntax = Syntax::Basic,
                    "fixed-strings" => syntax = Syntax::Fixed,
                    "perl-regexp" => syntax = Syntax::Perl,
                    _ => {}
                }
                let value = match value {
                    Some(v) => Some(v),
                    None if LONG_WITH_VALUE.contains(&name) => {
                        j += 1;
                        args.get(j - 1).map(|w| (*w).clone())
                    }
                    None => None,
                };
                match (name, value) {
                    ("regexp", Some(v)) => given.push(v),
                    ("file", _) => from_file = true,
                    _ => {}
                }
                continue;
            }
            // A cluster of short options: `-rniE`, `-A3`, `-e'pattern'`.
            for (n, (ch, _)) in a.0.iter().enumerate().skip(1) {
                match ch {
                    'E' => syntax = Syntax::Extended,
                    'G' => syntax = Syntax::Basic,
                    'F' => syntax = Syntax::Fixed,
                    'P' => syntax = Syntax::Perl,
                    'e' | 'f' | 'A' | 'B' | 'C' | 'm' | 'd' | 'D' => {
                        let rest = Word(a.0[n + 1..].to_vec());
                        let value = if rest.0.is_empty() {
                            j += 1;
                            args.get(j - 1).map(|w| (*w).clone())
                        } else {
                            Some(rest)
                        };
                        match (ch, value) {
                            ('e', Some(v)) => given.push(v),
                            ('f', _) => from_file = true,
                            _ => {}
                        }
                        break;
                    }
                    _ => {}
                }
            }
        }
        let patterns = if !given.is_empty() {
            given
        } else if from_file {
            Vec::new()
        } else {
            operands.first().map(|w| (*w).clone()).into_iter().collect()
        };
        out.extend(patterns.into_iter().map(|p| (syntax, p)));
    }
    out
}

/// Where an escape grep does not interpret sits.
#[derive(Debug, PartialEq)]
enum Stray {
    /// Inside a bracket expression, where a backslash is an ordinary character.
    InBracket { bracket: String },
    /// Outside one, a backslash before a letter or digit grep gives no meaning.
    Outside,
    /// A backslash that ends the pattern.
    Trailing,
}

/// The first escape of `pattern` that grep's basic or extended syntax does not interpret:
/// its index in the pattern, the escape as written, and where it sits.
fn stray_escape(pattern: &[(char, usize)]) -> Option<(usize, String, Stray)> {
    let ch = |i: usize| pattern.get(i).map(|(c, _)| *c);
    let escape_at = |i: usize| -> String {
        let mut s = String::from("\\");
        if let Some(e) = ch(i + 1) {
            s.push(e);
            if e == 'x' {
                s.extend((i + 2..i + 4).map_while(|k| ch(k).filter(char::is_ascii_hexdigit)));
            }
        }
        s
    };
    let mut i = 0;
    while let Some(c) = ch(i) {
        match c {
            '[' => {
                let open = i;
                let mut j = i + 1;
                if ch(j) == Some('^') {
                    j += 1;
                }
                if ch(j) == Some(']') {
                    j += 1;
                }
                let mut stray = None;
                while let Some(b) = ch(j) {
                    if b == ']' {
                        break;
                    }
                    if b == '[' && matches!(ch(j + 1), Some(':' | '.' | '=')) {
                        let kind = ch(j + 1);
                        j += 2;
                        while ch(j).is_some() && !(ch(j) == kind && ch(j + 1) == Some(']')) {
                            j += 1;
                        }
                        j += 2;
                        continue;
                    }
                    if b == '\\'
                        && ch(j + 1).is_some_and(|e| e.is_ascii_alphanumeric())
                        && stray.is_none()
                    {
                        stray = Some(j);
                    }
                    j += 1;
                }
                if ch(j) != Some(']') {
                    // An unclosed bracket: grep refuses the pattern with its own message.
                    return None;
                }
                if let Some(s) = stray {
                    let bracket = pattern[open..=j].iter().map(|(c, _)| c).collect();
                    return Some((s, escape_at(s), Stray::InBracket { bracket }));
                }
                i = j + 1;
            }
            '\\' => match ch(i + 1) {
                None => return Some((i, "\\".into(), Stray::Trailing)),
                Some(e) if e.is_ascii_alphanumeric() && !"wWsSbB123456789".contains(e) => {
                    return Some((i, escape_at(i), Stray::Outside));
                }
                Some(_) => i += 2,
            },
            _ => i += 1,
        }
    }
    None
}

/// What an escape is usually written for, in the syntaxes that have it.
fn meant(escape: &str) -> Option<&'static str> {
    Some(match escape {
        "\\x27" => "a single quote",
        "\\x22" => "a double quote",
        "\\x20" => "a space",
        "\\t" => "a tab",
        "\\n" => "a line break",
        "\\d" => "a digit",
        "\\D" => "a non-digit",
        "\\s" => "white space",
        "\\S" => "anything but white space",
        "\\w" => "a word character",
        "\\W" => "a non-word character",
        _ => return None,
    })
}

fn stray_escapes(code: &str) -> Vec<Found> {
    let mut out = Vec::new();
    for (from, to) in grep_lines(code) {
        let Some(lines) = code.get(from..to) else {
            continue;
        };
        out.extend(stray_escapes_in(lines).into_iter().map(|f| Found {
            at: from + f.at,
            ..f
        }));
    }
    out
}

/// The byte ranges of the lines of `code` that name `grep`, each with the lines a trailing
/// backslash continues it onto: lexing only those keeps long scripts cheap.
fn grep_lines(code: &str) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    let mut joined = false;
    for line in code.split_inclusive('\n') {
        let end = start + line.len();
        let continues = line.trim_end().ends_with('\\');
        match out.last_mut() {
            Some(last) if joined => last.1 = end,
            _ if line.contains("grep") => out.push((start, end)),
            _ => {}
        }
        joined = continues && out.last().is_some_and(|l| l.1 == end);
        start = end;
    }
    out
}

fn stray_escapes_in(code: &str) -> Vec<Found> {
    let mut out = Vec::new();
    for (syntax, pattern) in grep_patterns(code) {
        if matches!(syntax, Syntax::Fixed | Syntax::Perl) {
            continue;
        }
        let Some((index, escape, stray)) = stray_escape(&pattern.0) else {
            continue;
        };
        let Some(&(_, at)) = pattern.0.get(index) else {
            continue;
        };
        let instead = meant(&escape)
            .map(|m| format!(", never {m}"))
            .unwrap_or_default();
        let message = match stray {
            Stray::InBracket { bracket } => {
                let parts: Vec<String> = escape.chars().map(|c| format!("`{c}`")).collect();
                format!(
                    "grep pattern: `{escape}` inside the bracket expression `{bracket}` is not an \
                     escape; a backslash is an ordinary character there, so the brackets match {}{instead}",
                    join_and(&parts)
                )
            }
            Stray::Outside => format!(
                "grep pattern: `{escape}` is not an escape grep interprets; it matches the text \
                 `{}`{instead}",
                escape.get(1..).unwrap_or("")
            ),
            Stray::Trailing => {
                "grep pattern ends in a lone backslash, which grep refuses as a trailing backslash"
                    .to_string()
            }
        };
        out.push(Found {
            code: &codes::GREP_STRAY_ESCAPE,
            at,
            width: escape.chars().count(),
            message,
        });
    }
    out
}

fn join_and(parts: &[String]) -> String {
    match parts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

// ---------------------------------------------------------------------------------------
// Assertions no answer can fail.

/// Matchers that hold for any non-negative value, written after `expect(…)` or
/// `assert_that(…)`.
const NON_NEGATIVE_MATCHERS: &[&str] = &[
    ".toBeGreaterThanOrEqual(0)",
    ".toBeGreaterThan(-1)",
    ".greaterThanOrEqual(0)",
    ".gte(0)",
    ".least(0)",
    ".is_greater_than_or_equal_to(0)",
    ".isGreaterThanOrEqualTo(0)",
    ".is_not_negative()",
    ".isNotNegative()",
];

fn unfailable_assertions(code: &str) -> Vec<Found> {
    let mut out = Vec::new();
    let mut line_start = 0;
    for line in code.split_inclusive('\n') {
        if is_assertion(line) {
            out.extend(
                non_negative_comparisons(line)
                    .into_iter()
                    .map(|(at, len)| (line_start + at, line.get(at..at + len).unwrap_or(""))),
            );
        }
        line_start += line.len();
    }
    let mut found: Vec<Found> = out
        .into_iter()
        .map(|(at, expr)| Found {
            code: &codes::ASSERTION_CANNOT_FAIL,
            at,
            width: expr.chars().count(),
            message: format!(
                "`{}` cannot fail: a count or length is never negative, so the assertion holds \
                 for an empty or degraded answer as well",
                expr.trim()
            ),
        })
        .collect();
    found.sort_by_key(|f| f.at);
    found
}

fn is_assertion(line: &str) -> bool {
    let l = line.trim_start();
    l.starts_with("assert")
        || l.contains(" assert")
        || l.contains("(assert")
        || l.contains("self.assert")
        || l.contains("expect(")
        || l.contains("assert_that(")
        || l.contains("assertThat(")
}

/// Byte offset and length, in `line`, of each comparison of a count or length with zero that
/// no value can fail.
fn non_negative_comparisons(line: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // `COUNT >= 0` and `COUNT > -1`.
    for op in [">=", ">"] {
        let mut from = 0;
        while let Some(pos) = line.get(from..).and_then(|s| s.find(op)).map(|p| p + from) {
            from = pos + op.len();
            if op == ">" && line.get(pos..pos + 2) == Some(">=") {
                continue;
            }
            let rhs = line.get(pos + op.len()..).unwrap_or("");
            let bound = if op == ">=" { "0" } else { "-1" };
            let Some(after) = number_after(rhs, bound) else {
                continue;
            };
            let (lhs_start, lhs) = operand_before(line, pos);
            if counts(lhs) {
                out.push((lhs_start, pos + op.len() + after - lhs_start));
            }
        }
    }
    // `0 <= COUNT`, unless an upper bound follows (`0 <= n <= 5` can fail).
    let mut from = 0;
    while let Some(pos) = line.get(from..).and_then(|s| s.find("<=")).map(|p| p + from) {
        from = pos + 2;
        let before = line.get(..pos).unwrap_or("").trim_end();
        let zero_at = before.len().saturating_sub(1);
        if !before.ends_with('0')
            || before
                .get(..zero_at)
                .and_then(|s| s.chars().last())
                .is_some_and(|c| c.is_alphanumeric() || c == '.' || c == '_')
        {
            continue;
        }
        let (len, operand) = operand_after(line.get(pos + 2..).unwrap_or(""));
        let rest = line.get(pos + 2 + len..).unwrap_or("").trim_start();
        if counts(operand) && !rest.starts_with('<') {
            out.push((zero_at, pos + 2 + len - zero_at));
        }
    }
    // `expect(COUNT).toBeGreaterThanOrEqual(0)` and its kin.
    for m in NON_NEGATIVE_MATCHERS {
        let mut from = 0;
        while let Some(pos) = line.get(from..).and_then(|s| s.find(m)).map(|p| p + from) {
            from = pos + m.len();
            if let Some((start, subject)) = matcher_subject(line, pos) {
                if counts(subject) {
                    out.push((start, pos + m.len() - start));
                }
            }
        }
    }
    // `self.assertGreaterEqual(COUNT, 0)`.
    let mut from = 0;
    while let Some(pos) = line
        .get(from..)
        .and_then(|s| s.find("assertGreaterEqual("))
        .map(|p| p + from)
    {
        from = pos + 1;
        let args_at = pos + "assertGreaterEqual(".len();
        let Some(close) = matching_paren(line, args_at - 1) else {
            continue;
        };
        let args = line.get(args_at..close).unwrap_or("");
        if let Some((subject, bound)) = args.rsplit_once(',') {
            if bound.trim() == "0" && counts(subject.trim()) {
                out.push((pos, close + 1 - pos));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The length up to the end of `bound` when `text` starts (after blanks) with exactly that
/// number, not a longer one (`0.5`, `05`, `0x1`).
fn number_after(text: &str, bound: &str) -> Option<usize> {
    let blanks = text.len() - text.trim_start().len();
    let rest = text.get(blanks..)?;
    let rest_after = rest.strip_prefix(bound.chars().next()?)?;
    let (rest_after, len) = if bound == "-1" {
        let trimmed = rest_after.trim_start();
        (
            trimmed.strip_prefix('1')?,
            blanks + 1 + (rest_after.len() - trimmed.len()) + 1,
        )
    } else {
        (rest_after, blanks + 1)
    };
    let next = rest_after.chars().next();
    (!next.is_some_and(|c| c.is_alphanumeric() || c == '.' || c == '_')).then_some(len)
}

/// The operand written just before byte `end` of `line`: its start and text. A parenthesised
/// part is taken whole (`(await search(q, limit=5)).count`); an unmatched `(` ends it.
fn operand_before(line: &str, end: usize) -> (usize, &str) {
    let head = line.get(..end).unwrap_or("").trim_end();
    let mut depth = 0;
    let mut start = head.len();
    for (i, c) in head.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' if depth == 0 => break,
            '(' => depth -= 1,
            _ if depth > 0 || c.is_alphanumeric() || "_.[]'\"!".contains(c) => {}
            _ => break,
        }
        start = i;
    }
    (start, head.get(start..).unwrap_or(""))
}

/// The operand written at the start of `text`: its length (leading blanks included) and text.
fn operand_after(text: &str) -> (usize, &str) {
    let blanks = text.len() - text.trim_start().len();
    let rest = text.get(blanks..).unwrap_or("");
    let len = rest
        .char_indices()
        .take_while(|(_, c)| c.is_alphanumeric() || "_.()[]'\"".contains(*c))
        .last()
        .map_or(0, |(i, c)| i + c.len_utf8());
    let mut operand = rest.get(..len).unwrap_or("");
    // A trailing `)` that closes the assertion (`assert(0 <= n)`) is not part of it.
    while operand.ends_with(')') && operand.matches('(').count() < operand.matches(')').count()
    {
        operand = &operand[..operand.len() - 1];
    }
    (blanks + operand.len(), operand)
}

/// The argument of the `expect(…)` or `assert_that(…)` a matcher at `matcher` is chained to.
fn matcher_subject(line: &str, matcher: usize) -> Option<(usize, &str)> {
    let head = line.get(..matcher)?;
    if !head.ends_with(')') {
        return None;
    }
    let close = head.len() - 1;
    let open = head
        .char_indices()
        .rev()
        .scan(0i32, |depth, (i, c)| {
            match c {
                ')' => *depth += 1,
                '(' => *depth -= 1,
                _ => {}
            }
            Some((i, *depth))
        })
        .find(|(_, d)| *d == 0)
        .map(|(i, _)| i)?;
    let callee = head.get(..open)?;
    let starts = ["expect", "assert_that", "assertThat"]
        .iter()
        .find_map(|name| callee.strip_suffix(name).map(|rest| rest.len()))?;
    Some((starts, head.get(open + 1..close)?.trim()))
}

/// The index of the `)` that closes the `(` at byte `open`.
fn matching_paren(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in text.get(open..)?.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether an operand is a count or a length: `len(…)`, or a name whose last word says so
/// (`count`, `hit_count`, `items.length`, `r["total"]`, `n`).
fn counts(operand: &str) -> bool {
    let mut o = operand.trim();
    if o.starts_with("len(") || o.contains(" len(") || o.contains("(len(") {
        return true;
    }
    // Drop trailing calls and subscripts, keeping a quoted key: `x.count()`, `r["total"]`.
    loop {
        if let Some(inner) = o.strip_suffix(']') {
            if let Some(open) = inner.rfind('[') {
                let key = inner[open + 1..].trim_matches(['"', '\'']);
                if !key.is_empty() && key.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    o = key;
                    break;
                }
                o = &inner[..open];
                continue;
            }
        }
        if o.ends_with(')') {
            match o.rfind('(') {
                Some(open) => {
                    o = &o[..open];
                    continue;
                }
                None => return false,
            }
        }
        break;
    }
    let name = o.rsplit(['.', '(', '!']).next().unwrap_or("");
    let mut parts: Vec<String> = Vec::new();
    let mut cur = String::new();
    for c in name.chars() {
        if c == '_' {
            parts.push(std::mem::take(&mut cur));
        } else if c.is_uppercase() && !cur.is_empty() {
            parts.push(std::mem::take(&mut cur));
            cur.push(c.to_ascii_lowercase());
        } else {
            cur.push(c.to_ascii_lowercase());
        }
    }
    parts.push(cur);
    parts.retain(|p| !p.is_empty());
    let last = parts.last().map(String::as_str);
    let first = parts.first().map(String::as_str);
    matches!(
        last,
        Some("count" | "counts" | "length" | "len" | "size" | "total" | "n")
    ) || (parts.len() > 1 && matches!(first, Some("n" | "num" | "number")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn patterns(code: &str) -> Vec<(Syntax, String)> {
        grep_patterns(code)
            .into_iter()
            .map(|(s, w)| (s, w.text()))
            .collect()
    }

    fn escapes(code: &str) -> Vec<String> {
        stray_escapes(code).into_iter().map(|f| f.message).collect()
    }

    fn assertions(code: &str) -> Vec<String> {
        unfailable_assertions(code)
            .into_iter()
            .map(|f| code[f.at..f.at + f.width].to_string())
            .collect()
    }

    #[test]
    fn shell_quoting_is_removed_as_the_shell_removes_it() {
        assert_eq!(
            patterns(r#"grep -rnE '["\x27]' src/"#),
            [(Syntax::Extended, r#"["\x27]"#.to_string())]
        );
        assert_eq!(
            patterns(r#"grep -rnE "[\"'][0-9]+" src/"#),
            [(Syntax::Extended, r#"["'][0-9]+"#.to_string())]
        );
        assert_eq!(
            patterns(r"grep -E 'a'\''b' f"),
            [(Syntax::Extended, "a'b".to_string())]
        );
        assert_eq!(
            patterns(r"grep -E $'it\x27s' f"),
            [(Syntax::Extended, "it's".to_string())]
        );
    }

    #[test]
    fn options_are_read_wherever_grep_reads_them() {
        assert_eq!(
            patterns("grep -rn -A3 'except (ImportError)' src/ | grep -i version"),
            [
                (Syntax::Basic, "except (ImportError)".to_string()),
                (Syntax::Basic, "version".to_string())
            ]
        );
        assert_eq!(
            patterns("grep -e one --regexp=two -E src/"),
            [
                (Syntax::Extended, "one".to_string()),
                (Syntax::Extended, "two".to_string())
            ]
        );
        assert_eq!(
            patterns("git grep -nP '\\d+' -- src"),
            [(Syntax::Perl, "\\d+".to_string())]
        );
        assert_eq!(patterns("grep -f patterns.txt src/"), Vec::new());
        assert_eq!(
            patterns("diff <(grep -E '^#{1,3} ' README.md | sed -E 's/^(#+).*/\\1/') x"),
            [(Syntax::Extended, "^#{1,3} ".to_string())]
        );
        assert_eq!(
            patterns("grep -rnwF -- \"$v\" src/"),
            [(Syntax::Fixed, "$v".to_string())]
        );
    }

    #[test]
    fn escapes_grep_does_not_interpret_are_found() {
        let found = escapes(r#"grep -rnE 'f["\x27][^"\x27]*\{e\}' src/"#);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("`\\x27` inside the bracket expression `[\"\\x27]`"));
        assert!(found[0].contains("`\\`, `x`, `2` and `7`, never a single quote"));
        let found = escapes(r"grep -E '\d{4}-\d{2}' f");
        assert!(found[0].contains("matches the text `d`, never a digit"), "{found:?}");
        assert!(escapes(r"grep -nE '[\s]' f")[0].contains("never white space"));
        assert!(escapes(r"grep 'abc\' f")[0].contains("trailing backslash"));
    }

    #[test]
    fn escapes_grep_interprets_and_other_tools_are_left_alone() {
        for clean in [
            r#"grep -rnE "__version__\s*[:=][^=]*[\"'][0-9]+\.[0-9]+" src/"#,
            r"grep -rnE '\bfoo\b|\w+\s*\(|\.stack\b|\-320[0-9]{2}' src/",
            r"grep -E '\(a\)\1' f",
            r"grep -P '\x27\d' f",
            r"grep -F '\x27' f",
            r"grep -E '[[:space:]]\.' f",
            r"sed -E 's/\x27//' f",
            r"rg '\d+' src/",
            r"grep -rniE 'user[-_ ]?agent' src/",
            r#"grep -rnE '(api[_-]?key|token)\s*=\s*["'\''][A-Za-z0-9]{16,}' tests/"#,
        ] {
            assert_eq!(escapes(clean), Vec::<String>::new(), "{clean}");
        }
    }

    #[test]
    fn unfailable_assertions_are_found() {
        assert_eq!(
            assertions("    assert (await search(\"x\", client=c)).count >= 0\n"),
            ["(await search(\"x\", client=c)).count >= 0"]
        );
        assert_eq!(assertions("assert len(hits) >= 0"), ["len(hits) >= 0"]);
        assert_eq!(
            assertions("expect(n).toBeGreaterThanOrEqual(0);"),
            ["expect(n).toBeGreaterThanOrEqual(0)"]
        );
        assert_eq!(
            assertions("expect(res.items.length).toBeGreaterThan(-1)"),
            ["expect(res.items.length).toBeGreaterThan(-1)"]
        );
        assert_eq!(
            assertions("self.assertGreaterEqual(len(rows), 0)"),
            ["assertGreaterEqual(len(rows), 0)"]
        );
        assert_eq!(assertions("assert 0 <= r[\"total\"]"), ["0 <= r[\"total\"]"]);
        assert_eq!(assertions("assert(hitCount > -1)"), ["hitCount > -1"]);
    }

    #[test]
    fn assertions_that_can_fail_are_left_alone() {
        for clean in [
            "assert len(hits) >= 3",
            "assert len(hits) > 0",
            "assert temp_c >= 0",
            "assert 0 <= share <= 0.4",
            "assert 0 <= n <= 5",
            "assert len(x) >= 0.5",
            "expect(delta).toBeGreaterThanOrEqual(0)",
            "if len(hits) >= 0: pass",
            "assert result.count >= MIN_HITS",
        ] {
            assert_eq!(assertions(clean), Vec::<String>::new(), "{clean}");
        }
    }

    #[test]
    fn only_the_lines_naming_grep_are_lexed_with_their_continuations() {
        let code = "cd src\ngrep -rnE \\\n  '[\"\\x27]' .\necho done\nx | grep -c y\n";
        let lines: Vec<&str> = grep_lines(code)
            .into_iter()
            .map(|(a, b)| &code[a..b])
            .collect();
        assert_eq!(lines, ["grep -rnE \\\n  '[\"\\x27]' .\n", "x | grep -c y\n"]);
        let found = stray_escapes(code);
        assert_eq!(found.len(), 1);
        assert_eq!(&code[found[0].at..found[0].at + 4], "\\x27");
    }

    #[test]
    fn snippets_are_fenced_blocks_and_inline_spans() {
        let body = "Run `grep -n x f` now,\nor `a\nb`.\n\n```python\nassert n >= 0\n```\n\n   ```\n   grep -E '\\d' f\n   ```\n";
        let s = snippets(body);
        let codes: Vec<(&str, bool)> = s.iter().map(|s| (s.code, s.shell)).collect();
        assert_eq!(
            codes,
            [
                ("grep -n x f", true),
                ("a\nb", true),
                ("assert n >= 0\n", false),
                ("   grep -E '\\d' f\n", true)
            ]
        );
        assert_eq!(&body[s[1].start..s[1].start + 3], "a\nb");
        assert_eq!(place(body, s[3].start + 14), (9, 15));
        // A fence ends the paragraph before it and starts one after it; an unclosed fence
        // runs to the end; prose without the words is not looked at.
        let body = "No code here.\n\ntext `grep a` x\n```sh\ngrep -E 'b'\n```\nafter `assert n >= 0` y\n\n```\ngrep c\n";
        let codes: Vec<&str> = snippets(body).iter().map(|s| s.code).collect();
        assert_eq!(
            codes,
            ["grep a", "grep -E 'b'\n", "assert n >= 0", "grep c\n"]
        );
        assert_eq!(snippets("Prose, `code`, and\n```\nmore\n```\n"), []);
    }
}
