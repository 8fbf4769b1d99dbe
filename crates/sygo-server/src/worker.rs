//! `sygo worker`: a process that plays the AI's turns for the servers on a
//! PostgreSQL database, so that the AI's capacity grows by adding machines.
//! It answers no request: it takes the AI's jobs (`cluster.rs`), plays them
//! as a server would (the turn stored, the servers told), and follows the
//! others' commits like a server. Killed, it leaves its jobs to be taken
//! again once their leases run out; stopped (Ctrl-C, SIGTERM), it lets them
//! go at once.

use std::time::Duration;

use crate::cluster::Role;
use crate::config::Config;
use crate::db::Database;
use crate::error::ServerError;
use crate::state::AppState;

/// Plays the AI's jobs of the database of `config` (PostgreSQL) with
/// `config.ai_slots` search threads until `shutdown` completes; `ready` is
/// called once it takes jobs. What `sygo worker` does.
///
/// # Errors
///
/// The database is not PostgreSQL, or cannot be opened or read.
pub async fn run_worker(
    config: &Config,
    ready: impl FnOnce(),
    shutdown: impl Future<Output = ()>,
) -> Result<(), ServerError> {
    if let Database::Sqlite(path) = &config.db {
        return Err(ServerError(format!(
            "a worker works for servers on a PostgreSQL database (postgres://…); {} is a \
             SQLite file, whose one server plays the AI itself",
            path.display()
        )));
    }
    let (state, stop) = AppState::open_as(config, Role::Worker).await?;
    tracing::info!(
        database = %config.db,
        slots = config.ai_slots,
        games = state.game_count(),
        "working"
    );
    ready();
    shutdown.await;
    tracing::info!("stopping");
    stop.stop();
    // The job taker lets go of its jobs as it ends.
    tokio::time::sleep(Duration::from_millis(200)).await;
    stop.release_database();
    Ok(())
}

/// Runs [`run_worker`] on a runtime of its own until Ctrl-C or SIGTERM.
///
/// # Errors
///
/// As [`run_worker`].
pub fn work(config: Config, ready: impl FnOnce()) -> Result<(), ServerError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| ServerError(format!("cannot start the runtime: {e}")))?;
    let result =
        runtime.block_on(async { run_worker(&config, ready, crate::shutdown_signal()).await });
    runtime.shutdown_timeout(Duration::from_secs(5));
    result
}
