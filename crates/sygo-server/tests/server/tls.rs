//! A server reaching its PostgreSQL database over TLS, set in the address
//! as libpq reads it (`sslmode`, `sslrootcert`): the connections are
//! encrypted, and the server's certificate is checked as the mode says.
//!
//! PostgreSQL only: `scripts/with-postgres.sh` starts a server that takes
//! TLS with a certificate issued for `localhost` by the authority of
//! `SYGO_TEST_POSTGRES_CA`; `scripts/test.sh` runs these with
//! `--include-ignored`.

use crate::common;

use common::{TestServer, query_i64, temp_db};
use sygo_server::{Config, Database, Server};

/// The test's database, its plain address (for the test's own queries),
/// and the authorities' certificate files: the one that signed the
/// server's, and another.
fn setup(name: &str) -> (String, String, String) {
    let ca = std::env::var("SYGO_TEST_POSTGRES_CA");
    let other = std::env::var("SYGO_TEST_POSTGRES_OTHER_CA");
    let (Some(_), Ok(ca), Ok(other)) = (common::postgres_server(), ca, other) else {
        panic!(
            "these tests need PostgreSQL with TLS: run them with scripts/test.sh, or in \
             scripts/with-postgres.sh (SYGO_TEST_POSTGRES, SYGO_TEST_POSTGRES_CA, \
             SYGO_TEST_POSTGRES_OTHER_CA)"
        )
    };
    let Database::Postgres(url) = temp_db(name) else {
        unreachable!("a PostgreSQL server gives PostgreSQL databases")
    };
    (url, ca, other)
}

/// The address with another host and TLS settings added.
fn address(url: &str, host: &str, settings: &str) -> Database {
    Database::Postgres(format!("{}?{settings}", url.replace("127.0.0.1", host)))
}

/// Why a server on `db` does not start.
async fn refused(db: Database) -> String {
    match Server::bind(Config::new("127.0.0.1:0".parse().unwrap(), db)).await {
        Ok(_) => panic!("the server started"),
        Err(e) => e.to_string(),
    }
}

/// The connections to the test's database other than the query's own, by
/// whether they are encrypted.
fn connections(url: &str, encrypted: bool) -> i64 {
    let name = url.rsplit('/').next().unwrap();
    query_i64(
        &Database::Postgres(url.to_string()),
        &format!(
            "SELECT count(*) FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid) \
             WHERE a.datname = '{name}' AND a.pid <> pg_backend_pid() AND s.ssl = {encrypted}"
        ),
    )
}

/// Waits (30 s at most) until the test's database has no connection in
/// plain text but the query's own, and says how many there were at the
/// end. The queries of `connections` connect in plain text themselves: the
/// backend of the one before may still be on its way out.
async fn plain_connections_settle(url: &str) -> i64 {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let n = connections(url, false);
        if n == 0 || std::time::Instant::now() > deadline {
            return n;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: scripts/test.sh runs it"]
async fn a_server_reaches_its_database_over_tls_with_the_certificate_checked() {
    let (url, ca, _) = setup("tls-verified");
    let server = TestServer::on(address(
        &url,
        "localhost",
        &format!("sslmode=verify-full&sslrootcert={ca}"),
    ))
    .await;
    let (id, _, _) = server.new_game("sygo", 9).await;
    let (status, body) = server.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(status, 200, "{body}");
    assert!(
        connections(&url, true) >= 2,
        "the server's connections (its writer, its listener) are encrypted"
    );
    assert_eq!(
        plain_connections_settle(&url).await,
        0,
        "no connection of the server's is in plain text"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: scripts/test.sh runs it"]
async fn a_certificate_not_for_the_host_or_from_another_authority_is_refused() {
    let (url, ca, other) = setup("tls-refused");
    // Issued for localhost, reached as 127.0.0.1: verify-full refuses it.
    let why = refused(address(
        &url,
        "127.0.0.1",
        &format!("sslmode=verify-full&sslrootcert={ca}"),
    ))
    .await;
    assert!(
        why.contains("cannot connect") && why.contains("not valid for name"),
        "{why}"
    );
    // Signed by another authority than the one trusted.
    let why = refused(address(
        &url,
        "localhost",
        &format!("sslmode=verify-full&sslrootcert={other}"),
    ))
    .await;
    assert!(
        why.contains("not signed by an authority of sslrootcert"),
        "{why}"
    );
    // require with a root certificate checks the chain, as libpq does.
    let why = refused(address(
        &url,
        "localhost",
        &format!("sslmode=require&sslrootcert={other}"),
    ))
    .await;
    assert!(
        why.contains("not signed by an authority of sslrootcert"),
        "{why}"
    );
    // A verify- mode without the authority to trust says what is missing.
    let why = refused(address(&url, "localhost", "sslmode=verify-full")).await;
    assert!(why.contains("needs sslrootcert"), "{why}");
    let why = refused(address(&url, "localhost", "sslmode=sometimes")).await;
    assert!(
        why.contains("sslmode=sometimes is not one of") && why.contains("@localhost:"),
        "{why}"
    );
    // No connection was left behind by the refused servers.
    assert_eq!(connections(&url, true), 0);
    assert_eq!(plain_connections_settle(&url).await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: scripts/test.sh runs it"]
async fn verify_ca_checks_the_authority_not_the_name_and_require_encrypts() {
    let (url, ca, _) = setup("tls-modes");
    // Reached as 127.0.0.1: the name does not match, the authority does.
    let server = TestServer::on(address(
        &url,
        "127.0.0.1",
        &format!("sslmode=verify-ca&sslrootcert={ca}"),
    ))
    .await;
    server.new_game("sygo", 5).await;
    assert!(connections(&url, true) >= 2);
    assert_eq!(plain_connections_settle(&url).await, 0);
    drop(server);
    // require without an authority: encrypted, the server not authenticated.
    let server = TestServer::on(address(&url, "127.0.0.1", "sslmode=require")).await;
    server.new_game("sygo", 5).await;
    assert_eq!(plain_connections_settle(&url).await, 0);
    // disable: plain text, as asked.
    let plain = TestServer::on(address(&url, "127.0.0.1", "sslmode=disable")).await;
    plain.new_game("sygo", 5).await;
    assert!(connections(&url, false) >= 2);
}
