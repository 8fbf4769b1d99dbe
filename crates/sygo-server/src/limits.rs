//! Rate limits (docs/web.md, "Limits on requests"): sign-ups and sign-ins
//! per client address, sign-ins per account, games started per address and
//! per account, chat lines per side of a game, each a keyed token bucket of the `governor` crate. The
//! client's address comes from `client_addr.rs`.

use std::net::IpAddr;
use std::num::NonZeroU32;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::ApiError;

/// A limiter's keys are forgotten once it holds this many (those whose
/// bucket is full again), so that many addresses do not grow it forever.
const MAX_KEYS: usize = 10_000;

/// The rate limits of a server.
pub(crate) struct Limits {
    /// `None`: no limits (`sygo serve --no-rate-limits`).
    on: Option<On>,
}

struct On {
    auth_by_address: DefaultKeyedRateLimiter<IpAddr>,
    sign_in_by_account: DefaultKeyedRateLimiter<String>,
    games_by_address: DefaultKeyedRateLimiter<IpAddr>,
    games_by_account: DefaultKeyedRateLimiter<i64>,
    chat_by_side: DefaultKeyedRateLimiter<(String, u8)>,
}

fn per_minute(n: u32, burst: u32) -> Quota {
    // Both are constants above zero.
    let nz = |n: u32| NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
    Quota::per_minute(nz(n)).allow_burst(nz(burst))
}

/// Takes one request from the bucket of `key`, or says when to try again.
fn take<K>(limiter: &DefaultKeyedRateLimiter<K>, key: &K, what: &str) -> Result<(), ApiError>
where
    K: Clone + Eq + std::hash::Hash,
{
    if limiter.len() > MAX_KEYS {
        limiter.retain_recent();
    }
    limiter.check_key(key).map_err(|not_until| {
        let wait = not_until.wait_time_from(DefaultClock::default().now());
        let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        ApiError::RateLimited {
            message: format!(
                "too many {what}: try again in {secs} second{}",
                if secs == 1 { "" } else { "s" }
            ),
            retry_after: secs,
        }
    })
}

impl Limits {
    /// The limits of docs/web.md, or none.
    pub(crate) fn new(on: bool) -> Limits {
        Limits {
            on: on.then(|| On {
                auth_by_address: RateLimiter::keyed(per_minute(30, 30)),
                sign_in_by_account: RateLimiter::keyed(per_minute(10, 10)),
                games_by_address: RateLimiter::keyed(per_minute(60, 120)),
                games_by_account: RateLimiter::keyed(per_minute(60, 120)),
                chat_by_side: RateLimiter::keyed(per_minute(20, 10)),
            }),
        }
    }

    /// A sign-up or a sign-in from `addr`.
    pub(crate) fn auth(&self, addr: IpAddr) -> Result<(), ApiError> {
        let Some(on) = &self.on else { return Ok(()) };
        take(
            &on.auth_by_address,
            &addr,
            "sign-ins and sign-ups from this address",
        )
    }

    /// A sign-in to the account of this name (any case).
    pub(crate) fn sign_in(&self, name: &str) -> Result<(), ApiError> {
        let Some(on) = &self.on else { return Ok(()) };
        take(
            &on.sign_in_by_account,
            &name.to_ascii_lowercase(),
            "sign-ins to this account",
        )
    }

    /// A line of chat from a side of a game (`side`: `Color::index`).
    pub(crate) fn chat(&self, game: &str, side: usize) -> Result<(), ApiError> {
        let Some(on) = &self.on else { return Ok(()) };
        take(
            &on.chat_by_side,
            &(game.to_string(), side as u8),
            "chat lines from this side",
        )
    }

    /// A game started from `addr`, by `account` if signed in.
    pub(crate) fn game(&self, addr: IpAddr, account: Option<i64>) -> Result<(), ApiError> {
        let Some(on) = &self.on else { return Ok(()) };
        take(
            &on.games_by_address,
            &addr,
            "games started from this address",
        )?;
        match account {
            Some(id) => take(&on.games_by_account, &id, "games started by this account"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_empties_and_says_when_to_come_back() {
        let limits = Limits::new(true);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        for _ in 0..30 {
            limits.auth(a).unwrap();
        }
        let Err(ApiError::RateLimited {
            message,
            retry_after,
        }) = limits.auth(a)
        else {
            panic!("the 31st sign-in in a minute is refused")
        };
        assert!(message.starts_with("too many sign-ins and sign-ups from this address"));
        assert!((1..=2).contains(&retry_after), "{retry_after}");
        limits.auth(b).unwrap();
        for _ in 0..10 {
            limits.sign_in("Ann").unwrap();
        }
        assert!(
            limits.sign_in("ANN").is_err(),
            "one bucket whatever the case"
        );
        let off = Limits::new(false);
        for _ in 0..1000 {
            off.auth(a).unwrap();
        }
    }
}
