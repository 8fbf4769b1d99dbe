//! The strong player: Monte-Carlo tree search over steps with knowledge
//! (priors, better playouts, a value that weighs the margin; RAVE and
//! progressive widening as options, off by default after arena runs: see
//! `docs/ai.md`), tree reuse between turns, one tree per core, and strength
//! levels.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use sygo_rules::{Color, Game, Position, Turn, Variant};

use crate::analysis::{Analysis, Candidate};
use crate::budget::Budget;
use crate::endgame::{Solution, SolveLimits, Solver, Verdict};
use crate::knowledge::{Keep, Learned, PlayoutSettings, PriorSettings, SygoPolicy, Weights};
use crate::options::{MEMORY_MIB, Opt, OptionError, THREADS, TIME_MS, VISITS};
use crate::player::{Decision, Player};
use crate::search::{
    GameState, Limits, Prior, Search, SearchConfig, Widening, merged_node_stats, run_parallel,
};
use crate::steps::{Step, StepGame};
use crate::turns::{self, TurnLine};

/// The strongest level; level 1 is the weakest.
pub const MAX_LEVEL: u8 = 6;

/// Everything that sets how [`MctsPlayer`] thinks. [`MctsSettings::level`]
/// gives the presets; each field can be changed on its own (and named in
/// [`MctsPlayer::from_options`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MctsSettings {
    /// Search threads (one tree each).
    pub threads: usize,
    /// Most simulations per turn (`None`: as many as the time allows).
    pub visits: Option<u64>,
    /// Time per turn when the budget gives neither time nor visits.
    pub default_time: Duration,
    /// Bytes for all the trees together.
    pub memory: usize,
    /// The exploration constant.
    pub exploration: f32,
    /// RAVE's equivalence parameter (`None`: no RAVE).
    pub rave_equivalence: Option<f32>,
    /// The weight of the score margin in the value, 0 to 1.
    pub margin_weight: f32,
    /// The weight of the static evaluation (stones won since the root) in
    /// the value, 0 to 1.
    pub static_weight: f32,
    /// The stones won that count as decisive in the static evaluation.
    pub static_scale: f32,
    /// Visits of a leaf before it is expanded.
    pub expand_after: u32,
    /// Progressive widening (`None`: every child from the start).
    pub widening: Option<Widening>,
    /// Keep the tree between turns.
    pub reuse: bool,
    /// Priors from features (`None`: every step even).
    pub priors: Option<PriorSettings>,
    /// The playout policy.
    pub playouts: PlayoutSettings,
    /// Resign when the win rate of the best turn falls below this, after at
    /// least [`MctsSettings::resign_visits`] simulations (`None`: never).
    pub resign_below: Option<f64>,
    /// See `resign_below`.
    pub resign_visits: u64,
    /// Resign only when this many turns in a row (of the same colour, in the
    /// same game) were hopeless: one search's win rate can be wrong in a game
    /// where a capture reverses a whole group.
    pub resign_turns: u32,
    /// The root safety check: a turn after which the opponent can reverse
    /// a group of ours of at least this many stones (the exact one-turn
    /// reading) gives way to another searched turn that hands over no such
    /// group, when that turn had at least a tenth of the best one's
    /// simulations and a win rate at most 0.05 lower (`None`:
    /// no check).
    pub safety: Option<usize>,
    /// Solve the endgame exactly ([`crate::endgame`]) when at most this many
    /// points are vacant at the start of a turn (0: never), and play the
    /// solver's turn when it proves a win or a draw.
    pub endgame_vacant: usize,
    /// The share of a turn's time the endgame solver may take (the search
    /// has the rest); with a budget of simulations only, the solver may
    /// search `endgame_nodes_per_visit` positions per simulation instead.
    pub endgame_share: f64,
    /// See `endgame_share`.
    pub endgame_nodes_per_visit: u64,
    /// Where the endgame solver proved the result, read on for the best
    /// final margin ([`crate::endgame::Solver::best_margin`], within the
    /// same limits again) and play the turn that reaches it, won, drawn or
    /// lost (unless it resigns a lost game): once the result is decided,
    /// every turn that keeps it is alike to wins and losses, and a player
    /// who counts keeps the most.
    pub endgame_margin: bool,
    /// Know results exactly in the tree and back them up (MCTS-Solver: see
    /// "Proven results" in [`crate::search`]).
    pub proofs: bool,
    /// With `proofs`, solve tree nodes at the start of a turn with at most
    /// this many vacant points with the endgame solver (0: never)...
    pub prove_vacant: usize,
    /// ... searching up to this many positions per visit of the node.
    pub prove_effort: u64,
    /// Once the result is decided, the margin decides among the turns that
    /// keep it (`SearchConfig::decided`), and the endgame solver's result
    /// is kept with the search's turn where it can be. Off by default: it
    /// solved six more tactics positions before the endgame solver read
    /// margins (`endgame_margin`), none more since, and lost games in
    /// self-play (`docs/ai.md`, Tactics).
    pub decided: bool,
    /// With `decided`, the search's children proven won at the root
    /// compete by their values (`SearchConfig::decided_root`).
    pub decided_root: bool,
    /// With `decided`, the turns read out of the trees put the proven wins
    /// in the order of their margins (`SearchConfig::decided_read`).
    pub decided_read: bool,
}

