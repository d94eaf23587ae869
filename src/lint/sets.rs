//! Named id sets (`sets:` in catalogue.yaml): every member is a check of the catalogue. A
//! member that names no check, or a retired one, would make `id in set(…)` silently select
//! less than the maintainers wrote down.

use crate::diag::{codes, Diagnostic};
use crate::model::Catalogue;

pub fn check(cat: &Catalogue) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (name, members) in &cat.config.sets {
        for (i, id) in members.iter().enumerate() {
            if cat.check(id).is_some() {
                continue;
            }
            let line = cat
                .config
                .positions
                .line_of(&format!("sets.{name}[{i}]"))
                .unwrap_or(1);
            let d = match cat.retired(id) {
                Some(r) => {
                    let successor = r.merged_into.as_ref().or(r.replaced_by.as_ref());
                    Diagnostic::new(
                        &codes::SET_ID_RETIRED,
                        format!(
                            "set `{name}` names `{id}`, which was retired on {}{}",
                            r.retired,
                            successor
                                .map(|s| format!("; its successor is `{s}`"))
                                .unwrap_or_default()
                        ),
                    )
                    .help(match successor {
                        Some(s) => format!("name `{s}` instead of `{id}` in set `{name}`"),
                        None => codes::SET_ID_RETIRED.help.to_string(),
                    })
                }
                None => {
                    let known = cat.checks_by_id().into_iter().map(|c| c.id.as_str());
                    let hint = crate::text::suggest::did_you_mean(id, known)
                        .map(|s| format!("{s} "))
                        .unwrap_or_default();
                    Diagnostic::new(
                        &codes::SET_ID_UNKNOWN,
                        format!("set `{name}` names `{id}`, which is no check of this catalogue"),
                    )
                    .help(format!("{hint}{}", codes::SET_ID_UNKNOWN.help))
                }
            };
            out.push(
                d.file(crate::model::config::FILE_NAME)
                    .line(line)
                    .id(id.clone()),
            );
        }
    }
    out
}
