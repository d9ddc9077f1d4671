//! The local game history: one SQLite file in WAL mode, a versioned schema, and every action
//! written in its own transaction before the UI shows it as made.

pub mod library;
mod migrations;
mod phrases;
mod reviews;
mod shares;
mod stats;
pub(crate) mod storage;
mod studies;
pub use reviews::KeptReview;
pub use shares::{ChangedUpload, KeptShare};
pub use stats::FinishedGame;

pub use phrases::{Phrase, QueuedPhrase};

use qiguan_core::Strength;
use qiguan_core::fair::{Dealer, Fairness};
use qiguan_core::{Action, Actor, AnyMatch, GameKind, GameResult, Outcome, Record, RecordEntry};
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use std::fmt;
use std::path::{Path, PathBuf};

pub use migrations::SCHEMA_VERSION;

/// The name of the database file inside the data directory.
pub const DB_FILE: &str = "qiguan.sqlite";

/// A stored game's id.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct GameId(pub i64);

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

    fn status(&self) -> &'static str {
        if self.outcome.is_some() {
            "finished"
        } else {
            "ongoing"
        }
    }

    /// Returns the stored result text: `win:0`, `win:1`, `draw`, or none while playing.
    fn result(&self) -> Option<String> {
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
    fn has_result(&self, filter: ResultFilter) -> bool {
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

/// Why the store cannot be used. The file is never written after one of these.
#[derive(Debug)]
pub enum StoreError {
    /// The file exists but is not a Qiguan database, or is damaged.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// SQLite's words.
        detail: String,
    },
    /// The file was written by a newer Qiguan with a schema this build does not know.
    TooNew {
        /// The file.
        path: PathBuf,
        /// The schema version found.
        found: i64,
    },
    /// The directory or file cannot be opened or written.
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's or SQLite's words.
        detail: String,
    },
    /// A stored record no longer replays (a bug, or a hand-edited file).
    BadRecord {
        /// The game.
        id: GameId,
        /// Why.
        detail: String,
    },
    /// The game asked for is not in the store.
    NoSuchGame(GameId),
    /// A write did not match the stored game (a stale or duplicated action).
    Conflict(String),
    /// Any other SQLite failure.
    Sqlite(rusqlite::Error),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Corrupt { path, detail } => write!(
                f,
                "{} is damaged or not a Qiguan database ({detail}); it was left untouched",
                path.display()
            ),
            StoreError::TooNew { path, found } => write!(
                f,
                "{} was written by a newer Qiguan (schema {found}, this version knows up to \
                 {SCHEMA_VERSION}); update the app. The file was left untouched",
                path.display()
            ),
            StoreError::Io { path, detail } => {
                write!(f, "cannot open {}: {detail}", path.display())
            }
            StoreError::BadRecord { id, detail } => {
                write!(f, "game {} does not replay: {detail}", id.0)
            }
            StoreError::NoSuchGame(id) => write!(f, "no game {} in the history", id.0),
            StoreError::Conflict(what) => write!(f, "not saved: {what}"),
            StoreError::Sqlite(e) => write!(f, "database error: {e}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Sqlite(e)
    }
}

