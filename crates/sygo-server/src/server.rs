//! The server: the database opened and every game loaded, the socket bound,
//! the AI resumed where it is to move, requests served until shutdown.

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::TcpListener;

use crate::app::app;
use crate::config::Config;
use crate::error::ServerError;
use crate::state::{AppState, Shutdown};

/// A server bound to its address, with its games loaded, not yet serving.
///
/// ```no_run
/// # async fn example() -> Result<(), sygo_server::ServerError> {
/// use sygo_server::{Config, Server};
/// let config = Config::new("127.0.0.1:0".parse().unwrap(), "games.db");
/// let server = Server::bind(config).await?;
/// println!("listening on {}", server.local_addr());
/// server.run(sygo_server::shutdown_signal()).await
/// # }
/// ```
pub struct Server {
    listener: TcpListener,
    addr: SocketAddr,
    /// The database as the log names it (a file's path, or an address
    /// without its password).
    db: String,
    state: AppState,
    shutdown: Shutdown,
}

impl Server {
    /// Opens the database (creating it if needed), loads every game, and
    /// binds the address.
    ///
    /// # Errors
    ///
    /// The database cannot be opened or read, or the address cannot be
    /// bound.
    pub async fn bind(config: Config) -> Result<Server, ServerError> {
        let db = config.db.to_string();
        let (state, shutdown) = AppState::open(&config).await?;
        let listener = TcpListener::bind(config.addr)
            .await
            .map_err(|e| ServerError(format!("cannot listen on {}: {e}", config.addr)))?;
        let addr = listener
            .local_addr()
            .map_err(|e| ServerError(format!("the address listened on: {e}")))?;
        Ok(Server {
            listener,
            addr,
            db,
            state,
            shutdown,
        })
    }

    /// The address bound (with the real port when the config asked for 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Number of games loaded.
    pub fn game_count(&self) -> usize {
        self.state.game_count()
    }

    /// Serves until `shutdown` completes, then stops the AI's searches,
    /// ends the live updates, and finishes the requests in progress. The
    /// start and the end are logged (`tracing`, INFO).
    ///
    /// # Errors
    ///
    /// The socket fails.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServerError> {
        let Server {
            listener,
            addr,
            db,
            state,
            shutdown: stop,
        } = self;
        tracing::info!(
            address = %addr,
            database = %db,
            games = state.game_count(),
            "serving"
        );
        state.resume_ai();
        let stop = std::sync::Arc::new(stop);
        let stopping = stop.clone();
        let served = axum::serve(
            listener,
            app(state).into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async move {
            shutdown.await;
            tracing::info!(address = %addr, "shutting down");
            stopping.stop();
        })
        .await
        .map_err(|e| ServerError(format!("serving: {e}")));
        // Every request is answered: what a task still sends from now on
        // is refused, and the database is let go for the next server.
        stop.release_database();
        match &served {
            Ok(()) => tracing::info!(address = %addr, "stopped"),
            Err(e) => tracing::error!(address = %addr, error = %e, "stopped"),
        }
        served
    }
}

/// Completes on Ctrl-C (SIGINT) or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}

/// Runs the server on a runtime of its own until Ctrl-C or SIGTERM:
/// `ready` is told the address once it listens. What `sygo serve` does.
///
/// # Errors
///
/// As [`Server::bind`] and [`Server::run`].
pub fn serve(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), ServerError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| ServerError(format!("cannot start the runtime: {e}")))?;
    let result = runtime.block_on(async {
        let server = Server::bind(config).await?;
        ready(server.local_addr());
        server.run(shutdown_signal()).await
    });
    // The searches were told to stop; do not wait long for them.
    runtime.shutdown_timeout(Duration::from_secs(5));
    result
}
