//! Sygo and Hexsygo for Python: the native module `sygo._sygo` of the
//! Python package `sygo`, with an API that people who know OpenSpiel use
//! without reading docs (`docs/python.md`).
//!
//! # Brief overview
//!
//! - `sygo.Game` ([`game`]): the board (variant, size) and the rules'
//!   options (the balance turn, komi, what the returns are), with what
//!   OpenSpiel asks of a game: players, distinct actions, utilities,
//!   the observation tensor's shape.
//! - `sygo.State` ([`state`]): a game in progress played one **action**
//!   at a time — a stone, `end`, `pass`: the atomic steps the AI searches
//!   ([`actions`], [`core`]) — or one whole turn at a time; legal actions
//!   and turns ([`turns`]), returns, the observation tensor as a NumPy array
//!   ([`observation`], [`arrays`]), the position string and SGF records
//!   both ways. Every refusal is an exception with the rules' reason
//!   ([`errors`]), and leaves the state unchanged.
//! - `sygo.Player` ([`players`]): the built-in players named by the one
//!   player specification (`random`, `uct`, `mcts:level=3`), as OpenSpiel
//!   bots, and the strong player's analysis with the fields of the
//!   protocol's `analyze`.
//! - Bulk helpers in Rust with the interpreter released ([`bulk`]): random
//!   games (the games of `sygo bench`), games between players, random
//!   positions as stacked tensors, and a replay of whole turns by the rules
//!   alone.
//!
//! The Python side (`python/sygo/`) re-exports the module, adds
//! `sygo.load_game`, and holds the optional OpenSpiel adapter
//! (`sygo.openspiel`). The crate builds with `maturin` (`pyproject.toml`);
//! its tests are Python (`tests/`, run by `scripts/test-python.sh`).

use pyo3::prelude::*;

pub mod actions;
pub mod arrays;
pub mod bulk;
pub mod core;
pub mod errors;
pub mod game;
pub mod observation;
pub mod players;
pub mod state;
pub mod turns;

/// The native module: the classes, the exceptions, the bulk helpers and the
/// constants.
#[pymodule]
fn _sygo(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<state::PyState>()?;
    m.add_class::<players::PyPlayer>()?;
    m.add_function(wrap_pyfunction!(bulk::play_random_games, m)?)?;
    m.add_function(wrap_pyfunction!(bulk::play_games, m)?)?;
    m.add_function(wrap_pyfunction!(bulk::random_positions, m)?)?;
    m.add_function(wrap_pyfunction!(bulk::replay_turns, m)?)?;
    m.add_function(wrap_pyfunction!(state::_restore_state, m)?)?;
    m.add("SygoError", py.get_type::<errors::SygoError>())?;
    m.add("IllegalMove", py.get_type::<errors::IllegalMove>())?;
    m.add("ParseError", py.get_type::<errors::ParseError>())?;
    m.add("RecordError", py.get_type::<errors::RecordError>())?;
    m.add("PlayerSpecError", py.get_type::<errors::PlayerSpecError>())?;
    m.add("BLACK", 0)?;
    m.add("WHITE", 1)?;
    m.add("TERMINAL", core::TERMINAL)?;
    m.add("MAX_LEVEL", sygo_ai::MAX_LEVEL)?;
    Ok(())
}
