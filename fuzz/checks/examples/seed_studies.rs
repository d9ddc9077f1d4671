//! Writes seeds for the `xqf` and `dhtmlxq` targets: a study with nested variations, Chinese
//! comments and a start of its own, as XQF (without keys and with) and as DhtmlXQ. Run from
//! the repository root: `cargo run -p qiguan-fuzz-checks --example seed_studies`.

use qiguan_core::xiangqi::dhtmlxq::write_dhtmlxq;
use qiguan_core::xiangqi::study::sample;
use qiguan_core::xiangqi::xqf::{XqfKeys, write_xqf};

fn main() {
    // The study the readers' own tests round-trip.
    let study = sample();
    let keys = XqfKeys::SAMPLE;
    let out = |path: &str, bytes: &[u8]| std::fs::write(path, bytes).expect("a seed written");
    out(
        "fuzz/corpus/xqf/variations.xqf",
        &write_xqf(&study, XqfKeys::default()),
    );
    out(
        "fuzz/corpus/xqf/variations-keys.xqf",
        &write_xqf(&study, keys),
    );
    out(
        "fuzz/corpus/dhtmlxq/variations.txt",
        write_dhtmlxq(&study).as_bytes(),
    );
}
