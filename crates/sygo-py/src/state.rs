//! `sygo.State`: a game in progress, played one action at a time as
//! OpenSpiel plays games, or a whole turn at a time.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyAny;
use sygo_records::{GameInfo, Record};
use sygo_rules::{Color, Position, Turn, format_points};

use crate::arrays;
use crate::core::{Config, Core, Refusal};
use crate::errors::{IllegalMove, RecordError, illegal, parse, refused};
use crate::game::PyGame;
use crate::observation;
use crate::turns::{TooMany, legal_turns};

/// The arguments of `_restore_state` that make a state again (pickling):
/// the game, its start as a position string, the raw history.
type StateArgs = (PyGame, String, Vec<u32>);

/// A state of a game: the position, the turn in progress, and the actions
/// that led to it.
///
/// Player 0 is Black, player 1 White; White moves first. An action is a
/// stone on a point (0 … P − 1, in the order of `Game.points()`), `end`
/// (P: ends a growth turn) or `pass` (P + 1): the steps the AI searches.
/// Every refusal raises `sygo.IllegalMove` with the rules' reason and
/// leaves the state unchanged.
#[pyclass(module = "sygo", name = "State")]
#[derive(Clone)]
pub struct PyState {
    pub(crate) core: Core,
}

/// A refusal as its Python exception.
pub(crate) fn refusal(r: Refusal) -> PyErr {
    match r {
        Refusal::NotAnAction(m) | Refusal::Illegal(m) => IllegalMove::new_err(m),
    }
}

impl PyState {
    /// A state around a core.
    pub(crate) fn from_core(core: Core) -> PyState {
        PyState { core }
    }

    /// A state from a position string; the game's options if given (its
    /// board must be the string's), else the defaults.
    pub(crate) fn read_position(text: &str, config: Option<Config>) -> PyResult<PyState> {
        let position = Position::from_position_string(text).map_err(parse)?;
        let config = fit(config, &position)?;
        Ok(PyState::from_core(Core::new(config, position)))
    }

    /// A state from an SGF record: its start and main line. With a game,
    /// its options (the board must be the record's); without, the
    /// defaults with the record's komi.
    pub(crate) fn read_sgf(text: &str, config: Option<Config>) -> PyResult<PyState> {
        let record = Record::parse(text).map_err(|e| RecordError::new_err(e.to_string()))?;
        let config = match config {
            Some(c) => fit(Some(c), record.start())?,
            None => Config {
                komi: record.info().komi,
                ..fit(None, record.start())?
            },
        };
        let mut core = Core::new(config, record.start().clone());
        let game = record.main_line();
        for (i, (color, turn)) in game.turns_with_colors().enumerate() {
            let played = match turn {
                Turn::Resign => core
                    .resign_as(color)
                    .map_err(|e| Refusal::Illegal(e.to_string())),
                turn => core.apply_turn(turn),
            };
            played.map_err(|r| {
                let (Refusal::NotAnAction(m) | Refusal::Illegal(m)) = r;
                RecordError::new_err(format!(
                    "turn {} ({}) cannot be played in this game: {m}",
                    i + 1,
                    turn.to_notation(&config.geometry)
                ))
            })?;
        }
        Ok(PyState::from_core(core))
    }

    fn game(&self) -> PyGame {
        PyGame {
            config: self.core.config,
        }
    }

    /// Whether `player` (if given) may act now: OpenSpiel's `legal_actions(player)`
    /// is empty for the player not to move.
    fn acts(&self, player: Option<i64>) -> bool {
        player.is_none_or(|p| p == self.core.current_player())
    }

    /// The perspective of an observation: `player`, or the side to move
    /// (Black once the game is over).
    fn perspective(&self, player: Option<i64>) -> PyResult<Color> {
        match player {
            None if self.core.pos.is_over() => Ok(Color::Black),
            None => Ok(self.core.pos.side_to_move()),
            Some(0) => Ok(Color::Black),
            Some(1) => Ok(Color::White),
            Some(p) => Err(refused(format!(
                "{p} is not a player: 0 is Black, 1 is White"
            ))),
        }
    }

    /// The observation planes of the state from `color`'s view, flat.
    pub(crate) fn planes(&self, color: Color) -> Vec<f32> {
        let mut out = vec![0.0; observation::size(self.core.geometry())];
        observation::write(&self.core.pos, color, &mut out);
        out
    }

    /// A status line: who is to move and the turn so far, or the result.
    fn status(&self) -> String {
        let pos = &self.core.pos;
        let g = self.core.geometry();
        match self.core.result() {
            Some(result) => format!("{g}, game over: {result}"),
            None => {
                let mut s = format!("{g}, {} to move", pos.side_to_move().name());
                if pos.turn_in_progress() {
                    s.push_str(&format!(
                        ", turn in progress: {}",
                        format_points(&pos.turn_stones(), &g)
                    ));
                } else if pos.balance_available() {
                    s.push_str(" (the balance turn is available)");
                }
                s
            }
        }
    }
}

