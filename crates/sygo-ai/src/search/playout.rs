//! The playout: a leaf's state played to the end of the game by the policy.

use super::{GameState, Outcome, Policy, Search};

impl<G: GameState, P: Policy<G>> Search<G, P> {
    /// The outcome of the state a simulation reached: exact if the game is
    /// over, else the policy's playout (which records its actions in the
    /// trace for AMAF).
    pub(super) fn evaluate(&mut self, state: &mut G) -> Outcome {
        if state.is_over() {
            state.final_outcome()
        } else {
            self.policy.playout(state, &mut self.trace)
        }
    }
}
