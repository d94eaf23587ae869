//! Document symbols (a file's headings, nested by level) and semantic tokens for the
//! `applies_when` expression of a check's frontmatter.

use super::Ctx;
use crate::dsl::lexer::TokenKind;
use lsp_types as lsp;

pub fn document_symbols(c: &Ctx<'_>) -> Option<lsp::DocumentSymbolResponse> {
    // (level, symbol) stack: a heading closes every open heading of its level or deeper.
    let mut stack: Vec<(usize, lsp::DocumentSymbol)> = Vec::new();
    let mut top: Vec<lsp::DocumentSymbol> = Vec::new();
    let text = &*c.text;
    let body = super::world::frontmatter_end(text).map_or(0, |e| {
        text[e..].find('\n').map_or(text.len(), |i| e + i + 1)
    });
    let mut offset = body;
    let mut fence: Option<&str> = None;
    let close = |stack: &mut Vec<(usize, lsp::DocumentSymbol)>,
                 top: &mut Vec<lsp::DocumentSymbol>,
                 level: usize,
                 end: lsp::Position| {
        while stack.last().is_some_and(|(l, _)| *l >= level) {
            let Some((_, mut s)) = stack.pop() else { break };
            s.range.end = end;
            match stack.last_mut() {
                Some((_, parent)) => parent.children.get_or_insert_with(Vec::new).push(s),
                None => top.push(s),
            }
        }
    };
    for line in text[body..].split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let t = line.trim_end();
        let marker = t.trim_start();
        if marker.starts_with("```") || marker.starts_with("~~~") {
            let m = &marker[..3];
            fence = match fence {
                Some(f) if f == m => None,
                None => Some(m),
                keep => keep,
            };
            continue;
        }
        if fence.is_some() || !t.starts_with('#') {
            continue;
        }
        let level = t.chars().take_while(|&ch| ch == '#').count();
        let title = t[level..].trim();
        if level > 6 || title.is_empty() || !t[level..].starts_with(' ') {
            continue;
        }
        let pos = c.range(start, start).start;
        close(&mut stack, &mut top, level, pos);
        #[allow(deprecated)]
        let symbol = lsp::DocumentSymbol {
            name: title.to_string(),
            detail: None,
            kind: if level <= 1 {
                lsp::SymbolKind::FILE
            } else {
                lsp::SymbolKind::STRING
            },
            tags: None,
            deprecated: None,
            range: c.range(start, start + t.len()),
            selection_range: c.range(start, start + t.len()),
            children: None,
        };
        stack.push((level, symbol));
    }
    let end = c.range(text.len(), text.len()).end;
    close(&mut stack, &mut top, 0, end);
    Some(lsp::DocumentSymbolResponse::Nested(top))
}

const TYPES: [lsp::SemanticTokenType; 5] = [
    lsp::SemanticTokenType::KEYWORD,
    lsp::SemanticTokenType::VARIABLE,
    lsp::SemanticTokenType::STRING,
    lsp::SemanticTokenType::OPERATOR,
    lsp::SemanticTokenType::PROPERTY,
];

pub fn legend() -> lsp::SemanticTokensLegend {
    lsp::SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: Vec::new(),
    }
}

/// Tokens of the `applies_when` value on its frontmatter line (single-line values, quoted or
/// not).
pub fn semantic_tokens(c: &Ctx<'_>) -> Option<lsp::SemanticTokensResult> {
    let text = &*c.text;
    let end = super::world::frontmatter_end(text)?;
    let mut offset = 0;
    let mut spans: Vec<(usize, usize, u32)> = Vec::new();
    for line in text[..end].split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let Some(value) = line.strip_prefix("applies_when:") else {
            continue;
        };
        let key_len = "applies_when".len();
        spans.push((start, start + key_len, 4));
        let raw = value.trim_end();
        let lead = raw.len() - raw.trim_start().len();
        let mut expr = raw.trim_start();
        let mut base = start + "applies_when:".len() + lead;
        if let Some(inner) = expr
            .strip_prefix('\'')
            .and_then(|e| e.strip_suffix('\''))
            .or_else(|| expr.strip_prefix('"').and_then(|e| e.strip_suffix('"')))
        {
            expr = inner;
            base += 1;
        }
        for tok in crate::dsl::lexer::lex(expr) {
            let kind = match tok.kind {
                TokenKind::And | TokenKind::Or | TokenKind::Always => 0,
                TokenKind::True | TokenKind::False => 0,
                TokenKind::Ident(_) => 1,
                TokenKind::Str(_) => 2,
                TokenKind::EqEq | TokenKind::NotEq | TokenKind::Dot => 3,
                TokenKind::LParen | TokenKind::RParen => 3,
                TokenKind::Eof | TokenKind::Error(_) => continue,
            };
            let (s, e) = (tok.span.start.min(expr.len()), tok.span.end.min(expr.len()));
            if e > s {
                spans.push((base + s, base + e, kind));
            }
        }
    }
    let mut data = Vec::new();
    let (mut prev_line, mut prev_char) = (0u32, 0u32);
    for (s, e, kind) in spans {
        let p = super::convert::position(text, s, c.enc);
        let q = super::convert::position(text, e, c.enc);
        if q.line != p.line {
            continue;
        }
        let delta_line = p.line - prev_line;
        let delta_start = if delta_line == 0 {
            p.character - prev_char
        } else {
            p.character
        };
        data.push(lsp::SemanticToken {
            delta_line,
            delta_start,
            length: q.character - p.character,
            token_type: kind,
            token_modifiers_bitset: 0,
        });
        prev_line = p.line;
        prev_char = p.character;
    }
    Some(lsp::SemanticTokensResult::Tokens(lsp::SemanticTokens {
        result_id: None,
        data,
    }))
}
