//! The Python exceptions, one per kind of refusal, all `ValueError`s:
//!
//! ```text
//! ValueError
//! └── sygo.SygoError          anything sygo refuses
//!     ├── sygo.IllegalMove    an action or turn the rules (or the step game) refuse now
//!     ├── sygo.ParseError     text that is not a point, turn, action or position string
//!     ├── sygo.RecordError    an SGF record that cannot be read (syntax, format, rules)
//!     └── sygo.PlayerSpecError  a player specification that names no player
//! ```
//!
//! Every message is the rules library's (or the records', or the player
//! specification's) own, written for a player; the state is unchanged.

// The exception types are made by PyO3's macro, whose expansion implements
// an unsafe trait of PyO3's for each type.
#![allow(unsafe_code)]

use pyo3::PyErr;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;

create_exception!(
    sygo,
    SygoError,
    PyValueError,
    "Anything sygo refuses: a ValueError whose message is the reason, in a player's words."
);
create_exception!(
    sygo,
    IllegalMove,
    SygoError,
    "An action, step or turn that may not be played now, with the rules' reason. The state is unchanged."
);
create_exception!(
    sygo,
    ParseError,
    SygoError,
    "Text that cannot be read: a point, a turn, an action or a position string."
);
create_exception!(
    sygo,
    RecordError,
    SygoError,
    "An SGF record that cannot be read: not SGF, not a record of this format, or a turn the rules refuse (the node is named)."
);
create_exception!(
    sygo,
    PlayerSpecError,
    SygoError,
    "A player specification (random, uct, mcts:level=3) that names no built-in player."
);

/// A refusal of the rules (or of the step game) as `sygo.IllegalMove`.
pub(crate) fn illegal(message: impl ToString) -> PyErr {
    IllegalMove::new_err(message.to_string())
}

/// Text that cannot be read, as `sygo.ParseError`.
pub(crate) fn parse(message: impl ToString) -> PyErr {
    ParseError::new_err(message.to_string())
}

/// Anything else sygo refuses, as `sygo.SygoError`.
pub(crate) fn refused(message: impl ToString) -> PyErr {
    SygoError::new_err(message.to_string())
}
