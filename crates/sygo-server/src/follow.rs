//! How a server follows the others on its PostgreSQL database and shares
//! their background work (`cluster.rs` says what and why): what it hears
//! brought into its memory (the accounts a notice names read again, not
//! every account), games, accounts and sessions read on a miss, the AI's
//! jobs taken and played.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tokio::sync::{Notify, mpsc};

use crate::cluster::{Cluster, Role};
use crate::db::{AccountsRead, GameNotice, Heard, JobKind, PresenceNotice, StoredAccounts};
use crate::games::{AI_LEASE_MS, Entry, Followed};
use crate::metrics::AccountsReading;
use crate::state::AppState;
use crate::time::now_ms;
use crate::touched::Mark;
use crate::uploaded::Uploaded;

/// How often a server or worker that plays the AI looks for AI jobs no one
/// has (or whose taker was killed), besides when a notice wakes it.
const JOB_POLL: Duration = Duration::from_secs(1);

/// What `open` starts: the cluster for the state, and what it hears, for
/// `run` once the state holds the cluster.
pub(crate) struct Opened {
    pub cluster: Arc<Cluster>,
    heard: mpsc::UnboundedReceiver<Heard>,
    role: Role,
}

/// Starts listening to the other servers on the database, when there can
/// be any (PostgreSQL); `None` for SQLite, where a server is alone.
pub(crate) fn open(state: &AppState, role: Role, slots: usize) -> Option<Opened> {
    if !state.db.is_shared() {
        return None;
    }
    let leader = Arc::new(AtomicBool::new(false));
    let heard = state
        .db
        .listen((role == Role::Server).then(|| leader.clone()))?;
    Some(Opened {
        cluster: Arc::new(Cluster {
            leader,
            wake: Notify::new(),
            slots: i64::try_from(slots.max(1)).unwrap_or(1),
            accounts_wanted: parking_lot::Mutex::default(),
            accounts_reading: tokio::sync::Mutex::new(()),
            lanes: Arc::default(),
        }),
        heard,
        role,
    })
}

/// Follows the others (and, if this process plays the AI, takes AI jobs)
/// until the server shuts down. `state` holds `opened.cluster`.
pub(crate) fn run(state: &AppState, opened: Opened) {
    let Opened {
        cluster,
        mut heard,
        role,
    } = opened;
    let follower = state.clone();
    tokio::spawn(async move {
        let mut shutdown = follower.shutdown.clone();
        loop {
            tokio::select! {
                told = heard.recv() => match told {
                    Some(told) => hear(&follower, &cluster, told),
                    None => break,
                },
                _ = shutdown.changed() => break,
            }
        }
    });
    if state.db.takes_ai() || role == Role::Worker {
        let state = state.clone();
        tokio::spawn(take_jobs(state));
    }
}

/// What to do on hearing `told`. What concerns a game (the game, its
/// review, its pages open) is followed in the game's lane, in the order
/// heard (`lanes.rs`).
fn hear(state: &AppState, cluster: &Arc<Cluster>, told: Heard) {
    match told {
        Heard::Notice(notice) => {
            if notice.from == state.db.instance() {
                return;
            }
            match notice.accounts_read() {
                AccountsRead::Nothing => {}
                AccountsRead::Of(ids) => read_accounts(state, cluster, Some(ids)),
                AccountsRead::Whole => read_accounts(state, cluster, None),
            }
            for game in notice.games {
                let id = game.id.clone();
                cluster.lanes.push(&id, follow_game(state.clone(), game));
            }
            for id in notice.reviews {
                cluster
                    .lanes
                    .push(&id, follow_review(state.clone(), id.clone()));
            }
            for presence in notice.presence {
                let id = presence.id.clone();
                cluster
                    .lanes
                    .push(&id, follow_presence(state.clone(), presence));
            }
        }
        // `sygo admin`'s changes name no account.
        Heard::Accounts => read_accounts(state, cluster, None),
        Heard::Reconnected => {
            read_accounts(state, cluster, None);
            tokio::spawn(read_everything(state.clone(), cluster.clone()));
        }
    }
}

