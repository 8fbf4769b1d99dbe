//! `sygo serve [--addr 127.0.0.1:8080] [--db FILE|URL] [--secure-cookies]
//! [--trust-proxy] [--no-rate-limits] [--log-format text|json] [--ai-slots
//! N]`: the web app (`docs/web.md`), and what `sygo` with no command runs.
//! `sygo worker --db URL [--ai-slots N]`: the AI's turns for the servers on
//! a PostgreSQL database (`docs/deploy.md`).
//!
//! It prints the address to open once it listens (`--addr 127.0.0.1:0`
//! takes any free port, and the line says which) on standard output, and
//! serves until Ctrl-C or SIGTERM. The database is `sygo.db` next to the
//! executable unless `--db` names another file, or a PostgreSQL database
//! (`postgres://user@host/db`, `docs/deploy.md`). Its log goes to standard
//! error: the server's events (`tracing`) at the levels `RUST_LOG` lets
//! through (default `info`), as text or as one JSON object a line.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use sygo_server::config::DEFAULT_ADDR;
use sygo_server::{Config, Database};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::filter::LevelFilter;

/// How the log is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// A line of text per event: time, level, target, message, fields.
    #[default]
    Text,
    /// A JSON object per line: `timestamp`, `level`, `target`, `message`
    /// and the event's fields.
    Json,
}

/// Options of `sygo serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The address to listen on; port 0 takes any free port.
    #[arg(long, default_value = DEFAULT_ADDR)]
    addr: SocketAddr,
    /// Where the games are kept: a SQLite file (created if missing), or a
    /// PostgreSQL database (`postgres://user:password@host/db`, its schema
    /// created at start; TLS as libpq sets it: `?sslmode=verify-full&
    /// sslrootcert=ca.pem`); default: sygo.db next to the executable.
    #[arg(long, value_name = "FILE|URL")]
    db: Option<String>,
    /// Give the session cookie `Secure`: the site is reached over HTTPS
    /// (through a proxy that terminates TLS).
    #[arg(long)]
    secure_cookies: bool,
    /// Behind a reverse proxy: take the client's address from
    /// X-Forwarded-For and HTTPS from X-Forwarded-Proto. Only when a proxy
    /// sets them, else anyone can pretend to any address.
    #[arg(long)]
    trust_proxy: bool,
    /// Turn the rate limits off (sign-ins and games started per address and
    /// per account): for a load test on one machine.
    #[arg(long)]
    no_rate_limits: bool,
    /// How the log (standard error) is written: text, or a JSON object per
    /// line. Which events: the environment variable RUST_LOG (default
    /// `info`; `debug` adds a line per request).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// How many AI search threads may run at once (default: the number of
    /// cores). 0, on a PostgreSQL database, leaves the AI's turns to `sygo
    /// worker`s and the other servers.
    #[arg(long, value_name = "N")]
    ai_slots: Option<usize>,
}

/// Options of `sygo worker`.
#[derive(Debug, clap::Args)]
pub struct WorkerArgs {
    /// The web app's PostgreSQL database (`postgres://user:password@host/db`,
    /// TLS as libpq sets it: `?sslmode=verify-full&sslrootcert=ca.pem`), the
    /// one its servers use.
    #[arg(long, value_name = "URL")]
    db: String,
    /// How many AI search threads may run at once (default: the number of
    /// cores).
    #[arg(long, value_name = "N")]
    ai_slots: Option<usize>,
    /// How the log (standard error) is written, as for `sygo serve`.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = LogFormat::Text)]
    log_format: LogFormat,
}

impl Default for ServeArgs {
    fn default() -> ServeArgs {
        ServeArgs {
            addr: DEFAULT_ADDR
                .parse()
                .expect("the default address is an address"),
            db: None,
            secure_cookies: false,
            trust_proxy: false,
            no_rate_limits: false,
            log_format: LogFormat::Text,
            ai_slots: None,
        }
    }
}

/// The database next to the executable.
pub fn default_db() -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe().context("cannot find where the executable is")?;
    let dir = exe.parent().context("the executable is in no directory")?;
    Ok(dir.join("sygo.db"))
}

/// Writes the log to standard error in `format`, the events chosen by
/// `RUST_LOG` (default: `info`).
///
/// # Errors
///
/// `RUST_LOG` does not read as a filter.
fn start_log(format: LogFormat) -> anyhow::Result<()> {
    let filter = EnvFilter::builder()
        .with_default_directive(LevelFilter::INFO.into())
        .from_env()
        .context("RUST_LOG is not a log filter (such as `info` or `info,sygo_server=debug`)")?;
    let log = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    // A log already set (none is, in the binary) is kept.
    let _ = match format {
        LogFormat::Text => log.with_ansi(std::io::stderr().is_terminal()).try_init(),
        LogFormat::Json => log
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .with_span_list(false)
            .try_init(),
    };
    Ok(())
}

/// Serves until Ctrl-C or SIGTERM.
pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    start_log(args.log_format)?;
    let db = match &args.db {
        Some(text) => Database::parse(text),
        None => Database::Sqlite(default_db()?),
    };
    let mut config = Config::new(args.addr, db);
    config.secure_cookies = args.secure_cookies;
    config.trust_proxy = args.trust_proxy;
    config.rate_limits = !args.no_rate_limits;
    if let Some(slots) = args.ai_slots {
        if slots == 0 && !matches!(config.db, Database::Postgres(_)) {
            anyhow::bail!(
                "--ai-slots 0 leaves the AI's turns to workers, which need a PostgreSQL \
                 database (--db postgres://…)"
            );
        }
        config.ai_slots = slots;
    }
    sygo_server::serve(config, |addr| {
        println!("sygo web app: open http://{addr}/");
    })?;
    Ok(())
}

/// Plays the AI's jobs of the servers' database until Ctrl-C or SIGTERM.
pub fn work(args: &WorkerArgs) -> anyhow::Result<()> {
    start_log(args.log_format)?;
    let mut config = Config::new(
        DEFAULT_ADDR
            .parse()
            .expect("the default address is an address"),
        Database::parse(&args.db),
    );
    if let Some(slots) = args.ai_slots {
        anyhow::ensure!(
            slots > 0,
            "a worker needs at least one AI slot (--ai-slots 1 or more)"
        );
        config.ai_slots = slots;
    }
    let db = config.db.to_string();
    sygo_server::work(config, || {
        println!("sygo worker: playing the AI's turns for the servers on {db}");
    })?;
    Ok(())
}
