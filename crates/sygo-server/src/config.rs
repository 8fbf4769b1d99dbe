//! How the server is set up, and the limits of the API (`docs/web.md`).

use std::net::SocketAddr;
use std::ops::RangeInclusive;
use std::time::Duration;

use crate::db::Database;

/// The largest request body accepted: 256 KiB (a record of a long game with
/// comments fits many times over).
pub const BODY_LIMIT: usize = 256 * 1024;

/// How long a client has to send a request's headers (and, on a
/// connection kept open, the next request's: an idle connection is closed
/// then), and its body: 10 s. A slow or silent client holds a connection
/// no longer (a live stream, which only the server writes to, is not
/// affected).
pub const READ_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Board sizes accepted for Sygo (the side of the square).
pub const SYGO_SIZES: RangeInclusive<u8> = 3..=25;

/// Board sizes accepted for Hexsygo (the base of the hexagon).
pub const HEXSYGO_SIZES: RangeInclusive<u8> = 2..=13;

/// The AI's levels.
pub const LEVELS: RangeInclusive<u8> = 1..=sygo_ai::MAX_LEVEL;

/// The AI's time per turn, in milliseconds.
pub const TURN_TIMES_MS: RangeInclusive<u64> = 100..=60_000;

/// The AI's time per turn when a request gives none, in milliseconds.
pub const DEFAULT_TURN_TIME_MS: u64 = 1000;

/// The time of a hint or an analysis, in milliseconds.
pub const SEARCH_TIMES_MS: RangeInclusive<u64> = 100..=10_000;

/// The time of a hint or an analysis when a request gives none.
pub const DEFAULT_SEARCH_TIME_MS: u64 = 1000;

/// The largest komi accepted, either way: a record's (`sygo_records`).
pub use sygo_records::MAX_KOMI;

/// The address `sygo serve` listens on unless told otherwise.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// The server's settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen (port 0: any free port; [`crate::Server::local_addr`]
    /// says which).
    pub addr: SocketAddr,
    /// Where games are kept: a SQLite file (created if missing) or a
    /// PostgreSQL database.
    pub db: Database,
    /// How many AI searches may run at once (each search thread takes one):
    /// by default the number of cores, so that requests are still answered
    /// while the AI thinks.
    pub ai_slots: usize,
    /// The interval of the `: keep-alive` comments of live updates.
    pub keep_alive: Duration,
    /// The visits of the AI's search of each position of a review: `None`
    /// (the default) for the number chosen by board size
    /// ([`review_visits`]); tests set a small number to be fast.
    pub review_visits: Option<u64>,
    /// Give the session cookie `Secure` (the server is reached over TLS,
    /// through a proxy that terminates it). Default false.
    pub secure_cookies: bool,
    /// Believe a proxy's `X-Forwarded-For` (the client's address, for the
    /// rate limits) and `X-Forwarded-Proto` (`https`: cookies get
    /// `Secure`). Only behind a proxy that sets them. Default false.
    pub trust_proxy: bool,
    /// Apply the rate limits of docs/web.md. Default true; a load test on
    /// one machine turns them off.
    pub rate_limits: bool,
}

/// The visits of the AI's search of each position of a review on a board
/// of `points` points, fixed so that a review is reproducible (one thread,
/// a fixed seed) and its cost known: 3,000 up to 100 points (9×9, Hexsygo
/// up to base 6), 2,000 up to 200 (13×13), 1,200 beyond (19×19). A 40-turn
/// 9×9 game and a 19×19 game take the times of `docs/performance.md`.
pub fn review_visits(points: usize) -> u64 {
    match points {
        0..=100 => 3_000,
        101..=200 => 2_000,
        _ => 1_200,
    }
}

impl Config {
    /// The settings for `addr` and `db`, the others by default.
    pub fn new(addr: SocketAddr, db: impl Into<Database>) -> Config {
        Config {
            addr,
            db: db.into(),
            ai_slots: std::thread::available_parallelism().map_or(1, |n| n.get()),
            keep_alive: Duration::from_secs(15),
            review_visits: None,
            secure_cookies: false,
            trust_proxy: false,
            rate_limits: true,
        }
    }
}
