//! Game clocks (docs/web.md, "Clocks"): the time controls a game may have
//! ([`TimeControl`]: main time with an increment, main time with Japanese
//! byo-yomi periods, correspondence days per turn with a capped bank) and a
//! game's clock ([`ClockState`]): each side's time left and byo-yomi periods
//! as of the end of its last turn, when the turn of the side to move
//! began, and the vacation time given back to that turn. The deadline of
//! the side to move follows from those; the database keeps them with every
//! turn (`turns.clock`, and `clock_credits`), so a restart finds every
//! deadline where it was, and the server's watcher (`timeouts.rs`)
//! declares a timeout at its deadline.
//!
//! A correspondence clock stops while the player to move is on vacation
//! (docs/web.md, "Vacation"): the functions that count the time spent take
//! the mover's [`Pause`], the vacation it is on (from when, and when it ends
//! by itself at the latest); the time spent on vacation never counts, and
//! when the vacation ends the part of the turn it covered is credited to
//! the turn (`ClockState::credit`).

use serde::{Deserialize, Serialize};
use sygo_rules::Color;

use crate::error::ApiError;

/// A day in milliseconds.
pub(crate) const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// The correspondence speeds offered: days per turn.
pub(crate) const CORRESPONDENCE_DAYS: [u32; 7] = [1, 2, 3, 5, 7, 10, 14];

/// The longest bank of a correspondence game, in days.
pub(crate) const MAX_BANK_DAYS: u32 = 60;

/// Main time before byo-yomi: up to 3 hours.
const MAIN_MS: std::ops::RangeInclusive<u64> = 0..=3 * 60 * 60 * 1000;
/// Main time with an increment: 10 seconds to 3 hours.
const FISCHER_MAIN_MS: std::ops::RangeInclusive<u64> = 10_000..=3 * 60 * 60 * 1000;
/// An increment: up to 10 minutes.
const INCREMENT_MS: std::ops::RangeInclusive<u64> = 0..=10 * 60 * 1000;
/// A byo-yomi period: 5 seconds to 10 minutes.
const PERIOD_MS: std::ops::RangeInclusive<u64> = 5_000..=10 * 60 * 1000;
/// Byo-yomi periods: 1 to 30.
const PERIODS: std::ops::RangeInclusive<u32> = 1..=30;

/// How a game's time is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum TimeControl {
    /// Main time, and an increment added after each turn (Fischer).
    Fischer {
        /// Main time, in milliseconds.
        main_ms: u64,
        /// Added after each turn, in milliseconds.
        increment_ms: u64,
    },
    /// Main time, then Japanese byo-yomi: `periods` periods of `period_ms`;
    /// a turn played within a period keeps it, a period run through is
    /// lost, the last one run through loses the game.
    Byoyomi {
        /// Main time, in milliseconds.
        main_ms: u64,
        /// Number of periods.
        periods: u32,
        /// Each period, in milliseconds.
        period_ms: u64,
    },
    /// Correspondence: each side starts with `days_per_turn` days; each
    /// turn adds `days_per_turn` days to the player's bank, which never
    /// holds more than `bank_days` days.
    Correspondence {
        /// Days per turn: 1, 2, 3, 5, 7, 10 or 14.
        days_per_turn: u32,
        /// The most days the bank holds.
        bank_days: u32,
    },
}

