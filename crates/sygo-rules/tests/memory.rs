//! Memory figures of the rules engine, checked as a user would see them: the
//! size of a position, that copying one and playing random games from it
//! allocate nothing on the heap, that the capture reading allocates
//! nothing once it has read a board, and that asking whether a turn can
//! be completed allocates nothing when no group lacks a liberty (a counting
//! allocator watches this test binary).

// A global allocator can only be written with `unsafe`: this one forwards
// every call to the system allocator unchanged.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use sygo_rules::{CaptureReader, Color, Geometry, Position};

/// The system allocator, counting the allocations of each thread (tests run
/// in threads of their own).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made while running `f`.
fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn a_position_fits_in_a_few_kilobytes() {
    let size = std::mem::size_of::<Position>();
    eprintln!("size_of::<Position>() = {size} bytes");
    // Every board up to 25×25 shares one fixed-size layout.
    assert!(size <= 12 * 1024, "a position takes {size} bytes");
}

#[test]
fn copying_and_random_play_allocate_nothing() {
    for g in [
        Geometry::sygo(25).unwrap(),
        Geometry::sygo(19).unwrap(),
        Geometry::hexsygo(13).unwrap(),
        Geometry::hexsygo(10).unwrap(),
    ] {
        let empty = Position::new(g);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut copy = empty.clone();
        let n = allocations_during(|| {
            for _ in 0..20 {
                let fresh = empty.clone();
                copy.clone_from(&fresh);
                let stats = copy.play_random_game(&mut rng);
                assert!(stats.steps > 0);
                let mid = copy.clone();
                std::hint::black_box(&mid);
            }
        });
        assert_eq!(
            n, 0,
            "{g}: {n} allocations while copying positions and playing random games"
        );
    }
}

#[test]
fn the_capture_reading_allocates_nothing_once_it_has_read_a_board() {
    for g in [
        Geometry::sygo(19).unwrap(),
        Geometry::sygo(9).unwrap(),
        Geometry::hexsygo(10).unwrap(),
        Geometry::hexsygo(5).unwrap(),
    ] {
        // Positions of random games at every stage.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
        let mut positions = Vec::new();
        let mut pos = Position::new(g);
        while !pos.is_over() {
            pos.play_random_turn(&mut rng);
            positions.push(pos.clone());
        }
        let mut reader = CaptureReader::new();
        let read_all = |reader: &mut CaptureReader| {
            let mut found = 0;
            for pos in &positions {
                for color in Color::BOTH {
                    reader.for_each_reversible(pos, color, |_, turn| found += turn.len());
                }
            }
            found
        };
        let warm = read_all(&mut reader);
        let mut again = 0;
        let n = allocations_during(|| again = read_all(&mut reader));
        assert_eq!(again, warm);
        assert!(
            warm > 0,
            "{g}: no group in danger in {} positions",
            positions.len()
        );
        assert_eq!(n, 0, "{g}: {n} allocations while reading captures");
    }
}

/// Whether a turn in progress can be completed, asked after every step of
/// random turns (which leave every group a liberty): no allocation.
#[test]
fn asking_whether_a_turn_can_be_completed_allocates_nothing_when_it_may_end() {
    for g in [Geometry::sygo(19).unwrap(), Geometry::hexsygo(10).unwrap()] {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut pos = Position::new(g);
        let mut asked = 0;
        while !pos.is_over() {
            let stones = pos.random_turn_stones(&mut rng);
            let mut turn = pos.clone();
            let n = allocations_during(|| {
                for &p in &stones {
                    turn.play_step_unchecked(p);
                    assert!(turn.turn_can_be_completed());
                    assert_eq!(turn.group_without_liberty(), None);
                    asked += 1;
                }
            });
            assert_eq!(n, 0, "{g}: {n} allocations");
            pos.play_random_turn(&mut rng);
        }
        assert!(asked > 100, "{g}: asked {asked} times");
    }
}
