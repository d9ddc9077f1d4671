//! Statistics from the local history: results per game, per opponent and month by month.
//!
//! Results are counted from "your" side, which a game names only when one seat on this device
//! is a person: a game against the computer (the seats it does not play), or a correspondence
//! game (this device's seat). Games between people on one device count as played, with no
//! side to count a result for; imported games do not count.

pub use crate::store::FinishedGame;
use crate::store::Mode;
use chrono::{Datelike, TimeZone};
use qiguan_core::{GameKind, Strength};

/// Who "you" played against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The computer at a strength (`None`: not kept).
    Computer(Option<Strength>),
    /// Several computer seats (Aeroplane chess).
    Computers,
    /// A person, by name ("" when unnamed).
    Person(String),
}

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    fn add(&mut self, r: Outcome) {
        match r {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }

    /// Games counted.
    pub fn total(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Win,
    Draw,
    Loss,
}

/// One game's line: how many finished, and your results in them.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLine {
    pub kind: GameKind,
    pub played: u32,
    pub yours: Tally,
}

/// One month's results, oldest first.
#[derive(Clone, Debug, PartialEq)]
pub struct Month {
    pub year: i32,
    /// 1–12.
    pub month: u32,
    pub yours: Tally,
}

/// Everything the statistics screen shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Statistics {
    /// Finished games of every kind (imported ones left out).
    pub played: u32,
    /// Your results over all games.
    pub yours: Tally,
    /// Per game, in the registry's order; games never finished left out.
    pub games: Vec<GameLine>,
    /// Per opponent, most games first.
    pub opponents: Vec<(Opponent, Tally)>,
    /// The last `MONTHS` months, oldest first, ending with the current one.
    pub months: Vec<Month>,
}

/// How many months the chart shows.
pub const MONTHS: usize = 6;

/// Your seat and your opponent in a game, when the game has one person's side to count.
/// Aeroplane chess's computers have two strengths and Xiangqi's ten levels; the other games'
/// play at one.
fn your_side(g: &FinishedGame) -> Option<(u8, Opponent)> {
    if g.mode == Mode::Imported {
        return None;
    }
    let strengths = crate::games::find(g.kind).is_some_and(|e| e.computer_levels);
    let computer = |s: Strength| Opponent::Computer(strengths.then_some(s));
    if let Some(seat) = g.remote_seat {
        let others: Vec<&str> = g
            .players
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != seat as usize)
            .map(|(_, n)| n.as_str())
            .collect();
        let computers: Vec<Strength> = g.computers.iter().flatten().copied().collect();
        let opponent = match (others.as_slice(), computers.as_slice()) {
            ([name], []) => Opponent::Person((*name).to_owned()),
            (_, [one]) if others.len() == 1 => computer(*one),
            _ if !computers.is_empty() && computers.len() == others.len() => Opponent::Computers,
            _ => Opponent::Person(others.join(" · ")),
        };
        return Some((seat, opponent));
    }
    if !g.computers.is_empty() {
        let people: Vec<usize> = (0..g.computers.len())
            .filter(|&i| g.computers[i].is_none())
            .collect();
        let computers: Vec<Strength> = g.computers.iter().flatten().copied().collect();
        return match (people.as_slice(), computers.as_slice()) {
            ([seat], [one]) => Some((*seat as u8, computer(*one))),
            ([seat], _) => Some((*seat as u8, Opponent::Computers)),
            _ => None,
        };
    }
    match g.mode {
        Mode::Computer(c) => Some((1 - c.min(1), Opponent::Computer(None))),
        _ => None,
    }
}

/// A stored result (`win:0`, `win:0,2`, `rank:2,0,1`, `draw`) from `seat`'s side: a win is
/// being among the winners, or first in a ranking (Aeroplane chess's finishing order, which
/// a resignation ends with too).
fn outcome_for(result: &str, seat: u8) -> Option<Outcome> {
    if result == "draw" {
        return Some(Outcome::Draw);
    }
    let seats =
        |list: &str| -> Option<Vec<u8>> { list.split(',').map(|s| s.parse().ok()).collect() };
    let won = match result.split_once(':')? {
        ("win", winners) => seats(winners)?.contains(&seat),
        ("rank", order) => seats(order)?.first() == Some(&seat),
        _ => return None,
    };
    Some(if won { Outcome::Win } else { Outcome::Loss })
}