impl TimeControl {
    /// Checks the figures of a control a request gives (400 with what to
    /// write otherwise).
    pub(crate) fn check(&self) -> Result<(), ApiError> {
        let bad = |m: String| Err(ApiError::BadRequest(format!("clock: {m}")));
        let secs = |ms: u64| ms / 1000;
        match *self {
            TimeControl::Fischer {
                main_ms,
                increment_ms,
            } => {
                if !FISCHER_MAIN_MS.contains(&main_ms) {
                    return bad(format!(
                        "main time {} s: {} s to {} s",
                        secs(main_ms),
                        secs(*FISCHER_MAIN_MS.start()),
                        secs(*FISCHER_MAIN_MS.end())
                    ));
                }
                if !INCREMENT_MS.contains(&increment_ms) {
                    return bad(format!(
                        "increment {} s: at most {} s",
                        secs(increment_ms),
                        secs(*INCREMENT_MS.end())
                    ));
                }
            }
            TimeControl::Byoyomi {
                main_ms,
                periods,
                period_ms,
            } => {
                if !MAIN_MS.contains(&main_ms) {
                    return bad(format!(
                        "main time {} s: at most {} s",
                        secs(main_ms),
                        secs(*MAIN_MS.end())
                    ));
                }
                if !PERIODS.contains(&periods) {
                    return bad(format!(
                        "{periods} periods: {} to {}",
                        PERIODS.start(),
                        PERIODS.end()
                    ));
                }
                if !PERIOD_MS.contains(&period_ms) {
                    return bad(format!(
                        "a period of {} s: {} s to {} s",
                        secs(period_ms),
                        secs(*PERIOD_MS.start()),
                        secs(*PERIOD_MS.end())
                    ));
                }
            }
            TimeControl::Correspondence {
                days_per_turn,
                bank_days,
            } => {
                if !CORRESPONDENCE_DAYS.contains(&days_per_turn) {
                    return bad(format!(
                        "{days_per_turn} days per turn: one of 1, 2, 3, 5, 7, 10, 14"
                    ));
                }
                if bank_days < days_per_turn || bank_days > MAX_BANK_DAYS {
                    return bad(format!(
                        "a bank of {bank_days} days: {days_per_turn} (the days per turn) to \
                         {MAX_BANK_DAYS}"
                    ));
                }
            }
        }
        Ok(())
    }

    /// Each side's time and periods at the start.
    fn initial(&self) -> (i64, u32) {
        match *self {
            TimeControl::Fischer { main_ms, .. } => (ms(main_ms), 0),
            TimeControl::Byoyomi {
                main_ms, periods, ..
            } => (ms(main_ms), periods),
            TimeControl::Correspondence { days_per_turn, .. } => {
                (i64::from(days_per_turn) * DAY_MS, 0)
            }
        }
    }
}

fn ms(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// A side that ran out of time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TimedOut(pub Color);

/// Each side's time left and periods as of the end of its last turn, in a
/// form stored with the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Banked {
    /// Milliseconds left, by `Color::index`.
    pub left: [i64; 2],
    /// Byo-yomi periods left, by `Color::index` (0 without byo-yomi).
    pub periods: [u32; 2],
}

/// A vacation that stops a player's clock: from `.0` to `.1` at the latest
/// (Unix milliseconds; the vacation ends by itself then, its allowance used
/// up, unless it is switched off before).
pub(crate) type Pause = (i64, i64);

/// A game's clock: the banks, when the turn of the side to move began, and
/// the vacation time credited to that turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ClockState {
    pub banked: Banked,
    /// Unix milliseconds.
    pub turn_started: i64,
    /// Milliseconds of the running turn spent on vacations that have ended:
    /// not counted against the mover (0 at each turn's start).
    pub credit: i64,
}

impl ClockState {
    /// The clock at the start of a game, running from `now`.
    pub(crate) fn start(control: &TimeControl, now: i64) -> ClockState {
        let (left, periods) = control.initial();
        ClockState {
            banked: Banked {
                left: [left; 2],
                periods: [periods; 2],
            },
            turn_started: now,
            credit: 0,
        }
    }

    /// The time `color` has on its turn from its start, periods included.
    fn allowance(&self, control: &TimeControl, color: Color) -> i64 {
        let i = color.index();
        let left = self.banked.left[i];
        match *control {
            TimeControl::Byoyomi { period_ms, .. } => {
                left.saturating_add(i64::from(self.banked.periods[i]) * ms(period_ms))
            }
            _ => left,
        }
    }

    /// When `color`'s time runs out without a vacation: the turn's start,
    /// its time, and the vacation credited to the turn.
    fn running_deadline(&self, control: &TimeControl, color: Color) -> i64 {
        self.turn_started
            .saturating_add(self.credit)
            .saturating_add(self.allowance(control, color))
    }

    /// The part of `pause` that stops the running turn (from its start, or
    /// the vacation's if later): `None` if it began after the time ran out
    /// (the turn was lost already).
    fn stop(&self, control: &TimeControl, color: Color, pause: Option<Pause>) -> Option<Pause> {
        let (from, to) = pause?;
        let from = from.max(self.turn_started);
        (from <= self.running_deadline(control, color)).then_some((from, to.max(from)))
    }

    /// When `color`, to move, runs out of time (Unix milliseconds), its
    /// clock stopped by `pause` if given: later by the whole pause (which
    /// may be cut short: the deadline then comes sooner).
    pub(crate) fn deadline(
        &self,
        control: &TimeControl,
        color: Color,
        pause: Option<Pause>,
    ) -> i64 {
        let deadline = self.running_deadline(control, color);
        match self.stop(control, color, pause) {
            Some((from, to)) => deadline.saturating_add(to - from),
            None => deadline,
        }
    }