/// The options for a position: `config` if its board is the position's,
/// else the defaults of the position's board.
fn fit(config: Option<Config>, position: &Position) -> PyResult<Config> {
    let g = position.geometry();
    match config {
        Some(c) if c.geometry == g => Ok(c),
        Some(c) => Err(refused(format!(
            "the position is {g}, not {}: make the state with a game of its board",
            c.geometry
        ))),
        None => Ok(PyGame::of_board(g).config),
    }
}

/// The whole turns as written.
fn notations(turns: &[Turn], config: &Config) -> Vec<String> {
    turns
        .iter()
        .map(|t| t.to_notation(&config.geometry))
        .collect()
}

/// The game's methods that make a state (`Game.new_initial_state…`):
/// here, beside the state, so that the game's file does not import this one
/// (a second `#[pymethods]` block: pyo3's `multiple-pymethods`).
#[pymethods]
impl PyGame {
    /// The empty board, White to move.
    fn new_initial_state(&self) -> PyState {
        PyState::from_core(Core::new(self.config, self.config.empty()))
    }

    /// A state from a position string of this board (docs/position-string.md).
    fn new_initial_state_from_position(&self, position: &str) -> PyResult<PyState> {
        PyState::read_position(position, Some(self.config))
    }

    /// A state from an SGF record of this board: its main line played.
    fn new_initial_state_from_sgf(&self, sgf: &str) -> PyResult<PyState> {
        PyState::read_sgf(sgf, Some(self.config))
    }
}

#[pymethods]
impl PyState {
    /// A state from a position string (docs/position-string.md), with
    /// `game`'s options if given (its board must be the string's).
    #[staticmethod]
    #[pyo3(signature = (position, game = None))]
    fn from_position(position: &str, game: Option<PyRef<'_, PyGame>>) -> PyResult<PyState> {
        PyState::read_position(position, game.map(|g| g.config))
    }

    /// A state from an SGF record (docs/records.md): its main line played,
    /// with `game`'s options if given, else the defaults and the record's
    /// komi. Raises `sygo.RecordError` for a record that cannot be read.
    #[staticmethod]
    #[pyo3(signature = (sgf, game = None))]
    fn from_sgf(sgf: &str, game: Option<PyRef<'_, PyGame>>) -> PyResult<PyState> {
        PyState::read_sgf(sgf, game.map(|g| g.config))
    }

    /// The game this state belongs to.
    fn get_game(&self) -> PyGame {
        self.game()
    }

    /// 0 (Black) or 1 (White) to act, or -4 (`sygo.TERMINAL`) once the game
    /// is over.
    fn current_player(&self) -> i64 {
        self.core.current_player()
    }

    /// The legal actions, in increasing order: the stones the rules allow
    /// after which the turn can still be completed, then `end` during a
    /// growth turn (once no group of the mover lacks a liberty) or `pass`
    /// at the start of a turn. Empty once the game is over, or for a
    /// `player` not to move.
    #[pyo3(signature = (player = None))]
    fn legal_actions(&self, player: Option<i64>) -> Vec<usize> {
        let mut out = Vec::new();
        if self.acts(player) {
            self.core.for_each_legal_action(|a| out.push(a));
        }
        out
    }

    /// One 0/1 entry per action: 1 where the action is legal.
    #[pyo3(signature = (player = None))]
    fn legal_actions_mask(&self, player: Option<i64>) -> Vec<i32> {
        let mut mask = vec![0; self.core.numbering().count()];
        if self.acts(player) {
            self.core.for_each_legal_action(|a| mask[a] = 1);
        }
        mask
    }

    /// Whether `action` is legal now.
    fn is_legal(&self, action: i64) -> bool {
        self.core.is_legal(action)
    }

