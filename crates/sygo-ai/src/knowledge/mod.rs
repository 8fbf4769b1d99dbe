//! What the strong player knows of Sygo: priors for new nodes
//! ([`priors`]), from features of the board ([`features`]), and a playout
//! policy better than uniform ([`playout`]). [`SygoPolicy`] puts them behind
//! the search's [`Policy`] trait.

mod features;
mod playout;
mod priors;

pub use playout::{PlayoutSettings, Playouts};
pub use priors::PriorSettings;

use features::Features;
use sygo_rules::Position;

use crate::search::{Outcome, Policy, Prior, Trace};
use crate::steps::{Step, StepGame};

/// The knowledge of one search thread: prior settings (or none), playouts,
/// and scratch space.
#[derive(Clone, Debug)]
pub struct SygoPolicy {
    priors: Option<PriorSettings>,
    playouts: Playouts,
    features: Features,
    /// AMAF keys: the point indices of the board last seen.
    keys: usize,
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
        }
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
