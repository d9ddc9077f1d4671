#![no_main]
//! Fuzz target `pgn`: see `qiguan_fuzz_checks::pgn` for what it checks.

libfuzzer_sys::fuzz_target!(|data: &[u8]| qiguan_fuzz_checks::pgn(data));
