//! What a search says about a position.

use sygo_rules::Turn;

/// One candidate turn of the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The whole turn.
    pub turn: Turn,
    /// Playouts that went through it.
    pub visits: u64,
    /// The side to move's chance of winning after it, 0 to 1.
    pub win_rate: f64,
    /// The side to move's expected final margin after it, in points.
    pub score_lead: f64,
    /// The principal variation: this turn, then the best replies in order.
    pub pv: Vec<Turn>,
}

/// A search's view of a position, from the side to move's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Playouts spent.
    pub visits: u64,
    /// The side to move's chance of winning, 0 to 1.
    pub win_rate: f64,
    /// The side to move's expected final margin, in points.
    pub score_lead: f64,
    /// Candidate turns, most visited first; when the endgame solver proved
    /// the result, the turn it plays comes first, with the proven win rate
    /// (1, or ½ for a draw); when the root safety check chose another turn
    /// than the most visited ([`crate::MctsSettings::safety`]), that turn.
    pub candidates: Vec<Candidate>,
    /// For each point of the board, in the order of `Geometry::points`, how
    /// likely it is to end as Black's (+1) or White's (−1): the mean owner
    /// over the playouts (a stone or territory counts for its owner).
    pub ownership: Vec<f32>,
}
