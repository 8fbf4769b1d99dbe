//! Why a record is refused, by stage: the text is not SGF ([`SyntaxError`]);
//! it is SGF but not a record of this format, a property missing, misplaced
//! or with a bad value ([`FormatError`]); or it is a well-formed record of
//! something the rules do not allow ([`IllegalError`]). The last two name
//! the node, counted in the order the nodes are written, the root being
//! node 0. Every message is one line, written for a player.

use std::fmt;

use sygo_rules::{Color, SetupError, TurnError};

use crate::point::PointError;

/// A record that cannot be read or built. Nothing of it is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecordError {
    /// The text is not SGF.
    Syntax(SyntaxError),
    /// The file holds more than one game (an SGF collection); a record is
    /// one game.
    Collection(usize),
    /// More nodes than a record may hold ([`MAX_NODES`](crate::MAX_NODES),
    /// or the reader's own bound): refused before it is read.
    TooManyNodes {
        /// The nodes of the text.
        nodes: usize,
        /// The most it may hold.
        max: usize,
    },
    /// Game trees nested deeper than a record may
    /// ([`MAX_NESTING`](crate::MAX_NESTING)): refused before it is read.
    TooDeep {
        /// How deep the text's trees nest.
        nesting: usize,
        /// The deepest they may.
        max: usize,
    },
    /// SGF, but not a record of this format.
    Format {
        /// The node, 0 for the root, counted in the order written.
        node: usize,
        /// What is wrong.
        error: FormatError,
    },
    /// A record of something the rules do not allow.
    Illegal {
        /// The node, 0 for the root, counted in the order written.
        node: usize,
        /// What is wrong.
        error: IllegalError,
    },
}

