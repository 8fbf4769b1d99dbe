//! Entrant specifications: the text that names one side of a match on the
//! command line.
//!
//! ```text
//! SPEC    = PLAYER                 a built-in player (sygo_ai::PlayerSpec)
//!         | "cmd:" COMMAND         an external engine
//! ```
//!
//! - `random`, `uct`, `mcts:level=3`: a built-in player, read by
//!   [`sygo_ai::PlayerSpec`], the one place players are named.
//! - `cmd:COMMAND`: an engine speaking the protocol of `docs/protocol.md`,
//!   started as a subprocess: `cmd:sygo gtp --seed 3`. The command is split
//!   into words as a shell would (quotes, backslashes; see
//!   [`split_command`](crate::split_command)) but no shell runs it.
//!
//! A built-in player's random choices follow from the match's seed and the
//! game's number, so they need no seed of their own.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use sygo_ai::PlayerSpec;

use crate::contender::{Contender, Entrant};
use crate::engine::{EngineConfig, EnginePlayer, split_command};
use crate::error::EntrantSpecError;

/// One side of a match as the command line names it (module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntrantSpec {
    /// A built-in player with its options.
    Builtin(PlayerSpec),
    /// An external engine's command line.
    Command(String),
}

impl FromStr for EntrantSpec {
    type Err = EntrantSpecError;

    fn from_str(text: &str) -> Result<EntrantSpec, EntrantSpecError> {
        let text = text.trim();
        if let Some(command) = text.strip_prefix("cmd:") {
            split_command(command).map_err(EntrantSpecError::Command)?;
            return Ok(EntrantSpec::Command(command.trim().to_string()));
        }
        text.parse()
            .map(EntrantSpec::Builtin)
            .map_err(EntrantSpecError::Player)
    }
}

impl fmt::Display for EntrantSpec {
    /// The specification as it would be written: `random`, `mcts:level=3`,
    /// `cmd:sygo gtp`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntrantSpec::Builtin(spec) => spec.fmt(f),
            EntrantSpec::Command(command) => write!(f, "cmd:{command}"),
        }
    }
}

impl EntrantSpec {
    /// The entrant this specification names; an engine waits at most
    /// `engine_timeout` for an answer (plus the turn's time for `genmove`).
    pub fn entrant(&self, engine_timeout: Duration) -> Entrant {
        let name = self.to_string();
        match self {
            EntrantSpec::Builtin(spec) => {
                let spec = spec.clone();
                Entrant::builtin(name, move |seed| spec.build(seed))
            }
            EntrantSpec::Command(command) => {
                let mut config = EngineConfig::from_command_line(command)
                    .expect("a command checked when the specification was read");
                config.timeout = engine_timeout;
                Entrant::new(name.clone(), move || {
                    EnginePlayer::start(name.clone(), config.clone())
                        .map(|engine| Box::new(engine) as Box<dyn Contender>)
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specifications_read_and_write_back() {
        for text in ["random", "mcts:level=2", "cmd:sygo gtp --seed 3"] {
            assert_eq!(text.parse::<EntrantSpec>().unwrap().to_string(), text);
        }
        assert_eq!(
            "cmd: ./engine 'a b'".parse::<EntrantSpec>().unwrap(),
            EntrantSpec::Command("./engine 'a b'".into())
        );
    }

    #[test]
    fn bad_specifications_say_why() {
        let error = |t: &str| t.parse::<EntrantSpec>().unwrap_err().to_string();
        assert!(error("alphago").contains("or cmd:COMMAND for an engine"));
        assert!(error("random:level=3").contains("random has no option \"level\""));
        assert!(error("random:level").contains("write KEY=VALUE"));
        assert!(error("cmd:").contains("empty"));
        assert!(error("cmd:a 'b").contains("unclosed"));
        assert!(error("mcts:threads=200000").contains("from 1 to 256"));
    }
}
