//! The history list as a lazy Slint model: the matching ids are read at once (cheap even for
//! tens of thousands of games), rows are read from SQLite a page at a time as they scroll into
//! view, so that opening the history costs one indexed query, not one row per game.

use crate::store::{GameId, GameSummary, HistoryFilter, Store};
use qiguan_ui::GameRow;
use slint::{Model, ModelNotify, ModelTracker};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

const PAGE: usize = 40;

/// How a stored game shows as a row (the screens decide: see `screens::rows`).
pub type RowOf = fn(&GameSummary) -> GameRow;

/// The lazy history model.
pub struct HistoryModel {
    store: Rc<RefCell<Option<Store>>>,
    row: RowOf,
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
    /// Creates an empty model over this store, showing each game as `row` makes it.
    pub fn new(store: Rc<RefCell<Option<Store>>>, row: RowOf) -> Self {
        HistoryModel {
            store,
            row,
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
            Ok(rows) => rows.iter().map(self.row).collect(),
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
