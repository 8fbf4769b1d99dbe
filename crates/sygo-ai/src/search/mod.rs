//! Monte-Carlo tree search, generic over a small game trait.
//!
//! The search knows nothing of Sygo: it explores any two-player game that
//! implements [`GameState`] (a state, its legal actions, its hash, its
//! result), with the knowledge a [`Policy`] brings (priors for new actions, a
//! playout to the end of the game, the keys that all-moves-as-first
//! statistics share). The Sygo players plug the rules library in through
//! `StepGame`; the tests drive the same code on toy games whose
//! best move is known.
//!
//! # One iteration, file by file
//!
//! ```text
//!  select.rs   from the root, the child with the best score, down to a leaf
//!  expand.rs   a leaf visited often enough gets its children (with priors)
//!  playout.rs  from the new leaf, the policy plays the game to its end
//!  backup.rs   the result goes back up the path, and into the AMAF statistics
//! ```
//!
//! `tree.rs` keeps the nodes and edges in two pools with a cap, merges
//! transpositions through a table keyed by the state's hash, and re-roots the
//! tree between turns (keeping what lies below the new root, freeing the
//! rest). `proofs.rs` backs exact results up the tree (below, "Proven
//! results"). `time.rs` says when to stop; `results.rs` reads the tree (alone or
//! merged with the trees of other threads); `threads.rs` runs one tree per
//! core (root parallelism).
//!
//! # The value
//!
//! A playout's [`Outcome`] is player 0's result (1 win, ½ draw, 0 loss) and
//! score margin. The value backed up mixes them:
//! `(1 − λ − μ)·result + λ·(½ + ½·tanh(margin / scale)) + μ·(½ + ½·s)` with
//! λ = [`SearchConfig::margin_weight`], scale = [`SearchConfig::margin_scale`],
//! μ = [`SearchConfig::static_weight`] and `s` the policy's static evaluation
//! of the leaf ([`Policy::static_eval`]), so that among won lines the search
//! prefers wider wins, and among lost lines narrower losses, without ever
//! preferring a big loss to a small win; the static part gives weight to what
//! the tree's own steps won, which the playouts' noise hides.
//!
//! # The score of a child
//!
//! With `n` real visits and mean value `q` (for the player who chooses), a
//! prior of `w` virtual visits at value `p`, and AMAF statistics of `m`
//! visits at mean `r`:
//!
//! ```text
//!  q' = (n·q + w·p) / (n + w)                 the prior as virtual experience
//!  β  = m / (m + n + m·n / E)                 RAVE weight, E = rave_equivalence
//!  score = (1 − β)·q' + β·r + c·√(ln N / (n + 1))
//! ```
//!
//! An action with no experience at all (no visit, no prior, no AMAF) scores
//! +∞, so plain UCT ([`SearchConfig::uct`]: c = √2, no prior, no RAVE) tries
//! every child once, in random order, before it compares them.
//!
//! # Proven results
//!
//! With [`SearchConfig::proofs`] the tree also knows some results exactly
//! (MCTS-Solver): a state where the game is over, a state the policy proves
//! ([`Policy::prove`], asked when a node's visits reach a power of two, with
//! work in proportion to them), and a state whose results the tree's own
//! children prove: one child won for the player who chooses makes it won,
//! and once every child is proven it takes the chooser's best of them. A
//! simulation that reaches a proven state backs up its exact result without
//! a playout.
//!
//! The root is the exception. Below a root proven won or drawn the search
//! goes on, since the turn that keeps the result is found only where the
//! root's children are proven (and the policy is not asked about the root,
//! for the same reason). Below a root proven lost the search goes on as if
//! nothing were proven: every turn loses, and the simulations, with the
//! margin in their value, tell which loses by least and gives the opponent
//! most chances to go wrong (a proof ending every simulation would leave
//! the choice to the few visits made before it), and they keep the share
//! of simulations won that resignation looks at.
//!
//! Selection never takes a child proven lost for the chooser while another
//! is left, and below the root takes one proven won at once (the node is
//! then proven too, and ends the simulations that reach it). At the root
//! the children proven won compete with the others by their values, so
//! that the visits, and the margins in the values, say which of several
//! winning turns wins by most. The readers put proven wins first and
//! proven losses last ([`ChildStats::proven`]), and order the proven wins
//! by their mean margin ([`ChildStats::order`]): once the result is
//! decided, the margin decides.

