//! `auditbook stats`: counts by category, severity, adoption and spec_baseline, every vocabulary
//! value present (zeros included) so a vanished value shows as 0, not as a missing line.

use super::args::Cli;
use super::common::{self, Failure};
use super::formats::TextFormat;
use crate::model::fields::{self, CheckField, Kind};
use crate::model::Catalogue;
use serde::Serialize;

#[derive(Serialize)]
pub struct Count {
    pub value: String,
    pub count: usize,
}

/// Counts by every field with a closed vocabulary (`model::fields::closed`): category,
/// severity, adoption, spec_baseline. In JSON each is `by_<label>` (`by_baseline`).
pub struct Stats {
    pub checks: usize,
    pub categories: usize,
    pub by: Vec<(&'static CheckField, Vec<Count>)>,
}

impl Serialize for Stats {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(2 + self.by.len()))?;
        m.serialize_entry("checks", &self.checks)?;
        m.serialize_entry("categories", &self.categories)?;
        // The JSON keys name each group by the field's label (`by_baseline`), as they have
        // since the first release; scripts read them.
        for (f, counts) in &self.by {
            m.serialize_entry(&format!("by_{}", f.label.to_lowercase()), counts)?;
        }
        m.end()
    }
}

pub fn compute(cat: &Catalogue) -> Stats {
    let count = |values: Vec<String>, f: &CheckField| -> Vec<Count> {
        let mut out: Vec<Count> = values
            .into_iter()
            .map(|value| Count { value, count: 0 })
            .collect();
        for c in &cat.checks {
            let v = (f.value)(c).to_text();
            match out.iter_mut().find(|x| x.value == v) {
                Some(x) => x.count += 1,
                // A value outside the vocabulary was already reported by lint; still count it.
                None => out.push(Count { value: v, count: 1 }),
            }
        }
        out
    };
    let by: Vec<(&CheckField, Vec<Count>)> = fields::closed()
        .into_iter()
        .map(|f| {
            let values = fields::vocabulary(f.kind, cat).unwrap_or_default();
            (f, count(values, f))
        })
        .collect();
    let categories = by
        .iter()
        .find(|(f, _)| f.kind == Kind::Category)
        .map_or(0, |(_, counts)| counts.len());
    Stats {
        checks: cat.checks.len(),
        categories,
        by,
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
    for (f, counts) in &s.by {
        let title = f.key;
        out.push_str(&format!("\nby {title}:\n"));
        let width = counts
            .iter()
            .map(|c| c.value.chars().count())
            .max()
            .unwrap_or(0);
        for c in counts {
            let name = if f.kind == Kind::Category {
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
