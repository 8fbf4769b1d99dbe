//! What the strong player knows of Sygo: priors for new nodes
//! (`priors.rs`), from features of the board (`features.rs`), a playout
//! policy better than uniform (`playout.rs`), exact results of small
//! endgames in the tree (`prover.rs`), and the defence reading of a group in
//! danger (`reading.rs`). [`SygoPolicy`] puts them behind the
//! search's [`Policy`] trait.

mod features;
mod patterns;
mod playout;
mod priors;
mod prover;
mod reading;

pub use patterns::{Fit, TrainingSet, Weights};
pub use playout::{PlayoutSettings, Playouts};
pub use priors::{Keep, Learned, PriorSettings};
pub use reading::{DefenceReader, Defences, involved_points};

use features::Features;
use prover::Prover;
use sygo_rules::Position;

use crate::search::{Effort, Outcome, Policy, Prior, Trace};
use crate::steps::{Step, StepGame};

/// Black's stones minus White's.
fn material(pos: &Position) -> i32 {
    pos.stone_count(sygo_rules::Color::Black) as i32
        - pos.stone_count(sygo_rules::Color::White) as i32
}

/// The knowledge of one search thread: prior settings (or none), playouts,
/// and scratch space.
#[derive(Clone, Debug)]
pub struct SygoPolicy {
    priors: Option<PriorSettings>,
    playouts: Playouts,
    features: Features,
    /// AMAF keys: the point indices of the board last seen.
    keys: usize,
    /// Black's stones minus White's at the root of the search.
    root_material: i32,
    /// The stone gain that counts as decisive in the static evaluation.
    material_scale: f32,
    /// The endgame solver for tree nodes, if the policy proves any.
    prover: Option<Prover>,
}

impl SygoPolicy {
    /// A policy with these priors (`None`: every step even) and playouts;
    /// `seed` fixes the playouts' random choices.
    pub fn new(priors: Option<PriorSettings>, playouts: PlayoutSettings, seed: u64) -> SygoPolicy {
        SygoPolicy {
            priors,
            playouts: Playouts::new(playouts, seed),
            features: Features::default(),
            keys: 0,
            root_material: 0,
            material_scale: 1.0,
            prover: None,
        }
    }

    /// The same policy, proving tree nodes of at most `vacant` vacant points
    /// with the endgame solver (0: none).
    pub fn proving(mut self, vacant: usize) -> SygoPolicy {
        self.prover = (vacant > 0).then(|| Prover::new(vacant));
        self
    }

    /// Forgets what the prover proved (a new game).
    pub fn forget_proofs(&mut self) {
        if let Some(prover) = &mut self.prover {
            prover.clear();
        }
    }

    /// The search starts from `root`: the static evaluation measures the
    /// stones won since then, with `scale` stones counting as decisive.
    pub fn set_root(&mut self, root: &Position, scale: f32) {
        self.root_material = material(root);
        self.material_scale = scale.max(f32::MIN_POSITIVE);
    }

    /// The playouts, and the ownership they gathered.
    pub fn playouts(&self) -> &Playouts {
        &self.playouts
    }

    /// The playouts, to reset their ownership.
    pub fn playouts_mut(&mut self) -> &mut Playouts {
        &mut self.playouts
    }

    /// Every step of `game` with its prior, in the order of
    /// [`StepGame::for_each_step`].
    pub fn step_priors(&mut self, game: &StepGame, out: &mut Vec<(Step, Prior)>) {
        match &self.priors {
            Some(settings) => priors::priors(settings, game, &mut self.features, out),
            None => game.for_each_step(|step, _| out.push((step, Prior::NONE))),
        }
    }

    /// Sets the AMAF key space for a board.
    fn see_board(&mut self, pos: &Position) {
        self.keys = pos.geometry().index_len();
    }
}

impl Policy<StepGame> for SygoPolicy {
    fn expand(&mut self, state: &StepGame, out: &mut Vec<(Step, Prior)>) {
        self.step_priors(state, out);
    }

    fn playout(&mut self, state: &mut StepGame, trace: &mut Trace) -> Outcome {
        self.see_board(state.position());
        self.playouts.play(state.position_mut(), trace)
    }

    /// What captures won Black since the root, in points (each stone
    /// reversed counts twice: one less for the loser, one more for the
    /// winner; new stones do not count), squashed by tanh: what the tree's
    /// own steps won, which a playout's noise can hide (a capture of seven
    /// stones moves a playout's result by a few points of percentage).
    fn static_eval(&mut self, state: &StepGame) -> f32 {
        use sygo_rules::Color::{Black, White};
        let change = material(state.position()) - self.root_material;
        let placed = state.new_stones(Black) as i32 - state.new_stones(White) as i32;
        ((change - placed) as f32 / self.material_scale).tanh()
    }

    fn prove(&mut self, state: &StepGame, effort: &Effort) -> Option<f32> {
        self.prover.as_mut()?.prove(state.position(), effort)
    }

    #[inline]
    fn amaf_key(&self, step: Step) -> Option<u32> {
        match step {
            Step::Stone(p) => Some(p.index() as u32),
            _ => None,
        }
    }

    fn amaf_keys(&self) -> usize {
        self.keys
    }
}
