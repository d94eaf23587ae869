//! The one table of a check's frontmatter fields. The loader's key lists, the expression
//! schema of `--where`, the JSON Schema and the format reference, `list`, `show`, the named
//! tables and the site all read their fields from `FIELDS`, under the key the format defines,
//! so a field has one name everywhere and a new field is one row here (plus its place in
//! `Check` and how the loader types it).

use super::{Adoption, Catalogue, Check};
use serde_json::Value;

/// What a field holds; decides its JSON Schema, its vocabulary and how views show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The check's id (shown as a heading, not as a field).
    Id,
    /// The check's title (shown as a heading, not as a field).
    Title,
    /// A declared category prefix.
    Category,
    /// One of the catalogue's severities.
    Severity,
    /// An `applies_when` expression.
    Expression,
    /// A declared baseline (or an alias of one).
    Baseline,
    /// `enforced` or `advisory`.
    Adoption,
    /// A whole number.
    Count,
    /// Free text that most checks leave out.
    Text,
    /// The probe declarations (`probe:`), a list.
    Probes,
    /// The source rules (`scan:`), a list.
    Scan,
    /// A list of names (`conformance:`: ids of the official conformance suite's checks).
    Names,
}

/// One frontmatter field of a check.
pub struct CheckField {
    /// The key as the format writes it; the one name of the field in every output.
    pub key: &'static str,
    pub required: bool,
    pub kind: Kind,
    /// What the field means, in one sentence (the schema's and the reference's description;
    /// a kind may add what the catalogue declares).
    pub doc: &'static str,
    /// The value an absent optional field takes, as the reference writes it (`None`: no
    /// default, or the catalogue's own, as for the baseline).
    pub default: Option<&'static str>,
    /// Label of the field where a view names it in prose (the site's filters).
    pub label: &'static str,
    /// Shown by every view of a check (`list --format json`, tables, the site, `show`,
    /// snapshots) and readable by `--where` expressions.
    pub exposed: bool,
    /// Position among the columns of `list` and the fields of `show` and a site page
    /// (1 first); 0 when the field is shown after the columns, only when it has a value.
    pub column: u8,
    /// The field's effective value on a check (defaults applied).
    pub value: for<'c> fn(&'c Check) -> FieldValue<'c>,
}

