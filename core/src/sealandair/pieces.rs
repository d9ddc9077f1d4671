//! Sea-land-air pieces and how fights end (docs/design/sea-land-air.md, "Pieces" and
//! "Combat").

use serde::{Deserialize, Serialize};

/// A kind of piece: nine armies, five ships, two aircraft, then the weapons and the flag.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// 司令, rank 1.
    Commander,
    /// 军长, rank 2.
    ArmyGroup,
    /// 师长, rank 3.
    Division,
    /// 旅长, rank 4.
    Brigade,
    /// 团长, rank 5.
    Regiment,
    /// 营长, rank 6.
    Battalion,
    /// 连长, rank 7.
    Company,
    /// 排长, rank 8.
    Platoon,
    /// 士兵, rank 9.
    Private,
    /// 战列舰, rank 3: fires over arrows, lands.
    Battleship,
    /// 巡洋舰, rank 4: lands.
    Cruiser,
    /// 炮艇, rank 5: attacks the rail bridge.
    Gunboat,
    /// 驱逐舰, rank 6: beats submarines, shoots at aircraft.
    Destroyer,
    /// 潜艇, rank 7: sinks battleships and cruisers it attacks.
    Submarine,
    /// 战斗机: air combat and strikes.
    Fighter,
    /// 侦察机: reveals what it flies over.
    Recon,
    /// 高射炮, rank 9: shoots at aircraft.
    AntiAircraft,
    /// 大炮, rank 9: fires over arrows.
    Artillery,
    /// 导弹: removed with whatever it fights.
    Missile,
    /// 地雷: never moves; removed with whatever attacks it.
    Landmine,
    /// 军旗: never moves; taking it wins.
    Flag,
}

/// Where a piece is deployed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Domain {
    /// On land placement points.
    Land,
    /// On navy placement points.
    Sea,
    /// At the airports.
    Air,
}

impl crate::kinds::Member for Kind {
    const ALL: &'static [Kind] = &Kind::ALL;

    fn index(self) -> usize {
        self as usize
    }
}

/// A set of kinds.
pub type Kinds = crate::kinds::Set<Kind>;

impl Kind {
    /// Every kind, in table order.
    pub const ALL: [Kind; 21] = [
        Kind::Commander,
        Kind::ArmyGroup,
        Kind::Division,
        Kind::Brigade,
        Kind::Regiment,
        Kind::Battalion,
        Kind::Company,
        Kind::Platoon,
        Kind::Private,
        Kind::Battleship,
        Kind::Cruiser,
        Kind::Gunboat,
        Kind::Destroyer,
        Kind::Submarine,
        Kind::Fighter,
        Kind::Recon,
        Kind::AntiAircraft,
        Kind::Artillery,
        Kind::Missile,
        Kind::Landmine,
        Kind::Flag,
    ];

    /// Returns how many of this kind each side has (37 in all).
    pub const fn count(self) -> usize {
        match self {
            Kind::Commander | Kind::ArmyGroup | Kind::Fighter | Kind::Recon | Kind::Flag => 1,
            _ => 2,
        }
    }

    /// Returns the rank, 1 (strongest) to 9; none for aircraft, missiles, landmines and the
    /// flag.
    pub const fn rank(self) -> Option<u8> {
        match self {
            Kind::Commander => Some(1),
            Kind::ArmyGroup => Some(2),
            Kind::Division | Kind::Battleship => Some(3),
            Kind::Brigade | Kind::Cruiser => Some(4),
            Kind::Regiment | Kind::Gunboat => Some(5),
            Kind::Battalion | Kind::Destroyer => Some(6),
            Kind::Company | Kind::Submarine => Some(7),
            Kind::Platoon => Some(8),
            Kind::Private | Kind::AntiAircraft | Kind::Artillery => Some(9),
            Kind::Fighter | Kind::Recon | Kind::Missile | Kind::Landmine | Kind::Flag => None,
        }
    }

