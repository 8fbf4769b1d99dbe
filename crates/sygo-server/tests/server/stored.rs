//! A database with a game this version cannot read (another program wrote
//! it, or a newer version): at start that game is skipped, with a message
//! naming it, and every other game is served as it was.

use crate::common;

use common::app::App;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_game_that_cannot_be_read_is_skipped_and_the_others_are_served() {
    let app = App::new("stored-unreadable").await;
    let game = json!({"variant": "sygo", "size": 9, "black": {"kind": "human"}, "white": {"kind": "human"}});
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (status, created) = app
            .call("POST", "/api/games", Some(game.clone()), None)
            .await;
        assert_eq!(status, 201, "{created}");
        ids.push(created["game"]["id"].as_str().unwrap().to_string());
    }
    let (status, before) = app
        .call("GET", &format!("/api/games/{}", ids[2]), None, None)
        .await;
    assert_eq!(status, 200);
    app.stop();
    let db = app.db.clone();
    drop(app);

    // One game gets a variant no version knows, another a board size off
    // the rules.
    common::execute_sql(
        &db,
        &format!(
            "UPDATE games SET variant = 'octosygo' WHERE id = '{}'; \
             UPDATE games SET size = 99 WHERE id = '{}'",
            ids[0], ids[1]
        ),
    );

    let app = App::open(db).await;
    for id in &ids[..2] {
        let (status, answer) = app
            .call("GET", &format!("/api/games/{id}"), None, None)
            .await;
        assert_eq!(status, 404, "{answer}");
    }
    let (status, after) = app
        .call("GET", &format!("/api/games/{}", ids[2]), None, None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(after, before);
    let (_, list) = app.call("GET", "/api/games", None, None).await;
    let listed: Vec<&str> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, vec![ids[2].as_str()]);
}

#[test]
fn the_reason_names_the_game_and_what_is_wrong() {
    use sygo_server::{StoredGameError, StoredGameProblem};
    let e = StoredGameError {
        game: "ab12".to_string(),
        problem: StoredGameProblem::Variant("octosygo".to_string()),
    };
    assert_eq!(e.to_string(), "game ab12: unknown variant \"octosygo\"");
    let board = sygo_rules::Geometry::sygo(99).unwrap_err();
    let e = StoredGameError {
        game: "cd34".to_string(),
        problem: StoredGameProblem::Board(board),
    };
    assert!(
        e.to_string()
            .starts_with("game cd34: sygo cannot be played at size 99"),
        "{e}"
    );
}
