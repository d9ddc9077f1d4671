//! The engine's review of a game in replay: every position judged in the background (an
//! evaluation graph, and each move marked as an inaccuracy, a mistake or a blunder with the
//! move the engine preferred), and a live line of analysis for the position on screen that
//! deepens while the player looks at it. Both run on threads of their own and stop when the
//! player stops them, leaves, or (for the live line) steps elsewhere.

use super::replay_session::{ReplaySession, slot};
use super::view::notate;
use crate::shell::ctx::Ctx;
use crate::shell::settings::Notation;
use crate::shell::thinking;
use crate::store::KeptReview;
use qiguan_core::xiangqi::analysis::{self, Judged, Judgement, MATE_CP};
use qiguan_core::xiangqi::engine::{Engine, Limits};
use qiguan_core::xiangqi::study::Path;
use qiguan_core::xiangqi::{Move, Position, Xiangqi};
use qiguan_ui::{ReviewMark, ReviewNote};
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How hard the review looks at each position: about a tenth of a second on a desktop core.
const REVIEW_LIMITS: Limits = Limits {
    depth: Some(24),
    nodes: Some(120_000),
    time: None,
    lines: 1,
};

/// How long the live line keeps deepening on one position.
const LIVE_LIMITS: Limits = Limits {
    depth: Some(40),
    nodes: None,
    time: Some(Duration::from_secs(20)),
    lines: 3,
};

/// The transposition table of each search, in MiB.
const HASH_MB: usize = 16;

/// How fast the graph leaves the middle line: at 100 centipawns it has gone a fifth of the
/// way to its edge, at 300 half way, at 1,000 nearly all the way (the shape of a chance to
/// win, so that a balanced game still shows its swings and a won one does not fill it).
const GRAPH_STEEPNESS: f32 = 0.004;

/// Names the review [`REVIEW_LIMITS`] gives, as kept with a game: a kept review of another
/// name (another engine, other limits) is done again.
const REVIEW_NAME: &str = "xiangqi-engine-1 depth 24 nodes 120000";

/// One position's judgement as kept in the store.
#[derive(serde::Serialize, serde::Deserialize)]
struct KeptJudged {
    cp: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    best: Option<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pv: String,
    depth: u32,
}

/// Keeps the review's judgements with the game (a failure to keep them only means the next
/// opening of the game reviews it again).
fn keep(ctx: &Rc<Ctx>, s: &ReplaySession) {
    let judged: Vec<Option<KeptJudged>> = s
        .review
        .judged
        .iter()
        .map(|j| {
            j.as_ref().map(|j| KeptJudged {
                cp: j.red_cp,
                best: j.best.map(|m| m.to_string()),
                pv: words(&j.pv),
                depth: j.depth,
            })
        })
        .collect();
    let Ok(judged) = serde_json::to_string(&judged) else {
        return;
    };
    let kept = KeptReview {
        engine: REVIEW_NAME.into(),
        moves: words(&s.game_moves),
        judged,
    };
    let _ = ctx.with_store(|store| store.keep_review(s.id, &kept));
}

