#![no_main]
//! Fuzz target `database`: see `qiguan_fuzz_app_checks::database` for what it checks.

libfuzzer_sys::fuzz_target!(|data: &[u8]| qiguan_fuzz_app_checks::database(data));