/// The local store.
#[derive(Debug)]
pub struct Store {
    pub(crate) conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens (creating if needed) the database in this directory.
    pub fn open_dir(dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| StoreError::Io {
            path: dir.to_owned(),
            detail: e.to_string(),
        })?;
        Store::open(&dir.join(DB_FILE))
    }

    /// Opens (creating if needed) the database file and brings its schema up to date.
    ///
    /// A damaged file or one from a newer version is refused before anything is written.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let io = |e: rusqlite::Error| StoreError::Io {
            path: path.to_owned(),
            detail: e.to_string(),
        };
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(io)?;
        let corrupt = |e: rusqlite::Error| StoreError::Corrupt {
            path: path.to_owned(),
            detail: e.to_string(),
        };
        // Reading the schema touches the header: a file that is not SQLite fails here,
        // before any pragma could write to it.
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(corrupt)?;
        conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
            r.get::<_, i64>(0)
        })
        .map_err(corrupt)?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::TooNew {
                path: path.to_owned(),
                found: version,
            });
        }
        // FULL: a move the UI showed as made survives power loss, not only a crash.
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(2))?;
        let mut store = Store {
            conn,
            path: path.to_owned(),
        };
        // The schema brought up to date in one transaction, before the switch to WAL (which
        // writes the file's header): a file that fails on the way is left as it was.
        migrations::migrate(&mut store.conn, version).map_err(|e| match e {
            StoreError::Sqlite(e) => corrupt(e),
            other => other,
        })?;
        store
            .conn
            .pragma_update(None, "journal_mode", "WAL")
            .map_err(corrupt)?;
        Ok(store)
    }

    /// Returns the database file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Creates a game and returns its id.
    pub fn create_game(&mut self, game: &NewGame, now: i64) -> Result<GameId, StoreError> {
        self.create_game_with(game, &[], &Standing::new(&[], None), now)
    }

    /// Creates a game with its actions already played (an import, or "continue from here"),
    /// in one transaction.
    pub fn create_game_with(
        &mut self,
        game: &NewGame,
        actions: &[RecordEntry],
        standing: &Standing,
        now: i64,
    ) -> Result<GameId, StoreError> {
        // A savepoint, so that bulk loads may wrap many of these in one transaction.
        let tx = self.conn.savepoint()?;
        let players = serde_json::to_string(&game.players).unwrap_or_else(|_| "[]".into());
        tx.execute(
            "INSERT INTO games (kind, mode, options, setup, players, created_at, updated_at,
                                status, result, reason, plies, moves, fair, chance_seed, study)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
            params![
                game.kind.as_str(),
                game.mode.as_str(),
                game.options.to_string(),
                game.setup.to_string(),
                players,
                now,
                standing.status(),
                standing.result(),
                standing.outcome.as_ref().map(|o| o.reason.as_str()),
                standing.plies as i64,
                standing.moves as i64,
                fair_json(game.fair.as_ref()),
                game.chance_seed,
                game.study,
            ],
        )?;
        let id = tx.last_insert_rowid();
        {
            let mut insert = tx.prepare(
                "INSERT INTO actions (game_id, ply, actor, action) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for (ply, entry) in actions.iter().enumerate() {
                insert.execute(params![id, ply as i64, entry.by.to_string(), entry.action])?;
            }
        }
        note_opening(&tx, GameId(id))?;
        tx.commit()?;
        Ok(GameId(id))
    }

    /// Appends one action at `ply` (its index) and the standing after it, in one transaction.
    ///
    /// Refuses a ply that is not the next one: a stale or duplicated write changes nothing.
    pub fn append_action(
        &mut self,
        id: GameId,
        ply: usize,
        entry: &RecordEntry,
        standing: &Standing,
        now: i64,
    ) -> Result<(), StoreError> {
        let tx = self.conn.savepoint()?;
        let stored: Option<i64> = tx
            .query_row("SELECT plies FROM games WHERE id = ?1", [id.0], |r| {
                r.get(0)
            })
            .optional()?;
        match stored {
            None => return Err(StoreError::NoSuchGame(id)),
            Some(n) if n != ply as i64 => {
                return Err(StoreError::Conflict(format!(
                    "game {} has {n} actions stored, cannot add action {ply}",
                    id.0
                )));
            }
            Some(_) => {}
        }
        tx.execute(
            "INSERT INTO actions (game_id, ply, actor, action) VALUES (?1, ?2, ?3, ?4)",
            params![id.0, ply as i64, entry.by.to_string(), entry.action],
        )?;
        update_standing(&tx, id, standing, now)?;
        tx.commit()?;
        Ok(())
    }

    /// Stores the public part of a game's fair chance (its draws so far; the seed once over).
    pub fn set_fair(&mut self, id: GameId, fair: Option<&Fairness>) -> Result<(), StoreError> {
        self.conn.execute(
            // Only a change: an update marks the game for the library to send again.
            "UPDATE games SET fair = ?2 WHERE id = ?1 AND fair IS NOT ?2",
            params![id.0, fair_json(fair)],
        )?;
        Ok(())
    }

    /// Removes the actions from `ply` on (an undo) and stores the standing after that.
    pub fn truncate(
        &mut self,
        id: GameId,
        ply: usize,
        standing: &Standing,
        now: i64,
    ) -> Result<(), StoreError> {
        let tx = self.conn.savepoint()?;
        tx.execute(
            "DELETE FROM actions WHERE game_id = ?1 AND ply >= ?2",
            params![id.0, ply as i64],
        )?;
        update_standing(&tx, id, standing, now)?;
        tx.commit()?;
        Ok(())
    }

    /// Loads a game's record and list row.
    pub fn load(&self, id: GameId) -> Result<StoredGame, StoreError> {
        let (summary, options, setup, fair, chance_seed) = self
            .conn
            .query_row(
                &format!(
                    "SELECT options, setup, fair, chance_seed, {SUMMARY_COLUMNS}
                     FROM games WHERE id = ?1"
                ),
                [id.0],
                |r| {
                    Ok((
                        summary_from_row(r, 4)?,
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, Option<String>>(2)?,
                        r.get::<_, Option<String>>(3)?,
                    ))
                },
            )
            .optional()?
            .ok_or(StoreError::NoSuchGame(id))?;
        let summary = summary.map_err(|detail| StoreError::BadRecord { id, detail })?;
        let bad = |detail: String| StoreError::BadRecord { id, detail };
        let mut stmt = self
            .conn
            .prepare_cached("SELECT actor, action FROM actions WHERE game_id = ?1 ORDER BY ply")?;
        let actions = stmt
            .query_map([id.0], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })?
            .map(|row| {
                let (actor, action) = row?;
                let by = actor.parse().map_err(bad)?;
                Ok(RecordEntry { by, action })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        let record = Record {
            format: qiguan_core::RECORD_FORMAT,
            game: summary.kind,
            options: serde_json::from_str(&options).map_err(|e| bad(e.to_string()))?,
            setup: serde_json::from_str(&setup).map_err(|e| bad(e.to_string()))?,
            actions,
            fair: match fair {
                Some(text) => Some(serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?),
                None => None,
            },
        };
        Ok(StoredGame {
            summary,
            record,
            chance_seed,
        })
    }

    /// Returns unfinished games, most recently played first.
    pub fn unfinished(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        let filter = HistoryFilter {
            result: Some(ResultFilter::Unfinished),
            ..HistoryFilter::default()
        };
        let ids = self.history_ids(&filter)?;
        let ids: Vec<GameId> = ids.into_iter().take(limit).collect();
        self.summaries(&ids)
    }

    /// Returns the ids of the games matching the filter, newest first.
    pub fn history_ids(&self, filter: &HistoryFilter) -> Result<Vec<GameId>, StoreError> {
        let mut sql = String::from("SELECT id FROM games WHERE 1");
        let mut args: Vec<rusqlite::types::Value> = Vec::new();
        if let Some(kind) = filter.kind {
            sql.push_str(" AND kind = ?");
            args.push(kind.as_str().to_owned().into());
        }
        if let Some(mode) = filter.mode {
            sql.push_str(" AND mode = ?");
            args.push(mode.as_str().to_owned().into());
        }
        if let Some(computer) = filter.computer {
            match computer.seat {
                Some(seat) => {
                    sql.push_str(" AND mode = ?");
                    args.push(Mode::Computer(seat).as_str().to_owned().into());
                }
                None => sql.push_str(" AND mode LIKE 'computer:%'"),
            }
            if let Some(level) = computer.level {
                // The seats' strengths as stored: `[null, "level-5"]`.
                sql.push_str(" AND instr(computers, ?) > 0");
                args.push(format!("\"{}\"", Strength::Level(level)).into());
            }
        }
        match filter.result {
            None => {}
            Some(ResultFilter::Unfinished) => sql.push_str(" AND status = 'ongoing'"),
            Some(ResultFilter::Draw) => sql.push_str(" AND result = 'draw'"),
            // A win or first place, whose seat the summaries then judge.
            Some(ResultFilter::WonBy(_) | ResultFilter::YouWon | ResultFilter::YouLost) => {
                sql.push_str(" AND (result LIKE 'win:%' OR result LIKE 'rank:%')");
            }
        }
        if let Some(since) = filter.since {
            sql.push_str(" AND updated_at >= ?");
            args.push(since.into());
        }
        let search = filter.search.trim();
        if !search.is_empty() {
            let number = search.trim_start_matches('#').parse::<i64>().unwrap_or(-1);
            // The computer is a seat's role, not a stored name: a search for it (in either
            // language) finds the games it played.
            let lower = search.to_lowercase();
            let computer = ["the computer", "computer", "电脑"]
                .iter()
                .any(|word| word.contains(lower.as_str()));
            // An opening found by its name in either language or by its code, the game's own
            // or that of a family it grew from: the stored line holds each one's code and
            // Chinese name; the English names are the table's.
            let openings: Vec<String> = qiguan_core::xiangqi::opening::openings()
                .iter()
                .filter(|o| o.en.to_lowercase().contains(&lower))
                .map(|o| o.key())
                .collect();
            let english = " OR instr(line, ?) > 0".repeat(openings.len());
            sql.push_str(&format!(
                " AND (instr(lower(players), lower(?)) > 0 OR id = ?
                   OR (? AND (mode LIKE 'computer:%' OR instr(ifnull(computers, ''), '\"') > 0))
                   OR id IN (SELECT game_id FROM game_openings
                             WHERE instr(lower(line), lower(?)) > 0{english}))",
            ));
            args.push(search.to_owned().into());
            args.push(number.into());
            args.push(computer.into());
            args.push(search.to_owned().into());
            args.extend(openings.into_iter().map(|k| format!("\n{k}\n").into()));
        }
        if let Some(class) = filter.opening_class {
            sql.push_str(" AND id IN (SELECT game_id FROM game_openings WHERE opening LIKE ?)");
            args.push(format!("{class}%").into());
        }
        sql.push_str(" ORDER BY updated_at DESC, id DESC");
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let ids = stmt
            .query_map(rusqlite::params_from_iter(args), |r| r.get(0).map(GameId))?
            .collect::<Result<Vec<_>, _>>()?;
        match filter.result {
            Some(
                result @ (ResultFilter::WonBy(_) | ResultFilter::YouWon | ResultFilter::YouLost),
            ) => Ok(self
                .summaries(&ids)?
                .into_iter()
                .filter(|s| s.has_result(result))
                .map(|s| s.id)
                .collect()),
            _ => Ok(ids),
        }
    }

    /// Returns the list rows of these games, in the order asked (missing ids are skipped).
    pub fn summaries(&self, ids: &[GameId]) -> Result<Vec<GameSummary>, StoreError> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {SUMMARY_COLUMNS} FROM games WHERE id = ?1"
        ))?;
        let mut out = Vec::with_capacity(ids.len());
        for &id in ids {
            if let Some(row) = stmt
                .query_row([id.0], |r| summary_from_row(r, 0))
                .optional()?
            {
                out.push(row.map_err(|detail| StoreError::BadRecord { id, detail })?);
            }
        }
        Ok(out)
    }

    /// The game's uid: its name on every device of a library (schema 7).
    pub fn uid(&self, id: GameId) -> Result<String, StoreError> {
        self.conn
            .query_row("SELECT uid FROM games WHERE id = ?1", [id.0], |r| r.get(0))
            .optional()?
            .ok_or(StoreError::NoSuchGame(id))
    }

    /// The game a uid names on this device, if it has it.
    pub fn by_uid(&self, uid: &str) -> Result<Option<GameId>, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT id FROM games WHERE uid = ?1", [uid], |r| {
                r.get(0).map(GameId)
            })
            .optional()?)
    }

    /// Deletes a game and its actions.
    pub fn delete(&mut self, id: GameId) -> Result<(), StoreError> {
        let n = self
            .conn
            .execute("DELETE FROM games WHERE id = ?1", [id.0])?;
        if n == 0 {
            return Err(StoreError::NoSuchGame(id));
        }
        Ok(())
    }

    /// Returns a setting's stored value.
    pub fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| {
                r.get(0)
            })
            .optional()?)
    }

    /// Stores a setting.
    pub fn set_setting(&mut self, key: &str, value: &str) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO settings (key, value) VALUES (?1, ?2)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            params![key, value],
        )?;
        Ok(())
    }

    /// Returns every setting whose key starts with `prefix`, as (rest of the key, value), in key
    /// order (a game keeps named things, such as saved layouts, under a prefix of its own).
    pub fn settings_with_prefix(&self, prefix: &str) -> Result<Vec<(String, String)>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT key, value FROM settings WHERE substr(key, 1, ?2) = ?1 ORDER BY key",
        )?;
        let rows = stmt.query_map(params![prefix, prefix.chars().count() as i64], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (key, value) = row?;
            out.push((key[prefix.len()..].to_owned(), value));
        }
        Ok(out)
    }

    /// Removes a setting.
    pub fn delete_setting(&mut self, key: &str) -> Result<(), StoreError> {
        self.conn
            .execute("DELETE FROM settings WHERE key = ?1", [key])?;
        Ok(())
    }

    /// Runs `f` inside one transaction (bulk loads, the benchmark's fixture); inside another,
    /// as a savepoint of it.
    pub fn in_transaction<T>(
        &mut self,
        f: impl FnOnce(&mut Store) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.atomically(f)
    }

    /// As [`Store::in_transaction`], for work whose errors are the caller's own (any error a
    /// store error converts into): all of its writes are seen together or not at all.
    pub fn atomically<T, E: From<StoreError>>(
        &mut self,
        f: impl FnOnce(&mut Store) -> Result<T, E>,
    ) -> Result<T, E> {
        if !self.conn.is_autocommit() {
            // Inside another transaction: a savepoint, so that this part alone can fail.
            self.conn
                .execute_batch("SAVEPOINT nested")
                .map_err(StoreError::from)?;
            return match f(self) {
                Ok(v) => {
                    self.conn
                        .execute_batch("RELEASE nested")
                        .map_err(StoreError::from)?;
                    Ok(v)
                }
                Err(e) => {
                    let _ = self
                        .conn
                        .execute_batch("ROLLBACK TO nested; RELEASE nested");
                    Err(e)
                }
            };
        }
        self.conn
            .execute_batch("BEGIN IMMEDIATE")
            .map_err(StoreError::from)?;
        match f(self) {
            Ok(v) => {
                self.conn
                    .execute_batch("COMMIT")
                    .map_err(StoreError::from)?;
                Ok(v)
            }
            Err(e) => {
                let _ = self.conn.execute_batch("ROLLBACK");
                Err(e)
            }
        }
    }
}

