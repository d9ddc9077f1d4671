//! Junqi pieces and sides, and the battle table (../shared/RULES.md, seeds 001 and 002).

use serde::{Deserialize, Serialize};

/// A side. South sits in seat 0 and deploys on rows 0–5; North in seat 1 on rows 6–11.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// Seat 0, rows 0–5.
    South,
    /// Seat 1, rows 6–11.
    North,
}

impl Side {
    /// Returns the other side.
    pub const fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// Returns a row counted from this side's back row (0) towards the front (5).
    pub const fn own_row(self, row: usize) -> usize {
        match self {
            Side::South => row,
            Side::North => 11 - row,
        }
    }
}

/// A kind of piece, highest rank first, then the three objects.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rank {
    /// 司令, rank 1.
    FieldMarshal,
    /// 军长, rank 2.
    General,
    /// 师长, rank 3.
    MajorGeneral,
    /// 旅长, rank 4.
    Brigadier,
    /// 团长, rank 5.
    Colonel,
    /// 营长, rank 6.
    Major,
    /// 连长, rank 7.
    Captain,
    /// 排长, rank 8.
    Lieutenant,
    /// 工兵, rank 9: removes landmines, turns corners on the railroad.
    Engineer,
    /// 炸弹: removed together with whatever it meets.
    Bomb,
    /// 地雷: never moves.
    Landmine,
    /// 军旗: never moves; taking it wins.
    Flag,
}

impl crate::kinds::Member for Rank {
    const ALL: &'static [Rank] = &Rank::ALL;

    fn index(self) -> usize {
        self as usize
    }
}

impl Rank {
    /// Every kind, highest first.
    pub const ALL: [Rank; 12] = [
        Rank::FieldMarshal,
        Rank::General,
        Rank::MajorGeneral,
        Rank::Brigadier,
        Rank::Colonel,
        Rank::Major,
        Rank::Captain,
        Rank::Lieutenant,
        Rank::Engineer,
        Rank::Bomb,
        Rank::Landmine,
        Rank::Flag,
    ];

    /// Returns how many of this kind each side has (25 in all).
    pub const fn count(self) -> usize {
        match self {
            Rank::FieldMarshal | Rank::General | Rank::Flag => 1,
            Rank::MajorGeneral | Rank::Brigadier | Rank::Colonel | Rank::Major | Rank::Bomb => 2,
            Rank::Captain | Rank::Lieutenant | Rank::Engineer | Rank::Landmine => 3,
        }
    }

    /// Returns the military rank, 1 (Field Marshal) to 9 (Engineer); none for the objects.
    pub const fn level(self) -> Option<u8> {
        match self {
            Rank::Bomb | Rank::Landmine | Rank::Flag => None,
            other => Some(other as u8 + 1),
        }
    }

    /// Returns the name players read on the piece.
    pub const fn chinese(self) -> &'static str {
        match self {
            Rank::FieldMarshal => "司令",
            Rank::General => "军长",
            Rank::MajorGeneral => "师长",
            Rank::Brigadier => "旅长",
            Rank::Colonel => "团长",
            Rank::Major => "营长",
            Rank::Captain => "连长",
            Rank::Lieutenant => "排长",
            Rank::Engineer => "工兵",
            Rank::Bomb => "炸弹",
            Rank::Landmine => "地雷",
            Rank::Flag => "军旗",
        }
    }

    /// Returns true for the pieces that never move (landmines and the flag).
    pub const fn immobile(self) -> bool {
        matches!(self, Rank::Landmine | Rank::Flag)
    }
}

/// House rules that change battles.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct BattleRules {
    /// The northern rule (seed 001): a landmine attacked by anything but an engineer or a bomb
    /// stays; only the attacker goes.
    pub landmine_stays: bool,
}

/// What a battle leaves.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Battle {
    /// The defender is removed; the attacker moves in.
    AttackerWins,
    /// The attacker is removed; the defender stays.
    DefenderWins,
    /// Both are removed.
    BothRemoved,
    /// The flag was attacked: the attacker's side wins the game.
    FlagTaken,
}

/// Decides a battle, checked in the order RULES.md gives: the flag, bombs, landmines, then
/// ranks.
pub fn battle(attacker: Rank, defender: Rank, rules: BattleRules) -> Battle {
    if defender == Rank::Flag {
        return Battle::FlagTaken;
    }
    if attacker == Rank::Bomb || defender == Rank::Bomb {
        return Battle::BothRemoved;
    }
    if defender == Rank::Landmine {
        return match attacker {
            Rank::Engineer => Battle::AttackerWins,
            _ if rules.landmine_stays => Battle::DefenderWins,
            _ => Battle::BothRemoved,
        };
    }
    match (attacker.level(), defender.level()) {
        (Some(a), Some(d)) if a < d => Battle::AttackerWins,
        (Some(a), Some(d)) if a > d => Battle::DefenderWins,
        _ => Battle::BothRemoved,
    }
}