    /// Whether `color`'s clock is stopped at `now` by `pause`.
    pub(crate) fn is_stopped(
        &self,
        control: &TimeControl,
        color: Color,
        pause: Option<Pause>,
        now: i64,
    ) -> bool {
        self.stop(control, color, pause)
            .is_some_and(|(from, to)| from <= now && now < to)
    }

    /// The time the running turn of `color` has used by `now`: since its
    /// start, less the vacation credited to it and the part of `pause` (the
    /// vacation its player is on) gone by.
    fn used(&self, control: &TimeControl, color: Color, now: i64, pause: Option<Pause>) -> i64 {
        let stopped = self
            .stop(control, color, pause)
            .map_or(0, |(from, to)| (to.min(now) - from).max(0));
        now.saturating_sub(self.turn_started)
            .saturating_sub(self.credit)
            .saturating_sub(stopped)
            .max(0)
    }

    /// The time `color`, to move, has left at `now` (periods included), its
    /// clock stopped by `pause` if given.
    pub(crate) fn left(
        &self,
        control: &TimeControl,
        color: Color,
        now: i64,
        pause: Option<Pause>,
    ) -> i64 {
        self.allowance(control, color) - self.used(control, color, now, pause)
    }

    /// The clock when the vacation `pause` of `color`, to move, ends at
    /// `end` (at the latest when it would by itself): the part of the
    /// running turn it covered credited.
    pub(crate) fn credited(
        &self,
        control: &TimeControl,
        color: Color,
        pause: Pause,
        end: i64,
    ) -> ClockState {
        let covered = self
            .stop(control, color, Some(pause))
            .map_or(0, |(from, to)| (end.min(to) - from).max(0));
        ClockState {
            credit: self.credit.saturating_add(covered),
            ..*self
        }
    }

    /// The clock after `color` ends its turn at `now` (its clock stopped by
    /// `pause` if given: its player is on vacation): its time spent, its
    /// increment or correspondence days added, its periods counted; the
    /// opponent's turn starts. [`TimedOut`] if its time ran out first.
    pub(crate) fn after_turn(
        &self,
        control: &TimeControl,
        color: Color,
        now: i64,
        pause: Option<Pause>,
    ) -> Result<ClockState, TimedOut> {
        let used = self.used(control, color, now, pause);
        if used > self.allowance(control, color) {
            return Err(TimedOut(color));
        }
        let i = color.index();
        let mut banked = self.banked;
        let left = banked.left[i] - used;
        match *control {
            TimeControl::Fischer { increment_ms, .. } => {
                banked.left[i] = left + ms(increment_ms);
            }
            TimeControl::Byoyomi { period_ms, .. } => {
                if left >= 0 {
                    banked.left[i] = left;
                } else {
                    // Into byo-yomi: each period run through is lost; the
                    // one the turn ended in is kept, whole again.
                    let over = -left;
                    let lost = ((over - 1) / ms(period_ms)) as u32;
                    banked.left[i] = 0;
                    banked.periods[i] = banked.periods[i].saturating_sub(lost);
                }
            }
            TimeControl::Correspondence {
                days_per_turn,
                bank_days,
            } => {
                banked.left[i] =
                    (left + i64::from(days_per_turn) * DAY_MS).min(i64::from(bank_days) * DAY_MS);
            }
        }
        Ok(ClockState {
            banked,
            turn_started: now,
            credit: 0,
        })
    }
}