/// A field's value on one check.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldValue<'c> {
    Text(&'c str),
    Count(u32),
    Probes(&'c [super::probe::ProbeSpec]),
    Names(&'c [String]),
    Scan(&'c [super::scan::ScanRule]),
    /// An optional field the check leaves out.
    Absent,
}

impl FieldValue<'_> {
    pub fn is_absent(&self) -> bool {
        matches!(self, FieldValue::Absent)
    }

    pub fn to_json(&self) -> Value {
        match self {
            FieldValue::Text(s) => Value::String((*s).to_string()),
            FieldValue::Count(n) => Value::from(*n),
            FieldValue::Probes(p) => serde_json::to_value(p).unwrap_or(Value::Null),
            FieldValue::Names(n) => Value::from(n.to_vec()),
            FieldValue::Scan(s) => serde_json::to_value(s).unwrap_or(Value::Null),
            FieldValue::Absent => Value::Null,
        }
    }

    /// The value as one line of text (a table cell, an expression's string); absent is "".
    pub fn to_text(&self) -> String {
        match self {
            FieldValue::Text(s) => (*s).to_string(),
            FieldValue::Count(n) => n.to_string(),
            FieldValue::Probes(p) => p
                .iter()
                .map(|s| s.kind.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            FieldValue::Names(n) => n.join(", "),
            FieldValue::Scan(s) => s
                .iter()
                .map(|r| r.id.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            FieldValue::Absent => String::new(),
        }
    }
}

/// The format's frontmatter fields, required first, in the order the format reference lists
/// them (and `list --format json` writes them).
pub const FIELDS: &[CheckField] = &[
    CheckField {
        key: "id",
        required: true,
        kind: Kind::Id,
        doc: "The check's id; equal to the file name without `.md`, its prefix equal to `category`.",
        default: None,
        label: "Id",
        exposed: true,
        column: 1,
        value: |c| FieldValue::Text(&c.id),
    },
    CheckField {
        key: "title",
        required: true,
        kind: Kind::Title,
        doc: "What the check asks, in one line.",
        default: None,
        label: "Title",
        exposed: true,
        column: 8,
        value: |c| FieldValue::Text(&c.title),
    },
    CheckField {
        key: "category",
        required: true,
        kind: Kind::Category,
        doc: "The category prefix",
        default: None,
        label: "Category",
        exposed: true,
        column: 2,
        value: |c| FieldValue::Text(&c.category),
    },
    CheckField {
        key: "severity",
        required: true,
        kind: Kind::Severity,
        doc: "How severe a failure is, most severe first",
        default: None,
        label: "Severity",
        exposed: true,
        column: 3,
        value: |c| FieldValue::Text(&c.severity),
    },
    CheckField {
        key: "applies_when",
        required: true,
        kind: Kind::Expression,
        doc: "When the check applies to a server profile: an expression such as `transport != \"stdio-only\"`, or `always`.",
        default: None,
        label: "Applies when",
        exposed: true,
        column: 7,
        value: |c| FieldValue::Text(&c.applies_when),
    },
    CheckField {
        key: "spec_baseline",
        required: false,
        kind: Kind::Baseline,
        doc: "The protocol revision the check is written for",
        default: None,
        label: "Baseline",
        exposed: true,
        column: 5,
        value: |c| FieldValue::Text(&c.spec_baseline),
    },
    CheckField {
        key: "adoption",
        required: false,
        kind: Kind::Adoption,
        doc: "Whether a failure can block production readiness (`enforced`) or is reported by name only (`advisory`).",
        default: Some("enforced"),
        label: "Adoption",
        exposed: true,
        column: 4,
        value: |c| FieldValue::Text(c.adoption.as_str()),
    },
    CheckField {
        key: "evidence_required",
        required: false,
        kind: Kind::Count,
        doc: "How many observations a verdict on this check must carry.",
        default: Some("1"),
        label: "Evidence required",
        exposed: true,
        column: 6,
        value: |c| FieldValue::Count(c.evidence_required),
    },
    CheckField {
        key: "pdf_ref",
        required: false,
        kind: Kind::Text,
        doc: "Provenance of the check.",
        default: None,
        label: "PDF reference",
        exposed: true,
        column: 0,
        value: |c| c.pdf_ref().map_or(FieldValue::Absent, FieldValue::Text),
    },
    CheckField {
        key: "spec_ref",
        required: false,
        kind: Kind::Text,
        doc: "Provenance of the check.",
        default: None,
        label: "Specification reference",
        exposed: true,
        column: 0,
        value: |c| c.spec_ref().map_or(FieldValue::Absent, FieldValue::Text),
    },
    CheckField {
        key: "probe",
        required: false,
        kind: Kind::Probes,
        doc: "How `auditbook probe` observes the check on a live server: built-in kinds and declared steps (section 2, Probes).",
        default: None,
        label: "Probes",
        exposed: false,
        column: 0,
        value: |c| match c.probes() {
            [] => FieldValue::Absent,
            p => FieldValue::Probes(p),
        },
    },
    CheckField {
        key: "scan",
        required: false,
        kind: Kind::Scan,
        doc: "How `auditbook scan` observes the check in a server's source: structural rules in ast-grep's format and file facts, each a proof or a signal (section 2, Source rules).",
        default: None,
        label: "Source rules",
        exposed: false,
        column: 0,
        value: |c| match c.scan() {
            [] => FieldValue::Absent,
            s => FieldValue::Scan(s),
        },
    },
    CheckField {
        key: "conformance",
        required: false,
        kind: Kind::Names,
        doc: "Ids of the official conformance suite's checks that observe this check (`auditbook probe --conformance`); a trailing `*` matches every id with that start.",
        default: None,
        label: "Conformance",
        exposed: false,
        column: 0,
        value: |c| match c.conformance() {
            [] => FieldValue::Absent,
            n => FieldValue::Names(n),
        },
    },
];

/// How many fields the format has (the size of `FieldLines`).
pub const COUNT: usize = FIELDS.len();

/// The keys of `FIELDS`, in its order.
pub const KEYS: [&str; COUNT] = {
    let mut keys = [""; COUNT];
    let mut i = 0;
    while i < COUNT {
        keys[i] = FIELDS[i].key;
        i += 1;
    }
    keys
};

/// How many of the fields are required (they come first).
const REQUIRED_COUNT: usize = {
    let mut n = 0;
    while n < COUNT && FIELDS[n].required {
        n += 1;
    }
    n
};

/// The required keys, then the optional ones.
pub const REQUIRED: &[&str] = KEYS.split_at(REQUIRED_COUNT).0;
pub const OPTIONAL: &[&str] = KEYS.split_at(REQUIRED_COUNT).1;

// Required fields come first: `REQUIRED` and `OPTIONAL` split the table in two.
const _: () = {
    let mut i = REQUIRED_COUNT;
    while i < COUNT {
        assert!(!FIELDS[i].required, "required fields come first in FIELDS");
        i += 1;
    }
};

/// The field of a key.
pub fn field(key: &str) -> Option<&'static CheckField> {
    FIELDS.iter().find(|f| f.key == key)
}

/// The fields every view shows.
pub fn exposed() -> impl Iterator<Item = &'static CheckField> {
    FIELDS.iter().filter(|f| f.exposed)
}

/// The columns of `list`, in their order.
pub fn columns() -> Vec<&'static CheckField> {
    let mut cols: Vec<&CheckField> = exposed().filter(|f| f.column > 0).collect();
    cols.sort_by_key(|f| f.column);
    cols
}

/// The fields a page about one check shows under its `id — title` heading: the columns, then
/// the fields that only some checks have.
pub fn detail() -> Vec<&'static CheckField> {
    let mut fields: Vec<&CheckField> = columns()
        .into_iter()
        .filter(|f| !matches!(f.kind, Kind::Id | Kind::Title))
        .collect();
    fields.extend(exposed().filter(|f| f.column == 0));
    fields
}

