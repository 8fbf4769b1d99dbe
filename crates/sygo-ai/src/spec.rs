//! Player specifications: the one text that names a built-in player, read
//! and built here for every program that takes one (`sygo play`, `sygo gtp
//! --player`, `sygo analyze`, `sygo arena`, the web app).
//!
//! ```text
//! SPEC    = NAME [ ":" OPTION { "," OPTION } ]
//! OPTION  = KEY "=" VALUE
//! ```
//!
//! - `random`: uniformly random legal turns. No options.
//! - `uct`: the plain UCT baseline ([`UctPlayer::from_options`]).
//! - `mcts`: the strong player, `mcts:level=3`, `mcts:threads=1,rave=off`
//!   ([`MctsPlayer::from_options`]).
//!
//! A specification is checked when it is read: a [`PlayerSpec`] always
//! builds. External engines (`cmd:COMMAND`) are the arena's, which reads
//! them before handing the rest to this module.
//!
//! # Examples
//!
//! ```
//! use sygo_ai::{Budget, PlayerSpec};
//! use sygo_rules::{Game, Geometry, Position};
//!
//! let spec: PlayerSpec = "mcts:level=1,threads=1".parse().unwrap();
//! let mut player = spec.build(7);
//! let game = Game::new(Position::new(Geometry::sygo(5).unwrap()));
//! let decision = player.choose(&game, &Budget::visits(50));
//! assert!(decision.analysis.is_some());
//! assert_eq!(spec.to_string(), "mcts:level=1,threads=1");
//!
//! let refused = "mcts:threads=200000".parse::<PlayerSpec>().unwrap_err();
//! assert_eq!(refused.to_string(), "threads=200000: write a number from 1 to 256");
//! ```

use std::fmt;
use std::str::FromStr;

use crate::mcts::MctsPlayer;
use crate::options::OptionError;
use crate::player::Player;
use crate::random::RandomPlayer;
use crate::uct::UctPlayer;

/// The built-in players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    /// Uniformly random legal turns ([`RandomPlayer`]).
    Random,
    /// The plain UCT baseline ([`UctPlayer`]).
    Uct,
    /// The strong player ([`MctsPlayer`]).
    Mcts,
}

impl PlayerKind {
    /// The name a specification starts with: `random`, `uct`, `mcts`.
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Random => "random",
            PlayerKind::Uct => "uct",
            PlayerKind::Mcts => "mcts",
        }
    }
}

/// A built-in player with its options (module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpec {
    kind: PlayerKind,
    options: Vec<(String, String)>,
}

