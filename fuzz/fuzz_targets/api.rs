#![no_main]
//! Fuzz target `api`: see `qiguan_fuzz_checks::api` for what it checks.

libfuzzer_sys::fuzz_target!(|data: &[u8]| qiguan_fuzz_checks::api::api(data));
