//! `sygo admin [--db FILE|URL] accounts | disable NAME | enable NAME | annul
//! GAME`: the host's commands on the web app's accounts and ratings (`docs/web.md`, "Accounts").
//! They work while `sygo serve` runs on the same database: the server
//! notices within a second.

use sygo_server::Database;
use sygo_server::admin::Admin;

/// Options of `sygo admin`.
#[derive(Debug, clap::Args)]
pub struct AdminArgs {
    /// The web app's database: a SQLite file, or a PostgreSQL address
    /// (`postgres://user@host/db`); default: sygo.db next to the executable
    /// (as for `sygo serve`).
    #[arg(long, value_name = "FILE|URL", global = true)]
    db: Option<String>,
    #[command(subcommand)]
    command: AdminCommand,
}

/// The host's commands.
#[derive(Debug, clap::Subcommand)]
enum AdminCommand {
    /// List the accounts: name, when made, games held, sessions, vacation
    /// (on since and until when, the days left of 30 in any 365), disabled.
    Accounts,
    /// Disable an account: its sessions end, it cannot sign in, its profile
    /// is hidden; its games stay.
    Disable {
        /// The account's name (any case).
        name: String,
    },
    /// Enable a disabled account again.
    Enable {
        /// The account's name (any case).
        name: String,
    },
    /// Annul a rated game's effect on the ratings: every rating is worked
    /// out again without it.
    Annul {
        /// The game's id (eight hexadecimal digits).
        game: String,
    },
}

/// Milliseconds as days to a tenth, rounded down: `27.3`.
fn days(ms: i64) -> String {
    const DAY: i64 = 24 * 60 * 60 * 1000;
    let tenths = ms.max(0) / (DAY / 10);
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// Runs the command.
pub fn run(args: &AdminArgs) -> anyhow::Result<()> {
    let db = match &args.db {
        Some(text) => Database::parse(text),
        None => Database::Sqlite(crate::serve::default_db()?),
    };
    let mut admin = Admin::open(&db)?;
    match &args.command {
        AdminCommand::Accounts => {
            let accounts = admin.accounts()?;
            if accounts.is_empty() {
                println!("no accounts");
            }
            for a in accounts {
                let vacation = match (&a.vacation_since, &a.vacation_until) {
                    (Some(since), Some(until)) => {
                        format!("on vacation since {since} until {until}")
                    }
                    _ => "not on vacation".to_string(),
                };
                println!(
                    "{:<20} created {}  games {:>4}  sessions {:>3}  {vacation}, {} days left in 365{}",
                    a.name,
                    a.created,
                    a.games,
                    a.sessions,
                    days(a.vacation_left_ms),
                    if a.disabled { "  disabled" } else { "" }
                );
            }
        }
        AdminCommand::Disable { name } => {
            let name = admin.set_disabled(name, true)?;
            println!("{name} is disabled: signed out everywhere, cannot sign in");
        }
        AdminCommand::Enable { name } => {
            let name = admin.set_disabled(name, false)?;
            println!("{name} is enabled");
        }
        AdminCommand::Annul { game } => {
            let names = admin.annul(game)?;
            println!(
                "game {game} no longer counts for the ratings of {}; ratings worked out again",
                names.join(" and ")
            );
        }
    }
    Ok(())
}
