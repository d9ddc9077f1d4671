//! The records the store keeps and hands out: how a game is played (`Mode`), where it
//! stands (`Standing`), a game to create (`NewGame`), a list row (`GameSummary`), a whole stored
//! game (`StoredGame`) and the history's filter.

use super::*;
use qiguan_core::Strength;
use qiguan_core::fair::Fairness;
use qiguan_core::{Action, Actor, AnyMatch, GameKind, GameResult, Outcome, Record, RecordEntry};

/// How a game is played. Stored as text so that later modes (correspondence) add rows, not
/// columns.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Two players on one device.
    PassAndPlay,
    /// A game read from a PGN or FEN file.
    Imported,
    /// A correspondence game refereed by a server.
    Correspondence,
    /// One person against the computer, which plays this seat.
    Computer(u8),
}

impl Mode {
    /// Returns the stored text.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::PassAndPlay => "pass-and-play",
            Mode::Imported => "imported",
            Mode::Correspondence => "correspondence",
            Mode::Computer(0) => "computer:0",
            Mode::Computer(1) => "computer:1",
            Mode::Computer(2) => "computer:2",
            Mode::Computer(_) => "computer:3",
        }
    }

    pub(crate) fn parse(text: &str) -> Mode {
        match text {
            "imported" => Mode::Imported,
            "correspondence" => Mode::Correspondence,
            "computer:0" => Mode::Computer(0),
            "computer:1" => Mode::Computer(1),
            "computer:2" => Mode::Computer(2),
            "computer:3" => Mode::Computer(3),
            _ => Mode::PassAndPlay,
        }
    }
}

/// Where a game stands, kept beside the actions so that history can filter without replaying.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Standing {
    /// Number of actions recorded.
    pub plies: usize,
    /// How many of them are moves on the board (not draw offers, resignations or dice).
    pub moves: usize,
    /// The outcome, if the game is over.
    pub outcome: Option<Outcome>,
}

impl Standing {
    /// Reads the standing off a match.
    pub fn of(game: &AnyMatch) -> Standing {
        Standing::new(&game.record().actions, game.outcome())
    }

    /// Returns the standing after these actions, with this outcome.
    pub fn new(actions: &[RecordEntry], outcome: Option<Outcome>) -> Standing {
        let moves = actions
            .iter()
            .filter(|e| {
                matches!(e.by, Actor::Seat(_))
                    && matches!(e.action.parse::<Action<String>>(), Ok(Action::Play(_)))
            })
            .count();
        Standing {
            plies: actions.len(),
            moves,
            outcome,
        }
    }

    pub(super) fn status(&self) -> &'static str {
        if self.outcome.is_some() {
            "finished"
        } else {
            "ongoing"
        }
    }

    /// Returns the stored result text: `win:0`, `win:1`, `draw`, or none while playing.
    pub(super) fn result(&self) -> Option<String> {
        self.outcome.as_ref().map(|o| match &o.result {
            GameResult::Win { winners } => {
                let seats: Vec<String> = winners.iter().map(|s| s.index().to_string()).collect();
                format!("win:{}", seats.join(","))
            }
            GameResult::Draw => "draw".to_owned(),
            GameResult::Ranking { order } => {
                let seats: Vec<String> = order.iter().map(|s| s.index().to_string()).collect();
                format!("rank:{}", seats.join(","))
            }
        })
    }
}

/// What a new game starts from.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The game.
    pub kind: GameKind,
    /// How it is played.
    pub mode: Mode,
    /// Options and setup, as the game serializes them.
    pub options: serde_json::Value,
    /// The game's setup (`null` for the standard start).
    pub setup: serde_json::Value,
    /// Player names by seat (may be empty strings).
    pub players: Vec<String>,
    /// Provably fair chance, its public part (see [`qiguan_core::fair`]).
    pub fair: Option<Fairness>,
    /// The seed of a game this device deals and rolls for: secret until the game is over.
    pub chance_seed: Option<String>,
    /// What the player studied of the game (see [`Store::set_study`]): an import's
    /// variations and comments.
    pub study: Option<String>,
}

impl NewGame {
    /// Describes a match about to be stored, with its options and setup spelled out in full
    /// so that the stored game replays the same even if defaults change.
    pub fn from_match(game: &AnyMatch, mode: Mode, players: Vec<String>) -> NewGame {
        NewGame::from_record(&game.record(), mode, players)
    }

    /// Describes a game about to be stored from its record (its kind, options and setup).
    pub fn from_record(record: &Record, mode: Mode, players: Vec<String>) -> NewGame {
        NewGame {
            kind: record.game,
            mode,
            options: record.options.clone(),
            setup: record.setup.clone(),
            players,
            fair: record.fair.clone(),
            chance_seed: None,
            study: None,
        }
    }
}

