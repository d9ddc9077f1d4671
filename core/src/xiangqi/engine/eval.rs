//! The evaluation: material and piece-square tables (kept incrementally by the search), plus
//! the terms that depend on the whole board (mobility, attacks on the general, the defenders
//! left, the endgame's changed values), computed at each leaf.
//!
//! Scores are in centipawns of an uncrossed soldier (100), from the side to move's point of
//! view where a function says so, else from Red's.

use crate::xiangqi::board::{Color, FILES, HORSE, Kind, POINTS, RAYS};
use crate::xiangqi::position::Position;

/// What each kind is worth before its square is counted.
pub const VALUE: [i32; 8] = [0, 0, 200, 200, 420, 900, 450, 100];

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

const fn build_tables() -> [[i32; POINTS]; 16] {
    let mut out = [[0i32; POINTS]; 16];
    let mut kind = 1;
    while kind < 8 {
        let mut sq = 0;
        while sq < POINTS {
            let (file, rank) = (sq % FILES, sq / FILES);
            let red = VALUE[kind] + square_bonus(kind, file, rank);
            let black = VALUE[kind] + square_bonus(kind, file, 9 - rank);
            out[kind][sq] = red;
            out[kind | 8][sq] = -black;
            sq += 1;
        }
        kind += 1;
    }
    out
}

/// Material plus square for each board code and point, from Red's side (Black's negative).
pub static PSQ: [[i32; POINTS]; 16] = build_tables();

/// Material and squares of the whole position, from Red's side.
pub fn material(pos: &Position) -> i32 {
    pos.board
        .iter()
        .enumerate()
        .filter(|(_, c)| **c != 0)
        .map(|(sq, &c)| PSQ[c as usize][sq])
        .sum()
}

/// How much attacking material a side has: chariots count 2, horses and cannons 1 each.
fn attack_force(pos: &Position, color: Color) -> i32 {
    2 * pos.count(color, Kind::Rook) as i32
        + pos.count(color, Kind::Horse) as i32
        + pos.count(color, Kind::Cannon) as i32
}

/// The terms that need the whole board, from Red's side.
fn positional(pos: &Position) -> i32 {
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
                score[side] += 4 * reach - 24;
            }
            4 => {
                // Horse: legs free.
                let mut reach = 0;
                for (to, leg) in HORSE[sq].iter() {
                    if b[leg] == 0 && (b[to] == 0 || b[to] & 8 != ours) {
                        reach += 1;
                    }
                }
                score[side] += 6 * reach - 20;
                if reach <= 1 {
                    score[side] -= 15;
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
                        0 => 45,
                        1 => 25,
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
        *score -= (2 - advisors) * (8 * rooks + 10 * horses);
        *score -= (2 - elephants) * (10 * cannons + 4 * rooks);
        // Fewer attackers on the board: the cannon loses its screens, the horse gains room,
        // a crossed soldier counts more.
        let force = attack_force(pos, enemy) + attack_force(pos, color);
        let late = (12 - force).max(0);
        *score += late
            * (4 * pos.count(color, Kind::Horse) as i32
                - 4 * pos.count(color, Kind::Cannon) as i32);
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
            score[side] += 12;
        }
    }
    score[0] - score[1]
}

/// The full evaluation from the side to move's point of view, given the incremental
/// material-and-squares sum (`psq`, from Red's side).
pub fn evaluate(pos: &Position, psq: i32) -> i32 {
    let red = psq + positional(pos);
    let tempo = 10;
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
