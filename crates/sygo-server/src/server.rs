//! The server: the database opened and every game loaded, the socket bound,
//! the AI resumed where it is to move, requests served until shutdown. The
//! connections are served here (not by `axum::serve`) so that hyper has a
//! timer: a client that is slow to send a request's headers, or silent on
//! a connection kept open, is cut off after `config::READ_TIMEOUT`.

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
        let served = serve_connections(listener, app(state), shutdown).await;
        tracing::info!(address = %addr, "shutting down");
        // The AI stops and the live streams end; the connections finish.
        stop.stop();
        served.wait().await;
        // Every request is answered: what a task still sends from now on
        // is refused, and the database is let go for the next server.
        stop.release_database();
        tracing::info!(address = %addr, "stopped");
        Ok(())
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

/// The connections being served, to be let finish at shutdown.
struct Served(hyper_util::server::graceful::GracefulShutdown);

impl Served {
    /// Waits until every connection is done: each kept-alive one is closed
    /// once its request is answered; a live stream ends as the server's
    /// shutdown ends it.
    async fn wait(self) {
        self.0.shutdown().await;
    }
}

/// Accepts connections until `shutdown`, each served by hyper with a timer:
/// a request's headers must come within `READ_TIMEOUT`, and so must the
/// next request's on a connection kept open (then it is closed). Each
/// request carries its peer's address (`ConnectInfo`, as axum's
/// `into_make_service_with_connect_info` gives it).
async fn serve_connections(
    listener: TcpListener,
    router: axum::Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Served {
    use axum::extract::ConnectInfo;
    use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
    use hyper_util::server::conn::auto::Builder;
    use hyper_util::service::TowerToHyperService;
    use tower::ServiceExt as _;

    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(crate::config::READ_TIMEOUT);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(Some(crate::config::READ_TIMEOUT));
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of file descriptors, a connection reset before it was
                // taken: the next one may do.
                Err(e) => {
                    tracing::warn!(error = %e, "a connection could not be accepted");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = shutdown.as_mut() => break,
        };
        let _ = stream.set_nodelay(true);
        let service =
            router
                .clone()
                .map_request(move |request: hyper::Request<hyper::body::Incoming>| {
                    let mut request = request.map(axum::body::Body::new);
                    request.extensions_mut().insert(ConnectInfo(peer));
                    request
                });
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), TowerToHyperService::new(service))
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(peer = %peer, error = %e, "a connection ended");
            }
        });
    }
    Served(graceful)
}
