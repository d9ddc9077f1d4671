//! The Aeroplane chess screen: 2 to 4 seats of people and computer players on this device, or a
//! correspondence game through a server; the die, the planes that can move, the finishing order,
//! and a review of the whole game.
//!
//! The shared session ([`crate::play`]) stores each action before it shows, queues a
//! correspondence game's actions, paces the computer seats (one step at a time on a timer, so
//! that each roll and move can be followed), plays the only possible move for a person (a
//! setting), and runs resignation, review and the end. On this device the device rolls (the
//! operating system's randomness) and the roll is stored with the ask; in a correspondence game
//! the server rolls, and the roll arrives with its answer. This module brings the board, the
//! die and the choice of plane.

mod board;
mod news;

use crate::play::{self, GameScreen, Session};
use crate::play::{GameEntry, OnlineChoice};
use crate::shell::bind::{handler, handler0, handler2};
use crate::shell::ctx::Ctx;
use board::{AeroplaneModels, choices, may_act, refresh_board};
use qiguan_core::Seat;
use qiguan_core::aeroplane::board::Colour;
use qiguan_core::aeroplane::{
    Aeroplane, AeroplaneMove, AeroplaneOptions, AeroplaneView, LaunchRule, Phase, ThreeSixes,
};
use qiguan_core::{Computer, Strength};
use qiguan_ui::{AeroPlane, AeroplaneAdapter, AeroplaneRules, AppWindow, GameOutcome, Screen};
use slint::{ComponentHandle, Model};
use std::rc::Rc;
use std::time::Duration;

/// Aeroplane chess in the registry of games.
pub(crate) const ENTRY: GameEntry = GameEntry {
    online: online_choice,
    row_codes,
    computer_levels: true,
    // Its board names the computers (each seat's colour, strength by strength).
    level_in_rows: false,
    most_seats: 4,
    ..play::entry::<Aeroplane>(connect, RULES)
};

/// Aeroplane chess's rules page (docs/rules/).
const RULES: play::RulesPage = play::RulesPage {
    english: include_str!("../../../../docs/rules/aeroplane.md"),
    chinese: include_str!("../../../../docs/rules/zh/aeroplane.md"),
};

/// Seats are named by colour, which depends on how many play: a list row gets the first
/// place's colour as its winner, and the colour to move.
fn row_codes(outcome: GameOutcome, to_move: i32, seats: usize) -> (GameOutcome, i32) {
    let colours = qiguan_core::aeroplane::board::colours(seats);
    let colour_of = |seat: i32| {
        usize::try_from(seat)
            .ok()
            .and_then(|s| colours.get(s))
            .map_or(-1, |c| c.index() as i32)
    };
    let winner = colour_of(outcome.winner);
    (GameOutcome { winner, ..outcome }, colour_of(to_move))
}

impl GameScreen for Aeroplane {
    type Board = AeroplaneModels;
    type Spot = ();
    type Draft = ();
    const SCREEN: Screen = Screen::Aeroplane;
    const COMPUTER_PAUSE: Option<Duration> = Some(Duration::from_millis(700));

    /// A plane moved (sending planes home sounds as a capture), or the die was rolled.
    fn sound(before: &AeroplaneView, after: &AeroplaneView) -> Option<crate::shell::sound::Sound> {
        use crate::shell::sound::Sound;
        if after.last_move != before.last_move
            && let Some(plan) = &after.last_move
        {
            return Some(if plan.captured.is_empty() {
                Sound::Move
            } else {
                Sound::Capture
            });
        }
        let roll = |v: &AeroplaneView| (v.last_roll, v.phase, v.turn, v.sixes);
        (after.last_roll.is_some() && roll(after) != roll(before)).then_some(Sound::Roll)
    }

    /// Returns the Aeroplane chess options chosen on the screen.
    fn chosen_options(ui: &AppWindow) -> AeroplaneOptions {
        let a = ui.global::<AeroplaneRules>();
        AeroplaneOptions {
            seats: (a.get_seats().clamp(0, 2) + 2) as u8,
            launch: match a.get_launch() {
                1 => LaunchRule::SixOnly,
                2 => LaunchRule::FiveOrSix,
                _ => LaunchRule::Even,
            },
            three_sixes: if a.get_end_turn() {
                ThreeSixes::EndTurn
            } else {
                ThreeSixes::SendBack
            },
            stacks_move_together: a.get_stacks_together(),
            stacks_block: a.get_stacks_block(),
        }
    }

