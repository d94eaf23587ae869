//! Inline SVG pictures for HTML reports, written as text: no script, no external resource,
//! every text and attribute escaped (`render::xml`). Each mark carries its figures twice, as
//! `data-` attributes (for tests and tools) and as a `<title>` (for screen readers and hover),
//! so the picture never says more than its numbers. The caller decides every figure and label;
//! this module only lays them out, in the order given.

use super::xml::escape;
use std::fmt::Write;


/// A text cut to `max` characters, with `…` when it was longer.
fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
    t.push('…');
    t
}

/// Width of a label column for texts of up to `chars` characters (about 7 px a character at
/// the pictures' font size), at least `min`.
fn label_width(chars: usize, min: u32) -> u32 {
    (chars as u32 * 7 + 12).max(min)
}

fn open(out: &mut String, kind: &str, width: u32, height: u32, label: &str) {
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"picture {kind}\" data-picture=\"{kind}\" \
         role=\"img\" aria-label=\"{}\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"system-ui, sans-serif\" font-size=\"12\">\
         <title>{}</title>",
        escape(label),
        escape(label)
    );
}

fn text(out: &mut String, x: u32, y: u32, anchor: &str, s: &str) {
    let _ = write!(
        out,
        "<text x=\"{x}\" y=\"{y}\" text-anchor=\"{anchor}\">{}</text>",
        escape(s)
    );
}

/// One cell of a heatmap.
pub struct Cell {
    /// The status the cell shows (its colour and its text), `None` when nothing applies.
    pub status: Option<&'static str>,
    /// How many checks the cell stands for.
    pub checks: usize,
}

/// A heatmap: one row per `rows` entry (its label and cells, one per column), `columns` the
/// column labels, `totals` the cells per status over the whole map (written below it).
pub struct Heatmap<'a> {
    pub label: &'a str,
    pub columns: &'a [String],
    pub rows: &'a [(String, Vec<Cell>)],
    pub totals: &'a [(&'static str, usize)],
}

/// The fill of a status (a colour-blind-safe ramp; the text says the status too).
pub fn status_colour(status: Option<&str>) -> &'static str {
    match status {
        Some("fail") => "#c0392b",
        Some("partial") => "#e67e22",
        Some("rejected") => "#8e44ad",
        Some("missing") => "#f1c40f",
        Some("needs_triage") | Some("todo") => "#f7dc6f",
        Some("not_verified") => "#aab7b8",
        Some("pass") => "#27ae60",
        _ => "#ecf0f1",
    }
}

/// A short text for a status inside a cell.
fn short(status: Option<&str>) -> &str {
    match status {
        Some("not_verified") => "unverified",
        Some("needs_triage") => "triage",
        Some(s) => s,
        None => "—",
    }
}

