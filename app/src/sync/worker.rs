//! The sync worker: a thread with a tokio runtime that owns the correspondence engine. The UI
//! thread sends it commands; it answers with events on a channel and wakes the UI thread
//! (through Slint's event loop in the app, explicitly in tests).

use super::devices::{LIBRARY_SYNC, library_command};
use super::{Command, Correspondence, Event, LibraryCommand, LibraryEvent, SyncError};
use crate::store::GameId;
use std::path::PathBuf;
use std::sync::mpsc as std_mpsc;
use std::time::{Duration, SystemTime};
use tokio::sync::mpsc;

/// A gap in wall-clock time between two of the worker's 5-second ticks at least this long means
/// the device slept or the app was in the background (Android freezes a stopped app): the
/// worker then re-polls as if told [`Command::Resumed`]. Slint's Android backend keeps the
/// activity's lifecycle events to itself, so the gap is how the worker learns of it.
pub const SLEPT: Duration = Duration::from_secs(30);

/// Returns true if the time between two ticks says the app was away.
pub fn slept(last_tick: SystemTime, now: SystemTime) -> bool {
    now.duration_since(last_tick).is_ok_and(|gap| gap >= SLEPT)
}

/// A handle to the worker.
#[derive(Debug, Clone)]
pub struct Worker {
    commands: mpsc::UnboundedSender<Command>,
}

impl Worker {
    /// Starts the worker on the app's data directory. `wake` is called after each event.
    pub fn start(
        data_dir: PathBuf,
        wake: impl Fn() + Send + 'static,
    ) -> (Worker, std_mpsc::Receiver<Event>) {
        let (commands, rx) = mpsc::unbounded_channel();
        let (events, out) = std_mpsc::channel();
        let internal = commands.clone();
        let spawned = std::thread::Builder::new()
            .name("qiguan-sync".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(r) => r,
                    Err(e) => {
                        eprintln!("qiguan: the sync worker cannot start: {e}");
                        let _ = events.send(Event::Failed {
                            what: "sync",
                            code: "internal".into(),
                        });
                        wake();
                        return;
                    }
                };
                runtime.block_on(run(data_dir, rx, internal, events, wake));
            });
        if spawned.is_err() {
            // Without a thread there is no sync; local play is unaffected.
        }
        (Worker { commands }, out)
    }

    /// Sends a command (ignored if the worker has stopped).
    pub fn send(&self, command: Command) {
        let _ = self.commands.send(command);
    }
}

async fn run(
    data_dir: PathBuf,
    mut rx: mpsc::UnboundedReceiver<Command>,
    internal: mpsc::UnboundedSender<Command>,
    events: std_mpsc::Sender<Event>,
    wake: impl Fn() + Send + 'static,
) {
    let wake = std::sync::Arc::new(wake);
    let emit = |e: Event| {
        let _ = events.send(e);
        wake();
    };
    let mut engine = match Correspondence::open(&data_dir) {
        Ok(engine) => engine,
        Err(e) => {
            return emit(Event::Failed {
                what: "sync",
                code: e.code(),
            });
        }
    };
    let mut follow = Follow::new(internal);
    let mut library = open_library(&data_dir, events.clone(), wake.clone());
    // A linked device syncs its library now and then, and at once when asked.
    let mut library_tick = tokio::time::interval(LIBRARY_SYNC);
    // While actions wait in the outbox, retry every few seconds; a late tick means the app was
    // away.
    let mut retry = tokio::time::interval(Duration::from_secs(5));
    let mut last_tick = SystemTime::now();
    // Settings' check of an address, beside the rest (a new one replaces it).
    let mut probe: Option<std::pin::Pin<Box<dyn Future<Output = Event>>>> = None;
    loop {
        let command = tokio::select! {
            c = rx.recv() => match c { Some(c) => c, None => break },
            event = async { probe.as_mut().expect("checked").await }, if probe.is_some() => {
                probe = None;
                emit(event);
                continue;
            }
            _ = library_tick.tick() => Command::Library(LibraryCommand::Sync),
            _ = retry.tick() => {
                let now = SystemTime::now();
                let command = due(&engine, slept(last_tick, now));
                last_tick = now;
                match command {
                    Some(command) => command,
                    None => continue,
                }
            }
        };
        if let Command::Probe(server) = command {
            probe = Some(probe_server(&engine, server));
            continue;
        }
        carry_out(&mut engine, &mut follow, library.as_mut(), command, &emit).await;
    }
}

