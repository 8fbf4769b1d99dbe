//! Options a user writes `key=value` (`threads=2`, `visits=5000`), read and
//! checked: every value a user can set is parsed and range-checked here, with
//! one error type ([`OptionError`]) whose messages say what to write instead.
//!
//! The resource limits are in one place ([`THREADS`], [`VISITS`],
//! [`TIME_MS`], [`MEMORY_MIB`]), shared by every player that takes them.

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// Search threads a player may be given.
pub const THREADS: RangeInclusive<u64> = 1..=256;
/// Simulations a turn may be given (`visits=`).
pub const VISITS: RangeInclusive<u64> = 1..=1_000_000_000_000;
/// The default time per turn (`time=`), in milliseconds: up to 10^9 ms
/// (11 days), so that no deadline overflows.
pub const TIME_MS: RangeInclusive<u64> = 1..=1_000_000_000;
/// Memory for a player's trees (`memory=`), in MiB: up to 64 GiB.
pub const MEMORY_MIB: RangeInclusive<u64> = 1..=65_536;

/// Why an option was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// The player has no option of this name.
    Unknown {
        /// The player (`mcts`, `uct`, `random`).
        player: &'static str,
        /// The option's name as written.
        key: String,
    },
    /// The value is not of the kind the option takes.
    BadValue {
        /// The option's name.
        key: String,
        /// The value as written.
        value: String,
        /// What to write: `a whole number`, `on or off`.
        expected: &'static str,
    },
    /// The value is of the right kind but outside the option's range.
    OutOfRange {
        /// The option's name.
        key: String,
        /// The value as written.
        value: String,
        /// The range, as a player reads it: `from 1 to 256`.
        range: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown { player, key } => write!(f, "{player} has no option {key:?}"),
            OptionError::BadValue {
                key,
                value,
                expected,
            } => write!(f, "{key}={value}: write {expected}"),
            OptionError::OutOfRange { key, value, range } => {
                write!(f, "{key}={value}: write a number {range}")
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// One `key=value` option, read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Opt<'a> {
    pub key: &'a str,
    pub value: &'a str,
}

impl<'a> Opt<'a> {
    pub fn new(key: &'a str, value: &'a str) -> Opt<'a> {
        Opt { key, value }
    }

    /// Whether the value says "none": `off` or `none`.
    pub fn is_off(&self) -> bool {
        matches!(self.value, "off" | "none")
    }

    /// `None` for `off` or `none`, else the value as `read` reads it.
    pub fn unless_off<T>(
        &self,
        read: impl FnOnce(&Self) -> Result<T, OptionError>,
    ) -> Result<Option<T>, OptionError> {
        if self.is_off() {
            Ok(None)
        } else {
            read(self).map(Some)
        }
    }

    fn bad(&self, expected: &'static str) -> OptionError {
        OptionError::BadValue {
            key: self.key.to_string(),
            value: self.value.to_string(),
            expected,
        }
    }

    fn out_of_range(&self, range: String) -> OptionError {
        OptionError::OutOfRange {
            key: self.key.to_string(),
            value: self.value.to_string(),
            range,
        }
    }

    /// A whole number in `range`.
    pub fn whole(&self, range: RangeInclusive<u64>) -> Result<u64, OptionError> {
        let n: u64 = self.value.parse().map_err(|_| self.bad("a whole number"))?;
        if range.contains(&n) {
            Ok(n)
        } else {
            Err(self.out_of_range(format!("from {} to {}", range.start(), range.end())))
        }
    }

    /// A finite number in `range`.
    pub fn number<T>(&self, range: RangeInclusive<T>) -> Result<T, OptionError>
    where
        T: FromStr + PartialOrd + Copy + fmt::Display + Into<f64>,
    {
        let x: T = self.value.parse().map_err(|_| self.bad("a number"))?;
        if x.into().is_finite() && range.contains(&x) {
            Ok(x)
        } else {
            Err(self.out_of_range(format!("from {} to {}", range.start(), range.end())))
        }
    }

    /// `on` or `off` (also `true`/`false`, `yes`/`no`, `1`/`0`).
    pub fn switch(&self) -> Result<bool, OptionError> {
        match self.value {
            "on" | "true" | "yes" | "1" => Ok(true),
            "off" | "false" | "no" | "0" => Ok(false),
            _ => Err(self.bad("on or off")),
        }
    }

    /// `A/B`, two numbers (progressive widening's base and exponent).
    pub fn pair(&self) -> Result<(Opt<'a>, Opt<'a>), OptionError> {
        let (a, b) = self
            .value
            .split_once('/')
            .ok_or_else(|| self.bad("BASE/EXPONENT or off"))?;
        Ok((Opt::new(self.key, a), Opt::new(self.key, b)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_read_and_checked() {
        assert_eq!(Opt::new("threads", "2").whole(THREADS), Ok(2));
        assert_eq!(
            Opt::new("threads", "200000")
                .whole(THREADS)
                .unwrap_err()
                .to_string(),
            "threads=200000: write a number from 1 to 256"
        );
        assert_eq!(
            Opt::new("threads", "two")
                .whole(THREADS)
                .unwrap_err()
                .to_string(),
            "threads=two: write a whole number"
        );
        assert_eq!(Opt::new("c", "0.5").number(0.0f32..=100.0), Ok(0.5));
        assert!(Opt::new("c", "NaN").number(0.0f32..=100.0).is_err());
        assert!(Opt::new("c", "inf").number(0.0f64..=f64::MAX).is_err());
        assert!(Opt::new("c", "-1").number(0.0f32..=100.0).is_err());
        assert_eq!(Opt::new("reuse", "off").switch(), Ok(false));
        assert!(Opt::new("reuse", "maybe").switch().is_err());
    }
}
