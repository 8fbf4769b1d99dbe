//! `sygo arena`: a match between two players, to measure their strength.
//!
//! The match itself is `sygo_ai::arena`: games in pairs from random
//! openings with colours swapped, on several threads, with forfeits for
//! illegal turns and failing engines. This file reads the options, shows
//! progress (a bar in a terminal, a line per game otherwise), writes each
//! game as a record, and prints the report, whose last line is for
//! machines: `games=… wins=… losses=… draws=… score=… elo=… …`.
//! `docs/strength.md` explains the figures.

use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressStyle};
use sygo_ai::Budget;
use sygo_arena::{
    Distribution, EntrantSpec, GameEnd, GameReport, MatchReport, MatchSettings, Side, Sprt,
    SprtVerdict, Summary, run_match,
};
use sygo_records::{GameInfo, Record};

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
    let context = RecordContext {
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
            record_error = Some(e);
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
    let text = report_text(&names, &settings, &report, sprt.as_ref(), &args.records);
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

/// What a record says about the match it belongs to.
struct RecordContext {
    names: [String; 2],
    settings: MatchSettings,
}

impl RecordContext {
    /// The record of a game: the players' names, the result, a comment on
    /// the match in the root, the end of the opening marked, and a forfeit's
    /// reason on the last node.
    fn record(&self, game: &GameReport) -> anyhow::Result<Record> {
        let name = |side: Side| self.names[side.index()].clone();
        let (black, white) = match game.a_color {
            sygo_rules::Color::Black => (name(Side::A), name(Side::B)),
            sygo_rules::Color::White => (name(Side::B), name(Side::A)),
        };
        let info = GameInfo {
            black: Some(black),
            white: Some(white),
            result: Some(game.result_text()),
            ..GameInfo::default()
        };
        let record = Record::from_game(&game.game, info);
        let (info, start, mut tree) = record.into_parts();
        let s = &self.settings;
        let number = game.index + 1;
        let mut root = format!(
            "sygo arena, game {number} of {}: A = {} ({}), B = {} ({}); seed {}, {}.",
            s.games,
            self.names[0],
            game.color_of(Side::A).name(),
            self.names[1],
            game.color_of(Side::B).name(),
            s.seed,
            budget_text(&s.budget),
        );
        let pair = game.pair();
        if game.opening_turns > 0 {
            let _ = write!(
                root,
                " Turns 1 to {} are the random opening of pair {} (games {} and {}).",
                game.opening_turns,
                pair + 1,
                2 * pair + 1,
                2 * pair + 2
            );
        }
        tree.nodes[0].comment = Some(root);
        if game.opening_turns > 0 {
            // Node k holds turn k: the root is node 0.
            tree.nodes[game.opening_turns].comment = Some(format!(
                "End of the random opening ({} turns): the players take over.",
                game.opening_turns
            ));
        }
        if let GameEnd::Forfeit { loser, reason } = &game.end {
            let last = tree.nodes.len() - 1;
            let side = game.side_of(*loser);
            let note = format!(
                "{} ({} = {}) forfeits: {reason}",
                loser.name(),
                side.letter(),
                name(side)
            );
            let comment = &mut tree.nodes[last].comment;
            *comment = Some(match comment.take() {
                Some(before) => format!("{before}\n{note}"),
                None => note,
            });
        }
        Record::new(info, start, tree).context("the record of an arena game")
    }

    /// Writes game N's record as `game-N.sgf` in `dir` (N with leading
    /// zeros, so that the files sort in order).
    fn write(&self, dir: &Path, game: &GameReport) -> anyhow::Result<()> {
        let width = self.settings.games.to_string().len();
        let path = dir.join(format!("game-{:0width$}.sgf", game.index + 1));
        let text = self.record(game)?.to_sgf();
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
    }
}

fn budget_text(budget: &Budget) -> String {
    match (budget.time, budget.visits) {
        (_, Some(visits)) => format!("{visits} visits per turn"),
        (Some(time), None) => format!("{} ms per turn", time.as_millis()),
        (None, None) => "no limit per turn".to_string(),
    }
}

/// A number with at most one decimal, and its sign: `+1.5`, `-3`, `+0`.
fn margin(x: f64) -> String {
    let rounded = (x * 10.0).round() / 10.0;
    if rounded == 0.0 {
        "0".to_string()
    } else {
        format!("{rounded:+}")
    }
}

/// `1 win`, `2 wins`: a count and its noun.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn tally_text(t: &sygo_arena::Tally) -> String {
    format!(
        "{}, {}, {}",
        count(t.wins, "win", "wins"),
        count(t.losses, "loss", "losses"),
        count(t.draws, "draw", "draws")
    )
}

fn distribution_text(d: &Distribution, signed: bool) -> String {
    let f = |x: f64| {
        if signed {
            margin(x)
        } else {
            format!("{}", (x * 10.0).round() / 10.0)
        }
    };
    format!(
        "mean {}, sd {:.1}; min {}, 10% {}, 25% {}, median {}, 75% {}, 90% {}, max {}",
        f(d.mean),
        d.sd,
        f(d.min),
        f(d.p10),
        f(d.q1),
        f(d.median),
        f(d.q3),
        f(d.p90),
        f(d.max)
    )
}

fn millis(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 10.0 {
        format!("{ms:.2} ms")
    } else {
        format!("{ms:.0} ms")
    }
}

