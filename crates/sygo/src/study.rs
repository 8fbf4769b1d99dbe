//! `sygo study`: self-play studies of a board at a fixed strength, and
//! their summary (`sygo study plot`); the results are in `docs/balance.md`.
//!
//! A study plays `--games` games of one player against itself on every
//! core and keeps a folder (`--out`): `study.txt` (what the games are
//! played with), `games.csv` (a row per game: result, margin, length, the
//! balance turn, every turn), `report.md` (White's score, the margin, the
//! game lengths, the balance turn, the openings; also printed), and
//! `margins.svg` and `lengths.svg`.
//!
//! - **Reproducible.** Game i (from 0) has its own seed, `derive_seed(seed,
//!   i, 0)` (the arena's); its random opening is `opening_from(start, K,
//!   game seed, 0)` and White's and Black's players are built from
//!   `derive_seed(game seed, 0, 1)` and `(…, 2)`. Players search on one
//!   thread (`threads=1` is added to `mcts`) with a fixed number of
//!   playouts (time is refused), so a game depends on nothing else, and
//!   `games.csv` is the same whatever `--jobs` is: rows are written in the
//!   order of the games.
//! - **Resumable.** Rows are appended as games finish (each in one write);
//!   the same command again plays only the games missing, so a study
//!   stopped at any moment (Ctrl-C, a kill) and resumed writes exactly the
//!   file of a study run straight through. A folder with other parameters is
//!   refused.
//!
//! `sygo study plot DIR...` reads several studies and writes `summary.md`
//! and the plots across boards (`win-rate.svg`, `margin.svg`), pairing the
//! studies of a board with and without the balance turn.

mod plot;
mod report;
mod stats;
mod table;

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use sygo_ai::{Budget, PlayerKind, PlayerSpec};
use sygo_arena::{Entrant, GameSetup, derive_seed, opening_from, play_game_from};
use sygo_records::{GameInfo, Record};
use sygo_rules::{Color, Geometry, Position};

use crate::BoardArgs;
use report::{Numbers, Study};
use table::{GameRow, Params, StudyFiles};

/// More about the options, for `--help`.
const STUDY_HELP: &str = "\
The player is a built-in player specification, as sygo arena takes (random,
uct:visits=2000, mcts:level=3, mcts:visits=1000,resign=off); each game runs on
one core (threads=1 is added to mcts), with a fixed number of playouts a turn
(--visits, or the player's own visits or level): a time limit would make the
games depend on the machine's load. resign=off scores every game.

The folder (--out) keeps study.txt, games.csv (a row per game, written as
games finish), report.md, margins.svg and lengths.svg. Stop a study at any
time (Ctrl-C): the same command resumes it, and the CSV is then exactly what a
study run straight through writes. More games: the same command with a larger
--games.

sygo study plot DIR... --out DIR2 compares studies: White's score and the
margin by board, with and without the balance turn (docs/balance.md).";

/// Options of `sygo study`.
#[derive(Debug, clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = STUDY_HELP
)]
pub struct StudyArgs {
    /// `plot`: the summary of several studies.
    #[command(subcommand)]
    command: Option<StudyCommand>,
    #[command(flatten)]
    run: RunArgs,
}

/// The subcommands of `sygo study`.
#[derive(Debug, clap::Subcommand)]
enum StudyCommand {
    /// Compare studies (folders of `sygo study`): White's score and the mean
    /// margin by board, with and without the balance turn, as SVG plots and
    /// a table (summary.md).
    Plot(PlotArgs),
}

