//! What the games with secrets add to the shared session: arranging a
//! deployment before play, the seats' sides, and the banner over the board after a battle.
//! A game with secrets implements [`SecretGame`] with its rules' [`Deploys`] answers and
//! brings the session hooks in with [`secret_screen!`].

use super::choices::OnlineChoice;
use super::session::{Arrange, GameScreen, Session};
use crate::shell::ctx::Ctx;
use qiguan_core::deploy::Side;
use qiguan_core::deploy::{Deploys, Fight};
use qiguan_core::{Action, Seat};
use qiguan_ui::{
    Battle, BattleBanner, BattleLedger, BattleNews, DeployIssue, Deployment, LossLine,
};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::rc::Rc;

/// What a game with secrets brings beyond [`GameScreen`]: its session's taps select its points
/// and arrange its deployment.
pub(crate) trait SecretGame:
    Deploys + GameScreen<Spot = <Self as Deploys>::Point, Draft = <Self as Deploys>::Deployment>
{
    /// A tap at `p` in play: the move it completes, if any (else it changes the selection).
    fn tap_play(session: &mut Session<Self>, p: Self::Point) -> Option<Self::Move>;
    /// The game offers ready-made and saved layouts (its own dialog).
    const SAVED_LAYOUTS: bool = false;

    /// The deployment a seat starts arranging from.
    fn first_draft(session: &Session<Self>, seat: Seat) -> Option<Self::Deployment>;
    /// A random deployment for the viewer (the Random button).
    fn random_draft(session: &Session<Self>) -> Option<Self::Deployment>;
    /// What is wrong with a deployment, for the screen.
    fn draft_issues(draft: &Self::Deployment) -> Vec<DeployIssue>;
    /// What the banner over the board says of the last play.
    fn banner(session: &Session<Self>, view: &Self::View) -> BannerUi;
    /// Draws the game's board and panels (the banner is drawn for it).
    fn draw_board(ctx: &Rc<Ctx>, session: &Session<Self>, view: &Self::View);
}

/// The [`GameScreen`] items every game with secrets answers the same way, for its
/// `impl GameScreen` block: `secret_screen!(its screen, the cell type of its board)`.
macro_rules! secret_screen {
    ($screen:expr, $cell:ty) => {
        type Board = crate::play::BoardModel<$cell>;
        const SCREEN: qiguan_ui::Screen = $screen;
        type Spot = <Self as qiguan_core::deploy::Deploys>::Point;
        type Draft = <Self as qiguan_core::deploy::Deploys>::Deployment;
        const HIDES_PIECES: bool = true;

        fn tap(_: &Rc<Ctx>, s: &mut Session<Self>, index: i32) -> Option<Self::Move> {
            crate::play::secret::tap(s, index)
        }

        fn seat_colours(s: &Session<Self>) -> Vec<i32> {
            crate::play::secret::seat_colours(s)
        }

        fn settled(s: &mut Session<Self>) {
            crate::play::secret::settle_draft(s);
        }

        fn deployed_first(s: &Session<Self>) -> bool {
            s.deploying() && s.draft.is_none()
        }

        fn refresh_board(ctx: &Rc<Ctx>, s: &Session<Self>, view: &Self::View) {
            crate::play::secret::refresh_board(ctx, s, view);
        }

        fn arrange(ctx: &Rc<Ctx>, what: crate::play::Arrange) {
            crate::play::secret::arrange::<Self>(ctx, what);
        }

        fn sound(before: &Self::View, after: &Self::View) -> Option<crate::shell::sound::Sound> {
            crate::play::secret::sound::<Self>(before, after)
        }

        fn computer_accepts_draw(view: &Self::View, seat: qiguan_core::Seat) -> bool {
            <Self as qiguan_core::Computer>::accepts_draw(view, seat)
        }

        /// Two people at the board, or one against the computer at the strength chosen.
        fn chosen_seats(
            ui: &qiguan_ui::AppWindow,
        ) -> (Vec<String>, Vec<Option<qiguan_core::Strength>>) {
            crate::play::choices::two_seats_at(ui, crate::play::choices::chosen_strength(ui))
        }

        /// Normal and hard think on a thread of their own.
        fn computer_search(
            view: &Self::View,
            seat: qiguan_core::Seat,
            options: &Self::Options,
            strength: qiguan_core::Strength,
        ) -> Option<crate::play::Search<Self::Move>> {
            crate::play::search_at_strength::<Self>(view, seat, options, strength)
        }

        fn computer_move(
            view: &Self::View,
            seat: qiguan_core::Seat,
            options: &Self::Options,
            strength: qiguan_core::Strength,
        ) -> Option<Self::Move> {
            let seed = crate::shell::random::random_seed();
            <Self as qiguan_core::Computer>::computer_move(view, seat, options, strength, seed)
        }
    };
}
pub(crate) use secret_screen;

impl<G: SecretGame> Session<G> {
    pub fn deploying(&self) -> bool {
        G::view_deploying(&self.view())
    }