/// Brings one game up to date after another server's commit.
async fn follow_game(state: AppState, notice: GameNotice) {
    let entry = match state.games.get(&notice.id) {
        // What this server read of a game is as new as its creation (the
        // game was there to be read); reading it again would also take in
        // the commits whose notices wait behind in the lane, and tell their
        // turns as a whole game, not as turns.
        Ok(_) if notice.created => return,
        Ok(entry) => entry,
        Err(_) => match load_new(&state, &notice.id).await {
            // Read after the commit: up to date.
            Some(Loaded {
                entry,
                read_here: true,
            }) => {
                wake_if_ai_to_move(&state, &entry);
                return;
            }
            // Another task's reading (a request's) was added meanwhile. It
            // is as new as a commit that created the game, but may have
            // read before any other: the notice is followed on it.
            Some(Loaded {
                read_here: false, ..
            }) if notice.created => return,
            Some(Loaded {
                entry,
                read_here: false,
            }) => entry,
            None => return,
        },
    };
    {
        let _submit = entry.hold_submissions().await;
        let followed = match &notice.turn {
            Some(turn) => entry.follow_turn(turn),
            None => Followed::Behind,
        };
        if followed == Followed::Behind {
            entry.catch_up(&state.db).await;
        }
    }
    wake_if_ai_to_move(&state, &entry);
}

/// Reads a game's review again after another server or a worker changed
/// it (asked for it: the review maker here may take it).
async fn follow_review(state: AppState, id: String) {
    let read = state.db.load_review(&id).await;
    #[cfg(test)]
    pause::after_reading(&id).await;
    match read {
        Ok(Some(stored)) => {
            let pending = stored.pending;
            state.reviews.load(&id, stored);
            if pending {
                state.reviews.wake.notify_one();
            }
        }
        Ok(None) => {}
        Err(e) => tracing::error!(game = %id, error = ?e, "a review cannot be read again"),
    }
}

/// A side's page said open or closing to another server: shown so here
/// too (and expired here as there, a heartbeat missing).
async fn follow_presence(state: AppState, told: PresenceNotice) {
    let entry = match state.games.get(&told.id) {
        Ok(entry) => entry,
        // A game just started on another server, its notice still being
        // followed.
        Err(_) => match load_new(&state, &told.id).await {
            Some(loaded) => loaded.entry,
            None => return,
        },
    };
    if let Some(color) = sygo_rules::Color::from_name(&told.color) {
        entry.presence(color, told.present, now_ms());
    }
}

/// A game of the database read into memory ([`load_new`]).
pub(crate) struct Loaded {
    /// The game in memory now.
    pub entry: Arc<Entry>,
    /// Whether it is this reading: else another task's reading of the game
    /// was added meanwhile, which may be older than this one (a request's
    /// that began before a commit whose notice is followed now), and this
    /// reading was dropped.
    pub read_here: bool,
}

/// The game with this id: in memory, or read from the database (an
/// uploaded game let go of, or one another server started); `None` if
/// there is no such game.
pub(crate) async fn entry(state: &AppState, id: &str) -> Option<Arc<Entry>> {
    match state.games.get(id) {
        Ok(entry) => Some(entry),
        Err(_) => load_new(state, id).await.map(|loaded| loaded.entry),
    }
}

/// A game of the database not in memory (another server started it, or it
/// is an uploaded game let go of), read and added; `None` if there is no
/// such game. Its turns are replayed, and an uploaded record read, off the
/// request threads.
pub(crate) async fn load_new(state: &AppState, id: &str) -> Option<Loaded> {
    let read = state.db.load_game(id).await;
    #[cfg(test)]
    pause::after_reading(id).await;
    let mut stored = match read {
        Ok(Some(stored)) => stored,
        Ok(None) => return None,
        Err(e) => {
            tracing::error!(game = %id, error = ?e, "a new game cannot be read");
            return None;
        }
    };
    let review = stored.review.take();
    let made = tokio::task::spawn_blocking(move || {
        let entry = Entry::from_stored(stored)?;
        if let Some(uploaded) = entry.meta.record.as_deref().and_then(Uploaded::read) {
            entry.keep_uploaded(Arc::new(uploaded));
        }
        Ok::<_, crate::error::StoredGameError>(entry)
    })
    .await;
    let entry = match made {
        Ok(Ok(entry)) => Arc::new(entry),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "a stored game is skipped");
            return None;
        }
        Err(e) => {
            tracing::error!(game = %id, error = %e, "reading a stored game failed");
            return None;
        }
    };
    // The review of a game not in memory is not either (an uploaded one's,
    // read at start from no game): read with it.
    if let Some(review) = review
        && !state.reviews.known(id)
    {
        state.reviews.load(id, review);
    }
    // Added once: another task may have read it meanwhile.
    let kept = state.games.insert_new(entry.clone());
    let read_here = Arc::ptr_eq(&kept, &entry);
    if read_here {
        note_rematch(state, &kept);
        wake_if_ai_to_move(state, &kept);
    }
    Some(Loaded {
        entry: kept,
        read_here,
    })
}

