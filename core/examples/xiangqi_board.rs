//! Writes the Xiangqi board picture, docs/rules/xiangqi-board.svg, from the board data and the
//! starting position. Run from the workspace root: `cargo run -p qiguan-core --example
//! xiangqi_board`.

fn main() -> std::io::Result<()> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rules/xiangqi-board.svg");
    std::fs::write(&path, qiguan_core::xiangqi::picture::board_svg())?;
    println!("wrote {}", path.display());
    Ok(())
}
