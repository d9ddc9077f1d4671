#![no_main]
//! Fuzz target `fen`: see `qiguan_fuzz_checks::fen` for what it checks.

libfuzzer_sys::fuzz_target!(|data: &[u8]| qiguan_fuzz_checks::fen(data));
