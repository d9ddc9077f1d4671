#![no_main]
//! Fuzz target `record`: see `qiguan_fuzz_checks::record` for what it checks.

libfuzzer_sys::fuzz_target!(|data: &[u8]| qiguan_fuzz_checks::record(data));