/// The AI's budget for its turn under a live clock at `now`: what
/// `sygo_ai::Clock` gives for the time left (sharing the main time over the
/// turns to come, playing within the current byo-yomi period), never more
/// than `per_turn`; `per_turn` alone under a correspondence clock.
pub(crate) fn ai_budget(
    control: &TimeControl,
    clock: &ClockState,
    color: Color,
    now: i64,
    vacant_points: usize,
    per_turn: std::time::Duration,
) -> std::time::Duration {
    use std::time::Duration;
    let secs = |ms: i64| ms.max(0) as f64 / 1000.0;
    let d = |ms: u64| Duration::from_millis(ms);
    let left = clock.banked.left[color.index()] - now.saturating_sub(clock.turn_started);
    let ai_clock = match *control {
        TimeControl::Correspondence { .. } => return per_turn,
        TimeControl::Fischer {
            main_ms,
            increment_ms,
        } => {
            let mut c = sygo_ai::Clock::new(sygo_ai::TimeControl::with_increment(
                d(main_ms),
                d(increment_ms),
            ));
            c.set_time_left(secs(left), 0);
            c
        }
        TimeControl::Byoyomi {
            main_ms, period_ms, ..
        } => {
            let mut c = sygo_ai::Clock::new(sygo_ai::TimeControl {
                main: d(main_ms),
                byo_yomi: d(period_ms),
                byo_yomi_stones: 1,
                increment: Duration::ZERO,
            });
            if left > 0 {
                c.set_time_left(secs(left), 0);
            } else {
                // Within a period: what is left of the current one.
                let period = ms(period_ms);
                c.set_time_left(secs(period - (-left) % period), 1);
            }
            c
        }
    };
    ai_clock
        .budget(vacant_points)
        .time
        .map_or(per_turn, |t| t.min(per_turn))
}

#[cfg(test)]
mod tests {
    use super::*;

    const B: Color = Color::Black;
    const W: Color = Color::White;

    #[test]
    fn fischer_spends_and_adds_the_increment() {
        let c = TimeControl::Fischer {
            main_ms: 60_000,
            increment_ms: 5_000,
        };
        let s = ClockState::start(&c, 1_000);
        assert_eq!(s.deadline(&c, B, None), 61_000);
        let s = s.after_turn(&c, B, 11_000, None).unwrap();
        assert_eq!(s.banked.left, [55_000, 60_000]);
        assert_eq!(s.deadline(&c, W, None), 71_000);
        assert_eq!(s.after_turn(&c, W, 71_001, None), Err(TimedOut(W)));
        let s = s.after_turn(&c, W, 71_000, None).unwrap();
        assert_eq!(
            s.banked.left,
            [55_000, 5_000],
            "exactly at the deadline is in time"
        );
    }

    #[test]
    fn byo_yomi_keeps_the_period_a_turn_ends_in() {
        let c = TimeControl::Byoyomi {
            main_ms: 10_000,
            periods: 3,
            period_ms: 30_000,
        };
        let s = ClockState::start(&c, 0);
        assert_eq!(s.deadline(&c, B, None), 100_000);
        // 5 s into the first period: all three kept.
        let s = s.after_turn(&c, B, 15_000, None).unwrap();
        assert_eq!((s.banked.left[0], s.banked.periods[0]), (0, 3));
        // White: 10 s main + 45 s: one period run through, two left.
        let s = s.after_turn(&c, W, 15_000 + 55_000, None).unwrap();
        assert_eq!((s.banked.left[1], s.banked.periods[1]), (0, 2));
        // Black in byo-yomi: exactly one period is in time, and kept.
        let s = s.after_turn(&c, B, 70_000 + 30_000, None).unwrap();
        assert_eq!(s.banked.periods[0], 3);
        assert_eq!(s.deadline(&c, W, None), 100_000 + 60_000);
        assert_eq!(s.after_turn(&c, W, 160_001, None), Err(TimedOut(W)));
    }

    #[test]
    fn correspondence_banks_days_up_to_the_cap() {
        let c = TimeControl::Correspondence {
            days_per_turn: 3,
            bank_days: 5,
        };
        let s = ClockState::start(&c, 0);
        assert_eq!(s.deadline(&c, B, None), 3 * DAY_MS);
        // A quick turn: 3 days left + 3 added, capped at 5.
        let s = s.after_turn(&c, B, 1000, None).unwrap();
        assert_eq!(s.banked.left[0], 5 * DAY_MS);
        // White takes 2 days: 1 left + 3.
        let s = s.after_turn(&c, W, 1000 + 2 * DAY_MS, None).unwrap();
        assert_eq!(s.banked.left[1], 4 * DAY_MS);
        assert!(c.check().is_ok());
        assert!(
            TimeControl::Correspondence {
                days_per_turn: 4,
                bank_days: 8
            }
            .check()
            .is_err()
        );
        assert!(
            TimeControl::Correspondence {
                days_per_turn: 3,
                bank_days: 2
            }
            .check()
            .is_err()
        );
    }

