//! The playout: a leaf's state played to the end of the game by the policy.

use super::{GameState, Outcome, Policy, Search};

impl<G: GameState, P: Policy<G>> Search<G, P> {
    /// The outcome of the state a simulation reached: exact if the game is
    /// over, else the policy's playout (which records its actions in the
    /// trace for AMAF).
    pub(super) fn evaluate(&mut self, state: &mut G) -> Outcome {
        let static_eval = if self.config.static_weight > 0.0 {
            self.policy.static_eval(state)
        } else {
            0.0
        };
        let outcome = if state.is_over() {
            state.final_outcome()
        } else {
            self.policy.playout(state, &mut self.trace)
        };
        Outcome {
            static_eval,
            ..outcome
        }
    }
}