mod backup;
mod expand;
mod playout;
mod proofs;
mod results;
mod select;
mod threads;
mod time;
mod tree;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

pub(crate) use results::best;
pub use results::{
    ChildStats, DECIDED_VISITS, NodeStats, decided_visits, merged_children, merged_node_stats,
};
pub use threads::run_parallel;
pub use time::Limits;
pub(crate) use tree::KeyHasher;

use tree::{Proven, Tree};

/// A state of a two-player game, as the search sees it. Players are 0 and 1.
///
/// The state may be in the middle of a player's turn (Sygo's growth steps):
/// [`GameState::to_act`] is then the same player for several actions in a
/// row, and the search needs nothing more.
pub trait GameState: Clone + Send {
    /// One action: a move, or a step of one.
    type Action: Copy + PartialEq + fmt::Debug + Send + Sync + 'static;

    /// The player who chooses the next action: 0 or 1.
    fn to_act(&self) -> usize;

    /// A hash of the whole state: equal states hash alike, whatever order of
    /// actions reached them (transpositions are merged on it), and different
    /// states almost never do.
    fn state_hash(&self) -> u64;

    /// Whether the game is over.
    fn is_over(&self) -> bool;

    /// The legal actions; at least one unless the game is over.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);

    /// Plays a legal action.
    fn apply(&mut self, action: Self::Action);

    /// The result of a game that is over.
    fn final_outcome(&self) -> Outcome;
}

/// How a playout (or a finished game) ended, for player 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Player 0's result: 1 a win, ½ a draw, 0 a loss.
    pub result: f32,
    /// Player 0's score margin (points ahead; negative when behind).
    pub margin: f32,
    /// The policy's static evaluation of the leaf the playout started from,
    /// player 0's view, −1 to 1 (0: none; see [`Policy::static_eval`]).
    pub static_eval: f32,
}

impl Outcome {
    /// The outcome from a margin alone: its sign decides the result.
    pub fn from_margin(margin: f32) -> Outcome {
        let result = if margin > 0.0 {
            1.0
        } else if margin < 0.0 {
            0.0
        } else {
            0.5
        };
        Outcome {
            result,
            margin,
            static_eval: 0.0,
        }
    }
}

/// Prior knowledge of an action: `weight` virtual visits at `value` (for the
/// player who chooses it). A weight of 0 is no knowledge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prior {
    /// The value the prior believes in, 0 to 1.
    pub value: f32,
    /// How many visits that belief is worth.
    pub weight: f32,
}

impl Prior {
    /// No knowledge.
    pub const NONE: Prior = Prior {
        value: 0.5,
        weight: 0.0,
    };
}

/// The actions played in one simulation, in order, as AMAF keys with the
/// player who played each ([`Policy::amaf_key`]): what all-moves-as-first
/// statistics are made of. A playout records its own actions with
/// [`Trace::record`].
#[derive(Clone, Debug, Default)]
pub struct Trace {
    entries: Vec<(u32, u8)>,
}

impl Trace {
    /// The key that stands for an action with no AMAF key.
    pub const NO_KEY: u32 = u32::MAX;

    /// Records that `player` played the action with AMAF key `key`.
    #[inline]
    pub fn record(&mut self, player: usize, key: u32) {
        self.entries.push((key, player as u8));
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn clear(&mut self) {
        self.entries.clear();
    }
}

/// The knowledge a search uses: the actions of a new node with their priors,
/// and the playout that evaluates a leaf. One policy per search (per thread):
/// it may keep scratch space and its own random generator.
pub trait Policy<G: GameState>: Send {
    /// The actions of a new node, with their priors. By default every legal
    /// action, with no prior.
    fn expand(&mut self, state: &G, out: &mut Vec<(G::Action, Prior)>) {
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        out.extend(actions.into_iter().map(|a| (a, Prior::NONE)));
    }

    /// Plays `state` (not over) to the end of the game and returns the
    /// outcome; records the actions it plays in `trace` if it keeps AMAF keys.
    fn playout(&mut self, state: &mut G, trace: &mut Trace) -> Outcome;

