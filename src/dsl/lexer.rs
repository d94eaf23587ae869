//! Tokens of the `applies_when` language.
//!
//! The lexer runs ahead of the parser but does not fail eagerly: a lexical
//! error becomes the last token, so a syntax error earlier in the text is still
//! the one reported (errors come out in source order).

use super::ast::Span;
use super::parser::ParseError;

#[derive(Debug, Clone, PartialEq)]
pub enum TokenKind {
    LParen,
    RParen,
    Dot,
    EqEq,
    NotEq,
    And,
    Or,
    Always,
    True,
    False,
    Ident(String),
    Str(String),
    Eof,
    /// Lexing stopped here; the parser reports this when it reaches it.
    Error(Box<ParseError>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

impl TokenKind {
    /// How the token is named in "found …" messages.
    pub fn describe(&self) -> String {
        match self {
            TokenKind::LParen => "`(`".into(),
            TokenKind::RParen => "`)`".into(),
            TokenKind::Dot => "`.`".into(),
            TokenKind::EqEq => "`==`".into(),
            TokenKind::NotEq => "`!=`".into(),
            TokenKind::And => "keyword `and`".into(),
            TokenKind::Or => "keyword `or`".into(),
            TokenKind::Always => "keyword `always`".into(),
            TokenKind::True => "`true`".into(),
            TokenKind::False => "`false`".into(),
            TokenKind::Ident(s) => format!("`{s}`"),
            TokenKind::Str(s) => format!("string {}", super::pretty::quote(s)),
            TokenKind::Eof => "end of input".into(),
            TokenKind::Error(e) => e.message.clone(),
        }
    }
}

/// Lowercase keyword a mis-cased identifier was probably meant to be.
pub fn miscased_keyword(ident: &str) -> Option<&'static str> {
    let lower = ident.to_ascii_lowercase();
    let kw = [
        "and",
        "or",
        "always",
        "true",
        "false",
        "includes",
        "starts_with",
        "ends_with",
        "contains",
        "matches",
    ]
    .into_iter()
    .find(|k| *k == lower)?;
    (kw != ident).then_some(kw)
}

pub fn lex(src: &str) -> Vec<Token> {
    let mut lx = Lexer {
        src,
        pos: 0,
        out: Vec::new(),
    };
    let end = match lx.run() {
        Ok(()) => Token {
            kind: TokenKind::Eof,
            span: Span::new(src.len(), src.len()),
        },
        Err(e) => Token {
            span: e.span,
            kind: TokenKind::Error(Box::new(e)),
        },
    };
    lx.out.push(end);
    lx.out
}

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    out: Vec<Token>,
}

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.src.get(self.pos..).and_then(|s| s.chars().next())
    }

    fn peek2(&self) -> Option<char> {
        self.src.get(self.pos..).and_then(|s| s.chars().nth(1))
    }

    fn push(&mut self, kind: TokenKind, start: usize) {
        self.out.push(Token {
            kind,
            span: Span::new(start, self.pos),
        });
    }

    fn run(&mut self) -> Result<(), ParseError> {
        while let Some(c) = self.peek() {
            let start = self.pos;
            match c {
                ' ' | '\t' | '\n' | '\r' => self.pos += 1,
                '(' | ')' | '.' => {
                    self.pos += 1;
                    let kind = match c {
                        '(' => TokenKind::LParen,
                        ')' => TokenKind::RParen,
                        _ => TokenKind::Dot,
                    };
                    self.push(kind, start);
                }
                '=' | '!' => self.operator(c, start)?,
                '"' | '\'' => self.string(c, start)?,
                c if c.is_ascii_alphabetic() || c == '_' => self.ident(start),
                _ => return Err(self.unexpected(c, start)),
            }
        }
        Ok(())
    }

    fn operator(&mut self, c: char, start: usize) -> Result<(), ParseError> {
        if self.peek2() == Some('=') {
            self.pos += 2;
            let kind = if c == '=' {
                TokenKind::EqEq
            } else {
                TokenKind::NotEq
            };
            self.push(kind, start);
            return Ok(());
        }
        let span = Span::new(start, start + 1);
        let (help, expected) = if c == '=' {
            ("did you mean `==`? a single `=` is not an operator", "`==`")
        } else {
            (
                "there is no `!` negation; compare with `!=` instead",
                "`!=`",
            )
        };
        Err(ParseError::new(
            format!("expected {expected}, found `{c}`"),
            span,
            vec![expected.into()],
        )
        .with_help(help))
    }

    fn ident(&mut self, start: usize) {
        let rest = self.src.get(start..).unwrap_or("");
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        self.pos = start + len;
        let word = rest.get(..len).unwrap_or("");
        let kind = match word {
            "and" => TokenKind::And,
            "or" => TokenKind::Or,
            "always" => TokenKind::Always,
            "true" => TokenKind::True,
            "false" => TokenKind::False,
            _ => TokenKind::Ident(word.to_string()),
        };
        self.push(kind, start);
    }

    fn string(&mut self, quote: char, start: usize) -> Result<(), ParseError> {
        self.pos += 1;
        let mut value = String::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(ParseError::new(
                    format!(
                        "unterminated string: expected a closing `{quote}`, found end of input"
                    ),
                    Span::new(start, self.src.len()),
                    vec![format!("`{quote}`")],
                ));
            };
            let at = self.pos;
            self.pos += c.len_utf8();
            if c == quote {
                self.push(TokenKind::Str(value), start);
                return Ok(());
            }
            if c != '\\' {
                value.push(c);
                continue;
            }
            let esc = self.peek();
            value.push(match esc {
                Some('\\') => '\\',
                Some('"') => '"',
                Some('\'') => '\'',
                Some('n') => '\n',
                Some('t') => '\t',
                Some(other) => {
                    return Err(ParseError::new(
                        format!("unknown escape `\\{other}` in string"),
                        Span::new(at, self.pos + other.len_utf8()),
                        ESCAPES.iter().map(|e| format!("`{e}`")).collect(),
                    )
                    .with_help("the escapes are `\\\\`, `\\\"`, `\\'`, `\\n` and `\\t`; write `\\\\` for a backslash"))
                }
                None => continue, // the unterminated-string error follows
            });
            self.pos += 1;
        }
    }

    fn unexpected(&self, c: char, start: usize) -> ParseError {
        let width = if matches!(c, '&' | '|') && self.peek2() == Some(c) {
            2
        } else {
            c.len_utf8()
        };
        let span = Span::new(start, start + width);
        let shown = self.src.get(start..start + width).unwrap_or_default();
        let (expected, help): (&str, String) = match c {
            '&' => ("`and`", format!("write `and` instead of `{shown}`")),
            '|' => ("`or`", format!("write `or` instead of `{shown}`")),
            '0'..='9' => (
                "a string",
                "there are no numbers; quote the value, e.g. `\"2025-11-25\"`".into(),
            ),
            '`' => ("a string", "quote strings with `\"` or `'`".into()),
            _ => {
                return ParseError::new(
                    format!("unexpected character `{shown}`: expected a field name, a string, a keyword, `(`, `)`, `.`, `==` or `!=`"),
                    span,
                    ["a field name", "a string", "a keyword", "`(`", "`)`", "`.`", "`==`", "`!=`"]
                        .map(String::from)
                        .to_vec(),
                )
            }
        };
        ParseError::new(
            format!("expected {expected}, found `{shown}`"),
            span,
            vec![expected.into()],
        )
        .with_help(help)
    }
}

