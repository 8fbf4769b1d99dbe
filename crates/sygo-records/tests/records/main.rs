//! The records library's integration tests, one module a file, in one test
//! binary (`cargo test -p sygo-records --test records`), compiled and
//! linked once: the refusals with their node and reason (`errors.rs`), the
//! documentation's example records (`examples.rs`), and records written
//! and read back (`round_trip.rs`).

mod errors;
mod examples;
mod round_trip;
