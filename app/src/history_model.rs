//! The history list as a lazy Slint model: the matching ids are read at once (cheap even for
//! tens of thousands of games), rows are read from SQLite a page at a time as they scroll into
//! view, so that opening the history costs one indexed query, not one row per game.

use crate::store::{GameId, GameSummary, HistoryFilter, Store};
use qiguan_ui::{GameOutcome, GameRow, ResultKind};
use slint::{Model, ModelNotify, ModelTracker};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

const PAGE: usize = 40;

/// The lazy history model.
pub struct HistoryModel {
    store: Rc<RefCell<Option<Store>>>,
    ids: RefCell<Vec<GameId>>,
    pages: RefCell<HashMap<usize, Vec<GameRow>>>,
    notify: ModelNotify,
}

impl std::fmt::Debug for HistoryModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HistoryModel({} games)", self.ids.borrow().len())
    }
}

impl HistoryModel {
    /// Creates an empty model over this store.
    pub fn new(store: Rc<RefCell<Option<Store>>>) -> Self {
        HistoryModel {
            store,
            ids: RefCell::default(),
            pages: RefCell::default(),
            notify: ModelNotify::default(),
        }
    }

    /// Re-runs the query; returns the number of games or the store's error.
    pub fn refresh(&self, filter: &HistoryFilter) -> Result<usize, crate::store::StoreError> {
        let ids = match self.store.borrow().as_ref() {
            Some(store) => store.history_ids(filter)?,
            None => Vec::new(),
        };
        let n = ids.len();
        *self.ids.borrow_mut() = ids;
        self.pages.borrow_mut().clear();
        self.notify.reset();
        Ok(n)
    }

    fn load_page(&self, page: usize) -> Vec<GameRow> {
        let ids: Vec<GameId> = {
            let ids = self.ids.borrow();
            let start = (page * PAGE).min(ids.len());
            ids[start..(start + PAGE).min(ids.len())].to_vec()
        };
        let store = self.store.borrow();
        let Some(store) = store.as_ref() else {
            return Vec::new();
        };
        match store.summaries(&ids) {
            Ok(rows) => rows.iter().map(|s| game_row(s, -1)).collect(),
            // A row that cannot be read shows as its number only; the history stays usable.
            Err(_) => ids
                .iter()
                .map(|id| GameRow {
                    id: id.0 as i32,
                    ..GameRow::default()
                })
                .collect(),
        }
    }
}

impl Model for HistoryModel {
    type Data = GameRow;

    fn row_count(&self) -> usize {
        self.ids.borrow().len()
    }

    fn row_data(&self, row: usize) -> Option<GameRow> {
        if row >= self.row_count() {
            return None;
        }
        let page = row / PAGE;
        if !self.pages.borrow().contains_key(&page) {
            let rows = self.load_page(page);
            self.pages.borrow_mut().insert(page, rows);
        }
        self.pages.borrow().get(&page)?.get(row % PAGE).cloned()
    }

    fn model_tracker(&self) -> &dyn ModelTracker {
        &self.notify
    }
}

/// Converts a stored summary to a list row; `to_move` is -1 when not known.
pub fn game_row(s: &GameSummary, to_move: i32) -> GameRow {
    let players = if s.players.iter().any(|n| !n.is_empty()) {
        let names: Vec<&str> = s
            .players
            .iter()
            .map(|n| if n.is_empty() { "?" } else { n.as_str() })
            .collect();
        names.join(" – ")
    } else {
        String::new()
    };
    let entry = crate::screens::registry::entry(s.kind);
    let stored = stored_outcome(s.result.as_deref(), s.reason.as_deref());
    let (outcome, to_move) = (entry.row_codes)(stored, to_move, s.players.len());
    GameRow {
        id: s.id.0 as i32,
        game: s.kind.as_str().into(),
        players: players.into(),
        date: format_date(s.updated_at).into(),
        plies: s.moves as i32,
        mode: s.mode.as_str().into(),
        outcome,
        to_move,
    }
}

/// A stored result (`win:1`, `draw`, `rank:2,0,1`, none while unfinished) as the screens
/// take it: the winner is the first place of a ranking; a code this version cannot read
/// shows as unfinished rather than as a made-up winner.
pub(crate) fn stored_outcome(result: Option<&str>, reason: Option<&str>) -> GameOutcome {
    let first = |seats: &str| seats.split(',').next().and_then(|s| s.parse().ok());
    let (kind, winner) = match result {
        Some("draw") => (ResultKind::Draw, -1),
        Some(r) => match r.split_once(':') {
            Some(("win" | "rank", seats)) => match first(seats) {
                Some(seat) => (ResultKind::Win, seat),
                None => (ResultKind::Unfinished, -1),
            },
            _ => (ResultKind::Unfinished, -1),
        },
        None => (ResultKind::Unfinished, -1),
    };
    GameOutcome {
        kind,
        winner,
        reason: reason.unwrap_or_default().into(),
    }
}

/// Formats a Unix-millisecond time in local time, `2026-11-22 14:05`.
pub fn format_date(ms: i64) -> String {
    use chrono::TimeZone;
    match chrono::Local.timestamp_millis_opt(ms).single() {
        Some(t) => t.format("%Y-%m-%d %H:%M").to_string(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::stored_outcome;
    use qiguan_ui::ResultKind;

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
