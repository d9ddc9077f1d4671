//! What the games with a secret deployment (Junqi, Sea-land-air) answer from a seat's view, so
//! that a client knows the phase, its side and whether a layout is legal without the
//! authority's state: the app's screens and its sync client ask these, never the view's JSON.
//! Each game answers in its own `deployment` module.

use crate::junqi::Junqi;
/// The two sides of a board with deployment (South moves first).
pub use crate::junqi::Side;
use crate::sealandair::SeaLandAir;
use crate::{Action, GameKind, MatchView, Rules, Seat};

/// A fight as a viewer saw it: where, and which pieces it removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fight {
    /// The point attacked, `e6`.
    pub at: String,
    /// The attacker was removed.
    pub attacker_removed: bool,
    /// The defender was removed.
    pub defender_removed: bool,
    /// The defender was the flag and is gone: the game is won.
    pub flag_taken: bool,
    /// Sea-land-air: two recon planes met and both went home.
    pub sent_home: bool,
    /// The attacker's and the defender's names in Chinese, as far as the viewer may know them
    /// (`?` for an unknown piece).
    pub names: [String; 2],
    /// The attacker's side, if the viewer knows it.
    pub attacker_side: Option<Side>,
}

/// One side's losses as a viewer knows them: the battle panel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Losses {
    /// The fallen, in the order they fell, by Chinese name (`?` for one the viewer may not
    /// know).
    pub lost: Vec<String>,
    /// What is left, strongest kind first, by Chinese name and count (kinds with none left
    /// left out), when the view tells it.
    pub left: Option<Vec<(String, usize)>>,
    /// How many pieces are left, when the view tells it.
    pub left_count: Option<usize>,
}

impl Losses {
    /// Builds a side's losses from its fallen kinds (`None` for unknown) and what is left of
    /// each kind (in `kinds` order), naming each kind by `name`.
    pub fn from_kinds<K: Copy>(
        lost: &[Option<K>],
        kinds: &[K],
        left: Option<&[usize]>,
        left_count: Option<usize>,
        name: impl Fn(K) -> &'static str,
    ) -> Losses {
        Losses {
            lost: lost
                .iter()
                .map(|k| k.map_or_else(|| "?".to_owned(), |k| name(k).to_owned()))
                .collect(),
            left: left.map(|left| {
                kinds
                    .iter()
                    .zip(left)
                    .filter(|(_, n)| **n > 0)
                    .map(|(k, n)| (name(*k).to_owned(), *n))
                    .collect()
            }),
            left_count,
        }
    }
}

/// A game whose seats arrange their pieces in secret before play.
pub trait Deploys: Rules {
    /// One side's layout.
    type Deployment: Clone + PartialEq + std::fmt::Debug;
    /// A point of the board, numbered from 0 as the board's graph numbers it.
    type Point: Copy + PartialEq + std::fmt::Debug;
    /// The last play as a viewer saw it.
    type Seen: Clone + PartialEq + std::fmt::Debug;

    /// The point numbered `index`.
    fn point(index: usize) -> Option<Self::Point>;
    /// Whether the layout has a piece at `p`.
    fn has_piece(layout: &Self::Deployment, p: Self::Point) -> bool;
    /// Swaps the pieces at `a` and `b` if the rules let those two places trade pieces while
    /// deploying; returns whether it did.
    fn swap(layout: &mut Self::Deployment, a: Self::Point, b: Self::Point) -> bool;
    /// The last play in this view, as the viewer saw it.
    fn last_play(view: &Self::View) -> Option<&Self::Seen>;
    /// The fight a play was, if it was one.
    fn fight(seen: &Self::Seen) -> Option<Fight>;
    /// A side's losses and what it has left, as far as the view tells.
    fn losses(view: &Self::View, side: Side) -> Losses;

    /// Whether the game this view shows is still in its deployment phase.
    fn view_deploying(view: &Self::View) -> bool;
    /// Whether `seat` has deployed.
    fn view_deployed(view: &Self::View, seat: Seat) -> bool;
    /// The side `seat` plays, as far as the view tells (Junqi's flip mode: not before the
    /// colours are fixed).
    fn view_side(view: &Self::View, seat: Seat) -> Option<Side>;
    /// The layout a move sends for `side`: `None` if the move is no deployment, an error if the
    /// text does not read as one.
    fn layout_of(mv: &Self::Move, side: Side) -> Option<Result<Self::Deployment, String>>;
    /// The move that sends a layout, or every problem that makes it illegal.
    fn deploy(layout: &Self::Deployment) -> Result<Self::Move, Vec<String>>;
}