impl MctsSettings {
    /// The strongest settings: every core, no visit cap (the budget decides),
    /// the priors and the playout policy; no RAVE and no widening (each lost
    /// or gained nothing in arena runs).
    pub fn strongest() -> MctsSettings {
        MctsSettings {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            visits: None,
            default_time: Duration::from_secs(1),
            memory: 1 << 30,
            exploration: 0.14,
            rave_equivalence: None,
            margin_weight: 0.1,
            static_weight: 0.1,
            static_scale: 8.0,
            expand_after: 2,
            widening: None,
            reuse: true,
            priors: Some(PriorSettings::default()),
            playouts: PlayoutSettings::default(),
            resign_below: Some(0.02),
            resign_visits: 2000,
            resign_turns: 3,
            safety: Some(3),
            endgame_vacant: 16,
            endgame_share: 0.5,
            endgame_nodes_per_visit: 2,
            endgame_margin: true,
            proofs: true,
            prove_vacant: 12,
            prove_effort: 4,
            decided: false,
            decided_root: true,
            decided_read: true,
        }
    }

    /// The settings of a level, 1 (beginner) to [`MAX_LEVEL`] (strongest):
    /// the levels below the top differ only in their simulations per turn
    /// (50, 200, 800, 3,200, 12,800; each four times the one below) and
    /// search on one thread; the top level has no cap and every core.
    pub fn level(level: u8) -> Option<MctsSettings> {
        let mut settings = MctsSettings::strongest();
        let visits = match level {
            1 => 50,
            2 => 200,
            3 => 800,
            4 => 3_200,
            5 => 12_800,
            MAX_LEVEL => return Some(settings),
            _ => return None,
        };
        settings.visits = Some(visits);
        settings.threads = 1;
        settings.memory = 256 << 20;
        Some(settings)
    }

