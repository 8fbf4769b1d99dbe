//! `sygo analyze FILE [--turn N]`: the AI's view of a position of a record
//! (`sygo_terminal::analysis`), as text or JSON.

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

use sygo_ai::MAX_LEVEL;
use sygo_records::Record;
use sygo_terminal::analysis::{self, Request};
use sygo_terminal::players::{LEVELS, TIMES};
use sygo_terminal::{ColorChoice, Paint, review};

/// Options of `sygo analyze`.
#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// The record (`docs/records.md`).
    file: PathBuf,
    /// The number of turns of the main line to play before analysing, as in
    /// `sygo show` (0 is the start); default: all of them.
    #[arg(long, value_name = "N")]
    turn: Option<usize>,
    /// Time to think, in milliseconds (default 2000 when --visits is not
    /// given). With --visits too, the first limit reached stops the search.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(TIMES))]
    time: Option<u64>,
    /// Simulations to run (with one thread, the same visits and seed give
    /// the same analysis).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    visits: Option<u64>,
    /// The AI's level, 1 to 6 (the strongest, on every core). Levels below 6
    /// run on one thread and stop at their own number of simulations (50 at
    /// level 1, four times more each level up) unless --visits says more.
    #[arg(long, default_value_t = MAX_LEVEL, value_parser = clap::value_parser!(u8).range(LEVELS))]
    level: u8,
    /// Search threads (default: the level's, every core at level 6).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Seed of the AI's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print the analysis as JSON, for scripts.
    #[arg(long)]
    json: bool,
    /// Colours: auto (when the output is a terminal and NO_COLOR is not
    /// set), always, or never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

/// Analyses the position and prints the report.
pub fn run(args: &AnalyzeArgs) -> anyhow::Result<()> {
    let record = Record::read_file(&args.file)?;
    let n = review::turn_number(&record, args.turn)?;
    let game = record.game_after(n);
    let request = Request {
        level: args.level,
        threads: args.threads,
        visits: args.visits,
        time: args.time.map(Duration::from_millis),
        seed: args.seed,
    };
    let report = analysis::analyse(&request, &game)?;
    let text = if args.json {
        analysis::json(&record, n, &game, &report)
    } else {
        let paint = Paint {
            color: args.color.resolve(),
        };
        analysis::text(&record, n, &game, &report, paint)
    };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}
