//! Work that takes time — a computer's search, a hint, a game's analysis — runs on a thread
//! of its own so that the window never waits for it. What the work found comes back as a
//! reply: a closure the UI thread runs with the context, in the order the work finished.
//!
//! The running app is woken through Slint's event loop; tests, which have none, call
//! [`crate::App::drain_sync`], which runs the replies waiting.

use crate::ctx::Ctx;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};

/// What finished work does on the UI thread.
pub(crate) type Reply = Box<dyn FnOnce(&Rc<Ctx>) + Send>;

/// What work sends back: news while it runs, then its last reply.
enum Message {
    Progress(Reply),
    Done(Reply),
}

/// Lets running work send news to the UI thread before it is done (a review's next
/// position, a deeper line of analysis).
pub(crate) struct Poster {
    tx: Sender<Message>,
}

impl Poster {
    /// Runs `reply` on the UI thread soon.
    pub fn post(&self, reply: Reply) {
        if self.tx.send(Message::Progress(reply)).is_ok() {
            on_ui_thread(|ctx| ctx.drain_replies());
        }
    }
}

/// The replies on their way to the UI thread.
pub(crate) struct Replies {
    tx: Sender<Message>,
    rx: Receiver<Message>,
    /// Work started whose reply has not run yet.
    in_flight: Cell<usize>,
}

impl Default for Replies {
    fn default() -> Replies {
        let (tx, rx) = channel();
        Replies {
            tx,
            rx,
            in_flight: Cell::new(0),
        }
    }
}

thread_local! {
    /// The context, for the replies that arrive through the Slint event loop.
    static CONTEXT: RefCell<Weak<Ctx>> = const { RefCell::new(Weak::new()) };
}

/// Makes `ctx` the context that replies (and the sync worker's reports) arriving through the
/// event loop are handled with.
pub(crate) fn set_context(ctx: &Rc<Ctx>) {
    CONTEXT.with(|c| *c.borrow_mut() = Rc::downgrade(ctx));
}

/// Runs `f` on the UI thread with the context, soon (from any thread). Nothing happens when
/// no event loop runs (tests drain by hand) or the app has closed.
pub(crate) fn on_ui_thread(f: impl FnOnce(&Rc<Ctx>) + Send + 'static) {
    let _ = slint::invoke_from_event_loop(move || {
        if let Some(ctx) = CONTEXT.with(|c| c.borrow().upgrade()) {
            f(&ctx);
        }
    });
}

/// A piece of work running on its own thread. Dropping it asks the work to stop (its reply,
/// if it still comes, finds nothing waiting for it).
#[derive(Debug)]
pub(crate) struct Work {
    stop: Arc<AtomicBool>,
}

impl Work {
    /// Asks the work to stop as soon as it can.
    pub fn cancel(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Drop for Work {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// Starts `work` on a thread of its own. It gets a flag that says it should stop and a
/// poster for news while it runs, and returns the last reply to run on the UI thread.
pub(crate) fn spawn(
    ctx: &Ctx,
    work: impl FnOnce(Arc<AtomicBool>, &Poster) -> Reply + Send + 'static,
) -> Work {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let tx = ctx.replies.tx.clone();
    let started = std::thread::Builder::new()
        .name("qiguan-thinking".into())
        .spawn(move || {
            let poster = Poster { tx: tx.clone() };
            let reply = work(flag, &poster);
            if tx.send(Message::Done(reply)).is_ok() {
                on_ui_thread(|ctx| ctx.drain_replies());
            }
        });
    if started.is_ok() {
        ctx.replies.in_flight.set(ctx.replies.in_flight.get() + 1);
    } else {
        // No thread to be had: the work is not done, and says so by never replying; the
        // caller's state stays "thinking" until the game changes. Should not happen.
        stop.store(true, Ordering::Relaxed);
    }
    Work { stop }
}

impl Ctx {
    /// Runs the replies of finished work, oldest first.
    pub(crate) fn drain_replies(self: &Rc<Self>) {
        let messages: Vec<Message> = self.replies.rx.try_iter().collect();
        for message in messages {
            match message {
                Message::Progress(reply) => reply(self),
                Message::Done(reply) => {
                    let left = self.replies.in_flight.get().saturating_sub(1);
                    self.replies.in_flight.set(left);
                    reply(self);
                }
            }
        }
    }

    /// How many pieces of work have been started whose replies have not run yet.
    pub(crate) fn thinking_in_flight(&self) -> usize {
        self.replies.in_flight.get()
    }
}
