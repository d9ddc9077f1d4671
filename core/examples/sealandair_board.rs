//! Writes the Sea-land-air board picture, docs/rules/sea-land-air-board.svg, from the board
//! data. Run from the workspace root: `cargo run -p qiguan-core --example sealandair_board`.

fn main() -> std::io::Result<()> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../docs/rules/sea-land-air-board.svg");
    std::fs::write(&path, qiguan_core::sealandair::picture::board_svg())?;
    println!("wrote {}", path.display());
    Ok(())
}
