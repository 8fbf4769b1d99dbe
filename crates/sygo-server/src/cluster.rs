//! Several servers (and `sygo worker`s) on one PostgreSQL database.
//!
//! Each server keeps every game in memory and answers from it, so each must
//! hear of what the others commit. Every commit is told to the others in
//! its own transaction (`NOTIFY sygo`, `db/notice.rs`); each server listens
//! on a connection of its own (`db/postgres.rs`) and here brings its
//! memory up to date:
//!
//! - a turn, the whole change, is played on the live game from the notice
//!   itself (`Entry::follow_turn`), and its watchers get the same `turn`
//!   event as those of the server that stored it;
//! - anything else (turns taken back, chat, a game the notice says is
//!   behind) makes the server read that game again (`Entry::catch_up`);
//! - a change of accounts, sessions, seats, vacations, ratings or
//!   challenges makes it read again the accounts the notice names (their
//!   rows, and the challenges that name them), not every account; `sygo
//!   admin`'s changes, which name none, make it read every account;
//! - a lost connection, once back, makes it read everything again, since
//!   notices sent meanwhile are lost: a notice is a wake-up, the database
//!   is the truth;
//! - what is heard of one game is followed in that game's lane, one piece
//!   after another in the order heard (`lanes.rs`), each reading the
//!   database when it runs: a reading that began earlier is never put in
//!   place of a later one (two readings of a review, spawned side by side,
//!   once left a server showing a review without its last position); and a
//!   game a request read on a miss, added while its notice was followed,
//!   is read again by the follower (`follow::Loaded`).
//!
//! Two servers never both store conflicting turns: a turn is stored only
//! under its number and on the game's count of undos the server saw
//! (`db/statements.rs`), so the second is refused, reads the game again,
//! and answers as a server alone would.
//!
//! Background work is shared through the database. The AI's turns are jobs
//! (`jobs` table): whoever takes a job, with `FOR UPDATE SKIP LOCKED`, plays
//! it, renewing its lease while it thinks (`ai.rs`); a server or worker
//! killed stops renewing, and another takes the job when the lease runs out.
//! The clocks' watcher (timeouts, vacations, untouched games) runs on one
//! server at a time, the one holding an advisory lock, which PostgreSQL lets
//! go when that server's connection ends.
//! Reviews are jobs too (kind `review`): whoever plays the AI takes one,
//! and each position it stores is told, so that the other servers read the
//! review again (`review.rs`).
//!
//! What the players offer each other, an undo request and a rematch offer,
//! is stored (`offers`) and followed like any change of a game; a rematch
//! offer stored where the other side's stands is refused, so that the
//! server reads it and starts the one rematch. Which pages are open is told
//! without being stored (`Entry::presence` says when), and each server
//! expires a page no one has heard of, as it does its own.

//!
//! This file holds what a server keeps of the others ([`Cluster`]);
//! `follow.rs` does the following and the taking of jobs.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Notify;

use crate::lanes::Lanes;

/// What a server keeps of the others on its database.
pub(crate) struct Cluster {
    /// Whether this server leads the clocks' watcher now.
    pub leader: Arc<AtomicBool>,
    /// Wakes the AI's job taker (a game where the AI is to move changed).
    pub wake: Notify,
    /// Most AI jobs taken at once (the AI's slots).
    pub slots: i64,
    /// The readings of the accounts asked for (`follow.rs`: one at a time,
    /// what is heard meanwhile gathered for the next).
    pub accounts_wanted: parking_lot::Mutex<AccountsWanted>,
    /// Held while accounts are read and made the server's, so that two
    /// readings (the follower's, a request's that found no account or
    /// session) are made the server's in the order they were read.
    pub accounts_reading: tokio::sync::Mutex<()>,
    /// What is heard of each game, followed in the game's lane (in the
    /// order heard, one piece at a time).
    pub lanes: Arc<Lanes>,
}

/// The readings of the accounts asked for and not begun.
#[derive(Debug, Default)]
pub(crate) struct AccountsWanted {
    /// Whether a reading is under way (its task takes what is asked for
    /// meanwhile).
    pub running: bool,
    /// Every account (which covers any ids asked for before it begins).
    pub whole: bool,
    /// These accounts.
    pub ids: BTreeSet<i64>,
}

impl Cluster {
    /// Whether this server leads the clocks' watcher now.
    pub(crate) fn leads(&self) -> bool {
        self.leader.load(Ordering::SeqCst)
    }
}

/// What a process does among the others on the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// `sygo serve`: answers requests, may lead the clocks' watcher, plays
    /// the AI's jobs if it has AI slots.
    Server,
    /// `sygo worker`: plays the AI's jobs only.
    Worker,
}
