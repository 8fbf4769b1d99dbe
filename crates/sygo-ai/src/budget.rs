//! How much a player may spend on one turn.

use std::time::Duration;

/// The limits of one turn's thinking. A player stops at the first limit
/// reached; with no limit at all it uses its own default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Wall-clock time for the turn.
    pub time: Option<Duration>,
    /// Playouts (visits) for the turn.
    pub visits: Option<u64>,
}

impl Budget {
    /// A budget of time only.
    pub fn time(time: Duration) -> Budget {
        Budget {
            time: Some(time),
            visits: None,
        }
    }

    /// A budget of visits only.
    pub fn visits(visits: u64) -> Budget {
        Budget {
            time: None,
            visits: Some(visits),
        }
    }
}

/// The longest a turn may take before it counts as an overrun of a time
/// budget: the budget plus a tenth of it, and at least 20 ms more (the
/// noise of scheduling threads and processes).
pub fn overrun_limit(budget: Duration) -> Duration {
    budget + (budget / 10).max(Duration::from_millis(20))
}