/// A rematch (read at start, or started by another server) noted on the
/// game it is the rematch of, whose players' pages then follow it.
pub(crate) fn note_rematch(state: &AppState, entry: &Entry) {
    if let Some(old) = entry.meta.rematch_of.as_deref()
        && let Ok(old) = state.games.get(old)
        && old.with_live(|live| live.rematch.is_none())
    {
        old.set_rematch(entry.meta.id.clone());
    }
}

/// Wakes the AI's job taker when the AI is to move in `entry`.
fn wake_if_ai_to_move(state: &AppState, entry: &Entry) {
    if let Some(cluster) = &state.cluster
        && entry.ai_to_move()
    {
        cluster.wake.notify_one();
    }
}

/// Reads the accounts `ids` again now, and waits for it: a request that
/// found no account or session where the database has one (another server
/// just stored it, its notice still on the way, or the session's expiry
/// moved on there).
pub(crate) async fn read_accounts_of(state: &AppState, ids: Vec<i64>) {
    read_accounts_now(state, Some(ids)).await;
}

/// How many times [`read_accounts_now`] reads again the accounts changed
/// here during its read, before it leaves them to the next reading.
const READS_AGAIN: usize = 4;

/// Reads the accounts again (`None`: every account; else these) and makes
/// them the server's, one reading at a time (in the order read). An
/// account this server changed during the read (`touched.rs`) is left as
/// it is in memory and read again.
async fn read_accounts_now(state: &AppState, ids: Option<Vec<i64>>) {
    let _reading = match &state.cluster {
        Some(cluster) => Some(cluster.accounts_reading.lock().await),
        None => None,
    };
    let mut next = ids;
    for _ in 0..=READS_AGAIN {
        let marks = Marks::now(state);
        let changed = match next {
            None => match state.db.load_accounts().await {
                Ok(stored) => {
                    state.metrics.accounts_read(AccountsReading::Whole);
                    apply_accounts(state, stored);
                    // Every account was read: those changed meanwhile were
                    // put back as they were, and are read again at once.
                    marks.changed(state)
                }
                Err(e) => {
                    tracing::error!(error = ?e, "the accounts cannot be read again");
                    return;
                }
            },
            Some(ids) if ids.is_empty() => return,
            Some(ids) => match state.db.load_accounts_of(ids.clone()).await {
                Ok(stored) => {
                    state.metrics.accounts_read(AccountsReading::Targeted);
                    // Those of `ids` changed here meanwhile (all of
                    // them, if it cannot tell) are kept and read again.
                    let changed: HashSet<i64> = match marks.changed(state) {
                        Some(changed) => {
                            changed.into_iter().filter(|id| ids.contains(id)).collect()
                        }
                        None => ids.iter().copied().collect(),
                    };
                    apply_accounts_of(state, &ids, stored, &changed);
                    Some(changed)
                }
                Err(e) => {
                    tracing::error!(error = ?e, "accounts cannot be read again");
                    return;
                }
            },
        };
        next = match changed {
            Some(changed) if changed.is_empty() => return,
            Some(changed) => Some(changed.into_iter().collect()),
            // The whole read took so long that any account may have
            // changed: read them all again.
            None => None,
        };
    }
    if let (Some(cluster), Some(ids)) = (&state.cluster, next) {
        tracing::warn!(
            accounts = ids.len(),
            "accounts changed here during every reading, left to the next"
        );
        read_accounts(state, cluster, Some(ids));
    }
}

