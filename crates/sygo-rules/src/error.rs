//! Typed errors, one per operation. Syntax (bad text) is kept apart from rules
//! (a refused step or turn); every message is written for a player.

use std::fmt;

use crate::color::Color;
use crate::coord::Vertex;
pub use crate::geometry::{GeometryError, ParsePointError};

/// A turn's notation that cannot be read (docs/rules.md §3: `D4`, `D5,F7,K10`,
/// `pass`, `resign`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseTurnError {
    /// Nothing was written.
    Empty,
    /// A comma with nothing on one side (`D4,`, `,D4`, `D4,,E5`).
    EmptyElement,
    /// An element is not a point of the board.
    Point(ParsePointError),
}

impl fmt::Display for ParseTurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseTurnError::Empty => {
                f.write_str("no move given: write stones like D5,F7, or pass, or resign")
            }
            ParseTurnError::EmptyElement => f.write_str(
                "a comma with no stone beside it: write the stones separated by single commas, like D5,F7",
            ),
            ParseTurnError::Point(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ParseTurnError {}

impl From<ParsePointError> for ParseTurnError {
    fn from(e: ParsePointError) -> ParseTurnError {
        ParseTurnError::Point(e)
    }
}

/// Why a step (one stone of a turn) is refused. The position is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepError {
    /// The game is over: nothing more can be played.
    GameOver,
    /// The point is not on this board.
    NotOnBoard,
    /// The point already holds a stone.
    Occupied(Vertex),
    /// A placement ended the turn; only finishing it remains.
    TurnOver {
        /// The placement that ended it.
        placement: Vertex,
    },
    /// In a balance turn, a stone that touches only stones of this turn: not a
    /// placement, which must touch no stone of the mover (docs/rules.md §4), nor a
    /// growth, which must touch a base group (§5, g2).
    PlacementTouchesOwn {
        /// The point of the attempted placement.
        at: Vertex,
        /// A stone of the mover next to it.
        own: Vertex,
    },
    /// A placement after growth steps, outside Black's balance turn (§6).
    PlacementAfterGrowth {
        /// The point of the attempted placement.
        at: Vertex,
        /// The mover.
        color: Color,
    },
    /// A growth stone that touches only stones added this turn (§5, g2).
    OnlyNewStones {
        /// The point of the attempted step.
        at: Vertex,
        /// A stone of this turn next to it.
        new: Vertex,
    },
    /// The step would grow a group that has already grown this turn (§5, g3).
    AlreadyGrown {
        /// The point of the attempted step.
        at: Vertex,
        /// A stone of that group next to it.
        group: Vertex,
    },
    /// The step would grow a group that captured this turn (§5, step 3).
    Frozen {
        /// The point of the attempted step.
        at: Vertex,
        /// A stone of that group next to it.
        group: Vertex,
    },
    /// A placement that would finish the turn with a group of the mover
    /// without liberties (§7).
    Suicide {
        /// The point of the attempted placement.
        at: Vertex,
        /// A stone of the group left without liberties.
        group: Vertex,
    },
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepError::GameOver => f.write_str("the game is over"),
            StepError::NotOnBoard => f.write_str("that point is not on this board"),
            StepError::Occupied(at) => write!(f, "{at} is already occupied"),
            StepError::TurnOver { placement } => write!(
                f,
                "the placement at {placement} ended the turn: finish it, or take it back"
            ),
            StepError::PlacementTouchesOwn { at, own } => write!(
                f,
                "{at} touches your own stone at {own}: a placement must start a new group, \
                 and a growth stone must touch a group you had when the turn began"
            ),
            StepError::PlacementAfterGrowth { at, color } => match color {
                Color::White => write!(
                    f,
                    "{at} touches none of your stones, so it would be a placement, and White may not place after growing: \
                     only Black's balance turn ends with a placement"
                ),
                Color::Black => write!(
                    f,
                    "{at} touches none of your stones, so it would be a placement, and the balance turn is gone: \
                     a growth turn has already been played"
                ),
            },
            StepError::OnlyNewStones { at, new } => write!(
                f,
                "{at} touches only stones played this turn (such as {new}): a growth stone must touch a group you had when the turn began"
            ),
            StepError::AlreadyGrown { at, group } => write!(
                f,
                "{at} would grow the group at {group} a second time this turn"
            ),
            StepError::Frozen { at, group } => write!(
                f,
                "{at} would grow the group at {group}, which captured this turn and may not grow any further"
            ),
            StepError::Suicide { at, group } => {
                if at == group {
                    write!(
                        f,
                        "{at} would be suicide: the stone would have no liberties"
                    )
                } else {
                    write!(
                        f,
                        "{at} would be suicide: this turn would leave your group at {group} without liberties"
                    )
                }
            }
        }
    }
}

