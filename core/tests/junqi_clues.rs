//! The clues a Junqi view gives about unknown opposing pieces (`could_be`) hold the true kind,
//! and are exactly what a player could work out from the views it was shown, one after another:
//! an observer here rebuilds them from nothing but the seat's views, over random games.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use proptest::prelude::*;
use qiguan_core::junqi::belief::Belief;
use qiguan_core::junqi::clues::deployable_ranks;
use qiguan_core::junqi::{
    Battle, Board, Deployment, Junqi, JunqiEvent, JunqiOptions, JunqiView, Piece, Point, Rank,
    Ranks, Side, battle,
};
use qiguan_core::{Actor, Match, Rules, Seat, ToAct, Viewer};
use std::collections::HashMap;

/// What the observer noted about one opposing piece.
#[derive(Clone, Debug)]
struct Noted {
    home: Point,
    moved: bool,
    engineer: bool,
    marshal: bool,
    /// (our piece's kind, it attacked, the result)
    fights: Vec<(Rank, bool, Battle)>,
}

impl Noted {
    fn could_be(&self, side: Side, options: &JunqiOptions) -> Ranks {
        let rules = qiguan_core::junqi::BattleRules {
            landmine_stays: options.landmine_stays,
        };
        deployable_ranks(side, self.home)
            .iter()
            .filter(|&r| !self.moved || !r.immobile())
            .filter(|&r| !self.engineer || r == Rank::Engineer)
            .filter(|&r| !self.marshal || r == Rank::FieldMarshal)
            .filter(|&r| {
                self.fights.iter().all(|&(ours, attacked, result)| {
                    let b = if attacked {
                        battle(r, ours, rules)
                    } else {
                        battle(ours, r, rules)
                    };
                    b == result
                })
            })
            .collect()
    }
}

/// Rebuilds the clues from the seat's successive views.
struct Observer {
    seat: Seat,
    side: Side,
    theirs: Side,
    on_board: HashMap<Point, Noted>,
    fallen: Vec<Noted>,
    before: JunqiView,
}

fn at(text: &str) -> Point {
    text.parse().unwrap()
}

fn board_of(view: &JunqiView) -> Board {
    let mut board = Board::default();
    for p in &view.pieces {
        let rank = p.rank.unwrap_or(Rank::Captain);
        board.set(at(&p.at), Some(Piece { side: p.side, rank }));
    }
    board
}

impl Observer {
    fn new(view: JunqiView, seat: Seat) -> Observer {
        let side = view.colours[seat.index()].unwrap();
        let theirs = side.other();
        let on_board = view
            .pieces
            .iter()
            .filter(|p| p.side == theirs)
            .map(|p| {
                let home = at(&p.at);
                let noted = Noted {
                    home,
                    moved: false,
                    engineer: false,
                    marshal: false,
                    fights: Vec::new(),
                };
                (home, noted)
            })
            .collect();
        Observer {
            seat,
            side,
            theirs,
            on_board,
            fallen: Vec::new(),
            before: view,
        }
    }

    fn own_rank(&self, p: Point) -> Rank {
        let text = p.to_string();
        let seen = self.before.pieces.iter().find(|s| s.at == text).unwrap();
        assert_eq!(seen.side, self.side);
        seen.rank.unwrap()
    }

