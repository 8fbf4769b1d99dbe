//! The interface of every player.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use sygo_rules::{Game, Turn};

use crate::analysis::Analysis;
use crate::budget::Budget;

/// What a player chose: a whole turn, and what its search saw if it searched.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The turn, legal in the position it was chosen for.
    pub turn: Turn,
    /// The search's view of the position, for players that search.
    pub analysis: Option<Analysis>,
}

impl Decision {
    /// A decision with no analysis.
    pub fn turn(turn: Turn) -> Decision {
        Decision {
            turn,
            analysis: None,
        }
    }
}

/// Anything that chooses turns: the built-in players, and in the arena
/// engines that speak the protocol.
pub trait Player: Send {
    /// A short name for reports and records: `random`, `uct`, `mcts 3`.
    fn name(&self) -> String;

    /// Chooses a whole turn for the side to move in `game` (the game is not
    /// over and has no turn in progress), within `budget`.
    fn choose(&mut self, game: &Game, budget: &Budget) -> Decision;

    /// A new game starts: forget whatever was kept from the last one.
    fn new_game(&mut self) {}

    /// Whether [`Player::ponder`] gives analyses (the strong player does).
    fn analyzes(&self) -> bool {
        false
    }

    /// One slice of analysis of `game`'s position: the search goes on from
    /// where the last slice stopped, within `budget` or until the stop flag
    /// is raised, and says what it sees. `None` for a player that gives no
    /// analysis.
    fn ponder(&mut self, _game: &Game, _budget: &Budget) -> Option<Analysis> {
        None
    }

    /// The flag that stops the search in progress when raised (from another
    /// thread); `None` for a player that does not search.
    fn stop_handle(&self) -> Option<Arc<AtomicBool>> {
        None
    }
}
