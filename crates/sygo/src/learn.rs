//! `sygo learn RECORD…`: fits the AI's learned step weights to the turns of
//! game records (docs/ai.md, "Learned step weights"): each stone of a turn,
//! and the end of a growth turn, is a choice among the steps the search
//! could take there.

use std::fs;
use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{Context, bail};
use sygo_ai::knowledge::{Fit, TrainingSet};
use sygo_records::Record;
use sygo_rules::{Turn, Variant};

/// Options of `sygo learn`.
#[derive(Debug, clap::Args)]
pub struct LearnArgs {
    /// The records to learn from (one board family; every other record
    /// kept aside to measure the fit on turns it did not see).
    #[arg(required = true)]
    records: Vec<PathBuf>,
    /// Where to write the weights (`crates/sygo-ai/data/weights-VARIANT.txt`
    /// are the ones the AI ships with).
    #[arg(long)]
    out: PathBuf,
    /// Turns of each record to skip from its start (an arena's random
    /// opening).
    #[arg(long, default_value_t = 4)]
    skip: usize,
    /// Rounds of minorization–maximization.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=1000))]
    rounds: u64,
    /// One record in every K is kept aside to measure the fit (0: none).
    #[arg(long, default_value_t = 10)]
    holdout: usize,
}

/// Reads the records, fits, writes the weights and reports the fit.
pub fn run(args: &LearnArgs) -> anyhow::Result<()> {
    let mut variant: Option<Variant> = None;
    let (mut train, mut test) = (None::<TrainingSet>, None::<TrainingSet>);
    for (i, path) in args.records.iter().enumerate() {
        let record = Record::read_file(path).with_context(|| path.display().to_string())?;
        let v = record.start().geometry().variant();
        if *variant.get_or_insert(v) != v {
            bail!(
                "{}: a {v} record among {} records",
                path.display(),
                variant.unwrap_or(v)
            );
        }
        let set = if args.holdout > 0 && i % args.holdout == args.holdout - 1 {
            test.get_or_insert_with(|| TrainingSet::new(v))
        } else {
            train.get_or_insert_with(|| TrainingSet::new(v))
        };
        let mut position = record.start().clone();
        for (k, line_turn) in record.main_line_turns().into_iter().enumerate() {
            if line_turn.turn == Turn::Resign {
                break;
            }
            if k >= args.skip {
                set.add_turn(&position, &line_turn.turn);
            }
            position
                .play_turn(&line_turn.turn)
                .with_context(|| format!("{}: turn {}", path.display(), k + 1))?;
        }
    }
    let Some(train) = train else {
        bail!("no record to learn from");
    };
    let mut out = io::stdout().lock();
    let show = |fit: &Fit| {
        format!(
            "{} choices, log-likelihood {:.4}, best step chosen {:.1}%",
            fit.choices,
            fit.log_likelihood,
            100.0 * fit.top1
        )
    };
    let even = train.evaluate(&sygo_ai::knowledge::Weights::even(
        variant.unwrap_or(Variant::Sygo),
    ));
    writeln!(out, "learning from {}", show(&even))?;
    let weights = train.fit(args.rounds as usize, |round, fit| {
        let _ = writeln!(io::stdout(), "round {round}: {}", show(&fit));
    });
    if let Some(test) = &test {
        writeln!(
            out,
            "kept aside, even weights: {}",
            show(&test.evaluate(&sygo_ai::knowledge::Weights::even(weights.variant()),))
        )?;
        writeln!(
            out,
            "kept aside, learned: {}",
            show(&test.evaluate(&weights))
        )?;
    }
    fs::write(&args.out, weights.to_text())
        .with_context(|| format!("writing {}", args.out.display()))?;
    writeln!(out, "wrote {}", args.out.display())?;
    Ok(())
}
