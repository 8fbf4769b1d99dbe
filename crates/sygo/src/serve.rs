//! `sygo serve [--addr 127.0.0.1:8080] [--db FILE] [--secure-cookies]
//! [--trust-proxy] [--no-rate-limits]`: the web app
//! (`docs/web.md`), and what `sygo` with no command runs.
//!
//! It prints the address to open once it listens (`--addr 127.0.0.1:0`
//! takes any free port, and the line says which), and serves until Ctrl-C
//! or SIGTERM. The database is `sygo.db` next to the executable unless
//! `--db` names another file.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use sygo_server::Config;
use sygo_server::config::DEFAULT_ADDR;

/// Options of `sygo serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The address to listen on; port 0 takes any free port.
    #[arg(long, default_value = DEFAULT_ADDR)]
    addr: SocketAddr,
    /// The SQLite database of the games (created if missing); default:
    /// sygo.db next to the executable.
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
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
        }
    }
}

/// The database next to the executable.
pub fn default_db() -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe().context("cannot find where the executable is")?;
    let dir = exe.parent().context("the executable is in no directory")?;
    Ok(dir.join("sygo.db"))
}

/// Serves until Ctrl-C or SIGTERM.
pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    let db = match &args.db {
        Some(path) => path.clone(),
        None => default_db()?,
    };
    let mut config = Config::new(args.addr, db);
    config.secure_cookies = args.secure_cookies;
    config.trust_proxy = args.trust_proxy;
    config.rate_limits = !args.no_rate_limits;
    sygo_server::serve(config, |addr| {
        println!("sygo web app: open http://{addr}/");
    })?;
    Ok(())
}
