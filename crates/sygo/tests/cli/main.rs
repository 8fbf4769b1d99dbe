//! The command line's integration tests, one module a file, in one test
//! binary (`cargo test -p sygo --test cli`): each runs the built `sygo`
//! (`CARGO_BIN_EXE_sygo`) as a user or a harness does, or reads the
//! workspace's documents. Compiled and linked once, not once a file (each
//! with the server's crates). A test's name starts with its file's:
//! `gtp::…`, `serve::…`.
//!
//! `../transcripts/` holds the whole games `gtp.rs` replays. The test of
//! `cluster.rs` needs PostgreSQL and is ignored: `scripts/test.sh` runs it
//! on the server it starts. The browser tests are a binary of their own
//! (`../browser/`).

mod analyze;
mod architecture;
mod arena;
mod bench;
mod cluster;
mod common;
mod gtp;
mod learn;
mod play;
mod records;
mod rules;
mod serve;
mod solve;
mod study;