    #[test]
    fn a_vacation_stops_the_clock_and_is_credited_when_it_ends() {
        let c = TimeControl::Correspondence {
            days_per_turn: 7,
            bank_days: 14,
        };
        let d = DAY_MS;
        let s = ClockState::start(&c, 0);
        assert_eq!(s.deadline(&c, B, None), 7 * d);
        // On vacation from day 1, at most to day 21: the time left stays
        // what it was on day 1, the deadline 20 days later.
        let pause = Some((d, 21 * d));
        assert_eq!(s.left(&c, B, 3 * d, pause), 6 * d);
        assert_eq!(s.left(&c, B, 20 * d, pause), 6 * d);
        assert!(s.is_stopped(&c, B, pause, 20 * d));
        assert!(!s.is_stopped(&c, B, pause, 21 * d));
        assert_eq!(s.deadline(&c, B, pause), 27 * d);
        // Its end gone by, the clock runs again.
        assert_eq!(s.left(&c, B, 22 * d, pause), 5 * d);
        // A turn on day 10, on vacation: only the first day counts.
        let t = s.after_turn(&c, B, 10 * d, pause).unwrap();
        assert_eq!(t.banked.left[0], 13 * d);
        assert_eq!((t.turn_started, t.credit), (10 * d, 0));
        // The vacation is switched off on day 4: three days credited.
        let s = s.credited(&c, B, (d, 21 * d), 4 * d);
        assert_eq!(s.credit, 3 * d);
        assert_eq!(s.deadline(&c, B, None), 10 * d);
        assert_eq!(s.left(&c, B, 5 * d, None), 5 * d);
        assert!(s.after_turn(&c, B, 10 * d, None).is_ok());
        assert_eq!(s.after_turn(&c, B, 10 * d + 1, None), Err(TimedOut(B)));
        // A vacation that began before the turn counts from the turn's
        // start, and never past its own end.
        let late = ClockState::start(&c, 5 * d);
        assert_eq!(late.credited(&c, B, (d, 30 * d), 6 * d).credit, d);
        assert_eq!(late.credited(&c, B, (d, 7 * d), 9 * d).credit, 2 * d);
        // One that began after the time ran out saves nothing.
        let s = ClockState::start(&c, 0);
        let after = Some((8 * d, 30 * d));
        assert_eq!(s.deadline(&c, B, after), 7 * d);
        assert!(!s.is_stopped(&c, B, after, 9 * d));
        assert_eq!(s.after_turn(&c, B, 20 * d, after), Err(TimedOut(B)));
    }

    #[test]
    fn the_ai_keeps_to_its_clock() {
        use std::time::Duration;
        let per_turn = Duration::from_secs(5);
        let f = TimeControl::Fischer {
            main_ms: 60_000,
            increment_ms: 0,
        };
        let s = ClockState::start(&f, 0);
        // A minute shared over the 13 turns of 81 vacant points, less the lag.
        let t = ai_budget(&f, &s, B, 0, 81, per_turn);
        assert!(
            t <= Duration::from_secs(5) && t >= Duration::from_secs(4),
            "{t:?}"
        );
        let t = ai_budget(&f, &s, B, 0, 12, per_turn);
        assert_eq!(t, per_turn, "never more than the AI's time per turn");
        let t = ai_budget(&f, &s, B, 58_000, 81, per_turn);
        assert!(t < Duration::from_millis(300), "two seconds left: {t:?}");
        let b = TimeControl::Byoyomi {
            main_ms: 0,
            periods: 3,
            period_ms: 10_000,
        };
        let s = ClockState::start(&b, 0);
        let t = ai_budget(&b, &s, W, 4_000, 81, per_turn);
        assert!(
            t < Duration::from_secs(6),
            "six seconds left of the period: {t:?}"
        );
        let c = TimeControl::Correspondence {
            days_per_turn: 1,
            bank_days: 1,
        };
        let s = ClockState::start(&c, 0);
        assert_eq!(ai_budget(&c, &s, B, 0, 81, per_turn), per_turn);
    }

    #[test]
    fn controls_are_checked() {
        let f = |main_ms, increment_ms| TimeControl::Fischer {
            main_ms,
            increment_ms,
        };
        assert!(f(600_000, 5_000).check().is_ok());
        assert!(f(5_000, 5_000).check().is_err());
        assert!(f(600_000, 3_600_000).check().is_err());
        let b = |periods, period_ms| TimeControl::Byoyomi {
            main_ms: 0,
            periods,
            period_ms,
        };
        assert!(b(5, 30_000).check().is_ok());
        assert!(b(0, 30_000).check().is_err());
        assert!(b(5, 1_000).check().is_err());
    }
}
