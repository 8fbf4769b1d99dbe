//! `sygo solve`: the exact value of a small board from the empty position
//! (`sygo_ai::solver`): White's score margin with best play on both sides,
//! a principal line of whole turns, the nodes searched and the time; with
//! `--sgf FILE`, the line as a record (`docs/balance.md`, "Solved boards").

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;
use sygo_ai::solver::{SolveOptions, solve};
use sygo_records::{GameInfo, Record};
use sygo_rules::{Color, Game, Geometry, Position, Variant};

/// Options of `sygo solve`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// The game: sygo (square board) or hexsygo (hexagonal board).
    #[arg(long, default_value = "sygo", value_parser = crate::parse_variant)]
    variant: Variant,
    /// The board size: N for Sygo N×N, the base n for Hexsygo. Only the
    /// smallest boards finish: Sygo 3 and 4, Hexsygo 2 and 3.
    #[arg(long)]
    size: u8,
    /// Solve the game without Black's balance turn (as if a growth turn had
    /// already been played: the start `… w g 0`).
    #[arg(long)]
    no_balance: bool,
    /// Write the principal line as a game record (SGF) to this file.
    #[arg(long)]
    sgf: Option<PathBuf>,
    /// Memory for the transposition table, in MiB (rounded down to a power
    /// of two).
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u64).range(1..=16_384))]
    table_mb: u64,
    /// Give up after this many seconds.
    #[arg(long)]
    max_seconds: Option<f64>,
    /// Do not merge symmetric positions in the table (slower; for checking).
    #[arg(long)]
    no_symmetry: bool,
}

/// Solves the board and prints the value, the line, the nodes and the time.
pub fn run(args: &SolveArgs) -> anyhow::Result<()> {
    let geometry = Geometry::new(args.variant, args.size)?;
    let start = Position::from_parts(geometry, &[], Color::White, args.no_balance, 0, None)
        .expect("the empty board is a position");
    // 16 bytes an entry.
    let entries = (args.table_mb << 20) / 16;
    let options = SolveOptions {
        table_bits: 63 - entries.leading_zeros(),
        symmetry: !args.no_symmetry,
        max_nodes: None,
        max_time: args
            .max_seconds
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map(Duration::from_secs_f64),
    };
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{}, {} the balance turn (start: {})",
        geometry.name(),
        if args.no_balance { "without" } else { "with" },
        start.to_position_string()
    )?;
    out.flush()?;
    let solution = solve(&start, &options)?;
    writeln!(out, "value: {}", solution.verdict())?;
    writeln!(
        out,
        "principal line ({} turns):",
        solution.principal_line.len()
    )?;
    let mut pos = start.clone();
    for (i, turn) in solution.principal_line.iter().enumerate() {
        let mover = pos.side_to_move();
        pos.play_turn(turn).context("the principal line is legal")?;
        writeln!(
            out,
            "  {:>2}. {:<5} {}",
            i + 1,
            mover.name(),
            turn.to_notation(&geometry)
        )?;
    }
    let score = pos.score();
    writeln!(
        out,
        "final score: White {}, Black {}",
        score.white, score.black
    )?;
    writeln!(out, "nodes: {}", solution.nodes)?;
    writeln!(out, "time: {:.2} s", solution.elapsed.as_secs_f64())?;
    if let Some(path) = &args.sgf {
        let mut game = Game::new(start);
        for turn in &solution.principal_line {
            game.play(turn.clone())?;
        }
        let info = GameInfo {
            black: Some("sygo solve".to_string()),
            white: Some("sygo solve".to_string()),
            result: game.position().outcome().map(|o| o.to_string()),
            ..GameInfo::default()
        };
        std::fs::write(path, Record::from_game(&game, info).to_sgf())
            .with_context(|| format!("writing {}", path.display()))?;
        writeln!(out, "record: {}", path.display())?;
    }
    out.flush()?;
    Ok(())
}
