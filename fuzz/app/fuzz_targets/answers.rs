#![no_main]
//! Fuzz target `answers`: see `qiguan_fuzz_app_checks::answers` for what it checks.

libfuzzer_sys::fuzz_target!(|data: &[u8]| qiguan_fuzz_app_checks::answers(data));
