//! The rules screen: a game's rules page, in the interface's language, from New game and from
//! every game's screen (see [`page`]).

pub mod page;

use crate::shell::bind::handler;
use crate::shell::ctx::Ctx;
use page::Block;
use qiguan_core::GameKind;
use qiguan_ui::{RuleBlock, RulesAdapter, Screen};
use slint::{ComponentHandle, Image, ModelRc, SharedString, StyledText, VecModel};
use std::rc::Rc;

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    ui.global::<RulesAdapter>()
        .on_open(handler(ctx, |ctx, code: SharedString| open(ctx, &code)));
}

/// Shows the rules of the game with this code.
pub fn open(ctx: &Rc<Ctx>, code: &str) {
    ctx.ui().global::<RulesAdapter>().set_game(code.into());
    ctx.go(Screen::Rules);
}

/// Fills the screen with the page of the game it names, in the language now chosen (the
/// language may have changed since the screen was last shown).
pub fn refresh(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let adapter = ui.global::<RulesAdapter>();
    let language = ctx.settings.borrow().language;
    let page = adapter
        .get_game()
        .parse::<GameKind>()
        .ok()
        .and_then(|g| page::page(g, language));
    let blocks = page.map(page::parse).unwrap_or_default();
    let rows: Vec<RuleBlock> = blocks.iter().flat_map(rule_blocks).collect();
    adapter.set_blocks(ModelRc::new(VecModel::from(rows)));
}

fn styled(inline: &str) -> StyledText {
    // Every page's inline texts are checked to parse (page::tests); plain text is the
    // fallback all the same.
    StyledText::from_markdown(inline).unwrap_or_else(|_| StyledText::from_plain_text(inline))
}

/// A table's rows: its header, then one row per line, each sharing the columns' widths.
fn table_blocks(head: &[String], rows: &[Vec<String>]) -> Vec<RuleBlock> {
    let weights = page::column_weights(head, rows);
    let total: f32 = weights.iter().sum();
    let shares: Vec<f32> = weights.iter().map(|w| w / total).collect();
    let heads: Vec<SharedString> = head.iter().map(|h| h.into()).collect();
    let row = |kind: &str, cells: Vec<StyledText>, plain: String| RuleBlock {
        kind: kind.into(),
        plain: plain.into(),
        cells: ModelRc::new(VecModel::from(cells)),
        heads: ModelRc::new(VecModel::from(heads.clone())),
        weights: ModelRc::new(VecModel::from(shares.clone())),
        ..Default::default()
    };
    let mut out = vec![row("head", Vec::new(), head.join(" · "))];
    out.extend(rows.iter().map(|r| {
        let plain = r.iter().map(|c| page::plain(c)).collect::<Vec<_>>();
        row(
            "row",
            r.iter().map(|c| styled(c)).collect(),
            plain.join(" · "),
        )
    }));
    // The table's last row has room under it.
    if let Some(last) = out.last_mut() {
        last.depth = 1;
    }
    out
}

/// The screen's rows for one block: a table becomes its header row and one row per line.
fn rule_blocks(block: &Block) -> Vec<RuleBlock> {
    let base = RuleBlock {
        plain: block.plain().into(),
        ..Default::default()
    };
    match block {
        Block::Heading { level, .. } => vec![RuleBlock {
            kind: format!("h{level}").into(),
            ..base
        }],
        Block::Paragraph(text) => vec![RuleBlock {
            kind: "p".into(),
            text: styled(text),
            ..base
        }],
        Block::Item {
            depth,
            marker,
            text,
        } => vec![RuleBlock {
            kind: "li".into(),
            depth: i32::from(*depth),
            marker: marker.into(),
            text: styled(text),
            ..base
        }],
        Block::Table { head, rows } => table_blocks(head, rows),
        Block::Picture { name, .. } => {
            let picture = page::picture(name)
                .and_then(|svg| Image::load_from_svg_data(svg).ok())
                .unwrap_or_default();
            vec![RuleBlock {
                kind: "picture".into(),
                picture,
                ..base
            }]
        }
        Block::Code(_) => vec![RuleBlock {
            kind: "code".into(),
            ..base
        }],
    }
}
