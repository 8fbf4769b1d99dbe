//! The uniformly random player.

use rand::SeedableRng;
use rand_pcg::Pcg32;
use sygo_rules::{Game, Turn};

use crate::budget::Budget;
use crate::player::{Decision, Player};

/// Uniformly random legal turns: the rules library's random player
/// (`Position::random_turn_stones`; its policy is in that module's doc). It
/// ignores its budget and passes only when nothing can be played.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: Pcg32,
}

impl RandomPlayer {
    /// A random player whose choices follow from `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Pcg32::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, game: &Game, _budget: &Budget) -> Decision {
        let stones = game.position().random_turn_stones(&mut self.rng);
        Decision::turn(if stones.is_empty() {
            Turn::Pass
        } else {
            Turn::Stones(stones)
        })
    }
}
