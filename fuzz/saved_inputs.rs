//! Every input the fuzz targets keep, checked on stable in `cargo test`: the seed corpus
//! (`fuzz/corpus/<target>/`) and every input that once crashed a target
//! (`fuzz/regressions/<target>/`), so that a fix stays fixed without nightly or libFuzzer.
//! Shared by the core's and server's checks (`fuzz/checks`) and the app's (`fuzz/app/checks`),
//! whose tests include this file.

use std::path::{Path, PathBuf};

/// A target's check of one input.
type Check = fn(&[u8]);

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

/// Runs each target's check on its saved inputs under `fuzz` (the `fuzz/` folder); every
/// target must have seeds, at least `min_seeds` in all.
pub fn replay(fuzz: &Path, targets: &[(&str, Check)], min_seeds: usize) {
    let mut seeds = 0;
    for (name, check) in targets {
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
    assert!(seeds >= min_seeds, "only {seeds} seed inputs");
}
