//! The HTML pages with pictures: the portfolio report (`portfolio --format html`, the matrix
//! as tables plus a heatmap, pass and fail per check, revision support and the trend of fleet
//! runs) and the fleet's "state of" summary. Both hand the templates the pictures as SVG text
//! built by `svg` (escaped there) beside the figures they draw (`fleet::pictures`,
//! `fleet::report::StateOf`), so a table and its picture always say the same.

use super::svg::{self, Bar, Cell, Heatmap, Step};
use crate::audit::portfolio::Matrix;
use crate::fleet::pictures::Figures;
use crate::fleet::report::StateOf;
use tera::Context;

/// The context `portfolio.html.tera` is rendered with: the matrix's own fields, `figures`,
/// and `svg` (heatmap, checks, revisions, trend — the last empty without runs).
pub fn portfolio(m: &Matrix, f: &Figures) -> Result<Context, tera::Error> {
    let mut ctx = Context::from_serialize(m)?;
    let columns: Vec<String> = m.categories.iter().map(|c| c.prefix.clone()).collect();
    let rows: Vec<(String, Vec<Cell>)> = m
        .servers
        .iter()
        .map(|s| {
            let cells = s
                .worst
                .iter()
                .zip(&s.by_category)
                .map(|(w, n)| Cell {
                    status: w.map(|w| w.as_str()),
                    checks: *n,
                })
                .collect();
            (s.name.clone(), cells)
        })
        .collect();
    let totals: Vec<(&'static str, usize)> =
        f.cells.iter().filter(|(_, n)| *n > 0).copied().collect();
    let heatmap = svg::heatmap(&Heatmap {
        label: "Worst status per server and category",
        columns: &columns,
        rows: &rows,
        totals: &totals,
    });
    let decided: Vec<Bar> = f
        .checks
        .iter()
        .filter(|(_, c)| c.pass + c.fail > 0)
        .map(|(id, c)| Bar {
            label: id.clone(),
            parts: vec![("pass", c.pass), ("fail", c.fail)],
        })
        .collect();
    let checks = svg::bars(
        "checks",
        "Servers passing and failing each check",
        &decided,
        m.servers.len(),
    );
    let revisions = svg::bars(
        "revisions",
        "Servers by protocol revision support",
        &f.revisions
            .iter()
            .map(|(r, n)| Bar {
                label: r.to_string(),
                parts: vec![(r, *n)],
            })
            .collect::<Vec<_>>(),
        m.servers.len(),
    );
    let trend = if f.trend.is_empty() {
        String::new()
    } else {
        svg::trend(
            "Assessed servers by revision support, per run",
            &f.trend
                .iter()
                .map(|s| Step {
                    label: s.label.clone(),
                    assessed: s.assessed,
                    parts: s
                        .shares
                        .iter()
                        .map(|p| (p.bucket, p.servers, p.tenths))
                        .collect(),
                })
                .collect::<Vec<_>>(),
        )
    };
    ctx.insert("figures", f);
    ctx.insert("undecided_checks", &(f.checks.len() - decided.len()));
    ctx.insert(
        "svg",
        &serde_json::json!({
            "heatmap": heatmap,
            "checks": checks,
            "revisions": revisions,
            "trend": trend,
        }),
    );
    Ok(ctx)
}

/// The context `state-of.html.tera` is rendered with: the summary's counts (`StateOf` holds no
/// server's name) and `svg` (buckets, checks).
pub fn state_of(s: &StateOf) -> Result<Context, tera::Error> {
    let mut ctx = Context::from_serialize(s)?;
    let buckets = svg::bars(
        "buckets",
        "Servers per bucket",
        &s.buckets
            .iter()
            .map(|b| Bar {
                label: b.bucket.to_string(),
                parts: vec![("servers", b.servers)],
            })
            .collect::<Vec<_>>(),
        s.declared,
    );
    let checks = svg::bars(
        "checks",
        "Assessed servers passing and failing each probed check",
        &s.checks
            .iter()
            .map(|(id, c)| Bar {
                label: id.clone(),
                parts: vec![("pass", c.pass), ("fail", c.fail)],
            })
            .collect::<Vec<_>>(),
        s.assessed,
    );
    ctx.insert(
        "svg",
        &serde_json::json!({"buckets": buckets, "checks": checks}),
    );
    Ok(ctx)
}
