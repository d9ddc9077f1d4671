//! Writes the `record` target's seed corpus: a few games of each kind played by random legal
//! actions (dice and deals drawn from a fixed sequence), stopped at several points, as the
//! JSON the store and the server keep. Run from the repository root:
//! `cargo run -p qiguan-fuzz-checks --example seed_records -- fuzz/corpus/record`.

use qiguan_core::{Actor, AnyMatch, GameKind, Seat, Strength};

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "fuzz/corpus/record".into());
    std::fs::create_dir_all(&dir).expect("the corpus folder");
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: usize| -> usize {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) as usize) % n.max(1)
    };
    let kinds = [
        (GameKind::Xiangqi, "xiangqi"),
        (GameKind::Junqi, "junqi"),
        (GameKind::Aeroplane, "aeroplane"),
        (GameKind::SeaLandAir, "sea-land-air"),
    ];
    for (kind, name) in kinds {
        let mut game = AnyMatch::new(kind, &serde_json::Value::Null, &serde_json::Value::Null)
            .expect("a game with the default options");
        for step in 0..60 {
            if [0, 6, 30, 59].contains(&step) {
                let path = format!("{dir}/{name}-{step:02}.json");
                std::fs::write(&path, game.record().to_json()).expect("written");
            }
            if game.outcome().is_some() {
                break;
            }
            let _ = game.resolve_chance(&mut next);
            let mut acted = false;
            for s in 0..game.seat_count() {
                let seat = Seat::new(s as u8).expect("a seat");
                let actor = Actor::Seat(seat);
                if !game.to_act().includes(actor) {
                    continue;
                }
                // The game's own moves: resigning or offering a draw would end it early.
                let actions: Vec<String> = game
                    .legal_actions(actor)
                    .into_iter()
                    .filter(|a| {
                        !a.contains("resign") && !a.contains("draw") && !a.contains("claim")
                    })
                    .collect();
                let action = if actions.is_empty() {
                    game.computer_action(seat, Strength::Easy, next(1 << 20) as u64)
                } else {
                    Some(actions[next(actions.len())].clone())
                };
                if let Some(action) = action
                    && game.apply_text(actor, &action).is_ok()
                {
                    acted = true;
                    break;
                }
            }
            if !acted
                && game
                    .resolve_chance(&mut next)
                    .map_or(true, |e| e.is_empty())
            {
                break;
            }
        }
    }
}