fn words(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The judgements kept with a game by an earlier review, for the positions the game still
/// has: a game that went on or took moves back since keeps those up to where its moves part
/// from the ones judged. Empty when none were kept or they cannot be read.
pub(crate) fn kept(ctx: &Rc<Ctx>, id: crate::store::GameId, moves: &[Move]) -> Vec<Option<Judged>> {
    let Ok(Some(kept)) = ctx.with_store(|store| store.kept_review(id)) else {
        return Vec::new();
    };
    if kept.engine != REVIEW_NAME {
        return Vec::new();
    }
    let Ok(list) = serde_json::from_str::<Vec<Option<KeptJudged>>>(&kept.judged) else {
        return Vec::new();
    };
    let same = kept
        .moves
        .split_whitespace()
        .zip(moves)
        .take_while(|(a, b)| *a == b.to_string())
        .count();
    let parse = |text: &str| -> Option<Vec<Move>> {
        text.split_whitespace().map(|m| m.parse().ok()).collect()
    };
    // Positions 0 to `same`: those reached by moves the game still has.
    list.into_iter()
        .take(same + 1)
        .map(|j| {
            let j = j?;
            Some(Judged {
                red_cp: j.cp,
                best: match j.best {
                    Some(b) => Some(b.parse().ok()?),
                    None => None,
                },
                pv: parse(&j.pv)?,
                depth: j.depth,
            })
        })
        .collect()
}

/// Shows what the review found: the replay screen's refresh, which the screen hands to
/// [`start`] and [`follow`] (the review never names the screen that shows it).
pub(crate) type Shown = fn(&Rc<Ctx>);

fn next_token() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Turns analysis on: the review of every position not judged yet, and the live line.
pub(crate) fn start(ctx: &Rc<Ctx>, shown: Shown) {
    {
        let mut guard = slot(ctx).borrow_mut();
        let Some(s) = guard.as_mut() else { return };
        s.review.on = true;
        let positions = analysis::positions(s.game.game());
        s.review.judged.resize(positions.len(), None);
        let todo: Vec<(usize, Xiangqi)> = positions
            .into_iter()
            .enumerate()
            .filter(|(i, _)| s.review.judged[*i].is_none())
            .collect();
        if !todo.is_empty() && s.review.running.is_none() {
            let (id, token) = (s.id, next_token());
            let work = thinking::spawn(ctx, move |stop, poster| {
                let mut engine = Engine::new(HASH_MB);
                for (i, game) in todo {
                    let Some(judged) =
                        analysis::judge_position(&mut engine, &game, &REVIEW_LIMITS, &stop)
                    else {
                        break;
                    };
                    poster.post(Box::new(move |ctx: &Rc<Ctx>| {
                        judged_one(ctx, id, token, i, judged);
                        shown(ctx);
                    }));
                }
                Box::new(move |ctx: &Rc<Ctx>| {
                    finished(ctx, id, token);
                    shown(ctx);
                })
            });
            s.review.running = Some((token, work));
        }
    }
    follow(ctx, shown);
}

/// Turns analysis off: both searches stop; what the review found stays.
pub(crate) fn stop(ctx: &Rc<Ctx>) {
    if let Some(s) = slot(ctx).borrow_mut().as_mut() {
        s.review.on = false;
        s.review.running = None;
        s.review.live = None;
        s.review.line = None;
    }
}

fn judged_one(ctx: &Rc<Ctx>, id: crate::store::GameId, token: u64, i: usize, judged: Judged) {
    if let Some(s) = slot(ctx).borrow_mut().as_mut()
        && s.id == id
        && s.review.running.as_ref().is_some_and(|(t, _)| *t == token)
        && let Some(place) = s.review.judged.get_mut(i)
    {
        *place = Some(judged);
        keep(ctx, s);
    }
}

fn finished(ctx: &Rc<Ctx>, id: crate::store::GameId, token: u64) {
    if let Some(s) = slot(ctx).borrow_mut().as_mut()
        && s.id == id
        && s.review.running.as_ref().is_some_and(|(t, _)| *t == token)
    {
        s.review.running = None;
    }
}

/// Keeps the live line on the position shown: a new search when the player stepped
/// elsewhere (the old one stops), nothing while analysis is off.
pub(crate) fn follow(ctx: &Rc<Ctx>, shown: Shown) {
    {
        let mut guard = slot(ctx).borrow_mut();
        let Some(s) = guard.as_mut() else { return };
        if !s.review.on
            || s.review
                .live
                .as_ref()
                .is_some_and(|(at, ..)| at == s.path())
        {
            return;
        }
        s.review.line = None;
        s.review.others = [None, None];
        let at = s.path().to_vec();
        let Some(game) = s.shown_game() else {
            return;
        };
        let (id, token) = (s.id, next_token());
        let work = thinking::spawn(ctx, move |stop, poster| {
            let mut engine = Engine::new(HASH_MB);
            engine.use_stop_flag(stop.clone());
            let to_move = game.position().side_to_move();
            if game.outcome().is_none() {
                let style = Default::default();
                engine.search(&game, &LIVE_LIMITS, &style, |info| {
                    let judged = Judged {
                        red_cp: analysis::red_cp(info.score, to_move),
                        best: info.pv.first().copied(),
                        pv: info.pv.clone(),
                        depth: info.depth,
                    };
                    let rank = info.multipv;
                    let at = at.clone();
                    poster.post(Box::new(move |ctx: &Rc<Ctx>| {
                        deeper(ctx, id, token, at, rank, judged);
                        shown(ctx);
                    }));
                });
            }
            Box::new(|_: &Rc<Ctx>| {})
        });
        s.review.live = Some((s.path().to_vec(), token, work));
    }
    shown(ctx);
}

/// A line the live search found: its best (rank 1) or its second or third choice.
fn deeper(
    ctx: &Rc<Ctx>,
    id: crate::store::GameId,
    token: u64,
    at: Path,
    rank: usize,
    judged: Judged,
) {
    if let Some(s) = slot(ctx).borrow_mut().as_mut()
        && s.id == id
        && s.review.live.as_ref().is_some_and(|(_, t, _)| *t == token)
    {
        match rank {
            1 => s.review.line = Some((at, judged)),
            2 | 3 => s.review.others[rank - 2] = Some((at, judged)),
            _ => {}
        }
    }
}

/// The live line's second and third choices for the position shown, from the same depth as
/// its best (a deeper best with shallower others would mix two searches).
pub(crate) fn others_here(s: &ReplaySession) -> Vec<&Judged> {
    let Some((at, best)) = s.review.line.as_ref().filter(|(at, _)| at == s.path()) else {
        return Vec::new();
    };
    s.review
        .others
        .iter()
        .flatten()
        .filter(|(p, j)| p == at && j.depth == best.depth)
        .map(|(_, j)| j)
        .collect()
}

/// A score from Red's side as players read it: `+0.35` (pawns), `#3` (Red mates in 3),
/// `-#2` (Black mates in 2).
pub(crate) fn score_text(red_cp: i32) -> String {
    let mate_in = MATE_CP - red_cp.abs();
    if mate_in < 100 {
        let moves = (mate_in + 1) / 2;
        let sign = if red_cp > 0 { "" } else { "-" };
        return format!("{sign}#{moves}");
    }
    format!("{:+.2}", red_cp as f32 / 100.0)
}

/// The graph's path over the positions judged from the start without a gap: Red's
/// advantage above the middle line, Black's below, in a view of `moves` × 2.
pub(crate) fn graph_path(judged: &[Option<Judged>]) -> String {
    let values: Vec<f32> = judged
        .iter()
        .map_while(|j| j.as_ref())
        .map(|j| 2.0 / (1.0 + (-GRAPH_STEEPNESS * j.red_cp as f32).exp()) - 1.0)
        .collect();
    if values.len() < 2 {
        return String::new();
    }
    let mut path = String::from("M 0 1");
    for (x, v) in values.iter().enumerate() {
        path.push_str(&format!(" L {x} {:.3}", 1.0 - v));
    }
    path.push_str(&format!(" L {} 1 Z", values.len() - 1));
    path
}

/// The judgement of the game's move that led to position `ply` (the `ply`-th move), once
/// both positions around it are judged.
fn judgement_of(s: &ReplaySession, ply: usize) -> Option<analysis::MoveReview> {
    let i = ply.checked_sub(1)?;
    let before = s.review.judged.get(i)?.as_ref()?;
    let after = s.review.judged.get(ply)?.as_ref()?;
    let mover = if i % 2 == 0 {
        s.study.start.side_to_move()
    } else {
        s.study.start.side_to_move().other()
    };
    Some(analysis::judge_move(
        mover,
        *s.game_moves.get(i)?,
        before,
        after,
    ))
}

/// The judgement of the move of the line shown that led to position `ply`: only a move the
/// game played was judged.
fn shown_judgement(s: &ReplaySession, ply: usize) -> Option<analysis::MoveReview> {
    (ply <= s.shared).then(|| judgement_of(s, ply)).flatten()
}

/// The review's judgement of the position shown, if the game reached it.
fn judged_here(s: &ReplaySession) -> Option<&Judged> {
    (s.ply <= s.shared)
        .then(|| s.review.judged.get(s.ply)?.as_ref())
        .flatten()
}

/// The glyph a judged move carries in the move list: `?!`, `?`, `??`.
pub(crate) fn glyph(judgement: Judgement) -> &'static str {
    match judgement {
        Judgement::Good => "",
        Judgement::Inaccuracy => "?!",
        Judgement::Mistake => "?",
        Judgement::Blunder => "??",
    }
}

