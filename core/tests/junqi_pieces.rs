//! Junqi battles (every pair, under each option) and deployment rules.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use qiguan_core::junqi::deployment::{classic_names, deployable};
use qiguan_core::junqi::{
    Battle, BattleRules, DeployProblem, Deployment, Point, Rank, Side, battle,
};

const STANDARD: BattleRules = BattleRules {
    landmine_stays: false,
};
const NORTHERN: BattleRules = BattleRules {
    landmine_stays: true,
};

/// The table written out from RULES.md, independently of `battle`'s order of checks.
fn expected(attacker: Rank, defender: Rank, rules: BattleRules) -> Battle {
    use Battle::*;
    match defender {
        Rank::Flag => FlagTaken,
        _ if attacker == Rank::Bomb || defender == Rank::Bomb => BothRemoved,
        Rank::Landmine if attacker == Rank::Engineer => AttackerWins,
        Rank::Landmine if rules.landmine_stays => DefenderWins,
        Rank::Landmine => BothRemoved,
        _ => {
            let rank = |r: Rank| Rank::ALL.iter().position(|&x| x == r).unwrap();
            match rank(attacker).cmp(&rank(defender)) {
                std::cmp::Ordering::Less => AttackerWins,
                std::cmp::Ordering::Greater => DefenderWins,
                std::cmp::Ordering::Equal => BothRemoved,
            }
        }
    }
}

#[test]
fn every_battle_pair_under_each_option() {
    let movers: Vec<Rank> = Rank::ALL.into_iter().filter(|r| !r.immobile()).collect();
    assert_eq!(movers.len(), 10, "landmines and the flag never attack");
    for rules in [STANDARD, NORTHERN] {
        for &a in &movers {
            for d in Rank::ALL {
                assert_eq!(
                    battle(a, d, rules),
                    expected(a, d, rules),
                    "{a:?} attacks {d:?} under {rules:?}"
                );
            }
        }
    }
    // Spot checks straight from the seeds.
    assert_eq!(
        battle(Rank::FieldMarshal, Rank::General, STANDARD),
        Battle::AttackerWins
    );
    assert_eq!(
        battle(Rank::Engineer, Rank::Lieutenant, STANDARD),
        Battle::DefenderWins
    );
    assert_eq!(
        battle(Rank::Captain, Rank::Captain, STANDARD),
        Battle::BothRemoved
    );
    assert_eq!(
        battle(Rank::Bomb, Rank::FieldMarshal, STANDARD),
        Battle::BothRemoved
    );
    assert_eq!(
        battle(Rank::Bomb, Rank::Landmine, NORTHERN),
        Battle::BothRemoved
    );
    assert_eq!(battle(Rank::Bomb, Rank::Flag, STANDARD), Battle::FlagTaken);
    assert_eq!(
        battle(Rank::Engineer, Rank::Landmine, NORTHERN),
        Battle::AttackerWins
    );
    assert_eq!(
        battle(Rank::FieldMarshal, Rank::Landmine, STANDARD),
        Battle::BothRemoved
    );
    assert_eq!(
        battle(Rank::FieldMarshal, Rank::Landmine, NORTHERN),
        Battle::DefenderWins
    );
}

#[test]
fn twenty_five_pieces_on_twenty_five_points() {
    assert_eq!(Rank::ALL.iter().map(|r| r.count()).sum::<usize>(), 25);
    for side in [Side::South, Side::North] {
        assert_eq!(deployable(side).len(), 25);
    }
    assert_eq!(Rank::FieldMarshal.chinese(), "司令");
    assert_eq!(
        (
            Rank::FieldMarshal.level(),
            Rank::Engineer.level(),
            Rank::Bomb.level()
        ),
        (Some(1), Some(9), None)
    );
}

#[test]
fn classic_and_random_deployments_are_legal_for_both_sides() {
    let names: Vec<&str> = classic_names().collect();
    assert_eq!(names.len(), 3);
    for name in names {
        let south = Deployment::classic(name).unwrap();
        assert_eq!(south.validate(), Ok(()), "{name}");
        assert_eq!(south.mirror().validate(), Ok(()), "{name} for North");
    }
    assert!(Deployment::classic("nonsense").is_none());
    for seed in 0..300 {
        for side in [Side::South, Side::North] {
            let d = Deployment::random(side, seed);
            assert_eq!(d.validate(), Ok(()), "seed {seed} {side:?}: {d:?}");
        }
    }
    assert_ne!(
        Deployment::random(Side::South, 1),
        Deployment::random(Side::South, 2)
    );
}

#[test]
fn a_bad_deployment_reports_every_problem() {
    let p = |s: &str| s.parse::<Point>().unwrap();
    let mut d = Deployment::classic("稳守 Steady defence").unwrap();
    // Move the flag out of its headquarters onto a camp, a landmine to the front, a bomb into
    // the front row, and a piece over the mountains; drop a captain.
    for (point, rank) in &mut d.pieces {
        match *rank {
            Rank::Flag => *point = p("b2"),
            Rank::Landmine if *point == p("d1") => *point = p("d3"),
            Rank::Bomb if *point == p("e3") => *point = p("a5"),
            _ => {}
        }
    }
    d.pieces.retain(|&(pt, _)| pt != p("e5"));
    d.pieces.push((p("c7"), Rank::Major));
    let problems = d.validate().unwrap_err();
    for expected in [
        DeployProblem::FlagNotInHeadquarters(p("b2")),
        DeployProblem::InCamp(p("b2")),
        DeployProblem::LandmineTooFarForward(p("d3")),
        DeployProblem::BombInFrontRow(p("a5")),
        DeployProblem::SamePoint(p("a5")),
        DeployProblem::OutsideHalf(p("c7")),
    ] {
        assert!(
            problems.contains(&expected),
            "{expected:?} missing from {problems:?}"
        );
    }
    let text: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert!(text.iter().any(|t| t.contains("headquarters")), "{text:?}");
    assert!(problems.len() >= 6);
}

#[test]
fn deployments_have_a_text_form_shared_by_both_sides() {
    let south = Deployment::classic("稳守 Steady defence").unwrap();
    let text = south.to_text();
    assert_eq!(text.len(), 25);
    assert_eq!(
        &text[..5],
        "7FLL8",
        "the back row from South's left: 连长 军旗 地雷 地雷 排长"
    );
    assert_eq!(Deployment::from_text(Side::South, &text).unwrap(), south);
    let north = south.mirror();
    assert_eq!(north.to_text(), text, "the owner's view is the same layout");
    assert_eq!(Deployment::from_text(Side::North, &text).unwrap(), north);
    for seed in 0..50 {
        let d = Deployment::random(Side::North, seed);
        assert_eq!(Deployment::from_text(Side::North, &d.to_text()).unwrap(), d);
    }
    assert!(Deployment::from_text(Side::South, "123").is_err());
    assert!(Deployment::from_text(Side::South, &"Z".repeat(25)).is_err());
    // Syntax is fine but the rules are not: all flags.
    let flags = Deployment::from_text(Side::South, &"F".repeat(25)).unwrap();
    assert!(flags.validate().is_err());
}
