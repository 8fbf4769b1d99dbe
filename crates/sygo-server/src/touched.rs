//! Which accounts this server changed in memory since a moment
//! ([`Touched`]). With several servers on one database, a server reads
//! accounts again when another changed them (`follow.rs`); such a read may
//! have begun before this server committed a change of its own to one of
//! those accounts and be put in place after the change was made in
//! memory. The read's rows of that account are then older than memory, and
//! putting them in place would lose the change (a new session, password,
//! seat, rating or challenge) until the next read. So each store notes the
//! accounts it changes ([`Touched::touch`]); a read takes a [`Mark`] before
//! it starts, leaves the accounts changed since ([`Touched::since`]) as
//! they are in memory, and reads those again.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use parking_lot::Mutex;

/// How long a change is remembered. A read that took longer than this
/// cannot tell what changed meanwhile, and treats every account it read as
/// changed.
const HORIZON: Duration = Duration::from_secs(60);

/// How many accounts are remembered before the changes older than
/// [`HORIZON`] are forgotten.
const FORGET_FROM: usize = 1024;

/// The accounts a store changed, each with when it last did (module doc).
#[derive(Default)]
pub(crate) struct Touched {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    /// The number of the last change; a change's number is larger than
    /// those of every change before it.
    last: u64,
    /// Each account changed: the number of its last change, and when.
    by_account: HashMap<i64, (u64, Instant)>,
    /// How many accounts are remembered before those changed longer than
    /// [`HORIZON`] ago are forgotten: [`FORGET_FROM`], or twice as many as
    /// were left the last time, so that forgetting costs little a change.
    forget_at: usize,
}

/// A moment of a store ([`Touched::mark`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    last: u64,
    at: Instant,
}

impl Touched {
    /// Notes that the accounts `ids` were changed in memory (after the
    /// change was committed).
    pub(crate) fn touch(&self, ids: impl IntoIterator<Item = i64>) {
        let mut inner = self.inner.lock();
        inner.last += 1;
        let (number, now) = (inner.last, Instant::now());
        for id in ids {
            inner.by_account.insert(id, (number, now));
        }
        if inner.by_account.len() > inner.forget_at.max(FORGET_FROM) {
            // A change older than the horizon is before every mark that
            // can still be asked about.
            inner
                .by_account
                .retain(|_, (_, at)| now.duration_since(*at) < HORIZON);
            inner.forget_at = inner.by_account.len() * 2;
        }
    }

    /// Now, to ask later which accounts changed after it.
    pub(crate) fn mark(&self) -> Mark {
        let inner = self.inner.lock();
        Mark {
            last: inner.last,
            at: Instant::now(),
        }
    }

    /// The accounts changed after `mark`; `None` if `mark` is too old to
    /// tell (any account may have changed).
    pub(crate) fn since(&self, mark: Mark) -> Option<HashSet<i64>> {
        if mark.at.elapsed() >= HORIZON {
            return None;
        }
        let inner = self.inner.lock();
        Some(
            inner
                .by_account
                .iter()
                .filter(|(_, (number, _))| *number > mark.last)
                .map(|(id, _)| *id)
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_accounts_changed_after_a_mark_are_named() {
        let touched = Touched::default();
        touched.touch([1, 2]);
        let mark = touched.mark();
        assert_eq!(touched.since(mark), Some(HashSet::new()));
        touched.touch([2, 3]);
        let later = touched.mark();
        touched.touch([4]);
        assert_eq!(touched.since(mark), Some(HashSet::from([2, 3, 4])));
        assert_eq!(touched.since(later), Some(HashSet::from([4])));
    }

    #[test]
    fn forgetting_old_changes_keeps_the_recent_ones() {
        let touched = Touched::default();
        let mark = touched.mark();
        for id in 0..i64::try_from(FORGET_FROM).unwrap() * 2 {
            touched.touch([id]);
        }
        let named = touched.since(mark).unwrap();
        assert_eq!(
            named.len(),
            FORGET_FROM * 2,
            "none is older than the horizon"
        );
    }

    #[test]
    fn a_mark_older_than_the_horizon_cannot_tell() {
        let touched = Touched::default();
        let old = Mark {
            last: 0,
            at: Instant::now().checked_sub(HORIZON).unwrap(),
        };
        assert_eq!(touched.since(old), None);
    }
}