/// Checks a deployment action against `seat`'s view before it is sent: `Ok` for anything that
/// is no deployment, else every problem of the layout (a layout that does not read, or one
/// that breaks a placement rule).
pub fn check_layout<G: Deploys>(
    view: &G::View,
    seat: Seat,
    action: &str,
) -> Result<(), Vec<String>> {
    let Ok(Action::Play(mv)) = action.parse::<Action<G::Move>>() else {
        return Ok(());
    };
    let Some(side) = G::view_side(view, seat) else {
        return Err(vec!["the view names no side for this seat".into()]);
    };
    match G::layout_of(&mv, side) {
        None => Ok(()),
        Some(Err(e)) => Err(vec![e]),
        Some(Ok(layout)) => G::deploy(&layout).map(|_| ()),
    }
}

/// [`check_layout`] for a game of any kind, from a seat's match view in JSON (as a server
/// sends it). Games without a deployment accept every action here.
pub fn check_layout_json(
    kind: GameKind,
    view: &serde_json::Value,
    seat: Seat,
    action: &str,
) -> Result<(), Vec<String>> {
    fn read<G: Deploys>(view: &serde_json::Value) -> Result<G::View, Vec<String>>
    where
        G::View: serde::de::DeserializeOwned,
    {
        serde_json::from_value::<MatchView<G::View>>(view.clone())
            .map(|v| v.game)
            .map_err(|e| vec![format!("the view does not read: {e}")])
    }
    match kind {
        GameKind::Junqi => check_layout::<Junqi>(&read::<Junqi>(view)?, seat, action),
        GameKind::SeaLandAir => {
            check_layout::<SeaLandAir>(&read::<SeaLandAir>(view)?, seat, action)
        }
        GameKind::Xiangqi | GameKind::Aeroplane => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::junqi::{self, JunqiOptions, Visibility};
    use crate::sealandair::{self, SeaLandAirOptions};
    use crate::{Actor, Match, Viewer};

    fn junqi(visibility: Visibility) -> Match<Junqi> {
        let options = JunqiOptions {
            visibility,
            ..JunqiOptions::default()
        };
        let mut game = Match::new(&options, None).expect("a new game");
        game.resolve_chance(&mut |_| 0).expect("the deal");
        game
    }

    #[test]
    fn a_junqi_view_knows_its_phase_its_side_and_a_legal_layout() {
        let mut game = junqi(Visibility::Referee);
        let view = game.view(Viewer::Seat(Seat::FIRST));
        assert!(Junqi::view_deploying(&view.game));
        assert!(!Junqi::view_deployed(&view.game, Seat::FIRST));
        assert_eq!(Junqi::view_side(&view.game, Seat::FIRST), Some(Side::South));
        let layout = junqi::Deployment::random(Side::South, 7);
        let mv = Junqi::deploy(&layout).expect("a random layout is legal");
        let text = Action::Play(mv.clone()).to_string();
        assert_eq!(
            check_layout::<Junqi>(&view.game, Seat::FIRST, &text),
            Ok(())
        );
        let json = serde_json::to_value(&view).expect("a view serializes");
        assert_eq!(
            check_layout_json(GameKind::Junqi, &json, Seat::FIRST, &text),
            Ok(())
        );
        assert_eq!(Junqi::layout_of(&mv, Side::South), Some(Ok(layout)));

        game.apply(Actor::Seat(Seat::FIRST), &Action::Play(mv))
            .expect("South deploys");
        let view = game.view(Viewer::Seat(Seat::SECOND));
        assert!(Junqi::view_deployed(&view.game, Seat::FIRST));
        assert!(!Junqi::view_deployed(&view.game, Seat::SECOND));
        assert!(Junqi::view_deploying(&view.game));
    }

    #[test]
    fn a_broken_layout_is_refused_with_its_problems_before_it_is_sent() {
        let game = junqi(Visibility::Referee);
        let view = game.view(Viewer::Seat(Seat::FIRST)).game;
        // The flag out of the headquarters: swap it with the piece in front of it.
        let mut layout = junqi::Deployment::random(Side::South, 3);
        let flag = layout
            .pieces
            .iter()
            .position(|(_, r)| *r == junqi::Rank::Flag)
            .expect("a flag");
        let other = layout
            .pieces
            .iter()
            .position(|(p, _)| !p.is_headquarters() && p.row() == 3)
            .expect("a piece in the fourth row");
        let (a, b) = (layout.pieces[flag].1, layout.pieces[other].1);
        layout.pieces[flag].1 = b;
        layout.pieces[other].1 = a;
        let problems = Junqi::deploy(&layout).expect_err("the flag must stand in a headquarters");
        assert!(!problems.is_empty());
        let text = format!("deploy:{}", layout.to_text());
        assert_eq!(
            check_layout::<Junqi>(&view, Seat::FIRST, &text),
            Err(problems)
        );
        let garbled = check_layout::<Junqi>(&view, Seat::FIRST, "deploy:nonsense");
        assert!(garbled.is_err(), "a layout that does not read is refused");
        assert_eq!(check_layout::<Junqi>(&view, Seat::FIRST, "resign"), Ok(()));
    }

    #[test]
    fn deployment_swaps_follow_each_games_rule() {
        let mut layout = junqi::Deployment::random(Side::South, 5);
        let (a, b) = (layout.pieces[0], layout.pieces[20]);
        assert!(Junqi::swap(&mut layout, a.0, b.0));
        assert_eq!(layout.pieces[0], (a.0, b.1));
        assert_eq!(layout.pieces[20], (b.0, a.1));
        let empty = junqi::Point::all()
            .find(|p| !Junqi::has_piece(&layout, *p))
            .expect("an empty point");
        assert!(!Junqi::swap(&mut layout, a.0, empty));

        let mut layout = sealandair::Deployment::sensible(Side::South, 2);
        let land = layout
            .pieces
            .iter()
            .filter(|(p, _)| p.layer() == sealandair::Layer::Land);
        let land: Vec<_> = land.map(|x| x.0).take(2).collect();
        let sea = layout
            .pieces
            .iter()
            .find(|(p, _)| p.layer() == sealandair::Layer::Sea)
            .map(|x| x.0)
            .expect("a ship");
        let before = layout.clone();
        assert!(
            !SeaLandAir::swap(&mut layout, land[0], sea),
            "land never trades with sea"
        );
        assert_eq!(layout, before);
        assert!(SeaLandAir::swap(&mut layout, land[0], land[1]));
        assert_eq!(layout.kind_at(land[0]), before.kind_at(land[1]));
    }

    #[test]
    fn flip_mode_has_no_deployment_and_no_side_before_the_first_flip() {
        let game = junqi(Visibility::Flip);
        let view = game.view(Viewer::Seat(Seat::FIRST)).game;
        assert!(!Junqi::view_deploying(&view));
        assert_eq!(Junqi::view_side(&view, Seat::FIRST), None);
    }

    #[test]
    fn sea_land_air_seats_play_fixed_sides_and_their_layouts_are_checked() {
        let game: Match<SeaLandAir> =
            Match::new(&SeaLandAirOptions::default(), None).expect("a new game");
        let view = game.view(Viewer::Seat(Seat::SECOND));
        assert!(SeaLandAir::view_deploying(&view.game));
        assert_eq!(
            SeaLandAir::view_side(&view.game, Seat::SECOND),
            Some(Side::North)
        );
        let layout = sealandair::Deployment::sensible(Side::North, 11);
        let mv = SeaLandAir::deploy(&layout).expect("a sensible layout is legal");
        let text = Action::Play(mv).to_string();
        let json = serde_json::to_value(&view).expect("a view serializes");
        assert_eq!(
            check_layout_json(GameKind::SeaLandAir, &json, Seat::SECOND, &text),
            Ok(())
        );
        assert!(check_layout_json(GameKind::SeaLandAir, &json, Seat::SECOND, "deploy:x").is_err());
        assert_eq!(
            check_layout_json(GameKind::Xiangqi, &json, Seat::FIRST, "deploy:x"),
            Ok(())
        );
    }
}
