//! The history's query: the ids of the stored games a filter keeps, newest first.

use super::*;
use qiguan_core::Strength;

impl Store {
    /// Returns the ids of the games matching the filter, newest first.
    pub fn history_ids(&self, filter: &HistoryFilter) -> Result<Vec<GameId>, StoreError> {
        let mut sql = String::from("SELECT id FROM games WHERE 1");
        let mut args: Args = Vec::new();
        if let Some(kind) = filter.kind {
            sql.push_str(" AND kind = ?");
            args.push(kind.as_str().to_owned().into());
        }
        if let Some(mode) = filter.mode {
            sql.push_str(" AND mode = ?");
            args.push(mode.as_str().to_owned().into());
        }
        if let Some(computer) = filter.computer {
            where_computer(&mut sql, &mut args, computer);
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
            where_search(&mut sql, &mut args, search);
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
}

/// The SQL condition a history filter adds, and its arguments.
type Args = Vec<rusqlite::types::Value>;

/// Keeps the games against the computer: in the seat it played, at the level it played at.
fn where_computer(sql: &mut String, args: &mut Args, computer: ComputerFilter) {
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

/// Keeps the games a search finds: by a player's name, the game's number, the computer (in
/// either language), or an opening's name or code.
fn where_search(sql: &mut String, args: &mut Args, search: &str) {
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