/// Why a specification names no player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// The name is not a built-in player's.
    NotAPlayer(String),
    /// `cmd:COMMAND`, an external engine, where only built-in players play.
    Engine(String),
    /// Something after the name that is not `KEY=VALUE`.
    NotAnOption(String),
    /// An option the player refuses.
    Option(OptionError),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::NotAPlayer(name) => write!(
                f,
                "{name:?} is not a player: write random, uct, or mcts:KEY=VALUE,… (like mcts:level=3)"
            ),
            SpecError::Engine(spec) => write!(
                f,
                "{spec}: an external engine plays only in sygo arena; name a built-in player: \
                 random, uct or mcts"
            ),
            SpecError::NotAnOption(text) => {
                write!(f, "{text:?} is not an option: write KEY=VALUE")
            }
            SpecError::Option(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for SpecError {}

impl From<OptionError> for SpecError {
    fn from(error: OptionError) -> SpecError {
        SpecError::Option(error)
    }
}

impl PlayerSpec {
    /// A player with options, checked.
    ///
    /// # Errors
    ///
    /// An option the player does not have, or a bad value.
    pub fn new(kind: PlayerKind, options: Vec<(String, String)>) -> Result<PlayerSpec, SpecError> {
        let spec = PlayerSpec { kind, options };
        spec.try_build(0)?;
        Ok(spec)
    }

    /// A player with no options: its defaults (`mcts`: the strongest level).
    pub fn of(kind: PlayerKind) -> PlayerSpec {
        PlayerSpec {
            kind,
            options: Vec::new(),
        }
    }

    /// The strong player at a level, 1 to [`crate::MAX_LEVEL`], on the
    /// threads the level has (`None` for a level out of range).
    pub fn mcts_level(level: u8) -> Option<PlayerSpec> {
        PlayerSpec::new(
            PlayerKind::Mcts,
            vec![("level".to_string(), level.to_string())],
        )
        .ok()
    }

    /// Which player.
    pub fn kind(&self) -> PlayerKind {
        self.kind
    }

    /// The options, in the order written.
    pub fn options(&self) -> &[(String, String)] {
        &self.options
    }

    /// The same player with one more option (a later option overrides an
    /// earlier one of the same name).
    ///
    /// # Errors
    ///
    /// The player refuses the option.
    pub fn with(&self, key: &str, value: &str) -> Result<PlayerSpec, SpecError> {
        let mut options = self.options.clone();
        options.push((key.to_string(), value.to_string()));
        PlayerSpec::new(self.kind, options)
    }

    /// The player, its random choices from `seed`.
    pub fn build(&self, seed: u64) -> Box<dyn Player> {
        self.try_build(seed)
            .expect("a specification's options are checked when it is made")
    }

    /// The strong player, for what only it does (analysis that goes on
    /// between slices); `None` for the others.
    pub fn build_mcts(&self, seed: u64) -> Option<MctsPlayer> {
        match self.kind {
            PlayerKind::Mcts => Some(
                MctsPlayer::from_options(seed, &self.options)
                    .expect("a specification's options are checked when it is made"),
            ),
            _ => None,
        }
    }

    fn try_build(&self, seed: u64) -> Result<Box<dyn Player>, OptionError> {
        Ok(match self.kind {
            PlayerKind::Random => match self.options.first() {
                Some((key, _)) => {
                    return Err(OptionError::Unknown {
                        player: "random",
                        key: key.clone(),
                    });
                }
                None => Box::new(RandomPlayer::new(seed)),
            },
            PlayerKind::Uct => Box::new(UctPlayer::from_options(seed, &self.options)?),
            PlayerKind::Mcts => Box::new(MctsPlayer::from_options(seed, &self.options)?),
        })
    }
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    /// `random`, `uct:visits=1000`, `mcts:level=3,threads=1`; the name's
    /// case does not matter.
    fn from_str(text: &str) -> Result<PlayerSpec, SpecError> {
        let text = text.trim();
        let (name, rest) = match text.split_once(':') {
            Some((name, rest)) => (name.trim(), Some(rest)),
            None => (text, None),
        };
        let kind = match name.to_ascii_lowercase().as_str() {
            "random" => PlayerKind::Random,
            "uct" => PlayerKind::Uct,
            "mcts" => PlayerKind::Mcts,
            "cmd" => return Err(SpecError::Engine(text.to_string())),
            _ => return Err(SpecError::NotAPlayer(name.to_string())),
        };
        let mut options = Vec::new();
        for option in rest.into_iter().flat_map(|r| r.split(',')) {
            let (key, value) = option
                .split_once('=')
                .ok_or_else(|| SpecError::NotAnOption(option.to_string()))?;
            let (key, value) = (key.trim(), value.trim());
            if key.is_empty() || value.is_empty() {
                return Err(SpecError::NotAnOption(option.to_string()));
            }
            options.push((key.to_string(), value.to_string()));
        }
        PlayerSpec::new(kind, options)
    }
}

impl fmt::Display for PlayerSpec {
    /// The specification as it would be written: `random`, `mcts:level=3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.name())?;
        for (i, (key, value)) in self.options.iter().enumerate() {
            write!(f, "{}{key}={value}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specifications_read_and_write_back() {
        for text in ["random", "uct", "uct:visits=100", "mcts:level=3,threads=1"] {
            assert_eq!(text.parse::<PlayerSpec>().unwrap().to_string(), text);
        }
        assert_eq!(
            " Random ".parse::<PlayerSpec>().unwrap().kind(),
            PlayerKind::Random
        );
        assert_eq!(
            PlayerSpec::mcts_level(2).unwrap().to_string(),
            "mcts:level=2"
        );
        assert_eq!(PlayerSpec::mcts_level(9), None);
    }

    #[test]
    fn bad_specifications_say_why() {
        let error = |t: &str| t.parse::<PlayerSpec>().unwrap_err().to_string();
        assert!(error("alphago").contains("is not a player"));
        assert_eq!(error("random:level=3"), "random has no option \"level\"");
        assert!(error("random:level").contains("write KEY=VALUE"));
        assert!(error("cmd:sygo gtp").contains("only in sygo arena"));
        assert_eq!(error("mcts:level=9"), "level=9: write a number from 1 to 6");
        for resource in [
            "threads=0",
            "threads=200000",
            "visits=0",
            "time=0",
            "memory=0",
        ] {
            assert!(
                error(&format!("mcts:{resource}")).contains("write a number from"),
                "{resource}"
            );
            assert!(
                error(&format!("uct:{resource}")).contains("write a number from"),
                "{resource}"
            );
        }
        assert!(error("mcts:memory=100000000").contains("from 1 to 65536"));
        assert!(error("mcts:c=abc").contains("write a number"));
    }
}
