//! Plays fixed-seed random games, for profiling under callgrind:
//! `cargo build --release --example profile -p sygo-rules`, then
//! `valgrind --tool=callgrind target/release/examples/profile sygo 19 100`.
//! Fixed-seed random games for profiling under callgrind.
use rand::SeedableRng;
use rand_pcg::Pcg32;
use sygo_rules::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = Variant::from_name(&args[1]).unwrap();
    let size: u8 = args[2].parse().unwrap();
    let games: u32 = args[3].parse().unwrap();
    let g = Geometry::new(variant, size).unwrap();
    let mut rng = Pcg32::seed_from_u64(1);
    let mut steps = 0;
    let empty = Position::new(g);
    for _ in 0..games {
        let mut pos = empty.clone();
        steps += pos.play_random_game(&mut rng).steps;
    }
    println!("steps={steps}");
}
