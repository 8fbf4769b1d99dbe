//! `sygo.Game`: a board and the rules' options, and what OpenSpiel asks of a
//! game (its numbers of players and actions, utilities, tensor shape).

use pyo3::prelude::*;
use pyo3::types::PyDict;
use sygo_rules::{Geometry, Variant};

use crate::actions::{Action, Numbering};
use crate::core::{Config, Utility};
use crate::errors::{parse, refused};
use crate::observation;

/// The arguments of `Game(...)` that make a game again (pickling).
type GameArgs = (&'static str, u8, bool, f64, &'static str);

/// A game of Sygo or Hexsygo: the board (variant and size) and the options.
///
/// `Game(variant="sygo", size=None, balance_turn=True, komi=0.0,
/// utility="win")`: `size` is N for Sygo (3 to 25, default 19), the base n
/// for Hexsygo (2 to 13, default 10); `balance_turn=False` plays without
/// Black's balance turn (docs/rules.md §6); `komi` is added to White's score at
/// the end (never part of the rules); `utility` is what `returns()` gives:
/// `"win"` (+1, −1, 0) or `"score"` (the score margin).
#[pyclass(module = "sygo", name = "Game", frozen, eq)]
#[derive(Clone, Debug, PartialEq)]
pub struct PyGame {
    pub(crate) config: Config,
}

impl PyGame {
    /// The game of a board with the default options.
    pub(crate) fn of_board(geometry: Geometry) -> PyGame {
        PyGame {
            config: Config {
                geometry,
                balance_turn: true,
                komi: 0.0,
                utility: Utility::Win,
            },
        }
    }

