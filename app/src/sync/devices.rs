//! The worker's side of linked devices: a command about the library carried out, and what it
//! found reported.

use super::{Event, LibraryCommand, LibraryEvent, SyncError};
use crate::library::Library;
use std::time::Duration;

/// How often a linked device syncs its library while the app runs.
pub(super) const LIBRARY_SYNC: Duration = Duration::from_secs(30);

/// Carries out a command about linked devices.
pub(super) async fn library_command(
    library: &mut Library,
    command: LibraryCommand,
    emit: &impl Fn(Event),
) {
    let fail = |e: SyncError| emit(Event::Library(LibraryEvent::Failed(e.code())));
    match command {
        LibraryCommand::Show => state(library, emit).await,
        LibraryCommand::Sync => {
            let linked = library.link().ok().flatten().is_some_and(|l| !l.unlinked);
            if linked {
                match sync(library, emit).await {
                    Ok(()) => {}
                    // Offline: the next tick tries again; the screen says so when open.
                    Err(e) => {
                        let unlinked = e.code() == "device-unlinked";
                        fail(e);
                        if unlinked {
                            state(library, emit).await;
                        }
                    }
                }
            }
        }
        LibraryCommand::Start { server, name } => match library.create(&server, &name).await {
            Ok(_) => {
                let _ = sync(library, emit).await.map_err(fail);
                state(library, emit).await;
            }
            Err(e) => fail(e),
        },
        LibraryCommand::Offer => match library.offer().await {
            Ok(offer) => emit(Event::Library(LibraryEvent::Offer(offer))),
            Err(e) => fail(e),
        },
        LibraryCommand::Join { server, code, name } => {
            match library.join(&server, &code, &name).await {
                Ok(_) => {
                    let _ = sync(library, emit).await.map_err(fail);
                    state(library, emit).await;
                }
                Err(e) => fail(e),
            }
        }
        LibraryCommand::Unlink(device) => match library.unlink(&device).await {
            Ok(()) => state(library, emit).await,
            Err(e) => fail(e),
        },
    }
}

/// Reports the library as it stands: its server, whether this device was unlinked, the
/// devices linked to it.
async fn state(library: &mut Library, emit: &impl Fn(Event)) {
    let link = library.link().ok().flatten();
    let devices = match &link {
        Some(l) if !l.unlinked => library.devices().await.unwrap_or_default(),
        _ => Vec::new(),
    };
    // Listing may have found this device unlinked.
    let link = library.link().ok().flatten();
    emit(Event::Library(LibraryEvent::State {
        server: link.as_ref().map(|l| l.server.clone()),
        unlinked: link.is_some_and(|l| l.unlinked),
        devices,
    }));
}
/// Syncs the library and reports what came of it (and that games changed, where another
/// device brought some).
async fn sync(library: &mut Library, emit: &impl Fn(Event)) -> Result<(), SyncError> {
    let done = library.sync().await;
    let changed = library.take_changed();
    let done = done?;
    if done.taken > 0 {
        // Games came from another device: the lists and any open game read them again.
        emit(Event::Changed(changed));
    }
    emit(Event::Library(LibraryEvent::Synced {
        at: crate::library::now_ms(),
        done,
    }));
    Ok(())
}
