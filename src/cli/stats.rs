//! `auditbook stats`: counts by category, severity, adoption and baseline, every vocabulary
//! value present (zeros included) so a vanished value shows as 0, not as a missing line.

use super::args::Cli;
use super::common::{self, Failure};
use super::formats::TextFormat;
use crate::model::{Adoption, Catalogue};
use serde::Serialize;

#[derive(Serialize)]
pub struct Count {
    pub value: String,
    pub count: usize,
}

#[derive(Serialize)]
pub struct Stats {
    pub checks: usize,
    pub categories: usize,
    pub by_category: Vec<Count>,
    pub by_severity: Vec<Count>,
    pub by_adoption: Vec<Count>,
    pub by_baseline: Vec<Count>,
}

pub fn compute(cat: &Catalogue) -> Stats {
    let count = |values: Vec<String>, f: &dyn Fn(&crate::model::Check) -> String| -> Vec<Count> {
        let mut out: Vec<Count> = values
            .into_iter()
            .map(|value| Count { value, count: 0 })
            .collect();
        for c in &cat.checks {
            let v = f(c);
            match out.iter_mut().find(|x| x.value == v) {
                Some(x) => x.count += 1,
                // A value outside the vocabulary was already reported by lint; still count it.
                None => out.push(Count { value: v, count: 1 }),
            }
        }
        out
    };
    let by_category = count(cat.categories.clone(), &|c| c.category.to_string());
    Stats {
        checks: cat.checks.len(),
        categories: by_category.len(),
        by_category,
        by_severity: count(cat.config.severities(), &|c| c.severity.to_string()),
        by_adoption: count(
            Adoption::ALL
                .iter()
                .map(|a| a.as_str().to_string())
                .collect(),
            &|c| c.adoption.as_str().to_string(),
        ),
        by_baseline: count(cat.config.baselines().values, &|c| {
            c.spec_baseline.to_string()
        }),
    }
}

fn human(cat: &Catalogue, s: &Stats) -> String {
    let mut out = format!(
        "{} checks in {} categories ({} {})\n",
        s.checks,
        s.categories,
        cat.name(),
        cat.config.version.as_deref().unwrap_or("unversioned")
    );
    for (title, counts) in [
        ("category", &s.by_category),
        ("severity", &s.by_severity),
        ("adoption", &s.by_adoption),
        ("spec_baseline", &s.by_baseline),
    ] {
        out.push_str(&format!("\nby {title}:\n"));
        let width = counts
            .iter()
            .map(|c| c.value.chars().count())
            .max()
            .unwrap_or(0);
        for c in counts {
            let name = if title == "category" {
                match cat.config.category_name(&c.value) {
                    Some(n) => format!("{:width$}  {:>4}  {n}", c.value, c.count),
                    None => format!("{:width$}  {:>4}", c.value, c.count),
                }
            } else {
                format!("{:width$}  {:>4}", c.value, c.count)
            };
            out.push_str(&format!("  {}\n", name.trim_end()));
        }
    }
    out
}

pub fn run(cli: &Cli, args: &super::args::StatsArgs) -> Result<u8, Failure> {
    let fmt = common::format(cli, args.format);
    let session = common::session(cli, crate::session::Needs::FRONTMATTER)?;
    let loaded = session.loaded();
    common::warn_load_problems(cli, loaded);
    let s = compute(&loaded.catalogue);
    let text = match fmt {
        TextFormat::Json => common::json_text(&s)?,
        TextFormat::Human => human(&loaded.catalogue, &s),
    };
    common::print(&text)?;
    Ok(super::EXIT_OK)
}
