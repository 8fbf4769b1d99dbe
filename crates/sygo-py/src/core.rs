//! The state of a game as a sequence of actions, in plain Rust: what the
//! Python `State` wraps.
//!
//! The actions are the steps the AI's search takes (`sygo_ai::StepGame`),
//! by the same rule (`Position::for_each_completable_step` in the rules
//! crate): a stone the rules allow after which the turn can still be
//! completed, `end` once the turn has a stone and no group of the mover is
//! left without a liberty, `pass` at the start of a turn. A placement ends
//! its turn by itself. A growth step may leave its group without liberties
//! for a moment, to be rescued by a capture later in the same turn (docs/rules.md
//! §7): it is an action when such a rescue can still come, and `end` waits
//! for it. So every legal turn can be made by actions, and no action leads
//! to a turn that cannot be completed: a state with a turn in progress
//! always has `end` or a stone that leads on to it.
//!
//! Whole turns ([`Core::apply_turn`]) are played by the rules as written,
//! all or nothing, and recorded as the same actions.

use std::sync::Arc;

use sygo_rules::{Color, Game, Geometry, Outcome, Point, Position, StepKind, Turn, TurnError};

use crate::actions::{Action, Numbering};

/// OpenSpiel's player id of a terminal state.
pub(crate) const TERMINAL: i64 = -4;

/// What `returns()` gives at the end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Utility {
    /// +1 for the winner, −1 for the loser, 0 each for a draw.
    Win,
    /// The score margin: the player's score less the opponent's (komi
    /// counted for White); a resignation counts as the whole board.
    Score,
}

impl Utility {
    /// `win` or `score`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Utility::Win => "win",
            Utility::Score => "score",
        }
    }
}

/// A game's board and options: what `sygo.Game` holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Config {
    /// The board.
    pub(crate) geometry: Geometry,
    /// Whether Black may make the balance turn (docs/rules.md §6). Without it,
    /// every position counts a growth turn as played.
    pub(crate) balance_turn: bool,
    /// Added to White's score at the end (never part of the rules, §8).
    pub(crate) komi: f64,
    /// What `returns()` gives.
    pub(crate) utility: Utility,
}

impl Config {
    /// The numbering of the board's actions.
    pub(crate) fn numbering(&self) -> &'static Numbering {
        Numbering::of(self.geometry)
    }

    /// The most actions a game can take: every stone action adds a stone,
    /// a growth turn has one `end`, and no two passes follow each other
    /// before the last two: `P` stones, at most `P` ends, at most `P + 2`
    /// passes.
    pub(crate) fn max_game_length(&self) -> usize {
        3 * self.geometry.num_points() + 2
    }

    /// The lowest and highest value `returns()` can give.
    pub(crate) fn utility_range(&self) -> (f64, f64) {
        match self.utility {
            Utility::Win => (-1.0, 1.0),
            Utility::Score => {
                let n = self.geometry.num_points() as f64 + self.komi.abs();
                (-n, n)
            }
        }
    }

    /// `position` as a start for this game: with no balance turn, a growth
    /// turn counts as played.
    pub(crate) fn adopt(&self, mut position: Position) -> Position {
        if !self.balance_turn && !position.turn_in_progress() {
            // Between turns this cannot fail.
            let _ = position.set_growth_started(true);
        }
        position
    }

    /// The empty board of this game.
    pub(crate) fn empty(&self) -> Position {
        self.adopt(Position::new(self.geometry))
    }
}

/// An entry of the history: the action in the low 16 bits, and this flag on
/// a stone that was a placement (it ended its turn).
const PLACED: u32 = 1 << 16;
/// The entry of a resignation (not an action), with the index of the colour
/// that resigned in the low bit.
const RESIGN: u32 = 0xFFFF_FFF0;

/// The colour that resigned, if the entry is a resignation.
fn resigned(entry: u32) -> Option<Color> {
    let color = if entry & 1 == 0 {
        Color::Black
    } else {
        Color::White
    };
    (entry & !1 == RESIGN).then_some(color)
}

/// Why an action or turn is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The number is no action of this board.
    NotAnAction(String),
    /// Not allowed now: the rules' reason.
    Illegal(String),
}

