//! `sygo arena`: a match between two players, to measure their strength.
//!
//! The match itself is `sygo_arena`: games in pairs from random openings
//! with colours swapped, on several threads, with forfeits for illegal
//! turns and failing engines; so are each game's record
//! (`sygo_arena::GameRecords`) and the report (`sygo_arena::report_text`),
//! whose last line is for machines. This file reads the options and shows
//! progress (a bar in a terminal, a line per game otherwise).

use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressStyle};
use sygo_ai::Budget;
use sygo_arena::{
    EntrantSpec, GameEnd, GameRecords, GameReport, MatchSettings, Sprt, SprtVerdict, Summary,
    report_text, run_match,
};

use crate::BoardArgs;

/// The player specification grammar, for `--help`.
const SPEC_HELP: &str = "\
Player specifications (SPEC):
  random                 uniformly random legal turns
  cmd:COMMAND            an engine speaking the protocol (docs/protocol.md),
                         started as a subprocess; the command is split into
                         words as a shell would, but no shell runs it:
                         cmd:sygo gtp --seed 3
  NAME:KEY=VALUE,...     a built-in player with options

Results are A's: wins, losses, draws, score margins (A - B) and the Elo
difference of A over B with its 95% interval. Game 2k and 2k+1 start from the
same random opening, A playing White (who moves first) in even games. The last
line of the report is for machines. See docs/strength.md.";

/// Options of `sygo arena`.
#[derive(Debug, clap::Args)]
#[command(after_help = SPEC_HELP)]
pub struct ArenaArgs {
    /// Player A, whose results are reported: a player specification (below).
    #[arg(long = "a", value_name = "SPEC", value_parser = parse_spec)]
    a: EntrantSpec,
    /// Player B: a player specification (below).
    #[arg(long = "b", value_name = "SPEC", value_parser = parse_spec)]
    b: EntrantSpec,
    /// Number of games (pairs of games share an opening).
    #[arg(long, default_value_t = 100)]
    games: usize,
    #[command(flatten)]
    board: BoardArgs,
    /// Time for each turn, in milliseconds [default: 100, unless --visits].
    #[arg(long, value_name = "MS", conflicts_with = "visits")]
    time_per_turn: Option<u64>,
    /// Playouts for each turn, instead of a time.
    #[arg(long, value_name = "N")]
    visits: Option<u64>,
    /// Seed of the openings and of the built-in players' choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once [default: the number of cores].
    #[arg(long, value_name = "J")]
    jobs: Option<usize>,
    /// Random turns played from the empty board before the players take over.
    #[arg(long, value_name = "K", default_value_t = 4)]
    opening_turns: usize,
    /// Write every game as an SGF record in this folder (created if needed).
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Run a sequential probability ratio test of H0: A is ELO0 stronger,
    /// against H1: A is ELO1 stronger; the match stops at the verdict.
    #[arg(long, value_name = "ELO0,ELO1", value_parser = parse_sprt, allow_hyphen_values = true)]
    sprt: Option<(f64, f64)>,
    /// The SPRT's chance of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05, value_parser = parse_probability)]
    alpha: f64,
    /// The SPRT's chance of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05, value_parser = parse_probability)]
    beta: f64,
    /// Seconds an engine may take to answer a command (plus the turn's time
    /// for genmove) before it forfeits the game.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, value_parser = parse_seconds)]
    engine_timeout: f64,
}

fn parse_spec(text: &str) -> Result<EntrantSpec, String> {
    text.parse()
        .map_err(|e: sygo_arena::EntrantSpecError| e.to_string())
}

fn parse_sprt(text: &str) -> Result<(f64, f64), String> {
    let bad = || format!("{text:?} is not ELO0,ELO1 (two numbers, ELO0 < ELO1)");
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let (a, b): (f64, f64) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if a.is_finite() && b.is_finite() && a < b {
        Ok((a, b))
    } else {
        Err(bad())
    }
}

fn parse_probability(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if p > 0.0 && p < 0.5 => Ok(p),
        _ => Err(format!(
            "{text:?} is not a probability above 0 and below 0.5"
        )),
    }
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 1e6 => Ok(s),
        _ => Err(format!("{text:?} is not a number of seconds")),
    }
}

/// Plays the match and prints the report.
pub fn run(args: &ArenaArgs) -> anyhow::Result<()> {
    let geometry = args.board.geometry()?;
    let budget = match (args.visits, args.time_per_turn) {
        (Some(visits), _) => Budget::visits(visits),
        (None, time) => Budget::time(Duration::from_millis(time.unwrap_or(100))),
    };
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let settings = MatchSettings {
        geometry,
        games: args.games,
        budget,
        seed: args.seed,
        jobs,
        opening_turns: args.opening_turns,
    };
    let timeout = Duration::from_secs_f64(args.engine_timeout);
    let a = args.a.entrant(timeout);
    let b = args.b.entrant(timeout);
    let sprt = args.sprt.map(|(elo0, elo1)| Sprt {
        elo0,
        elo1,
        alpha: args.alpha,
        beta: args.beta,
    });
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the folder {}", dir.display()))?;
    }
    let names = [a.name().to_string(), b.name().to_string()];
    let context = GameRecords {
        names: names.clone(),
        settings: settings.clone(),
    };

    let mut progress = Progress::new(args.games);
    let mut record_error = None;
    let report = run_match(&settings, &a, &b, |game, summary| {
        progress.game(game, summary, args.games);
        if let Some(dir) = &args.records
            && let Err(e) = context.write(dir, game)
        {
            record_error = Some(anyhow::Error::from(e));
            return ControlFlow::Break(());
        }
        match sprt {
            Some(sprt) if summary.sprt(&sprt).verdict != SprtVerdict::Continue => {
                ControlFlow::Break(())
            }
            _ => ControlFlow::Continue(()),
        }
    })
    .map_err(anyhow::Error::msg)?;
    progress.finish();
    if let Some(error) = record_error {
        return Err(error);
    }
    let text = report_text(
        &names,
        &settings,
        &report,
        sprt.as_ref(),
        args.records.as_deref(),
    );
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Progress on standard error: a bar in a terminal, else a line per game.
enum Progress {
    Bar(ProgressBar),
    Lines,
}

impl Progress {
    fn new(games: usize) -> Progress {
        if io::stderr().is_terminal() {
            let bar = ProgressBar::new(games as u64);
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:30.cyan/blue} {pos}/{len} games  {msg}  [{elapsed} < {eta}]",
                )
                .expect("the template is valid")
                .progress_chars("=> "),
            );
            Progress::Bar(bar)
        } else {
            Progress::Lines
        }
    }

    fn game(&mut self, game: &GameReport, summary: &Summary, games: usize) {
        let t = summary.tally;
        let elo = summary.elo().map_or(String::new(), |e| e.to_string());
        match self {
            Progress::Bar(bar) => {
                bar.inc(1);
                bar.set_message(format!(
                    "A: +{} -{} ={}  Elo {elo}",
                    t.wins, t.losses, t.draws
                ));
                if matches!(game.end, GameEnd::Forfeit { .. }) {
                    bar.println(format!("game {}: {}", game.index + 1, game.describe()));
                }
            }
            Progress::Lines => {
                eprintln!(
                    "game {}/{games}: {}; A +{} -{} ={}",
                    game.index + 1,
                    game.describe(),
                    t.wins,
                    t.losses,
                    t.draws
                );
            }
        }
    }

    fn finish(&self) {
        if let Progress::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}
