//! How a stored game shows as a row of the home, history and correspondence lists: its
//! players, date, result and the seat to move, named as its game names them (the registry).

use crate::shell::format::{format_date, minutes_left, stored_outcome, strength_code};
use crate::store::{GameSummary, Mode, Store, replay};
use qiguan_core::{Strength, ToAct};
use qiguan_ui::{GameOutcome, GameRow};
use slint::{ModelRc, SharedString, VecModel};

/// Converts a stored summary to a list row; `to_move` is -1 when not known.
pub fn game_row(s: &GameSummary, to_move: i32) -> GameRow {
    let (names, computers, you) = seat_names(s);
    let entry = crate::games::entry(s.kind);
    // An imported game's result is its file's word: the record carries it as a resignation
    // or an agreed draw, a reason the file never gave.
    let reason = s.reason.as_deref().filter(|_| s.mode != Mode::Imported);
    let stored = stored_outcome(s.result.as_deref(), reason);
    let seats = s.players.len();
    let (outcome, to_move) = (entry.row_codes)(stored, to_move, seats);
    let you = you.map_or(-1, |seat| {
        (entry.row_codes)(GameOutcome::default(), seat as i32, seats).1
    });
    GameRow {
        id: s.id.0 as i32,
        game: s.kind.as_str().into(),
        names: ModelRc::new(VecModel::from(names)),
        computers: ModelRc::new(VecModel::from(computers)),
        you,
        date: format_date(s.updated_at).into(),
        plies: s.moves as i32,
        mode: match s.mode {
            Mode::Computer(_) => "computer",
            mode => mode.as_str(),
        }
        .into(),
        level: level(s),
        strength: strength(s).into(),
        outcome,
        waiting_join: false,
        to_move,
        to_move_colour: -1,
        minutes_left: -1,
        opening: s
            .opening
            .as_deref()
            .zip(crate::games::find(s.kind).and_then(|e| e.opening))
            .map(|(key, name)| name(key))
            .unwrap_or_default(),
    }
}

/// The players' names as a row shows them (none for a computer's seat or this device's
/// player's own), which seats the computer plays (the row names the opponents of this device's
/// player), and this device's player's seat.
fn seat_names(s: &GameSummary) -> (Vec<SharedString>, Vec<bool>, Option<usize>) {
    let mut computers = s.computer_seats();
    let you = s.your_seat();
    let names = s
        .players
        .iter()
        .enumerate()
        .map(|(seat, name)| {
            if computers.get(seat).copied().unwrap_or(false) || you == Some(seat) {
                SharedString::new()
            } else {
                name.as_str().into()
            }
        })
        .collect();
    if let Some(seat) = you
        && let Some(c) = computers.get_mut(seat)
    {
        *c = false;
    }
    (names, computers, you)
}

/// The computer's level in a game whose computer plays at levels, else 0.
fn level(s: &GameSummary) -> i32 {
    s.computers
        .iter()
        .flatten()
        .find_map(|c| match c {
            Strength::Level(n) => Some(i32::from(*n)),
            _ => None,
        })
        .unwrap_or(0)
}

/// The computer's strength where its game has three (see [`strength_code`]); empty where the
/// game names its computers on its own board (Aeroplane chess).
fn strength(s: &GameSummary) -> &'static str {
    s.computers
        .iter()
        .flatten()
        .filter(|_| crate::games::find(s.kind).is_some_and(|e| e.level_in_rows))
        .map(|c| strength_code(*c))
        .find(|code| !code.is_empty())
        .unwrap_or_default()
}

