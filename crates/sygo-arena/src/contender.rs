//! Who plays in the arena: a [`Contender`] plays the games of one side on one
//! thread, and an [`Entrant`] makes as many contenders as there are threads.
//!
//! A built-in [`Player`] is made afresh for each game from a seed, so that a
//! game's moves depend only on the match's seed and the game's number, never
//! on which thread played it or what it played before. An external engine
//! ([`EnginePlayer`](crate::EnginePlayer)) keeps its process from game to
//! game and is told to clear its board.

use std::fmt;
use std::sync::Arc;

use sygo_rules::Game;

use sygo_ai::{Budget, Decision, Player};

use crate::error::StartError;

/// Why a player lost a game without it being played out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// The player chose a turn that the rules refuse.
    IllegalTurn {
        /// The turn, as written (`D4,E5`).
        turn: String,
        /// Why the rules refuse it.
        reason: String,
    },
    /// An external engine exited, or could not be started or written to.
    Crashed(String),
    /// An external engine answered something the protocol does not allow,
    /// or refused a command it must accept.
    Protocol(String),
    /// An external engine did not answer in time.
    Timeout(String),
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Forfeit::IllegalTurn { turn, reason } => write!(f, "illegal turn {turn}: {reason}"),
            Forfeit::Crashed(why) => write!(f, "engine crashed: {why}"),
            Forfeit::Protocol(why) => write!(f, "protocol error: {why}"),
            Forfeit::Timeout(why) => write!(f, "timeout: {why}"),
        }
    }
}

/// One side's player on one of the arena's threads.
pub trait Contender: Send {
    /// A new game starts; `seed` decides a built-in player's choices in it.
    ///
    /// # Errors
    ///
    /// [`Forfeit`] when the player cannot play (an engine that cannot be
    /// restarted): it loses the game.
    fn new_game(&mut self, seed: u64) -> Result<(), Forfeit>;

    /// Chooses a turn for the side to move in `game` (not over).
    ///
    /// # Errors
    ///
    /// [`Forfeit`] when the player fails (an engine that crashes, answers
    /// garbage or too late): it loses the game. An illegal turn is not an
    /// error here; the arena finds it out.
    fn choose(&mut self, game: &Game, budget: &Budget) -> Result<Decision, Forfeit>;
}

/// What makes one kind of player: a name for reports and records, and a
/// factory of contenders, one per thread.
#[derive(Clone)]
pub struct Entrant {
    name: String,
    make: Arc<dyn Fn() -> Result<Box<dyn Contender>, StartError> + Send + Sync>,
}

impl fmt::Debug for Entrant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entrant").field("name", &self.name).finish()
    }
}

impl Entrant {
    /// An entrant from a factory of contenders (which may fail, e.g. when a
    /// command cannot be started; the match does not start then).
    pub fn new(
        name: impl Into<String>,
        make: impl Fn() -> Result<Box<dyn Contender>, StartError> + Send + Sync + 'static,
    ) -> Entrant {
        Entrant {
            name: name.into(),
            make: Arc::new(make),
        }
    }

    /// A built-in player, made for each game by `make(seed)`.
    pub fn builtin(
        name: impl Into<String>,
        make: impl Fn(u64) -> Box<dyn Player> + Send + Sync + 'static,
    ) -> Entrant {
        let make: Arc<dyn Fn(u64) -> Box<dyn Player> + Send + Sync> = Arc::new(make);
        Entrant::new(name, move || {
            Ok(Box::new(Builtin {
                make: make.clone(),
                player: None,
            }) as Box<dyn Contender>)
        })
    }

    /// The name used in reports and records.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A contender for one thread.
    ///
    /// # Errors
    ///
    /// The factory's reason, when it cannot make one.
    pub fn contender(&self) -> Result<Box<dyn Contender>, StartError> {
        (self.make)()
    }
}

/// A built-in player, made afresh for each game.
struct Builtin {
    make: Arc<dyn Fn(u64) -> Box<dyn Player> + Send + Sync>,
    player: Option<Box<dyn Player>>,
}

impl Contender for Builtin {
    fn new_game(&mut self, seed: u64) -> Result<(), Forfeit> {
        self.player = Some((self.make)(seed));
        Ok(())
    }

    fn choose(&mut self, game: &Game, budget: &Budget) -> Result<Decision, Forfeit> {
        let player = self.player.get_or_insert_with(|| (self.make)(0));
        Ok(player.choose(game, budget))
    }
}
