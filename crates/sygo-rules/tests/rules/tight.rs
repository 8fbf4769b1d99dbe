//! Tight positions for the tests that compare a reading with brute force:
//! boards filled at random, many small groups with one to four liberties
//! each, where one growth turn of several groups captures (random games
//! leave groups with many liberties).

use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;
use sygo_rules::{Color, Geometry, Point, Position};

/// A board filled at random: each point a stone with probability
/// `density`, of a random colour; then stones of groups without liberties
/// are taken off one at a time until none is left.
pub fn random_fill(rng: &mut Xoshiro256PlusPlus, g: Geometry, density: f64) -> Vec<(Point, Color)> {
    let mut stones = Vec::new();
    for p in g.points() {
        if rng.random_bool(density) {
            let c = if rng.random_bool(0.5) {
                Color::Black
            } else {
                Color::White
            };
            stones.push((p, c));
        }
    }
    thin(rng, g, stones)
}

/// A board filled in patches: `seeds` random points each get a colour, and
/// every point takes the colour of its nearest seed (by board distance) with
/// probability 0.85, the other colour otherwise, and stays vacant with
/// probability `vacant`. Then groups without liberties are thinned as in
/// [`random_fill`]. Patches make large groups, eyes, and liberties that
/// touch no enemy stone (where a placement captures).
pub fn patch_fill(rng: &mut Xoshiro256PlusPlus, g: Geometry, vacant: f64) -> Vec<(Point, Color)> {
    let points: Vec<Point> = g.points().collect();
    let seeds: Vec<(Point, Color)> = (0..rng.random_range(2..6))
        .map(|i| {
            let p = points[rng.random_range(0..points.len())];
            (
                p,
                if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
            )
        })
        .collect();
    // Board distances from each seed, by breadth-first search.
    let distances: Vec<Vec<u32>> = seeds
        .iter()
        .map(|&(s, _)| {
            let mut d = vec![u32::MAX; g.index_len()];
            d[s.index()] = 0;
            let mut queue = vec![s];
            let mut i = 0;
            while i < queue.len() {
                let p = queue[i];
                i += 1;
                for q in g.neighbours(p) {
                    if d[q.index()] == u32::MAX {
                        d[q.index()] = d[p.index()] + 1;
                        queue.push(q);
                    }
                }
            }
            d
        })
        .collect();
    let mut stones = Vec::new();
    for &p in &points {
        if rng.random_bool(vacant) {
            continue;
        }
        let nearest = (0..seeds.len())
            .min_by_key(|&k| distances[k][p.index()])
            .unwrap();
        let c = seeds[nearest].1;
        stones.push((
            p,
            if rng.random_bool(0.85) {
                c
            } else {
                c.opponent()
            },
        ));
    }
    thin(rng, g, stones)
}

/// Takes random stones of groups without liberties off until none is left.
fn thin(
    rng: &mut Xoshiro256PlusPlus,
    g: Geometry,
    mut stones: Vec<(Point, Color)>,
) -> Vec<(Point, Color)> {
    loop {
        if Position::from_parts(g, &stones, Color::Black, true, 0, None).is_ok() {
            return stones;
        }
        let at = |p: Point| stones.iter().find(|s| s.0 == p).map(|s| s.1);
        let dead: Vec<usize> = (0..stones.len())
            .filter(|&i| {
                let (p, c) = stones[i];
                !group_has_liberty(g, &at, p, c)
            })
            .collect();
        let i = dead[rng.random_range(0..dead.len())];
        stones.swap_remove(i);
    }
}

/// Whether the group of the stone (p, c) has a vacant neighbour (flood fill
/// over `at`, which tells the stone on a point).
fn group_has_liberty(g: Geometry, at: &dyn Fn(Point) -> Option<Color>, p: Point, c: Color) -> bool {
    let mut seen = vec![p];
    let mut i = 0;
    while i < seen.len() {
        let q = seen[i];
        i += 1;
        for n in g.neighbours(q) {
            match at(n) {
                None => return true,
                Some(x) if x == c && !seen.contains(&n) => seen.push(n),
                _ => {}
            }
        }
    }
    false
}

/// A tight position: patches of stones 10–40% vacant ([`patch_fill`]) if
/// `patches`, else stones at random at a density drawn from `density`
/// ([`random_fill`]); either side to move, and Black's balance turn still
/// to come in a third of them.
pub fn tight_position(
    rng: &mut Xoshiro256PlusPlus,
    g: Geometry,
    patches: bool,
    density: std::ops::Range<f64>,
) -> Position {
    let stones = if patches {
        let vacant = rng.random_range(0.1..0.4);
        patch_fill(rng, g, vacant)
    } else {
        let density = rng.random_range(density);
        random_fill(rng, g, density)
    };
    let side = if rng.random_bool(0.5) {
        Color::Black
    } else {
        Color::White
    };
    let growth_started = !rng.random_bool(1.0 / 3.0);
    Position::from_parts(g, &stones, side, growth_started, 0, None)
        .expect("a filled board without libertyless groups is a position")
}

/// A random game stopped at a random turn, or `None` if it ended first.
pub fn random_game_position(rng: &mut Xoshiro256PlusPlus, g: Geometry) -> Option<Position> {
    let turns = rng.random_range(2..3 * g.num_points());
    let mut pos = Position::new(g);
    for _ in 0..turns {
        if pos.is_over() {
            return None;
        }
        pos.play_random_turn(rng);
    }
    (!pos.is_over()).then_some(pos)
}
