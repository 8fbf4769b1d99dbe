//! Who plays each colour in `sygo play`, and the computer's choices.
//!
//! Today the computer is the rules library's uniformly random player
//! ([`Position::random_turn_stones`]); a stronger player joins [`Player`] as
//! a variant of its own, and [`Computer::choose`] gives it its turn.

use rand::SeedableRng;
use rand_pcg::Pcg32;
use sygo_rules::{Position, Turn};

/// Who plays a colour (`--black`, `--white`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Player {
    /// A person at the keyboard.
    Human,
    /// The uniformly random player: a random legal turn, no strategy.
    Random,
}

impl Player {
    /// Whether a person plays.
    pub fn is_human(self) -> bool {
        self == Player::Human
    }

    /// How the program names the player: `human`, `random`.
    pub fn name(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Random => "random",
        }
    }
}

/// The computer's side of the game: its random numbers, from one seed.
#[derive(Clone, Debug)]
pub struct Computer {
    rng: Pcg32,
}

impl Computer {
    /// A computer whose choices follow from `seed`: one seed, one game.
    pub fn new(seed: u64) -> Computer {
        Computer {
            rng: Pcg32::seed_from_u64(seed),
        }
    }

    /// The whole turn `player` chooses for the side to move in `pos` (which
    /// has no turn in progress); `None` if a person plays.
    pub fn choose(&mut self, player: Player, pos: &Position) -> Option<Turn> {
        match player {
            Player::Human => None,
            Player::Random => Some(self.random_turn(pos)),
        }
    }

    /// A uniformly random legal turn: the random player's choice, and the
    /// hint until there is a player worth asking.
    pub fn random_turn(&mut self, pos: &Position) -> Turn {
        let stones = pos.random_turn_stones(&mut self.rng);
        if stones.is_empty() {
            Turn::Pass
        } else {
            Turn::Stones(stones)
        }
    }
}
