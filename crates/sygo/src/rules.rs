//! `sygo rules`: how to play, in a page (`sygo_terminal::rules_page`).

use std::io::{self, Write};

/// Prints the page.
pub fn run() -> anyhow::Result<()> {
    let page = sygo_terminal::rules_page::page();
    io::stdout().lock().write_all(page.as_bytes())?;
    Ok(())
}
