//! Work that takes time — a computer's search, a hint, a game's analysis — runs on a thread
//! of its own so that the window never waits for it. What the work found comes back as a
//! reply: a closure the UI thread runs with the context, in the order the work finished.
//!
//! The running app is woken through Slint's event loop; tests, which have none, call
//! [`crate::App::drain_sync`], which runs the replies waiting.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};

/// What the replies run with: the app's context, which keeps the [`Replies`] on their way to
/// it. (The context is the app's; this module only needs to find its replies.)
pub(crate) trait Host: 'static {
    fn replies(&self) -> &Replies<Self>
    where
        Self: Sized;
}

/// What finished work does on the UI thread.
pub(crate) type Reply<C> = Box<dyn FnOnce(&Rc<C>) + Send>;

/// What work sends back: news while it runs, then its last reply.
enum Message<C> {
    Progress(Reply<C>),
    Done(Reply<C>),
}

/// Lets running work send news to the UI thread before it is done (a review's next
/// position, a deeper line of analysis).
pub(crate) struct Poster<C> {
    tx: Sender<Message<C>>,
}

impl<C: Host> Poster<C> {
    /// Runs `reply` on the UI thread soon.
    pub fn post(&self, reply: Reply<C>) {
        if self.tx.send(Message::Progress(reply)).is_ok() {
            on_ui_thread(|ctx: &Rc<C>| drain(ctx));
        }
    }
}

/// The replies on their way to the UI thread.
pub(crate) struct Replies<C> {
    tx: Sender<Message<C>>,
    rx: Receiver<Message<C>>,
    /// Work started whose reply has not run yet.
    in_flight: Cell<usize>,
}

impl<C> Default for Replies<C> {
    fn default() -> Replies<C> {
        let (tx, rx) = channel();
        Replies {
            tx,
            rx,
            in_flight: Cell::new(0),
        }
    }
}

impl<C> Replies<C> {
    /// How many pieces of work have been started whose replies have not run yet.
    pub fn in_flight(&self) -> usize {
        self.in_flight.get()
    }
}

thread_local! {
    /// The context, for the replies that arrive through the Slint event loop.
    static CONTEXT: RefCell<Option<Weak<dyn Any>>> = const { RefCell::new(None) };
}

/// Makes `ctx` the context that replies (and the sync worker's reports) arriving through the
/// event loop are handled with.
pub(crate) fn set_context<C: 'static>(ctx: &Rc<C>) {
    let weak: Weak<dyn Any> = Rc::downgrade(ctx) as Weak<dyn Any>;
    CONTEXT.with(|c| *c.borrow_mut() = Some(weak));
}

/// Runs `f` on the UI thread with the context, soon (from any thread). Nothing happens when
/// no event loop runs (tests drain by hand) or the app has closed.
pub(crate) fn on_ui_thread<C: 'static>(f: impl FnOnce(&Rc<C>) + Send + 'static) {
    let _ = slint::invoke_from_event_loop(move || {
        let ctx = CONTEXT.with(|c| c.borrow().as_ref().and_then(Weak::upgrade));
        if let Some(ctx) = ctx.and_then(|any| any.downcast::<C>().ok()) {
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
pub(crate) fn spawn<C: Host>(
    ctx: &Rc<C>,
    work: impl FnOnce(Arc<AtomicBool>, &Poster<C>) -> Reply<C> + Send + 'static,
) -> Work {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let replies = ctx.replies();
    let tx = replies.tx.clone();
    let started = std::thread::Builder::new()
        .name("qiguan-thinking".into())
        .spawn(move || {
            let poster = Poster { tx: tx.clone() };
            let reply = work(flag, &poster);
            if tx.send(Message::Done(reply)).is_ok() {
                on_ui_thread(|ctx: &Rc<C>| drain(ctx));
            }
        });
    if started.is_ok() {
        replies.in_flight.set(replies.in_flight.get() + 1);
    } else {
        // No thread to be had: the work is not done, and says so by never replying; the
        // caller's state stays "thinking" until the game changes. Should not happen.
        stop.store(true, Ordering::Relaxed);
    }
    Work { stop }
}

/// Runs the replies of finished work waiting for `ctx`, oldest first.
pub(crate) fn drain<C: Host>(ctx: &Rc<C>) {
    let replies = ctx.replies();
    let messages: Vec<Message<C>> = replies.rx.try_iter().collect();
    for message in messages {
        match message {
            Message::Progress(reply) => reply(ctx),
            Message::Done(reply) => {
                let left = replies.in_flight.get().saturating_sub(1);
                replies.in_flight.set(left);
                reply(ctx);
            }
        }
    }
}