    /// Plays an action. Raises `sygo.IllegalMove` with the reason if it is
    /// not legal now; the state is then unchanged.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        self.core.apply_action(action).map_err(refusal)
    }

    /// Plays a whole turn written as in docs/rules.md §3 (`D4`, `D5,F7`, `pass`,
    /// `resign`), at the start of a turn, as the rules play it: all of it
    /// or nothing. Raises `sygo.ParseError` for text that is not a turn,
    /// `sygo.IllegalMove` with the rules' reason for a turn refused.
    fn apply_turn(&mut self, turn: &str) -> PyResult<()> {
        let turn = Turn::parse(turn.trim(), &self.core.geometry()).map_err(parse)?;
        self.core.apply_turn(&turn).map_err(refusal)
    }

    /// Every whole turn the actions can make from here, which is every
    /// legal turn (between turns: pass first; during a turn: the turns that complete it,
    /// its stones first), each once, as written. Raises `sygo.SygoError` if
    /// there are more than `limit` (growth turns multiply: each group
    /// grows at any of its liberties, or not).
    #[pyo3(signature = (limit = 100_000))]
    fn legal_turns(&self, py: Python<'_>, limit: usize) -> PyResult<Vec<String>> {
        let pos = self.core.pos.clone();
        let found = py.detach(|| legal_turns(&pos, limit));
        match found {
            Ok(turns) => Ok(notations(&turns, &self.core.config)),
            Err(TooMany(n)) => Err(refused(format!(
                "more than {n} whole turns: pass a larger limit, or play step by step"
            ))),
        }
    }

    /// The player to move resigns (always legal between turns; resigning is
    /// not an action). Raises `sygo.IllegalMove` once the game is over or
    /// while stones of the turn are pending.
    fn resign(&mut self) -> PyResult<()> {
        self.core.resign().map_err(illegal)
    }

    /// Takes back the last action (or resignation); returns whether there
    /// was one. It replays the game from its start.
    fn undo(&mut self) -> bool {
        self.core.undo()
    }

    /// OpenSpiel's `undo_action(player, action)`: takes back the last
    /// action, which must be `action`, played by `player`.
    fn undo_action(&mut self, player: i64, action: i64) -> PyResult<()> {
        let last = self.core.history().last().map(i64::from);
        if last != Some(action) {
            return Err(refused(format!(
                "the last action is {last:?}, not {action}"
            )));
        }
        let mut before = self.core.clone();
        before.undo();
        if before.current_player() != player {
            return Err(refused(format!(
                "action {action} was played by player {}, not {player}",
                before.current_player()
            )));
        }
        self.core = before;
        Ok(())
    }

    /// An action as written: `D4`, `end` or `pass`. Takes `(action)` or,
    /// as OpenSpiel, `(player, action)`.
    #[pyo3(signature = (first, second = None))]
    fn action_to_string(&self, first: i64, second: Option<i64>) -> PyResult<String> {
        self.game().write_action(second.unwrap_or(first))
    }

    /// The action written `text` (`D4`, `end`, `pass`; case does not
    /// matter). Takes `(text)` or, as OpenSpiel, `(player, text)`.
    #[pyo3(signature = (first, second = None))]
    fn string_to_action(&self, first: &Bound<'_, PyAny>, second: Option<&str>) -> PyResult<usize> {
        let text: String = match second {
            Some(text) => text.to_string(),
            None => first.extract()?,
        };
        self.game().read_action(&text)
    }

    /// Whether the game is over (two passes, or a resignation).
    fn is_terminal(&self) -> bool {
        self.core.pos.is_over()
    }

    /// Always False: Sygo has no chance.
    fn is_chance_node(&self) -> bool {
        false
    }

    /// Always False: the players take turns.
    fn is_simultaneous_node(&self) -> bool {
        false
    }

    /// Whether a player is to act (the game is not over).
    fn is_player_node(&self) -> bool {
        !self.core.pos.is_over()
    }

    /// `[Black's, White's]` return: 0 until the end; then per the game's
    /// utility (`win`: +1/−1/0, komi counted; `score`: the score margin,
    /// a resignation counting as the whole board).
    fn returns(&self) -> Vec<f64> {
        self.core.returns().to_vec()
    }

    /// The rewards of the last action: the returns once the game is over,
    /// 0 before (the only reward is at the end).
    fn rewards(&self) -> Vec<f64> {
        self.core.returns().to_vec()
    }

    /// One player's return.
    fn player_return(&self, player: i64) -> PyResult<f64> {
        let color = self.perspective(Some(player))?;
        Ok(self.core.returns()[color.index()])
    }

    /// One player's reward for the last action.
    fn player_reward(&self, player: i64) -> PyResult<f64> {
        self.player_return(player)
    }

    /// The score now (docs/rules.md §8): `(black, white)`, stones plus territory,
    /// without komi.
    fn score(&self) -> (u32, u32) {
        let s = self.core.pos.score();
        (s.black, s.white)
    }

    /// The result once the game is over, komi counted: `B+3`, `W+0.5`,
    /// `W+R`, `0`; None before.
    fn result(&self) -> Option<String> {
        self.core.result()
    }

    /// The winner once the game is over (0 Black, 1 White), None for a draw
    /// or a game not over.
    fn winner(&self) -> Option<usize> {
        self.core.winner().map(Color::index)
    }

    /// The actions played, in order.
    fn history(&self) -> Vec<u32> {
        self.core.history().collect()
    }

    /// The actions played, as a string of numbers.
    fn history_str(&self) -> String {
        self.core
            .history()
            .map(|a| a.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The number of actions played.
    fn move_number(&self) -> usize {
        self.core.move_number()
    }

    /// The whole turns played, as written (`D4`, `D5,F7`, `pass`,
    /// `resign`); the turn in progress is not one yet.
    fn turns(&self) -> Vec<String> {
        notations(&self.core.turns().0, &self.core.config)
    }

    /// The stones of the turn in progress, as written.
    fn turn_stones(&self) -> Vec<String> {
        let g = self.core.geometry();
        self.core
            .pos
            .turn_stones()
            .iter()
            .map(|&p| g.vertex(p).to_string())
            .collect()
    }

    /// Whether stones of a turn are pending (`end` ends it).
    fn turn_in_progress(&self) -> bool {
        self.core.pos.turn_in_progress()
    }

    /// Whether the mover may end this turn's growth with a placement:
    /// Black, while no growth turn has been played.
    fn balance_available(&self) -> bool {
        self.core.pos.balance_available()
    }

    /// The Zobrist hash of the state (the turn in progress included): equal
    /// states hash alike, whatever order their growth steps came in.
    fn zobrist_hash(&self) -> u64 {
        self.core.pos.hash()
    }

    /// The position string (docs/position-string.md). Positions are between
    /// turns: raises `sygo.SygoError` while a turn is in progress.
    fn position(&self) -> PyResult<String> {
        if self.core.pos.turn_in_progress() {
            return Err(refused(format!(
                "a turn is in progress ({}): a position string is written between turns; end the turn first",
                self.turn_stones().join(",")
            )));
        }
        Ok(self.core.pos.to_position_string())
    }

    /// The game as an SGF record (docs/records.md): its start, the whole
    /// turns played (not the stones of a turn in progress), the result once
    /// over, the komi, and the names and date if given.
    #[pyo3(signature = (black = None, white = None, date = None))]
    fn to_sgf(&self, black: Option<String>, white: Option<String>, date: Option<String>) -> String {
        let info = GameInfo {
            black,
            white,
            date,
            result: None,
            komi: self.core.config.komi,
        };
        Record::from_game(&self.core.game(), info).to_sgf()
    }

    /// The observation tensor from `player`'s view (the side to move by
    /// default), a NumPy `float32` array of shape
    /// `Game.observation_tensor_shape()`: the planes of docs/python.md.
    #[pyo3(signature = (player = None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let color = self.perspective(player)?;
        let planes = self.planes(color);
        let shape = observation::shape(self.core.geometry());
        arrays::from_bytes(py, &arrays::f32_bytes(&planes), "float32", &shape)
    }

    /// The same as `observation_tensor` (Sygo has perfect information).
    #[pyo3(signature = (player = None))]
    fn information_state_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.observation_tensor(py, player)
    }

    /// The board as text: `str(state)`.
    #[pyo3(signature = (player = None))]
    fn observation_string(&self, player: Option<i64>) -> String {
        let _ = player;
        self.__str__()
    }

    /// The board as text: `str(state)`.
    #[pyo3(signature = (player = None))]
    fn information_state_string(&self, player: Option<i64>) -> String {
        let _ = player;
        self.__str__()
    }

    /// A copy, independent of this state.
    fn clone(&self) -> PyState {
        Clone::clone(self)
    }

    fn __copy__(&self) -> PyState {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        Clone::clone(self)
    }

    /// A line of status and the board drawn in text: `X` Black, `O` White,
    /// lower case for the stones of the turn in progress.
    fn __str__(&self) -> String {
        format!("{}\n{}", self.status(), self.core.pos.diagram())
    }

    fn __repr__(&self) -> String {
        let pos = &self.core.pos;
        if pos.turn_in_progress() {
            format!(
                "<sygo.State {} +{}>",
                pos.turn_start().to_position_string(),
                self.turn_stones().join(",")
            )
        } else {
            format!("<sygo.State {}>", pos.to_position_string())
        }
    }

    /// Pickling: the game, the start and the actions, replayed on loading.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, StateArgs)> {
        let restore = py.import("sygo._sygo")?.getattr("_restore_state")?;
        Ok((
            restore,
            (
                self.game(),
                self.core.start.to_position_string(),
                self.core.entries().to_vec(),
            ),
        ))
    }
}

/// Unpickles a state: `game`, its start as a position string, and the raw
/// history, replayed.
#[pyfunction]
pub(crate) fn _restore_state(
    game: PyRef<'_, PyGame>,
    start: &str,
    history: Vec<u32>,
) -> PyResult<PyState> {
    let position = Position::from_position_string(start).map_err(parse)?;
    let config = fit(Some(game.config), &position)?;
    let core = Core::replay(config, Arc::new(config.adopt(position)), &history).map_err(refusal)?;
    Ok(PyState::from_core(core))
}
