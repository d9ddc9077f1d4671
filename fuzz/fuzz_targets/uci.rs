#![no_main]
//! Fuzz target `uci`: see `qiguan_fuzz_checks::uci` for what it checks.

libfuzzer_sys::fuzz_target!(|data: &[u8]| qiguan_fuzz_checks::uci(data));
