//! The rules pages of `docs/rules/` (English) and `docs/rules/zh/` (Chinese), built into the
//! app and split into the blocks the rules screen draws: headings, paragraphs, list items,
//! table rows and the board picture. The app shows the very text the repository publishes, so
//! the two cannot drift apart.
//!
//! Inline formatting (bold, italic, code) is kept as Markdown for Slint's `StyledText`, which
//! draws those but no headings, tables or pictures: those are what this module takes apart.

use crate::shell::settings::Language;
use pulldown_cmark::{Alignment, CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use qiguan_core::GameKind;

/// A game's rules page in `language` (None for a game this version of the app does not know).
/// Each game brings its own pages (its registry entry's `rules`).
pub fn page(game: GameKind, language: Language) -> Option<&'static str> {
    let pages = crate::games::find(game)?.rules;
    Some(match language {
        Language::English => pages.english,
        Language::Chinese => pages.chinese,
    })
}

/// The pictures a rules page may show, by the file name the page gives (the Chinese pages,
/// one folder down, may name them `../`). Each is drawn from core's board data by an example
/// of qiguan-core, and a core test checks that the file is current.
pub fn picture(name: &str) -> Option<&'static [u8]> {
    match name.strip_prefix("../").unwrap_or(name) {
        "xiangqi-board.svg" => Some(include_bytes!("../../../../docs/rules/xiangqi-board.svg")),
        "junqi-board.svg" => Some(include_bytes!("../../../../docs/rules/junqi-board.svg")),
        "aeroplane-board.svg" => Some(include_bytes!("../../../../docs/rules/aeroplane-board.svg")),
        "sea-land-air-board.svg" => Some(include_bytes!(
            "../../../../docs/rules/sea-land-air-board.svg"
        )),
        _ => None,
    }
}

/// One thing the rules screen draws. Texts marked "inline" are Markdown with only inline
/// formatting left in them; `plain` ones have none.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// A heading, level 1–6, plain.
    Heading { level: u8, text: String },
    /// A paragraph, inline.
    Paragraph(String),
    /// A list item (or the continuation of one, with an empty marker): `depth` 0 is the
    /// outermost list; `marker` is "•" or "1." and so on. Inline.
    Item {
        depth: u8,
        marker: String,
        text: String,
    },
    /// A table: its header cells (plain) and its rows (inline cells).
    Table {
        head: Vec<String>,
        rows: Vec<Vec<String>>,
    },
    /// A picture, by its file name, with its alternative text.
    Picture { name: String, alt: String },
    /// Preformatted text (a code block), kept as it is.
    Code(String),
}

impl Block {
    /// The block's words without any formatting (what a screen reader says).
    pub fn plain(&self) -> String {
        match self {
            Block::Heading { text, .. } => text.clone(),
            Block::Paragraph(t) | Block::Item { text: t, .. } => plain(t),
            Block::Table { head, rows } => {
                let mut lines = vec![head.join(" · ")];
                lines.extend(
                    rows.iter()
                        .map(|r| r.iter().map(|c| plain(c)).collect::<Vec<_>>().join(" · ")),
                );
                lines.join("\n")
            }
            Block::Picture { alt, .. } => alt.clone(),
            Block::Code(t) => t.clone(),
        }
    }
}

/// The words of an inline Markdown text, without its formatting.
pub fn plain(inline: &str) -> String {
    let mut out = String::new();
    for event in Parser::new(inline) {
        match event {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            _ => {}
        }
    }
    out
}

/// What is being collected while the parser walks the page.
#[derive(Default)]
struct Walk {
    blocks: Vec<Block>,
    /// Inline Markdown being built, and the same words without formatting.
    inline: String,
    text: String,
    /// Open lists: the next number of each ordered one (None for bullets).
    lists: Vec<Option<u64>>,
    /// The marker the item being collected still has to show (taken by its first block).
    marker: Option<String>,
    in_heading: Option<u8>,
    in_table: bool,
    head: Vec<String>,
    row: Vec<String>,
    rows: Vec<Vec<String>>,
    in_head: bool,
    picture: Option<String>,
    code: Option<String>,
    /// A line break seen in the source, not yet written (see [`Walk::soft_break`]).
    pending_break: bool,
}

