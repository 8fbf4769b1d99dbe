//! `sygo show FILE [--turn N]`: the position after N turns of a record's
//! main line (by default its end), drawn and described
//! (`sygo_terminal::review::show`).

use std::io::{self, Write};
use std::path::PathBuf;

use sygo_records::Record;
use sygo_terminal::review;

/// Options of `sygo show`.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The record (`docs/records.md`).
    file: PathBuf,
    /// The number of turns of the main line to play (0 is the start);
    /// default: all of them.
    #[arg(long, value_name = "N")]
    turn: Option<usize>,
}

/// Prints the position.
pub fn run(args: &ShowArgs) -> anyhow::Result<()> {
    let record = Record::read_file(&args.file)?;
    let n = review::turn_number(&record, args.turn)?;
    let mut out = io::stdout().lock();
    out.write_all(review::show(&record, n).as_bytes())?;
    out.flush()?;
    Ok(())
}