impl RecordError {
    /// The node the error is in, when it is in one.
    pub fn node(&self) -> Option<usize> {
        match self {
            RecordError::Format { node, .. } | RecordError::Illegal { node, .. } => Some(*node),
            _ => None,
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Syntax(e) => write!(f, "not an SGF file: {e}"),
            RecordError::Collection(n) => {
                write!(f, "the file holds {n} games: a record holds one game tree")
            }
            RecordError::TooManyNodes { nodes, max } => {
                write!(f, "{nodes} nodes: a record here holds at most {max}")
            }
            RecordError::TooDeep { nesting, max } => write!(
                f,
                "variations nested {nesting} deep: a record's variations nest at most {max} deep"
            ),
            RecordError::Format { node, error } => write!(f, "node {node}: {error}"),
            RecordError::Illegal { node, error } => write!(f, "node {node}: {error}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// Text that is not SGF, as the SGF reader (the `sgf-parse` crate) finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SyntaxError {
    /// No `(` opens a game tree.
    NoGameTree,
    /// The text ends inside a value or before every game tree is closed.
    Truncated,
    /// A `)` with no `(` to close.
    UnbalancedParenthesis,
    /// A property outside a node, or a variation with no node before it.
    Misplaced,
    /// Anything else the SGF reader refuses, in its words.
    Other(String),
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::NoGameTree => f.write_str("no game tree: an SGF record starts with (;"),
            SyntaxError::Truncated => f.write_str(
                "the text ends inside a property value or before the game tree is closed: \
                 the file looks truncated",
            ),
            SyntaxError::UnbalancedParenthesis => {
                f.write_str("a ) closes a game tree that was never opened")
            }
            SyntaxError::Misplaced => f.write_str(
                "a property outside a node, or a variation before any node: \
                 every property follows a ; and every ( starts with one",
            ),
            SyntaxError::Other(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for SyntaxError {}

/// SGF that is not a record of this format (`docs/records.md`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FormatError {
    /// The game is not Sygo: no `GM`, or another number.
    NotSygo {
        /// The `GM` value, if there is one.
        gm: Option<String>,
    },
    /// The root has no `VR` naming the variant.
    MissingVariant,
    /// A property value this format cannot read.
    BadValue {
        /// The property identifier.
        property: String,
        /// Its values as read.
        values: Vec<String>,
        /// What is wrong and what is expected.
        why: String,
    },
    /// A point that is malformed or not on the board.
    Point {
        /// The property identifier.
        property: String,
        /// Why the point is refused.
        error: PointError,
    },
    /// A property in a node where it does not belong.
    Misplaced {
        /// The property identifier.
        property: String,
        /// Where it belongs.
        why: &'static str,
    },
    /// A property given twice in one node.
    Duplicate {
        /// The property identifier.
        property: String,
    },
    /// Both `B` and `W` in one node.
    BothColors,
    /// Setup properties and a turn in one node.
    SetupAndTurn,
    /// A property identifier without a capital letter (SGF ignores lower-case
    /// letters in identifiers, so nothing is left of it).
    NoIdentifier,
    /// A sequence with no node (only when building a record in code).
    EmptySequence,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::NotSygo { gm: None } => f.write_str(
                "no GM property, which in SGF means a game of Go: a Sygo record says GM[400]",
            ),
            FormatError::NotSygo { gm: Some(gm) } => write!(
                f,
                "GM[{gm}] is not a Sygo record, which says GM[400] (GM[1] is Go)"
            ),
            FormatError::MissingVariant => f.write_str(
                "no VR property in the root: say which game it is, VR[sygo] or VR[hexsygo]",
            ),
            FormatError::BadValue {
                property,
                values,
                why,
            } => {
                if values.is_empty() {
                    write!(f, "{property}: {why}")
                } else {
                    write!(f, "{property}[{}]: {why}", values.join("]["))
                }
            }
            FormatError::Point { property, error } => write!(f, "{property}: {error}"),
            FormatError::Misplaced { property, why } => write!(f, "{property}: {why}"),
            FormatError::Duplicate { property } => write!(
                f,
                "{property} is given twice in one node: give all its values in one property"
            ),
            FormatError::BothColors => {
                f.write_str("B and W in one node: a node holds one turn of one player")
            }
            FormatError::SetupAndTurn => f.write_str(
                "setup (AB, AW, PL, GS) and a turn (B, W) in one node: \
                 SGF keeps them in separate nodes",
            ),
            FormatError::NoIdentifier => f.write_str(
                "a property identifier without a capital letter: identifiers are upper case \
                 (SGF ignores lower-case letters in them)",
            ),
            FormatError::EmptySequence => f.write_str("a sequence without any node"),
        }
    }
}

impl std::error::Error for FormatError {}

/// A record of something the rules do not allow.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IllegalError {
    /// The setup stones do not form a position.
    Setup(SetupError),
    /// The starting position has passes, a resignation or a turn in progress
    /// (only when building a record in code: a record's start is a setup).
    StartNotSetup,
    /// The first turn of a line is not by the player to move.
    FirstColor {
        /// Who moves in the node.
        color: Color,
        /// Who is to move.
        to_move: Color,
    },
    /// A player moves twice in a row (turns alternate, passes included).
    SameColorTwice {
        /// Who moves twice.
        color: Color,
    },
    /// A turn the rules refuse.
    Turn {
        /// Who moves.
        color: Color,
        /// The turn as players write it (`D5,F7`, `pass`).
        turn: String,
        /// The rules' reason.
        error: TurnError,
    },
    /// A result `B+R` or `W+R` that no resignation can give at the end of
    /// the main line.
    Resignation {
        /// The result as written.
        result: String,
        /// Why it cannot be.
        why: String,
    },
}

impl fmt::Display for IllegalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalError::Setup(e) => write!(f, "the setup is not a position: {e}"),
            IllegalError::StartNotSetup => f.write_str(
                "the starting position has passes, a resignation or a turn in progress: \
                 a record starts from a setup",
            ),
            IllegalError::FirstColor { color, to_move } => write!(
                f,
                "{color} moves, but it is {to_move}'s turn \
                 (White moves first unless the root's PL says otherwise)"
            ),
            IllegalError::SameColorTwice { color } => write!(
                f,
                "{color} moves twice in a row: turns alternate, passes included"
            ),
            IllegalError::Turn { color, turn, error } => {
                write!(f, "{color}'s turn {turn} is illegal: {error}")
            }
            IllegalError::Resignation { result, why } => write!(f, "RE[{result}]: {why}"),
        }
    }
}

impl std::error::Error for IllegalError {}
