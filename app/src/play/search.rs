//! The computer's searches on threads of their own: a [`Search`] for a move, and the
//! [`Thinking`] a session keeps while one runs.

use crate::shell::ctx::Ctx;
use crate::shell::thinking::{self, Work};
use qiguan_core::{Seat, Strength};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A search for a move on a thread of its own: it stops early when its flag is set.
pub(crate) type Search<M> = Box<dyn FnOnce(Arc<AtomicBool>) -> Option<M> + Send>;

/// The computer's move on a thread of its own at normal and hard, which search over boards
/// drawn from the seat's view for a fraction of a second (Junqi, Sea-land-air); `None` at easy,
/// and at the strengths stored before there were three, which answer at once.
pub(crate) fn search_at_strength<G>(
    view: &G::View,
    seat: Seat,
    options: &G::Options,
    strength: Strength,
) -> Option<Search<G::Move>>
where
    G: qiguan_core::Computer,
    G::View: Clone + Send + 'static,
    G::Options: Clone + Send + 'static,
    G::Move: Send + 'static,
{
    if !matches!(strength, Strength::Normal | Strength::Hard) {
        return None;
    }
    let (view, options, seed) = (
        view.clone(),
        options.clone(),
        crate::shell::random::random_seed(),
    );
    Some(Box::new(move |_stop| {
        G::computer_move(&view, seat, &options, strength, seed)
    }))
}

/// A search running for the session, for the game as it stood after `at` actions.
#[derive(Debug)]
pub(crate) struct Thinking {
    pub at: usize,
    /// This search's own number: its reply is taken only while it is still the one waited
    /// for (the game may have come back to `at` actions by another way: an undo, a new move).
    token: u64,
    /// Dropping it stops the search.
    _work: Work,
}

impl Thinking {
    /// Starts `search` on its own thread; `reply` gets its token and what it found.
    pub(crate) fn start<M: Send + 'static>(
        ctx: &Rc<Ctx>,
        at: usize,
        search: Search<M>,
        reply: impl FnOnce(&Rc<Ctx>, u64, Option<M>) + Send + 'static,
    ) -> Thinking {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let token = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let work = thinking::spawn(ctx, move |stop, _| {
            let found = search(stop);
            Box::new(move |ctx: &Rc<Ctx>| reply(ctx, token, found))
        });
        Thinking {
            at,
            token,
            _work: work,
        }
    }

    /// Whether this is the search with `token`.
    pub(crate) fn is(this: &Option<Thinking>, token: u64) -> bool {
        this.as_ref().is_some_and(|t| t.token == token)
    }
}
