//! What a search says about a position.

use sygo_rules::{Color, Position, Turn};

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

impl Analysis {
    /// The view of a finished game, which needs no search: certain, from
    /// its outcome and final score (a win 1, a draw ½, a loss 0; the margin
    /// the score's; each point owned by its stone or its territory).
    pub fn of_finished(position: &Position) -> Analysis {
        let me = position.side_to_move();
        let score = position.score();
        let win_rate = match position.outcome().and_then(|o| o.winner()) {
            Some(winner) if winner == me => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        let territory = position.territory();
        let ownership = position
            .geometry()
            .points()
            .map(
                |p| match position.stone_at(p).or_else(|| territory.owner_of(p)) {
                    Some(Color::Black) => 1.0,
                    Some(Color::White) => -1.0,
                    None => 0.0,
                },
            )
            .collect();
        Analysis {
            visits: 0,
            win_rate,
            score_lead: f64::from(score.of(me)) - f64::from(score.of(me.opponent())),
            candidates: Vec::new(),
            ownership,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sygo_rules::{Game, Geometry, Variant};

    #[test]
    fn a_finished_game_is_read_from_its_score() {
        let g = Geometry::new(Variant::Sygo, 3).unwrap();
        let mut game = Game::new(Position::new(g));
        for turn in ["B2", "pass", "pass"] {
            game.play(Turn::parse(turn, &g).unwrap()).unwrap();
        }
        let pos = game.position();
        assert!(pos.is_over());
        let a = Analysis::of_finished(pos);
        // White's one stone owns the whole board; Black is to move.
        assert_eq!(pos.side_to_move(), Color::Black);
        assert_eq!(a.win_rate, 0.0);
        assert_eq!(a.score_lead, -9.0);
        assert_eq!(a.ownership, vec![-1.0; 9]);
        assert_eq!(a.visits, 0);
    }
}