/// Splits a Markdown page into blocks.
pub fn parse(markdown: &str) -> Vec<Block> {
    let mut w = Walk::default();
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    for event in Parser::new_ext(markdown, options) {
        match event {
            Event::Start(tag) => w.start(tag),
            Event::End(tag) => w.end(tag),
            Event::Text(t) => {
                if let Some(code) = &mut w.code {
                    code.push_str(&t);
                } else {
                    w.words(&t);
                }
            }
            Event::Code(t) => {
                w.flush_break();
                let fence = if t.contains('`') { "`` " } else { "`" };
                let close = if t.contains('`') { " ``" } else { "`" };
                w.inline.push_str(fence);
                w.inline.push_str(&t);
                w.inline.push_str(close);
                w.text.push_str(&t);
            }
            Event::SoftBreak => w.pending_break = true,
            Event::HardBreak => {
                w.inline.push('\n');
                w.text.push(' ');
            }
            // Raw HTML, footnotes, rules: the pages use none; nothing of them is shown.
            _ => {}
        }
    }
    w.blocks
}

impl Walk {
    fn start(&mut self, tag: Tag) {
        match tag {
            Tag::Heading { level, .. } => {
                self.flush();
                self.in_heading = Some(level as u8);
            }
            Tag::List(first) => {
                // A nested list ends the text its item had so far.
                self.flush();
                self.lists.push(first);
            }
            Tag::Item => {
                self.flush();
                let marker = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        *n += 1;
                        format!("{}.", *n - 1)
                    }
                    _ => "•".to_string(),
                };
                self.marker = Some(marker);
            }
            Tag::Paragraph => self.flush(),
            Tag::Table(alignments) => {
                self.flush();
                let _: Vec<Alignment> = alignments;
                self.in_table = true;
                self.head.clear();
                self.rows.clear();
            }
            Tag::TableHead => self.in_head = true,
            Tag::TableRow => self.row.clear(),
            Tag::TableCell => {
                self.inline.clear();
                self.text.clear();
            }
            Tag::Emphasis => self.mark("*"),
            Tag::Strong => self.mark("**"),
            Tag::Strikethrough => self.mark("~~"),
            Tag::Image { dest_url, .. } => {
                self.flush();
                self.picture = Some(dest_url.to_string());
            }
            Tag::CodeBlock(kind) => {
                self.flush();
                let _: CodeBlockKind = kind;
                self.code = Some(String::new());
            }
            // Links show their words; block quotes and the rest show their contents.
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Heading(_) => {
                let level = self.in_heading.take().unwrap_or(1);
                let text = join_breaks(&std::mem::take(&mut self.text))
                    .trim()
                    .to_string();
                self.inline.clear();
                self.blocks.push(Block::Heading { level, text });
            }
            TagEnd::Paragraph | TagEnd::Item => self.flush(),
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
            }
            TagEnd::TableCell => {
                let cell = if self.in_head {
                    std::mem::take(&mut self.text)
                } else {
                    std::mem::take(&mut self.inline)
                };
                self.inline.clear();
                self.text.clear();
                self.pending_break = false;
                self.row.push(join_breaks(&cell).trim().to_string());
            }
            TagEnd::TableHead => {
                self.in_head = false;
                self.head = std::mem::take(&mut self.row);
            }
            TagEnd::TableRow => self.rows.push(std::mem::take(&mut self.row)),
            TagEnd::Table => {
                self.in_table = false;
                self.blocks.push(Block::Table {
                    head: std::mem::take(&mut self.head),
                    rows: std::mem::take(&mut self.rows),
                });
            }
            TagEnd::Emphasis => self.mark("*"),
            TagEnd::Strong => self.mark("**"),
            TagEnd::Strikethrough => self.mark("~~"),
            TagEnd::Image => {
                let name = self.picture.take().unwrap_or_default();
                let alt = join_breaks(&std::mem::take(&mut self.text))
                    .trim()
                    .to_string();
                self.inline.clear();
                self.blocks.push(Block::Picture { name, alt });
            }
            TagEnd::CodeBlock => {
                let code = self.code.take().unwrap_or_default();
                self.blocks
                    .push(Block::Code(code.trim_end_matches('\n').to_string()));
            }
            _ => {}
        }
    }

    fn mark(&mut self, m: &str) {
        self.flush_break();
        self.inline.push_str(m);
    }

    /// Words, escaped so that nothing in them reads as Markdown again.
    fn words(&mut self, t: &str) {
        self.flush_break();
        for c in t.chars() {
            if c.is_ascii_punctuation() {
                self.inline.push('\\');
            }
            self.inline.push(c);
        }
        self.text.push_str(t);
    }

    /// A line break in the source, written as a mark that [`join_breaks`] resolves once the
    /// characters on both sides of it are known.
    fn flush_break(&mut self) {
        if std::mem::take(&mut self.pending_break) {
            self.inline.push(BREAK);
            self.text.push(BREAK);
        }
    }

    /// Ends the block being collected, if any words were.
    fn flush(&mut self) {
        self.pending_break = false;
        if self.in_table || self.in_heading.is_some() || self.picture.is_some() {
            return;
        }
        let inline = join_breaks(&std::mem::take(&mut self.inline));
        self.text.clear();
        if inline.trim().is_empty() {
            return;
        }
        let inline = inline.trim().to_string();
        if self.lists.is_empty() {
            self.blocks.push(Block::Paragraph(inline));
        } else {
            let depth = (self.lists.len() - 1) as u8;
            let marker = self.marker.take().unwrap_or_default();
            self.blocks.push(Block::Item {
                depth,
                marker,
                text: inline,
            });
        }
    }
}