    /// Each seat's player's name, and its computer player as chosen (`None`: a person).
    fn chosen_seats(ui: &AppWindow) -> (Vec<String>, Vec<Option<Strength>>) {
        let a = ui.global::<AeroplaneRules>();
        let kinds = [a.get_p0(), a.get_p1(), a.get_p2(), a.get_p3()];
        let names = [a.get_n0(), a.get_n1(), a.get_n2(), a.get_n3()];
        let seats = Aeroplane::chosen_options(ui).seats as usize;
        let computers: Vec<Option<Strength>> = kinds[..seats]
            .iter()
            .map(|k| match k {
                1 => Some(Strength::Easy),
                2 => Some(Strength::Strong),
                _ => None,
            })
            .collect();
        let names = names[..seats]
            .iter()
            .zip(&computers)
            .map(|(n, c)| {
                // The computer is a role (kept in the computers), not a name.
                if c.is_some() {
                    String::new()
                } else {
                    n.trim().to_owned()
                }
            })
            .collect();
        (names, computers)
    }

    /// The planes are tapped through their own callback ([`plane_move`]).
    fn tap(_: &Rc<Ctx>, _: &mut Session<Aeroplane>, _: i32) -> Option<AeroplaneMove> {
        None
    }

    /// The seats' colours in the screens' numbering (red 0, blue 1, yellow 3, green 4).
    fn seat_colours(s: &Session<Aeroplane>) -> Vec<i32> {
        let Some(game) = s.local() else {
            return Vec::new();
        };
        game.game()
            .table()
            .colours
            .iter()
            .map(|c| match c {
                Colour::Red => 0,
                Colour::Yellow => 3,
                Colour::Blue => 1,
                Colour::Green => 4,
            })
            .collect()
    }

    fn only_move(s: &Session<Aeroplane>) -> Option<AeroplaneMove> {
        let list = choices(s.local()?);
        (list.len() == 1 && may_act(s)).then(|| list[0].0)
    }

    fn computer_move(
        view: &AeroplaneView,
        seat: Seat,
        options: &AeroplaneOptions,
        strength: Strength,
    ) -> Option<AeroplaneMove> {
        let seed = crate::shell::random::random_seed();
        <Aeroplane as Computer>::computer_move(view, seat, options, strength, seed)
    }

    fn refresh_board(ctx: &Rc<Ctx>, s: &Session<Aeroplane>, _: &AeroplaneView) {
        refresh_board(ctx, s);
    }
}

/// What New game chose, for a correspondence game: the creator flies red; the other seats are
/// invited or the server's computer.
fn online_choice(ui: &AppWindow, _: u8) -> OnlineChoice {
    OnlineChoice {
        options: serde_json::to_value(Aeroplane::chosen_options(ui)).unwrap_or_default(),
        seat: 0,
        bots: Aeroplane::chosen_seats(ui)
            .1
            .iter()
            .enumerate()
            .skip(1)
            .filter_map(|(seat, c)| c.map(|s| (seat as u8, s)))
            .collect(),
    }
}

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<AeroplaneAdapter>();
    a.on_roll(handler0(ctx, |ctx| {
        play::play_with::<Aeroplane>(ctx, |s| {
            let rolls = s.local()?.game().phase() == Phase::Roll;
            (may_act(s) && rolls).then_some(AeroplaneMove::Roll)
        });
    }));
    a.on_choose(handler(ctx, |ctx, index: i32| {
        play::play_with::<Aeroplane>(ctx, |s| {
            let i = usize::try_from(index).ok()?;
            may_act(s).then(|| choices(s.local()?).into_iter().nth(i).map(|c| c.0))?
        });
    }));
    a.on_plane_clicked(handler2(ctx, |ctx, seat: i32, plane: i32| {
        play::play_with::<Aeroplane>(ctx, |s| plane_move(s, seat, plane));
    }));
    let weak = Rc::downgrade(ctx);
    a.on_board_tapped(move |x, y, reach| {
        let Some(ctx) = weak.upgrade() else { return };
        let planes: Vec<AeroPlane> = ctx
            .ui()
            .global::<AeroplaneAdapter>()
            .get_planes()
            .iter()
            .collect();
        if let Some((seat, plane)) = nearest_movable(&planes, x, y, reach) {
            play::play_with::<Aeroplane>(&ctx, |s| plane_move(s, seat, plane));
        }
    });
}