const SUMMARY_COLUMNS: &str = "id, kind, mode, players, created_at, updated_at, plies, result,
    reason, moves, computers, (SELECT seat FROM remote_games WHERE game_id = games.id),
    (SELECT opening FROM game_openings WHERE game_id = games.id)";

type SummaryResult = Result<GameSummary, String>;

/// Reads a list row from [`SUMMARY_COLUMNS`], which start at column `at`.
fn summary_from_row(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<SummaryResult> {
    let kind: String = r.get(at + 1)?;
    let players: String = r.get(at + 3)?;
    let Some(kind) = parse_kind(&kind) else {
        return Ok(Err(format!("unknown game {kind:?}")));
    };
    Ok(Ok(GameSummary {
        id: GameId(r.get(at)?),
        kind,
        mode: Mode::parse(&r.get::<_, String>(at + 2)?),
        players: serde_json::from_str(&players).unwrap_or_default(),
        created_at: r.get(at + 4)?,
        updated_at: r.get(at + 5)?,
        plies: r.get::<_, i64>(at + 6)?.max(0) as usize,
        result: r.get(at + 7)?,
        reason: r.get(at + 8)?,
        moves: r.get::<_, i64>(at + 9)?.max(0) as usize,
        computers: r
            .get::<_, Option<String>>(at + 10)?
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default(),
        remote_seat: r
            .get::<_, Option<i64>>(at + 11)?
            .and_then(|seat| u8::try_from(seat).ok()),
        opening: r.get(at + 12)?,
    }))
}

/// The most actions read to name a game's opening: the table's longest line, with room for
/// draw offers among its moves.
const OPENING_ACTIONS: usize = 64;

/// Names a Xiangqi game's opening from its first moves as stored, keeping it in
/// `game_openings` (nothing for another game, or for a game no named line begins).
pub(crate) fn note_opening(conn: &Connection, id: GameId) -> Result<(), StoreError> {
    let row: Option<(String, String, String)> = conn
        .query_row(
            "SELECT kind, options, setup FROM games WHERE id = ?1",
            [id.0],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    let Some((kind, options, setup)) = row else {
        return Ok(());
    };
    if parse_kind(&kind) != Some(GameKind::Xiangqi) {
        return Ok(());
    }
    let mut stmt = conn.prepare_cached(
        "SELECT actor, action FROM actions WHERE game_id = ?1 ORDER BY ply LIMIT ?2",
    )?;
    let actions: Vec<RecordEntry> = stmt
        .query_map(params![id.0, OPENING_ACTIONS as i64], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        })?
        .filter_map(|row| {
            let (actor, action) = row.ok()?;
            Some(RecordEntry {
                by: actor.parse().ok()?,
                action,
            })
        })
        .collect();
    let record = (|| {
        Some(Record {
            format: qiguan_core::RECORD_FORMAT,
            game: GameKind::Xiangqi,
            options: serde_json::from_str(&options).ok()?,
            setup: serde_json::from_str(&setup).ok()?,
            actions,
            fair: None,
        })
    })();
    let line: Vec<String> = match record.map(|r| AnyMatch::from_record(&r)) {
        Some(Ok(AnyMatch::Xiangqi(game))) => {
            let state = game.game();
            qiguan_core::xiangqi::opening::opening_line(state.start_position(), state.moves())
                .iter()
                .map(|o| o.key())
                .collect()
        }
        _ => Vec::new(),
    };
    match line.last() {
        Some(key) => conn.execute(
            "INSERT INTO game_openings (game_id, opening, line) VALUES (?1, ?2, ?3)
             ON CONFLICT (game_id) DO UPDATE SET opening = excluded.opening,
                                                 line = excluded.line
             WHERE line IS NOT excluded.line",
            // Each key on a line of its own, so that a whole key is found (`\nKEY\n`).
            params![id.0, key, format!("\n{}\n", line.join("\n"))],
        )?,
        None => conn.execute("DELETE FROM game_openings WHERE game_id = ?1", [id.0])?,
    };
    Ok(())
}

fn update_standing(
    tx: &Connection,
    id: GameId,
    standing: &Standing,
    now: i64,
) -> Result<(), StoreError> {
    let n = tx.execute(
        "UPDATE games SET plies = ?2, status = ?3, result = ?4, reason = ?5, updated_at = ?6,
                          moves = ?7
         WHERE id = ?1",
        params![
            id.0,
            standing.plies as i64,
            standing.status(),
            standing.result(),
            standing.outcome.as_ref().map(|o| o.reason.as_str()),
            now,
            standing.moves as i64,
        ],
    )?;
    if n == 0 {
        return Err(StoreError::NoSuchGame(id));
    }
    note_opening(tx, id)
}

/// Returns the game kind for its stored name.
pub fn parse_kind(text: &str) -> Option<GameKind> {
    serde_json::from_value(serde_json::Value::String(text.to_owned())).ok()
}

/// Replays a stored game, for resuming it: the authority's own match again where this device
/// deals and rolls for it.
pub fn replay(game: &StoredGame) -> Result<AnyMatch, StoreError> {
    let bad = |detail: String| StoreError::BadRecord {
        id: game.summary.id,
        detail,
    };
    let mut replayed = AnyMatch::from_record(&game.record).map_err(|e| bad(e.to_string()))?;
    if let Some(seed) = &game.chance_seed {
        replayed
            .deal_with(Dealer::from_hex(seed).map_err(bad)?)
            .map_err(bad)?;
    }
    Ok(replayed)
}

/// A game's fair chance as stored: core's JSON.
fn fair_json(fair: Option<&Fairness>) -> Option<String> {
    fair.and_then(|f| serde_json::to_string(f).ok())
}

/// Whether a new file can be made in the folder `dir` (one is made and removed at once): what
/// tells a data folder that cannot be written to from a failing disk, which SQLite reports
/// alike ("disk I/O error").
pub fn takes_files(dir: &Path) -> bool {
    let probe = dir.join(".qiguan-write-probe");
    let made = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&probe)
        .is_ok();
    let _ = std::fs::remove_file(&probe);
    made
}

