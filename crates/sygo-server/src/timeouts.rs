//! The clocks' watcher: one task that finds the games whose side to move is
//! past its deadline and ends them on time (`Entry::time_out_if_due`, under
//! the game's submission lock, so that a turn being committed is never
//! timed out; aborted instead if no one has played a turn). Each timeout is
//! stored on a task of its own, so that many games running out at once are
//! committed together (the database's group commit) rather than one after
//! another, each waiting for the disk; a game's timeout in progress is not
//! started again by the next scan. It sleeps until
//! the nearest deadline, and never more than a second, so a timeout is
//! declared within about a second of its deadline (the deadlines are read
//! from memory: a scan takes microseconds a game). About once a second it
//! also ends the games no one has touched for a week and shows the sides
//! whose page closed as disconnected. Before the deadlines, it ends the
//! vacations whose allowance is used up (`vacation::end_used_up`: the
//! clocks of those players' correspondence games run again), and it wakes
//! for the next such end too.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;

use crate::state::AppState;
use crate::time::now_ms;

/// The longest sleep between two scans.
const MAX_SLEEP_MS: i64 = 1000;

/// Starts the watcher; it ends when the server shuts down.
pub(crate) fn start(state: &AppState) {
    let state = state.clone();
    tokio::spawn(async move {
        let mut shutdown = state.shutdown.clone();
        let mut last_sweep = 0;
        // The games whose timeout is being stored.
        let ending: Arc<Mutex<HashSet<String>>> = Arc::default();
        loop {
            // With other servers on the database, the one that leads
            // watches the clocks; each shows its own closed pages' sides
            // disconnected.
            if state.cluster.as_ref().is_some_and(|c| !c.leads()) {
                let now = now_ms();
                if now - last_sweep >= MAX_SLEEP_MS {
                    last_sweep = now;
                    for entry in state.games.all() {
                        entry.expire_presence(now);
                    }
                }
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(200)) => continue,
                    _ = shutdown.changed() => break,
                }
            }
            let now = now_ms();
            let mut next = now + MAX_SLEEP_MS;
            if let Some(end) = crate::vacation::end_used_up(&state, now).await {
                next = next.min(end + 1);
            }
            for (entry, deadline) in state.games.deadlines() {
                if deadline < now {
                    if !ending.lock().insert(entry.meta.id.clone()) {
                        continue;
                    }
                    let (state, ending) = (state.clone(), ending.clone());
                    tokio::spawn(async move {
                        if let Err(e) = entry.time_out_if_due(&state.db, &state.ratings).await {
                            tracing::error!(
                                game = %entry.meta.id,
                                error = %e,
                                "a timeout could not be stored"
                            );
                        }
                        ending.lock().remove(&entry.meta.id);
                    });
                } else {
                    next = next.min(deadline + 1);
                }
            }
            // Once a second or so: untouched games end, closed pages show
            // their side disconnected.
            if now - last_sweep >= MAX_SLEEP_MS {
                last_sweep = now;
                for entry in state.games.all() {
                    entry.expire_presence(now);
                    if let Err(e) = entry
                        .abort_if_untouched(&state.db, &state.ratings, now)
                        .await
                    {
                        tracing::error!(
                            game = %entry.meta.id,
                            error = %e,
                            "an untouched game could not be ended"
                        );
                    }
                }
            }
            let wait = (next - now_ms()).clamp(1, MAX_SLEEP_MS);
            tokio::select! {
                () = tokio::time::sleep(Duration::from_millis(wait.unsigned_abs())) => {}
                _ = shutdown.changed() => break,
            }
            if *shutdown.borrow() {
                break;
            }
        }
    });
}
