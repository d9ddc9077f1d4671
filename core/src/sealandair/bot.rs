//! A computer opponent for Sea-land-air battle chess. It decides from its seat's view only:
//! its own pieces, where the enemy's stand, and what its recon has revealed. It deploys with
//! some sense, takes the flag when it can, attacks what it knows it beats, risks cheap pieces
//! on unknown ones, fires whenever a shot cannot cost it anything, scouts with the recon, and
//! otherwise moves its armies towards the enemy city.

use super::board::{Layer, Point, map};
use super::deployment::{Deployment, Rng};
use super::movegen::{Board, Move, Piece};
use super::pieces::{Clash, Kind, melee, remote};
use super::search;
use super::state::{SeaLandAirMove, SeaLandAirOptions, side_of};
use super::view::SeaLandAirView;
use crate::Strength;
use crate::junqi::Side;
use crate::pimc::Effort;
use crate::seat::Seat;

/// Chooses an action for `seat` from its view; `seed` varies its choices (the authority
/// gives it, so replays stay exact). Returns `None` when the seat has nothing to do.
pub fn choose(view: &SeaLandAirView, seat: Seat, seed: u64) -> Option<SeaLandAirMove> {
    let side = side_of(seat);
    if !view.deployed[seat.index()] {
        return Some(SeaLandAirMove::Deploy(
            Deployment::sensible(side, seed).to_text(),
        ));
    }
    if view.deployed.iter().any(|d| !d) || view.side_to_move != seat {
        return None;
    }
    let board = view.board();
    let mut known = vec![None; super::board::POINTS];
    for seen in &view.pieces {
        if let Ok(at) = seen.at.parse::<Point>() {
            known[at.index()] = seen.kind;
        }
    }
    let survived: Vec<bool> = {
        let mut out = vec![false; super::board::POINTS];
        for seen in view.pieces.iter().filter(|s| s.survived_fire) {
            if let Ok(at) = seen.at.parse::<Point>() {
                out[at.index()] = true;
            }
        }
        out
    };
    let mut rng = Rng::new(seed);
    board
        .moves(side)
        .into_iter()
        .map(|m| {
            let s = score(&board, &known, &survived, side, m) * 8 + (rng.next() % 8) as i64;
            (s, m)
        })
        .max_by_key(|(s, _)| *s)
        .map(|(_, m)| SeaLandAirMove::Go(m))
}

/// Chooses an action for `seat` at a strength: easy (and the levels, which are Xiangqi's) is
/// the computer above; normal and hard search over boards drawn from what the seat has seen
/// ([`super::search`]), and deploy as the easy one does.
pub fn choose_at(
    view: &SeaLandAirView,
    seat: Seat,
    options: &SeaLandAirOptions,
    strength: Strength,
    seed: u64,
) -> Option<SeaLandAirMove> {
    let effort = match strength {
        Strength::Normal => search::NORMAL,
        Strength::Hard => search::HARD,
        Strength::Easy | Strength::Strong | Strength::Level(_) => {
            return choose(view, seat, seed);
        }
    };
    choose_with(view, seat, options, effort, seed)
}

/// Chooses an action thinking with `effort` (see [`choose_at`]).
pub fn choose_with(
    view: &SeaLandAirView,
    seat: Seat,
    options: &SeaLandAirOptions,
    effort: Effort,
    seed: u64,
) -> Option<SeaLandAirMove> {
    let side = side_of(seat);
    if !view.deployed[seat.index()] || view.deployed.iter().any(|d| !d) {
        return choose(view, seat, seed);
    }
    if view.side_to_move != seat {
        return None;
    }
    search::choose(view, side, options.quiet_plies, effort, seed)
        .map(SeaLandAirMove::Go)
        .or_else(|| choose(view, seat, seed))
}

/// Whether the computer in `seat` accepts a draw offer: only when it has at least two pieces
/// fewer on the board than its opponent (each side has its flag while the game goes on, so
/// flags do not change the difference).
pub fn accepts_draw(view: &SeaLandAirView, seat: Seat) -> bool {
    let side = side_of(seat);
    let mine = view.pieces.iter().filter(|p| p.side == side).count();
    let theirs = view.pieces.len() - mine;
    mine + 2 <= theirs
}

/// What a piece is worth to its side.
pub(crate) fn value(kind: Kind) -> i64 {
    match kind {
        Kind::Flag => 1000,
        Kind::Commander => 40,
        Kind::ArmyGroup => 34,
        Kind::Fighter => 30,
        Kind::Division | Kind::Battleship => 26,
        Kind::Brigade | Kind::Cruiser => 20,
        Kind::Regiment | Kind::Gunboat | Kind::Recon | Kind::Missile => 16,
        Kind::Battalion | Kind::Destroyer | Kind::Artillery => 13,
        Kind::Company | Kind::Submarine | Kind::AntiAircraft => 10,
        Kind::Platoon | Kind::Landmine => 8,
        Kind::Private => 6,
    }
}

/// The worth of an enemy piece whose identity is unknown.
const UNKNOWN: i64 = 14;