    /// The side `seat` plays, as far as the viewer's view tells.
    pub fn side_of(&self, seat: Seat) -> Option<Side> {
        G::view_side(&self.view(), seat)
    }

    /// The viewer's deployment waiting for the server, if any.
    pub fn pending_deployment(&self) -> Option<G::Deployment> {
        let side = self.side_of(self.viewer)?;
        self.source
            .pending()
            .iter()
            .find_map(|text| match text.parse::<Action<G::Move>>() {
                Ok(Action::Play(mv)) => G::layout_of(&mv, side)?.ok(),
                _ => None,
            })
    }
}

/// Each seat's side as a colour (-1 while not known: a flip mode before the first flips).
pub(crate) fn seat_colours<G: SecretGame>(s: &Session<G>) -> Vec<i32> {
    [Seat::FIRST, Seat::SECOND]
        .iter()
        .map(|&seat| s.side_of(seat).map_or(-1, |side| side as i32))
        .collect()
}

/// The viewer's deployment to arrange: none once it is sent or play has begun, else the
/// game's first draft.
pub(crate) fn settle_draft<G: SecretGame>(s: &mut Session<G>) {
    let deployed = G::view_deployed(&s.view(), s.viewer) || s.pending_deployment().is_some();
    if !s.deploying() || deployed {
        s.draft = None;
    } else if s.draft.is_none() {
        s.draft = G::first_draft(s, s.viewer);
    }
}

/// A tap on the board's cell `index`: it arranges the deployment, selects a piece, or makes
/// the move it completes.
pub(crate) fn tap<G: SecretGame>(s: &mut Session<G>, index: i32) -> Option<G::Move> {
    let p = usize::try_from(index).ok().and_then(G::point)?;
    if s.draft.is_some() {
        tap_draft(s, p);
        None
    } else {
        G::tap_play(s, p)
    }
}

/// A tap at `p` while a deployment is arranged: tap two of your pieces to swap them.
fn tap_draft<G: SecretGame>(s: &mut Session<G>, p: G::Point) {
    let Some(draft) = s.draft.as_mut() else {
        return;
    };
    match s.selected {
        _ if !G::has_piece(draft, p) => s.selected = None,
        Some(first) if first == p => s.selected = None,
        Some(first) if G::swap(draft, first, p) => s.selected = None,
        _ => s.selected = Some(p),
    }
}

/// The viewer sends the deployment it arranged, if it is complete and legal.
pub(crate) fn deploy_ready<G: SecretGame>(ctx: &Rc<Ctx>) {
    let chosen = super::slot::<G>(ctx)
        .borrow()
        .as_ref()
        .and_then(|s| G::deploy(s.draft.as_ref()?).ok());
    if let Some(mv) = chosen {
        super::viewer_acts::<G>(ctx, Action::Play(mv));
    }
}

/// The deployment controls: a random layout, or send the one arranged.
pub(crate) fn arrange<G: SecretGame>(ctx: &Rc<Ctx>, what: Arrange) {
    match what {
        Arrange::Ready => deploy_ready::<G>(ctx),
        Arrange::Random => super::update::<G>(ctx, |s| {
            if s.draft.is_some()
                && let Some(d) = G::random_draft(s)
            {
                s.draft = Some(d);
                s.selected = None;
            }
        }),
    }
}

/// A new play in the viewer's view: a battle (any fight, as far as the viewer saw it) or a
/// move (a flip too).
pub(crate) fn sound<G: SecretGame>(
    before: &G::View,
    after: &G::View,
) -> Option<crate::shell::sound::Sound> {
    use crate::shell::sound::Sound;
    let last = G::last_play(after)?;
    if G::last_play(before) == Some(last) {
        return None;
    }
    Some(if G::fight(last).is_some() {
        Sound::Battle
    } else {
        Sound::Move
    })
}

/// Empties the panels the games with secrets share (the news over the board, the losses, the
/// deployment's issues and layouts dialog). They are globals of the window: a game opened
/// after another must not show the first one's, and a game without secrets never writes them.
pub(crate) fn clear_panels(ui: &qiguan_ui::AppWindow) {
    ui.global::<BattleBanner>()
        .set_news(ModelRc::new(VecModel::from(Vec::<BattleNews>::new())));
    let ledger = ui.global::<BattleLedger>();
    ledger.set_lines(ModelRc::new(VecModel::from(Vec::<LossLine>::new())));
    ledger.set_show(false);
    let d = ui.global::<Deployment>();
    d.set_issues(ModelRc::new(VecModel::from(Vec::<DeployIssue>::new())));
    d.set_layouts(false);
    d.set_show_layouts(false);
}

/// Draws the banner, what is wrong with the deployment being arranged, then the game's board.
pub(crate) fn refresh_board<G: SecretGame>(ctx: &Rc<Ctx>, s: &Session<G>, view: &G::View) {
    let ui = ctx.ui();
    push_banner(&ui.global::<BattleBanner>(), s, view);
    ui.global::<BattleLedger>()
        .set_lines(ModelRc::new(VecModel::from(ledger(s, view))));
    let d = ui.global::<Deployment>();
    let issues = s.draft.as_ref().map(G::draft_issues).unwrap_or_default();
    d.set_issues(ModelRc::new(VecModel::from(issues)));
    d.set_layouts(G::SAVED_LAYOUTS);
    G::draw_board(ctx, s, view);
}