    /// A static evaluation of a leaf before its playout, player 0's view,
    /// −1 to 1, mixed into the value with weight
    /// [`SearchConfig::static_weight`]. By default none (0).
    fn static_eval(&mut self, _state: &G) -> f32 {
        0.0
    }

    /// The exact result of `state` for player 0 (1 a win, ½ a draw, 0 a
    /// loss) with best play on both sides, if the policy can prove it within
    /// `effort`; `None` otherwise. By default it proves nothing. Asked only
    /// with [`SearchConfig::proofs`] and a [`SearchConfig::prove_effort`].
    fn prove(&mut self, _state: &G, _effort: &Effort) -> Option<f32> {
        None
    }

    /// The key under which AMAF statistics of `action` are shared (Sygo: the
    /// point a stone goes on), or `None` for an action that shares nothing.
    fn amaf_key(&self, _action: G::Action) -> Option<u32> {
        None
    }

    /// One more than the largest AMAF key (0: no AMAF keys).
    fn amaf_keys(&self) -> usize {
        0
    }
}

/// How much a policy may spend proving a state ([`Policy::prove`]).
#[derive(Clone, Debug, Default)]
pub struct Effort {
    /// Units of work (the policy's own: positions searched, say).
    pub work: u64,
    /// The end of the search's run: give up then.
    pub deadline: Option<Instant>,
    /// The search's stop flag: give up when it is raised.
    pub stop: Option<Arc<AtomicBool>>,
}

/// The settings of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// The exploration constant c of `c·√(ln N / (n + 1))`.
    pub exploration: f32,
    /// RAVE's equivalence parameter E (see the module doc); `None`: no RAVE.
    pub rave_equivalence: Option<f32>,
    /// The weight λ of the score margin in the value, 0 to 1.
    pub margin_weight: f32,
    /// The margin that counts as decisive: the value's tanh scale, in points.
    pub margin_scale: f32,
    /// The weight μ of the policy's static evaluation of the leaf in the
    /// value, 0 to 1 (with λ + μ ≤ 1).
    pub static_weight: f32,
    /// Merge transpositions (different orders reaching one state).
    pub transpositions: bool,
    /// Keep the tree below the new root between searches.
    pub reuse: bool,
    /// Visits a leaf must have had before it gets children (at least 1).
    pub expand_after: u32,
    /// Progressive widening: a node with N visits considers only its
    /// `base + N^exponent` children of highest prior. `None`: all children.
    pub widening: Option<Widening>,
    /// Know results exactly where the tree can (module doc, "Proven
    /// results"): finished games, the policy's proofs, and what the children
    /// prove, backed up.
    pub proofs: bool,
    /// The work per visit a node's proof may take when the policy is asked
    /// (0: the policy is never asked).
    pub prove_effort: u64,
    /// Once the result is decided, let the margin decide: at the root,
    /// children proven won compete by their values instead of being taken
    /// at once, and the readers order proven wins by their margins (module
    /// doc, "Proven results").
    pub decided: bool,
    /// With `decided`, children proven won at the root compete by their
    /// values rather than being taken at once.
    pub decided_root: bool,
    /// With `decided`, the readers order proven wins by their margins.
    pub decided_read: bool,
    /// Most nodes the tree may hold.
    pub max_nodes: usize,
    /// Most edges (children) the tree may hold.
    pub max_edges: usize,
}

/// Progressive widening (see [`SearchConfig::widening`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Widening {
    /// Children considered from the first visit.
    pub base: f32,
    /// How fast more children come in with the visits.
    pub exponent: f32,
}

impl SearchConfig {
    /// Plain UCT: exploration √2, no prior, no RAVE, win/loss value, no
    /// transpositions, no reuse, no proofs, a node expanded on its second
    /// visit, and a tree of at most `memory` bytes.
    pub fn uct(memory: usize) -> SearchConfig {
        SearchConfig {
            exploration: std::f32::consts::SQRT_2,
            rave_equivalence: None,
            margin_weight: 0.0,
            margin_scale: 1.0,
            static_weight: 0.0,
            transpositions: false,
            reuse: false,
            expand_after: 1,
            widening: None,
            proofs: false,
            prove_effort: 0,
            decided: false,
            decided_root: false,
            decided_read: false,
            max_nodes: 0,
            max_edges: 0,
        }
        .with_memory(memory)
    }