/// Where the source broke a line inside a paragraph.
const BREAK: char = '\u{1}';

/// Resolves the line breaks of a paragraph: nothing between two wide (Chinese) characters,
/// which are written without spaces, and a space anywhere else (as CSS joins lines).
fn join_breaks(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let markup = |c: &&char| !matches!(**c, '\\' | '*' | '~' | '`' | BREAK);
    let mut out = String::with_capacity(s.len());
    for (i, &c) in chars.iter().enumerate() {
        if c != BREAK {
            out.push(c);
            continue;
        }
        let before = chars[..i].iter().rev().find(markup);
        let after = chars[i + 1..].iter().find(markup);
        if !(before.is_some_and(|&c| is_wide(c)) && after.is_some_and(|&c| is_wide(c))) {
            out.push(' ');
        }
    }
    out
}

/// Characters written without spaces around them: CJK ideographs and full-width punctuation.
fn is_wide(c: char) -> bool {
    matches!(c as u32,
        0x2E80..=0x9FFF | 0xF900..=0xFAFF | 0xFF00..=0xFFEF | 0x20000..=0x2FFFF)
        || matches!(c, '“' | '”' | '‘' | '’' | '—' | '…')
}

/// How wide each column of a table should be drawn, relative to the others: its longest
/// cell's length (a wide character counts twice), within 3 to 40.
pub fn column_weights(head: &[String], rows: &[Vec<String>]) -> Vec<f32> {
    (0..head.len())
        .map(|i| {
            let longest = std::iter::once(head[i].clone())
                .chain(rows.iter().filter_map(|r| r.get(i)).map(|c| plain(c)))
                .map(|t| {
                    t.chars()
                        .map(|c| if is_wide(c) { 2 } else { 1 })
                        .sum::<usize>()
                })
                .max()
                .unwrap_or(1);
            longest.clamp(3, 40) as f32
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(blocks: &[Block]) -> Vec<String> {
        blocks
            .iter()
            .map(|b| match b {
                Block::Heading { level, .. } => format!("h{level}"),
                Block::Paragraph(_) => "p".into(),
                Block::Item { depth, marker, .. } => format!("li{depth}{marker}"),
                Block::Table { head, rows } => format!("table{}x{}", head.len(), rows.len()),
                Block::Picture { name, .. } => format!("picture:{name}"),
                Block::Code(_) => "code".into(),
            })
            .collect()
    }

    #[test]
    fn a_page_splits_into_headings_paragraphs_items_tables_and_pictures() {
        let md = "# Title 象棋\n\nSome *words* and **strong** ones,\nover `two` lines.\n\n\
                  ## Part\n\n- one\n- two\n  - nested\n\n    continued\n- three\n\n\
                  1. first\n2. second\n\n| a | b |\n| --- | --- |\n| x | **y** |\n| z | w |\n\n\
                  ![The board](board.svg)\n";
        let blocks = parse(md);
        assert_eq!(
            shape(&blocks),
            [
                "h1",
                "p",
                "h2",
                "li0•",
                "li0•",
                "li1•",
                "li1",
                "li0•",
                "li01.",
                "li02.",
                "table2x2",
                "picture:board.svg"
            ]
        );
        assert_eq!(
            blocks[0],
            Block::Heading {
                level: 1,
                text: "Title 象棋".into()
            }
        );
        assert_eq!(
            blocks[1],
            Block::Paragraph("Some *words* and **strong** ones\\, over `two` lines\\.".into())
        );
        assert_eq!(
            blocks[1].plain(),
            "Some words and strong ones, over two lines."
        );
        assert_eq!(
            blocks[10],
            Block::Table {
                head: vec!["a".into(), "b".into()],
                rows: vec![
                    vec!["x".into(), "**y**".into()],
                    vec!["z".into(), "w".into()]
                ],
            }
        );
        assert_eq!(
            blocks[11],
            Block::Picture {
                name: "board.svg".into(),
                alt: "The board".into()
            }
        );
    }

    #[test]
    fn chinese_lines_join_without_a_space_and_english_ones_with_one() {
        let blocks =
            parse("棋盘九路十行，\n棋子走在交叉点上。\nRed moves\nfirst，\n**红方**先走。\n");
        assert_eq!(
            blocks[0].plain(),
            "棋盘九路十行，棋子走在交叉点上。 Red moves first，红方先走。"
        );
    }

    #[test]
    fn punctuation_in_the_words_stays_words() {
        let blocks = parse("A plane on 5 - 6 < 7 [x] #1 `a*b` ends *here*.\n");
        let Block::Paragraph(inline) = &blocks[0] else {
            panic!("{blocks:?}")
        };
        // Slint's own Markdown reader gets the escaped text back as the same words.
        assert_eq!(plain(inline), "A plane on 5 - 6 < 7 [x] #1 a*b ends here.");
    }

    #[test]
    fn every_page_parses_and_each_translation_has_the_english_shape() {
        for game in GameKind::ALL {
            let en = parse(page(game, Language::English).unwrap());
            let zh = parse(page(game, Language::Chinese).unwrap());
            assert!(en.len() > 10, "{game:?}");
            // Same headings, lists, tables (with as many rows) and pictures, in the same order:
            // a translation that misses a rule or a row fails here.
            assert_eq!(shape(&en), shape(&zh), "{game:?}");
            for b in en.iter().chain(&zh) {
                // Slint's styled text reads every inline text the screen gives it.
                let inline: Vec<&String> = match b {
                    Block::Paragraph(t) | Block::Item { text: t, .. } => vec![t],
                    Block::Table { rows, .. } => rows.iter().flatten().collect(),
                    _ => vec![],
                };
                for t in inline {
                    if let Err(e) = slint::StyledText::from_markdown(t) {
                        panic!("{game:?}: {t:?}: {e}");
                    }
                }
                if let Block::Picture { name, .. } = b {
                    assert!(picture(name).is_some(), "{game:?}: {name}");
                }
                if let Block::Table { head, rows } = b {
                    assert!(rows.iter().all(|r| r.len() == head.len()), "{game:?}");
                }
            }
            // The Chinese page is Chinese.
            let wide = zh
                .iter()
                .map(|b| b.plain().chars().filter(|&c| is_wide(c)).count())
                .sum::<usize>();
            assert!(wide > 500, "{game:?}: {wide} Chinese characters");
        }
    }

    #[test]
    fn columns_are_as_wide_as_their_longest_cell_allows() {
        let head = vec!["piece".to_string(), "moves".to_string()];
        let rows = vec![vec!["帅".to_string(), "x".repeat(80)]];
        assert_eq!(column_weights(&head, &rows), [5.0, 40.0]);
    }
}