/// The moment a reading of accounts began, in each store that keeps
/// accounts' data.
struct Marks {
    accounts: Mark,
    ratings: Mark,
    lobby: Mark,
}

impl Marks {
    fn now(state: &AppState) -> Marks {
        Marks {
            accounts: state.accounts.touched.mark(),
            ratings: state.ratings.touched.mark(),
            lobby: state.lobby.touched.mark(),
        }
    }

    /// The accounts this server changed since; `None` if it cannot tell.
    fn changed(&self, state: &AppState) -> Option<HashSet<i64>> {
        let mut changed = state.accounts.touched.since(self.accounts)?;
        changed.extend(state.ratings.touched.since(self.ratings)?);
        changed.extend(state.lobby.touched.since(self.lobby)?);
        Some(changed)
    }
}

/// Every account as read again made the server's.
fn apply_accounts(state: &AppState, mut stored: StoredAccounts) {
    state
        .ratings
        .replace(std::mem::take(&mut stored.rating_changes));
    state.lobby.replace(std::mem::take(&mut stored.challenges));
    state.accounts.replace(stored);
}

/// The accounts `ids` as read again made the server's: what the server
/// kept of them (and the challenges that name them) replaced, but for the
/// accounts of `keep`, changed here since the read began, which stay as
/// they are (and the challenges that name one of them).
fn apply_accounts_of(
    state: &AppState,
    ids: &[i64],
    mut stored: StoredAccounts,
    keep: &HashSet<i64>,
) {
    let ids: Vec<i64> = ids
        .iter()
        .copied()
        .filter(|id| !keep.contains(id))
        .collect();
    if !keep.is_empty() {
        stored.accounts.retain(|row| !keep.contains(&row.id));
        stored
            .sessions
            .retain(|row| !keep.contains(&row.account_id));
        stored.seats.retain(|row| !keep.contains(&row.account_id));
        stored
            .vacations
            .retain(|row| !keep.contains(&row.account_id));
        stored
            .rating_changes
            .retain(|c| !keep.contains(&c.account_id));
        stored.challenges.retain(|c| {
            !keep.contains(&c.account_id) && !c.opponent_id.is_some_and(|o| keep.contains(&o))
        });
    }
    state
        .ratings
        .replace_of(&ids, std::mem::take(&mut stored.rating_changes));
    state
        .lobby
        .replace_of(&ids, std::mem::take(&mut stored.challenges), keep);
    state.accounts.replace_of(&ids, stored);
}

/// Reads the accounts again (`None`: every account; else these), one
/// reading at a time: what is heard during one is read next, the ids heard
/// gathered (every account, if any of it asked for every account).
fn read_accounts(state: &AppState, cluster: &Arc<Cluster>, ids: Option<Vec<i64>>) {
    {
        let mut wanted = cluster.accounts_wanted.lock();
        match ids {
            None => wanted.whole = true,
            Some(ids) => wanted.ids.extend(ids),
        }
        if std::mem::replace(&mut wanted.running, true) {
            return;
        }
    }
    let (state, cluster) = (state.clone(), cluster.clone());
    tokio::spawn(async move {
        loop {
            let next = {
                let mut wanted = cluster.accounts_wanted.lock();
                if std::mem::take(&mut wanted.whole) {
                    // Read after every notice heard so far: their ids too.
                    wanted.ids.clear();
                    None
                } else if wanted.ids.is_empty() {
                    wanted.running = false;
                    break;
                } else {
                    Some(std::mem::take(&mut wanted.ids).into_iter().collect())
                }
            };
            read_accounts_now(&state, next).await;
        }
    });
}