/// The banner over the board: the last play as far as the viewer may know it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BannerUi {
    pub battle: Battle,
    /// Where it happened.
    pub at: String,
    /// The pieces' names ("?" for one the viewer may not know; empty for none).
    pub attacker: String,
    pub defender: String,
    pub attacker_colour: i32,
    /// A flip mode: the piece just turned up, and its colour.
    pub turned_up: String,
    pub turned_up_colour: i32,
    /// The opposing pieces the viewer's recon plane just revealed.
    pub spotted: i32,
}

impl Default for BannerUi {
    fn default() -> BannerUi {
        BannerUi {
            battle: Battle::NothingToShow,
            at: String::new(),
            attacker: String::new(),
            defender: String::new(),
            attacker_colour: -1,
            turned_up: String::new(),
            turned_up_colour: -1,
            spotted: 0,
        }
    }
}

impl BannerUi {
    /// Whether there is anything to show.
    pub fn has_news(&self) -> bool {
        self.battle != Battle::NothingToShow || !self.turned_up.is_empty() || self.spotted > 0
    }
}

impl From<Fight> for BannerUi {
    fn from(f: Fight) -> BannerUi {
        let battle = match (f.flag_taken, f.sent_home) {
            (true, _) => Battle::Flag,
            (_, true) => Battle::Home,
            _ => match (f.attacker_removed, f.defender_removed) {
                (true, true) => Battle::Both,
                (false, true) => Battle::Won,
                (true, false) => Battle::Lost,
                (false, false) => Battle::NoEffect,
            },
        };
        let [attacker, defender] = f.names;
        BannerUi {
            battle,
            at: f.at,
            attacker,
            defender,
            attacker_colour: f.attacker_side.map_or(-1, |side| side as i32),
            ..BannerUi::default()
        }
    }
}

/// The news of the last plays for the viewer, oldest first: its own play when the computer
/// answered it at once (so that an attacker always learns how its attack ended), then the
/// last play. Nothing in review.
pub(crate) fn news<G: SecretGame>(s: &Session<G>, view: &G::View) -> Vec<BannerUi> {
    if s.review.is_some() {
        return Vec::new();
    }
    let mut news = Vec::new();
    if let Some((seat, before)) = &s.before_reply
        && *seat == s.viewer
        && G::last_play(before) != G::last_play(view)
    {
        news.push(G::banner(s, before));
    }
    news.push(G::banner(s, view));
    news.retain(BannerUi::has_news);
    news
}

/// The battle panel's lines: the viewer's side first, then the other; none while deploying,
/// and none behind the hand-over cover (whose the names are, is the next player's secret).
pub(crate) fn ledger<G: SecretGame>(s: &Session<G>, view: &G::View) -> Vec<LossLine> {
    if G::view_deploying(view) || s.handover {
        return Vec::new();
    }
    let strings = |v: Vec<String>| -> ModelRc<slint::SharedString> {
        ModelRc::new(VecModel::from(
            v.into_iter()
                .map(slint::SharedString::from)
                .collect::<Vec<_>>(),
        ))
    };
    [s.viewer, s.viewer.next(2)]
        .into_iter()
        .filter_map(|seat| {
            let side = G::view_side(view, seat)?;
            let losses = G::losses(view, side);
            let left = losses
                .left
                .unwrap_or_default()
                .into_iter()
                .map(|(name, n)| if n > 1 { format!("{name}×{n}") } else { name })
                .collect();
            Some(LossLine {
                seat: seat.index() as i32,
                colour: side as i32,
                lost: strings(losses.lost),
                left: strings(left),
                left_count: losses.left_count.map_or(-1, |n| n as i32),
            })
        })
        .collect()
}

fn push_banner<G: SecretGame>(a: &BattleBanner<'_>, s: &Session<G>, view: &G::View) {
    let news: Vec<BattleNews> = news(s, view).into_iter().map(BattleNews::from).collect();
    a.set_news(ModelRc::new(VecModel::from(news)));
}

impl From<BannerUi> for BattleNews {
    fn from(b: BannerUi) -> BattleNews {
        BattleNews {
            battle: b.battle,
            at: b.at.into(),
            attacker: b.attacker.into(),
            defender: b.defender.into(),
            attacker_colour: b.attacker_colour,
            turned_up: b.turned_up.into(),
            turned_up_colour: b.turned_up_colour,
            spotted: b.spotted,
        }
    }
}

/// A correspondence game as chosen: against a friend, or the server's computer at the strength
/// chosen (the games with secrets have three).
pub(crate) fn online_choice<G: SecretGame>(ui: &qiguan_ui::AppWindow, side: u8) -> OnlineChoice {
    super::choices::online_at_strength(ui, G::chosen_options(ui), side)
}