/// Renames a damaged database (and its WAL files) aside, keeping it, so a new one can start.
pub fn set_aside(db: &Path, now: i64) -> std::io::Result<PathBuf> {
    let kept = db.with_extension(format!("sqlite.damaged-{now}"));
    std::fs::rename(db, &kept)?;
    for suffix in ["-wal", "-shm"] {
        let mut side = db.as_os_str().to_owned();
        side.push(suffix);
        let side = PathBuf::from(side);
        if side.exists() {
            let mut to = kept.as_os_str().to_owned();
            to.push(suffix);
            std::fs::rename(&side, PathBuf::from(to))?;
        }
    }
    Ok(kept)
}

#[cfg(test)]
mod tests;

/// A correspondence game's link to its server.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RemoteGame {
    /// The local game.
    pub game_id: GameId,
    /// The server's base URL.
    pub server: String,
    /// The game's id on the server.
    pub remote_id: String,
    /// This device's seat.
    pub seat: u8,
    /// This seat's token (kept on the device; the server keeps only its hash).
    pub token: String,
    /// The invite for the opponent, while the creator may still need to pass it on.
    pub invite_code: Option<String>,
    /// Days per move.
    pub days_per_move: i64,
    /// When the seat to act must have acted (Unix ms), as last heard.
    pub deadline: Option<i64>,
    /// Whether it was this seat's turn, as last heard.
    pub your_turn: bool,
}

