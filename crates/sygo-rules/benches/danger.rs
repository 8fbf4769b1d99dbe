//! Criterion benchmarks of the capture reading (`danger.rs`): every group of
//! both colours read once (`CaptureReader::for_each_reversible`, the fast
//! path a player asks), the same as data for interfaces (`Position::dangers`),
//! and, for scale, `Position::for_each_atari` (Go's one-liberty question).
//!
//! Positions: Sygo 9×9, 19×19 and Hexsygo 10 after a sixth of the board's
//! points in random turns (the middle game: groups with many liberties) and when a third of the board
//! is left (tight: many small groups short of liberties).
//!
//! Run with `cargo bench -p sygo-rules --bench danger`.

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_pcg::Pcg32;
use std::hint::black_box;
use sygo_rules::{CaptureReader, Color, Geometry, Position};

/// A position of a random game from the empty board: after `turns` turns,
/// or once at most `vacant` points are left.
fn random_position(g: Geometry, turns: usize, vacant: usize) -> Position {
    let mut rng = Pcg32::seed_from_u64(5);
    let mut pos = Position::new(g);
    for _ in 0..turns {
        if pos.is_over() || pos.vacant_count() <= vacant {
            break;
        }
        pos.play_random_turn(&mut rng);
    }
    pos
}

fn reading(c: &mut Criterion) {
    for g in [
        Geometry::sygo(9).unwrap(),
        Geometry::sygo(19).unwrap(),
        Geometry::hexsygo(10).unwrap(),
    ] {
        let positions = [
            ("middle", random_position(g, g.num_points() / 6, 0)),
            ("tight", random_position(g, usize::MAX, g.num_points() / 3)),
        ];
        for (stage, pos) in positions {
            assert!(!pos.is_over());
            let name = format!("{}/{stage}", g.name());
            let mut reader = CaptureReader::new();
            c.bench_function(&format!("reversible/{name}"), |b| {
                b.iter(|| {
                    let mut n = 0;
                    for color in Color::BOTH {
                        reader
                            .for_each_reversible(black_box(&pos), color, |_, turn| n += turn.len());
                    }
                    n
                })
            });
            c.bench_function(&format!("dangers/{name}"), |b| {
                b.iter(|| black_box(&pos).dangers())
            });
            c.bench_function(&format!("ataris/{name}"), |b| {
                b.iter(|| {
                    let mut n = 0;
                    black_box(&pos).for_each_atari(|_, _| n += 1);
                    n
                })
            });
        }
    }
}

criterion_group!(benches, reading);
criterion_main!(benches);