/// Reads every game again (notices may have been missed): the games in
/// memory each in its lane, after what was heard of it before (a reading
/// of them all, begun before such a piece, would put it back), the others
/// added.
async fn read_everything(state: AppState, cluster: Arc<Cluster>) {
    let stored = match state.db.load_games().await {
        Ok(stored) => stored,
        Err(e) => {
            tracing::error!(error = ?e, "the games cannot be read again");
            return;
        }
    };
    for stored in stored {
        let entry = match state.games.get(&stored.row.id) {
            Ok(entry) => entry,
            Err(_) => match Entry::from_stored(stored) {
                Ok(entry) => {
                    let entry = Arc::new(entry);
                    let kept = state.games.insert_new(entry.clone());
                    if Arc::ptr_eq(&kept, &entry) {
                        note_rematch(&state, &kept);
                        continue;
                    }
                    // A request read it meanwhile, perhaps before a commit
                    // this reading has.
                    kept
                }
                Err(e) => {
                    tracing::warn!(error = %e, "a stored game is skipped");
                    continue;
                }
            },
        };
        let state = state.clone();
        cluster.lanes.push(&entry.meta.id.clone(), async move {
            let _submit = entry.hold_submissions().await;
            entry.catch_up(&state.db).await;
        });
    }
}

/// Takes the AI's jobs that no one has (or whose taker was killed), and
/// plays them, until the server shuts down; then lets go of those it has.
async fn take_jobs(state: AppState) {
    let Some(cluster) = state.cluster.clone() else {
        return;
    };
    let mut shutdown = state.shutdown.clone();
    loop {
        match state
            .db
            .take_jobs(JobKind::Ai, now_ms() + AI_LEASE_MS, cluster.slots)
            .await
        {
            Ok(games) => {
                for id in games {
                    tokio::spawn(play_job(state.clone(), id));
                }
            }
            Err(e) => tracing::error!(error = ?e, "the AI's jobs cannot be taken"),
        }
        tokio::select! {
            () = tokio::time::sleep(JOB_POLL) => {}
            () = cluster.wake.notified() => {}
            _ = shutdown.changed() => break,
        }
    }
    if let Err(e) = state.db.release_jobs().await {
        tracing::warn!(error = ?e, "the AI's jobs could not be let go of");
    }
}

/// Plays the AI's turn of a job taken: on the game as the database has it.
async fn play_job(state: AppState, id: String) {
    let entry = match state.games.get(&id) {
        Ok(entry) => entry,
        Err(_) => match load_new(&state, &id).await {
            Some(loaded) => loaded.entry,
            None => return,
        },
    };
    {
        let _submit = entry.hold_submissions().await;
        entry.catch_up(&state.db).await;
    }
    if entry.ai_to_move() {
        entry.set_ai_thinking(true);
        crate::ai::play_turns(&state, entry);
    } else if let Err(e) = state.db.drop_job(JobKind::Ai, &id).await {
        tracing::warn!(game = %id, error = ?e, "a finished AI job could not be dropped");
    }
}

/// A pause for the tests, after a reading of a game or of its review from
/// the database and before it is made the server's: the moment when
/// another task's reading of the same game may come in between.
#[cfg(test)]
pub(crate) mod pause {
    use std::collections::BTreeMap;

    use tokio::sync::{mpsc, oneshot};

    /// The games whose readings pause, and where each pause is told: a
    /// sender the test answers to let the reading go on.
    static PAUSED: parking_lot::Mutex<
        BTreeMap<String, mpsc::UnboundedSender<oneshot::Sender<()>>>,
    > = parking_lot::Mutex::new(BTreeMap::new());

    /// From now on, each reading of the game `id` pauses, and is told on
    /// the channel returned.
    pub(crate) fn arm(id: &str) -> mpsc::UnboundedReceiver<oneshot::Sender<()>> {
        let (tell, told) = mpsc::unbounded_channel();
        PAUSED.lock().insert(id.to_string(), tell);
        told
    }

    /// The readings of `id` no longer pause.
    pub(crate) fn disarm(id: &str) {
        PAUSED.lock().remove(id);
    }