/// An action made on this device and not yet acknowledged by the server.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OutboxEntry {
    /// Its row.
    pub id: i64,
    /// The local game.
    pub game_id: GameId,
    /// The version the action was made at.
    pub expected_version: usize,
    /// The id that makes a resend harmless.
    pub client_action_id: String,
    /// The action's text.
    pub action: String,
}

impl Store {
    /// Stores a new correspondence game with the actions the server already has.
    pub fn create_remote_game(
        &mut self,
        game: &NewGame,
        remote: &RemoteGame,
        actions: &[RecordEntry],
        standing: &Standing,
        now: i64,
    ) -> Result<GameId, StoreError> {
        self.create_remote_game_with_view(game, remote, actions, standing, None, now)
    }

    /// Stores a new correspondence game; a game with secrets comes with the server's view of
    /// it (see [`Store::seat_view`]) in place of actions.
    pub fn create_remote_game_with_view(
        &mut self,
        game: &NewGame,
        remote: &RemoteGame,
        actions: &[RecordEntry],
        standing: &Standing,
        seat_view: Option<&str>,
        now: i64,
    ) -> Result<GameId, StoreError> {
        self.in_transaction(|s| {
            let id = s.create_game_with(game, actions, standing, now)?;
            s.conn.execute(
                "INSERT INTO remote_games (game_id, server, remote_id, seat, token, invite_code,
                                           days_per_move, deadline, your_turn, seat_view)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    id.0,
                    remote.server,
                    remote.remote_id,
                    remote.seat,
                    remote.token,
                    remote.invite_code,
                    remote.days_per_move,
                    remote.deadline,
                    remote.your_turn,
                    seat_view
                ],
            )?;
            Ok(id)
        })
    }

    /// Returns a game's server link, if it is a correspondence game.
    pub fn remote(&self, id: GameId) -> Result<Option<RemoteGame>, StoreError> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {REMOTE_COLUMNS} FROM remote_games WHERE game_id = ?1"
        ))?;
        Ok(stmt.query_row([id.0], remote_from_row).optional()?)
    }

    /// Returns every correspondence game's link.
    pub fn remote_games(&self) -> Result<Vec<RemoteGame>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached(&format!("SELECT {REMOTE_COLUMNS} FROM remote_games"))?;
        let rows = stmt
            .query_map([], remote_from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// Records what the server last said of a game's clock and turn.
    pub fn update_remote(
        &mut self,
        id: GameId,
        deadline: Option<i64>,
        your_turn: bool,
    ) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE remote_games SET deadline = ?2, your_turn = ?3 WHERE game_id = ?1",
            params![id.0, deadline, your_turn],
        )?;
        Ok(())
    }

    /// Forgets the invite code once the opponent has joined.
    pub fn clear_invite(&mut self, id: GameId) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE remote_games SET invite_code = NULL WHERE game_id = ?1",
            [id.0],
        )?;
        Ok(())
    }

    /// Appends an action made here and queues it for the server, in one transaction.
    pub fn queue_action(
        &mut self,
        id: GameId,
        ply: usize,
        entry: &RecordEntry,
        standing: &Standing,
        client_action_id: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        self.in_transaction(|s| {
            s.append_action(id, ply, entry, standing, now)?;
            s.conn.execute(
                "INSERT INTO outbox (game_id, expected_version, client_action_id, action, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![id.0, ply as i64, client_action_id, entry.action, now],
            )?;
            Ok(())
        })
    }

    /// Returns the queued actions, oldest first.
    pub fn outbox(&self) -> Result<Vec<OutboxEntry>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, game_id, expected_version, client_action_id, action FROM outbox ORDER BY id",
        )?;
        let rows = stmt
            .query_map([], |r| {
                Ok(OutboxEntry {
                    id: r.get(0)?,
                    game_id: GameId(r.get(1)?),
                    expected_version: r.get::<_, i64>(2)?.max(0) as usize,
                    client_action_id: r.get(3)?,
                    action: r.get(4)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// Removes an acknowledged (or abandoned) action from the outbox.
    pub fn unqueue(&mut self, outbox_id: i64) -> Result<(), StoreError> {
        self.conn
            .execute("DELETE FROM outbox WHERE id = ?1", [outbox_id])?;
        Ok(())
    }

    /// Replaces a game's actions from `from` on with `entries` and stores the standing, in one
    /// transaction: how a correspondence game takes the server's record.
    pub fn replace_actions(
        &mut self,
        id: GameId,
        from: usize,
        entries: &[RecordEntry],
        standing: &Standing,
        now: i64,
    ) -> Result<(), StoreError> {
        self.in_transaction(|s| {
            s.conn.execute(
                "DELETE FROM actions WHERE game_id = ?1 AND ply >= ?2",
                params![id.0, from as i64],
            )?;
            for (i, e) in entries.iter().enumerate() {
                s.conn.execute(
                    "INSERT INTO actions (game_id, ply, actor, action) VALUES (?1, ?2, ?3, ?4)",
                    params![id.0, (from + i) as i64, e.by.to_string(), e.action],
                )?;
            }
            update_standing(&s.conn, id, standing, now)
        })
    }
}

impl Store {
    /// Returns the view the server last sent of a correspondence game with secrets (none for
    /// a game whose record this device keeps).
    pub fn seat_view(&self, id: GameId) -> Result<Option<String>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT seat_view FROM remote_games WHERE game_id = ?1")?;
        Ok(stmt
            .query_row([id.0], |r| r.get::<_, Option<String>>(0))
            .optional()?
            .flatten())
    }

    /// Returns each seat's computer player (its strength), or `None` for a person; empty when
    /// the game keeps no such list.
    pub fn computers(&self, id: GameId) -> Result<Vec<Option<Strength>>, StoreError> {
        let text: Option<String> = self
            .conn
            .query_row("SELECT computers FROM games WHERE id = ?1", [id.0], |r| {
                r.get(0)
            })
            .optional()?
            .ok_or(StoreError::NoSuchGame(id))?;
        match text {
            None => Ok(Vec::new()),
            Some(text) => serde_json::from_str(&text).map_err(|e| StoreError::BadRecord {
                id,
                detail: format!("computer seats: {e}"),
            }),
        }
    }

    /// Records each seat's computer player (`None` for a person).
    pub fn set_computers(
        &mut self,
        id: GameId,
        computers: &[Option<Strength>],
    ) -> Result<(), StoreError> {
        let text = serde_json::to_string(computers).unwrap_or_else(|_| "[]".into());
        self.conn.execute(
            "UPDATE games SET computers = ?2 WHERE id = ?1",
            params![id.0, text],
        )?;
        Ok(())
    }

    /// Fills in the players' names a server reports where this device has none (an opponent
    /// who joined); names this device has are kept. Returns whether any changed.
    pub fn name_players(&mut self, id: GameId, names: &[String]) -> Result<bool, StoreError> {
        let text: String = self.conn.query_row(
            "SELECT players FROM games WHERE id = ?1",
            params![id.0],
            |r| r.get(0),
        )?;
        let mut players: Vec<String> = serde_json::from_str(&text).unwrap_or_default();
        let mut changed = false;
        for (seat, given) in names.iter().enumerate() {
            if given.is_empty() {
                continue;
            }
            if players.len() <= seat {
                players.resize(seat + 1, String::new());
            }
            if players[seat].is_empty() {
                players[seat].clone_from(given);
                changed = true;
            }
        }
        if changed {
            let text = serde_json::to_string(&players).unwrap_or_else(|_| "[]".into());
            self.conn.execute(
                "UPDATE games SET players = ?2 WHERE id = ?1",
                params![id.0, text],
            )?;
        }
        Ok(changed)
    }

    /// Keeps the server's latest view of a game with secrets, and its standing, in one
    /// transaction; `None` forgets the view (the game's record is now kept instead).
    pub fn set_seat_view(
        &mut self,
        id: GameId,
        view: Option<&str>,
        standing: &Standing,
        now: i64,
    ) -> Result<(), StoreError> {
        self.in_transaction(|s| {
            s.conn.execute(
                "UPDATE remote_games SET seat_view = ?2 WHERE game_id = ?1",
                params![id.0, view],
            )?;
            update_standing(&s.conn, id, standing, now)
        })
    }

    /// Queues an action for the server without recording it here: how a game with secrets
    /// takes a move (the server referees it and sends back the new view).
    pub fn queue_only(
        &mut self,
        id: GameId,
        expected_version: usize,
        action: &str,
        client_action_id: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO outbox (game_id, expected_version, client_action_id, action, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id.0, expected_version as i64, client_action_id, action, now],
        )?;
        Ok(())
    }

    /// Moves a queued action to another expected version (a deployment resent after the other
    /// seat deployed first).
    pub fn requeue(&mut self, outbox_id: i64, expected_version: usize) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE outbox SET expected_version = ?2 WHERE id = ?1",
            params![outbox_id, expected_version as i64],
        )?;
        Ok(())
    }
}

const REMOTE_COLUMNS: &str = "game_id, server, remote_id, seat, token, invite_code, days_per_move, \
                              deadline, your_turn";

fn remote_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RemoteGame> {
    Ok(RemoteGame {
        game_id: GameId(r.get(0)?),
        server: r.get(1)?,
        remote_id: r.get(2)?,
        seat: r.get(3)?,
        token: r.get(4)?,
        invite_code: r.get(5)?,
        days_per_move: r.get(6)?,
        deadline: r.get(7)?,
        your_turn: r.get(8)?,
    })
}