/// A row for a game on the home or correspondence list: whose move it is (from the stored
/// game; for a correspondence game whose whole record this device does not hold, from the
/// server's word), or that it waits for the opponent to join with the invite code.
pub fn listed_row(store: &Store, s: &GameSummary) -> GameRow {
    let remote = store.remote(s.id).ok().flatten();
    let unfinished = s.result.is_none();
    let waiting_join = unfinished && remote.as_ref().is_some_and(|r| r.invite_code.is_some());
    let mut colour = None;
    let deadline = remote
        .as_ref()
        .and_then(|r| r.deadline)
        .filter(|_| unfinished && !waiting_join);
    let to_move = if !unfinished || waiting_join {
        None
    } else {
        let game = store.load(s.id).ok().and_then(|g| replay(&g).ok());
        let from_record = game.as_ref().and_then(|g| match g.to_act() {
            ToAct::Seat(seat) => Some(seat),
            _ => None,
        });
        if let (Some(game), Some(seat)) = (&game, from_record) {
            colour = (crate::games::entry(s.kind).seat_colour)(game, seat);
        }
        from_record.map(|seat| seat.index() as u8).or_else(|| {
            let r = remote?;
            Some(if r.your_turn {
                r.seat
            } else {
                1 - r.seat.min(1)
            })
        })
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    GameRow {
        waiting_join,
        to_move_colour: colour.unwrap_or(-1),
        minutes_left: minutes_left(deadline, now),
        ..game_row(s, to_move.map_or(-1, i32::from))
    }
}

#[cfg(test)]
mod tests {
    use super::stored_outcome;
    use qiguan_ui::ResultKind;

    #[test]
    fn the_computer_is_a_seat_role_not_a_name() {
        use crate::store::{GameId, GameSummary, Mode};
        use qiguan_core::{GameKind, Strength};
        let summary =
            |mode: Mode, players: &[&str], computers: Vec<Option<Strength>>| GameSummary {
                id: GameId(1),
                kind: GameKind::Xiangqi,
                mode,
                players: players.iter().map(|p| p.to_string()).collect(),
                created_at: 0,
                updated_at: 0,
                plies: 0,
                result: None,
                reason: None,
                moves: 0,
                computers,
                remote_seat: None,
                opening: None,
            };
        // The computer's seat from the mode (games stored before computers per seat).
        let s = summary(Mode::Computer(1), &["Ann", ""], Vec::new());
        assert_eq!(s.computer_seats(), [false, true]);
        // From the seats' computers; an old name on the computer's seat is not shown.
        let s = summary(
            Mode::Correspondence,
            &["Ann", "电脑", "Bo"],
            vec![None, Some(Strength::Easy), None],
        );
        assert_eq!(s.computer_seats(), [false, true, false]);
        let row = super::game_row(&s, -1);
        use slint::Model;
        let names: Vec<String> = row.names.iter().map(|n| n.to_string()).collect();
        assert_eq!(names, ["Ann", "", "Bo"]);
        assert_eq!(
            row.computers.iter().collect::<Vec<_>>(),
            [false, true, false]
        );
        assert_eq!(row.you, -1, "two people share the device");
    }

    /// Issue 36: a game that is this device's player's own names the opponents, not the
    /// player, and the row knows the player's seat (to say "Your move", "You won").
    #[test]
    fn a_row_knows_your_seat_and_names_your_opponent() {
        use crate::store::{GameId, GameSummary, Mode};
        use qiguan_core::GameKind;
        use qiguan_ui::GameRow;
        use slint::Model;
        let summary = |mode: Mode, remote_seat: Option<u8>| GameSummary {
            id: GameId(1),
            kind: GameKind::Xiangqi,
            mode,
            players: vec!["Ann".into(), "Bo".into()],
            created_at: 0,
            updated_at: 0,
            plies: 0,
            result: None,
            reason: None,
            moves: 0,
            computers: Vec::new(),
            remote_seat,
            opening: None,
        };
        let names = |row: &GameRow| row.names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        let row = super::game_row(&summary(Mode::Correspondence, Some(1)), 0);
        assert_eq!(
            (row.you, names(&row)),
            (1, vec!["Ann".into(), String::new()])
        );
        let row = super::game_row(&summary(Mode::Computer(1), None), 0);
        assert_eq!(row.you, 0);
        assert_eq!(
            names(&row),
            ["", ""],
            "the computer's seat is named by its role"
        );
        assert_eq!(row.computers.iter().collect::<Vec<_>>(), [false, true]);
        let row = super::game_row(&summary(Mode::PassAndPlay, None), 0);
        assert_eq!(
            (row.you, names(&row)),
            (-1, vec!["Ann".into(), "Bo".into()])
        );
    }

    #[test]
    fn stored_results_become_typed_outcomes() {
        let o = stored_outcome(Some("win:1"), Some("checkmate"));
        assert_eq!(
            (o.kind, o.winner, o.reason.as_str()),
            (ResultKind::Win, 1, "checkmate")
        );
        let o = stored_outcome(Some("rank:2,0,1"), None);
        assert_eq!((o.kind, o.winner), (ResultKind::Win, 2), "first place wins");
        let o = stored_outcome(Some("draw"), Some("agreement"));
        assert_eq!((o.kind, o.winner), (ResultKind::Draw, -1));
        for unfinished in [None, Some("garbage"), Some("win:x")] {
            let o = stored_outcome(unfinished, None);
            assert_eq!(o.kind, ResultKind::Unfinished, "{unfinished:?}");
        }
    }
}