    /// Pauses if the readings of `id` are to, until the test says go.
    pub(super) async fn after_reading(id: &str) {
        let tell = PAUSED.lock().get(id).cloned();
        if let Some(tell) = tell {
            let (go, gate) = oneshot::channel();
            if tell.send(go).is_ok() {
                let _ = gate.await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::Account;
    use crate::config::Config;
    use crate::db::{AccountRow, AiJob, GameRow, PositionRow, SessionRow, TurnRow};
    use crate::ratings::RatingChange;
    use tokio::sync::oneshot;

    const WAIT: Duration = Duration::from_secs(20);

    /// A state on a SQLite file of its own, playing no AI (nothing changes
    /// the games but the test), and the folder to remove after.
    async fn quiet_state(name: &str) -> (AppState, crate::state::Shutdown, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("sygo-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut config = Config::new("127.0.0.1:0".parse().unwrap(), dir.join("sygo.db"));
        config.ai_slots = 0;
        let (state, shutdown) = AppState::open(&config).await.unwrap();
        (state, shutdown, dir)
    }

    /// The next pause told on `told`, in time.
    async fn next_pause(
        told: &mut tokio::sync::mpsc::UnboundedReceiver<oneshot::Sender<()>>,
    ) -> oneshot::Sender<()> {
        tokio::time::timeout(WAIT, told.recv())
            .await
            .expect("a reading pauses in time")
            .unwrap()
    }

    /// A game between two people, as stored.
    fn hot_seat(id: &str) -> GameRow {
        let human = r#"{"kind":"human"}"#.to_string();
        GameRow {
            black: human.clone(),
            white: human,
            ..GameRow::for_test(id)
        }
    }

    /// White's first turn of a game, as another server stores it.
    fn first_turn(id: &str) -> TurnRow {
        TurnRow {
            game_id: id.to_string(),
            number: 1,
            turn: "c3".to_string(),
            played: 1,
            color: Some("white".to_string()),
            clock: None,
            undos: 0,
        }
    }

    /// A game that a request reads (not yet in memory) before another
    /// server stores a turn of it, and adds while this server follows that
    /// turn's notice (the follower missed it in memory, then read it
    /// again): the follower's reading is not dropped for the request's
    /// older one. In the cluster's tests a server showed such a game as it
    /// was before the turn (or the resignation) for ever.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_game_a_request_read_before_a_commit_is_brought_up_to_date_by_its_notice() {
        let (state, _shutdown, dir) = quiet_state("follow-new").await;
        let id = "0000f011";
        state
            .db
            .insert_game(hot_seat(id), Vec::new(), AiJob::Unchanged)
            .await
            .unwrap();
        let mut told = pause::arm(id);
        // A request reads the game (no turn yet) and pauses before adding it.
        let request = tokio::spawn({
            let state = state.clone();
            async move { load_new(&state, id).await.map(|l| l.read_here) }
        });
        let request_paused = next_pause(&mut told).await;
        // Another server stores a turn; its notice is followed here: the
        // game is not in memory, so the follower reads it (with the turn).
        state
            .db
            .insert_turn(first_turn(id), Vec::new(), AiJob::Unchanged)
            .await
            .unwrap();
        let notice = GameNotice {
            id: id.to_string(),
            turn: Some(first_turn(id)),
            created: false,
        };
        let follower = tokio::spawn(follow_game(state.clone(), notice));
        let follower_paused = next_pause(&mut told).await;
        // The request adds its older reading first.
        pause::disarm(id);
        request_paused.send(()).unwrap();
        assert_eq!(request.await.unwrap(), Some(true));
        follower_paused.send(()).unwrap();
        tokio::time::timeout(WAIT, follower).await.unwrap().unwrap();
        let turns = state
            .games
            .get(id)
            .unwrap()
            .with_live(|live| live.game.turns().len());
        assert_eq!(turns, 1, "the game as followed");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Two notices of one game's review, the first one's reading paused
    /// until the second's has come: the review kept is the later reading
    /// (the readings are made in the game's lane, one after another). In
    /// the cluster's tests a server read the review's last position, then
    /// put back an older reading, and never showed the review done.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_reviews_readings_are_kept_in_the_order_heard() {
        let (state, _shutdown, dir) = quiet_state("follow-review").await;
        let id = "0000f012";
        state
            .db
            .insert_game(hot_seat(id), Vec::new(), AiJob::Unchanged)
            .await
            .unwrap();
        let position = |turn: u32| PositionRow {
            turn,
            hash: i64::from(turn) + 100,
            win_rate: 0.5,
            score_lead: 0.0,
            best: Some("c3".to_string()),
            visits: 16,
            ownership: "[]".to_string(),
        };
        state.db.set_review(id, 1, true).await.unwrap();
        state
            .db
            .insert_review_position(id, position(0))
            .await
            .unwrap();
        let lanes = Arc::new(crate::lanes::Lanes::default());
        let (done, mut finished) = tokio::sync::mpsc::unbounded_channel();
        let follow = |done: tokio::sync::mpsc::UnboundedSender<()>| {
            let state = state.clone();
            async move {
                follow_review(state, id.to_string()).await;
                done.send(()).unwrap();
            }
        };
        let mut told = pause::arm(id);
        lanes.push(id, follow(done.clone()));
        let first = next_pause(&mut told).await;
        // The review goes on elsewhere, and is told again.
        state
            .db
            .insert_review_position(id, position(1))
            .await
            .unwrap();
        state.db.set_review(id, 1, false).await.unwrap();
        lanes.push(id, follow(done));
        // The second reading waits behind the first (were they not in
        // order, it would read now and pause too: then it is let go first,
        // and the first one's older reading after it).
        let mut paused = vec![first];
        let deadline = tokio::time::Instant::now() + WAIT;
        while lanes.waiting(id) == 0 {
            if let Ok(second) = told.try_recv() {
                paused.push(second);
                break;
            }
            assert!(tokio::time::Instant::now() < deadline, "no second reading");
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        pause::disarm(id);
        for go in paused.into_iter().rev() {
            go.send(()).unwrap();
        }
        for _ in 0..2 {
            tokio::time::timeout(WAIT, finished.recv()).await.unwrap();
        }
        assert!(state.reviews.has(id, 0, 100));
        assert!(state.reviews.has(id, 1, 101), "the later reading is kept");
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn row(id: i64, name: &str, password_hash: &str) -> AccountRow {
        AccountRow {
            id,
            name: name.to_string(),
            password_hash: password_hash.to_string(),
            created: 0,
            disabled: false,
            vacation_since: None,
        }
    }

    /// A read of accounts that began before this server changed one of
    /// them (so the read's rows of it are older than memory) leaves that
    /// account as it is here, its sessions and ratings too, and puts the
    /// other accounts' rows in place.
    #[tokio::test]
    async fn a_read_begun_before_a_change_here_leaves_that_account_as_it_is() {
        let dir = std::env::temp_dir().join(format!("sygo-touched-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let config = Config::new("127.0.0.1:0".parse().unwrap(), dir.join("sygo.db"));
        let (state, _shutdown) = AppState::open(&config).await.unwrap();
        state.accounts.add(Account::from(row(1, "ann", "old")));
        state.accounts.add(Account::from(row(2, "bob", "old")));
        let marks = Marks::now(&state);
        // Here, meanwhile: Ann's new password, a session, a rated game.
        state.accounts.set_password(1, "new".to_string(), "");
        state.accounts.add_session(&SessionRow {
            secret_hash: "s1".to_string(),
            account_id: 1,
            created: 0,
            expires: i64::MAX,
        });
        let change = RatingChange::for_test("g", 1);
        state.ratings.apply(std::slice::from_ref(&change));
        // The read, from before: Ann as she was, Bob as another server
        // changed him.
        let read = StoredAccounts {
            accounts: vec![row(1, "ann", "old"), row(2, "bob", "elsewhere")],
            ..StoredAccounts::default()
        };
        let changed = marks.changed(&state).unwrap();
        assert_eq!(changed, HashSet::from([1]));
        apply_accounts_of(&state, &[1, 2], read, &changed);
        assert_eq!(state.accounts.by_id(1).unwrap().password_hash, "new");
        assert!(state.accounts.signed_in("s1", 0).is_some());
        assert_eq!(state.ratings.get(1, "sygo").games, 1);
        assert_eq!(state.accounts.by_id(2).unwrap().password_hash, "elsewhere");
        // A read begun after the change puts Ann's rows in place.
        let marks = Marks::now(&state);
        let read = StoredAccounts {
            accounts: vec![row(1, "ann", "newer")],
            ..StoredAccounts::default()
        };
        let changed = marks.changed(&state).unwrap();
        assert!(changed.is_empty());
        apply_accounts_of(&state, &[1], read, &changed);
        assert_eq!(state.accounts.by_id(1).unwrap().password_hash, "newer");
        assert!(
            state.accounts.signed_in("s1", 0).is_none(),
            "her sessions as read"
        );
        assert_eq!(state.ratings.get(1, "sygo").games, 0, "her ratings as read");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