    /// Sets one setting from its name and text, as the arena and the command
    /// line write them: `threads=2`, `visits=5000`, `time=250` (ms, the
    /// default time per turn), `memory=512` (MiB), `c=0.14` (exploration),
    /// `rave=1000` (or `off`), `margin=0.1`, `static=0.1` (the weight of the
    /// stones won by captures since the root), `static_scale=8` (the stones
    /// that count as decisive there), `expand=2`, `widen=4/0.5` (or
    /// `off`: progressive widening, a node with N visits considering its
    /// 4 + N^0.5 children of highest prior), `reuse=on|off`,
    /// `priors=on|off`, `reading=on|off` (the priors read the groups in
    /// danger exactly; after `priors`), `balance=on|off` (the priors read
    /// Black's balance turn as growths, then a placement; after `priors`),
    /// `learned=on|off|only|mix` (the priors believe the learned step
    /// weights, with the hand-written tactical beliefs, with none or with
    /// all of them: [`crate::knowledge::Keep`]; after `priors`), `learned_weight=10` and
    /// `learned_temp=1` (their virtual visits and exponent: see
    /// [`Learned`]; after `learned`), `defence=N` (or `off`, the default:
    /// the priors read the defences of our groups in danger of N stones or
    /// more; after `priors`) and `defence_budget=400` (its positions a
    /// group), `tactics=0.9`, `eyes=on|off`, `grow=0.5` (the chance of another
    /// growth step in playouts; `auto`, the default: 1 on boards
    /// of at most 64 points, 0.9 beyond), `selfatari=N` (or `off`: playouts
    /// never put a group of N stones or more in atari), `uniform=0.2` (the
    /// share of uniformly random playouts), `playout_reading=0.9` (the
    /// chance that a playout's turn reads the captures next to the last
    /// turn exactly), `resign=0.02` (or
    /// `off`), `safety=3` (or `off`: the root safety check, see
    /// [`MctsSettings::safety`]), `endgame=16` (or `off`: the most vacant points at which the
    /// endgame is solved exactly), `endgame_share=0.5` (the share of the
    /// turn's time the solver may take), `endgame_margin=on|off` (where the
    /// result is proven, read on for the best final margin and play it),
    /// `proofs=on|off` (exact results
    /// backed up in the tree), `prove=12` (or `off`: the most vacant points
    /// at which tree nodes are solved), `prove_effort=4` (positions the
    /// solver may search per visit of such a node), `decided=on|off` (once
    /// the result is proven, the margin decides among the turns that keep
    /// it; off by default), `decided_root=on|off` (with `decided`, the
    /// children proven won at the root compete by their values),
    /// `decided_read=on|off` (with `decided`, the turns read out of the
    /// trees put proven wins in the order of their margins).
    ///
    /// # Errors
    ///
    /// An unknown name, a value that does not parse, or one out of the
    /// setting's range (threads 1 to 256, memory 1 to 65,536 MiB: see
    /// [`crate::options`]).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        let o = Opt::new(key, value);
        let fraction = || o.number(0.0f32..=1.0);
        match key {
            "threads" => self.threads = o.whole(THREADS)? as usize,
            "visits" => self.visits = o.unless_off(|o| o.whole(VISITS))?,
            "time" => self.default_time = Duration::from_millis(o.whole(TIME_MS)?),
            "memory" => self.memory = (o.whole(MEMORY_MIB)? as usize) << 20,
            "c" | "exploration" => self.exploration = o.number(0.0..=100.0)?,
            "rave" => self.rave_equivalence = o.unless_off(|o| o.number(1.0..=1e9))?,
            "margin" => self.margin_weight = fraction()?,
            "expand" => self.expand_after = o.whole(1..=1000)? as u32,
            "widen" => {
                self.widening = o.unless_off(|o| {
                    let (base, exponent) = o.pair()?;
                    Ok(Widening {
                        base: base.number(1.0..=1000.0)?,
                        exponent: exponent.number(0.0..=1.0)?,
                    })
                })?
            }
            "reuse" => self.reuse = o.switch()?,
            "static" => self.static_weight = fraction()?,
            "static_scale" => self.static_scale = o.number(0.1..=10_000.0)?,
            "priors" => self.priors = o.switch()?.then(PriorSettings::default),
            "reading" => {
                let on = o.switch()?;
                if let Some(priors) = &mut self.priors {
                    priors.reading = on;
                }
            }
            "balance" => {
                let on = o.switch()?;
                if let Some(priors) = &mut self.priors {
                    priors.balance = on;
                }
            }
            "learned" => {
                if let Some(priors) = &mut self.priors {
                    let keep = match value {
                        "only" => Some(Keep::Nothing),
                        "mix" => Some(Keep::Everything),
                        _ => o.switch()?.then_some(Keep::Tactics),
                    };
                    priors.learned = keep.map(|keep| Learned {
                        keep,
                        ..priors.learned.unwrap_or_default()
                    });
                }
            }
            "defence" => {
                let min = o.unless_off(|o| o.whole(1..=1000))?.map_or(0, |n| n as u32);
                if let Some(priors) = &mut self.priors {
                    priors.defence = min;
                }
            }
            "defence_budget" => {
                let budget = o.whole(1..=1_000_000)?;
                if let Some(priors) = &mut self.priors {
                    priors.defence_budget = budget;
                }
            }
            "learned_weight" | "learned_temp" => {
                let number = o.number(0.0f32..=1000.0)?;
                if let Some(learned) = self.priors.as_mut().and_then(|p| p.learned.as_mut()) {
                    if key == "learned_weight" {
                        learned.weight = number;
                    } else {
                        learned.temperature = number;
                    }
                }
            }
            "tactics" => self.playouts.tactics = fraction()?,
            "eyes" => self.playouts.keep_eyes = o.switch()?,
            "grow" => {
                self.playouts.continue_growth = match value {
                    "auto" => None,
                    _ => Some(fraction()?),
                };
            }
            "uniform" => self.playouts.uniform = fraction()?,
            "playout_reading" => self.playouts.reading = fraction()?,
            "selfatari" => {
                self.playouts.self_atari =
                    o.unless_off(|o| o.whole(1..=1000))?.map_or(0, |n| n as u32);
            }
            "resign" => self.resign_below = o.unless_off(|o| o.number(0.0..=1.0))?,
            "safety" => {
                self.safety = o.unless_off(|o| o.whole(1..=1000))?.map(|n| n as usize);
            }
            "endgame" => {
                self.endgame_vacant = o
                    .unless_off(|o| o.whole(0..=100))?
                    .map_or(0, |n| n as usize)
            }
            "endgame_share" => self.endgame_share = o.number(0.0..=1.0)?,
            "endgame_margin" => self.endgame_margin = o.switch()?,
            "proofs" => self.proofs = o.switch()?,
            "prove" => {
                self.prove_vacant = o.unless_off(|o| o.whole(0..=64))?.map_or(0, |n| n as usize)
            }
            "prove_effort" => self.prove_effort = o.whole(1..=1_000_000)?,
            "decided" => self.decided = o.switch()?,
            "decided_root" => self.decided_root = o.switch()?,
            "decided_read" => self.decided_read = o.switch()?,
            _ => {
                return Err(OptionError::Unknown {
                    player: "mcts",
                    key: key.to_string(),
                });
            }
        }
        Ok(())
    }

    fn search_config(&self) -> SearchConfig {
        SearchConfig {
            exploration: self.exploration,
            rave_equivalence: self.rave_equivalence,
            margin_weight: self.margin_weight,
            margin_scale: 10.0,
            static_weight: self.static_weight,
            transpositions: true,
            reuse: self.reuse,
            expand_after: self.expand_after.max(1),
            widening: self.widening,
            proofs: self.proofs,
            prove_effort: if self.prove_vacant > 0 {
                self.prove_effort
            } else {
                0
            },
            decided: self.decided,
            decided_root: self.decided_root,
            decided_read: self.decided_read,
            max_nodes: 0,
            max_edges: 0,
        }
        .with_memory(self.memory / self.threads.max(1))
    }
}

