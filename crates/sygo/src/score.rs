//! `sygo score FILE`: the score at the end of a record's main line (docs/rules.md
//! §8), each side's stones and territory, and the result
//! (`sygo_terminal::review::final_score`).

use std::io::{self, Write};
use std::path::PathBuf;

use sygo_records::Record;

/// Options of `sygo score`.
#[derive(Debug, clap::Args)]
pub struct ScoreArgs {
    /// The record (`docs/records.md`).
    file: PathBuf,
}

/// Prints the final score.
pub fn run(args: &ScoreArgs) -> anyhow::Result<()> {
    let record = Record::read_file(&args.file)?;
    let mut out = io::stdout().lock();
    out.write_all(sygo_terminal::review::final_score(&record).as_bytes())?;
    out.flush()?;
    Ok(())
}
