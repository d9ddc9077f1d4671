//! Every input the fuzz targets keep, checked on stable in `cargo test`: the seed corpus
//! (`fuzz/corpus/<target>/`) and every input that once crashed a target
//! (`fuzz/regressions/<target>/`), so that a fix stays fixed without nightly or libFuzzer.

use std::path::{Path, PathBuf};

fn inputs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

#[test]
fn every_saved_input_passes_its_targets_check() {
    // The corpus and regression folders are shared with the core's and server's targets.
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut seeds = 0;
    for (name, check) in qiguan_fuzz_app_checks::TARGETS {
        let corpus = inputs(&fuzz.join("corpus").join(name));
        assert!(!corpus.is_empty(), "{name}: no seed inputs");
        seeds += corpus.len();
        for path in corpus
            .iter()
            .chain(&inputs(&fuzz.join("regressions").join(name)))
        {
            let data = std::fs::read(path).expect("a saved input");
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "{name}: {} fails", path.display());
        }
    }
    assert!(seeds >= 6, "only {seeds} seed inputs");
}
