//! `sygo`: play, test and benchmark Sygo and Hexsygo from the command line.
//!
//! A thin binary over the library crates: this file parses the arguments and
//! maps errors to exit codes, in one place; each subcommand lives in its own
//! file.
//!
//! - `sygo gtp`: the engine protocol on standard input and output
//!   (`docs/protocol.md`).
//! - `sygo bench`: uniformly random games, timed.
//! - `sygo play`: a game at the terminal (people, the computer, or both).
//! - `sygo rules`: how to play, in a page.
//! - `sygo replay`, `sygo show`, `sygo score`, `sygo convert`: game records
//!   (`docs/records.md`) stepped through, shown, scored and converted.
//! - `sygo arena`: a match between two players, measuring their strength
//!   (`docs/strength.md`).
//! - `sygo analyze`: the AI's view of a position of a record: win rate,
//!   score lead, the best turns, who owns what.
//! - `sygo solve`: the exact value of a small board with best play.
//! - `sygo study`: self-play studies of a board: the first player's win
//!   rate, the score margin, the balance turn (`docs/balance.md`).
//! - `sygo serve` (also `sygo` with no command): the web app
//!   (`docs/web.md`).
//! - `sygo admin`: the host's commands on the web app's accounts.
//!
//! Exit codes: 0 on success (also when the reader of the output goes away),
//! 1 on an error, 2 on bad arguments.

mod admin;
mod analyze;
mod arena;
mod bench;
mod convert;
mod gtp;
mod learn;
mod play;
mod replay;
mod rules;
mod score;
mod serve;
mod show;
mod solve;
mod study;

/// mimalloc rather than glibc's malloc: under load the server spent a
/// fifth of its CPU in glibc's malloc and free (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use sygo_rules::{Geometry, GeometryError, Variant};

/// Play, test and benchmark Sygo and Hexsygo.
#[derive(Debug, Parser)]
#[command(name = "sygo", version, about)]
struct Cli {
    /// What to do; with none, `serve` with its defaults: the web app.
    #[command(subcommand)]
    command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Speak the engine protocol (GTP 2 extended for Sygo) on standard input
    /// and output, until `quit` or the end of the input.
    Gtp(gtp::GtpArgs),
    /// Play uniformly random games and report how fast they were played.
    Bench(bench::BenchArgs),
    /// Play a game at the terminal: people at the keyboard, the computer, or
    /// both.
    #[command(
        after_help = "New to Sygo? `sygo rules` explains the game in a page, with an \
                            example; the web app (`sygo serve`) teaches it by playing, at /learn."
    )]
    Play(play::PlayArgs),
    /// Print how to play Sygo and Hexsygo: the rules in a page, with an
    /// example position.
    Rules,
    /// Step through a game record, forwards and backwards, at a prompt that
    /// reads commands line by line (next, prev, jump N, first, last, quit).
    Replay(replay::ReplayArgs),
    /// Print the position after N turns of a game record (default: the end).
    Show(show::ShowArgs),
    /// Print the final score of a game record: each side's stones and
    /// territory, and the result.
    Score(score::ScoreArgs),
    /// Convert a game record to a position string, or a position string to
    /// a record.
    Convert(convert::ConvertArgs),
    /// Play a match between two players (built-in, or engines speaking the
    /// protocol) and report wins, score margins, the Elo difference with
    /// its 95% interval, and an SPRT verdict.
    Arena(arena::ArenaArgs),
    /// Let the AI analyse the position after N turns of a game record
    /// (default: the end): the win rate and score lead of the side to move,
    /// the best turns with their lines, and who owns what.
    Analyze(analyze::AnalyzeArgs),
    /// Fit the AI's learned step weights to the turns of game records
    /// (self-play records of a strong search, from `sygo arena --records`).
    Learn(learn::LearnArgs),
    /// Solve a small board exactly from the empty position: White's score
    /// margin with best play on both sides, and a line of play that reaches
    /// it.
    Solve(solve::SolveArgs),
    /// Play a player against itself on every core, reproducibly and
    /// resumably: the first player's win rate, the score margin, game
    /// lengths, the balance turn and the openings, as a CSV, a report and
    /// plots (`sygo study plot DIR...` compares studies).
    Study(study::StudyArgs),
    /// Start the web app: play in the browser, against the AI or another
    /// person (the default command).
    Serve(serve::ServeArgs),
    /// Play the AI's turns for the web app's servers on a PostgreSQL
    /// database, from another process or machine (no HTTP): AI capacity
    /// grows by adding workers.
    Worker(serve::WorkerArgs),
    /// The host's commands on the web app's database: list the accounts,
    /// disable or enable one (also while the server runs).
    Admin(admin::AdminArgs),
}

/// The board options shared by the subcommands.
#[derive(Debug, Clone, Copy, clap::Args)]
struct BoardArgs {
    /// The game: sygo (square board) or hexsygo (hexagonal board).
    #[arg(long, default_value = "sygo", value_parser = parse_variant)]
    variant: Variant,
    /// The board size: N for an N×N Sygo board (3–25, default 19), the base
    /// n for Hexsygo (2–13, default 10).
    #[arg(long)]
    size: Option<u8>,
}

impl BoardArgs {
    /// The board asked for.
    fn geometry(&self) -> Result<Geometry, GeometryError> {
        Geometry::new(
            self.variant,
            self.size.unwrap_or(self.variant.default_size()),
        )
    }
}

fn parse_variant(text: &str) -> Result<Variant, String> {
    Variant::from_name(text).ok_or_else(|| format!("{text:?} is not sygo or hexsygo"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli
        .command
        .unwrap_or_else(|| Command::Serve(serve::ServeArgs::default()));
    let outcome = match command {
        Command::Gtp(args) => gtp::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Rules => rules::run(),
        Command::Replay(args) => replay::run(&args),
        Command::Show(args) => show::run(&args),
        Command::Score(args) => score::run(&args),
        Command::Convert(args) => convert::run(&args),
        Command::Arena(args) => arena::run(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::Learn(args) => learn::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Study(args) => study::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Worker(args) => serve::work(&args),
        Command::Admin(args) => admin::run(&args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => exit_code(&error),
    }
}

/// Reports an error and chooses the exit code: every error of the binary
/// ends here.
fn exit_code(error: &anyhow::Error) -> ExitCode {
    let broken_pipe = error
        .downcast_ref::<io::Error>()
        .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe);
    if broken_pipe {
        // The reader of our output has gone: nothing is left to say.
        return ExitCode::SUCCESS;
    }
    eprintln!("sygo: error: {error:#}");
    if error.downcast_ref::<GeometryError>().is_some() {
        ExitCode::from(2)
    } else {
        ExitCode::FAILURE
    }
}
