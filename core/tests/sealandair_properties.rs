//! Property tests over whole Sea-land-air games, random and computer-played: no panics, every
//! listed move applies, records replay exactly, views never leak, and a seat's legal moves can
//! be worked out from its own view.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use qiguan_core::junqi::Side;
use qiguan_core::sealandair::bot;
use qiguan_core::sealandair::{
    Deployment, Kind, Point, SeaLandAir, SeaLandAirEvent, SeaLandAirOptions, SeaLandAirView,
};
use qiguan_core::{Action, Actor, AnyMatch, Audience, Match, Record, Seat, ToAct, Viewer};
use std::collections::HashSet;

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The legal moves a view allows, worked out from the view alone.
fn moves_from_view(view: &SeaLandAirView, side: Side) -> Vec<String> {
    let mut out: Vec<String> = view
        .board()
        .moves(side)
        .iter()
        .map(|m| m.to_string())
        .collect();
    out.sort();
    out
}

/// Plays one game; `computer` picks how each seat chooses. Odd seeds play in referee mode
/// (battles reveal nothing). Checks everything on the way and returns the finished match.
fn play_game(seed: u64, computer: [bool; 2]) -> Match<SeaLandAir> {
    let mut rng = Rng(seed * 2 + 1);
    let options = SeaLandAirOptions {
        referee: seed % 2 == 1,
        ..SeaLandAirOptions::default()
    };
    let mut m: Match<SeaLandAir> = Match::new(&options, None).unwrap();
    let seats = [Seat::FIRST, Seat::SECOND];
    let sides = [Side::South, Side::North];
    for i in 0..2 {
        let layout = Deployment::random(sides[i], seed + i as u64 * 1000).to_text();
        m.apply_text(Actor::Seat(seats[i]), &format!("deploy:{layout}"))
            .unwrap();
    }
    // Which enemy pieces (by id) each seat has been told about, and which fought in view
    // of everyone.
    let mut known: [HashSet<u8>; 2] = [HashSet::new(), HashSet::new()];
    let mut public: HashSet<u8> = HashSet::new();
    for ply in 0..2000 {
        let seat = match m.to_act() {
            ToAct::Seat(s) => s,
            ToAct::Over(_) => break,
            other => panic!("seed {seed}: {other:?}"),
        };
        let i = seat.index();
        let view = m.view(Viewer::Seat(seat)).game;
        // Legal moves from the view alone are the authority's legal moves.
        let mut legal: Vec<String> = m
            .legal_actions(Actor::Seat(seat))
            .iter()
            .filter_map(|a| match a {
                Action::Play(mv) => Some(mv.to_string()),
                _ => None,
            })
            .collect();
        legal.sort();
        assert_eq!(
            legal,
            moves_from_view(&view, sides[i]),
            "seed {seed} ply {ply}"
        );
        assert!(!legal.is_empty());
        let mv = if computer[i] {
            bot::choose(&view, seat, seed ^ ply as u64)
                .expect("the computer moves")
                .to_string()
        } else {
            legal[rng.below(legal.len())].clone()
        };
        assert!(
            legal.contains(&mv),
            "seed {seed}: the computer chose {mv}, not legal"
        );
        // The pieces that may fight, as the authority knows them.
        let go: Option<qiguan_core::sealandair::Move> = mv.parse().ok();
        let fighters = go.map(|g| (m.game().board().get(g.from), m.game().board().get(g.to)));
        let told = m
            .apply(Actor::Seat(seat), &Action::Play(mv.parse().unwrap()))
            .unwrap_or_else(|e| panic!("seed {seed} ply {ply} {mv}: {e}"));
        for t in told.iter() {
            if let qiguan_core::MatchEvent::Game { event } = &t.event {
                match (&t.audience, event) {
                    (Audience::Seats(to), SeaLandAirEvent::Spotted { pieces }) => {
                        assert_eq!(to, &vec![seat]);
                        for seen in pieces {
                            let at: Point = seen.at.parse().unwrap();
                            let piece = m.game().board().get(at).expect("still there");
                            assert_eq!(Some(piece.kind), seen.kind);
                            known[i].insert(piece.id);
                        }
                    }
                    (
                        Audience::Everyone,
                        SeaLandAirEvent::Battle {
                            attacker, defender, ..
                        },
                    ) => {
                        let (a, d) = fighters.expect("a battle comes from a move");
                        let (a, d) = (a.expect("an attacker"), d.expect("a defender"));
                        if options.referee {
                            assert_eq!(
                                (attacker, defender),
                                (&None, &None),
                                "a battle named kinds"
                            );
                        } else {
                            // V4: both pieces, to everyone, for good.
                            assert_eq!((*attacker, *defender), (Some(a.kind), Some(d.kind)));
                            for set in known.iter_mut() {
                                set.extend([a.id, d.id]);
                            }
                            public.extend([a.id, d.id]);
                        }
                    }
                    (Audience::Everyone, _) => {}
                    (to, event) => panic!("seed {seed}: {event:?} told to {to:?}"),
                }
            }
        }
        if m.outcome().is_some() {
            break;
        }
        // No leaks: each seat sees exactly its own kinds, the ones its recon revealed and the
        // ones that fought; a spectator only the ones that fought.
        for (j, &s) in seats.iter().enumerate() {
            let view = m.view(Viewer::Seat(s)).game;
            for seen in &view.pieces {
                let at: Point = seen.at.parse().unwrap();
                let piece = m.game().board().get(at).unwrap();
                let may = piece.side == sides[j] || known[j].contains(&piece.id);
                assert_eq!(seen.kind.is_some(), may, "seed {seed} ply {ply}: {seen:?}");
                if let Some(kind) = seen.kind {
                    assert_eq!(kind, piece.kind);
                }
            }
            // The battle panel: the fallen, named as far as this seat may know; with what is
            // left they make up the whole army of 37.
            for (k, side) in sides.iter().enumerate() {
                let lost = &view.lost[*side as usize];
                assert_eq!(view.left_count(*side), Some(37 - lost.len()));
                let named = lost.iter().filter(|x| x.is_some()).count();
                if k == j {
                    assert_eq!(named, lost.len(), "own losses are known");
                    let left = view.left_by_kind(*side).expect("own pieces are known");
                    for (i, kind) in Kind::ALL.iter().enumerate() {
                        let fell = lost.iter().filter(|x| **x == Some(*kind)).count();
                        assert_eq!(left[i] + fell, kind.count(), "{kind:?}");
                    }
                }
            }
            let spectator = m.view(Viewer::Spectator).game;
            for seen in &spectator.pieces {
                let at: Point = seen.at.parse().unwrap();
                let piece = m.game().board().get(at).unwrap();
                assert_eq!(seen.kind.is_some(), public.contains(&piece.id), "{seen:?}");
            }
        }
    }
    m
}

