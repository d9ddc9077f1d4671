//! The core's and server's targets' saved inputs, replayed on stable (see `fuzz/saved_inputs.rs`).

#[path = "../../saved_inputs.rs"]
mod saved_inputs;

#[test]
fn every_saved_input_passes_its_targets_check() {
    let fuzz = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    saved_inputs::replay(&fuzz, qiguan_fuzz_checks::TARGETS, 10);
}