    fn numbering(&self) -> &'static Numbering {
        self.config.numbering()
    }

    /// Reads an action's text on this board: a point (`D4`), `end` (also
    /// `finish`, `done`) or `pass`.
    pub(crate) fn read_action(&self, text: &str) -> PyResult<usize> {
        let numbering = self.numbering();
        let text = text.trim();
        let lower = text.to_ascii_lowercase();
        match lower.as_str() {
            "end" | "finish" | "done" => Ok(numbering.end()),
            "pass" => Ok(numbering.pass()),
            _ => self
                .config
                .geometry
                .parse_point(text)
                .map(|p| numbering.action_of(p))
                .map_err(|e| {
                    parse(format!(
                        "{e} (an action is a point such as D4, end, or pass)"
                    ))
                }),
        }
    }

    /// Writes an action: `D4`, `end` or `pass`.
    pub(crate) fn write_action(&self, action: i64) -> PyResult<String> {
        let numbering = self.numbering();
        match numbering.decode(action) {
            Some(a) => Ok(numbering.name(&self.config.geometry, a)),
            None => Err(parse(format!(
                "{action} is not an action of {}: write 0 to {}",
                self.config.geometry,
                numbering.pass()
            ))),
        }
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (variant = "sygo", size = None, balance_turn = true, komi = 0.0, utility = "win"))]
    fn new(
        variant: &str,
        size: Option<i64>,
        balance_turn: bool,
        komi: f64,
        utility: &str,
    ) -> PyResult<PyGame> {
        let variant = Variant::from_name(variant).ok_or_else(|| {
            refused(format!(
                "{variant:?} is not a variant: write sygo or hexsygo"
            ))
        })?;
        let size = size.unwrap_or(i64::from(variant.default_size()));
        let geometry = u8::try_from(size)
            .ok()
            .and_then(|n| Geometry::new(variant, n).ok())
            .ok_or_else(|| {
                let sizes = variant.sizes();
                refused(format!(
                    "{size} is not a size of {variant}: write {} to {}",
                    sizes.start(),
                    sizes.end()
                ))
            })?;
        if !komi.is_finite() {
            return Err(refused(format!("komi {komi} is not a finite number")));
        }
        let utility = match utility.to_ascii_lowercase().as_str() {
            "win" => Utility::Win,
            "score" => Utility::Score,
            _ => {
                return Err(refused(format!(
                    "{utility:?} is not a utility: write win (+1, -1, 0) or score (the margin)"
                )));
            }
        };
        Ok(PyGame {
            config: Config {
                geometry,
                balance_turn,
                komi,
                utility,
            },
        })
    }

    /// `"sygo"` or `"hexsygo"`.
    #[getter]
    fn variant(&self) -> &'static str {
        self.config.geometry.variant().name()
    }

    /// N for Sygo, the base n for Hexsygo.
    #[getter]
    fn size(&self) -> u8 {
        self.config.geometry.size()
    }

    /// Whether Black may make the balance turn.
    #[getter]
    fn balance_turn(&self) -> bool {
        self.config.balance_turn
    }

    /// Komi added to White's score at the end.
    #[getter]
    fn komi(&self) -> f64 {
        self.config.komi
    }

    /// What `returns()` gives: `"win"` or `"score"`.
    #[getter]
    fn utility(&self) -> &'static str {
        self.config.utility.name()
    }

    /// The options as a dict (what `Game(**params)` takes).
    fn get_parameters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("variant", self.variant())?;
        d.set_item("size", self.size())?;
        d.set_item("balance_turn", self.config.balance_turn)?;
        d.set_item("komi", self.config.komi)?;
        d.set_item("utility", self.utility())?;
        Ok(d)
    }

    /// 2.
    fn num_players(&self) -> usize {
        2
    }

    /// The points of the board (`P`).
    fn num_points(&self) -> usize {
        self.config.geometry.num_points()
    }

    /// `P + 2`: a stone on each point, `end`, `pass`.
    fn num_distinct_actions(&self) -> usize {
        self.numbering().count()
    }

    /// The action that ends a growth turn: `P`.
    #[getter]
    fn end_action(&self) -> usize {
        self.numbering().end()
    }

    /// The pass: `P + 1`.
    #[getter]
    fn pass_action(&self) -> usize {
        self.numbering().pass()
    }

    /// The most actions a game can take: `3P + 2`.
    fn max_game_length(&self) -> usize {
        self.config.max_game_length()
    }

    /// The lowest return: −1, or minus the board and the komi for `score`.
    fn min_utility(&self) -> f64 {
        self.config.utility_range().0
    }

    /// The highest return.
    fn max_utility(&self) -> f64 {
        self.config.utility_range().1
    }

    /// The sum of the returns: 0 (zero-sum).
    fn utility_sum(&self) -> f64 {
        0.0
    }

    /// `[10, S, S]`: planes, rows, columns (`docs/python.md`).
    fn observation_tensor_shape(&self) -> Vec<usize> {
        observation::shape(self.config.geometry).to_vec()
    }

    /// The number of values of an observation tensor.
    fn observation_tensor_size(&self) -> usize {
        observation::size(self.config.geometry)
    }

    /// The names of the observation planes, in order.
    #[staticmethod]
    fn observation_plane_names() -> Vec<&'static str> {
        observation::PLANE_NAMES.to_vec()
    }

    /// The points, as written (`A1`, `B1`, …), in action order.
    fn points(&self) -> Vec<String> {
        let g = self.config.geometry;
        self.numbering()
            .points()
            .iter()
            .map(|&p| g.vertex(p).to_string())
            .collect()
    }

    /// The observation tensor's `(row, column)` of a stone action: where
    /// the point is in each plane.
    fn action_to_cell(&self, action: i64) -> PyResult<(u8, u8)> {
        match self.numbering().decode(action) {
            Some(Action::Stone(p)) => {
                let (c, r) = self.config.geometry.col_row(p);
                Ok((r, c))
            }
            _ => Err(refused(format!(
                "{action} is not a stone action of {}: write 0 to {}",
                self.config.geometry,
                self.numbering().len() - 1
            ))),
        }
    }

    /// The stone action of the point at `(row, column)` of the tensor.
    fn cell_to_action(&self, row: i64, column: i64) -> PyResult<usize> {
        let g = self.config.geometry;
        let at = |x: i64| u8::try_from(x).ok();
        match (at(column), at(row)) {
            (Some(c), Some(r)) if g.contains(c, r) => g
                .point(c, r)
                .map(|p| self.numbering().action_of(p))
                .ok_or_else(|| refused("no such point")),
            _ => Err(refused(format!("({row}, {column}) is not a point of {g}"))),
        }
    }

    /// An action as written: `D4`, `end` or `pass`.
    fn action_to_string(&self, action: i64) -> PyResult<String> {
        self.write_action(action)
    }

    /// The action written `text`: a point such as `D4`, `end`, or `pass`.
    fn string_to_action(&self, text: &str) -> PyResult<usize> {
        self.read_action(text)
    }

    fn __repr__(&self) -> String {
        format!(
            "sygo.Game(variant={:?}, size={}, balance_turn={}, komi={:?}, utility={:?})",
            self.variant(),
            self.size(),
            if self.config.balance_turn {
                "True"
            } else {
                "False"
            },
            self.config.komi,
            self.utility()
        )
    }

    fn __str__(&self) -> String {
        self.config.geometry.to_string()
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.config.geometry.hash(&mut h);
        self.config.balance_turn.hash(&mut h);
        self.config.komi.to_bits().hash(&mut h);
        self.config.utility.hash(&mut h);
        h.finish()
    }

    /// Pickling: the game is its options.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, GameArgs)> {
        let me = slf.get();
        Ok((
            slf.get_type().into_any(),
            (
                me.variant(),
                me.size(),
                me.config.balance_turn,
                me.config.komi,
                me.utility(),
            ),
        ))
    }
}
