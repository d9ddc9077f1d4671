//! The evaluation: material and piece-square tables (kept incrementally by the search), plus
//! the terms that depend on the whole board (mobility, attacks on the general, the defenders
//! left, the endgame's changed values), computed at each leaf.
//!
//! Scores are in centipawns of an uncrossed soldier (100), from the side to move's point of
//! view where a function says so, else from Red's.

use crate::xiangqi::board::{Color, FILES, HORSE, Kind, POINTS, RAYS};
use crate::xiangqi::position::Position;

/// The evaluation's weights, the numbers Texel tuning adjusts (see [`super::tune`]); each
/// index is named by a constant below ([`W_ADVISOR`] …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The weights, by index.
    pub w: [i32; WEIGHTS],
}

/// How many weights there are.
pub const WEIGHTS: usize = 26;
/// Material: advisor, elephant, horse, chariot, cannon, soldier (kinds 2 to 7).
pub const W_ADVISOR: usize = 0;
/// The piece-square tables' strength per kind (general 6 … soldier 12), in percent.
pub const W_SQUARES: usize = 6;
/// A chariot's every point reached.
pub const W_ROOK_REACH: usize = 13;
/// A horse's every move with its leg free.
pub const W_HORSE_REACH: usize = 14;
/// A horse with one move or none.
pub const W_HORSE_TRAPPED: usize = 15;
/// A cannon on the enemy general's file with nothing between.
pub const W_CANNON_EMPTY: usize = 16;
/// A cannon on the enemy general's file with one screen.
pub const W_CANNON_SCREEN: usize = 17;
/// Per missing advisor, per enemy chariot.
pub const W_ADVISOR_ROOK: usize = 18;
/// Per missing advisor, per enemy horse.
pub const W_ADVISOR_HORSE: usize = 19;
/// Per missing elephant, per enemy cannon.
pub const W_ELEPHANT_CANNON: usize = 20;
/// Per missing elephant, per enemy chariot.
pub const W_ELEPHANT_ROOK: usize = 21;
/// Per point of attacking force gone, per own horse.
pub const W_LATE_HORSE: usize = 22;
/// Per point of attacking force gone, per own cannon (taken off).
pub const W_LATE_CANNON: usize = 23;
/// An attacker deep on the enemy's side, in front of the palace.
pub const W_DEEP: usize = 24;
/// The side to move's tempo.
pub const W_TEMPO: usize = 25;

/// The weights the engine plays with.
pub const DEFAULT: Weights = Weights {
    w: [
        80, 90, 410, 1200, 490, 80, // material
        100, 100, 100, 155, 100, 205, 215, // squares, %
        10, 10, 1, 105, 25, 32, 28, 32, 25, 10, 12, 0, 8,
    ],
};

/// What each kind is worth before its square is counted (by kind code; the general 0).
pub const VALUE: [i32; 8] = values(&DEFAULT);

const fn values(w: &Weights) -> [i32; 8] {
    let mut out = [0; 8];
    let mut kind = 2;
    while kind < 8 {
        out[kind] = w.w[W_ADVISOR + kind - 2];
        kind += 1;
    }
    out
}

/// A table's value for a piece of `kind` at (`file`, `rank`) counted from its own side
/// (rank 0 its back rank).
const fn square_bonus(kind: usize, file: usize, rank: usize) -> i32 {
    let cd = file.abs_diff(4) as i32;
    let r = rank as i32;
    match kind {
        // General: at home, on the middle file.
        1 => {
            let mut v = if file == 4 { 10 } else { -8 };
            v -= 15 * r;
            v
        }
        // Advisor: the palace's middle is where it guards both sides.
        2 => {
            if file == 4 && rank == 1 {
                12
            } else {
                0
            }
        }
        // Elephant: the middle of its field, then its home corners.
        3 => {
            if file == 4 && rank == 2 {
                12
            } else if rank == 0 {
                2
            } else if rank == 4 {
                -6
            } else {
                -4
            }
        }
        // Horse: central and forward; stuck at home or on the edge, poor.
        4 => {
            let mut v = 12 - 7 * cd;
            v += match rank {
                0 => -20,
                1 => -6,
                2 => 0,
                3 => 4,
                4 => 10,
                5 => 18,
                6 => 26,
                7 => 30,
                8 => 18,
                _ => 0,
            };
            if rank >= 6 && rank <= 8 && cd <= 2 {
                v += 12;
            }
            v
        }
        // Chariot: forward and on the middle files (mobility counts the rest).
        5 => {
            let mut v = 8 - 3 * cd;
            v += match rank {
                0 => -10,
                1..=3 => 0,
                4 => 6,
                5 => 12,
                6 => 16,
                7 => 14,
                8 => 18,
                _ => 8,
            };
            v
        }
        // Cannon: the central cannon at home, the palace cannon and bottom cannon forward.
        6 => {
            let mut v = 6 - 3 * cd;
            if file == 4 && rank <= 4 {
                v += 18;
            }
            if rank >= 7 && cd <= 1 {
                v += 12;
            }
            if rank == 9 && cd <= 1 {
                v += 6;
            }
            v
        }
        // Soldier: little until it crosses, then more the nearer the palace; a soldier on the
        // last rank can only go sideways.
        _ => {
            if rank <= 2 {
                0
            } else if rank <= 4 {
                if cd == 0 {
                    8
                } else if cd == 2 || cd == 4 {
                    2
                } else {
                    0
                }
            } else if rank == 9 {
                20 - 5 * cd
            } else {
                let mut v = 60 + 22 * (r - 5) - 9 * cd;
                if cd <= 1 && rank >= 6 {
                    v += 20;
                }
                v
            }
        }
    }
}

