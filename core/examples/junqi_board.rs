//! Writes the Junqi board picture, docs/rules/junqi-board.svg, from the board data. Run from
//! the workspace root: `cargo run -p qiguan-core --example junqi_board`.

fn main() -> std::io::Result<()> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rules/junqi-board.svg");
    std::fs::write(&path, qiguan_core::junqi::picture::board_svg())?;
    println!("wrote {}", path.display());
    Ok(())
}