/// The strong player (module doc). Implements [`Player`]; its decisions
/// carry an [`Analysis`].
///
/// # Examples
///
/// ```
/// use sygo_ai::{Budget, MctsPlayer, Player};
/// use sygo_rules::{Game, Geometry, Position};
///
/// let mut game = Game::new(Position::new(Geometry::sygo(7).unwrap()));
/// let mut player = MctsPlayer::level(2, 1).unwrap();
/// let decision = player.choose(&game, &Budget::visits(200));
/// let analysis = decision.analysis.unwrap();
/// assert!(analysis.visits >= 200);
/// assert_eq!(analysis.candidates[0].turn, decision.turn);
/// game.play(decision.turn).unwrap();
/// ```
pub struct MctsPlayer {
    settings: MctsSettings,
    level: Option<u8>,
    searches: Vec<Search<StepGame, SygoPolicy>>,
    /// Completes turns where the tree stops (the highest prior step).
    completer: SygoPolicy,
    stop: Arc<AtomicBool>,
    seed: u64,
    /// Hopeless turns in a row, by colour (see `resign_turns`).
    hopeless: [u32; 2],
    /// The endgame solver, with what it proved earlier in the game.
    endgame: Solver,
}

impl MctsPlayer {
    /// A player with these settings; `seed` fixes its random choices (with a
    /// visit budget and one thread, its turns are reproducible).
    pub fn new(settings: MctsSettings, seed: u64) -> MctsPlayer {
        // The shipped weights are read once per process, on first use:
        // here, so that a first turn's time budget does not pay for it.
        if settings.priors.is_some_and(|p| p.learned.is_some()) {
            for variant in [Variant::Sygo, Variant::Hexsygo] {
                Weights::builtin(variant);
            }
        }
        let mut player = MctsPlayer {
            completer: SygoPolicy::new(settings.priors, settings.playouts, seed),
            settings,
            level: None,
            searches: Vec::new(),
            stop: Arc::new(AtomicBool::new(false)),
            seed,
            hopeless: [0; 2],
            endgame: Solver::new(),
        };
        player.build();
        player
    }

    /// The player of a level, 1 to [`MAX_LEVEL`] (see [`MctsSettings::level`]).
    pub fn level(level: u8, seed: u64) -> Option<MctsPlayer> {
        let mut player = MctsPlayer::new(MctsSettings::level(level)?, seed);
        player.level = Some(level);
        Some(player)
    }

    /// A player from options written `key=value`: `level=N` first (default
    /// the strongest), then any setting of [`MctsSettings::set`].
    ///
    /// # Errors
    ///
    /// An unknown option or a bad value, with a message for the user.
    pub fn from_options(
        seed: u64,
        options: &[(String, String)],
    ) -> Result<MctsPlayer, OptionError> {
        let mut level = MAX_LEVEL;
        for (key, value) in options {
            if key == "level" {
                level = Opt::new(key, value).whole(1..=MAX_LEVEL as u64)? as u8;
            }
        }
        let mut settings = MctsSettings::level(level).expect("a level in range");
        let mut changed = false;
        for (key, value) in options.iter().filter(|(k, _)| k != "level") {
            settings.set(key, value)?;
            changed = true;
        }
        let mut player = MctsPlayer::new(settings, seed);
        player.level = (!changed).then_some(level);
        Ok(player)
    }

    /// The settings.
    pub fn settings(&self) -> &MctsSettings {
        &self.settings
    }

    /// A flag that stops the search in progress when set (from another
    /// thread); the player then answers at once with what it has. Each search
    /// lowers it when it starts.
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    fn build(&mut self) {
        let config = self.settings.search_config();
        self.searches = (0..self.settings.threads.max(1))
            .map(|i| {
                let seed = self.seed.wrapping_add(0x9E37_79B9 * (i as u64 + 1));
                let policy = SygoPolicy::new(self.settings.priors, self.settings.playouts, seed)
                    .proving(self.settings.prove_vacant);
                Search::new(config.clone(), policy, seed)
            })
            .collect();
    }

    /// Searches the position of `game` within `budget` and returns every
    /// whole turn found, most visited first, with the root.
    fn search(
        &mut self,
        position: &Position,
        budget: &Budget,
        start: Instant,
    ) -> (StepGame, Vec<TurnLine>) {
        let root = StepGame::new(position.clone());
        self.set_roots(position, &root);
        let limits = self.turn_limits(budget, start);
        let lines = self.run_and_read(&root, &limits);
        (root, lines)
    }

