//! Where the Aeroplane chess board's places are drawn: a 15 × 15 grid of cells, red's quarter
//! top left, the colours following each other clockwise. The app's board and the rules page's
//! picture both draw from here, so that they cannot disagree.
//!
//! A place is a cell's top-left corner in grid units (the take-off points and hangar slots sit
//! on half cells); its centre is half a unit further.

use super::board::{
    CROSSING, Colour, GOAL, HOME_TURN, PLANES, SHORTCUT, SHORTCUT_END, Spot, TRACK,
};
use std::sync::LazyLock;

/// A cell's top-left corner, in grid units.
pub type Cell = (f32, f32);

/// The grid's side, in cells.
pub const GRID: f32 = 15.0;

/// The 52 track squares, clockwise from the left arm's top row.
static RING: LazyLock<Vec<Cell>> = LazyLock::new(|| {
    let mut cells = Vec::with_capacity(TRACK as usize);
    let mut run = |from: (i16, i16), step: (i16, i16), n: i16| {
        for i in 0..n {
            cells.push((
                f32::from(from.0 + step.0 * i),
                f32::from(from.1 + step.1 * i),
            ));
        }
    };
    run((0, 6), (1, 0), 6);
    run((6, 5), (0, -1), 6);
    run((7, 0), (1, 0), 1);
    run((8, 0), (0, 1), 6);
    run((9, 6), (1, 0), 6);
    run((14, 7), (0, 1), 1);
    run((14, 8), (-1, 0), 6);
    run((8, 9), (0, 1), 6);
    run((7, 14), (-1, 0), 1);
    run((6, 14), (0, -1), 6);
    run((5, 8), (-1, 0), 6);
    run((0, 7), (0, -1), 1);
    cells
});

/// Turns a cell a quarter clockwise about the board's centre, `n` times: red's quarter is
/// turned once for yellow, twice for blue, three times for green.
fn turn((x, y): Cell, n: usize) -> Cell {
    (0..n % 4).fold((x, y), |(x, y), _| (GRID - 1.0 - y, x))
}

/// The cell of a track square (0–51, core's numbering: red's step 1 is square 0).
pub fn square_cell(square: u8) -> Cell {
    RING[(square as usize + 2) % TRACK as usize]
}

/// The cell of a colour's home column square, steps `HOME_TURN + 1` to `GOAL - 1`.
pub fn home_cell(colour: Colour, step: u8) -> Cell {
    turn(
        (f32::from(step.saturating_sub(HOME_TURN)), 7.0),
        colour.index(),
    )
}

/// The cell of a colour's take-off point.
pub fn take_off_cell(colour: Colour) -> Cell {
    turn((0.5, 4.5), colour.index())
}

/// The cell of a plane's slot in its colour's hangar (plane 0–3).
pub fn hangar_cell(colour: Colour, plane: usize) -> Cell {
    let slot = [(1.5, 1.5), (3.5, 1.5), (1.5, 3.5), (3.5, 3.5)][plane % PLANES];
    turn(slot, colour.index())
}

/// Where a plane of `colour` at `spot` is drawn: in the hangar before it takes off and once
/// home, on its take-off point, on the track, or in its home column.
pub fn spot_cell(colour: Colour, spot: Spot, plane: usize) -> Cell {
    match spot {
        Spot::Hangar | Spot::Step(GOAL) => hangar_cell(colour, plane),
        Spot::Step(0) => take_off_cell(colour),
        Spot::Step(k) if k <= HOME_TURN => colour.square(k).map_or((7.0, 7.0), square_cell),
        Spot::Step(k) => home_cell(colour, k),
    }
}

/// A colour's shortcut flight as a quadratic curve through cell centres: its start (the
/// shortcut square), the control point that takes it over the opposite colour's crossing
/// square at its middle, and its end.
pub fn flight(colour: Colour) -> Option<[Cell; 3]> {
    let centre = |(x, y): Cell| (x + 0.5, y + 0.5);
    let from = centre(square_cell(colour.square(SHORTCUT)?));
    let to = centre(square_cell(colour.square(SHORTCUT_END)?));
    let over = centre(home_cell(colour.opposite(), CROSSING));
    let control = (
        2.0 * over.0 - (from.0 + to.0) / 2.0,
        2.0 * over.1 - (from.1 + to.1) / 2.0,
    );
    Some([from, control, to])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every place has a cell of its own, inside the grid: the track, the home columns, the
    /// take-off points and the hangar slots never overlap.
    #[test]
    fn every_place_has_its_own_cell_inside_the_grid() {
        let mut places: Vec<Cell> = (0..TRACK).map(square_cell).collect();
        for colour in Colour::ALL {
            places.extend((HOME_TURN + 1..GOAL).map(|step| home_cell(colour, step)));
            places.push(take_off_cell(colour));
            places.extend((0..PLANES).map(|plane| hangar_cell(colour, plane)));
        }
        for (i, a) in places.iter().enumerate() {
            assert!(
                (0.0..GRID).contains(&a.0) && (0.0..GRID).contains(&a.1),
                "{a:?}"
            );
            for b in &places[i + 1..] {
                assert!(a != b, "two places at {a:?}");
            }
        }
        assert_eq!(places.len(), 52 + 4 * (5 + 1 + 4));
    }

    /// Neighbouring track squares are neighbouring cells (the corners turn diagonally).
    #[test]
    fn the_track_runs_cell_by_cell() {
        for s in 0..TRACK {
            let (a, b) = (square_cell(s), square_cell((s + 1) % TRACK));
            let step = (a.0 - b.0).abs().max((a.1 - b.1).abs());
            assert_eq!(step, 1.0, "square {s} {a:?} to {b:?}");
        }
    }
}