/// The report: people's lines, then the one line for machines.
fn report_text(
    names: &[String; 2],
    settings: &MatchSettings,
    report: &MatchReport,
    sprt: Option<&Sprt>,
    records: &Option<PathBuf>,
) -> String {
    let s = &report.summary;
    let mut out = String::new();
    let games = s.games();
    let _ = writeln!(out, "A: {}\nB: {}", names[0], names[1]);
    let _ = writeln!(
        out,
        "{}, {}{}, seed {}, {}, {}, {}, {:.1} s",
        settings.geometry.name(),
        count(games, "game", "games"),
        if report.stopped {
            format!(" (stopped early, of {})", settings.games)
        } else {
            String::new()
        },
        settings.seed,
        count(
            settings.opening_turns as u64,
            "opening turn",
            "opening turns"
        ),
        budget_text(&settings.budget),
        count(
            settings.jobs.clamp(1, settings.games.max(1)) as u64,
            "job",
            "jobs"
        ),
        report.elapsed.as_secs_f64()
    );
    let score = s.tally.score().unwrap_or(0.5);
    let _ = writeln!(
        out,
        "A's results: {} (score {:.1}%)",
        tally_text(&s.tally),
        score * 100.0
    );
    let _ = writeln!(out, "  as White: {}", tally_text(&s.as_white));
    let _ = writeln!(out, "  as Black: {}", tally_text(&s.as_black));
    let p = s.pentanomial.0;
    let _ = writeln!(
        out,
        "  pairs by A's points (0, 1/2, 1, 3/2, 2): {} {} {} {} {}",
        p[0], p[1], p[2], p[3], p[4]
    );
    match s.elo() {
        Some(elo) => {
            let _ = writeln!(out, "Elo of A over B: {elo} (95% interval)");
        }
        None => {
            let _ = writeln!(out, "Elo of A over B: no game played");
        }
    }
    let margins = Distribution::of(s.margins.iter().map(|&m| m as f64));
    match &margins {
        Some(d) => {
            let _ = writeln!(
                out,
                "score margin (A - B, {} games decided by the score): {}",
                d.count,
                distribution_text(d, true)
            );
        }
        None => {
            let _ = writeln!(out, "score margin: no game was decided by the score");
        }
    }
    let lengths = Distribution::of(s.lengths.iter().map(|&l| l as f64));
    if let Some(d) = &lengths {
        let _ = writeln!(out, "game length (turns): {}", distribution_text(d, false));
    }
    for (i, t) in s.time.iter().enumerate() {
        let _ = writeln!(
            out,
            "time per turn, {}: mean {}, longest {}, {} in {}",
            ['A', 'B'][i],
            millis(t.mean()),
            millis(t.longest),
            count(t.overruns, "overrun", "overruns"),
            count(t.turns, "turn", "turns")
        );
    }
    let _ = writeln!(
        out,
        "resignations: A {}, B {}; forfeits: A {}, B {}",
        s.resignations[0],
        s.resignations[1],
        s.forfeits_by(Side::A),
        s.forfeits_by(Side::B)
    );
    let mut forfeits = s.forfeits.clone();
    forfeits.sort_by_key(|f| f.game);
    for f in forfeits.iter().take(10) {
        let _ = writeln!(
            out,
            "  game {}: {} forfeits: {}",
            f.game + 1,
            f.side.letter(),
            f.reason
        );
    }
    if forfeits.len() > 10 {
        let _ = writeln!(out, "  … and {} more", forfeits.len() - 10);
    }
    let status = sprt.map(|sprt| (sprt, s.sprt(sprt)));
    if let Some((sprt, status)) = &status {
        let on = if s.pentanomial.pairs() > 0 {
            format!("{} pairs", s.pentanomial.pairs())
        } else {
            format!("{games} games")
        };
        let verdict = match status.verdict {
            SprtVerdict::H1 => format!("H1 accepted: A is stronger by {} Elo or more", sprt.elo1),
            SprtVerdict::H0 => format!("H0 accepted: A is not stronger by {} Elo", sprt.elo1),
            SprtVerdict::Continue => "no verdict yet: play more games".to_string(),
        };
        let _ = writeln!(
            out,
            "SPRT [{}, {}] (alpha {}, beta {}): LLR {:.2} in ({:.2}, {:.2}) over {on}: {verdict}",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, status.llr, status.lower, status.upper
        );
    }
    if let Some(dir) = records {
        let _ = writeln!(out, "records: {} games in {}", games, dir.display());
    }
    // The line for machines.
    let elo = s.elo();
    let number = |x: f64| {
        if x.is_infinite() {
            if x > 0.0 { "inf" } else { "-inf" }.to_string()
        } else {
            format!("{x:.1}")
        }
    };
    let _ = write!(
        out,
        "games={games} wins={} losses={} draws={} score={:.4} elo={} elo_low={} elo_high={}",
        s.tally.wins,
        s.tally.losses,
        s.tally.draws,
        score,
        elo.map_or("nan".into(), |e| number(e.elo)),
        elo.map_or("nan".into(), |e| number(e.low)),
        elo.map_or("nan".into(), |e| number(e.high)),
    );
    let _ = write!(
        out,
        " margin_mean={:.2} length_mean={:.1} forfeits_a={} forfeits_b={} overruns_a={} overruns_b={}",
        margins.map_or(0.0, |d| d.mean),
        lengths.map_or(0.0, |d| d.mean),
        s.forfeits_by(Side::A),
        s.forfeits_by(Side::B),
        s.time[0].overruns,
        s.time[1].overruns,
    );
    if let Some((_, status)) = &status {
        let _ = write!(out, " llr={:.3} sprt={}", status.llr, status.verdict);
    }
    let _ = writeln!(out, " seconds={:.2}", report.elapsed.as_secs_f64());
    out
}
