//! `sygo.Player`: the built-in players (`random`, `uct`, `mcts` at a level
//! or with any setting), named by the one specification every program of
//! the project takes (`sygo_ai::PlayerSpec`: `mcts:level=3`,
//! `uct:visits=1000`), as OpenSpiel bots: `step(state)` gives the next
//! action; `choose_turn(state)` a whole turn; `analyze(state)` what the
//! search sees, with the fields of the protocol's `analyze`.

use std::sync::{Mutex, MutexGuard, TryLockError};
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use sygo_ai::view::AnalysisView;
use sygo_ai::{Analysis, Budget, MctsPlayer, Player, PlayerKind, PlayerSpec};
use sygo_rules::{Game, Position, Turn};

use crate::core::Core;
use crate::errors::{PlayerSpecError, illegal, refused};
use crate::state::PyState;

/// Reads a player specification.
pub(crate) fn read_spec(text: &str) -> PyResult<PlayerSpec> {
    text.parse()
        .map_err(|e: sygo_ai::SpecError| PlayerSpecError::new_err(e.to_string()))
}

/// A budget from Python's `visits` and `time` (seconds).
pub(crate) fn read_budget(visits: Option<u64>, time: Option<f64>) -> PyResult<Budget> {
    let time = match time {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 && t < 1e7 => Some(Duration::from_secs_f64(t)),
        Some(t) => {
            return Err(refused(format!(
                "time={t} is not a time: write seconds, more than 0"
            )));
        }
    };
    if visits == Some(0) {
        return Err(refused("visits=0: write a number of visits from 1"));
    }
    Ok(Budget { time, visits })
}

/// A built player: the strong one kept as itself, for its analysis.
enum Brain {
    Mcts(Box<MctsPlayer>),
    Other(Box<dyn Player>),
}

impl Brain {
    fn build(spec: &PlayerSpec, seed: u64) -> Brain {
        match spec.build_mcts(seed) {
            Some(mcts) => Brain::Mcts(Box::new(mcts)),
            None => Brain::Other(spec.build(seed)),
        }
    }

    fn player(&mut self) -> &mut dyn Player {
        match self {
            Brain::Mcts(p) => p.as_mut(),
            Brain::Other(p) => p.as_mut(),
        }
    }
}

/// What a player keeps between calls.
struct Inner {
    brain: Brain,
    /// The actions of the turn it chose, each with the hash of the state it
    /// is played in.
    plan: Vec<(u64, usize)>,
}

/// The actions that play `turn` from `core`, each with the hash of the
/// state it is played in; the stones in the order given (every step of a
/// legal turn, in its order, is a step action: the turn completes it), and
/// otherwise each stone as soon as it is an action.
pub(crate) fn plan_turn(core: &Core, turn: &Turn) -> Vec<(u64, usize)> {
    let numbering = core.numbering();
    let mut sim = core.clone();
    let mut plan = Vec::new();
    match turn {
        Turn::Pass | Turn::Resign => plan.push((sim.pos.hash(), numbering.pass())),
        Turn::Stones(points) => {
            let mut rest = points.clone();
            while let Some(i) = rest
                .iter()
                .position(|&p| sim.pos.completable_step(p).is_some())
            {
                let action = numbering.action_of(rest.remove(i));
                plan.push((sim.pos.hash(), action));
                if sim.apply_action(action as i64).is_err() {
                    break;
                }
            }
            if sim.pos.turn_in_progress() {
                plan.push((sim.pos.hash(), numbering.end()));
            }
        }
    }
    plan
}

/// A built-in player.
///
/// `Player(spec="mcts", seed=0, visits=None, time=None)`: `spec` as every
/// sygo program writes it (`random`, `uct`, `mcts`, `mcts:level=3`,
/// `mcts:threads=1,visits=2000`); `seed` its random choices; `visits` and
/// `time` (seconds) the budget of each turn (None: the player's own).
#[pyclass(module = "sygo", name = "Player")]
pub struct PyPlayer {
    spec: PlayerSpec,
    seed: u64,
    budget: Budget,
    inner: Mutex<Inner>,
}