/// Options of a study.
#[derive(Debug, clap::Args)]
struct RunArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Number of games of the study (a study resumed plays the ones
    /// missing).
    #[arg(long, required = true)]
    games: Option<usize>,
    /// The player of both sides: a built-in player specification (below).
    #[arg(long, value_name = "SPEC", required = true, value_parser = parse_player)]
    player: Option<PlayerSpec>,
    /// Playouts for each turn [default: the player's own].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    visits: Option<u64>,
    /// Seed of the study: game i's randomness follows from it and i alone.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once, one per thread [default: the number of cores].
    #[arg(long, value_name = "J", visible_alias = "threads")]
    jobs: Option<usize>,
    /// Play without Black's balance turn (as if a growth turn had already
    /// been played: the start `… w g 0`, as `sygo solve --no-balance`).
    #[arg(long)]
    no_balance: bool,
    /// Uniformly random turns played from the start before the player takes
    /// over (variety for a player that would play the same opening).
    #[arg(long, value_name = "K", default_value_t = 0)]
    opening_turns: usize,
    /// The study's folder [default: study-VARIANT-SIZE, with -no-balance].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Also write each game as an SGF record, in DIR/records/.
    #[arg(long)]
    sgf: bool,
}

/// Options of `sygo study plot`.
#[derive(Debug, clap::Args)]
struct PlotArgs {
    /// The studies' folders.
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// Where to write summary.md, win-rate.svg and margin.svg.
    #[arg(long, value_name = "DIR", default_value = ".")]
    out: PathBuf,
}

fn parse_player(text: &str) -> Result<PlayerSpec, String> {
    text.parse().map_err(|e: sygo_ai::SpecError| e.to_string())
}

/// Runs `sygo study` or `sygo study plot`.
pub fn run(args: &StudyArgs) -> anyhow::Result<()> {
    match &args.command {
        Some(StudyCommand::Plot(plot)) => run_plot(plot),
        None => run_study(&args.run),
    }
}

/// The player as the study plays it: on one thread, with fixed playouts.
///
/// # Errors
///
/// A player with more than one thread, or whose turns would be limited by
/// time.
fn study_player(spec: &PlayerSpec, visits: Option<u64>) -> anyhow::Result<PlayerSpec> {
    let option = |key: &str| {
        spec.options()
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    if let Some(threads) = option("threads")
        && threads != "1"
    {
        bail!(
            "--player {spec}: threads={threads}: a study plays a game per core, each player on \
             one thread; leave threads out"
        );
    }
    let fixed = visits.is_some()
        || match spec.kind() {
            PlayerKind::Random => true,
            PlayerKind::Uct => option("visits").is_some(),
            PlayerKind::Mcts => spec
                .build_mcts(0)
                .is_some_and(|p| p.settings().visits.is_some()),
        };
    if !fixed {
        bail!(
            "--player {spec}: its turns would be limited by time, so the games would depend on \
             the machine's load; give a number of playouts: --visits N, visits=N in the \
             player's options, or mcts:level=1 to 5"
        );
    }
    if spec.kind() == PlayerKind::Mcts && option("threads").is_none() {
        return spec.with("threads", "1").map_err(anyhow::Error::msg);
    }
    Ok(spec.clone())
}

/// The start of every game: the empty board, with or without the balance
/// turn.
fn start_position(geometry: Geometry, balance: bool) -> Position {
    Position::from_parts(geometry, &[], Color::White, !balance, 0, None)
        .expect("the empty board is a position")
}

/// A game played, ready to be written.
struct Played {
    row: GameRow,
    sgf: Option<String>,
    elapsed: Duration,
}

fn run_study(args: &RunArgs) -> anyhow::Result<()> {
    let geometry = args.board.geometry()?;
    let (Some(games), Some(spec)) = (args.games, &args.player) else {
        bail!("give --games N and --player SPEC");
    };
    let spec = study_player(spec, args.visits)?;
    let balance = !args.no_balance;
    let params = Params {
        variant: geometry.variant(),
        size: geometry.size(),
        balance,
        player: spec.to_string(),
        visits: args.visits,
        opening_turns: args.opening_turns,
        seed: args.seed,
    };
    let dir = args.out.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "study-{}-{}{}",
            geometry.variant().name(),
            geometry.size(),
            if balance { "" } else { "-no-balance" }
        ))
    });
    let mut files = StudyFiles::open(&dir, &params)?;
    let records = dir.join("records");
    if args.sgf {
        fs::create_dir_all(&records)
            .with_context(|| format!("cannot create the folder {}", records.display()))?;
    }
    let done = files.rows.len();
    let started = Instant::now();
    if done < games {
        eprintln!(
            "sygo study: {}, balance turn {}: games {} to {games} of {}{}",
            params.board_name(),
            table::on_off(balance),
            done + 1,
            strength_line(&params),
            if done > 0 {
                format!(" ({done} already in {})", files.csv_path.display())
            } else {
                String::new()
            }
        );
        let budget = args.visits.map(Budget::visits).unwrap_or_default();
        let jobs = args
            .jobs
            .unwrap_or_else(|| thread::available_parallelism().map_or(1, |n| n.get()))
            .clamp(1, games - done);
        let start = start_position(geometry, balance);
        let context = Context {
            params: &params,
            spec: &spec,
            budget,
            start: &start,
            sgf: args.sgf,
        };
        play_games(&context, done, games, jobs, |played| {
            if let Some(sgf) = &played.sgf {
                write_record(&records, played.row.game, sgf)?;
            }
            eprintln!(
                "game {}/{games}: {} in {} turns{}; {:.1} s",
                played.row.game,
                played.row.result,
                played.row.turns,
                match played.row.balance {
                    table::Balance::Used => ", balance turn used",
                    _ => "",
                },
                played.elapsed.as_secs_f64()
            );
            files.append(played.row)
        })?;
    } else if done > games {
        eprintln!(
            "sygo study: {} holds {done} games, more than --games {games}: all are reported",
            files.csv_path.display()
        );
    }
    let study = Study {
        dir: dir.display().to_string(),
        numbers: Numbers::of(&files.rows),
        rows: files.rows,
        params,
    };
    let text = report::study_report(&study.params, &study.rows);
    let report_path = dir.join("report.md");
    fs::write(&report_path, &text)
        .with_context(|| format!("cannot write {}", report_path.display()))?;
    plot::study_plots(&dir, &study)?;
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    writeln!(
        out,
        "\nWritten in {}: games.csv, report.md, margins.svg, lengths.svg ({:.1} s).",
        dir.display(),
        started.elapsed().as_secs_f64()
    )?;
    out.flush()?;
    Ok(())
}

