//! Sygo and Hexsygo as a game of atomic steps, for the search.
//!
//! A whole growth turn is a subset of the groups, each grown at one of its
//! liberties, in some order: far too many turns to list. The search instead
//! takes one **step** at a time ([`Step`]):
//!
//! - `Stone(p)`: a stone on p, a placement or a growth step (the position
//!   says which). A placement ends the turn by itself (docs/rules.md §4), so the
//!   state after it is already the opponent's: one tree level saved.
//! - `Finish`: ends a growth turn, offered once the turn has a stone and
//!   no group of the mover is left without a liberty (docs/rules.md §7).
//! - `Pass`: offered at the start of a turn. Resigning is not an action of
//!   the tree; a player resigns from the search's win rate.
//!
//! Every stone the rules allow is offered, as long as the turn can still be
//! completed after it. A placement is allowed only if its turn is legal. A
//! growth that keeps its group a liberty ([`Position::eligible_step`]),
//! played while no group lacks one, leaves the turn free to end and is
//! offered at once; any other growth (one that leaves a group without a
//! liberty, or one played while a group already lacks one) is offered only
//! if the turn can still be completed after it
//! ([`Position::turn_can_be_completed`]: a later capture in the same turn
//! rescues the group, docs/rules.md §7). The rule is the rules crate's
//! [`Position::for_each_completable_step`], which the Python package's
//! actions follow as well. So the search plays every legal growth
//! turn, Sygo's multi-group liberty race among them: two groups filling an
//! enemy group's last two liberties, each stone alone leaving its own group
//! without a liberty, as Black's B1,D1 in `sygo 5 4W/5/5/WWBWW/B1W1B b - 0`.
//! And no line of the tree dead-ends: a state with a turn in progress
//! always offers a step, `Finish` or a stone that leads on to one.
//!
//! Two orders of the same growth steps reach the same state, and
//! [`Position::hash`] hashes the turn in progress, so the search merges them
//! (transpositions).

use sygo_rules::{Color, Point, Position, StepKind, Turn};

use crate::search::{GameState, Outcome};

/// One action of the search: a stone, the end of a growth turn, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// A stone on this point: a placement (which ends the turn) or a growth.
    Stone(Point),
    /// Ends the growth turn in progress.
    Finish,
    /// Passes (only at the start of a turn).
    Pass,
}

/// A position seen as a game of steps ([`GameState`] for the search).
/// Player 0 is Black, player 1 White ([`Color::index`]).
#[derive(Debug)]
pub struct StepGame {
    position: Position,
    /// Stones each colour has put on the board since [`StepGame::new`]
    /// (by [`Color::index`]): what remains of the change in stone counts
    /// is what captures won.
    new_stones: [u32; 2],
}

impl Clone for StepGame {
    fn clone(&self) -> StepGame {
        StepGame {
            position: self.position.clone(),
            new_stones: self.new_stones,
        }
    }

    /// The cheap copy of [`Position::clone_from`]: what every simulation
    /// starts with.
    fn clone_from(&mut self, source: &StepGame) {
        self.position.clone_from(&source.position);
        self.new_stones = source.new_stones;
    }
}

impl StepGame {
    /// The game from this position (a turn may be in progress).
    pub fn new(position: Position) -> StepGame {
        StepGame {
            position,
            new_stones: [0; 2],
        }
    }

    /// The stones each colour has put on the board since this game was made
    /// with [`StepGame::new`] (by [`Color::index`]).
    pub fn new_stones(&self, color: Color) -> u32 {
        self.new_stones[color.index()]
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position, to play on directly (a playout).
    pub fn position_mut(&mut self) -> &mut Position {
        &mut self.position
    }

    /// Calls `f` for every step the search may take now (see the module doc).
    pub fn for_each_step(&self, mut f: impl FnMut(Step, Option<StepKind>)) {
        let pos = &self.position;
        if pos.is_over() {
            return;
        }
        // The stones: every step the rules allow after which the turn can
        // still be completed (one rule, shared with every step-by-step
        // player: `Position::for_each_completable_step`).
        pos.for_each_completable_step(|p, kind| f(Step::Stone(p), Some(kind)));
        // A group left without a liberty by a step before: the turn may not
        // end yet.
        let stranded = pos.group_without_liberty().is_some();
        if !pos.turn_in_progress() {
            f(Step::Pass, None);
        } else if !stranded {
            f(Step::Finish, None);
        }
    }

    /// Ends the turn in progress where it is, after the steps that complete
    /// it if a group is left without a liberty
    /// ([`Position::turn_completion`]); each step taken is pushed on
    /// `steps`. Nothing happens between turns. The way every player's
    /// playout or completion rule ends a turn the tree left unfinished.
    pub fn complete_turn(&mut self, steps: &mut Vec<Step>) {
        if !self.position.turn_in_progress() {
            return;
        }
        let rescue = self
            .position
            .turn_completion()
            .expect("every state the search reaches can be completed");
        for p in rescue {
            self.apply(Step::Stone(p));
            steps.push(Step::Stone(p));
        }
        if self.position.turn_in_progress() {
            self.apply(Step::Finish);
            steps.push(Step::Finish);
        }
    }
}

impl GameState for StepGame {
    type Action = Step;

    #[inline]
    fn to_act(&self) -> usize {
        self.position.side_to_move().index()
    }

    #[inline]
    fn state_hash(&self) -> u64 {
        self.position.hash()
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.position.is_over()
    }

    fn legal_actions(&self, out: &mut Vec<Step>) {
        self.for_each_step(|step, _| out.push(step));
    }

    #[inline]
    fn apply(&mut self, step: Step) {
        let pos = &mut self.position;
        match step {
            Step::Stone(p) => {
                self.new_stones[pos.side_to_move().index()] += 1;
                if pos.play_step_unchecked(p) == StepKind::Placement {
                    pos.finish_turn_unchecked();
                }
            }
            Step::Finish => pos.finish_turn_unchecked(),
            Step::Pass => pos.pass().expect("a pass at the start of a turn"),
        }
    }

    fn final_outcome(&self) -> Outcome {
        match self.position.resigned() {
            Some(Color::Black) => Outcome {
                result: 0.0,
                margin: -(self.position.geometry().num_points() as f32),
                static_eval: 0.0,
            },
            Some(Color::White) => Outcome {
                result: 1.0,
                margin: self.position.geometry().num_points() as f32,
                static_eval: 0.0,
            },
            None => {
                let score = self.position.score();
                Outcome::from_margin(score.black as f32 - score.white as f32)
            }
        }
    }
}

/// The whole turn that a list of steps makes, from the start of a turn.
pub(crate) fn turn_of(steps: &[Step]) -> Turn {
    if steps.first() == Some(&Step::Pass) {
        return Turn::Pass;
    }
    Turn::Stones(
        steps
            .iter()
            .filter_map(|s| match s {
                Step::Stone(p) => Some(*p),
                _ => None,
            })
            .collect(),
    )
}
