//! Criterion benchmark of the endgame solver: Hexsygo 5 endgames of 14 to
//! 16 vacant points, each from a game the AI played against `uct` (the first
//! position of the game with at most 16 vacant points, where the player
//! starts asking the solver), each solved from an empty table.
//!
//! Run with `cargo bench -p sygo-ai --bench endgame`. The positions searched
//! in all are printed once up front, so that a change of move ordering shows
//! apart from a change of speed.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use sygo_ai::endgame::{SolveLimits, Solver};
use sygo_rules::Position;

/// Position strings (`docs/records.md`), side to move included.
const ENDGAMES: [&str; 6] = [
    "hexsygo 5 3BW/1WWBWW/1BWBWBW/BBBBBBBW/1BWWBWWW1/BBBWW1WW/2WBBW1/WWBWWB/3W1 b g 0",
    "hexsygo 5 W1B2/WWWWWW/W3B1W/BBWWWBBW/BBBBBB1B1/BBBW1WWW/BBWW2W/BBBWW1/1BBWW b g 0",
    "hexsygo 5 WWB2/WWWBWW/WWWB1B1/WWWWBBBB/1WWWW1WW1/WBW1WBB1/1BWW1B1/BWBBB1/BB1B1 b g 0",
    "hexsygo 5 1WWB1/B1WWB1/BBW1WBB/1BWBWB2/1BWBWB3/B1WBWBBB/WWBBWBB/1WBBWB/W2BW b g 0",
    "hexsygo 5 BWBB1/1BWBBB/B1BWBBW/1BBWBWW1/BBB1WWBWW/1WBBBBW1/W1B1WWW/W1BW2/W1B2 w g 0",
    "hexsygo 5 1BBWB/WWB1WB/2WBWWB/B1WWWWBB/1B1WBBWBB/B2WBBW1/1W1WBBB/WWWB1B/1BBBB w g 0",
];

fn solve_endgames(c: &mut Criterion) {
    let positions: Vec<Position> = ENDGAMES.iter().map(|s| s.parse().unwrap()).collect();
    let limits = SolveLimits {
        nodes: u64::MAX,
        ..SolveLimits::default()
    };
    let total: u64 = positions
        .iter()
        .map(|p| Solver::new().solve(p, &limits).unwrap().nodes)
        .sum();
    println!(
        "{} Hexsygo 5 endgames: {total} positions searched in all",
        positions.len()
    );
    let mut group = c.benchmark_group("endgame");
    group.sample_size(10);
    group.bench_function("hexsygo5_six_endgames", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(Solver::new().solve(black_box(p), &limits));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, solve_endgames);
criterion_main!(benches);
