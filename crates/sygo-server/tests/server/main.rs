//! The web server's integration tests, one module a file, in one test
//! binary (`cargo test -p sygo-server --test server`): axum, tokio and the
//! database clients compiled into it and linked once at the test profile's
//! opt-level 3, not once a file. A test's name starts with its file's:
//! `api::games_are_created_listed_and_shown`, `cluster::…`.
//!
//! `common` is what the others share (a real server on a free port, the
//! application called in-process, a database of its own for each test);
//! `../records/` holds the records the uploads send. The tests of
//! `cluster.rs` and `tls.rs` need PostgreSQL and are ignored:
//! `scripts/test.sh` runs them on the server it starts.

mod common;

mod accounts;
mod api;
mod clocks;
mod cluster;
mod comeback;
mod conditional;
mod etiquette;
mod fuzz;
mod hostile;
mod lessons;
mod live;
mod lobby;
mod manners;
mod observability;
mod one_server;
mod pages;
mod position;
mod review;
mod stored;
mod tls;
mod uploaded;
mod vacation;
