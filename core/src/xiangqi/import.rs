//! Reading a Xiangqi game from whatever a player has: an XQF file, a DhtmlXQ paste from a
//! forum, PGN (moves in Chinese, WXF, ICCS or coordinates) or a bare FEN. The format is told
//! from the content, not from a file name; text may be UTF-8 or GB18030 (as Chinese PGN files
//! often are).

use super::dhtmlxq::{DhtmlXqError, is_dhtmlxq, read_dhtmlxq};
use super::pgn::PgnError;
use super::pgn_study::read_study_pgn;
use super::study::{IllegalLine, Study};
use super::xqf::{XqfError, read_xqf};
use encoding_rs::GB18030;
use std::fmt;

/// The formats [`read_any`] tells apart.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// XQStudio's binary XQF.
    Xqf,
    /// The DhtmlXQ tags forums paste.
    DhtmlXq,
    /// PGN or a bare FEN.
    Pgn,
}

/// Why a file or text could not be read, by the format it was taken for.
#[derive(Clone, PartialEq, Debug)]
pub enum ImportError {
    /// An XQF file that cannot be read.
    Xqf(XqfError),
    /// DhtmlXQ tags that cannot be read.
    DhtmlXq(DhtmlXqError),
    /// PGN or FEN that cannot be read.
    Pgn(PgnError),
}

impl ImportError {
    /// The move that cannot be played, where that is what went wrong.
    pub fn illegal(&self) -> Option<IllegalLine> {
        match self {
            ImportError::Xqf(XqfError::Illegal(line))
            | ImportError::DhtmlXq(DhtmlXqError::Illegal(line)) => Some(line.clone()),
            ImportError::Pgn(PgnError::Move { ply, text, .. }) => Some(IllegalLine {
                ply: *ply,
                text: text.clone(),
            }),
            _ => None,
        }
    }

    /// Whether the start position is what is wrong.
    pub fn bad_position(&self) -> bool {
        matches!(
            self,
            ImportError::Xqf(XqfError::BadPosition(_))
                | ImportError::DhtmlXq(DhtmlXqError::BadPosition(_))
                | ImportError::Pgn(PgnError::Fen(_))
        )
    }

    /// The format the input was taken for.
    pub fn format(&self) -> Format {
        match self {
            ImportError::Xqf(_) => Format::Xqf,
            ImportError::DhtmlXq(_) => Format::DhtmlXq,
            ImportError::Pgn(_) => Format::Pgn,
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Xqf(e) => e.fmt(f),
            ImportError::DhtmlXq(e) => e.fmt(f),
            ImportError::Pgn(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ImportError {}

/// Tells the format of a file's bytes.
pub fn format_of(bytes: &[u8]) -> Format {
    if bytes.starts_with(b"XQ") {
        return Format::Xqf;
    }
    if is_dhtmlxq(&text_of(bytes)) {
        Format::DhtmlXq
    } else {
        Format::Pgn
    }
}

/// Reads a game from a file's bytes, whichever of the formats it is in.
pub fn read_any(bytes: &[u8]) -> Result<Study, ImportError> {
    match format_of(bytes) {
        Format::Xqf => read_xqf(bytes).map_err(ImportError::Xqf),
        _ => read_text(&text_of(bytes)),
    }
}

/// Reads a game from text (pasted, say): DhtmlXQ, PGN or FEN.
pub fn read_text(text: &str) -> Result<Study, ImportError> {
    if is_dhtmlxq(text) {
        return read_dhtmlxq(text).map_err(ImportError::DhtmlXq);
    }
    read_study_pgn(text).map_err(ImportError::Pgn)
}

/// Bytes as text: UTF-8 (a byte-order mark dropped), else GB18030.
fn text_of(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => GB18030.decode_without_bom_handling(bytes).0.into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::dhtmlxq::write_dhtmlxq;
    use crate::xiangqi::xqf::{XqfKeys, write_xqf};

    const PGN: &str = "[Event \"练习\"]\n[Red \"甲\"]\n[Black \"乙\"]\n[Result \"1-0\"]\n\n\
                       1. 炮二平五 马8进7 2. 马二进三 车9平8 1-0\n";

    #[test]
    fn every_format_is_told_from_its_content_and_reads_to_the_same_game() {
        let from_pgn = read_any(PGN.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(from_pgn.main_line().len(), 4);
        assert_eq!(from_pgn.tag("Red"), Some("甲"));
        // The same game as GB18030 PGN, as DhtmlXQ and as XQF.
        let gbk = GB18030.encode(PGN).0.into_owned();
        assert!(std::str::from_utf8(&gbk).is_err());
        let dhtml = write_dhtmlxq(&from_pgn);
        let xqf = write_xqf(&from_pgn, XqfKeys::default());
        for (bytes, format) in [
            (gbk, Format::Pgn),
            (dhtml.into_bytes(), Format::DhtmlXq),
            (xqf, Format::Xqf),
        ] {
            assert_eq!(format_of(&bytes), format);
            let read = read_any(&bytes).unwrap_or_else(|e| panic!("{format:?}: {e}"));
            assert_eq!(read.main_line(), from_pgn.main_line(), "{format:?}");
            assert_eq!(read.tag("Red"), Some("甲"), "{format:?}");
            assert_eq!(read.tag("Result"), Some("1-0"), "{format:?}");
        }
    }

    #[test]
    fn a_bare_fen_is_a_position_to_study() {
        let read = read_text("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap_or_else(|e| panic!("{e}"));
        assert!(read.moves.is_empty());
    }

    #[test]
    fn errors_name_the_move_or_the_position() {
        let illegal = read_text("1. 炮二平五 车1进9").unwrap_err();
        assert_eq!(illegal.illegal().map(|l| l.ply), Some(2));
        let bad = read_text("[DhtmlXQ_binit]99[/DhtmlXQ_binit]").unwrap_err();
        assert!(bad.bad_position(), "{bad}");
        assert_eq!(bad.format(), Format::DhtmlXq);
        assert_eq!(read_any(b"XQ\x0a").unwrap_err().format(), Format::Xqf);
    }
}
