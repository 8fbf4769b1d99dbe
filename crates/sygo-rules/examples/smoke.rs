use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use sygo_rules::*;
fn main() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    for (v, n) in [
        (Variant::Sygo, 9),
        (Variant::Hexsygo, 4),
        (Variant::Sygo, 19),
    ] {
        let g = Geometry::new(v, n).unwrap();
        for _ in 0..20 {
            let mut pos = Position::new(g);
            while !pos.is_over() {
                pos.play_random_turn(&mut rng);
                pos.check_invariants();
            }
        }
        let mut pos = Position::new(g);
        let s = pos.play_random_game(&mut rng);
        println!("{g}: {s:?} {}\n{}", pos.outcome().unwrap(), pos.diagram());
    }
    let g = Geometry::sygo(19).unwrap();
    let t = std::time::Instant::now();
    let mut steps = 0;
    let mut games = 0;
    while t.elapsed().as_secs_f64() < 2.0 {
        let mut pos = Position::new(g);
        steps += pos.play_random_game(&mut rng).steps;
        games += 1;
    }
    println!(
        "19x19: {games} games {:.2} Msteps/s",
        steps as f64 / t.elapsed().as_secs_f64() / 1e6
    );
    let g = Geometry::hexsygo(10).unwrap();
    let t = std::time::Instant::now();
    let mut steps = 0;
    let mut games = 0;
    while t.elapsed().as_secs_f64() < 2.0 {
        let mut pos = Position::new(g);
        steps += pos.play_random_game(&mut rng).steps;
        games += 1;
    }
    println!(
        "hex10: {games} games {:.2} Msteps/s",
        steps as f64 / t.elapsed().as_secs_f64() / 1e6
    );
}
