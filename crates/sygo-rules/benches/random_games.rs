//! Criterion benchmarks of the rules engine: the same ground as `sygo bench`
//! (uniformly random games from the empty board, on Sygo 19×19 and Hexsygo
//! base 10), plus the pieces an AI leans on: copying a position, listing the
//! allowed steps, and scoring.
//!
//! Run with `cargo bench -p sygo-rules`. Throughput is reported in steps
//! (stones put on the board), so "elements/s" reads as steps per second.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_pcg::Pcg32;
use std::hint::black_box;
use sygo_rules::{Geometry, Position};

fn boards() -> [Geometry; 2] {
    [Geometry::sygo(19).unwrap(), Geometry::hexsygo(10).unwrap()]
}

/// Whole random games. Every game on these boards plays a fixed number of
/// steps (the board fills up but for one point), measured once up front.
fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_game");
    for g in boards() {
        let empty = Position::new(g);
        let steps = empty
            .clone()
            .play_random_game(&mut Pcg32::seed_from_u64(0))
            .steps;
        group.throughput(Throughput::Elements(steps));
        let mut rng = Pcg32::seed_from_u64(1);
        group.bench_function(g.to_string(), |b| {
            b.iter(|| black_box(empty.clone().play_random_game(&mut rng)))
        });
    }
    group.finish();
}

/// A mid-game position of each board: 60 random turns from the empty board.
fn mid_game(g: Geometry) -> Position {
    let mut rng = Pcg32::seed_from_u64(5);
    let mut pos = Position::new(g);
    for _ in 0..60 {
        if pos.is_over() {
            break;
        }
        pos.play_random_turn(&mut rng);
    }
    pos
}

fn position_pieces(c: &mut Criterion) {
    for g in boards() {
        let pos = mid_game(g);
        c.bench_function(&format!("clone/{g}"), |b| b.iter(|| black_box(pos.clone())));
        c.bench_function(&format!("allowed_steps/{g}"), |b| {
            b.iter(|| black_box(pos.allowed_steps()))
        });
        c.bench_function(&format!("score/{g}"), |b| b.iter(|| black_box(pos.score())));
        c.bench_function(&format!("random_turn/{g}"), |b| {
            let mut rng = Pcg32::seed_from_u64(9);
            b.iter_batched(
                || pos.clone(),
                |mut p| black_box(p.play_random_turn(&mut rng)),
                BatchSize::SmallInput,
            )
        });
    }
}

criterion_group!(benches, random_games, position_pieces);
criterion_main!(benches);
