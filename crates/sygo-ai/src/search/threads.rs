//! Search on several cores: root parallelism. Each thread owns a whole
//! search (its tree, its policy, its random generator) on the same root; the
//! trees share nothing while they run, and are read together afterwards
//! ([`super::merged_children`]). No locks, no virtual loss; on two cores
//! this loses little against a shared tree and keeps each tree's memory
//! and reuse its own.

use super::{GameState, Limits, Policy, Search};

/// Runs every search in a thread of its own until `limits` (the visit limit
/// is shared out among them) and returns the simulations run in all.
pub fn run_parallel<G: GameState, P: Policy<G>>(
    searches: &mut [Search<G, P>],
    limits: &Limits,
) -> u64 {
    let n = searches.len().max(1) as u64;
    let mut each = limits.clone();
    each.visits = limits.visits.map(|v| v.div_ceil(n));
    // One deadline for all, fixed before the threads start.
    if let Some(time) = each.time.take() {
        let end = std::time::Instant::now() + time;
        each.deadline = Some(each.deadline.map_or(end, |d| d.min(end)));
    }
    if searches.len() == 1 {
        return searches[0].run(&each);
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = searches
            .iter_mut()
            .map(|search| {
                let each = each.clone();
                scope.spawn(move || search.run(&each))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a search thread does not panic"))
            .sum()
    })
}