/// Material plus square for each board code and point under weights `w`.
pub const fn build_tables(w: &Weights) -> [[i32; POINTS]; 16] {
    let value = values(w);
    let mut out = [[0i32; POINTS]; 16];
    let mut kind = 1;
    while kind < 8 {
        let scale = w.w[W_SQUARES + kind - 1];
        let mut sq = 0;
        while sq < POINTS {
            let (file, rank) = (sq % FILES, sq / FILES);
            let red = value[kind] + square_bonus(kind, file, rank) * scale / 100;
            let black = value[kind] + square_bonus(kind, file, 9 - rank) * scale / 100;
            out[kind][sq] = red;
            out[kind | 8][sq] = -black;
            sq += 1;
        }
        kind += 1;
    }
    out
}

/// Material plus square for each board code and point, from Red's side (Black's negative).
pub static PSQ: [[i32; POINTS]; 16] = build_tables(&DEFAULT);

/// Material and squares of the whole position, from Red's side.
pub fn material(pos: &Position) -> i32 {
    material_with(pos, &PSQ)
}

/// Material and squares of the whole position under these tables, from Red's side.
pub fn material_with(pos: &Position, tables: &[[i32; POINTS]; 16]) -> i32 {
    pos.board
        .iter()
        .enumerate()
        .filter(|(_, c)| **c != 0)
        .map(|(sq, &c)| tables[c as usize][sq])
        .sum()
}

/// How much attacking material a side has: chariots count 2, horses and cannons 1 each.
fn attack_force(pos: &Position, color: Color) -> i32 {
    2 * pos.count(color, Kind::Rook) as i32
        + pos.count(color, Kind::Horse) as i32
        + pos.count(color, Kind::Cannon) as i32
}