pub fn heatmap(h: &Heatmap) -> String {
    const CW: u32 = 64;
    const CH: u32 = 22;
    let lw = label_width(
        h.rows.iter().map(|(l, _)| l.chars().count().min(40)).max().unwrap_or(0),
        80,
    );
    let top = 24;
    let width = lw + CW * h.columns.len() as u32 + 8;
    let height = top + CH * h.rows.len() as u32 + 12 + 18 * h.totals.len().div_ceil(4) as u32;
    let mut out = String::new();
    open(&mut out, "heatmap", width, height, h.label);
    for (i, c) in h.columns.iter().enumerate() {
        let x = lw + CW * i as u32 + CW / 2;
        let _ = write!(
            out,
            "<text x=\"{x}\" y=\"16\" text-anchor=\"middle\" data-column=\"{}\">{}</text>",
            escape(c),
            escape(&cut(c, 9))
        );
    }
    for (r, (label, cells)) in h.rows.iter().enumerate() {
        let y = top + CH * r as u32;
        let _ = write!(out, "<g class=\"row\" data-row=\"{}\">", escape(label));
        text(&mut out, lw - 6, y + 15, "end", &cut(label, 40));
        for (i, (cell, column)) in cells.iter().zip(h.columns).enumerate() {
            let x = lw + CW * i as u32;
            let status = cell.status.unwrap_or("none");
            let title = format!(
                "{label}, {column}: {} ({} applicable check(s))",
                cell.status.unwrap_or("no applicable check"),
                cell.checks
            );
            let _ = write!(
                out,
                "<g class=\"cell\" data-row=\"{}\" data-column=\"{}\" data-status=\"{}\" \
                 data-checks=\"{}\"><title>{}</title>\
                 <rect x=\"{}\" y=\"{y}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#fff\"/>",
                escape(label),
                escape(column),
                escape(status),
                cell.checks,
                escape(&title),
                x,
                CW,
                CH,
                status_colour(cell.status)
            );
            text(&mut out, x + CW / 2, y + 15, "middle", short(cell.status));
            out.push_str("</g>");
        }
        out.push_str("</g>");
    }
    let base = top + CH * h.rows.len() as u32 + 12;
    for (i, (status, n)) in h.totals.iter().enumerate() {
        let x = 4 + (i as u32 % 4) * 150;
        let y = base + 18 * (i as u32 / 4);
        let _ = write!(
            out,
            "<g class=\"total\" data-status=\"{}\" data-cells=\"{n}\"><title>{} cell(s) {}</title>\
             <rect x=\"{x}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>",
            escape(status),
            n,
            escape(status),
            y,
            status_colour(Some(status))
        );
        text(&mut out, x + 16, y + 10, "start", &format!("{status}: {n}"));
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    out
}

/// One bar of a bar chart: its label and its parts (name, count), drawn side by side.
pub struct Bar {
    pub label: String,
    pub parts: Vec<(&'static str, usize)>,
}

fn part_colour(name: &str) -> &'static str {
    match name {
        "pass" => "#27ae60",
        "fail" => "#c0392b",
        "legacy-only" => "#7f8c8d",
        "both" => "#2e86c1",
        "modern-only" => "#17a589",
        "unknown" => "#d5d8dc",
        _ => "#aab7b8",
    }
}

/// Horizontal bars, one row per bar, its parts stacked from the left; a part's length is its
/// count over `scale` (the largest row total when 0).
pub fn bars(kind: &str, label: &str, bars: &[Bar], scale: usize) -> String {
    const ROW: u32 = 20;
    const LEN: u32 = 360;
    let lw = label_width(
        bars.iter().map(|b| b.label.chars().count().min(40)).max().unwrap_or(0),
        60,
    );
    let max = if scale == 0 {
        bars.iter()
            .map(|b| b.parts.iter().map(|(_, n)| n).sum::<usize>())
            .max()
            .unwrap_or(0)
    } else {
        scale
    }
    .max(1);
    let width = lw + LEN + 120;
    let height = 8 + ROW * bars.len().max(1) as u32;
    let mut out = String::new();
    open(&mut out, kind, width, height, label);
    for (r, b) in bars.iter().enumerate() {
        let y = 4 + ROW * r as u32;
        let mut attrs = String::new();
        for (name, n) in &b.parts {
            let _ = write!(attrs, " data-{}=\"{n}\"", escape(name));
        }
        let summary: Vec<String> = b.parts.iter().map(|(p, n)| format!("{p} {n}")).collect();
        let _ = write!(
            out,
            "<g class=\"bar\" data-label=\"{}\"{attrs}><title>{}: {}</title>",
            escape(&b.label),
            escape(&b.label),
            escape(&summary.join(", "))
        );
        text(&mut out, lw - 6, y + 13, "end", &cut(&b.label, 40));
        let mut x = lw;
        for (name, n) in &b.parts {
            // Rounded in integers so the picture is the same on every machine.
            let w = ((*n as u64 * LEN as u64 + max as u64 / 2) / max as u64) as u32;
            if w > 0 {
                let _ = write!(
                    out,
                    "<rect class=\"part\" data-part=\"{}\" data-count=\"{n}\" x=\"{x}\" y=\"{}\" \
                     width=\"{w}\" height=\"{}\" fill=\"{}\"/>",
                    escape(name),
                    y + 2,
                    ROW - 6,
                    part_colour(name)
                );
            }
            x += w;
        }
        text(&mut out, x + 6, y + 13, "start", &summary.join(" · "));
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    out
}

/// One run of a trend: its label, the assessed servers and the parts of them (name, servers,
/// tenths of a percent).
pub struct Step {
    pub label: String,
    pub assessed: usize,
    pub parts: Vec<(&'static str, usize, u32)>,
}

/// Columns, one per run in the order given, each the assessed servers split into its parts as
/// shares of 100 %; a run that assessed none is an empty frame.
pub fn trend(label: &str, steps: &[Step]) -> String {
    const COL: u32 = 90;
    const H: u32 = 160;
    let top = 10;
    let width = 40 + COL * steps.len().max(1) as u32;
    let height = top + H + 44;
    let mut out = String::new();
    open(&mut out, "trend", width, height, label);
    for (pct, y) in [(100, top), (50, top + H / 2), (0, top + H)] {
        let _ = write!(
            out,
            "<line x1=\"34\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#ddd\"/>",
            width - 4
        );
        text(&mut out, 30, y + 4, "end", &format!("{pct}%"));
    }
    for (i, s) in steps.iter().enumerate() {
        let x = 40 + COL * i as u32;
        let mut attrs = String::new();
        for (name, n, tenths) in &s.parts {
            let _ = write!(
                attrs,
                " data-{}=\"{n}\" data-{}-percent=\"{}\"",
                escape(name),
                escape(name),
                permille(*tenths)
            );
        }
        let summary: Vec<String> = s
            .parts
            .iter()
            .map(|(p, n, t)| format!("{p} {n} ({} %)", permille(*t)))
            .collect();
        let _ = write!(
            out,
            "<g class=\"step\" data-run=\"{}\" data-assessed=\"{}\"{attrs}><title>{}: {} assessed; {}</title>",
            escape(&s.label),
            s.assessed,
            escape(&s.label),
            s.assessed,
            escape(&summary.join(", "))
        );
        let _ = write!(
            out,
            "<rect x=\"{}\" y=\"{top}\" width=\"{}\" height=\"{H}\" fill=\"none\" stroke=\"#bbb\"/>",
            x + 10,
            COL - 20
        );
        let mut bottom = top + H;
        if s.assessed > 0 {
            for (name, n, _) in &s.parts {
                let h = ((*n as u64 * H as u64 + s.assessed as u64 / 2) / s.assessed as u64) as u32;
                let h = h.min(bottom - top);
                if h > 0 {
                    bottom -= h;
                    let _ = write!(
                        out,
                        "<rect class=\"part\" data-part=\"{}\" data-count=\"{n}\" x=\"{}\" y=\"{bottom}\" \
                         width=\"{}\" height=\"{h}\" fill=\"{}\"/>",
                        escape(name),
                        x + 10,
                        COL - 20,
                        part_colour(name)
                    );
                }
            }
        }
        text(&mut out, x + COL / 2, top + H + 16, "middle", &cut(&s.label, 14));
        text(
            &mut out,
            x + COL / 2,
            top + H + 32,
            "middle",
            &format!("{} assessed", s.assessed),
        );
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    out
}

/// Tenths of a percent as `50.0`.
pub fn permille(tenths: u32) -> String {
    format!("{}.{}", tenths / 10, tenths % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_escaped_and_numbers_are_attributes() {
        let rows = vec![(
            "<x & \"y\">".to_string(),
            vec![Cell {
                status: Some("fail"),
                checks: 3,
            }],
        )];
        let svg = heatmap(&Heatmap {
            label: "m",
            columns: &["SEC".to_string()],
            rows: &rows,
            totals: &[("fail", 1)],
        });
        assert!(!svg.contains("<x &"), "{svg}");
        assert!(svg.contains("data-row=\"&lt;x &amp; &quot;y&quot;&gt;\""), "{svg}");
        assert!(svg.contains("data-status=\"fail\" data-checks=\"3\""), "{svg}");
        let b = bars(
            "bars",
            "b",
            &[Bar {
                label: "SEC-001".into(),
                parts: vec![("pass", 2), ("fail", 1)],
            }],
            0,
        );
        assert!(b.contains("data-pass=\"2\" data-fail=\"1\""), "{b}");
        assert!(b.contains("<title>SEC-001: pass 2, fail 1</title>"), "{b}");
    }

    #[test]
    fn a_trend_column_of_no_assessed_server_is_an_empty_frame() {
        let t = trend(
            "t",
            &[Step {
                label: "r".into(),
                assessed: 0,
                parts: vec![("both", 0, 0)],
            }],
        );
        assert!(!t.contains("class=\"part\""), "{t}");
        assert!(t.contains("data-both-percent=\"0.0\""), "{t}");
    }
}
