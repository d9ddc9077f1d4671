//! Writes the Aeroplane chess board picture, docs/rules/aeroplane-board.svg, from the board
//! data. Run from the workspace root: `cargo run -p qiguan-core --example aeroplane_board`.

fn main() -> std::io::Result<()> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rules/aeroplane-board.svg");
    std::fs::write(&path, qiguan_core::aeroplane::picture::board_svg())?;
    println!("wrote {}", path.display());
    Ok(())
}
