//! Openings: a few random turns from the empty board, so that a match of
//! deterministic players is not one game played many times.
//!
//! Games are played in pairs from the same opening, colours swapped: game
//! 2p and 2p + 1 both start with opening p. An opening depends only on the
//! match's seed, the pair's number, the board and the number of turns, so a
//! match is reproducible whatever the number of threads playing it.

use rand::SeedableRng;
use rand_pcg::Pcg32;
use sygo_rules::{Geometry, Position, Turn};

/// A seed derived from a match's seed and two numbers (a game's number and a
/// purpose), well mixed (splitmix64's finaliser), so that neighbouring games
/// get unrelated seeds.
pub fn derive_seed(seed: u64, index: u64, purpose: u64) -> u64 {
    let mut z = seed
        ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ purpose.wrapping_mul(0xD1B5_4A32_D192_ED03);
    for _ in 0..2 {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
    }
    z
}

/// The opening of pair `pair`: `turns` turns of the uniformly random player
/// from the empty board (fewer if the game ends first).
pub fn opening(geometry: Geometry, turns: usize, seed: u64, pair: u64) -> Vec<Turn> {
    opening_from(&Position::new(geometry), turns, seed, pair)
}

/// An opening as [`opening`], played from `start` instead of the empty
/// board (the empty board without the balance turn, say).
pub fn opening_from(start: &Position, turns: usize, seed: u64, pair: u64) -> Vec<Turn> {
    let mut rng = Pcg32::seed_from_u64(derive_seed(seed, pair, 0));
    let mut position = start.clone();
    let mut played = Vec::with_capacity(turns);
    while played.len() < turns && !position.is_over() {
        let stones = position.random_turn_stones(&mut rng);
        let turn = if stones.is_empty() {
            Turn::Pass
        } else {
            Turn::Stones(stones)
        };
        position
            .play_turn(&turn)
            .expect("the random player's turns are legal");
        played.push(turn);
    }
    played
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_reproducible_and_differ_by_pair() {
        let g = Geometry::sygo(9).unwrap();
        assert_eq!(opening(g, 4, 1, 0), opening(g, 4, 1, 0));
        assert_eq!(opening(g, 4, 1, 0).len(), 4);
        assert_ne!(opening(g, 4, 1, 0), opening(g, 4, 1, 1));
        assert_ne!(opening(g, 4, 1, 0), opening(g, 4, 2, 0));
        assert!(opening(g, 0, 1, 0).is_empty());
    }

    #[test]
    fn an_opening_stops_when_the_game_ends() {
        let g = Geometry::sygo(3).unwrap();
        let turns = opening(g, 1000, 5, 0);
        assert!(turns.len() < 1000);
        let mut position = Position::new(g);
        for turn in &turns {
            position.play_turn(turn).unwrap();
        }
        assert!(position.is_over());
    }
}
