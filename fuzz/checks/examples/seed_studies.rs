//! Writes seeds for the `xqf` and `dhtmlxq` targets: a study with nested variations, Chinese
//! comments and a start of its own, as XQF (without keys and with) and as DhtmlXQ. Run from
//! the repository root: `cargo run -p qiguan-fuzz-checks --example seed_studies`.

use qiguan_core::xiangqi::Position;
use qiguan_core::xiangqi::dhtmlxq::write_dhtmlxq;
use qiguan_core::xiangqi::notation::parse_coordinates;
use qiguan_core::xiangqi::study::{Node, Study};
use qiguan_core::xiangqi::xqf::{XqfKeys, write_xqf};

fn node(m: &str, comment: Option<&str>, next: Vec<Node>) -> Node {
    Node {
        mv: parse_coordinates(m).expect("a move"),
        comment: comment.map(str::to_owned),
        next,
    }
}

fn main() {
    let start = Position::from_fen("3akab2/9/4b4/p3p3p/2p6/6P2/P3P4/2N1B4/4A4/2BAK3R w - - 0 1")
        .expect("the position");
    let study = Study {
        tags: vec![
            ("Event".into(), "残局练习".into()),
            ("Red".into(), "红方甲".into()),
            ("Result".into(), "1-0".into()),
        ],
        start,
        comment: Some("红先".into()),
        moves: vec![
            node(
                "i1i5",
                Some("车占中路"),
                vec![
                    node("c6c5", None, vec![node("i5i6", None, vec![])]),
                    node(
                        "a7a6",
                        Some("另一着"),
                        vec![
                            node("i5i6", None, vec![]),
                            node("e4e5", Some("弃兵"), vec![]),
                        ],
                    ),
                ],
            ),
            node("c3d5", Some("马进"), vec![node("a7a6", None, vec![])]),
        ],
    };
    let keys = XqfKeys {
        mask: 0xFF,
        or: [0x11, 0x22, 0x33, 0x44],
        sum: 0x5A,
        xy: 0x7B,
        from: 0x9C,
        to: 0xBD,
    };
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