fn score(board: &Board, known: &[Option<Kind>], survived: &[bool], side: Side, m: Move) -> i64 {
    let me = board.get(m.from).expect("a piece of mine");
    let target = board.get(m.to).filter(|t| t.side != side);
    let retreat = board.is_retreat(m);
    if target.is_none() {
        return positional(board, known, side, me, m) - if retreat { 2 } else { 0 };
    }
    let fight = |k: Kind| {
        if m.remote {
            remote(me.kind, k)
        } else {
            melee(me.kind, k)
        }
    };
    match known[m.to.index()] {
        Some(kind) => match fight(kind) {
            Clash::FlagTaken => 10_000,
            Clash::AttackerWins => value(kind) + 5,
            Clash::BothRemoved => value(kind) - value(me.kind),
            Clash::DefenderWins => -value(me.kind) - 5,
            Clash::NoEffect | Clash::BothHome => -3,
        },
        None => {
            // Defend the flag: anything next to it is attacked at any price.
            let near_flag = map().land.links(m.to.index()).iter().any(|l| {
                board
                    .get(Point::from_index(l.to).expect("a point"))
                    .is_some_and(|p| p.side == side && p.kind == Kind::Flag)
            });
            let base = if near_flag { 60 } else { 0 };
            if survived[m.to.index()] {
                // A top commander, a landmine or the flag: only a missile is worth spending,
                // or anything at all on a city point, where it may be the flag.
                let city = m.to.label() == super::board::Label::City;
                return match (m.remote, me.kind) {
                    (true, _) => -20,
                    (_, Kind::Missile) => base + 20,
                    _ if city => base + 30,
                    _ => base - 20,
                };
            }
            let risk = match (m.remote, me.kind) {
                // Shots that cannot cost the firer anything.
                (
                    true,
                    Kind::Artillery | Kind::Battleship | Kind::AntiAircraft | Kind::Destroyer,
                ) => {
                    return base + UNKNOWN;
                }
                (_, Kind::Missile) => UNKNOWN - value(Kind::Missile) + 4,
                (_, k) => match k.rank() {
                    Some(1) => 8,
                    Some(2) => 6,
                    Some(3) => 2,
                    Some(r) if r >= 8 => 1,
                    Some(_) => -4,
                    None if k == Kind::Fighter => 3,
                    None => -10,
                },
            };
            base + risk + enemy_depth(side, m.to)
        }
    }
}

/// Prefers attacks deep in the enemy's half, where its flag is.
fn enemy_depth(side: Side, p: Point) -> i64 {
    p.row_column()
        .map_or(0, |(r, _)| side.own_row(r) as i64 - 5)
        .max(0)
}

/// Scores a quiet move: armies and landed ships advance, the recon scouts, ships head for the
/// ports, aircraft stay out of reach, the rest mostly stays.
fn positional(board: &Board, known: &[Option<Kind>], side: Side, me: Piece, m: Move) -> i64 {
    let row = |p: Point| p.row_column().map(|(r, _)| side.own_row(r) as i64);
    let ahead = match (row(m.from), row(m.to)) {
        (Some(a), Some(b)) => b - a,
        _ => 0,
    };
    match me.kind {
        k if k.is_army() || (k.lands() && m.from.layer() == Layer::Land) => {
            let strong = k.rank().is_some_and(|r| r <= 4);
            ahead * if strong { 3 } else { 2 }
        }
        Kind::Battleship | Kind::Cruiser => {
            // Head for the enemy ports, then land.
            if m.to.layer() == Layer::Land {
                6
            } else {
                ahead * 2
            }
        }
        Kind::Gunboat | Kind::Destroyer | Kind::Submarine => ahead,
        Kind::Recon => {
            // Fly over as many unknown enemy pieces as possible.
            board
                .flown_over(m.from, m.to)
                .into_iter()
                .filter(|p| {
                    known[p.index()].is_none() && board.get(*p).is_some_and(|q| q.side != side)
                })
                .count() as i64
                * 4
                - 1
        }
        Kind::Fighter if m.to.layer() == Layer::Airport => 1,
        Kind::Fighter => -1,
        Kind::Missile => ahead,
        _ => -1,
    }
}

impl crate::Computer for super::SeaLandAir {
    fn computer_move(
        view: &Self::View,
        seat: Seat,
        options: &Self::Options,
        strength: Strength,
        seed: u64,
    ) -> Option<Self::Move> {
        choose_at(view, seat, options, strength, seed)
    }

    fn accepts_draw(view: &Self::View, seat: Seat) -> bool {
        accepts_draw(view, seat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;
    use crate::game::Viewer;
    use crate::sealandair::{SeaLandAir, SeaLandAirOptions};

    fn view(south: usize, north: usize) -> SeaLandAirView {
        let mut pieces = Vec::new();
        let land = (0..60).filter_map(|i| Point::circle(i / 5, i % 5));
        for (i, at) in land.enumerate().take(south + north) {
            let side = if i < south { Side::South } else { Side::North };
            pieces.push((at, side, Kind::Private));
        }
        SeaLandAir::from_position(&SeaLandAirOptions::default(), &pieces, Side::South)
            .view(Viewer::Seat(Seat::FIRST))
    }

    #[test]
    fn the_computer_accepts_a_draw_only_two_pieces_down() {
        assert!(accepts_draw(&view(5, 7), Seat::FIRST));
        assert!(!accepts_draw(&view(6, 7), Seat::FIRST));
        assert!(!accepts_draw(&view(7, 5), Seat::FIRST));
        assert!(accepts_draw(&view(7, 5), Seat::SECOND));
    }
}
