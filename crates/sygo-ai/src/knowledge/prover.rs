//! Exact results for the search's nodes: the endgame solver
//! ([`crate::endgame`]) asked about a tree node at the start of a turn with
//! few vacant points, within the work the search allows it
//! ([`crate::search::Policy::prove`]: positions in proportion to the node's
//! visits, and the search's deadline). The solver keeps its table between
//! questions, so a node asked again with more work, and its siblings, start
//! from what the earlier questions proved.

use std::fmt;

use sygo_rules::{Color, Position};

use crate::endgame::{SolveLimits, Solver};
use crate::search::Effort;

/// The solver of one search thread, for positions of at most `vacant`
/// vacant points.
pub(crate) struct Prover {
    vacant: usize,
    solver: Solver,
}

impl Prover {
    /// A prover of positions with at most `vacant` vacant points.
    pub(crate) fn new(vacant: usize) -> Prover {
        Prover {
            vacant,
            solver: Solver::new(),
        }
    }

    /// Black's exact result in `position` (1, ½, 0), if it is small enough,
    /// at the start of a turn, and solved within `effort` (positions).
    pub(crate) fn prove(&mut self, position: &Position, effort: &Effort) -> Option<f32> {
        if position.vacant_count() > self.vacant || position.turn_in_progress() {
            return None;
        }
        let limits = SolveLimits {
            nodes: effort.work,
            deadline: effort.deadline,
            stop: effort.stop.clone(),
        };
        let mover = self.solver.solve(position, &limits)?.verdict.result();
        Some(match position.side_to_move() {
            Color::Black => mover,
            Color::White => 1.0 - mover,
        })
    }

    /// Forgets what was proved (a new game).
    pub(crate) fn clear(&mut self) {
        self.solver.clear();
    }
}

/// A copy starts with an empty table: the table is a cache.
impl Clone for Prover {
    fn clone(&self) -> Prover {
        Prover::new(self.vacant)
    }
}

impl fmt::Debug for Prover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Prover")
            .field("vacant", &self.vacant)
            .finish_non_exhaustive()
    }
}
