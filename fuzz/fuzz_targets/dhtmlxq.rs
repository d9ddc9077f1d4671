#![no_main]
//! Fuzz target `dhtmlxq`: see `qiguan_fuzz_checks::dhtmlxq` for what it checks.

libfuzzer_sys::fuzz_target!(|data: &[u8]| qiguan_fuzz_checks::dhtmlxq(data));