    /// The same settings with a tree of at most about `bytes` bytes: a tenth
    /// for nodes, the rest for edges (a node has tens to hundreds of them).
    pub fn with_memory(mut self, bytes: usize) -> SearchConfig {
        let node = tree::NODE_BYTES;
        let edge = tree::EDGE_BYTES;
        self.max_nodes = (bytes / 10 / node).max(16);
        self.max_edges = (bytes - bytes / 10).checked_div(edge).unwrap_or(0).max(64);
        self
    }

    /// The value backed up for a playout: player 0's result mixed with the
    /// margin (module doc).
    #[inline]
    pub fn value(&self, outcome: Outcome) -> f32 {
        if self.margin_weight == 0.0 && self.static_weight == 0.0 {
            return outcome.result;
        }
        let margin = 0.5 + 0.5 * (outcome.margin / self.margin_scale).tanh();
        let static_value = 0.5 + 0.5 * outcome.static_eval;
        (1.0 - self.margin_weight - self.static_weight) * outcome.result
            + self.margin_weight * margin
            + self.static_weight * static_value
    }
}

/// A search tree over a game, with its policy: the object that thinks.
///
/// ```
/// use sygo_ai::search::{Limits, Search, SearchConfig};
/// # use sygo_ai::search::{GameState, Outcome, Policy, Trace};
/// # /// Take 1 or 2 from a pile; whoever takes the last wins.
/// # #[derive(Clone)] struct Pile(u32, usize);
/// # impl GameState for Pile {
/// #     type Action = u32;
/// #     fn to_act(&self) -> usize { self.1 }
/// #     fn state_hash(&self) -> u64 { u64::from(self.0) * 2 + self.1 as u64 }
/// #     fn is_over(&self) -> bool { self.0 == 0 }
/// #     fn legal_actions(&self, out: &mut Vec<u32>) { out.extend((1..=2).filter(|&k| k <= self.0)) }
/// #     fn apply(&mut self, k: u32) { self.0 -= k; self.1 = 1 - self.1; }
/// #     fn final_outcome(&self) -> Outcome {
/// #         // The player to act faces an empty pile: the other took the last.
/// #         Outcome::from_margin(if self.1 == 0 { -1.0 } else { 1.0 })
/// #     }
/// # }
/// # struct Random(u64);
/// # impl Policy<Pile> for Random {
/// #     fn playout(&mut self, s: &mut Pile, _: &mut Trace) -> Outcome {
/// #         while !s.is_over() {
/// #             self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
/// #             let k = 1 + (self.0 >> 63) as u32;
/// #             s.apply(k.min(s.0));
/// #         }
/// #         s.final_outcome()
/// #     }
/// # }
/// // From a pile of 7, taking 1 leaves a multiple of 3: the winning move.
/// let mut search = Search::new(SearchConfig::uct(1 << 20), Random(1), 1);
/// search.set_root(&Pile(7, 0));
/// search.run(&Limits::visits(2000));
/// assert_eq!(search.best_action(), Some(1));
/// ```
pub struct Search<G: GameState, P: Policy<G>> {
    config: SearchConfig,
    policy: P,
    tree: Tree<G::Action>,
    /// The root state; `None` until [`Search::set_root`].
    root: Option<G>,
    /// The state of the simulation in progress (a copy of the root, played on).
    state: Option<G>,
    /// The simulation's path: (node, edge index in the edge pool).
    path: Vec<(u32, u32)>,
    trace: Trace,
    /// Scratch for expansions.
    children: Vec<(G::Action, Prior)>,
    /// AMAF scratch: per key, the stamp of the simulation that saw it and the
    /// first player to play it.
    amaf_stamp: Vec<u32>,
    amaf_player: Vec<u8>,
    stamp: u32,
    rng: Pcg64Mcg,
    /// Simulations since the root was set.
    iterations: u64,
    /// The deadline and stop flag of the run in progress, for proofs.
    effort: Effort,
    /// The root is proven lost for its player to act: the simulation in
    /// progress looks at no proof (module doc, "Proven results").
    lost_root: bool,
    /// With [`SearchConfig::decided`], the root is proven won for its
    /// player to act: proofs are kept and made, but end no simulation, and
    /// a child proven won is not taken at once (module doc, "Proven
    /// results").
    won_root: bool,
}

