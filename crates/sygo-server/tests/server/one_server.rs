//! One server a SQLite database: the server keeps its games in memory, and
//! a second server on the same file would not hear of the first's turns.
//! It is refused at start with a message that says why, the first goes on
//! as before, and once the first has stopped a server starts on that
//! database again. On PostgreSQL the servers hear of each other's commits,
//! so a second server is welcome (`cluster.rs` tries them harder).

use crate::common;

use common::{TestServer, temp_db};
use sygo_server::{Config, Database, Server};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_the_same_sqlite_database_is_refused() {
    let db = temp_db("one-server");
    let first = TestServer::on(db.clone()).await;
    let (id, _, white) = first.new_game("sygo", 9).await;

    let second = Server::bind(Config::new("127.0.0.1:0".parse().unwrap(), db.clone())).await;
    match (&db, second) {
        (Database::Sqlite(_), Ok(_)) => panic!("a second server started on the same file"),
        (Database::Sqlite(_), Err(e)) => {
            let refused = e.to_string();
            assert!(
                refused.contains("another sygo serve is running on this database"),
                "{refused}"
            );
        }
        (Database::Postgres(_), Err(e)) => panic!("a second server is refused: {e}"),
        (Database::Postgres(_), Ok(second)) => {
            // It serves the first's game.
            assert_eq!(second.game_count(), 1);
        }
    }

    // The first is unharmed: it takes a turn and keeps it across a restart.
    first.play(&id, &white, "E5", 0).await;
    let again = first.restart().await;
    let (status, game) = again.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(game["turns"].as_array().map(Vec::len), Some(1), "{game}");
}
