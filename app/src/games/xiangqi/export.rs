//! Exporting the game in replay: its text as PGN (the line shown, with the study's variations and
//! comments), shown for copying or saved to a file.

use super::replay_session::{ReplaySession, slot};
use super::view::opening_of;
use crate::shell::ctx::Ctx;
use crate::shell::format::format_date;
use qiguan_core::xiangqi::pgn::{MoveFormat, result_text};
use qiguan_core::xiangqi::pgn_study::write_study_pgn;
use qiguan_ui::ReplayAdapter;
use slint::ComponentHandle;
use std::rc::Rc;

/// Returns the export text for the chosen format, and a file name for it.
fn export_text(s: &ReplaySession, format: i32, computer: &str) -> (String, String) {
    // The computer is a role: named as the screen names it; an unnamed person is "?", as PGN
    // writes an unknown name.
    let player = |seat: usize| {
        if s.computers[seat] {
            computer.to_owned()
        } else {
            or_unknown(&s.players[seat]).to_owned()
        }
    };
    match format {
        0 => (
            s.position().to_fen(),
            format!("qiguan-{}-{}.fen", s.id.0, s.ply),
        ),
        _ => {
            let date = format_date(s.created_at);
            let date = date.get(..10).unwrap_or("????-??-??").replace('-', ".");
            let tags = [
                ("Event", format!("Qiguan game {}", s.id.0)),
                ("Site", "Qiguan".to_owned()),
                ("Date", date),
                ("Round", "-".to_owned()),
                ("White", player(0)),
                ("Black", player(1)),
            ];
            let move_format = if format == 1 {
                MoveFormat::Wxf
            } else {
                MoveFormat::Coordinates
            };
            let result = result_text(s.game.outcome().as_ref());
            let mut study = s.study.clone();
            study.tags = tags
                .into_iter()
                .map(|(n, v)| (n.to_owned(), v))
                .chain([("Result".to_owned(), result.to_owned())])
                // The game's opening, as Chinese Xiangqi programs tag it.
                .chain(
                    opening_of(&s.study.start, &s.game_moves)
                        .map(|o| {
                            [
                                ("ECCO".to_owned(), o.code.to_owned()),
                                ("Opening".to_owned(), o.zh.to_owned()),
                            ]
                        })
                        .into_iter()
                        .flatten(),
                )
                .collect();
            (
                write_study_pgn(&study, move_format),
                format!("qiguan-{}.pgn", s.id.0),
            )
        }
    }
}

pub(super) fn export(ctx: &Rc<Ctx>) {
    let guard = slot(ctx).borrow();
    let Some(s) = guard.as_ref() else { return };
    let ui = ctx.ui();
    let a = ui.global::<ReplayAdapter>();
    let computer = ui.global::<qiguan_ui::Texts>().invoke_computer_name();
    let (text, _) = export_text(s, a.get_export_format(), &computer);
    a.set_export_text(text.into());
    a.set_export_note("".into());
}

pub(super) fn save_export(ctx: &Rc<Ctx>) {
    let guard = slot(ctx).borrow();
    let Some(s) = guard.as_ref() else { return };
    let ui = ctx.ui();
    let a = ui.global::<ReplayAdapter>();
    let computer = ui.global::<qiguan_ui::Texts>().invoke_computer_name();
    let (text, name) = export_text(s, a.get_export_format(), &computer);
    let dir = crate::shell::bind::exports_folder(ctx);
    let path = dir.join(name);
    let written = std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&path, text));
    let note = match written {
        Ok(()) => format!("✓ {}", path.display()),
        Err(e) => format!("× {}: {e}", path.display()),
    };
    a.set_export_note(note.into());
}

fn or_unknown(name: &str) -> &str {
    if name.is_empty() { "?" } else { name }
}