/// The plane that can move nearest to a tap at (x, y) in grid units, if its square's centre
/// is within `reach`: a finger's 44 px on a board of 24 px squares, without two neighbours'
/// tap areas overlapping.
fn nearest_movable(planes: &[AeroPlane], x: f32, y: f32, reach: f32) -> Option<(i32, i32)> {
    planes
        .iter()
        .filter(|p| p.movable)
        .map(|p| {
            let (dx, dy) = (p.x + 0.5 - x, p.y + 0.5 - y);
            (dx * dx + dy * dy, p)
        })
        .filter(|(d2, _)| *d2 <= reach * reach)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, p)| (p.seat, p.plane))
}

/// A plane tapped on the board: its single move first, else its stack's.
fn plane_move(s: &Session<Aeroplane>, seat: i32, plane: i32) -> Option<AeroplaneMove> {
    if !may_act(s) || s.viewer.index() as i32 != seat {
        return None;
    }
    let game = s.local()?;
    let spot = game.game().table().planes[s.viewer.index()].get(usize::try_from(plane).ok()?)?;
    let list = choices(game);
    list.iter()
        .find(|(mv, plan)| plan.from == *spot && matches!(mv, AeroplaneMove::Plane(_)))
        .or_else(|| list.iter().find(|(_, plan)| plan.from == *spot))
        .map(|(mv, _)| *mv)
}

// ---- The board's geometry: a 15 × 15 grid, red's quarter top left, turning clockwise. ----

#[cfg(test)]
mod tests {
    use super::board::flight_path;
    use super::nearest_movable;
    use super::news::move_event;
    use qiguan_core::Seat;
    use qiguan_core::aeroplane::PlaneRef;
    use qiguan_core::aeroplane::board::{Colour, GOAL, Spot};
    use qiguan_core::aeroplane::geometry::spot_cell;
    use qiguan_core::aeroplane::{MoveKind, Plan};
    use qiguan_ui::{AeroEvent, AeroPlane};

    fn walk(stops: &[u8]) -> Plan {
        Plan {
            seat: Seat::FIRST,
            planes: vec![0],
            from: Spot::Step(stops[0].saturating_sub(4)),
            stops: stops.iter().map(|&s| Spot::Step(s)).collect(),
            captured: Vec::new(),
            kind: MoveKind::Walk,
        }
    }

    /// The news is what the seat to act has not seen since its own last move, at most four
    /// lines, and at least the last thing that happened.
    #[test]
    fn the_news_runs_from_the_seats_last_move() {
        use super::news::{Happened, NEWS, news_for};
        let seat = |i: u8| Seat::new(i);
        let h = |i: u8, event: AeroEvent| Happened {
            event,
            seat: seat(i),
            ..Happened::default()
        };
        let all = vec![
            h(0, AeroEvent::Move),
            h(1, AeroEvent::Capture),
            h(2, AeroEvent::Launch),
            h(3, AeroEvent::NoMove),
        ];
        assert_eq!(news_for(&all, seat(0)), all[1..]);
        assert_eq!(
            news_for(&all, seat(3)),
            all,
            "its own roll with no move is news too"
        );
        assert_eq!(news_for(&all, seat(2)), all[3..], "just after its own move");
        assert_eq!(news_for(&all, None), all);
        let many: Vec<Happened> = (0..10).map(|_| h(1, AeroEvent::Move)).collect();
        assert_eq!(news_for(&many, seat(0)).len(), NEWS);
        assert!(news_for(&[], seat(0)).is_empty());
    }

