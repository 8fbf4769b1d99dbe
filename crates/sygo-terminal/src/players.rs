//! Who plays each colour in a game at the terminal, and the computer's
//! choices.
//!
//! The computer is the rules library's uniformly random player
//! ([`Position::random_turn_stones`]), the AI (`sygo_ai`'s strong player at
//! a level), or another built-in player of `sygo_ai` named by its
//! specification (`uct`, `mcts:level=3`). Hints come from the AI.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use rand::SeedableRng;
use rand_pcg::Pcg32;
use sygo_ai::{Analysis, Budget, Decision, PlayerSpec, SpecError};
use sygo_rules::{Color, Game, Position, Turn};

/// The level of the AI when `--level` is not given: quick, and decent.
pub const DEFAULT_LEVEL: u8 = 4;

/// The levels `--level` accepts, for clap.
pub const LEVELS: std::ops::RangeInclusive<i64> = 1..=sygo_ai::MAX_LEVEL as i64;

/// The times `--time` accepts, in milliseconds, for clap: up to 10^9 ms
/// (11 days), so that no deadline overflows.
pub const TIMES: std::ops::RangeInclusive<u64> = 1..=1_000_000_000;

/// Who plays a colour (`--black`, `--white`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person at the keyboard.
    Human,
    /// The uniformly random player: a random legal turn, no strategy.
    Random,
    /// The AI: the strong player at the level of `--level`.
    Ai,
    /// Another built-in player, by its specification: `uct`, `mcts:level=3`.
    Builtin(PlayerSpec),
}

impl Player {
    /// Whether a person plays.
    pub fn is_human(&self) -> bool {
        *self == Player::Human
    }
}

impl fmt::Display for Player {
    /// How the program names the player: `human`, `random`, `ai`, `uct`,
    /// `mcts:level=3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Human => f.write_str("human"),
            Player::Random => f.write_str("random"),
            Player::Ai => f.write_str("ai"),
            Player::Builtin(spec) => write!(f, "{spec}"),
        }
    }
}

impl FromStr for Player {
    type Err = PlayerError;

    /// `human`, `random`, `ai`, or a built-in player's specification
    /// (`uct`, `mcts:level=3,threads=2`); case does not matter.
    fn from_str(text: &str) -> Result<Player, PlayerError> {
        let lower = text.trim().to_ascii_lowercase();
        match lower.as_str() {
            "human" => return Ok(Player::Human),
            "random" => return Ok(Player::Random),
            "ai" => return Ok(Player::Ai),
            _ => {}
        }
        match text.parse::<PlayerSpec>() {
            Ok(spec) => Ok(Player::Builtin(spec)),
            Err(SpecError::Engine(_)) => Err(PlayerError::Engine),
            Err(SpecError::NotAPlayer(_)) => Err(PlayerError::NotAPlayer(text.trim().to_string())),
            Err(e) => Err(PlayerError::Spec(e)),
        }
    }
}

/// Text that names no player of a terminal game (`--black`, `--white`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayerError {
    /// An engine (`cmd:COMMAND`): engines play in `sygo arena`, not here.
    Engine,
    /// A word that names no player.
    NotAPlayer(String),
    /// A built-in player's specification with a wrong option.
    Spec(SpecError),
}

/// What may be written instead, for the messages.
const PLAYER_WORDS: &str = "write human, random, ai, uct, or mcts:KEY=VALUE,… (like mcts:level=3)";

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Engine => {
                write!(f, "an engine plays in sygo arena, not here: {PLAYER_WORDS}")
            }
            PlayerError::NotAPlayer(text) => write!(f, "{text:?} is not a player: {PLAYER_WORDS}"),
            PlayerError::Spec(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayerError {}

/// How hard the AI thinks (`--level`, `--time`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// The AI's level, 1 to [`sygo_ai::MAX_LEVEL`].
    pub level: u8,
    /// Time for each of the AI's turns and hints (`None`: the level decides:
    /// its visits, or a second at the top level).
    pub time: Option<Duration>,
}

