//! `auditbook sync`: rewrite stale generated regions in place, atomically; with any marker
//! problem, nothing is written.

use super::args::{Cli, SyncArgs};
use super::common::{self, Failure};
use super::formats::TextFormat;

pub fn run(cli: &Cli, args: &SyncArgs) -> Result<u8, Failure> {
    if let Some(claims) = &args.claims {
        return super::elsewhere::sync(cli, claims, args.format);
    }
    let fmt = common::format(cli, args.format);
    let writing = common::write_session(cli)?;
    let session = common::session(cli, crate::session::Needs::BODIES)?;
    let plan = match session.sync_plan().map_err(Failure::Message)? {
        Ok(p) => p,
        Err(findings) => {
            let mut extra = serde_json::Map::new();
            extra.insert("written".into(), 0.into());
            return common::report(cli, "sync", &findings, &session, fmt.into(), extra);
        }
    };
    writing
        .apply("sync", &plan.changes)
        .map_err(Failure::io("cannot write"))?;
    let prefix = common::prefix(cli);
    common::print(&outcome(cli, &plan, &prefix, fmt)?)?;
    Ok(super::EXIT_OK)
}

/// What a sync run says: each rewritten region (unless quiet) and a summary, or the same as JSON.
pub fn outcome(
    cli: &Cli,
    plan: &crate::claims::SyncPlan,
    prefix: &str,
    fmt: TextFormat,
) -> Result<String, Failure> {
    let text = if fmt == TextFormat::Json {
        let rewritten: Vec<_> = plan
            .rewritten
            .iter()
            .map(|(f, l, r)| serde_json::json!({"file": f, "line": l, "region": r}))
            .collect();
        let doc = serde_json::json!({
            "rewritten": rewritten,
            "summary": {"regions": plan.regions, "rewritten": plan.rewritten.len(), "documents": plan.changes.len()},
        });
        common::json_text(&doc)?
    } else {
        let mut t = String::new();
        if !cli.quiet {
            for (f, l, r) in &plan.rewritten {
                t.push_str(&format!(
                    "rewrote {}:{l}: {r}\n",
                    crate::render::diagnostics::join(prefix, f)
                ));
            }
        }
        t.push_str(&match plan.rewritten.len() {
            0 => format!(
                "all {} generated region(s) are current; nothing written\n",
                plan.regions
            ),
            n => format!(
                "rewrote {n} of {} generated region(s) in {} document(s)\n",
                plan.regions,
                plan.changes.len()
            ),
        });
        t
    };
    Ok(text)
}