/// The player and budget in a line.
fn strength_line(params: &Params) -> String {
    match params.visits {
        Some(v) => format!("{}, {v} playouts a turn", params.player),
        None => params.player.clone(),
    }
}

/// What every game of a run shares.
struct Context<'a> {
    params: &'a Params,
    spec: &'a PlayerSpec,
    budget: Budget,
    start: &'a Position,
    sgf: bool,
}

impl Context<'_> {
    /// Plays game `index` (from 0) with a pair of contenders.
    fn play(
        &self,
        index: usize,
        white: &mut dyn sygo_arena::Contender,
        black: &mut dyn sygo_arena::Contender,
    ) -> Played {
        let began = Instant::now();
        let seed = derive_seed(self.params.seed, index as u64, 0);
        let setup = GameSetup {
            index,
            geometry: self.start.geometry(),
            opening: opening_from(self.start, self.params.opening_turns, seed, 0),
            a_color: Color::White,
            budget: self.budget,
            seeds: [derive_seed(seed, 0, 1), derive_seed(seed, 0, 2)],
        };
        let report = play_game_from(self.start.clone(), &setup, white, black);
        let row = GameRow::of(&report, seed, self.params.balance);
        let sgf = self.sgf.then(|| {
            let name = self.spec.to_string();
            let info = GameInfo {
                black: Some(name.clone()),
                white: Some(name),
                result: Some(row.result.clone()),
                ..GameInfo::default()
            };
            Record::from_game(&report.game, info).to_sgf()
        });
        Played {
            row,
            sgf,
            elapsed: began.elapsed(),
        }
    }
}

