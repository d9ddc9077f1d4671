//! Where a game's truth lives (this device as the authority, or a server), loading it, storing
//! an action before it shows, and queueing one for the server: a game with secrets as its
//! seat's view, any other with its whole record.

use crate::store::storage::{GameRecord, GameStorage};
use crate::store::{GameId, Mode, RemoteGame, Standing, StoreError, StoredGame};
use crate::sync::ServerView;
use qiguan_core::fair::Dealer;
use qiguan_core::{
    Action, Actor, DrawOffer, Match, MatchView, Outcome, RecordEntry, Rules, Seat, Strength, ToAct,
    Viewer,
};
use qiguan_ui::SyncLine;
use serde::de::DeserializeOwned;

/// Where the game's truth lives.
pub(crate) enum Source<G: Rules> {
    /// This device is the referee and holds the whole game.
    Local(Box<Match<G>>),
    /// A server referees; this device holds its seat's last view.
    Remote(Box<Seen<G>>),
}

/// A correspondence game as the server last showed it to this seat.
pub(crate) struct Seen<G: Rules> {
    /// The server's answer, as kept in the store.
    pub server: ServerView,
    /// Its match view.
    pub view: MatchView<G::View>,
    pub options: G::Options,
    /// This seat's actions queued for the server and not yet answered.
    pub pending: Vec<String>,
}

/// A stored game, loaded for its screen.
pub(crate) struct Loaded<G: Rules> {
    pub source: Source<G>,
    /// Each seat's player's name.
    pub players: Vec<String>,
    /// Each seat's computer player on this device, if any.
    pub computers: Vec<Option<Strength>>,
    /// The server link of a correspondence game.
    pub remote: Option<RemoteGame>,
    /// This device's seat in a correspondence game, else the first.
    pub viewer: Seat,
}

/// Draw offers and answers, which may wait for the server together with a move.
fn shared(action: &str) -> bool {
    qiguan_core::action::is_draw_talk(action)
}

impl<G: Rules> Source<G> {
    pub fn local(&self) -> Option<&Match<G>> {
        match self {
            Source::Local(game) => Some(game),
            Source::Remote(_) => None,
        }
    }

    pub fn seen(&self) -> Option<&Seen<G>> {
        match self {
            Source::Local(_) => None,
            Source::Remote(seen) => Some(seen),
        }
    }

    pub fn options(&self) -> G::Options {
        match self {
            Source::Local(game) => game.game().options().clone(),
            Source::Remote(seen) => seen.options.clone(),
        }
    }

    /// What `seat` may know (a correspondence game knows only its own seat's view).
    pub fn match_view(&self, seat: Seat) -> MatchView<G::View> {
        match self {
            Source::Local(game) => game.view(Viewer::Seat(seat)),
            Source::Remote(seen) => seen.view.clone(),
        }
    }

    pub fn to_act(&self) -> ToAct {
        match self {
            Source::Local(game) => game.to_act(),
            Source::Remote(seen) => seen.view.to_act.clone(),
        }
    }

    pub fn outcome(&self) -> Option<Outcome> {
        match self.to_act() {
            ToAct::Over(outcome) => Some(outcome),
            _ => None,
        }
    }

    pub fn version(&self) -> usize {
        match self {
            Source::Local(game) => game.version(),
            Source::Remote(seen) => seen.view.version,
        }
    }

    pub fn draw_offer(&self) -> Option<DrawOffer> {
        match self {
            Source::Local(game) => game.draw_offer().cloned(),
            Source::Remote(seen) => seen.view.draw_offer.clone(),
        }
    }

    /// The actions queued for the server (none in a game on this device).
    pub fn pending(&self) -> &[String] {
        self.seen().map_or(&[], |seen| seen.pending.as_slice())
    }