/// Carries out a command: the library's with the library engine, the rest with the
/// correspondence engine (and, back from the background, a library sync too); then calls out
/// the phrases heard meanwhile.
async fn carry_out(
    engine: &mut Correspondence,
    follow: &mut Follow,
    library: Option<&mut crate::library::Library>,
    command: Command,
    emit: &impl Fn(Event),
) {
    if let Command::Library(command) = command {
        if let Some(library) = library {
            library_command(library, command, emit).await;
        }
        return;
    }
    let resumed = matches!(command, Command::Resumed);
    handle(engine, follow, command, emit).await;
    if resumed && let Some(library) = library {
        // Back from the background: other devices may have played meanwhile.
        library_command(library, LibraryCommand::Sync, emit).await;
    }
    let heard = engine.take_heard();
    if !heard.is_empty() {
        emit(Event::Heard(heard));
    }
}

/// The library engine of this device's data, reporting each committed step of a sync as it
/// happens (the Devices screen counts them); `None` where it cannot open.
fn open_library(
    data_dir: &std::path::Path,
    events: std_mpsc::Sender<Event>,
    wake: std::sync::Arc<impl Fn() + Send + 'static>,
) -> Option<crate::library::Library> {
    let mut library = crate::library::Library::open(data_dir).ok()?;
    library.on_progress(Box::new(move |done| {
        let _ = events.send(Event::Library(LibraryEvent::Progress(*done)));
        wake();
    }));
    Some(library)
}

/// What the retry tick asks for: everything afresh after the app was `away`, else the outbox
/// while actions wait in it, else the pages that follow games changed since; nothing otherwise.
fn due(engine: &Correspondence, away: bool) -> Option<Command> {
    if away {
        Some(Command::Resumed)
    } else if engine.has_queued() {
        Some(Command::Flush)
    } else if engine
        .store()
        .changed_uploads()
        .is_ok_and(|u| !u.is_empty())
    {
        Some(Command::SendUploads)
    } else {
        None
    }
}

/// Settings' check of a server address, run beside the rest.
fn probe_server(
    engine: &Correspondence,
    server: String,
) -> std::pin::Pin<Box<dyn Future<Output = Event>>> {
    let client = engine.client().clone();
    Box::pin(async move {
        let code = match client.health(&server).await {
            Ok(()) => String::new(),
            Err(e) => e.code(),
        };
        Event::Probed { server, code }
    })
}

/// What the worker follows between actions: the game on screen with a long poll, or, while
/// a list shows (no game on screen), every game by a periodic refresh and the newest game
/// still waiting for its opponent by a long poll, so that a join shows at once.
struct Follow {
    tasks: Vec<tokio::task::JoinHandle<()>>,
    game: Option<GameId>,
    /// Where the polls report that a game moved.
    internal: mpsc::UnboundedSender<Command>,
}

/// How often the lists refresh every correspondence game (one request for all of them).
const LIST_REFRESH: Duration = Duration::from_secs(10);

impl Follow {
    /// Following nothing yet; the polls report to `internal`.
    fn new(internal: mpsc::UnboundedSender<Command>) -> Follow {
        Follow {
            tasks: Vec::new(),
            game: None,
            internal,
        }
    }