    /// Runs every thread's search from `root` within `limits` (nothing when
    /// the game is over), then reads the whole turns found, most visited
    /// first, completed by the priors where the trees stop.
    fn run_and_read(&mut self, root: &StepGame, limits: &Limits) -> Vec<TurnLine> {
        if !root.is_over() {
            run_parallel(&mut self.searches, limits);
        }
        let completer = &mut self.completer;
        let mut complete =
            |s: &mut StepGame, steps: &mut Vec<Step>| complete_by_priors(completer, s, steps);
        turns::whole_turns(&self.searches, &[], root, 10, Some(&mut complete))
    }

    /// Searches the position of `game` within `budget` and says what the
    /// search sees, without choosing (the analysis of
    /// [`Player::choose`]'s decision).
    pub fn analyze(&mut self, game: &Game, budget: &Budget) -> Analysis {
        self.stop.store(false, Ordering::Relaxed);
        let (root, lines) = self.search(game.position(), budget, Instant::now());
        self.analysis(&root, &lines)
    }

    /// Searches on in the position of `game` from where the last search
    /// stopped, and says what the search sees: for analysis that reports as
    /// it goes, one slice at a time.
    ///
    /// When the trees already stand on this position, the slice adds to them
    /// and to the ownership counted so far, whatever the reuse setting; else
    /// it starts afresh as [`MctsPlayer::analyze`] does. The slice runs until
    /// the first limit of `budget` (an empty budget: until the flag of
    /// [`MctsPlayer::stop_handle`] is raised). The player's own cap on visits
    /// does not apply, and the flag is not lowered here: whoever raises it
    /// lowers it.
    ///
    /// # Examples
    ///
    /// ```
    /// use sygo_ai::{Budget, MctsPlayer, Player};
    /// use sygo_rules::{Game, Geometry, Position};
    ///
    /// let game = Game::new(Position::new(Geometry::sygo(5).unwrap()));
    /// let mut player = MctsPlayer::level(1, 3).unwrap();
    /// let first = player.ponder(&game, &Budget::visits(100));
    /// let more = player.ponder(&game, &Budget::visits(100));
    /// assert!(more.visits >= first.visits + 100);
    /// // A new game forgets the search.
    /// player.new_game();
    /// assert!(player.ponder(&game, &Budget::visits(100)).visits < more.visits);
    /// ```
    pub fn ponder(&mut self, game: &Game, budget: &Budget) -> Analysis {
        let start = Instant::now();
        let position = game.position();
        let root = StepGame::new(position.clone());
        let same = self
            .searches
            .iter()
            .all(|s| s.root_state().is_some_and(|r| r.position() == position));
        if !same {
            self.set_roots(position, &root);
        }
        let limits = Limits {
            visits: budget.visits,
            time: None,
            deadline: budget.time.map(|t| start + t),
            stop: Some(self.stop.clone()),
        };
        let lines = self.run_and_read(&root, &limits);
        self.analysis(&root, &lines)
    }

    /// Points every thread's search at `position` (`root` as the search's
    /// state): the value's margin scale for its board, the priors' root,
    /// the tree re-rooted, the ownership counted afresh.
    fn set_roots(&mut self, position: &Position, root: &StepGame) {
        let scale = (position.geometry().num_points() as f32 / 8.0).max(2.0);
        for search in &mut self.searches {
            search.set_margin_scale(scale);
            search
                .policy_mut()
                .set_root(position, self.settings.static_scale);
            search.set_root(root);
            search.policy_mut().playouts_mut().reset_ownership();
        }
    }

    /// The limits of this player's turn within `budget`, begun at `start`.
    fn turn_limits(&self, budget: &Budget, start: Instant) -> Limits {
        turn_limits(
            budget,
            self.settings.visits,
            self.settings.default_time,
            &self.stop,
            start,
        )
    }

    /// The endgame solver's answer in `position` within its limits for a
    /// turn started at `start`: the result alone, or with `margin` the best
    /// final margin too (`None`: too many vacant points, or the limits
    /// reached first).
    fn solve_endgame(
        &mut self,
        position: &Position,
        budget: &Budget,
        start: Instant,
        margin: bool,
    ) -> Option<Solution> {
        let limits = self.endgame_limits(position, budget, start)?;
        if margin {
            self.endgame.best_margin(position, &limits)
        } else {
            self.endgame.solve(position, &limits)
        }
    }

    /// What the endgame solver may search in `position` for a turn started
    /// at `start` within `budget`: `None` when it has too many vacant points.
    fn endgame_limits(
        &self,
        position: &Position,
        budget: &Budget,
        start: Instant,
    ) -> Option<SolveLimits> {
        if position.vacant_count() > self.settings.endgame_vacant {
            return None;
        }
        let limits = self.turn_limits(budget, start);
        let share = self.settings.endgame_share.clamp(0.0, 1.0);
        let solve_limits = SolveLimits {
            nodes: match limits.deadline {
                Some(_) => u64::MAX,
                None => limits
                    .visits
                    .unwrap_or(0)
                    .saturating_mul(self.settings.endgame_nodes_per_visit),
            },
            deadline: limits
                .deadline
                .map(|d| start + d.saturating_duration_since(start).mul_f64(share)),
            stop: Some(self.stop.clone()),
        };
        Some(solve_limits)
    }