    /// Returns the full Chinese name.
    pub const fn chinese(self) -> &'static str {
        match self {
            Kind::Commander => "司令",
            Kind::ArmyGroup => "军长",
            Kind::Division => "师长",
            Kind::Brigade => "旅长",
            Kind::Regiment => "团长",
            Kind::Battalion => "营长",
            Kind::Company => "连长",
            Kind::Platoon => "排长",
            Kind::Private => "士兵",
            Kind::Battleship => "战列舰",
            Kind::Cruiser => "巡洋舰",
            Kind::Gunboat => "炮艇",
            Kind::Destroyer => "驱逐舰",
            Kind::Submarine => "潜艇",
            Kind::Fighter => "战斗机",
            Kind::Recon => "侦察机",
            Kind::AntiAircraft => "高射炮",
            Kind::Artillery => "大炮",
            Kind::Missile => "导弹",
            Kind::Landmine => "地雷",
            Kind::Flag => "军旗",
        }
    }

    /// Returns the two characters printed on the piece.
    pub const fn short(self) -> &'static str {
        match self {
            Kind::Battleship => "战列",
            Kind::Cruiser => "巡洋",
            Kind::Destroyer => "驱逐",
            Kind::Fighter => "战机",
            Kind::Recon => "侦察",
            Kind::AntiAircraft => "高炮",
            other => other.chinese(),
        }
    }

    /// Returns the letter used in deployment texts.
    pub const fn letter(self) -> char {
        match self {
            Kind::Commander => '1',
            Kind::ArmyGroup => '2',
            Kind::Division => '3',
            Kind::Brigade => '4',
            Kind::Regiment => '5',
            Kind::Battalion => '6',
            Kind::Company => '7',
            Kind::Platoon => '8',
            Kind::Private => '9',
            Kind::Battleship => 'B',
            Kind::Cruiser => 'C',
            Kind::Gunboat => 'G',
            Kind::Destroyer => 'D',
            Kind::Submarine => 'S',
            Kind::Fighter => 'J',
            Kind::Recon => 'R',
            Kind::AntiAircraft => 'A',
            Kind::Artillery => 'P',
            Kind::Missile => 'M',
            Kind::Landmine => 'L',
            Kind::Flag => 'F',
        }
    }

    /// Reads a deployment letter.
    pub fn from_letter(c: char) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.letter() == c)
    }

    /// Returns where this kind is deployed.
    pub const fn domain(self) -> Domain {
        match self {
            Kind::Battleship
            | Kind::Cruiser
            | Kind::Gunboat
            | Kind::Destroyer
            | Kind::Submarine => Domain::Sea,
            Kind::Fighter | Kind::Recon => Domain::Air,
            _ => Domain::Land,
        }
    }

    /// Returns true for the nine armies.
    pub const fn is_army(self) -> bool {
        (self as u8) <= Kind::Private as u8
    }

    /// Returns true for the two aircraft.
    pub const fn is_aircraft(self) -> bool {
        matches!(self, Kind::Fighter | Kind::Recon)
    }

    /// Returns true for the ships that may land (M8).
    pub const fn lands(self) -> bool {
        matches!(self, Kind::Battleship | Kind::Cruiser)
    }

    /// Returns true for the pieces that never move (M6).
    pub const fn immobile(self) -> bool {
        matches!(self, Kind::Landmine | Kind::Flag)
    }
}

/// How a fight ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Clash {
    /// The defender is removed (an attacker that moved takes its point).
    AttackerWins,
    /// The attacker is removed.
    DefenderWins,
    /// Both are removed.
    BothRemoved,
    /// Nothing is removed (a shot that does not work).
    NoEffect,
    /// Two recon planes met: both go home (A2).
    BothHome,
    /// The flag was taken: the attacker's side wins.
    FlagTaken,
}

/// Decides an attack by moving (C1–C5, C7–C9, A1, A2).
pub fn melee(attacker: Kind, defender: Kind) -> Clash {
    use Kind::*;
    match (attacker, defender) {
        (Missile, Flag) => Clash::DefenderWins,
        (_, Flag) => Clash::FlagTaken,
        (Missile, _) | (_, Missile) | (_, Landmine) => Clash::BothRemoved,
        (Fighter, Fighter | Recon) => Clash::AttackerWins,
        (Recon, Fighter) => Clash::DefenderWins,
        (Recon, Recon) => Clash::BothHome,
        (Destroyer, Submarine) => Clash::AttackerWins,
        (Submarine, Destroyer) => Clash::DefenderWins,
        (Submarine, Battleship | Cruiser) => Clash::AttackerWins,
        _ => by_rank(attacker.rank().unwrap_or(10), defender),
    }
}

/// The lower rank number wins; a tie goes to the attacker (C2). Unranked defenders that
/// reach here cannot be fought this way and are not harmed.
fn by_rank(strength: u8, defender: Kind) -> Clash {
    match defender.rank() {
        Some(d) if strength <= d => Clash::AttackerWins,
        Some(_) => Clash::DefenderWins,
        None => Clash::NoEffect,
    }
}

/// Decides a remote attack, where the attacker stays put: fire over an arrow (F1), anti-air
/// fire (F2), a fighter's strike (A3–A5) or a gunboat's attack on the bridge (C6).
pub fn remote(attacker: Kind, defender: Kind) -> Clash {
    use Kind::*;
    match attacker {
        Artillery | Battleship => match defender {
            Missile | Artillery | AntiAircraft => Clash::AttackerWins,
            _ => match by_rank(3, defender) {
                Clash::DefenderWins => Clash::NoEffect,
                other => other,
            },
        },
        AntiAircraft | Destroyer => Clash::AttackerWins,
        Fighter => match defender {
            Missile => Clash::BothRemoved,
            Landmine => Clash::AttackerWins,
            AntiAircraft => Clash::DefenderWins,
            Flag => Clash::NoEffect,
            _ => by_rank(3, defender),
        },
        Gunboat => by_rank(5, defender),
        _ => Clash::NoEffect,
    }
}
