//! One server a database: the server keeps its games in memory, so a second
//! server on the same database (SQLite file or PostgreSQL database) would
//! not see the first's turns. It is refused at start with a message that
//! says why, the first goes on as before, and once the first has stopped
//! a server starts on that database again.

mod common;

use common::{TestServer, temp_db};
use sygo_server::{Config, Server};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_the_same_database_is_refused() {
    let db = temp_db("one-server");
    let first = TestServer::on(db.clone()).await;
    let (id, _, white) = first.new_game("sygo", 9).await;

    let second = Server::bind(Config::new("127.0.0.1:0".parse().unwrap(), db.clone())).await;
    let refused = match second {
        Ok(_) => panic!("a second server started on the same database"),
        Err(e) => e.to_string(),
    };
    assert!(
        refused.contains("another sygo serve is running on this database"),
        "{refused}"
    );

    // The first is unharmed: it takes a turn and keeps it across a restart.
    first.play(&id, &white, "E5", 0).await;
    let again = first.restart().await;
    let (status, game) = again.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(game["turns"].as_array().map(Vec::len), Some(1), "{game}");
}