fn kind(judgement: Judgement) -> i32 {
    match judgement {
        Judgement::Good => 0,
        Judgement::Inaccuracy => 1,
        Judgement::Mistake => 2,
        Judgement::Blunder => 3,
    }
}

/// The glyph of each move judged so far, by move index.
pub(crate) fn glyphs(s: &ReplaySession) -> Vec<&'static str> {
    (1..=s.moves.len())
        .map(|ply| shown_judgement(s, ply).map_or("", |r| glyph(r.judgement)))
        .collect()
}

/// The marks on the graph: every move judged an inaccuracy or worse.
pub(crate) fn marks(s: &ReplaySession) -> Vec<ReviewMark> {
    (1..=s.game_moves.len())
        .filter_map(|ply| {
            let r = judgement_of(s, ply)?;
            (r.judgement != Judgement::Good).then(|| ReviewMark {
                ply: ply as i32,
                kind: kind(r.judgement),
            })
        })
        .collect()
}

/// What the screen says of the move that led to the position shown, and of the position.
pub(crate) fn note(s: &ReplaySession, notation: Notation, before: &Position) -> ReviewNote {
    let mut note = ReviewNote {
        kind: -1,
        ..ReviewNote::default()
    };
    if let Some(r) = shown_judgement(s, s.ply) {
        note.kind = kind(r.judgement);
        note.loss = r.loss;
        note.played = notate(before, r.played, notation).into();
        note.better = r
            .best
            .filter(|b| *b != r.played)
            .map(|b| notate(before, b, notation))
            .unwrap_or_default()
            .into();
    }
    let line = s
        .review
        .line
        .as_ref()
        .filter(|(at, _)| at == s.path())
        .map(|(_, j)| j)
        .or_else(|| judged_here(s));
    if let Some(j) = line {
        note.depth = j.depth as i32;
        note.score = score_text(j.red_cp).into();
        note.pv = pv_text(s, &j.pv, 6, notation).into();
        note.pv_short = pv_text(s, &j.pv, 2, notation).into();
    }
    let others = others_here(s);
    let line_of = |j: &Judged| {
        format!(
            "{} · {}",
            score_text(j.red_cp),
            pv_text(s, &j.pv, 4, notation)
        )
    };
    if let Some(j) = others.first() {
        note.second = line_of(j).into();
    }
    if let Some(j) = others.get(1) {
        note.third = line_of(j).into();
    }
    if let (Some(best), false) = (line, others.is_empty()) {
        note.lines_short = std::iter::once(best)
            .chain(others.iter().copied())
            .map(|j| {
                format!(
                    "{} {}",
                    score_text(j.red_cp),
                    pv_text(s, &j.pv, 1, notation)
                )
            })
            .collect::<Vec<_>>()
            .join(" · ")
            .into();
    }
    note
}