    /// Among the search's first candidates (most visited first: the
    /// margin in the value ranks the turns that keep a decided result), the
    /// first that the endgame solver proves keeps `solution`'s result, as a
    /// solution; `solution` itself when none does (or the solver runs out of
    /// its limits). The solver's own turn is only the first it found to keep
    /// the result: in a won endgame, a pass as well as the capture of
    /// sixteen stones.
    fn searched_turn_keeping(
        &mut self,
        position: &Position,
        analysis: &Analysis,
        solution: Solution,
        budget: &Budget,
        start: Instant,
    ) -> Solution {
        let mover = position.side_to_move();
        for candidate in analysis.candidates.iter().take(CANDIDATES_CHECKED) {
            if candidate.turn == solution.turn {
                return solution;
            }
            let mut after = position.clone();
            if after.play_turn(&candidate.turn).is_err() {
                continue;
            }
            let kept = if after.is_over() {
                let result = match after.score().winner() {
                    Some(winner) if winner == mover => Verdict::Win,
                    Some(_) => Verdict::Loss,
                    None => Verdict::Draw,
                };
                result == solution.verdict
            } else {
                self.solve_endgame(&after, budget, start, false)
                    .is_some_and(|answer| answer.verdict == opposite(solution.verdict))
            };
            if kept {
                return Solution {
                    turn: candidate.turn.clone(),
                    ..solution
                };
            }
        }
        solution
    }

    fn analysis(&mut self, root: &StepGame, lines: &[TurnLine]) -> Analysis {
        let me = root.to_act();
        let stats = merged_node_stats(&self.searches, &[]).unwrap_or_default();
        let candidates = turns::candidates(&self.searches, root, lines, 10, 8, 2);
        // Ownership: the playouts of every thread, weighted by their number.
        let pos = root.position();
        let mut ownership = vec![0.0f32; pos.geometry().num_points()];
        let mut total = 0u64;
        for search in &self.searches {
            let (owners, n) = search.policy().playouts().ownership(pos);
            for (o, v) in ownership.iter_mut().zip(owners) {
                *o += v * n as f32;
            }
            total += n;
        }
        if total > 0 {
            ownership.iter_mut().for_each(|o| *o /= total as f32);
        }
        Analysis {
            visits: stats.visits,
            win_rate: stats.result_or_win_rate(me),
            score_lead: stats.score_lead(me),
            candidates,
            ownership,
        }
    }
}

/// The limits of one turn's search, for a search player that started
/// thinking at `start` (time spent setting up counts): the budget's visits
/// capped by the player's own `visits`, and a deadline at the budget's time
/// less [`safety_margin`], or at `default_time` when the budget gives
/// neither time nor visits; `stop` ends it early.
pub(crate) fn turn_limits(
    budget: &Budget,
    visits: Option<u64>,
    default_time: Duration,
    stop: &Arc<AtomicBool>,
    start: Instant,
) -> Limits {
    let visits = match (budget.visits, visits) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let time = match budget.time {
        Some(t) => Some(t.saturating_sub(safety_margin(t))),
        None if visits.is_none() => Some(default_time),
        None => None,
    };
    Limits {
        visits,
        time: None,
        deadline: time.map(|t| start + t),
        stop: Some(stop.clone()),
    }
}

/// What to keep back from a turn's time for what follows the search (the
/// turns read out of the trees, the threads joined, the answer sent): 2 ms
/// and 5% of the time, but never more than a tenth of it.
pub(crate) fn safety_margin(time: Duration) -> Duration {
    (Duration::from_millis(2) + time / 20).min(time / 10)
}

/// How many of the search's candidates the endgame solver checks, in a
/// position it proves won or drawn, before its own turn is played.
const CANDIDATES_CHECKED: usize = 3;

/// The result for the opponent that a result for the mover means.
fn opposite(verdict: Verdict) -> Verdict {
    match verdict {
        Verdict::Win => Verdict::Loss,
        Verdict::Draw => Verdict::Draw,
        Verdict::Loss => Verdict::Win,
    }
}

/// Puts the endgame solver's turn first in `analysis`, with the proven
/// result as its win rate (and the position's).
fn prove(analysis: &mut Analysis, solution: Solution) {
    let win_rate = f64::from(solution.verdict.result());
    let candidate = match analysis
        .candidates
        .iter()
        .position(|c| c.turn == solution.turn)
    {
        Some(i) => analysis.candidates.remove(i),
        None => Candidate {
            pv: vec![solution.turn.clone()],
            turn: solution.turn,
            visits: 0,
            win_rate,
            score_lead: 0.0,
        },
    };
    analysis.candidates.insert(
        0,
        Candidate {
            win_rate,
            ..candidate
        },
    );
    analysis.win_rate = win_rate;
    if let Some(margin) = solution.margin {
        analysis.score_lead = f64::from(margin);
        analysis.candidates[0].score_lead = f64::from(margin);
    }
}

