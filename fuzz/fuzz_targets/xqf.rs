#![no_main]
//! Fuzz target `xqf`: see `qiguan_fuzz_checks::xqf` for what it checks.

libfuzzer_sys::fuzz_target!(|data: &[u8]| qiguan_fuzz_checks::xqf(data));
