//! `sygo score FILE`: the score at the end of a record's main line (RULES.md
//! §8), each side's stones and territory, and the result.

use std::io::{self, Write};
use std::path::PathBuf;

use sygo_rules::Color;

use crate::review;

/// Options of `sygo score`.
#[derive(Debug, clap::Args)]
pub struct ScoreArgs {
    /// The record (`docs/records.md`).
    file: PathBuf,
}

/// Prints the final score.
pub fn run(args: &ScoreArgs) -> anyhow::Result<()> {
    let record = review::load(&args.file)?;
    let game = record.main_line();
    let position = game.position();
    let komi = record.info().komi;
    let territory = position.territory();
    let ending = if let Some(loser) = position.resigned() {
        format!("ended when {loser} resigned")
    } else if position.is_over() {
        "ended by two passes".to_string()
    } else {
        "not finished: the score of its last position".to_string()
    };
    let turns = game.turns().len();
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{}, {turns} {}, {ending}",
        position.geometry(),
        if turns == 1 { "turn" } else { "turns" }
    )?;
    for color in [Color::Black, Color::White] {
        let stones = territory.stones[color.index()];
        let area = territory.area(color);
        writeln!(
            out,
            "{color}: {stones} stones + {area} territory = {}",
            stones + area
        )?;
    }
    if komi != 0.0 {
        writeln!(out, "komi: {komi} for White")?;
    }
    let score = territory.score().result_with_komi(komi);
    match position.resigned() {
        Some(loser) => writeln!(
            out,
            "result: {}+R ({loser} resigned; on the board, {score})",
            loser.opponent().letter()
        )?,
        None if score == "0" => writeln!(out, "result: 0, a draw")?,
        None => writeln!(out, "result: {score}")?,
    }
    out.flush()?;
    Ok(())
}