    /// The actions `viewer` may take now. A correspondence game takes nothing more while a
    /// move waits for the server (a draw offer or answer may be followed by a move).
    pub fn legal(&self, viewer: Seat) -> Vec<Action<G::Move>> {
        match self {
            Source::Local(game) => game.legal_actions(Actor::Seat(viewer)),
            Source::Remote(seen) => {
                if seen.pending.iter().any(|a| !shared(a)) {
                    return Vec::new();
                }
                seen.server
                    .legal_actions
                    .iter()
                    .filter(|a| !seen.pending.contains(a))
                    .filter(|a| !(seen.pending.iter().any(|p| shared(p)) && shared(a)))
                    .filter_map(|a| a.parse().ok())
                    .collect()
            }
        }
    }

    /// True once a draw offer of this seat's waits for the server.
    pub fn offer_pending(&self) -> bool {
        self.pending().iter().any(|p| p == "offer-draw")
    }
}

/// Loads a stored game: the server's kept view for a correspondence game with secrets, else
/// the record, replayed.
pub(crate) fn load<G: Rules>(store: &mut dyn GameStorage, id: GameId) -> Result<Loaded<G>, String>
where
    G::View: DeserializeOwned,
{
    let GameRecord {
        stored,
        remote,
        kept_view,
        pending,
        computers,
    } = store.game(id).map_err(|e| e.to_string())?;
    let source: Source<G> = match kept_view {
        Some(json) => Source::Remote(Box::new(seen(id, &json, &stored.record, pending)?)),
        None => Source::Local(Box::new(local_match(id, &stored)?)),
    };
    let seats = match &source {
        Source::Local(game) => game.game().seat_count(),
        Source::Remote(_) => 2,
    };
    let mut players = stored.summary.players;
    players.resize(seats, String::new());
    let mut computers = computers;
    computers.resize(seats, None);
    // A game stored before computers were kept per seat names the computer's seat in its mode.
    if let Mode::Computer(seat) = stored.summary.mode
        && computers.iter().all(Option::is_none)
        && let Some(slot) = computers.get_mut(usize::from(seat))
    {
        *slot = Some(Strength::Strong);
    }
    let viewer = remote
        .as_ref()
        .and_then(|r| Seat::new(r.seat))
        .unwrap_or(Seat::FIRST);
    Ok(Loaded {
        source,
        players,
        computers,
        remote,
        viewer,
    })
}

/// A correspondence game with secrets, from the server's view kept in the store and the
/// actions still waiting for the server.
fn seen<G: Rules>(
    id: GameId,
    kept: &str,
    record: &qiguan_core::Record,
    pending: Vec<String>,
) -> Result<Seen<G>, String>
where
    G::View: DeserializeOwned,
{
    let bad = |e: serde_json::Error| format!("the kept view of game {}: {e}", id.0);
    let server: ServerView = serde_json::from_str(kept).map_err(bad)?;
    let view: MatchView<G::View> = serde_json::from_value(server.view.clone()).map_err(bad)?;
    let options: G::Options = serde_json::from_value(record.options.clone()).unwrap_or_default();
    Ok(Seen {
        server,
        view,
        options,
        pending,
    })
}

/// A game this device keeps the whole record of, replayed: the authority's own match again
/// where this device deals and rolls for it (its seed kept beside the record).
fn local_match<G: Rules>(id: GameId, stored: &StoredGame) -> Result<Match<G>, String> {
    let bad = |detail: String| StoreError::BadRecord { id, detail }.to_string();
    let mut game = Match::from_record(&stored.record).map_err(|e| bad(e.to_string()))?;
    if let Some(seed) = &stored.chance_seed {
        game.deal_with(Dealer::from_hex(seed).map_err(bad)?)
            .map_err(bad)?;
    }
    Ok(game)
}

