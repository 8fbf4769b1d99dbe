//! The observation tensor: planes of the board, from one player's view.
//!
//! The shape is `(PLANES, S, S)` with `S` the board's side (N, or 2n − 1 on
//! the hexagon of base n). Entry `[plane, r, c]` is the point of 0-based
//! column `c` (A = 0, the letter I skipped) and row `r` (row 1 = 0, at the
//! bottom). The hexagon is stored as the rules store it, in axial
//! coordinates: a parallelogram whose cells with |c − r| ≥ n are not on the
//! board and are 0 in every plane. Every value is 0 or 1.
//!
//! | plane | 1 on |
//! | --- | --- |
//! | 0 | the player's stones |
//! | 1 | the opponent's stones |
//! | 2 | vacant points |
//! | 3 | stones played by the turn in progress |
//! | 4 | stones of the mover's groups that may still grow this turn (all the mover's stones between turns) |
//! | 5 | every point, if the player is to move |
//! | 6 | every point, if the player is Black |
//! | 7 | every point, while no growth turn has been played (Black's balance turn, docs/rules.md §6) |
//! | 8 | every point, if the last turn was a pass (one more ends the game) |
//! | 9 | every point of the board (the hexagon's shape) |
//!
//! With planes 3 and 4 the tensor fixes the state between and within turns:
//! which steps are allowed depends only on the stones, the turn's new
//! stones, which base groups are still fresh, the side to move and the
//! balance turn (docs/rules.md §5, §6).

use sygo_rules::{Color, Geometry, Position};

/// The number of planes.
pub(crate) const PLANES: usize = 10;

/// The names of the planes, in order.
pub(crate) const PLANE_NAMES: [&str; PLANES] = [
    "own_stones",
    "opponent_stones",
    "vacant",
    "turn_stones",
    "may_grow",
    "to_move",
    "is_black",
    "balance_available",
    "passed",
    "on_board",
];

/// The tensor's shape on a board: `[PLANES, S, S]`.
pub(crate) fn shape(g: Geometry) -> [usize; 3] {
    let s = usize::from(g.side());
    [PLANES, s, s]
}

/// The number of values in a tensor of this board.
pub(crate) fn size(g: Geometry) -> usize {
    shape(g).iter().product()
}

/// Writes the planes of `pos` from `player`'s view into `out` (zeroed, of
/// [`size`] values).
pub(crate) fn write(pos: &Position, player: Color, out: &mut [f32]) {
    let g = pos.geometry();
    let s = usize::from(g.side());
    let area = s * s;
    debug_assert_eq!(out.len(), PLANES * area);
    let mover = pos.side_to_move();
    let touched = touched_stones(pos);
    let constants = [
        !pos.is_over() && mover == player,
        player == Color::Black,
        !pos.growth_started(),
        pos.passes() == 1,
        true,
    ];
    for p in g.points() {
        let (c, r) = g.col_row(p);
        let at = usize::from(r) * s + usize::from(c);
        let mut set = |plane: usize| out[plane * area + at] = 1.0;
        match pos.stone_at(p) {
            Some(color) => {
                set(if color == player { 0 } else { 1 });
                if pos.is_new_stone(p) {
                    set(3);
                }
                if color == mover && !touched[p.index()] {
                    set(4);
                }
            }
            None => set(2),
        }
        for (i, &on) in constants.iter().enumerate() {
            if on {
                set(5 + i);
            }
        }
    }
}

/// Marks, by padded index, the mover's stones in groups the turn in
/// progress has touched (grown, placed or captured with): exactly those that
/// hold one of the turn's new stones. The rest of the mover's stones belong
/// to fresh base groups.
fn touched_stones(pos: &Position) -> Vec<bool> {
    let g = pos.geometry();
    let mut touched = vec![false; g.index_len()];
    if pos.is_over() {
        // Nothing may grow in a finished game.
        touched.iter_mut().for_each(|t| *t = true);
        return touched;
    }
    let mover = pos.side_to_move();
    let mut stack = pos.turn_stones();
    for p in &stack {
        touched[p.index()] = true;
    }
    while let Some(p) = stack.pop() {
        for q in g.neighbours(p) {
            if !touched[q.index()] && pos.stone_at(q) == Some(mover) {
                touched[q.index()] = true;
                stack.push(q);
            }
        }
    }
    touched
}
