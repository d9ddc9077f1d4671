//! Statistics: your results from the local history (see [`figures`]).

pub mod figures;

use crate::games;
use crate::shell::bind::handler0;
use crate::shell::ctx::Ctx;
use figures::{Opponent, Tally};
use qiguan_core::Strength;
use qiguan_ui::{HomeAdapter, Screen, StatLine, StatMonth, StatsAdapter};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::rc::Rc;

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let home = ui.global::<HomeAdapter>();
    home.on_statistics(handler0(ctx, |ctx| ctx.go(Screen::Statistics)));
}

fn tally(t: Tally) -> qiguan_ui::Tally {
    qiguan_ui::Tally {
        wins: t.wins as i32,
        draws: t.draws as i32,
        losses: t.losses as i32,
    }
}

/// Counts the history up again and shows it.
pub fn refresh(ctx: &Rc<Ctx>) {
    let kinds: Vec<_> = games::GAMES.iter().map(|e| e.kind).collect();
    let games = match ctx.with_store(|store| store.finished_games()) {
        Ok(games) => games,
        Err(e) => {
            crate::shell::bind::show_error(ctx, &e.to_string());
            Vec::new()
        }
    };
    let s = figures::compute(&games, &kinds, ctx.now());
    let ui = ctx.ui();
    let a = ui.global::<StatsAdapter>();
    a.set_played(s.played as i32);
    a.set_yours(tally(s.yours));
    let games: Vec<StatLine> = s
        .games
        .iter()
        .map(|l| StatLine {
            code: l.kind.as_str().into(),
            name: Default::default(),
            played: l.played as i32,
            yours: tally(l.yours),
        })
        .collect();
    a.set_games(ModelRc::new(VecModel::from(games)));
    let opponents: Vec<StatLine> = s
        .opponents
        .iter()
        .map(|(o, t)| {
            let (code, name) = match o {
                Opponent::Computer(Some(Strength::Easy)) => ("computer:easy", String::new()),
                Opponent::Computer(Some(Strength::Strong)) => ("computer:strong", String::new()),
                Opponent::Computer(Some(Strength::Normal)) => ("computer:normal", String::new()),
                Opponent::Computer(Some(Strength::Hard)) => ("computer:hard", String::new()),
                Opponent::Computer(Some(Strength::Level(n))) => ("computer:level", n.to_string()),
                Opponent::Computer(None) => ("computer", String::new()),
                Opponent::Computers => ("computers", String::new()),
                Opponent::Person(name) => ("person", name.clone()),
            };
            StatLine {
                code: code.into(),
                name: name.into(),
                played: t.total() as i32,
                yours: tally(*t),
            }
        })
        .collect();
    a.set_opponents(ModelRc::new(VecModel::from(opponents)));
    let months: Vec<StatMonth> = s
        .months
        .iter()
        .map(|m| StatMonth {
            year: m.year,
            month: m.month as i32,
            yours: tally(m.yours),
        })
        .collect();
    a.set_months(ModelRc::new(VecModel::from(months)));
}
