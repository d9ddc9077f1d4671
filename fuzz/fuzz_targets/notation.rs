#![no_main]
//! Fuzz target `notation`: see `qiguan_fuzz_checks::notation` for what it checks.

libfuzzer_sys::fuzz_target!(|data: &[u8]| qiguan_fuzz_checks::notation(data));
