//! When a search stops: a number of simulations, a deadline, or a flag that
//! another thread raises. The clock is read once per simulation (a few tens
//! of nanoseconds against tens of microseconds for a playout), so a search
//! overruns its deadline by at most one simulation.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The limits of one run of a search; the first one reached stops it.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Simulations to run.
    pub visits: Option<u64>,
    /// Time to run, from the start of the run.
    pub time: Option<Duration>,
    /// An absolute deadline (for several runs sharing one turn's time).
    pub deadline: Option<Instant>,
    /// Stops the run when set (by another thread: a user's `stop`).
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// A number of simulations.
    pub fn visits(visits: u64) -> Limits {
        Limits {
            visits: Some(visits),
            ..Limits::default()
        }
    }

    /// A duration.
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// Whether no limit is set at all (a run would never end by itself).
    pub fn is_unlimited(&self) -> bool {
        self.visits.is_none() && self.time.is_none() && self.deadline.is_none()
    }

    /// The run's clock, started now.
    pub(crate) fn start(&self) -> RunClock<'_> {
        let start = Instant::now();
        let deadline = match (self.time.map(|t| start + t), self.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        RunClock {
            limits: self,
            deadline,
        }
    }
}

/// A run in progress: its limits and its deadline.
pub(crate) struct RunClock<'a> {
    limits: &'a Limits,
    deadline: Option<Instant>,
}

impl RunClock<'_> {
    /// When the run ends, if it has a deadline.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Whether to stop after `done` simulations. With no limit at all the run
    /// stops at once (an unlimited run must be stopped by its flag, so it
    /// needs one).
    #[inline]
    pub(crate) fn should_stop(&self, done: u64) -> bool {
        if self.limits.visits.is_some_and(|v| done >= v) {
            return true;
        }
        if self
            .limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            return true;
        }
        match self.deadline {
            Some(deadline) => Instant::now() >= deadline,
            None => self.limits.visits.is_none() && self.limits.stop.is_none(),
        }
    }
}
