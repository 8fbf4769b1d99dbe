//! Time controls and the clock: GTP's time settings (main time, Canadian
//! byo-yomi) or main time with an increment, turned into a per-turn
//! [`Budget`] that never loses on time.
//!
//! How a turn's time is chosen:
//!
//! - **No limit** (GTP: byo-yomi time with 0 stones, or every figure 0):
//!   an empty budget; the player uses its own default.
//! - **Byo-yomi** (in a period): the time left divided by the stones left.
//! - **Main time**: the time left shared over the turns still to come, which
//!   is estimated from the board: `max(10, vacant points / 6)` turns for this
//!   player (a growth turn fills several points). With byo-yomi to come, one
//!   stone's share of a period is added, since the main time may run into
//!   the period; with an increment, 90% of the increment is added. The turn
//!   never takes more than what is left (plus that first byo-yomi share).
//!
//! From every turn's time a **lag** is kept back for what the clock sees and
//! the search does not: the protocol's round trip, the controller's
//! rounding, the process being descheduled (by default 50 ms, but never more
//! than a quarter of the turn's time). The players keep back their own small
//! margin on top of that for reading the answer out of the search.

use std::time::Duration;

use crate::budget::Budget;

/// A time control.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Main time.
    pub main: Duration,
    /// Canadian byo-yomi: a period of this much time...
    pub byo_yomi: Duration,
    /// ...for this many stones (here: turns).
    pub byo_yomi_stones: u32,
    /// Time added after each turn (Fischer), with main time only.
    pub increment: Duration,
}

impl TimeControl {
    /// The control of GTP's `time_settings MAIN BYO STONES`, in seconds
    /// (negative or non-finite figures count as 0).
    pub fn from_gtp(main: f64, byo_yomi: f64, byo_yomi_stones: u32) -> TimeControl {
        let secs = |s: f64| Duration::from_secs_f64(if s.is_finite() { s.max(0.0) } else { 0.0 });
        TimeControl {
            main: secs(main),
            byo_yomi: secs(byo_yomi),
            byo_yomi_stones,
            increment: Duration::ZERO,
        }
    }

    /// A fixed time per turn: byo-yomi of `time` for one stone, no main time.
    pub fn per_turn(time: Duration) -> TimeControl {
        TimeControl {
            main: Duration::ZERO,
            byo_yomi: time,
            byo_yomi_stones: 1,
            increment: Duration::ZERO,
        }
    }

    /// Main time plus an increment per turn.
    pub fn with_increment(main: Duration, increment: Duration) -> TimeControl {
        TimeControl {
            main,
            byo_yomi: Duration::ZERO,
            byo_yomi_stones: 0,
            increment,
        }
    }

    /// Whether this control sets no limit (GTP: byo-yomi time with 0 stones,
    /// or no time at all).
    pub fn is_unlimited(&self) -> bool {
        let byo_yomi = !self.byo_yomi.is_zero();
        (byo_yomi && self.byo_yomi_stones == 0)
            || (self.main.is_zero() && !byo_yomi && self.increment.is_zero())
    }

    fn has_byo_yomi(&self) -> bool {
        !self.byo_yomi.is_zero() && self.byo_yomi_stones > 0
    }
}

/// One player's clock: the time control, and the time left as the
/// controller last said (`time_left`) or as counted since.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    control: TimeControl,
    /// Time left in the current period (main time, or byo-yomi).
    left: Duration,
    /// Stones left in the byo-yomi period; 0 in main time.
    stones: u32,
    /// Kept back from every turn (module doc).
    lag: Duration,
}

/// The lag kept back by default.
pub const DEFAULT_LAG: Duration = Duration::from_millis(50);

/// Turns still to come, at least.
const MIN_TURNS: usize = 10;