/// Plays games `from..to` on `jobs` threads, each taking the next game to
/// play, and hands them to `write` in the order of the games (on this
/// thread). A failed write stops the study: no game starts after it.
fn play_games(
    context: &Context,
    from: usize,
    to: usize,
    jobs: usize,
    mut write: impl FnMut(Played) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let name = context.spec.to_string();
    let spec = context.spec.clone();
    let entrant = Entrant::builtin(name, move |seed| spec.build(seed));
    let next = AtomicUsize::new(from);
    let stop = AtomicBool::new(false);
    let mut outcome = Ok(());
    thread::scope(|scope| {
        let (sender, results) = mpsc::channel::<(usize, Played)>();
        for _ in 0..jobs {
            let sender = sender.clone();
            let (next, stop, entrant) = (&next, &stop, &entrant);
            scope.spawn(move || {
                let (Ok(mut white), Ok(mut black)) = (entrant.contender(), entrant.contender())
                else {
                    return;
                };
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= to || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let played = context.play(index, white.as_mut(), black.as_mut());
                    if sender.send((index, played)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Games that finished before an earlier one, waiting for it.
        let mut waiting = BTreeMap::new();
        let mut expected = from;
        for (index, played) in results {
            waiting.insert(index, played);
            while let Some(played) = waiting.remove(&expected) {
                if outcome.is_ok() {
                    outcome = write(played);
                    if outcome.is_err() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                expected += 1;
            }
        }
        if outcome.is_ok() && expected < to {
            outcome = Err(anyhow::anyhow!(
                "the players could not be made: no game was played"
            ));
        }
    });
    outcome
}

/// Writes a game's record as `game-NNNNN.sgf` (through a temporary file, so
/// that a study stopped while writing leaves no half record).
fn write_record(dir: &Path, game: usize, sgf: &str) -> anyhow::Result<()> {
    let path = dir.join(format!("game-{game:05}.sgf"));
    let temporary = dir.join(format!(".game-{game:05}.sgf.part"));
    fs::write(&temporary, sgf)
        .and_then(|()| fs::rename(&temporary, &path))
        .with_context(|| format!("cannot write {}", path.display()))
}

fn run_plot(args: &PlotArgs) -> anyhow::Result<()> {
    let mut studies = Vec::new();
    for dir in &args.dirs {
        let (params, rows) = table::read_study(dir)?;
        studies.push(Study {
            dir: dir.display().to_string(),
            numbers: Numbers::of(&rows),
            rows,
            params,
        });
    }
    studies.sort_by(|a, b| {
        (a.params.variant, a.params.size, !a.params.balance).cmp(&(
            b.params.variant,
            b.params.size,
            !b.params.balance,
        ))
    });
    for pair in studies.windows(2) {
        let same = |s: &Study| (s.params.variant, s.params.size, s.params.balance);
        if same(&pair[0]) == same(&pair[1]) {
            bail!(
                "{} and {} are both studies of {} with the balance turn {}: give one of them",
                pair[0].dir,
                pair[1].dir,
                pair[0].params.board_name(),
                table::on_off(pair[0].params.balance)
            );
        }
    }
    fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create the folder {}", args.out.display()))?;
    plot::by_board(
        &args.out.join("win-rate.svg"),
        "White's score (first player; draws half), 95% intervals",
        "White's score (%)",
        &studies,
        |s| {
            s.numbers.white_score.map(|e| stats::Estimate {
                value: 100.0 * e.value,
                low: 100.0 * e.low,
                high: 100.0 * e.high,
            })
        },
        Some((0.0, 100.0)),
        Some(50.0),
    )?;
    plot::by_board(
        &args.out.join("margin.svg"),
        "Mean score margin, White − Black, 95% intervals",
        "points",
        &studies,
        |s| s.numbers.mean_margin,
        None,
        Some(0.0),
    )?;
    let text = report::summary_report(&studies);
    let summary = args.out.join("summary.md");
    fs::write(&summary, &text).with_context(|| format!("cannot write {}", summary.display()))?;
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    writeln!(
        out,
        "\nWritten in {}: summary.md, win-rate.svg, margin.svg.",
        args.out.display()
    )?;
    out.flush()?;
    Ok(())
}
