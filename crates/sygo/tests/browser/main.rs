//! The web app in a real browser: headless Chromium driven over WebDriver
//! (chromedriver, through the `fantoccini` crate) against `sygo serve`
//! started as a subprocess on a fresh database.
//!
//! One test per scenario, each small and named for what it shows, grouped
//! in a file per area; `harness.rs` holds what they share (the server, the
//! browser found or installed, desktop and phone sessions). Run one area
//! with `cargo test -p sygo --test browser -- play::`. Screenshots go to
//! `target/screenshots/`.

mod accounts;
mod bench;
mod cdp;
mod clocks;
mod comeback;
mod etiquette;
mod harness;
mod live;
mod lobby;
mod manners;
mod notices;
mod phone;
mod play;
mod review;
mod tutorial;
mod uploaded;