impl PyPlayer {
    /// The player's insides. Refused while another thread uses them (it
    /// waits with the interpreter released: waiting here, holding it, could
    /// deadlock).
    fn lock(&self) -> PyResult<MutexGuard<'_, Inner>> {
        match self.inner.try_lock() {
            Ok(inner) => Ok(inner),
            // A panic in a search poisons the lock; the player is still whole.
            Err(TryLockError::Poisoned(e)) => Ok(e.into_inner()),
            Err(TryLockError::WouldBlock) => Err(refused(
                "the player is busy: it is choosing or analysing in another thread",
            )),
        }
    }

    /// Chooses a whole turn for the state (between turns, not over).
    fn choose(&self, py: Python<'_>, core: &Core) -> PyResult<Turn> {
        let pos = &core.pos;
        if pos.is_over() {
            return Err(illegal("the game is over"));
        }
        if pos.turn_in_progress() {
            return Err(illegal(
                "a turn is in progress: a player chooses whole turns, between turns",
            ));
        }
        let game = Game::new(pos.clone());
        let budget = self.budget;
        let mut inner = self.lock()?;
        let brain = &mut inner.brain;
        let decision = py.detach(|| brain.player().choose(&game, &budget));
        Ok(decision.turn)
    }
}

#[pymethods]
impl PyPlayer {
    #[new]
    #[pyo3(signature = (spec = "mcts", seed = 0, visits = None, time = None))]
    fn new(spec: &str, seed: u64, visits: Option<u64>, time: Option<f64>) -> PyResult<PyPlayer> {
        let spec = read_spec(spec)?;
        let budget = read_budget(visits, time)?;
        let brain = Brain::build(&spec, seed);
        Ok(PyPlayer {
            spec,
            seed,
            budget,
            inner: Mutex::new(Inner {
                brain,
                plan: Vec::new(),
            }),
        })
    }

    /// The specification, as written back (`mcts:level=3`).
    #[getter]
    fn spec(&self) -> String {
        self.spec.to_string()
    }

    /// The seed of the player's random choices.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// A short name: `random`, `uct`, `mcts 3`.
    fn name(&self) -> PyResult<String> {
        Ok(self.lock()?.brain.player().name())
    }

    /// The whole turn the player chooses for the side to move, as written
    /// (`D5,F7`, `pass`, `resign`). The state must be between turns.
    fn choose_turn(&self, py: Python<'_>, state: PyRef<'_, PyState>) -> PyResult<String> {
        let core = state.core.clone();
        drop(state);
        let turn = self.choose(py, &core)?;
        Ok(turn.to_notation(&core.geometry()))
    }

    /// The player's next action in `state` (as an OpenSpiel bot's `step`):
    /// at the start of a turn it chooses a whole turn and gives its first
    /// step; called again on the states that follow, it gives the rest and
    /// `end`. In a turn it did not start, it ends the turn. A player that
    /// would resign gives `pass` here (resigning is not an action;
    /// `choose_turn` says `resign`).
    fn step(&self, py: Python<'_>, state: PyRef<'_, PyState>) -> PyResult<usize> {
        let core = state.core.clone();
        drop(state);
        let hash = core.pos.hash();
        {
            let mut inner = self.lock()?;
            if let Some(i) = inner.plan.iter().position(|&(h, _)| h == hash) {
                let action = inner.plan[i].1;
                inner.plan.drain(..=i);
                return Ok(action);
            }
        }
        if core.pos.is_over() {
            return Err(illegal("the game is over"));
        }
        if core.pos.turn_in_progress() {
            let end = core.numbering().end();
            if core.is_legal(end as i64) {
                return Ok(end);
            }
            let mut first = None;
            core.for_each_legal_action(|a| {
                first.get_or_insert(a);
            });
            return first.ok_or_else(|| illegal("no action is legal here"));
        }
        let turn = self.choose(py, &core)?;
        let mut plan = plan_turn(&core, &turn);
        if plan.is_empty() {
            return Ok(core.numbering().pass());
        }
        let (_, action) = plan.remove(0);
        self.lock()?.plan = plan;
        Ok(action)
    }

    /// A new game starts: forget the turn planned and what was kept from
    /// the last game.
    fn new_game(&self) -> PyResult<()> {
        let mut inner = self.lock()?;
        inner.plan.clear();
        inner.brain.player().new_game();
        Ok(())
    }