/// The calendar month (year, 1–12) of a Unix millisecond in the local time zone.
fn month_of(ms: i64) -> Option<(i32, u32)> {
    let t = chrono::Local.timestamp_millis_opt(ms).single()?;
    Some((t.year(), t.month()))
}

/// The chart's months, oldest first, ending with the one `now` falls in.
fn chart_months(now: i64) -> Vec<Month> {
    let (mut year, mut month) = month_of(now).unwrap_or((1970, 1));
    let mut months = Vec::with_capacity(MONTHS);
    for _ in 0..MONTHS {
        months.push(Month {
            year,
            month,
            yours: Tally::default(),
        });
        if month == 1 {
            year -= 1;
            month = 12;
        } else {
            month -= 1;
        }
    }
    months.reverse();
    months
}

/// Counts `games` up, with the chart's months ending with the one `now` falls in.
pub fn compute(games: &[FinishedGame], kinds: &[GameKind], now: i64) -> Statistics {
    let mut stats = Statistics::default();
    let mut months = chart_months(now);
    let mut per_game: Vec<GameLine> = kinds
        .iter()
        .map(|&kind| GameLine {
            kind,
            played: 0,
            yours: Tally::default(),
        })
        .collect();
    let mut opponents: Vec<(Opponent, Tally)> = Vec::new();
    for g in games.iter().filter(|g| g.mode != Mode::Imported) {
        stats.played += 1;
        let line = per_game.iter_mut().find(|l| l.kind == g.kind);
        let Some((seat, opponent)) = your_side(g) else {
            if let Some(line) = line {
                line.played += 1;
            }
            continue;
        };
        let Some(r) = outcome_for(&g.result, seat) else {
            continue;
        };
        stats.yours.add(r);
        if let Some(line) = line {
            line.played += 1;
            line.yours.add(r);
        }
        match opponents.iter_mut().find(|(o, _)| *o == opponent) {
            Some((_, t)) => t.add(r),
            None => {
                let mut t = Tally::default();
                t.add(r);
                opponents.push((opponent, t));
            }
        }
        if let Some(m) = month_of(g.ended_at)
            .and_then(|(y, m)| months.iter_mut().find(|x| x.year == y && x.month == m))
        {
            m.yours.add(r);
        }
    }
    per_game.retain(|l| l.played > 0);
    // Most games first; the sort is stable, so ties keep the order first played.
    opponents.sort_by_key(|o| std::cmp::Reverse(o.1.total()));
    stats.games = per_game;
    stats.opponents = opponents;
    stats.months = months;
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = 86_400_000;

    fn game(kind: GameKind, mode: Mode, result: &str, ended_at: i64) -> FinishedGame {
        FinishedGame {
            kind,
            mode,
            players: vec!["Ann".into(), "Bo".into()],
            result: result.into(),
            ended_at,
            computers: Vec::new(),
            remote_seat: None,
        }
    }

    #[test]
    fn every_kind_of_result_counts_from_your_seat() {
        assert_eq!(outcome_for("win:1", 1), Some(Outcome::Win));
        assert_eq!(outcome_for("win:0", 1), Some(Outcome::Loss));
        assert_eq!(outcome_for("win:0,2", 2), Some(Outcome::Win));
        assert_eq!(outcome_for("draw", 0), Some(Outcome::Draw));
        // Aeroplane chess's finishing order (a resignation ends it with one too).
        assert_eq!(outcome_for("rank:2,0,1", 2), Some(Outcome::Win));
        assert_eq!(outcome_for("rank:2,0,1", 0), Some(Outcome::Loss));
        assert_eq!(outcome_for("rank:", 0), None, "unreadable");
        assert_eq!(outcome_for("ongoing", 0), None);
    }

    #[test]
    fn results_count_from_the_one_person_side_a_game_has() {
        let now = chrono::Local
            .with_ymd_and_hms(2026, 11, 20, 12, 0, 0)
            .unwrap()
            .timestamp_millis();
        let kinds = [GameKind::Xiangqi, GameKind::Junqi, GameKind::Aeroplane];
        let mut online = game(GameKind::Junqi, Mode::Correspondence, "win:1", now - DAY);
        online.remote_seat = Some(1);
        let mut aero = game(
            GameKind::Aeroplane,
            Mode::PassAndPlay,
            // Its finishing order: the easy computer at seat 2 first, Ann second.
            "rank:2,0,1,3",
            now - 40 * DAY,
        );
        aero.players = vec!["Ann".into(), String::new(), String::new(), String::new()];
        aero.computers = vec![
            None,
            Some(Strength::Easy),
            Some(Strength::Strong),
            Some(Strength::Easy),
        ];
        let mut strong = game(GameKind::Xiangqi, Mode::Computer(1), "draw", now - 2 * DAY);
        strong.computers = vec![None, Some(Strength::Level(5))];
        let games = [
            // The computer plays Black (seat 1): Red's win is yours.
            game(GameKind::Xiangqi, Mode::Computer(1), "win:0", now - DAY),
            // The computer plays Red: Red's win is your loss.
            game(GameKind::Xiangqi, Mode::Computer(0), "win:0", now - 3 * DAY),
            strong,
            online,
            aero,
            // Two people on this device: played, nobody's side.
            game(GameKind::Junqi, Mode::PassAndPlay, "win:0", now - DAY),
            // Imported: not counted at all.
            game(GameKind::Xiangqi, Mode::Imported, "win:0", now - DAY),
            // Long ago: counted, but before the chart.
            game(
                GameKind::Xiangqi,
                Mode::Computer(1),
                "win:1",
                now - 400 * DAY,
            ),
        ];
        let s = compute(&games, &kinds, now);
        assert_eq!(s.played, 7);
        assert_eq!(
            s.yours,
            Tally {
                wins: 2,
                draws: 1,
                losses: 3
            }
        );
        assert_eq!(s.games.len(), 3);
        assert_eq!((s.games[0].kind, s.games[0].played), (GameKind::Xiangqi, 4));
        assert_eq!(
            s.games[0].yours,
            Tally {
                wins: 1,
                draws: 1,
                losses: 2
            }
        );
        assert_eq!((s.games[1].kind, s.games[1].played), (GameKind::Junqi, 2));
        assert_eq!(s.games[1].yours.wins, 1, "the correspondence game");
        assert_eq!(s.games[2].yours.losses, 1, "a computer seat finished first");
        // Opponents: the computer (3 Xiangqi games that kept no level), then one each: the
        // engine at level 5, Ann, the Aeroplane computers.
        assert_eq!(s.opponents[0].0, Opponent::Computer(None));
        assert_eq!(s.opponents[0].1.total(), 3);
        assert!(s.opponents.contains(&(
            Opponent::Computer(Some(Strength::Level(5))),
            Tally {
                wins: 0,
                draws: 1,
                losses: 0
            }
        )));
        assert!(s.opponents.contains(&(
            Opponent::Person("Ann".into()),
            Tally {
                wins: 1,
                draws: 0,
                losses: 0
            }
        )));
        assert!(s.opponents.iter().any(|(o, _)| *o == Opponent::Computers));
        assert_eq!(s.opponents.len(), 4);
        // Six months to November 2026; this month has everything but the Aeroplane game
        // (October) and the old one.
        assert_eq!(s.months.len(), MONTHS);
        assert_eq!((s.months[0].year, s.months[0].month), (2026, 6));
        assert_eq!((s.months[5].year, s.months[5].month), (2026, 11));
        assert_eq!(s.months[5].yours.total(), 4);
        assert_eq!(s.months[4].yours.losses, 1);
        assert_eq!(s.months[3].yours.total(), 0);
    }

    #[test]
    fn the_chart_crosses_the_new_year() {
        let now = chrono::Local
            .with_ymd_and_hms(2027, 2, 3, 12, 0, 0)
            .unwrap()
            .timestamp_millis();
        let s = compute(&[], &[GameKind::Xiangqi], now);
        let months: Vec<(i32, u32)> = s.months.iter().map(|m| (m.year, m.month)).collect();
        assert_eq!(
            months,
            [
                (2026, 9),
                (2026, 10),
                (2026, 11),
                (2026, 12),
                (2027, 1),
                (2027, 2)
            ]
        );
        assert!(s.games.is_empty() && s.opponents.is_empty());
    }
}