/// One row of the history list.
#[derive(Clone, PartialEq, Debug)]
pub struct GameSummary {
    /// The game's id.
    pub id: GameId,
    /// Which game.
    pub kind: GameKind,
    /// How it was played.
    pub mode: Mode,
    /// Player names by seat.
    pub players: Vec<String>,
    /// When it was created, Unix milliseconds.
    pub created_at: i64,
    /// When an action was last recorded, Unix milliseconds.
    pub updated_at: i64,
    /// Actions recorded.
    pub plies: usize,
    /// Moves on the board.
    pub moves: usize,
    /// `win:0`, `win:1`, `draw`, or `None` while unfinished.
    pub result: Option<String>,
    /// The end reason's text name, when finished.
    pub reason: Option<String>,
    /// Each seat's computer player (`None` for a person); empty when the game keeps no such
    /// list (or holds a strength this version does not know).
    pub computers: Vec<Option<Strength>>,
    /// A correspondence game: the seat this device holds.
    pub remote_seat: Option<u8>,
    /// A Xiangqi game's opening, as stored (core's `Opening::key`: code and Chinese name).
    pub opening: Option<String>,
}

impl GameSummary {
    /// Which seats the computer plays: a role, which the screens name in their language (a
    /// game stored before computers were kept per seat names its computer's seat in its mode).
    pub fn computer_seats(&self) -> Vec<bool> {
        let seats = self.players.len().max(self.computers.len());
        (0..seats)
            .map(|seat| {
                self.computers.get(seat).is_some_and(Option::is_some)
                    || self.mode == Mode::Computer(seat as u8)
            })
            .collect()
    }

    /// The seat this device's player holds, where there is one: a correspondence game's seat,
    /// or the one person's seat of a game against the computer. None where people share the
    /// device or the game was imported.
    pub fn your_seat(&self) -> Option<usize> {
        if let Some(seat) = self.remote_seat {
            return Some(usize::from(seat));
        }
        if self.mode == Mode::Imported {
            return None;
        }
        let computers = self.computer_seats();
        let mut people = (0..computers.len()).filter(|&seat| !computers[seat]);
        match (people.next(), people.next()) {
            (Some(seat), None) if computers.iter().any(|&c| c) => Some(seat),
            _ => None,
        }
    }

    /// The first place of a finished game (the winner, or the first of a ranking): a seat.
    pub fn first_place(&self) -> Option<usize> {
        let (kind, seats) = self.result.as_deref()?.split_once(':')?;
        if kind != "win" && kind != "rank" {
            return None;
        }
        seats.split(',').next()?.parse().ok()
    }

    /// Whether the game's result is one the filter asks for, where the summary decides it
    /// (your results, a side's win); the others are decided by the query.
    pub(super) fn has_result(&self, filter: ResultFilter) -> bool {
        let first = self.first_place();
        match filter {
            ResultFilter::YouWon => first.is_some() && first == self.your_seat(),
            ResultFilter::YouLost => {
                first.is_some() && self.your_seat().is_some() && first != self.your_seat()
            }
            ResultFilter::WonBy(side) => {
                // Aeroplane chess names its sides by colour: its two seats sit at red and
                // blue, three at red, yellow and blue (core's `colours`).
                let seats = self.players.len();
                first.map(|seat| match self.kind {
                    GameKind::Aeroplane => qiguan_core::aeroplane::board::colours(seats)
                        .get(seat)
                        .map(|c| c.index()),
                    _ => Some(seat),
                }) == Some(Some(usize::from(side)))
            }
            ResultFilter::Unfinished | ResultFilter::Draw => true,
        }
    }
}

/// A stored game with everything needed to resume it.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// The list row.
    pub summary: GameSummary,
    /// The full record.
    pub record: Record,
    /// The seed of a game this device is the authority of (see [`NewGame::chance_seed`]).
    pub chance_seed: Option<String>,
}

/// Which games the history shows.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct HistoryFilter {
    /// Only this game.
    pub kind: Option<GameKind>,
    /// Only games with this result.
    pub result: Option<ResultFilter>,
    /// Only this mode.
    pub mode: Option<Mode>,
    /// Only games against the computer on this device, as narrowed here.
    pub computer: Option<ComputerFilter>,
    /// Only games played (updated) at or after this Unix millisecond.
    pub since: Option<i64>,
    /// Text that must appear in a player's name (case-insensitive) or in the name or code of
    /// the game's opening (in either language), or the game number.
    pub search: String,
    /// Only Xiangqi games whose opening is of this class (`A` to `E`).
    pub opening_class: Option<char>,
}

/// Which games against the computer the history shows.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct ComputerFilter {
    /// Only those where the computer played this seat.
    pub seat: Option<u8>,
    /// Only those where it played at this level (Xiangqi's engine).
    pub level: Option<u8>,
}

/// A result filter for history.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ResultFilter {
    /// Not finished yet.
    Unfinished,
    /// Won (or, in a game of places, come first) by this side: the seat, except in Aeroplane
    /// chess, where it is the colour (0 red, 1 yellow, 2 blue, 3 green), whichever seat had it.
    WonBy(u8),
    /// Drawn.
    Draw,
    /// Won by this device's player: the seat of a correspondence game that is this device's,
    /// or the one person's seat of a game against the computer.
    YouWon,
    /// Lost by this device's player: another seat won or came first.
    YouLost,
}