/// The engine's best move in the position shown (the live line's, else the review's).
pub(crate) fn best_here(s: &ReplaySession) -> Option<Move> {
    s.review
        .line
        .as_ref()
        .filter(|(at, _)| at == s.path())
        .and_then(|(_, j)| j.best)
        .or_else(|| judged_here(s)?.best)
}

/// A line of moves from the position shown, in the chosen notation (the first `moves`).
fn pv_text(s: &ReplaySession, pv: &[Move], moves: usize, notation: Notation) -> String {
    let mut pos = s.position();
    let mut words = Vec::new();
    for &m in pv.iter().take(moves) {
        if !pos.is_legal(m) {
            break;
        }
        words.push(unbroken(&notate(&pos, m, notation)));
        let _ = pos.play(m);
    }
    words.join(" ")
}

/// A move as one unit for line breaking: Chinese text may break between any two characters,
/// so word joiners (U+2060) hold a move's characters together (炮8进4 stays on one line).
fn unbroken(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for (i, c) in text.chars().enumerate() {
        if i > 0 {
            out.push('\u{2060}');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_not_broken_across_lines() {
        assert_eq!(unbroken("炮8进4"), "炮\u{2060}8\u{2060}进\u{2060}4");
        assert_eq!(unbroken(""), "");
    }

    #[test]
    fn scores_read_as_players_read_them() {
        assert_eq!(score_text(35), "+0.35");
        assert_eq!(score_text(-120), "-1.20");
        assert_eq!(score_text(0), "+0.00");
        assert_eq!(score_text(MATE_CP - 1), "#1");
        assert_eq!(score_text(-(MATE_CP - 3)), "-#2");
    }

    #[test]
    fn the_graph_runs_over_the_positions_judged_without_a_gap() {
        let j = |cp| {
            Some(Judged {
                red_cp: cp,
                best: None,
                pv: Vec::new(),
                depth: 1,
            })
        };
        assert_eq!(graph_path(&[j(0)]), "");
        assert_eq!(
            graph_path(&[j(0), j(300), j(-3000), None, j(100)]),
            "M 0 1 L 0 1.000 L 1 0.463 L 2 2.000 L 2 1 Z"
        );
    }
}