    /// OpenSpiel's name for `new_game`.
    fn restart(&self) -> PyResult<()> {
        self.new_game()
    }

    /// What the search sees in `state` (only `mcts` searches), as a dict
    /// with the fields of the protocol's `analyze` and `sygo analyze
    /// --json`: `visits`, `win_rate` and `score_lead` (the side to move's),
    /// `candidates` (`turn`, `visits`, `win_rate`, `score_lead`, `pv`),
    /// `dangers` (`color`, `stones`, `liberties`, `turn`, `kind`,
    /// `growers`, `next_turn`), `points` and `ownership` (per point, in
    /// action order, +1 Black … −1 White), `to_move` and `game_over`. A
    /// finished game is not searched: its final score and owners. `visits`
    /// and `time` (seconds) override the player's budget.
    #[pyo3(signature = (state, visits = None, time = None))]
    fn analyze<'py>(
        &self,
        py: Python<'py>,
        state: PyRef<'_, PyState>,
        visits: Option<u64>,
        time: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let pos = state.core.pos.clone();
        drop(state);
        if self.spec.kind() != PlayerKind::Mcts {
            return Err(refused(format!(
                "cannot analyze: {} gives no analysis (only mcts analyses)",
                self.spec
            )));
        }
        if pos.is_over() {
            return analysis_dict(py, &pos, &Analysis::of_finished(&pos), true);
        }
        if pos.turn_in_progress() {
            return Err(illegal(
                "a turn is in progress: the search analyses positions between turns",
            ));
        }
        let mut budget = self.budget;
        if visits.is_some() || time.is_some() {
            budget = read_budget(visits, time)?;
        }
        let game = Game::new(pos.clone());
        let mut inner = self.lock()?;
        let Brain::Mcts(mcts) = &mut inner.brain else {
            return Err(refused("cannot analyze: only mcts analyses"));
        };
        let analysis = py.detach(|| mcts.analyze(&game, &budget));
        drop(inner);
        analysis_dict(py, &pos, &analysis, false)
    }

    fn __repr__(&self) -> String {
        format!(
            "sygo.Player({:?}, seed={})",
            self.spec.to_string(),
            self.seed
        )
    }
}

/// An analysis as a dict (see `PyPlayer::analyze`).
fn analysis_dict<'py>(
    py: Python<'py>,
    pos: &Position,
    analysis: &Analysis,
    over: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let view = AnalysisView::new(pos, analysis);
    let g = pos.geometry();
    let d = PyDict::new(py);
    d.set_item("to_move", pos.side_to_move().lowercase())?;
    d.set_item("game_over", over)?;
    d.set_item("visits", view.visits)?;
    d.set_item("win_rate", view.win_rate)?;
    d.set_item("score_lead", view.score_lead)?;
    let candidates = view
        .candidates
        .iter()
        .map(|c| {
            let e = PyDict::new(py);
            e.set_item("turn", &c.turn)?;
            e.set_item("visits", c.visits)?;
            e.set_item("win_rate", c.win_rate)?;
            e.set_item("score_lead", c.score_lead)?;
            e.set_item("pv", &c.pv)?;
            Ok(e)
        })
        .collect::<PyResult<Vec<_>>>()?;
    d.set_item("candidates", candidates)?;
    let dangers = view
        .dangers
        .iter()
        .map(|x| {
            let e = PyDict::new(py);
            e.set_item("color", x.color)?;
            e.set_item("stones", &x.stones)?;
            e.set_item("liberties", &x.liberties)?;
            e.set_item("turn", &x.turn)?;
            e.set_item("kind", x.kind)?;
            e.set_item("growers", x.growers)?;
            e.set_item("next_turn", x.next_turn)?;
            Ok(e)
        })
        .collect::<PyResult<Vec<_>>>()?;
    d.set_item("dangers", dangers)?;
    let points: Vec<String> = g.points().map(|p| g.vertex(p).to_string()).collect();
    d.set_item("points", points)?;
    d.set_item("ownership", AnalysisView::ownership(analysis))?;
    Ok(d)
}