/// A check's exposed fields as a JSON object, in the table's order (absent ones as `null`).
pub fn json(c: &Check) -> serde_json::Map<String, Value> {
    exposed()
        .map(|f| (f.key.to_string(), (f.value)(c).to_json()))
        .collect()
}

/// The values a field may take in this catalogue, in the catalogue's order; `None` for an
/// open field. (Baseline aliases are accepted in a file but never an effective value.)
pub fn vocabulary(kind: Kind, cat: &Catalogue) -> Option<Vec<String>> {
    match kind {
        Kind::Category => Some(cat.categories.clone()),
        Kind::Severity => Some(cat.config.severities()),
        Kind::Adoption => Some(Adoption::ALL.iter().map(|a| a.as_str().into()).collect()),
        Kind::Baseline => Some(cat.config.baselines().values),
        Kind::Id
        | Kind::Title
        | Kind::Expression
        | Kind::Count
        | Kind::Text
        | Kind::Probes
        | Kind::Scan
        | Kind::Names => None,
    }
}

/// The fields with a closed vocabulary, which counts and filters group checks by, in column
/// order.
pub fn closed() -> Vec<&'static CheckField> {
    columns()
        .into_iter()
        .filter(|f| {
            matches!(
                f.kind,
                Kind::Category | Kind::Severity | Kind::Adoption | Kind::Baseline
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_columns_distinct() {
        let mut keys = KEYS.to_vec();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), COUNT);
        let mut cols: Vec<u8> = columns().iter().map(|f| f.column).collect();
        cols.dedup();
        assert_eq!(cols.len(), columns().len());
        assert_eq!(REQUIRED.len() + OPTIONAL.len(), COUNT);
        assert!(REQUIRED
            .iter()
            .all(|k| field(k).is_some_and(|f| f.required)));
    }
}
