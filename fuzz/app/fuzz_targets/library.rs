#![no_main]
//! Fuzz target `library`: see `qiguan_fuzz_app_checks::library` for what it checks.

libfuzzer_sys::fuzz_target!(|data: &[u8]| qiguan_fuzz_app_checks::library(data));
