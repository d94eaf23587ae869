//! Plain aligned text tables for the terminal.

/// Columns padded to their widest cell (in characters); the last column is not padded. Cells
/// hold catalogue and profile text, so control characters are made visible first.
pub fn render(header: &[&str], rows: &[Vec<String>]) -> String {
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|c| super::excerpt::terminal_safe(c, false).into_owned())
                .collect()
        })
        .collect();
    let rows = &rows;
    let cols = header.len();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate().take(cols) {
            if let Some(w) = widths.get_mut(i) {
                *w = (*w).max(c.chars().count());
            }
        }
    }
    let mut out = String::new();
    let mut line = |cells: Vec<&str>| {
        let mut l = String::new();
        for (i, c) in cells.iter().enumerate() {
            if i + 1 == cells.len() {
                l.push_str(c);
            } else {
                let pad = widths.get(i).copied().unwrap_or(0)
                    - c.chars().count().min(widths.get(i).copied().unwrap_or(0));
                l.push_str(c);
                l.push_str(&" ".repeat(pad + 2));
            }
        }
        out.push_str(l.trim_end());
        out.push('\n');
    };
    line(header.to_vec());
    for r in rows {
        line(r.iter().map(String::as_str).collect());
    }
    out
}
