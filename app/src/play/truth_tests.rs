//! Tests of where a game's truth lives and how actions are stored (they play particular games).

use super::*;
use crate::store::NewGame;
use crate::store::storage::MemoryStorage;
use qiguan_core::aeroplane::{Aeroplane, AeroplaneMove, AeroplaneOptions};
use qiguan_core::xiangqi::{Xiangqi, XiangqiOptions};
use qiguan_core::{AnyMatch, GameKind};

/// A new game of `G` stored in memory, and its source loaded back from there.
fn stored<G: Rules>(store: &mut MemoryStorage, game: Match<G>, any: AnyMatch) -> (GameId, Source<G>)
where
    G::View: DeserializeOwned,
{
    let new = NewGame::from_match(&any, Mode::PassAndPlay, vec![String::new(); 2]);
    let id = store
        .create(&new, game.actions(), &Standing::new(&[], None), &[], 0)
        .expect("created");
    let loaded = load::<G>(store, id).expect("loaded");
    (id, loaded.source)
}

#[test]
fn an_action_becomes_the_games_state_only_once_stored() {
    let mut store = MemoryStorage::default();
    let game = Match::<Xiangqi>::new(&XiangqiOptions::default(), None).expect("a game");
    let (id, mut source) = stored(&mut store, game.clone(), AnyMatch::Xiangqi(game));
    let mv = Action::Play("h3e3".parse().expect("a move"));

    store.failing = true;
    let refused = store_and_apply(
        &mut store,
        1,
        id,
        &mut source,
        Actor::Seat(Seat::FIRST),
        &mv,
    );
    assert!(refused.is_err(), "a failed write is an error to show");
    assert_eq!(source.version(), 0, "and the board does not move");

    store.failing = false;
    store_and_apply(
        &mut store,
        1,
        id,
        &mut source,
        Actor::Seat(Seat::FIRST),
        &mv,
    )
    .expect("stored");
    assert_eq!(source.version(), 1);
    assert_eq!(store.writes, ["create 1", "append h3e3"]);
    let again = load::<Xiangqi>(&mut store, id).expect("loaded");
    assert_eq!(again.source.version(), 1, "what shows is what is stored");
}

#[test]
fn a_roll_and_the_die_it_brings_are_stored_together() {
    let mut store = MemoryStorage::default();
    let game = Match::<Aeroplane>::new(&AeroplaneOptions::default(), None).expect("a game");
    let (id, mut source) = stored(&mut store, game.clone(), AnyMatch::Aeroplane(game));
    let roll = Action::Play(AeroplaneMove::Roll);
    store_and_apply(
        &mut store,
        1,
        id,
        &mut source,
        Actor::Seat(Seat::FIRST),
        &roll,
    )
    .expect("stored");
    assert_eq!(source.version(), 2, "the ask and the device's roll");
    let [_, write] = store.writes.as_slice() else {
        panic!("{:?}", store.writes);
    };
    assert!(write.starts_with("append roll d"), "one write: {write}");
}

#[test]
fn a_correspondence_move_is_queued_with_the_record_or_not_at_all() {
    let mut store = MemoryStorage::default();
    let game = Match::<Xiangqi>::new(&XiangqiOptions::default(), None).expect("a game");
    let (id, mut source) = stored(&mut store, game.clone(), AnyMatch::Xiangqi(game));
    let mv = Action::Play("h3e3".parse().expect("a move"));
    store.failing = true;
    assert!(
        queue_local(
            &mut store,
            1,
            id,
            &mut source,
            Actor::Seat(Seat::FIRST),
            &mv
        )
        .is_err()
    );
    assert_eq!(source.version(), 0);
    store.failing = false;
    queue_local(
        &mut store,
        1,
        id,
        &mut source,
        Actor::Seat(Seat::FIRST),
        &mv,
    )
    .expect("queued");
    assert_eq!(source.version(), 1);
    let kept = store.game(id).expect("kept");
    assert_eq!(kept.pending, ["h3e3"]);
    assert_eq!(kept.stored.record.actions.len(), 1);
    assert_eq!(kept.stored.summary.kind, GameKind::Xiangqi);
    // A game with secrets is queued as its seat's view, never through its record.
    assert!(queue_remote(&mut store, id, &mut source, &mv).is_err());
}