/// The terms that need the whole board, from Red's side, under weights `k`.
#[inline]
pub fn positional(pos: &Position, k: &Weights) -> i32 {
    let k = &k.w;
    let b = &pos.board;
    let mut score = [0i32; 2];
    for sq in 0..POINTS {
        let code = b[sq];
        if code == 0 {
            continue;
        }
        let side = usize::from(code & 8 != 0);
        let ours = code & 8;
        match code & 7 {
            5 => {
                // Chariot: every point it reaches.
                let mut reach = 0;
                for ray in &RAYS[sq] {
                    for &to in &ray.sq[..ray.len as usize] {
                        let t = b[to as usize];
                        if t == 0 {
                            reach += 1;
                        } else {
                            if t & 8 != ours {
                                reach += 1;
                            }
                            break;
                        }
                    }
                }
                score[side] += k[W_ROOK_REACH] * (reach - 6);
            }
            4 => {
                // Horse: legs free.
                let mut reach = 0;
                for (to, leg) in HORSE[sq].iter() {
                    if b[leg] == 0 && (b[to] == 0 || b[to] & 8 != ours) {
                        reach += 1;
                    }
                }
                score[side] += k[W_HORSE_REACH] * reach - 20;
                if reach <= 1 {
                    score[side] -= k[W_HORSE_TRAPPED];
                }
            }
            6 => {
                // Cannon: on the enemy general's file, with its screen or none (the empty
                // cannon pins the general in place).
                let king = pos.kings[1 - side] as usize;
                if king % FILES == sq % FILES {
                    let (lo, hi) = if king < sq { (king, sq) } else { (sq, king) };
                    let between = (lo + FILES..hi)
                        .step_by(FILES)
                        .filter(|&s| b[s] != 0)
                        .count();
                    score[side] += match between {
                        0 => k[W_CANNON_EMPTY],
                        1 => k[W_CANNON_SCREEN],
                        _ => 0,
                    };
                }
            }
            _ => {}
        }
    }
    // Defenders missing against what could exploit it.
    for (side, score) in score.iter_mut().enumerate() {
        let color = if side == 0 { Color::Red } else { Color::Black };
        let enemy = color.other();
        let advisors = pos.count(color, Kind::Advisor) as i32;
        let elephants = pos.count(color, Kind::Elephant) as i32;
        let rooks = pos.count(enemy, Kind::Rook) as i32;
        let horses = pos.count(enemy, Kind::Horse) as i32;
        let cannons = pos.count(enemy, Kind::Cannon) as i32;
        *score -= (2 - advisors) * (k[W_ADVISOR_ROOK] * rooks + k[W_ADVISOR_HORSE] * horses);
        *score -= (2 - elephants) * (k[W_ELEPHANT_CANNON] * cannons + k[W_ELEPHANT_ROOK] * rooks);
        // Fewer attackers on the board: the cannon loses its screens, the horse gains room,
        // a crossed soldier counts more.
        let force = attack_force(pos, enemy) + attack_force(pos, color);
        let late = (12 - force).max(0);
        *score += late
            * (k[W_LATE_HORSE] * pos.count(color, Kind::Horse) as i32
                - k[W_LATE_CANNON] * pos.count(color, Kind::Cannon) as i32);
    }
    // Attackers near the enemy palace.
    for (sq, &code) in b.iter().enumerate() {
        if code == 0 || !matches!(code & 7, 4..=7) {
            continue;
        }
        let side = usize::from(code & 8 != 0);
        let rank = sq / FILES;
        let deep = if side == 0 { rank >= 7 } else { rank <= 2 };
        let file = sq % FILES;
        if deep && (2..=6).contains(&file) {
            score[side] += k[W_DEEP];
        }
    }
    score[0] - score[1]
}

/// The full evaluation from the side to move's point of view, given the incremental
/// material-and-squares sum (`psq`, from Red's side).
pub fn evaluate(pos: &Position, psq: i32) -> i32 {
    let red = psq + positional(pos, &DEFAULT);
    let tempo = DEFAULT.w[W_TEMPO];
    match pos.side_to_move() {
        Color::Red => red + tempo,
        Color::Black => -red + tempo,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::START_FEN;

    /// The same position with the colours swapped: turned half round, cases swapped.
    pub(crate) fn mirror_fen(fen: &str) -> String {
        let mut parts = fen.split(' ');
        let board = parts.next().unwrap_or_default();
        let side = parts.next().unwrap_or("w");
        let rows: Vec<String> = board
            .split('/')
            .rev()
            .map(|row| {
                row.chars()
                    .rev()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let other = if side == "w" { "b" } else { "w" };
        format!("{} {other} - - 0 1", rows.join("/"))
    }

    #[test]
    fn the_start_is_level_and_mirrored_positions_score_alike() {
        let start = Position::from_fen(START_FEN).expect("the start");
        assert_eq!(material(&start), 0);
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C4/9/RNBAKABNR b - - 0 1",
            "3akab2/9/4b4/p3p1p1p/2p6/9/P1P1P1P1P/1C5C1/4A4/2B1KAB1R w - - 0 1",
            "4k4/4a4/9/9/2p6/9/9/9/4p4/3K5 w - - 0 1",
        ] {
            let a = Position::from_fen(fen).expect("a position");
            let b = Position::from_fen(&mirror_fen(fen)).expect("its mirror");
            assert_eq!(material(&a), -material(&b), "{fen}");
            assert_eq!(
                evaluate(&a, material(&a)),
                evaluate(&b, material(&b)),
                "{fen}: a position and its colour mirror"
            );
        }
    }

    #[test]
    fn a_crossed_soldier_is_worth_more_than_one_at_home() {
        let home = PSQ[7][4 * 9 + 4 - 9];
        let crossed = PSQ[7][6 * 9 + 4];
        assert!(crossed > home + 50, "{crossed} against {home}");
        // Black's soldier crossing is worth as much to Black.
        assert_eq!(PSQ[15][3 * 9 + 4], -crossed);
    }
}
