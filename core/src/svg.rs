//! What the board pictures (`<game>::picture`) draw with: SVG elements written as text.

use std::fmt::Write;

/// Opens a picture `width` × `height` px, its words in a Chinese sans-serif face (the caller
/// closes it with `</svg>`).
pub(crate) fn start(out: &mut String, width: f64, height: f64) {
    let _ = writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="Noto Sans CJK SC, Noto Sans SC, sans-serif">"##
    );
}

/// A straight line from `a` to `b`, with its style attributes.
pub(crate) fn line(out: &mut String, a: (f64, f64), b: (f64, f64), style: &str) {
    let _ = writeln!(
        out,
        r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" {style}/>"#,
        a.0, a.1, b.0, b.1
    );
}

/// Words centred on `at`.
pub(crate) fn text(out: &mut String, at: (f64, f64), size: f64, fill: &str, words: &str) {
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" font-size="{size}" fill="{fill}" text-anchor="middle" dominant-baseline="central">{words}</text>"#,
        at.0, at.1
    );
}