/// A game in progress: where it started, the actions since, and the
/// position with the turn in progress.
#[derive(Clone, Debug)]
pub(crate) struct Core {
    /// The game's options.
    pub(crate) config: Config,
    /// The position the actions start from (between turns).
    pub(crate) start: Arc<Position>,
    /// The position now, with the turn in progress.
    pub(crate) pos: Position,
    /// Every action, in order (see [`PLACED`], [`RESIGN`]).
    history: Vec<u32>,
}

impl Core {
    /// A game from `start`, a position between turns.
    pub(crate) fn new(config: Config, start: Position) -> Core {
        let start = config.adopt(start);
        Core {
            config,
            pos: start.clone(),
            start: Arc::new(start),
            history: Vec::new(),
        }
    }

    /// The numbering of the board's actions.
    #[inline]
    pub(crate) fn numbering(&self) -> &'static Numbering {
        self.config.numbering()
    }

    /// The geometry.
    pub(crate) fn geometry(&self) -> Geometry {
        self.config.geometry
    }

    /// 0 for Black, 1 for White, [`TERMINAL`] once the game is over.
    #[inline]
    pub(crate) fn current_player(&self) -> i64 {
        if self.pos.is_over() {
            TERMINAL
        } else {
            self.pos.side_to_move().index() as i64
        }
    }

    /// Calls `f` with each legal action, in increasing order.
    pub(crate) fn for_each_legal_action(&self, mut f: impl FnMut(usize)) {
        let pos = &self.pos;
        if pos.is_over() {
            return;
        }
        let numbering = self.numbering();
        let mut stones: Vec<usize> = Vec::with_capacity(pos.vacant_count());
        pos.for_each_completable_step(|p, _| stones.push(numbering.action_of(p)));
        stones.sort_unstable();
        stones.into_iter().for_each(&mut f);
        if !pos.turn_in_progress() {
            f(numbering.pass());
        } else if pos.group_without_liberty().is_none() {
            f(numbering.end());
        }
    }

    /// Whether `action` is legal now.
    pub(crate) fn is_legal(&self, action: i64) -> bool {
        match self.numbering().decode(action) {
            None => false,
            Some(Action::Stone(p)) => self.pos.completable_step(p).is_some(),
            Some(Action::End) => self.pos.turn_in_progress() && self.pos.check_finish().is_ok(),
            Some(Action::Pass) => !self.pos.is_over() && !self.pos.turn_in_progress(),
        }
    }

    /// Plays one action.
    ///
    /// # Errors
    ///
    /// [`Refusal`] with the reason; the state is then unchanged.
    #[inline]
    pub(crate) fn apply_action(&mut self, action: i64) -> Result<(), Refusal> {
        let numbering = self.numbering();
        let Some(decoded) = numbering.decode(action) else {
            return Err(Refusal::NotAnAction(format!(
                "{action} is not an action of {}: write 0 to {} ({} a stone on each point, {} end, {} pass)",
                self.geometry(),
                numbering.pass(),
                if numbering.len() > 1 {
                    format!("0 to {}", numbering.len() - 1)
                } else {
                    "0".to_string()
                },
                numbering.end(),
                numbering.pass()
            )));
        };
        match decoded {
            Action::Stone(p) => self.play_stone(p, action as u32),
            Action::End => match self.pos.finish_turn() {
                Ok(()) => {
                    self.history.push(action as u32);
                    Ok(())
                }
                Err(e) => Err(Refusal::Illegal(e.to_string())),
            },
            Action::Pass => match self.pos.pass() {
                Ok(()) => {
                    self.history.push(action as u32);
                    Ok(())
                }
                Err(e) => Err(Refusal::Illegal(e.to_string())),
            },
        }
    }

    /// A stone on p, if the rules allow it and the turn can still be
    /// completed after it; a placement ends the turn.
    #[inline]
    fn play_stone(&mut self, p: Point, action: u32) -> Result<(), Refusal> {
        match self.pos.completable_step(p) {
            Some(StepKind::Growth) => {
                self.pos.play_step_unchecked(p);
                self.history.push(action);
                Ok(())
            }
            Some(StepKind::Placement) => {
                self.pos.play_step_unchecked(p);
                self.pos.finish_turn_unchecked();
                self.history.push(action | PLACED);
                Ok(())
            }
            None => Err(Refusal::Illegal(self.why_not(p))),
        }
    }

    /// Why a stone on p is not an action now: the rules' reason, or, for a
    /// growth the rules allow, that the turn could no longer be completed.
    fn why_not(&self, p: Point) -> String {
        match self.pos.check_step(p) {
            Err(e) => e.to_string(),
            Ok(_) => format!(
                "{} would leave a group without liberties that no capture later in this turn \
                 can give one: the turn could not be completed (docs/rules.md §7)",
                self.geometry().vertex(p)
            ),
        }
    }

    /// Plays a whole turn at the start of a turn, as the rules play it: all
    /// its stones and the end, a pass, or a resignation.
    ///
    /// # Errors
    ///
    /// The rules' [`TurnError`], as a [`Refusal`]; the state is unchanged.
    pub(crate) fn apply_turn(&mut self, turn: &Turn) -> Result<(), Refusal> {
        let refuse = |e: TurnError| Refusal::Illegal(e.to_string());
        match turn {
            Turn::Pass => {
                self.pos.pass().map_err(refuse)?;
                self.history.push(self.numbering().pass() as u32);
            }
            Turn::Resign => self.resign().map_err(refuse)?,
            Turn::Stones(points) => {
                if self.pos.is_over() {
                    return Err(refuse(TurnError::GameOver));
                }
                if self.pos.turn_in_progress() {
                    return Err(refuse(TurnError::TurnInProgress));
                }
                if points.is_empty() {
                    return Err(refuse(TurnError::NoStones));
                }
                let numbering = self.numbering();
                let mut next = self.pos.clone();
                let mut entries = Vec::with_capacity(points.len() + 1);
                for (index, &p) in points.iter().enumerate() {
                    let kind = next
                        .play_step(p)
                        .map_err(|error| refuse(TurnError::Step { index, error }))?;
                    let action = numbering.action_of(p) as u32;
                    entries.push(match kind {
                        StepKind::Placement => action | PLACED,
                        StepKind::Growth => action,
                    });
                }
                next.finish_turn()
                    .map_err(|e| refuse(TurnError::Finish(e)))?;
                if entries.last().is_some_and(|&e| e & PLACED == 0) {
                    entries.push(numbering.end() as u32);
                }
                self.pos = next;
                self.history.extend(entries);
            }
        }
        Ok(())
    }

    /// The side to move resigns.
    ///
    /// # Errors
    ///
    /// The game is over, or stones of the turn are pending.
    pub(crate) fn resign(&mut self) -> Result<(), TurnError> {
        self.resign_as(self.pos.side_to_move())
    }

    /// `color` resigns, on its turn or not (docs/rules.md §3).
    ///
    /// # Errors
    ///
    /// The game is over, or stones of the turn are pending.
    pub(crate) fn resign_as(&mut self, color: Color) -> Result<(), TurnError> {
        self.pos.resign_as(color)?;
        self.history.push(RESIGN | color.index() as u32);
        Ok(())
    }

    /// The actions played, in order (a resignation is none).
    pub(crate) fn history(&self) -> impl Iterator<Item = u32> + '_ {
        self.history
            .iter()
            .filter(|&&e| resigned(e).is_none())
            .map(|&e| e & (PLACED - 1))
    }

    /// The number of actions played.
    pub(crate) fn move_number(&self) -> usize {
        self.history().count()
    }

    /// The whole turns played, and the stones of the turn in progress.
    pub(crate) fn turns(&self) -> (Vec<Turn>, Vec<Point>) {
        let numbering = self.numbering();
        let mut turns = Vec::new();
        let mut stones = Vec::new();
        for &entry in &self.history {
            if resigned(entry).is_some() {
                turns.push(Turn::Resign);
                continue;
            }
            match numbering.decode(i64::from(entry & (PLACED - 1))) {
                Some(Action::Stone(p)) => {
                    stones.push(p);
                    if entry & PLACED != 0 {
                        turns.push(Turn::Stones(std::mem::take(&mut stones)));
                    }
                }
                Some(Action::End) => turns.push(Turn::Stones(std::mem::take(&mut stones))),
                Some(Action::Pass) => turns.push(Turn::Pass),
                None => {}
            }
        }
        (turns, stones)
    }

    /// The game of whole turns (the turn in progress left out), as the
    /// records and the players take it.
    pub(crate) fn game(&self) -> Game {
        let mut game = Game::new(self.start.as_ref().clone());
        for turn in self.turns().0 {
            let played = match (turn, self.pos.resigned()) {
                (Turn::Resign, Some(color)) => game.resign_as(color),
                (turn, _) => game.play(turn),
            };
            played.expect("a turn this state played replays identically");
        }
        game
    }

    /// Takes back the last action (a resignation counts as one); returns
    /// whether there was one. Replays the game from its start.
    pub(crate) fn undo(&mut self) -> bool {
        let Some(_) = self.history.pop() else {
            return false;
        };
        let history = std::mem::take(&mut self.history);
        *self = Core::replay(self.config, Arc::clone(&self.start), &history)
            .expect("the actions this state played replay identically");
        true
    }

    /// The raw history: actions, with the placement and resignation marks
    /// (what [`Core::replay`] takes).
    pub(crate) fn entries(&self) -> &[u32] {
        &self.history
    }

    /// The game from `start` after the raw history `entries`
    /// ([`Core::entries`]), every step checked by the rules.
    ///
    /// # Errors
    ///
    /// The first entry that is refused, with the reason.
    pub(crate) fn replay(
        config: Config,
        start: Arc<Position>,
        entries: &[u32],
    ) -> Result<Core, Refusal> {
        let mut core = Core {
            config,
            pos: start.as_ref().clone(),
            start,
            history: Vec::with_capacity(entries.len()),
        };
        let numbering = core.numbering();
        for &entry in entries {
            if let Some(color) = resigned(entry) {
                core.resign_as(color)
                    .map_err(|e| Refusal::Illegal(e.to_string()))?;
                continue;
            }
            match numbering.decode(i64::from(entry & (PLACED - 1))) {
                Some(Action::Stone(p)) => {
                    let kind = core
                        .pos
                        .play_step(p)
                        .map_err(|e| Refusal::Illegal(e.to_string()))?;
                    if kind == StepKind::Placement {
                        core.pos.finish_turn_unchecked();
                    }
                    core.history.push(match kind {
                        StepKind::Placement => entry | PLACED,
                        StepKind::Growth => entry & (PLACED - 1),
                    });
                }
                Some(Action::End | Action::Pass) => core.apply_action(i64::from(entry))?,
                None => {
                    return Err(Refusal::NotAnAction(format!(
                        "{entry} is not an action of {}",
                        core.geometry()
                    )));
                }
            }
        }
        Ok(core)
    }

    /// The score margin for Black at the end of a game by passes: Black's
    /// score less White's and the komi.
    pub(crate) fn black_margin(&self) -> f64 {
        let score = self.pos.score();
        f64::from(score.black) - f64::from(score.white) - self.config.komi
    }

    /// The winner with the komi counted: `Some(color)`, or `None` for a draw
    /// or a game not over.
    pub(crate) fn winner(&self) -> Option<Color> {
        match self.pos.outcome()? {
            Outcome::Resignation { winner } => Some(winner),
            Outcome::Score(_) => {
                let m = self.black_margin();
                if m > 0.0 {
                    Some(Color::Black)
                } else if m < 0.0 {
                    Some(Color::White)
                } else {
                    None
                }
            }
        }
    }

    /// The result as records write it, komi counted: `B+3`, `W+0.5`, `W+R`,
    /// `0`; `None` while the game goes on.
    pub(crate) fn result(&self) -> Option<String> {
        match self.pos.outcome()? {
            o @ Outcome::Resignation { .. } => Some(o.to_string()),
            Outcome::Score(score) => Some(score.result_with_komi(self.config.komi)),
        }
    }

    /// Each player's return, Black's first: 0 until the end.
    pub(crate) fn returns(&self) -> [f64; 2] {
        let Some(outcome) = self.pos.outcome() else {
            return [0.0, 0.0];
        };
        let black = match (self.config.utility, outcome) {
            (Utility::Win, _) => match self.winner() {
                Some(Color::Black) => 1.0,
                Some(Color::White) => -1.0,
                None => 0.0,
            },
            (Utility::Score, Outcome::Resignation { winner }) => {
                let n = self.geometry().num_points() as f64;
                if winner == Color::Black { n } else { -n }
            }
            (Utility::Score, Outcome::Score(_)) => self.black_margin(),
        };
        [black, -black]
    }
}