impl Strength {
    /// The budget of each turn of a computer player that searches.
    fn budget(self) -> Budget {
        Budget {
            time: self.time,
            visits: None,
        }
    }
}

/// The computer's side of the game: the random player's numbers and the
/// players that search, all from one seed.
pub struct Computer {
    rng: Pcg32,
    seed: u64,
    strength: Strength,
    /// The searching player of each colour, made when first asked.
    searchers: [Option<Box<dyn sygo_ai::Player>>; 2],
}

impl Computer {
    /// A computer whose choices follow from `seed`: one seed, one game (with
    /// a time budget, a searching player's choices also depend on the
    /// machine's speed).
    pub fn new(seed: u64, strength: Strength) -> Computer {
        Computer {
            rng: Pcg32::seed_from_u64(seed),
            seed,
            strength,
            searchers: [None, None],
        }
    }

    /// The whole turn `player` chooses for the side to move in `game` (not
    /// over, no turn in progress), with what a searching player saw; `None`
    /// if a person plays.
    pub fn choose(&mut self, player: &Player, game: &Game) -> Option<Decision> {
        let color = game.position().side_to_move();
        match player {
            Player::Human => None,
            Player::Random => Some(Decision::turn(self.random_turn(game.position()))),
            Player::Ai | Player::Builtin(_) => {
                let budget = self.strength.budget();
                let searcher = self.searcher(player, color);
                Some(searcher.choose(game, &budget))
            }
        }
    }

    /// What the AI (at the level of `--level`) would play for the side to
    /// move in `game`, and its analysis: the hint.
    pub fn advise(&mut self, game: &Game) -> Decision {
        let budget = self.strength.budget();
        // The hints have a computer of their own: the AI for both colours.
        self.searcher(&Player::Ai, game.position().side_to_move())
            .choose(game, &budget)
    }

    /// The searching player of `color`, made on first use.
    fn searcher(&mut self, player: &Player, color: Color) -> &mut Box<dyn sygo_ai::Player> {
        let seed = self
            .seed
            .wrapping_add(0x5851_f42d_4c95_7f2d * (color.index() as u64 + 1));
        let level = self.strength.level;
        self.searchers[color.index()].get_or_insert_with(|| make_searcher(player, level, seed))
    }

    /// A uniformly random legal turn: the random player's choice.
    pub fn random_turn(&mut self, pos: &Position) -> Turn {
        let stones = pos.random_turn_stones(&mut self.rng);
        if stones.is_empty() {
            Turn::Pass
        } else {
            Turn::Stones(stones)
        }
    }
}

/// A searching player: the AI at `level`, or a built-in player by its
/// specification.
fn make_searcher(player: &Player, level: u8, seed: u64) -> Box<dyn sygo_ai::Player> {
    let spec = match player {
        Player::Builtin(spec) => spec.clone(),
        _ => PlayerSpec::mcts_level(level)
            .or_else(|| PlayerSpec::mcts_level(DEFAULT_LEVEL))
            .expect("a level in range"),
    };
    spec.build(seed)
}

/// What a searching player thinks of its position, in a few words: `62% to
/// win, score lead +3.1, 3200 visits`.
pub fn thinks(analysis: &Analysis) -> String {
    let rate = sygo_ai::view::rate(analysis.win_rate);
    let lead = sygo_ai::view::finite(analysis.score_lead);
    format!(
        "{:.0}% to win, score lead {lead:+.1}, {} visits",
        100.0 * rate,
        analysis.visits
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_read_and_name_themselves() {
        for text in ["human", "random", "ai", "uct", "mcts:level=3"] {
            assert_eq!(text.parse::<Player>().unwrap().to_string(), text);
        }
        assert_eq!("AI".parse::<Player>(), Ok(Player::Ai));
        assert!(
            "cmd:sygo gtp"
                .parse::<Player>()
                .unwrap_err()
                .to_string()
                .contains("sygo arena")
        );
        assert!(
            "alphago"
                .parse::<Player>()
                .unwrap_err()
                .to_string()
                .contains("write human")
        );
        assert!("mcts:level=9".parse::<Player>().is_err());
    }
}
