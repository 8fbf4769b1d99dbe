//! Rate limits (docs/web.md, "Limits on requests"): every kind of write a
//! stranger can make. Sign-ups and sign-ins per client address; sign-ins to
//! an account per account and address (a guesser elsewhere does not lock
//! the owner out) and, more loosely, per account; password changes per
//! account; games started (and lobby
//! challenges) per address and per account; chat lines per side of a
//! game; record uploads, the AI's hints and analyses, and reviews asked
//! for, per address. Each is a keyed token bucket of the `governor` crate.
//! The client's address comes from `client_addr.rs`.

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
    sign_in_by_account_and_address: DefaultKeyedRateLimiter<(String, IpAddr)>,
    sign_in_by_account: DefaultKeyedRateLimiter<String>,
    password_by_account: DefaultKeyedRateLimiter<i64>,
    uploads_by_address: DefaultKeyedRateLimiter<IpAddr>,
    searches_by_address: DefaultKeyedRateLimiter<IpAddr>,
    reviews_by_address: DefaultKeyedRateLimiter<IpAddr>,
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
                sign_in_by_account_and_address: RateLimiter::keyed(per_minute(10, 10)),
                sign_in_by_account: RateLimiter::keyed(per_minute(60, 60)),
                password_by_account: RateLimiter::keyed(per_minute(5, 5)),
                uploads_by_address: RateLimiter::keyed(per_minute(10, 20)),
                searches_by_address: RateLimiter::keyed(per_minute(60, 60)),
                reviews_by_address: RateLimiter::keyed(per_minute(10, 10)),
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

    /// A sign-in to the account of this name (any case) from `addr`: ten
    /// a minute from one address, so that a guesser elsewhere does not
    /// lock the owner out, and sixty a minute from all addresses together.
    pub(crate) fn sign_in(&self, name: &str, addr: IpAddr) -> Result<(), ApiError> {
        let Some(on) = &self.on else { return Ok(()) };
        let name = name.to_ascii_lowercase();
        take(
            &on.sign_in_by_account_and_address,
            &(name.clone(), addr),
            "sign-ins to this account from this address",
        )?;
        take(&on.sign_in_by_account, &name, "sign-ins to this account")
    }

    /// A password change (a guess of the current password) by `account`.
    pub(crate) fn password(&self, account: i64) -> Result<(), ApiError> {
        let Some(on) = &self.on else { return Ok(()) };
        take(
            &on.password_by_account,
            &account,
            "password changes for this account",
        )
    }

    /// A record uploaded from `addr`.
    pub(crate) fn upload(&self, addr: IpAddr) -> Result<(), ApiError> {
        let Some(on) = &self.on else { return Ok(()) };
        take(
            &on.uploads_by_address,
            &addr,
            "records uploaded from this address",
        )
    }

    /// A hint or an analysis of the AI asked for from `addr`.
    pub(crate) fn search(&self, addr: IpAddr) -> Result<(), ApiError> {
        let Some(on) = &self.on else { return Ok(()) };
        take(
            &on.searches_by_address,
            &addr,
            "hints and analyses from this address",
        )
    }

    /// A review of a game asked for from `addr`.
    pub(crate) fn review(&self, addr: IpAddr) -> Result<(), ApiError> {
        let Some(on) = &self.on else { return Ok(()) };
        take(
            &on.reviews_by_address,
            &addr,
            "reviews asked for from this address",
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
            limits.sign_in("Ann", a).unwrap();
        }
        assert!(
            limits.sign_in("ANN", a).is_err(),
            "one bucket whatever the case"
        );
        // The owner, from another address, is not locked out.
        limits.sign_in("Ann", b).unwrap();
        let off = Limits::new(false);
        for _ in 0..1000 {
            off.auth(a).unwrap();
        }
    }
}