    /// Takes in the view after one ply.
    fn see(&mut self, view: JunqiView, options: &JunqiOptions) {
        let last = view.last.clone().unwrap();
        let (mv, removed) = match &last.event {
            JunqiEvent::Moved { mv } => (mv.clone(), None),
            JunqiEvent::Battle {
                mv,
                attacker_removed,
                defender_removed,
                ..
            } => (mv.clone(), Some((*attacker_removed, *defender_removed))),
            other => panic!("{other:?}"),
        };
        let m: qiguan_core::junqi::Move = mv.parse().unwrap();
        let mover_side = last.mover.as_ref().unwrap().side;
        let result = removed.map(|r| match r {
            (false, true) => Battle::AttackerWins,
            (true, false) => Battle::DefenderWins,
            _ => Battle::BothRemoved,
        });
        let shown_now =
            !self.before.flag_shown[self.theirs as usize] && view.flag_shown[self.theirs as usize];
        let mut fallen = Vec::new();
        if mover_side == self.theirs {
            let mut noted = self.on_board.remove(&m.from).unwrap();
            noted.moved = true;
            let mut probe = board_of(&self.before);
            probe.set(
                m.from,
                Some(Piece {
                    side: self.theirs,
                    rank: Rank::Captain,
                }),
            );
            let rules = options_rules(options);
            noted.engineer |= !probe.targets(m.from, rules).contains(&m.to);
            if let Some(result) = result {
                noted.fights.push((self.own_rank(m.to), true, result));
                if result == Battle::DefenderWins || result == Battle::BothRemoved {
                    fallen.push(noted);
                } else {
                    self.on_board.insert(m.to, noted);
                }
            } else {
                self.on_board.insert(m.to, noted);
            }
        } else if let Some(result) = result {
            let ours = self.own_rank(m.from);
            let mut noted = self.on_board.remove(&m.to).unwrap();
            noted.fights.push((ours, false, result));
            if result == Battle::DefenderWins {
                self.on_board.insert(m.to, noted);
            } else {
                fallen.push(noted);
            }
        }
        for mut noted in fallen {
            if shown_now {
                noted.marshal = true;
            }
            self.fallen.push(noted);
        }
        self.before = view;
    }

    /// Checks the view's clues against the observer's.
    fn check(&self, game: &Junqi, options: &JunqiOptions) {
        let view = &self.before;
        for p in view.pieces.iter().filter(|p| p.side == self.theirs) {
            let point = at(&p.at);
            let truth = game.board().get(point).unwrap().rank;
            if let Some(rank) = p.rank {
                assert_eq!(rank, truth);
                continue;
            }
            let noted = self.on_board[&point].could_be(self.theirs, options);
            assert_eq!(p.could_be, Some(noted), "seat {:?} at {point}", self.seat);
            assert!(
                noted.contains(truth),
                "{truth:?} not in {noted:?} at {point}"
            );
        }
        let expected: Vec<Ranks> = self
            .fallen
            .iter()
            .map(|n| n.could_be(self.theirs, options))
            .collect();
        assert_eq!(view.lost_could_be[self.theirs as usize], expected);
        self.check_samples(game);
        for (clue, truth) in expected
            .iter()
            .zip(game_lost(game, self.theirs, self.seat).iter())
        {
            assert!(clue.contains(*truth), "a lost {truth:?} not in {clue:?}");
        }
    }
}

impl Observer {
    /// Boards drawn from the seat's belief never contradict what it has seen: every unknown
    /// piece gets a kind its clues allow, the kinds make up the whole army with the known ones,
    /// and the seat's own pieces and every position stay as they are.
    fn check_samples(&self, game: &Junqi) {
        let view = &self.before;
        let belief = Belief::of(view, self.side).expect("a belief from a consistent view");
        for k in 0..3 {
            let sample = belief.sample(k * 7919 + view.pieces.len() as u64);
            let mut army: HashMap<Rank, usize> = HashMap::new();
            for (u, r) in belief.unknown.iter().zip(&sample) {
                assert!(u.could_be.contains(*r), "{r:?} against {:?}", u.could_be);
                *army.entry(*r).or_default() += 1;
            }
            let board = belief.board_with(&sample);
            for p in &view.pieces {
                let q = board.get(at(&p.at)).unwrap();
                assert_eq!(q.side, p.side);
                if let Some(r) = p.rank {
                    assert_eq!(q.rank, r);
                    if p.side == self.theirs {
                        *army.entry(r).or_default() += 1;
                    }
                }
            }
            for r in Rank::ALL {
                assert_eq!(army.get(&r).copied().unwrap_or(0), r.count(), "{r:?}");
            }
            assert_eq!(board.pieces().count(), game.board().pieces().count());
        }
    }
}

