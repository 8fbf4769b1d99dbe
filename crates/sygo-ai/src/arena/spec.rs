//! Player specifications: the text that names a player on the command line.
//!
//! ```text
//! SPEC    = NAME [ ":" OPTION { "," OPTION } ]     a built-in player
//!         | "cmd:" COMMAND                         an external engine
//! OPTION  = KEY "=" VALUE
//! ```
//!
//! - `random`: uniformly random legal turns. No options.
//! - `uct`: the plain UCT baseline ([`UctPlayer::from_options`]).
//! - `mcts`: the strong player, `mcts:level=3`, `mcts:threads=1,rave=off`
//!   ([`MctsPlayer::from_options`]).
//! - `cmd:COMMAND`: an engine speaking the protocol of `docs/protocol.md`,
//!   started as a subprocess: `cmd:sygo gtp --seed 3`. The command is split
//!   into words as a shell would (quotes, backslashes; see
//!   [`split_command`](super::split_command)) but no shell runs it.
//!
//! A built-in player's random choices follow from the match's seed and the
//! game's number, so they need no seed of their own.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use super::contender::{Contender, Entrant};
use super::engine::{EngineConfig, EnginePlayer};
use crate::mcts::MctsPlayer;
use crate::player::Player;
use crate::random::RandomPlayer;
use crate::uct::UctPlayer;

/// A player named on the command line (module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A built-in player with its options.
    Builtin {
        /// `random`, …
        name: String,
        /// `key=value` options, in the order given.
        options: Vec<(String, String)>,
    },
    /// An external engine's command line.
    Command(String),
}

/// Makes a built-in player for a game from the game's seed.
type Factory = Arc<dyn Fn(u64) -> Box<dyn Player> + Send + Sync>;

/// The built-in players: their names, and their factories from options.
fn builtin(name: &str, options: &[(String, String)]) -> Result<Factory, String> {
    let no_options = || match options.first() {
        Some((key, _)) => Err(format!("{name} has no option {key:?}")),
        None => Ok(()),
    };
    match name {
        "random" => {
            no_options()?;
            Ok(Arc::new(|seed| {
                Box::new(RandomPlayer::new(seed)) as Box<dyn Player>
            }))
        }
        "uct" => {
            UctPlayer::from_options(0, options)?;
            let options = options.to_vec();
            Ok(Arc::new(move |seed| {
                Box::new(UctPlayer::from_options(seed, &options).expect("checked options"))
                    as Box<dyn Player>
            }))
        }
        "mcts" => {
            MctsPlayer::from_options(0, options)?;
            let options = options.to_vec();
            Ok(Arc::new(move |seed| {
                Box::new(MctsPlayer::from_options(seed, &options).expect("checked options"))
                    as Box<dyn Player>
            }))
        }
        _ => Err(format!(
            "{name:?} is not a player: write random, uct, mcts, or cmd:COMMAND for an engine"
        )),
    }
}

impl FromStr for PlayerSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<PlayerSpec, String> {
        let text = text.trim();
        if let Some(command) = text.strip_prefix("cmd:") {
            super::engine::split_command(command)?;
            return Ok(PlayerSpec::Command(command.trim().to_string()));
        }
        let (name, rest) = match text.split_once(':') {
            Some((name, rest)) => (name, Some(rest)),
            None => (text, None),
        };
        let mut options = Vec::new();
        for option in rest.into_iter().flat_map(|r| r.split(',')) {
            let (key, value) = option
                .split_once('=')
                .ok_or_else(|| format!("{option:?} is not an option: write KEY=VALUE"))?;
            let (key, value) = (key.trim(), value.trim());
            if key.is_empty() || value.is_empty() {
                return Err(format!("{option:?} is not an option: write KEY=VALUE"));
            }
            options.push((key.to_string(), value.to_string()));
        }
        let name = name.trim().to_ascii_lowercase();
        builtin(&name, &options)?;
        Ok(PlayerSpec::Builtin { name, options })
    }
}

impl fmt::Display for PlayerSpec {
    /// The specification as it would be written: `random`, `mcts:level=3`,
    /// `cmd:sygo gtp`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Command(command) => write!(f, "cmd:{command}"),
            PlayerSpec::Builtin { name, options } => {
                f.write_str(name)?;
                for (i, (key, value)) in options.iter().enumerate() {
                    write!(f, "{}{key}={value}", if i == 0 { ':' } else { ',' })?;
                }
                Ok(())
            }
        }
    }
}

impl PlayerSpec {
    /// The entrant this specification names; an engine waits at most
    /// `engine_timeout` for an answer (plus the turn's time for `genmove`).
    ///
    /// # Errors
    ///
    /// When the specification names no player (a [`PlayerSpec`] read by
    /// `parse` always does).
    pub fn entrant(&self, engine_timeout: Duration) -> Result<Entrant, String> {
        let name = self.to_string();
        match self {
            PlayerSpec::Builtin {
                name: player,
                options,
            } => {
                let make = builtin(player, options)?;
                Ok(Entrant::builtin(name, move |seed| make(seed)))
            }
            PlayerSpec::Command(command) => {
                let mut config = EngineConfig::from_command_line(command)?;
                config.timeout = engine_timeout;
                Ok(Entrant::new(name.clone(), move || {
                    EnginePlayer::start(name.clone(), config.clone())
                        .map(|engine| Box::new(engine) as Box<dyn Contender>)
                }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specifications_read_and_write_back() {
        for text in ["random", "cmd:sygo gtp --seed 3"] {
            assert_eq!(text.parse::<PlayerSpec>().unwrap().to_string(), text);
        }
        assert_eq!(
            " Random ".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::Builtin {
                name: "random".into(),
                options: vec![]
            }
        );
        assert_eq!(
            "cmd: ./engine 'a b'".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::Command("./engine 'a b'".into())
        );
    }

    #[test]
    fn bad_specifications_say_why() {
        let error = |t: &str| t.parse::<PlayerSpec>().unwrap_err();
        assert!(error("alphago").contains("is not a player"));
        assert!(error("random:level=3").contains("random has no option \"level\""));
        assert!(error("random:level").contains("write KEY=VALUE"));
        assert!(error("cmd:").contains("empty"));
        assert!(error("cmd:a 'b").contains("unclosed"));
    }
}
