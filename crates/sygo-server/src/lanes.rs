//! Work on one key done one piece after another, in the order it was
//! given; work on different keys at once ([`Lanes`]).
//!
//! What a server hears of the others' commits is followed per game in a
//! lane of its own (`follow.rs`): each piece reads the database when it
//! runs, so the piece that runs last read last, and what the server keeps
//! of a game is never put back to an older reading by a piece that read
//! earlier and finished later.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use parking_lot::Mutex;

/// A piece of work, boxed to wait in a lane.
type Work = Pin<Box<dyn Future<Output = ()> + Send + 'static>>;

/// Lanes of work by key: a key's pieces run in the order pushed, one at a
/// time; a lane exists while it has work.
#[derive(Default)]
pub(crate) struct Lanes {
    /// The pieces waiting in each lane that runs (its first piece is the
    /// one running, and is not here).
    waiting: Mutex<HashMap<String, VecDeque<Work>>>,
}

impl Lanes {
    /// Runs `work` in the lane of `key`: after the pieces pushed there
    /// before it, at once if there are none. A piece that panics ends
    /// alone; the lane goes on with the next.
    pub(crate) fn push(
        self: &Arc<Self>,
        key: &str,
        work: impl Future<Output = ()> + Send + 'static,
    ) {
        let work: Work = Box::pin(work);
        {
            let mut waiting = self.waiting.lock();
            if let Some(lane) = waiting.get_mut(key) {
                lane.push_back(work);
                return;
            }
            waiting.insert(key.to_string(), VecDeque::new());
        }
        tokio::spawn(self.clone().run(key.to_string(), work));
    }

    /// How many pieces wait in the lane of `key` behind the one running.
    #[cfg(test)]
    pub(crate) fn waiting(&self, key: &str) -> usize {
        self.waiting.lock().get(key).map_or(0, VecDeque::len)
    }

    /// Runs a lane's pieces until none waits, then ends the lane.
    async fn run(self: Arc<Self>, key: String, first: Work) {
        let mut next = Some(first);
        while let Some(work) = next {
            // A task of its own, so that a panic ends the piece, not the
            // lane (whose later pieces would wait for ever).
            if let Err(e) = tokio::spawn(work).await {
                tracing::error!(key = %key, error = %e, "a piece of following failed");
            }
            let mut waiting = self.waiting.lock();
            next = waiting.get_mut(&key).and_then(VecDeque::pop_front);
            if next.is_none() {
                waiting.remove(&key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tokio::sync::{mpsc, oneshot};

    const WAIT: Duration = Duration::from_secs(20);

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_keys_pieces_run_in_order_one_at_a_time_and_other_keys_at_once() {
        let lanes = Arc::new(Lanes::default());
        let (done, mut finished) = mpsc::unbounded_channel();
        // The first piece of `g` waits until told; the others of `g` wait
        // behind it, in order.
        let (go, gate) = oneshot::channel::<()>();
        let first_done = done.clone();
        lanes.push("g", async move {
            let _ = gate.await;
            first_done.send("g1").unwrap();
        });
        for name in ["g2", "g3", "g4"] {
            let done = done.clone();
            lanes.push("g", async move {
                done.send(name).unwrap();
            });
        }
        assert_eq!(lanes.waiting("g"), 3);
        // Another key's piece runs meanwhile.
        let other = done.clone();
        lanes.push("h", async move { other.send("h1").unwrap() });
        let next = tokio::time::timeout(WAIT, finished.recv()).await.unwrap();
        assert_eq!(next, Some("h1"));
        go.send(()).unwrap();
        let mut order = Vec::new();
        for _ in 0..4 {
            order.push(
                tokio::time::timeout(WAIT, finished.recv())
                    .await
                    .unwrap()
                    .unwrap(),
            );
        }
        assert_eq!(order, ["g1", "g2", "g3", "g4"]);
        // The lanes are gone once empty; a new piece starts one again.
        let deadline = tokio::time::Instant::now() + WAIT;
        while !lanes.waiting.lock().is_empty() {
            assert!(tokio::time::Instant::now() < deadline, "a lane stays");
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        lanes.push("g", async move { done.send("g5").unwrap() });
        let next = tokio::time::timeout(WAIT, finished.recv()).await.unwrap();
        assert_eq!(next, Some("g5"));
    }

    #[tokio::test]
    async fn a_piece_that_panics_ends_alone() {
        let lanes = Arc::new(Lanes::default());
        let (done, mut finished) = mpsc::unbounded_channel();
        lanes.push("g", async { panic!("a piece that fails") });
        lanes.push("g", async move { done.send("after").unwrap() });
        let next = tokio::time::timeout(WAIT, finished.recv()).await.unwrap();
        assert_eq!(next, Some("after"));
    }
}