/// Completes a turn by its highest prior steps: the completion rule of the
/// knowing player where the tree stops.
pub(crate) fn complete_by_priors(
    policy: &mut SygoPolicy,
    state: &mut StepGame,
    steps: &mut Vec<Step>,
) {
    let mut priors: Vec<(Step, Prior)> = Vec::new();
    let start = steps.len();

    // Until the turn ends: at least one step, then while a turn is in
    // progress.
    while !state.is_over() && (steps.len() == start || state.position().turn_in_progress()) {
        priors.clear();
        policy.step_priors(state, &mut priors);
        let Some(&(step, _)) = priors
            .iter()
            .rev()
            .max_by(|a, b| a.1.value.total_cmp(&b.1.value))
        else {
            break;
        };
        state.apply(step);
        steps.push(step);
    }
}

impl Player for MctsPlayer {
    fn analyzes(&self) -> bool {
        true
    }

    fn ponder(&mut self, game: &Game, budget: &Budget) -> Option<Analysis> {
        Some(MctsPlayer::ponder(self, game, budget))
    }

    fn stop_handle(&self) -> Option<Arc<AtomicBool>> {
        Some(MctsPlayer::stop_handle(self))
    }

    fn name(&self) -> String {
        match self.level {
            Some(level) => format!("mcts {level}"),
            None => "mcts".to_string(),
        }
    }

    fn choose(&mut self, game: &Game, budget: &Budget) -> Decision {
        let start = Instant::now();
        self.stop.store(false, Ordering::Relaxed);
        let solution = self.solve_endgame(game.position(), budget, start, false);
        let best_margin = match &solution {
            Some(_) if self.settings.endgame_margin => {
                self.solve_endgame(game.position(), budget, start, true)
            }
            _ => None,
        };
        let (root, lines) = self.search(game.position(), budget, start);
        let mut analysis = self.analysis(&root, &lines);
        // A proven loss read for its margin: the turn that loses by least,
        // unless the player resigns (below).
        let mut least_loss = None;
        if let Some(solution) = best_margin {
            if solution.verdict == Verdict::Loss {
                least_loss = Some(solution);
            } else {
                self.hopeless[game.position().side_to_move().index()] = 0;
                prove(&mut analysis, solution);
                return Decision {
                    turn: analysis.candidates[0].turn.clone(),
                    analysis: Some(analysis),
                };
            }
        }
        if let Some(solution) = solution.filter(|s| s.verdict != Verdict::Loss) {
            self.hopeless[game.position().side_to_move().index()] = 0;
            let solution = if self.settings.decided {
                self.searched_turn_keeping(game.position(), &analysis, solution, budget, start)
            } else {
                solution
            };
            prove(&mut analysis, solution);
            return Decision {
                turn: analysis.candidates[0].turn.clone(),
                analysis: Some(analysis),
            };
        }
        let mut turn = match lines.first() {
            Some(line) => turns::turn(line),
            None => {
                // No simulation got through (a budget of nothing): the
                // priors alone.
                let mut state = root.clone();
                let mut steps = Vec::new();
                complete_by_priors(&mut self.completer, &mut state, &mut steps);
                crate::steps::turn_of(&steps)
            }
        };
        // The share of simulations won, not a proven result: a position
        // proven lost is resigned only if the simulations say so too (the
        // opponent may still go wrong where the playouts do).
        let simulated =
            merged_node_stats(&self.searches, &[]).map_or(1.0, |s| s.win_rate(root.to_act()));
        let hopeless = self.settings.resign_below.is_some_and(|below| {
            analysis.visits >= self.settings.resign_visits
                && simulated < below
                && analysis.candidates.first().is_some_and(|c| {
                    c.win_rate < below && !a_capture_could_turn(game.position(), c.score_lead)
                })
        });
        let in_a_row = &mut self.hopeless[game.position().side_to_move().index()];
        *in_a_row = if hopeless { *in_a_row + 1 } else { 0 };
        let resign = *in_a_row >= self.settings.resign_turns.max(1);
        let safer = match self.settings.safety {
            Some(size) if least_loss.is_none() && !resign => {
                safer_candidate(game.position(), &analysis, size)
            }
            _ => None,
        };
        if let Some(i) = safer {
            // The turn played heads the analysis; the others keep their order.
            analysis.candidates[..=i].rotate_right(1);
            turn = analysis.candidates[0].turn.clone();
        }
        let turn = match least_loss {
            _ if resign => Turn::Resign,
            Some(solution) => {
                prove(&mut analysis, solution);
                analysis.candidates[0].turn.clone()
            }
            None => turn,
        };
        Decision {
            turn,
            analysis: Some(analysis),
        }
    }

    fn new_game(&mut self) {
        self.hopeless = [0; 2];
        self.endgame.clear();
        for search in &mut self.searches {
            search.clear();
            search.policy_mut().forget_proofs();
        }
    }
}

