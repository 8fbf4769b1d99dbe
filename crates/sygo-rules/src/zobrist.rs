//! Zobrist keys: the hash of a state is the XOR of the keys of its features.
//!
//! Features: a stone of each colour on each point; a stone added by the turn in
//! progress (so that two orders of the same growth steps, which reach the same
//! board with the same new stones, hash alike while a turn that started from a
//! different board does not); the side to move; whether a growth turn has been
//! played; the number of consecutive passes; and the board itself (variant and
//! size). The keys are fixed at compile time, so hashes are the same in every
//! run and on every machine.

use crate::geometry::MAX_INDEX;

/// splitmix64: a small, well-mixed generator for the key tables.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn table<const N: usize>(seed: u64) -> [u64; N] {
    let mut keys = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, k) = splitmix(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    keys
}

const BLACK: [u64; MAX_INDEX] = table(0x5359_474F_0001);
const WHITE: [u64; MAX_INDEX] = table(0x5359_474F_0002);

const fn xor(a: [u64; MAX_INDEX], b: [u64; MAX_INDEX]) -> [u64; MAX_INDEX] {
    let mut out = [0u64; MAX_INDEX];
    let mut i = 0;
    while i < MAX_INDEX {
        out[i] = a[i] ^ b[i];
        i += 1;
    }
    out
}

/// Key of a stone of each colour (index 0 Black, 1 White) on each point.
static STONE: [[u64; MAX_INDEX]; 2] = [BLACK, WHITE];
/// What reversing the stone on each point does to the hash.
pub(crate) static FLIP: [u64; MAX_INDEX] = xor(BLACK, WHITE);
/// Key of a stone that the turn in progress added.
pub(crate) static NEW_STONE: [u64; MAX_INDEX] = table(0x5359_474F_0003);
/// Side to move, growth started, one pass, two passes, and one key per board.
static MISC: [u64; 64] = table(0x5359_474F_0004);

/// Key of a stone of colour index `c` (0 Black, 1 White) on point `p`.
#[inline]
pub(crate) fn stone(c: usize, p: usize) -> u64 {
    STONE[c][p]
}

/// Present when Black is to move.
pub(crate) fn black_to_move() -> u64 {
    MISC[0]
}

/// Present once a growth turn has been played.
pub(crate) fn growth_started() -> u64 {
    MISC[1]
}

/// Key of the number of consecutive passes (0 has none).
pub(crate) fn passes(n: u8) -> u64 {
    match n {
        0 => 0,
        1 => MISC[2],
        _ => MISC[3],
    }
}

/// Key of the board: variant and size.
pub(crate) fn board(hex: bool, size: u8) -> u64 {
    MISC[4 + usize::from(hex) * 26 + usize::from(size)]
}
