//! The player behind `genmove` and `analyze`, and the clocks that give its
//! budgets.
//!
//! The player is named by a specification of `sygo_ai::arena::PlayerSpec`
//! (`random`, `uct`, `mcts`, `mcts:level=3,threads=1`); only the built-in
//! players can play behind the protocol. Only `mcts` can analyze: it keeps
//! its trees and the ownership it counted between the slices of an
//! analysis.
//!
//! Each colour has a clock (`sygo_ai::Clock`): the time control of
//! `time_settings`, or without one (or with one that sets no limit) a fixed
//! time per turn. `time_left` sets it; after each `genmove` the engine
//! charges the time it measured, so a controller that sends no `time_left`
//! is still followed. The clocks start afresh with each new game.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use sygo_ai::arena::PlayerSpec;
use sygo_ai::{Analysis, Budget, Clock, MctsPlayer, Player, RandomPlayer, TimeControl, UctPlayer};
use sygo_rules::Game;

use crate::error::{CommandError, EngineError};

/// The player: the searching one apart, for analysis.
pub(crate) enum Brain {
    /// The strong player, which can analyze.
    Mcts(Box<MctsPlayer>),
    /// Any other built-in player.
    Other(Box<dyn Player>),
}

impl Brain {
    /// The player a specification names, its random choices from `seed`.
    pub(crate) fn from_spec(spec: &PlayerSpec, seed: u64) -> Result<Brain, EngineError> {
        let (name, options) = match spec {
            PlayerSpec::Builtin { name, options } => (name.as_str(), options.as_slice()),
            PlayerSpec::Command(_) => {
                return Err(EngineError::Player(format!(
                    "{spec}: an external engine cannot play behind the protocol; \
                     name a built-in player: random, uct or mcts"
                )));
            }
        };
        let no_options = || match options.first() {
            Some((key, _)) => Err(EngineError::Player(format!("{name} has no option {key:?}"))),
            None => Ok(()),
        };
        Ok(match name {
            "random" => {
                no_options()?;
                Brain::Other(Box::new(RandomPlayer::new(seed)))
            }
            "uct" => Brain::Other(Box::new(
                UctPlayer::from_options(seed, options).map_err(EngineError::Player)?,
            )),
            "mcts" => Brain::Mcts(Box::new(
                MctsPlayer::from_options(seed, options).map_err(EngineError::Player)?,
            )),
            _ => {
                return Err(EngineError::Player(format!(
                    "{name:?} is not a player: write random, uct or mcts"
                )));
            }
        })
    }

    /// The player, to choose a turn.
    pub(crate) fn player(&mut self) -> &mut dyn Player {
        match self {
            Brain::Mcts(player) => player.as_mut(),
            Brain::Other(player) => player.as_mut(),
        }
    }

    /// A new game, or a position reached other than by a turn: the player
    /// forgets everything it kept.
    pub(crate) fn new_game(&mut self) {
        self.player().new_game();
    }

    /// The flag that stops the searching player's search (none for the
    /// others).
    pub(crate) fn stop_handle(&self) -> Option<Arc<AtomicBool>> {
        match self {
            Brain::Mcts(player) => Some(player.stop_handle()),
            Brain::Other(_) => None,
        }
    }

    /// Fails unless the player can analyze.
    pub(crate) fn check_analyzes(&self) -> Result<(), CommandError> {
        match self {
            Brain::Mcts(_) => Ok(()),
            Brain::Other(player) => Err(CommandError::CannotAnalyze(format!(
                "the {} player gives no analysis; start the engine with --player mcts",
                player.name()
            ))),
        }
    }

    /// One slice of analysis of `game`'s position: the search goes on from
    /// where the last slice stopped, for `time` or until the player's stop
    /// flag is raised. `None` for a player that gives no analysis.
    pub(crate) fn ponder(&mut self, game: &Game, time: Duration) -> Option<Analysis> {
        match self {
            Brain::Mcts(player) => Some(player.ponder(game, &Budget::time(time))),
            Brain::Other(_) => None,
        }
    }
}

/// The clock of a colour at the start of a game: the time control of
/// `time_settings` if it sets a limit, else `per_turn` for each turn.
pub(crate) fn fresh_clock(control: Option<TimeControl>, per_turn: Duration) -> Clock {
    match control {
        Some(control) if !control.is_unlimited() => Clock::new(control),
        _ => Clock::new(TimeControl::per_turn(per_turn)),
    }
}
