//! What the data-input fuzz targets share: the shipped catalogue, loaded once, and a scratch
//! folder the fuzzed bytes are written into (data files are read from paths, as the CLI does).

use auditbook::model::Catalogue;
use std::path::PathBuf;
use std::sync::OnceLock;

pub fn catalogue() -> &'static Catalogue {
    static CAT: OnceLock<Catalogue> = OnceLock::new();
    CAT.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../catalogue");
        match auditbook::load::load(&root) {
            Ok(l) => l.catalogue,
            Err(e) => panic!("the shipped catalogue must load: {e}"),
        }
    })
}

/// `data` written to `scratch/NAME` for each of the YAML and JSON names; the paths written.
pub fn written(data: &[u8]) -> Vec<(PathBuf, &'static str)> {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("auditbook-fuzz-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&d);
        d
    });
    ["input.yaml", "input.json"]
        .into_iter()
        .filter_map(|name| {
            let path = dir.join(name);
            std::fs::write(&path, data).ok().map(|_| (path, name))
        })
        .collect()
}
