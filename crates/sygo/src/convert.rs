//! `sygo convert`: a record to a position string, or a position string to
//! a record (`sygo_terminal::convert`), written to a file or standard output.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Context as _;
use sygo_records::Record;
use sygo_terminal::{convert, review};

/// Options of `sygo convert`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["file", "position"])))]
pub struct ConvertArgs {
    /// A record (`docs/records.md`): prints the position string of the
    /// position after its main line (or after `--turn N` turns).
    file: Option<PathBuf>,
    /// A position string (`docs/position-string.md`, in quotes): prints a
    /// record that starts from that position.
    #[arg(long, value_name = "STRING", conflicts_with = "file")]
    position: Option<String>,
    /// With a record: the number of turns of the main line to play (0 is the
    /// start); default: all of them.
    #[arg(long, value_name = "N", conflicts_with = "position")]
    turn: Option<usize>,
    /// Write to this file instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    output: Option<PathBuf>,
}

/// Converts, and writes the result.
pub fn run(args: &ConvertArgs) -> anyhow::Result<()> {
    let text = match (&args.file, &args.position) {
        (Some(path), _) => {
            let record = Record::read_file(path)?;
            let n = review::turn_number(&record, args.turn)?;
            convert::to_position_string(&record, n)
        }
        (None, Some(text)) => convert::to_record(text)?,
        (None, None) => unreachable!("clap requires a file or a position"),
    };
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => {
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
    }
    Ok(())
}