/// Applies an action to a copy of the match, stores it (and any chance it brings about), then
/// makes it the game's state: nothing shows that is not stored.
pub(crate) fn store_and_apply<G: Rules>(
    store: &mut dyn GameStorage,
    now: i64,
    id: GameId,
    source: &mut Source<G>,
    actor: Actor,
    action: &Action<G::Move>,
) -> Result<(), String> {
    let Source::Local(game) = source else {
        return Err("a correspondence game takes its moves from the server".into());
    };
    let mut next = game.clone();
    next.apply(actor, action).map_err(|e| e.to_string())?;
    // The acting seat's contribution to a roll its action asks for, drawn by this device.
    if next.game().has_chance() {
        crate::shell::random::resolve_chance(&mut next, &[crate::shell::random::contribution()])
            .map_err(|e| e.to_string())?;
    }
    let from = game.version();
    let total = next.version();
    let actions: Vec<(RecordEntry, Standing)> = (from..total)
        .map(|i| {
            let outcome = if i + 1 == total { next.outcome() } else { None };
            let entry = next.actions()[i].clone();
            (entry, Standing::new(&next.actions()[..=i], outcome))
        })
        .collect();
    store
        .append(id, from, &actions, next.fairness().as_ref(), now)
        .map_err(|e| e.to_string())?;
    *game = next;
    Ok(())
}

/// Queues an action of a correspondence game whose whole record this device keeps (no
/// secrets): applied to a copy, stored with the outbox entry in one transaction, then made the
/// game's state. The caller asks the sync worker to send it.
pub(crate) fn queue_local<G: Rules>(
    store: &mut dyn GameStorage,
    now: i64,
    id: GameId,
    source: &mut Source<G>,
    actor: Actor,
    action: &Action<G::Move>,
) -> Result<(), String> {
    let Source::Local(game) = source else {
        return Err("a game with secrets is queued as its seat's view".into());
    };
    let mut next = game.clone();
    next.apply(actor, action).map_err(|e| e.to_string())?;
    let Some(entry) = next.actions().last().cloned() else {
        return Ok(());
    };
    let standing = Standing::new(next.actions(), next.outcome());
    let cid = crate::sync::new_action_id();
    store
        .queue(id, next.version() - 1, &(entry, standing), &cid, now)
        .map_err(|e| e.to_string())?;
    *game = next;
    Ok(())
}

/// Queues a correspondence game's action for the server (stored before it shows as sent). The
/// caller asks the sync worker to send it.
pub(crate) fn queue_remote<G: Rules>(
    store: &mut dyn GameStorage,
    id: GameId,
    source: &mut Source<G>,
    action: &Action<G::Move>,
) -> Result<(), String> {
    let Source::Remote(seen) = source else {
        return Err("not a correspondence game".into());
    };
    let text = action.to_string();
    let pending = store.pending(id).map_err(|e| e.to_string())?;
    crate::sync::check_hidden(&seen.server, &pending, &text).map_err(|e| e.to_string())?;
    let version = seen.server.version + pending.len();
    let client_id = crate::sync::new_action_id();
    store
        .queue_only(id, version, text.trim(), &client_id, crate::sync::now())
        .map_err(|e| e.to_string())?;
    seen.pending.push(text);
    Ok(())
}

/// The line a correspondence game shows about the server: as [`super::sync_status`], and
/// `OfflineIdle` when the server is away with nothing waiting.
pub(crate) fn sync_line(online: bool, pending: usize) -> SyncLine {
    match sync_status(online, pending) {
        Some("offline") => SyncLine::Offline,
        Some(_) => SyncLine::Sending,
        None if !online => SyncLine::OfflineIdle,
        None => SyncLine::Current,
    }
}

/// What a correspondence game's line says about its actions: `offline` (they wait for the
/// server), `sending`, or `None` when nothing waits.
pub(crate) fn sync_status(online: bool, pending: usize) -> Option<&'static str> {
    match (online, pending) {
        (false, n) if n > 0 => Some("offline"),
        (true, n) if n > 0 => Some("sending"),
        _ => None,
    }
}

#[cfg(test)]
#[path = "truth_tests.rs"]
mod tests;
