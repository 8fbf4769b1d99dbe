//! `sygo replay FILE`: a record's main line stepped through at a prompt
//! (`sygo_terminal::replay`).

use std::io::{self, IsTerminal};
use std::path::PathBuf;

use sygo_records::Record;

/// Options of `sygo replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The record (`docs/records.md`).
    file: PathBuf,
}

/// Steps through the record until `quit` or the end of the input.
pub fn run(args: &ReplayArgs) -> anyhow::Result<()> {
    let record = Record::read_file(&args.file)?;
    let echo = !io::stdin().is_terminal();
    sygo_terminal::replay::replay(&record, io::stdin().lock(), io::stdout().lock(), echo)?;
    Ok(())
}