impl<G: GameState, P: Policy<G>> Search<G, P> {
    /// A search with no root yet; `seed` fixes its random choices (ties).
    pub fn new(config: SearchConfig, policy: P, seed: u64) -> Search<G, P> {
        let tree = Tree::new(config.max_nodes, config.max_edges, config.transpositions);
        Search {
            config,
            policy,
            tree,
            root: None,
            state: None,
            path: Vec::new(),
            trace: Trace::default(),
            children: Vec::new(),
            amaf_stamp: Vec::new(),
            amaf_player: Vec::new(),
            stamp: 0,
            rng: Pcg64Mcg::seed_from_u64(seed),
            iterations: 0,
            effort: Effort::default(),
            lost_root: false,
            won_root: false,
        }
    }

    /// The settings.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Sets the margin that counts as decisive (the value's tanh scale, in
    /// points): a property of the board, known once the root is.
    pub fn set_margin_scale(&mut self, scale: f32) {
        self.config.margin_scale = scale.max(f32::MIN_POSITIVE);
    }

    /// The policy.
    pub fn policy(&self) -> &P {
        &self.policy
    }

    /// The policy, to change or to read what it gathered.
    pub fn policy_mut(&mut self) -> &mut P {
        &mut self.policy
    }

    /// Makes `state` the root. With [`SearchConfig::reuse`], if the tree holds
    /// `state` already, what lies below it is kept and the rest freed; returns
    /// whether it was. Otherwise the tree starts afresh.
    pub fn set_root(&mut self, state: &G) -> bool {
        let hash = state.state_hash();
        let reused = self.config.reuse && self.tree.reroot(hash);
        if !reused {
            self.tree.clear();
            self.tree
                .add_root(hash, state.to_act(), state.is_over())
                .expect("an empty tree has room for its root");
        }
        match &mut self.root {
            Some(root) => root.clone_from(state),
            None => self.root = Some(state.clone()),
        }
        if self.state.is_none() {
            self.state = Some(state.clone());
        }
        self.iterations = 0;
        reused
    }

    /// Forgets the whole tree (a new game).
    pub fn clear(&mut self) {
        self.tree.clear();
        self.root = None;
    }

    /// The root state, once set.
    pub fn root_state(&self) -> Option<&G> {
        self.root.as_ref()
    }

    /// Simulations run since the root was set.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Nodes and edges in the tree, and the bytes they take.
    pub fn tree_size(&self) -> TreeSize {
        self.tree.size()
    }

    /// Runs simulations until a limit is reached; returns how many it ran.
    /// Does nothing before [`Search::set_root`].
    pub fn run(&mut self, limits: &Limits) -> u64 {
        if self.root.is_none() {
            return 0;
        }
        let clock = limits.start();
        self.effort.deadline = clock.deadline();
        self.effort.stop.clone_from(&limits.stop);
        let mut done = 0;
        while !clock.should_stop(done) {
            self.iterate();
            done += 1;
        }
        self.iterations += done;
        done
    }

    /// One simulation: select, expand, play out, back up.
    fn iterate(&mut self) {
        let mut state = self.state.take().expect("a state to simulate on");
        state.clone_from(self.root.as_ref().expect("a root"));
        self.path.clear();
        self.trace.clear();
        let root = &self.tree.nodes[self.tree.root as usize];
        self.lost_root = self.config.proofs
            && root.proven == Some(Proven::Loss.for_player(usize::from(root.to_act)));
        self.won_root = self.config.proofs
            && self.config.decided
            && self.config.decided_root
            && root.proven == Some(Proven::Win.for_player(usize::from(root.to_act)));
        let (leaf, outcome, exact) = self.descend(&mut state);
        self.backup(leaf, outcome, exact);
        if self.config.proofs && !self.lost_root {
            self.prove_path(leaf);
        }
        self.state = Some(state);
    }
}

/// The size of a search tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeSize {
    /// Nodes (states).
    pub nodes: usize,
    /// Edges (actions from a state).
    pub edges: usize,
    /// Bytes held by the two pools (their capacity).
    pub bytes: usize,
}