impl Clock {
    /// A clock at the start of a game: all the main time left (or the first
    /// byo-yomi period, with no main time).
    pub fn new(control: TimeControl) -> Clock {
        let (left, stones) = if control.main.is_zero() && control.has_byo_yomi() {
            (control.byo_yomi, control.byo_yomi_stones)
        } else {
            (control.main, 0)
        };
        Clock {
            control,
            left,
            stones,
            lag: DEFAULT_LAG,
        }
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Sets the lag kept back from each turn (module doc).
    pub fn set_lag(&mut self, lag: Duration) {
        self.lag = lag;
    }

    /// The clock as GTP's `time_left TIME STONES` reports it: `time` seconds
    /// left in the period (negative: overrun), `stones` left in byo-yomi (0
    /// in main time).
    pub fn set_time_left(&mut self, time: f64, stones: u32) {
        self.left = Duration::from_secs_f64(if time.is_finite() { time.max(0.0) } else { 0.0 });
        self.stones = stones;
    }

    /// Time left in the current period, and stones left in it (0: main time).
    pub fn time_left(&self) -> (Duration, u32) {
        (self.left, self.stones)
    }

    /// Counts a turn that took `used`, for when the controller does not send
    /// `time_left`: main time runs down (and gains the increment), then
    /// byo-yomi periods.
    pub fn spend(&mut self, used: Duration) {
        let c = self.control;
        if c.is_unlimited() {
            return;
        }
        if self.stones == 0 {
            if used <= self.left || !c.has_byo_yomi() {
                self.left = self.left.saturating_sub(used) + c.increment;
                return;
            }
            // Into byo-yomi: the overrun counts against the first period.
            let over = used - self.left;
            self.left = c.byo_yomi.saturating_sub(over);
            self.stones = c.byo_yomi_stones;
        } else {
            self.left = self.left.saturating_sub(used);
        }
        self.stones -= 1;
        if self.stones == 0 {
            self.left = c.byo_yomi;
            self.stones = c.byo_yomi_stones;
        }
    }

    /// The budget of the next turn, on a board with `vacant_points` vacant
    /// points (module doc).
    pub fn budget(&self, vacant_points: usize) -> Budget {
        let c = self.control;
        if c.is_unlimited() {
            return Budget::default();
        }
        // The time this turn may not exceed, and the share it takes.
        let (room, time) = if self.stones > 0 {
            (self.left, self.left / self.stones)
        } else {
            let turns = (vacant_points / 6).max(MIN_TURNS) as u32;
            let share = self.left / turns;
            if c.has_byo_yomi() {
                let stone = c.byo_yomi / c.byo_yomi_stones;
                (self.left + stone, share + stone)
            } else {
                (self.left, share + c.increment.mul_f64(0.9))
            }
        };
        let time = time.min(room);
        let time = time.saturating_sub(self.lag.min(time / 4));
        // At least a millisecond to answer in, if the clock has it.
        Budget::time(time.max(Duration::from_millis(1).min(room / 2)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn no_limit_gives_an_empty_budget() {
        for control in [
            TimeControl::from_gtp(0.0, 0.0, 0),
            TimeControl::from_gtp(300.0, 10.0, 0),
        ] {
            assert!(control.is_unlimited());
            assert_eq!(Clock::new(control).budget(81), Budget::default());
        }
        assert!(!TimeControl::from_gtp(300.0, 0.0, 0).is_unlimited());
    }

    #[test]
    fn byo_yomi_shares_the_period_over_its_stones_less_the_lag() {
        let mut clock = Clock::new(TimeControl::from_gtp(0.0, 10.0, 5));
        assert_eq!(clock.budget(300), Budget::time(ms(2000 - 50)));
        clock.set_time_left(3.0, 2);
        assert_eq!(clock.budget(300), Budget::time(ms(1500 - 50)));
        // A short turn keeps back a quarter, not the whole lag.
        let clock = Clock::new(TimeControl::per_turn(ms(100)));
        assert_eq!(clock.budget(300), Budget::time(ms(75)));
    }

    #[test]
    fn main_time_is_shared_over_the_turns_to_come() {
        let clock = Clock::new(TimeControl::from_gtp(60.0, 0.0, 0));
        // 361 vacant points: 60 turns to come; 1 s each, less the lag.
        assert_eq!(clock.budget(361), Budget::time(ms(950)));
        // Late in the game, at least ten turns are assumed.
        assert_eq!(clock.budget(12), Budget::time(ms(5950)));
        // With byo-yomi to come, a stone's share of a period is added.
        let clock = Clock::new(TimeControl::from_gtp(60.0, 30.0, 10));
        assert_eq!(clock.budget(361), Budget::time(ms(3950)));
        // An increment adds 90% of itself.
        let clock = Clock::new(TimeControl::with_increment(
            Duration::from_secs(60),
            Duration::from_secs(2),
        ));
        assert_eq!(clock.budget(361), Budget::time(ms(2750)));
    }

    #[test]
    fn an_overrun_clock_still_gives_a_turn() {
        let mut clock = Clock::new(TimeControl::from_gtp(60.0, 0.0, 0));
        clock.set_time_left(-1.0, 0);
        assert_eq!(clock.budget(100), Budget::time(Duration::ZERO));
        clock.set_time_left(0.5, 0);
        assert_eq!(
            clock.budget(100),
            Budget::time(Duration::from_nanos(23_437_500))
        );
    }

    #[test]
    fn the_clock_counts_main_time_then_byo_yomi_periods() {
        let mut clock = Clock::new(TimeControl::from_gtp(1.0, 10.0, 2));
        clock.spend(ms(600));
        assert_eq!(clock.time_left(), (ms(400), 0));
        // 400 ms of main time, then 600 ms into the first period.
        clock.spend(ms(1000));
        assert_eq!(clock.time_left(), (ms(9400), 1));
        // The period's last stone: a new period starts.
        clock.spend(ms(4000));
        assert_eq!(clock.time_left(), (ms(10_000), 2));
        let mut fischer = Clock::new(TimeControl::with_increment(ms(5000), ms(1000)));
        fischer.spend(ms(1500));
        assert_eq!(fischer.time_left(), (ms(4500), 0));
    }

    /// Whatever the clock says, a game played at the budgets it gives never
    /// runs out of time (each turn taking its whole budget).
    #[test]
    fn budgets_never_lose_on_time() {
        for control in [
            TimeControl::from_gtp(10.0, 0.0, 0),
            TimeControl::from_gtp(5.0, 2.0, 3),
            TimeControl::from_gtp(0.0, 1.0, 1),
            TimeControl::with_increment(Duration::from_secs(3), ms(200)),
        ] {
            let mut clock = Clock::new(control);
            // Up to 200 turns on a 19×19 board filling up.
            for turn in 0..200usize {
                let vacant = 361usize.saturating_sub(turn * 3);
                let time = clock.budget(vacant).time.unwrap();
                let (left, stones) = clock.time_left();
                let room = if stones > 0 || !control.has_byo_yomi() {
                    left
                } else {
                    left + control.byo_yomi / control.byo_yomi_stones
                };
                assert!(
                    time < room || room.is_zero(),
                    "{control:?} turn {turn}: {time:?} of {room:?}"
                );
                clock.spend(time);
            }
        }
    }
}