    #[test]
    fn a_move_flies_square_by_square_and_hops_its_jumps_and_flights() {
        let red = Colour::Red;
        let cells = |steps: &[u8]| -> Vec<(f32, f32)> {
            steps
                .iter()
                .map(|&k| spot_cell(red, Spot::Step(k), 0))
                .collect()
        };
        let plan = |from: Spot, stops: &[u8], kind: MoveKind| Plan {
            seat: Seat::FIRST,
            planes: vec![0],
            from,
            stops: stops.iter().map(|&s| Spot::Step(s)).collect(),
            captured: Vec::new(),
            kind,
        };
        // A walk of 3: every square on the way.
        let walk = plan(Spot::Step(3), &[6], MoveKind::Walk);
        assert_eq!(flight_path(red, &walk, 3), cells(&[3, 4, 5, 6]));
        // A walk of 4 from 14 lands on 18, the shortcut: it flies to 30, then jumps to 34.
        let flight = plan(Spot::Step(14), &[18, 30, 34], MoveKind::Walk);
        assert_eq!(
            flight_path(red, &flight, 4),
            cells(&[14, 15, 16, 17, 18, 30, 34])
        );
        // Launch: from the hangar to the take-off point.
        let launch = plan(Spot::Hangar, &[0], MoveKind::Launch);
        assert_eq!(
            flight_path(red, &launch, 6),
            vec![spot_cell(red, Spot::Hangar, 0), cells(&[0])[0]]
        );
        // From 53 a 5 goes to the goal (the board's middle) and bounces back to 54.
        let bounce = plan(Spot::Step(53), &[54], MoveKind::Bounced);
        let mut expected = cells(&[53, 54, 55]);
        expected.push((7.0, 7.0));
        expected.extend(cells(&[55, 54]));
        assert_eq!(flight_path(red, &bounce, 5), expected);
        // Blocked on 10 with a 4 from 6: forward to 9, back one to 8.
        let blocked = plan(Spot::Step(6), &[8], MoveKind::Blocked);
        assert_eq!(flight_path(red, &blocked, 4), cells(&[6, 7, 8, 9, 8]));
        // Home exactly: the goal, then the hangar slot where a finished plane rests.
        let home = plan(Spot::Step(54), &[GOAL], MoveKind::Walk);
        let path = flight_path(red, &home, 2);
        assert_eq!(path[..3], [cells(&[54])[0], cells(&[55])[0], (7.0, 7.0)]);
        assert_eq!(path[3], spot_cell(red, Spot::Step(GOAL), 0));
    }

    #[test]
    fn the_line_under_the_die_names_what_core_says_the_move_did() {
        assert_eq!(
            move_event(&walk(&[26, 30])),
            AeroEvent::Jump,
            "26 jumps to 30"
        );
        assert_eq!(move_event(&walk(&[18, 30, 34])), AeroEvent::Flight);
        assert_eq!(move_event(&walk(&[14, 18, 30])), AeroEvent::Flight);
        assert_eq!(move_event(&walk(&[2, 6])), AeroEvent::Jump);
        assert_eq!(move_event(&walk(&[31])), AeroEvent::Move);
        let mut capture = walk(&[18, 30]);
        capture.captured.push(PlaneRef {
            seat: Seat::SECOND,
            plane: 1,
        });
        assert_eq!(
            move_event(&capture),
            AeroEvent::Capture,
            "a capture tells most"
        );
    }

    fn plane(x: f32, y: f32, plane: i32, movable: bool) -> AeroPlane {
        AeroPlane {
            x,
            y,
            plane,
            movable,
            ..AeroPlane::default()
        }
    }

    #[test]
    fn a_tap_goes_to_the_nearest_plane_that_can_move_within_reach() {
        // Two movable planes on neighbouring squares and a still one between them.
        let planes = [
            plane(4.0, 6.0, 0, true),
            plane(5.0, 6.0, 1, false),
            plane(6.0, 6.0, 2, true),
        ];
        // Reach 0.92 squares: 44 px on 24 px squares.
        assert_eq!(nearest_movable(&planes, 4.5, 6.5, 0.92), Some((0, 0)));
        // Off the square but within a finger's reach, and nearer the first plane.
        assert_eq!(nearest_movable(&planes, 5.3, 6.9, 0.92), Some((0, 0)));
        // The still plane's square, nearer the third.
        assert_eq!(nearest_movable(&planes, 5.8, 6.5, 0.92), Some((0, 2)));
        // Too far from any movable plane.
        assert_eq!(nearest_movable(&planes, 5.5, 8.0, 0.92), None);
        assert_eq!(nearest_movable(&planes[1..2], 5.5, 6.5, 0.92), None);
    }
}
