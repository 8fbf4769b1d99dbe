//! Sygo and Hexsygo as a game of atomic steps, for the search.
//!
//! A whole growth turn is a subset of the groups, each grown at one of its
//! liberties, in some order: far too many turns to list. The search instead
//! takes one **step** at a time ([`Step`]):
//!
//! - `Stone(p)`: a stone on p, a placement or a growth step (the position
//!   says which). A placement ends the turn by itself (RULES.md §4), so the
//!   state after it is already the opponent's: one tree level saved.
//! - `Finish`: ends a growth turn (offered once the turn has a stone).
//! - `Pass`: offered at the start of a turn. Resigning is not an action of
//!   the tree; a player resigns from the search's win rate.
//!
//! Only *eligible* stones are offered ([`Position::eligible_step`]): allowed,
//! and leaving the new stone's group a liberty. So `Finish` is always legal
//! after any step the search takes, and no line of the tree dead-ends in a
//! turn that cannot be completed. What this leaves out: a growth that
//! momentarily leaves a group without liberties, rescued by a capture later
//! in the same turn (RULES.md §7). Another order often reaches the same
//! turn, the capturing stone last, but not always: when two groups fill an
//! enemy group's last two liberties and each stone alone leaves its own
//! group without a liberty, neither is eligible (docs/ai.md, "a known gap
//! of the search").
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
        pos.for_each_allowed_step(|p, kind| {
            if kind == StepKind::Placement || pos.eligible_step(p).is_some() {
                f(Step::Stone(p), Some(kind));
            }
        });
        if pos.turn_in_progress() {
            f(Step::Finish, None);
        } else {
            f(Step::Pass, None);
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