    /// Follows `game` (none: the lists), starting the polls afresh.
    fn start(&mut self, engine: &Correspondence, game: Option<GameId>) {
        for task in self.tasks.drain(..) {
            task.abort();
        }
        self.game = game;
        let target = game.or_else(|| awaiting_join(engine));
        self.tasks
            .extend(target.and_then(|id| watch(engine, id, self.internal.clone())));
        if game.is_none() {
            let internal = self.internal.clone();
            self.tasks.push(tokio::spawn(async move {
                let mut every = tokio::time::interval(LIST_REFRESH);
                every.tick().await;
                loop {
                    every.tick().await;
                    if internal.send(Command::RefreshAll).is_err() {
                        return;
                    }
                }
            }));
        }
    }
}

/// The newest correspondence game whose invite code nobody has used yet.
fn awaiting_join(engine: &Correspondence) -> Option<GameId> {
    let games = engine.store().remote_games().ok()?;
    games
        .into_iter()
        .filter(|r| r.invite_code.is_some())
        .map(|r| r.game_id)
        .max()
}

/// Carries out one command and reports what came of it.
async fn handle(
    engine: &mut Correspondence,
    follow: &mut Follow,
    command: Command,
    emit: &impl Fn(Event),
) {
    match command {
        Command::Create { .. } | Command::Join { .. } => {
            create_or_join(engine, command, emit).await;
            // A new game may wait for its opponent: the lists follow it.
            if follow.game.is_none() {
                follow.start(engine, None);
            }
        }
        Command::Flush => {
            let result = engine.flush().await.map(|f| {
                let mut ids: Vec<GameId> = f.refused.iter().map(|r| r.0).collect();
                ids.extend(f.changed);
                ids.sort();
                ids.dedup();
                ids
            });
            report(engine, emit, result);
        }
        Command::RefreshAll => {
            let result = engine.refresh_all().await;
            report(engine, emit, result);
        }
        Command::Moved(id) => {
            let result = engine
                .refresh(id)
                .await
                .map(|changed| if changed { vec![id] } else { vec![] });
            report(engine, emit, result);
        }
        Command::Watch(target) => follow.start(engine, target),
        Command::Unreachable => {
            report(
                engine,
                emit,
                Err(SyncError::Offline("the long poll failed".into())),
            );
        }
        // The worker's loop hands these to the library engine.
        Command::Library(_) | Command::Probe(_) => {}
        Command::Share(_) | Command::SendUploads | Command::Withdraw(_) => {
            share_command(engine, command, emit).await;
        }
        Command::Resumed => {
            follow.start(engine, follow.game);
            let flushed = engine.flush().await.map(|f| f.changed);
            report(engine, emit, flushed);
            let result = engine.refresh_all().await;
            report(engine, emit, result);
        }
    }
}

/// A shared page: made (or the one kept shown again), sent again where its game changed, or
/// withdrawn.
async fn share_command(engine: &mut Correspondence, command: Command, emit: &impl Fn(Event)) {
    let failed = |e: crate::sync::share::ShareError| Event::Failed {
        what: "share",
        code: e.code(),
    };
    match command {
        Command::Share(id) => {
            let server = engine.store().setting("server").ok().flatten();
            let now = crate::library::now_ms();
            match crate::sync::share::share(engine, id, server.as_deref(), now).await {
                Ok(kept) => emit(Event::Shared {
                    id,
                    url: kept.url(),
                }),
                Err(e) => emit(failed(e)),
            }
        }
        // Offline: the next tick tries again.
        Command::SendUploads => {
            let _ = crate::sync::share::send_changed_uploads(engine).await;
        }
        Command::Withdraw(id) => match crate::sync::share::withdraw(engine, id).await {
            Ok(()) => emit(Event::Unshared { id }),
            Err(e) => emit(failed(e)),
        },
        _ => {}
    }
}

