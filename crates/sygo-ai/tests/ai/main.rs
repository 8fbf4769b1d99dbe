//! The AI's integration tests, one module a file, in one test binary
//! (`cargo test -p sygo-ai --test ai`), compiled and linked once: the
//! players (`players.rs`), the step game and its searches (`steps.rs`,
//! `toy_games.rs`), the defence of groups in danger (`defence.rs`), the
//! exact solver (`solver.rs`), and the tactics set (`tactics/`). The time
//! safety test measures its process's CPU time: it is a binary of its own
//! (`../time_safety.rs`).

#[allow(dead_code)]
#[path = "../../../sygo-rules/tests/rules/diagram.rs"]
mod diagram;
#[allow(dead_code)]
#[path = "../../../sygo-rules/tests/rules/tight.rs"]
mod tight;

mod defence;
mod players;
mod solver;
mod steps;
mod tactics;
mod toy_games;