impl std::error::Error for StepError {}

/// Why the turn in progress cannot be finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FinishError {
    /// The game is over.
    GameOver,
    /// No stone has been played in this turn (pass instead).
    NoStep,
    /// The turn would leave a group of the mover without liberties (§7).
    Suicide {
        /// A stone of that group.
        group: Vertex,
    },
}

impl fmt::Display for FinishError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FinishError::GameOver => f.write_str("the game is over"),
            FinishError::NoStep => f.write_str("the turn has no stone yet: play a stone, or pass"),
            FinishError::Suicide { group } => write!(
                f,
                "this turn would leave your group at {group} without liberties"
            ),
        }
    }
}

impl std::error::Error for FinishError {}

/// Why a whole turn is refused. The position is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnError {
    /// The game is over.
    GameOver,
    /// The turn was given for the player who is not to move.
    WrongColor {
        /// Who is to move.
        to_move: Color,
    },
    /// A pass or resignation while stones of the turn are pending.
    TurnInProgress,
    /// The turn has no stones (`Turn::Stones` with an empty list).
    NoStones,
    /// Step number `index` (0-based) is refused.
    Step {
        /// Which stone of the turn, 0-based.
        index: usize,
        /// Why.
        error: StepError,
    },
    /// All steps are allowed but the turn cannot end there.
    Finish(FinishError),
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnError::GameOver => f.write_str("the game is over"),
            TurnError::WrongColor { to_move } => write!(f, "it is {to_move}'s turn"),
            TurnError::TurnInProgress => f.write_str(
                "stones of this turn are pending: finish the turn or take them back first",
            ),
            TurnError::NoStones => f.write_str("a turn needs at least one stone, or pass"),
            TurnError::Step { error, .. } => error.fmt(f),
            TurnError::Finish(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TurnError {}

/// Why a set of stones is not a position (docs/rules.md §7 positions only arise
/// with every group holding a liberty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// A point was given twice, or already holds a stone.
    Occupied(Vertex),
    /// A point is not on the board.
    NotOnBoard,
    /// A group would have no liberty.
    NoLiberty {
        /// A stone of that group.
        group: Vertex,
    },
    /// More than two consecutive passes.
    Passes(u8),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Occupied(v) => write!(f, "{v} is already occupied"),
            SetupError::NotOnBoard => f.write_str("a point is not on this board"),
            SetupError::NoLiberty { group } => {
                write!(f, "the group at {group} would have no liberties")
            }
            SetupError::Passes(n) => {
                write!(f, "{n} consecutive passes: the game ends after two")
            }
        }
    }
}

impl std::error::Error for SetupError {}

/// A position string that cannot be read (grammar in `docs/position-string.md`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePositionError {
    /// Wrong number of space-separated fields.
    Fields(usize),
    /// The first field is not `sygo` or `hexsygo`.
    Variant(String),
    /// The size is not a number in the variant's range.
    Size(String),
    /// The board field does not match the board: which row (from the top,
    /// 1-based) and what is wrong.
    Board {
        /// Row from the top, 1-based.
        row: usize,
        /// What is wrong.
        problem: String,
    },
    /// The side to move is not `b` or `w`.
    Side(String),
    /// The growth field is not `-` or `g`.
    Growth(String),
    /// The passes field is not `0`, `1` or `2`.
    Passes(String),
    /// The result field is not `B+R` or `W+R`.
    Result(String),
    /// The stones do not form a position.
    Setup(SetupError),
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePositionError::Fields(n) => write!(
                f,
                "a position string has 6 or 7 fields separated by spaces, not {n}"
            ),
            ParsePositionError::Variant(v) => {
                write!(f, "{v:?} is not a variant: write sygo or hexsygo")
            }
            ParsePositionError::Size(s) => write!(f, "{s:?} is not a size for this variant"),
            ParsePositionError::Board { row, problem } => {
                write!(f, "board row {row} from the top: {problem}")
            }
            ParsePositionError::Side(s) => write!(f, "{s:?} is not a side to move: write b or w"),
            ParsePositionError::Growth(s) => write!(
                f,
                "{s:?} is not a growth state: write - (no growth turn yet) or g"
            ),
            ParsePositionError::Passes(s) => {
                write!(f, "{s:?} is not a number of passes: write 0, 1 or 2")
            }
            ParsePositionError::Result(s) => {
                write!(f, "{s:?} is not a result: write B+R or W+R")
            }
            ParsePositionError::Setup(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ParsePositionError {}

impl From<SetupError> for ParsePositionError {
    fn from(e: SetupError) -> ParsePositionError {
        ParsePositionError::Setup(e)
    }
}
