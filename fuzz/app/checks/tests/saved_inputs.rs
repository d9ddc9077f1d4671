//! The app's targets' saved inputs, replayed on stable (see `fuzz/saved_inputs.rs`): their
//! corpus and regression folders are under `fuzz/` with the core's and server's.

#[path = "../../../saved_inputs.rs"]
mod saved_inputs;

#[test]
fn every_saved_input_passes_its_targets_check() {
    let fuzz = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    saved_inputs::replay(&fuzz, qiguan_fuzz_app_checks::TARGETS, 6);
}