/// Creates a game on a server, or joins one with an invite code.
async fn create_or_join(engine: &mut Correspondence, command: Command, emit: &impl Fn(Event)) {
    match command {
        Command::Create {
            server,
            game,
            options,
            seat,
            bots,
            days_per_move,
            name,
        } => {
            match engine
                .create_with_bots(&server, game, &options, seat, &bots, days_per_move, &name)
                .await
            {
                Ok((id, code)) => emit(Event::Created { id, code }),
                Err(e) => emit(Event::Failed {
                    what: "create",
                    code: e.code(),
                }),
            }
        }
        Command::Join { server, code, name } => match engine.join(&server, &code, &name).await {
            Ok(id) => emit(Event::Joined { id }),
            Err(e) => emit(Event::Failed {
                what: "join",
                code: e.code(),
            }),
        },
        _ => {}
    }
}

/// Reports the result of a sync step: changed games, or being offline.
fn report(engine: &Correspondence, emit: &impl Fn(Event), result: Result<Vec<GameId>, SyncError>) {
    let pending = engine.outbox().map_or(0, |o| o.len());
    match result {
        Ok(changed) => {
            if !changed.is_empty() {
                emit(Event::Changed(changed));
            }
            emit(Event::Status {
                online: true,
                pending,
            });
        }
        Err(SyncError::Offline(_)) => emit(Event::Status {
            online: false,
            pending,
        }),
        Err(e) => emit(Event::Failed {
            what: "sync",
            code: e.code(),
        }),
    }
}

/// Long-polls one game on its own task; each time it moves, asks the worker to mirror it.
fn watch(
    engine: &Correspondence,
    id: GameId,
    internal: mpsc::UnboundedSender<Command>,
) -> Option<tokio::task::JoinHandle<()>> {
    let remote = engine.store().remote(id).ok()??;
    let mut after = engine.known_version(id).ok()?;
    let mut said = engine.said_count(id).ok()?;
    let client = engine.client().clone();
    let mut awaiting_join = remote.invite_code.is_some();
    // While it waits for its opponents, the poll also answers once every seat is filled, even
    // if the last join came before the poll began (a join moves no version).
    let seats = engine.game(id).ok()?.seat_count();
    Some(tokio::spawn(async move {
        // While the server does not answer, the screen says so (a device waiting for its
        // opponent's move used to show nothing of an outage); once it answers again, the
        // game is read afresh, which tells the screen it is back.
        let mut down = false;
        loop {
            match client
                .wait(
                    &remote.server,
                    &remote.remote_id,
                    &remote.token,
                    (after, said, awaiting_join.then(|| seats - 1)),
                    // While down, a short poll: its answer says at once that it is back.
                    Duration::from_secs(if down { 1 } else { 25 }),
                )
                .await
            {
                Ok(view) => {
                    let joined = awaiting_join && view.seats_filled.iter().all(|f| *f);
                    if std::mem::take(&mut down)
                        || view.version != after
                        || view.said_count != said
                        || joined
                    {
                        after = view.version;
                        said = view.said_count;
                        awaiting_join &= !joined;
                        if internal.send(Command::Moved(id)).is_err() {
                            return;
                        }
                    }
                }
                // Offline: say so once, and try again shortly.
                Err(SyncError::Offline(_)) => {
                    if !std::mem::replace(&mut down, true)
                        && internal.send(Command::Unreachable).is_err()
                    {
                        return;
                    }
                    tokio::time::sleep(Duration::from_secs(3)).await;
                }
                Err(_) => tokio::time::sleep(Duration::from_secs(3)).await,
            }
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_late_tick_means_the_app_was_away() {
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        assert!(!slept(t, t + Duration::from_secs(5)));
        assert!(!slept(t, t + Duration::from_secs(29)));
        assert!(slept(t, t + SLEPT));
        assert!(slept(t, t + Duration::from_secs(3600)));
        // A clock set back is not a sleep.
        assert!(!slept(t, t - Duration::from_secs(3600)));
    }
}
