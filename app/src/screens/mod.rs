//! One module per screen, each connecting its adapter global to the context in one place.

pub mod about;
pub mod devices;
pub mod failure;
pub(crate) mod history;
pub mod home;
pub mod nav;
pub mod new_game;
pub mod online;
pub mod rows;
pub mod rules;
pub mod settings;
pub mod share;
pub mod stats;

use crate::games;
use crate::play::{self, Arrange, Call};
use crate::shell::bind::{handler, handler0};
use crate::shell::ctx::Ctx;
use slint::{ComponentHandle, VecModel};
use std::rc::Rc;

/// Connects every screen's callbacks: the games' through the registry, then the rest.
pub fn connect(ctx: &Rc<Ctx>) {
    let codes: Vec<slint::SharedString> = games::GAMES
        .iter()
        .map(|e| e.kind.as_str().into())
        .collect();
    ctx.ui()
        .global::<qiguan_ui::Games>()
        .set_codes(slint::ModelRc::new(VecModel::from(codes)));
    for entry in games::GAMES {
        (entry.connect)(ctx);
    }
    connect_session(ctx);
    play::phrases::connect(ctx, |ctx, phrase| {
        games::session_call(ctx, Call::Say(phrase));
    });
    home::connect(ctx);
    new_game::connect(ctx);
    online::connect(ctx);
    history::connect(ctx);
    settings::connect(ctx);
    devices::connect(ctx);
    about::connect(ctx);
    stats::connect(ctx);
    rules::connect(ctx);
    play::tips::connect(ctx);
    failure::connect(ctx);
    share::connect(ctx);
}

/// The `GameSession` global's callbacks go to the game on screen; its New game and Share
/// lead to those screens.
fn connect_session(ctx: &Rc<Ctx>) {
    let call = |c: Call| handler0(ctx, move |ctx| games::session_call(ctx, c));
    let ui = ctx.ui();
    let a = ui.global::<qiguan_ui::GameSession>();
    a.on_handover_done(call(Call::HandoverDone));
    a.on_undo(call(Call::Undo));
    a.on_hint(call(Call::Hint));
    a.on_resign(call(Call::Resign));
    a.on_offer_draw(call(Call::OfferDraw));
    a.on_review(call(Call::Review));
    a.on_new_game(handler0(ctx, |ctx| {
        if let Some(entry) = games::shown_entry(ctx) {
            ctx.ui()
                .global::<qiguan_ui::GameSession>()
                .set_show_end_dialog(false);
            ctx.reset_to(qiguan_ui::Screen::Home);
            new_game::open(ctx, entry.kind);
        }
    }));
    a.on_answer_draw(handler(ctx, |ctx, accept: bool| {
        games::session_call(ctx, Call::AnswerDraw(accept));
    }));
    a.on_review_step(handler(ctx, |ctx, step: i32| {
        games::session_call(ctx, Call::ReviewStep(step));
    }));
    let d = ui.global::<qiguan_ui::Deployment>();
    d.on_random(call(Call::Arrange(Arrange::Random)));
    d.on_ready(call(Call::Arrange(Arrange::Ready)));
}
