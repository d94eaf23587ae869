//! `probe_target`: the probe of a server named on the command line (`--allow-probe`).

use super::tool::Def;

pub fn defs() -> Vec<Def> {
    Vec::new()
}