/// Whether the side to move can reverse an opponent group with this turn
/// (the exact one-turn reading) big enough to make up a deficit of
/// `-lead` points: a reversed group of n stones moves the margin by 2n.
/// The player resigns only when no such capture is there: the search's win
/// rate alone can be wrong in a game where one capture reverses a group.
fn a_capture_could_turn(pos: &Position, lead: f64) -> bool {
    if pos.turn_in_progress() {
        return false;
    }
    2.0 * biggest_reversible(pos, pos.side_to_move().opponent()) as f64 >= -lead
}

/// The number of stones of the biggest group of `color` that its opponent
/// can reverse with one turn on `pos` (the exact one-turn reading; 0: none).
fn biggest_reversible(pos: &Position, color: Color) -> usize {
    pos.dangers()
        .iter()
        .filter(|d| d.color == color)
        .map(|d| d.stones.len())
        .max()
        .unwrap_or(0)
}

/// How much lower a safer turn's win rate may be for the root safety check
/// ([`MctsSettings::safety`]) to play it instead of the best one.
const SAFETY_MARGIN: f64 = 0.05;

/// The biggest group of the mover that the opponent can reverse with their
/// next turn once `turn` is played on `pos` (0: none; `None`: the turn
/// cannot be played there).
fn handed_over(pos: &Position, turn: &Turn) -> Option<usize> {
    let mut after = pos.clone();
    after.play_turn(turn).ok()?;
    Some(biggest_reversible(&after, pos.side_to_move()))
}

/// The root safety check: when the best candidate of `analysis` hands the
/// opponent a group of at least `size` stones, the index of the most
/// visited other candidate that hands over none, has at least a tenth of
/// the best one's simulations and a win rate at most [`SAFETY_MARGIN`]
/// lower.
fn safer_candidate(pos: &Position, analysis: &Analysis, size: usize) -> Option<usize> {
    let best = analysis.candidates.first()?;
    if pos.turn_in_progress() || handed_over(pos, &best.turn)? < size {
        return None;
    }
    analysis
        .candidates
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, c)| {
            c.visits * 10 >= best.visits
                && c.win_rate >= best.win_rate - SAFETY_MARGIN
                && handed_over(pos, &c.turn).is_some_and(|n| n < size)
        })
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Black's A1–A2 (two stones) has one liberty, A3, next to White's A4:
    /// White to move can reverse it, which moves the margin by four points.
    #[test]
    fn a_capture_that_makes_up_the_deficit_forbids_resigning() {
        let pos: Position = "sygo 5 5/W4/5/BW3/BW3 w g 0".parse().unwrap();
        assert!(a_capture_could_turn(&pos, -3.0));
        assert!(a_capture_could_turn(&pos, -4.0));
        assert!(!a_capture_could_turn(&pos, -5.0));
        // Black to move has nothing to reverse: only the deficit counts.
        let pos: Position = "sygo 5 5/W4/5/BW3/BW3 b g 0".parse().unwrap();
        assert!(!a_capture_could_turn(&pos, -1.0));
        assert!(a_capture_could_turn(&pos, 0.0));
    }

    fn candidate(pos: &Position, turn: &str, visits: u64, win_rate: f64) -> Candidate {
        Candidate {
            turn: Turn::parse(turn, &pos.geometry()).unwrap(),
            visits,
            win_rate,
            score_lead: 0.0,
            pv: Vec::new(),
        }
    }

    /// Black's A1–A2 has one liberty, A3. The placement E5 hands it over;
    /// the growth A3 gives it A4 and B3, and White cannot fill both (only
    /// B1–B2 touches them). The check plays A3 when its win rate is close
    /// enough and it was searched enough, and otherwise leaves E5.
    #[test]
    fn the_safety_check_prefers_a_close_turn_that_keeps_the_group() {
        let pos: Position = "sygo 5 5/5/5/BW3/BW3 b g 0".parse().unwrap();
        let analysis = |second_visits, second_rate| Analysis {
            visits: 1000,
            win_rate: 0.6,
            score_lead: 0.0,
            candidates: vec![
                candidate(&pos, "E5", 600, 0.6),
                candidate(&pos, "D4", 300, 0.59),
                candidate(&pos, "A3", second_visits, second_rate),
            ],
            ownership: Vec::new(),
        };
        assert_eq!(
            handed_over(&pos, &Turn::parse("E5", &pos.geometry()).unwrap()),
            Some(2)
        );
        assert_eq!(
            handed_over(&pos, &Turn::parse("A3", &pos.geometry()).unwrap()),
            Some(0)
        );
        assert_eq!(safer_candidate(&pos, &analysis(100, 0.57), 2), Some(2));
        // Too few simulations, too low a win rate, or a group too small to
        // count: the best turn stays.
        assert_eq!(safer_candidate(&pos, &analysis(50, 0.57), 2), None);
        assert_eq!(safer_candidate(&pos, &analysis(100, 0.5), 2), None);
        assert_eq!(safer_candidate(&pos, &analysis(100, 0.57), 3), None);
    }
}