fn options_rules(options: &JunqiOptions) -> qiguan_core::junqi::MoveRules {
    qiguan_core::junqi::MoveRules {
        camps_safe: options.camps_safe,
        bombs_enter_headquarters: options.bombs_enter_headquarters,
        flip: false,
        landmines_attackable: true,
    }
}

/// The true kinds `side` lost, from the authority's own view of the game (a spectator sees
/// none; the side's own seat sees all of its own).
fn game_lost(game: &Junqi, side: Side, seat: Seat) -> Vec<Rank> {
    let owner = if seat.index() == 0 {
        Seat::SECOND
    } else {
        Seat::FIRST
    };
    let view = game.view(Viewer::Seat(owner));
    view.lost[side as usize]
        .iter()
        .map(|r| r.unwrap())
        .collect()
}

fn play(seed: u64, landmine_stays: bool, plies: usize) {
    let options = JunqiOptions {
        landmine_stays,
        ..JunqiOptions::default()
    };
    let mut game: Match<Junqi> = Match::new(&options, None).unwrap();
    for (seat, side, s) in [
        (Seat::FIRST, Side::South, seed),
        (Seat::SECOND, Side::North, seed.wrapping_mul(31) + 7),
    ] {
        let text = Deployment::random(side, s).to_text();
        game.apply_text(Actor::Seat(seat), &format!("deploy:{text}"))
            .unwrap();
    }
    let mut observers: Vec<Observer> = [Seat::FIRST, Seat::SECOND]
        .into_iter()
        .map(|s| Observer::new(game.game().view(Viewer::Seat(s)), s))
        .collect();
    let mut state = seed | 1;
    for _ in 0..plies {
        let ToAct::Seat(seat) = game.to_act() else {
            break;
        };
        let moves = game.game().legal_moves(Actor::Seat(seat));
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        // Attacks more often than chance would, so that battles pile up.
        let attacks: Vec<_> = moves
            .iter()
            .filter(|m| match m {
                qiguan_core::junqi::JunqiMove::Go(g) => game.game().board().get(g.to).is_some(),
                _ => false,
            })
            .collect();
        let m = if !attacks.is_empty() && state.is_multiple_of(3) {
            attacks[(state / 3 % attacks.len() as u64) as usize].clone()
        } else {
            moves[(state % moves.len() as u64) as usize].clone()
        };
        game.apply(Actor::Seat(seat), &qiguan_core::Action::Play(m))
            .unwrap();
        if game.outcome().is_some() {
            break;
        }
        for o in &mut observers {
            o.see(game.game().view(Viewer::Seat(o.seat)), &options);
            o.check(game.game(), &options);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn the_clues_hold_the_truth_and_follow_from_the_seats_views_alone(
        seed in any::<u64>(),
        landmine_stays in any::<bool>(),
    ) {
        play(seed, landmine_stays, 300);
    }
}

#[test]
fn a_spectator_gets_no_clues() {
    let mut game: Match<Junqi> = Match::new(&JunqiOptions::default(), None).unwrap();
    for (seat, side) in [(Seat::FIRST, Side::South), (Seat::SECOND, Side::North)] {
        let text = Deployment::random(side, 5).to_text();
        game.apply_text(Actor::Seat(seat), &format!("deploy:{text}"))
            .unwrap();
    }
    let view = game.game().view(Viewer::Spectator);
    assert!(view.pieces.iter().all(|p| p.could_be.is_none()));
    let mine = game.game().view(Viewer::Seat(Seat::FIRST));
    assert!(
        mine.pieces
            .iter()
            .all(|p| (p.side == Side::North) == p.could_be.is_some())
    );
}