const ESCAPES: [&str; 5] = ["\\\\", "\\\"", "\\'", "\\n", "\\t"];

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<TokenKind> {
        lex(src).into_iter().map(|t| t.kind).collect()
    }

    fn lex_err(src: &str) -> ParseError {
        match lex(src).pop().map(|t| t.kind) {
            Some(TokenKind::Error(e)) => *e,
            other => panic!("expected a lexical error, got {other:?}"),
        }
    }

    #[test]
    fn tokens_with_spans() {
        let toks = lex("a.b == 'x'");
        let spans: Vec<(usize, usize)> = toks.iter().map(|t| (t.span.start, t.span.end)).collect();
        assert_eq!(spans, [(0, 1), (1, 2), (2, 3), (4, 6), (7, 10), (10, 10)]);
        assert_eq!(
            kinds("( ) != and or always true false"),
            [
                TokenKind::LParen,
                TokenKind::RParen,
                TokenKind::NotEq,
                TokenKind::And,
                TokenKind::Or,
                TokenKind::Always,
                TokenKind::True,
                TokenKind::False,
                TokenKind::Eof
            ]
        );
    }

    #[test]
    fn keywords_are_lowercase_only() {
        assert_eq!(
            kinds("AND Or True Always"),
            [
                TokenKind::Ident("AND".into()),
                TokenKind::Ident("Or".into()),
                TokenKind::Ident("True".into()),
                TokenKind::Ident("Always".into()),
                TokenKind::Eof
            ]
        );
        assert_eq!(miscased_keyword("AND"), Some("and"));
        assert_eq!(miscased_keyword("and"), None);
        assert_eq!(miscased_keyword("transport"), None);
    }

    #[test]
    fn both_quote_styles_and_escapes() {
        assert_eq!(
            kinds(r#""a\"b\\c\n\t'" 'd\'e"f'"#),
            [
                TokenKind::Str("a\"b\\c\n\t'".into()),
                TokenKind::Str("d'e\"f".into()),
                TokenKind::Eof
            ]
        );
        assert_eq!(
            kinds("\"é\u{1F600}\""),
            [TokenKind::Str("é\u{1F600}".into()), TokenKind::Eof]
        );
    }

    #[test]
    fn unknown_escape_is_an_error() {
        let e = lex_err(r#"x == "a\qb""#);
        assert!(e.message.contains("unknown escape `\\q`"), "{}", e.message);
        assert_eq!(e.span, Span::new(7, 9));
        let e = lex_err("x == \"\\é\"");
        assert_eq!(e.span, Span::new(6, 9));
    }

    #[test]
    fn unterminated_string() {
        let e = lex_err("x == 'abc");
        assert!(e.message.starts_with("unterminated string"));
        assert_eq!(e.span, Span::new(5, 9));
        let e = lex_err("x == 'abc\\");
        assert!(e.message.starts_with("unterminated string"));
    }

    #[test]
    fn operator_hints() {
        let e = lex_err("a = 'b'");
        assert_eq!(e.message, "expected `==`, found `=`");
        assert!(e
            .help
            .as_deref()
            .is_some_and(|h| h.contains("did you mean `==`")));
        let e = lex_err("a && b");
        assert_eq!(e.message, "expected `and`, found `&&`");
        assert_eq!(e.span, Span::new(2, 4));
        assert!(e.help.as_deref().is_some_and(|h| h.contains("`and`")));
        let e = lex_err("a || b");
        assert!(e.help.as_deref().is_some_and(|h| h.contains("`or`")));
        let e = lex_err("a & b");
        assert_eq!(
            (e.message.as_str(), e.span),
            ("expected `and`, found `&`", Span::new(2, 3))
        );
        let e = lex_err("!a");
        assert!(e.help.as_deref().is_some_and(|h| h.contains("`!=`")));
        let e = lex_err("a == 1");
        assert!(e.help.as_deref().is_some_and(|h| h.contains("no numbers")));
    }

    #[test]
    fn multibyte_unexpected_char() {
        let e = lex_err("a ≠ b");
        assert_eq!(e.span, Span::new(2, 5));
        assert!(e
            .message
            .starts_with("unexpected character `≠`: expected a field name"));
    }
}