fn check_replay(m: &Match<SeaLandAir>) {
    let json = m.record().to_json();
    let replayed = AnyMatch::from_record(&Record::from_json(&json).unwrap()).unwrap();
    assert_eq!(replayed.record(), m.record());
    assert_eq!(replayed.to_act(), m.to_act());
    for viewer in [Viewer::Seat(Seat::FIRST), Viewer::Seat(Seat::SECOND)] {
        assert_eq!(
            replayed.view_json(viewer),
            serde_json::to_value(m.view(viewer)).unwrap()
        );
    }
}

#[test]
fn random_games_never_panic_replay_exactly_and_never_leak() {
    for seed in 0..40 {
        let m = play_game(seed, [false, false]);
        check_replay(&m);
    }
}

#[test]
fn computer_games_end_replay_exactly_and_never_leak() {
    let mut flags = 0;
    let mut lengths = Vec::new();
    let games = 20;
    for seed in 0..games {
        let m = play_game(100 + seed, [true, true]);
        let outcome = m.outcome().expect("the game ended");
        if outcome.reason == qiguan_core::EndReason::FlagCaptured {
            flags += 1;
        }
        lengths.push(m.version());
        check_replay(&m);
    }
    println!("computer games: {flags} of {games} ended by taking the flag; actions {lengths:?}");
}

#[test]
fn the_computer_beats_random_play() {
    let mut wins = 0;
    let games = 20;
    for seed in 0..games {
        // The computer plays South in even games, North in odd ones.
        let computer_seat = (seed % 2) as usize;
        let mut computer = [false, false];
        computer[computer_seat] = true;
        let m = play_game(500 + seed, computer);
        let Some(outcome) = m.outcome() else {
            panic!(
                "seed {seed}: not over after {} actions: {:?}, quiet {}",
                m.version(),
                m.to_act(),
                m.view(Viewer::Spectator).game.quiet_plies
            );
        };
        if outcome.winners() == [[Seat::FIRST, Seat::SECOND][computer_seat]] {
            wins += 1;
        }
    }
    println!("the computer beat random play in {wins} of {games}");
    assert!(
        wins >= games * 9 / 10,
        "the computer won only {wins} of {games}"
    );
}
