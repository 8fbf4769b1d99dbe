//! The engine's state: the game, the komi, the clocks and the player.
//! The commands that change it are in `commands.rs`; the line-by-line
//! driver and the loop over an input are in `session.rs`.

use std::time::Duration;

use sygo_ai::{Clock, Player, PlayerKind, PlayerSpec, TimeControl};
use sygo_rules::{Game, Geometry, Position, Variant};

use crate::analyze::AnalyzeRequest;
use crate::error::EngineError;

/// The time per turn when no time control is set: one second.
pub const DEFAULT_TIME_PER_TURN: Duration = Duration::from_secs(1);

/// How an engine starts: the board, the player and its seed, its time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Sygo or Hexsygo.
    pub variant: Variant,
    /// N for Sygo, the base n for Hexsygo.
    pub size: u8,
    /// The seed of the player's random choices: with the random player, or
    /// a search limited by visits on one thread, one seed gives one sequence
    /// of answers.
    pub seed: u64,
    /// The player behind `genmove` and `analyze`: a built-in player
    /// (`random`, `uct`, `mcts`, `mcts:level=3`); only `mcts` analyzes.
    pub player: PlayerSpec,
    /// The time of a turn when no `time_settings` set a limit.
    pub time_per_turn: Duration,
    /// The most visits (simulations) of a `genmove`, if any: the turn ends
    /// at this many or at its time, whichever comes first.
    pub visits: Option<u64>,
}

impl EngineOptions {
    /// These options with the uniformly random player: instant answers,
    /// for tests and for tools that need only the rules.
    pub fn random(variant: Variant, size: u8, seed: u64) -> EngineOptions {
        EngineOptions {
            variant,
            size,
            seed,
            player: PlayerSpec::of(PlayerKind::Random),
            ..EngineOptions::default()
        }
    }
}

impl Default for EngineOptions {
    /// Sygo 19×19, seed 1, the strongest `mcts`, a second a turn.
    fn default() -> EngineOptions {
        EngineOptions {
            variant: Variant::Sygo,
            size: Variant::Sygo.default_size(),
            seed: 1,
            player: PlayerSpec::of(PlayerKind::Mcts),
            time_per_turn: DEFAULT_TIME_PER_TURN,
            visits: None,
        }
    }
}

/// The time control set by `time_settings`, in seconds (GTP 2 §6.4: absolute
/// time when `byo_yomi_stones` is 0 and `byo_yomi` is positive means no
/// limit; all zero means no time limit).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimeSettings {
    /// Main time.
    pub main: f64,
    /// Byo-yomi time (Canadian: for `byo_yomi_stones` stones).
    pub byo_yomi: f64,
    /// Stones to play in each byo-yomi period.
    pub byo_yomi_stones: u32,
}

/// A clock reading sent by `time_left`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimeLeft {
    /// Seconds left in the current period.
    pub time: f64,
    /// Stones left to play in the byo-yomi period; 0 in main time.
    pub stones: u32,
}

/// The engine: the game, the komi, the clocks and the player, driven one
/// protocol line at a time.
///
/// # Examples
///
/// ```
/// use sygo_gtp::{Engine, EngineOptions};
/// use sygo_rules::Variant;
///
/// let options = EngineOptions::random(Variant::Hexsygo, 4, 7);
/// let mut engine = Engine::new(options).unwrap();
/// assert_eq!(engine.handle_line("1 play w D4").as_deref(), Some("=1\n\n"));
/// assert_eq!(
///     engine.handle_line("2 play w E5").as_deref(),
///     Some("?2 illegal move: it is Black's turn\n\n")
/// );
/// assert_eq!(engine.handle_line("# a comment gets no answer"), None);
/// ```
pub struct Engine {
    pub(crate) game: Game,
    pub(crate) komi: f64,
    pub(crate) time_settings: TimeSettings,
    /// The last `time_left` of each colour, Black first.
    pub(crate) time_left: [Option<TimeLeft>; 2],
    /// The time control of `time_settings`, once set.
    pub(crate) control: Option<TimeControl>,
    /// The clock of each colour as the engine counts it, Black first.
    pub(crate) timers: [Clock; 2],
    /// The time of a turn with no time control.
    pub(crate) time_per_turn: Duration,
    /// The most visits of a `genmove`.
    pub(crate) visits: Option<u64>,
    /// The player behind `genmove` and `analyze`.
    pub(crate) player: Box<dyn Player>,
    /// The analysis that `analyze` has just started, until it ends.
    pub(crate) analysis: Option<AnalyzeRequest>,
    pub(crate) quit: bool,
}

impl Engine {
    /// An engine with an empty board.
    ///
    /// # Errors
    ///
    /// [`EngineError::Geometry`] when the size is outside docs/rules.md §1 (a
    /// [`PlayerSpec`] always names a player: it is checked when read).
    pub fn new(options: EngineOptions) -> Result<Engine, EngineError> {
        let geometry = Geometry::new(options.variant, options.size)?;
        let player = options.player.build(options.seed);
        let clock = fresh_clock(None, options.time_per_turn);
        Ok(Engine {
            game: Game::new(Position::new(geometry)),
            komi: 0.0,
            time_settings: TimeSettings::default(),
            time_left: [None; 2],
            control: None,
            timers: [clock; 2],
            time_per_turn: options.time_per_turn,
            visits: options.visits,
            player,
            analysis: None,
            quit: false,
        })
    }

    /// The name of the player behind `genmove`: `random`, `mcts 6`, …
    pub fn player_name(&mut self) -> String {
        self.player.name()
    }

    /// Replaces the game by another that was not reached by a turn (a new
    /// board, a setup, an undo, a record): the player forgets its search.
    /// With `new_game`, the clocks start afresh too.
    pub(crate) fn replace_game(&mut self, game: Game, new_game: bool) {
        self.game = game;
        self.player.new_game();
        if new_game {
            self.reset_timers();
        }
    }

    /// Both clocks as at the start of a game.
    pub(crate) fn reset_timers(&mut self) {
        self.timers = [fresh_clock(self.control, self.time_per_turn); 2];
    }

    /// The game: its starting position, the turns since, the current position.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The komi (added to White by `final_score`).
    pub fn komi(&self) -> f64 {
        self.komi
    }

    /// The time control last set by `time_settings`.
    pub fn time_settings(&self) -> TimeSettings {
        self.time_settings
    }

    /// The clock of a colour last sent by `time_left`, if any.
    pub fn time_left(&self, color: sygo_rules::Color) -> Option<TimeLeft> {
        self.time_left[color.index()]
    }

    /// Whether `quit` has been answered: the loop should stop.
    pub fn quit_requested(&self) -> bool {
        self.quit
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
