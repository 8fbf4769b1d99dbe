//! Resigning at any time and taking turns back (`docs/web.md`: `/resign`,
//! `/undo`), through the application called in-process
//! (`sygo_server::app` with `tower::ServiceExt::oneshot`), and the database
//! read again by a fresh application on the same file (a restart).

use crate::common;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::Request;
use common::app::App;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

fn two_people() -> Value {
    json!({"variant": "sygo", "size": 9, "black": {"kind": "human"}, "white": {"kind": "human"}})
}

fn code(answer: &Value) -> &str {
    answer["error"]["code"].as_str().unwrap_or("")
}

/// The parts of a game that must agree between memory and the database.
fn essentials(game: &Value) -> Value {
    json!([
        game["turn_number"],
        game["stones"],
        game["status"],
        game["result"],
        game["to_move"],
        game["turns"],
        game["undos"]
    ])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_resigns_while_the_opponent_is_to_move() {
    let app = App::new("resign-out-of-turn").await;
    let (id, tokens) = app.create(two_people()).await;
    let (black, white) = (
        tokens["black"].as_str().unwrap(),
        tokens["white"].as_str().unwrap(),
    );
    assert_eq!(app.play(&id, "E5", 0, white).await.0, 200);
    assert_eq!(app.play(&id, "C3", 1, black).await.0, 200);
    // White to move; Black resigns all the same.
    let resign = format!("/api/games/{id}/resign");
    let (status, game) = app.call("POST", &resign, None, Some(black)).await;
    assert_eq!(status, 200, "{game}");
    assert_eq!(
        (game["status"].as_str(), game["result"].as_str()),
        (Some("over"), Some("W+R"))
    );
    assert_eq!(
        game["turns"][2],
        json!({"number": 3, "color": "black", "turn": "resign", "kind": "resignation",
               "description": "Black resigned."})
    );
    // Nothing more: a second resignation, a turn, a spectator.
    let (status, answer) = app.call("POST", &resign, None, Some(white)).await;
    assert_eq!((status, code(&answer)), (409, "conflict"), "{answer}");
    let (status, answer) = app.play(&id, "D4", 3, white).await;
    assert_eq!((status, code(&answer)), (409, "conflict"), "{answer}");
    let (status, answer) = app.call("POST", &resign, None, None).await;
    assert_eq!((status, code(&answer)), (401, "unauthorized"), "{answer}");
    let before = app.game(&id).await;
    let app = app.restart().await;
    assert_eq!(essentials(&app.game(&id).await), essentials(&before));
    // The record says who resigned.
    let request = Request::get(format!("/api/games/{id}/record"))
        .body(Body::empty())
        .unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let record = String::from_utf8_lossy(&bytes);
    assert!(record.contains("RE[W+R]"), "{record}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_resigns_while_the_ai_thinks() {
    let app = App::new("resign-ai-thinking").await;
    let (id, tokens) = app
        .create(
            json!({"variant": "sygo", "size": 19, "black": {"kind": "human"},
                       "white": {"kind": "ai", "level": 6, "time_ms": 60000}}),
        )
        .await;
    // The AI's longest think: the resignation comes while it thinks.
    let black = tokens["black"].as_str().unwrap();
    assert_eq!(app.game(&id).await["ai_thinking"], json!(true));
    let started = Instant::now();
    let (status, game) = app
        .call(
            "POST",
            &format!("/api/games/{id}/resign"),
            None,
            Some(black),
        )
        .await;
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["result"], json!("W+R"));
    assert_eq!(game["ai_thinking"], json!(false));
    // The resignation is the game's only turn, and the AI's turn never
    // comes: its search ends (long before its minute).
    app.metrics_show("sygo_ai_searches_running 0").await;
    let game = app.game(&id).await;
    assert_eq!(game["turn_number"], json!(1), "{game}");
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_page_playing_both_sides_takes_back_the_last_turn() {
    let app = App::new("undo-hot-seat").await;
    let (id, tokens) = app.create(two_people()).await;
    let (black, white) = (
        tokens["black"].as_str().unwrap(),
        tokens["white"].as_str().unwrap(),
    );
    app.play(&id, "E5", 0, white).await;
    app.play(&id, "C3", 1, black).await;
    let undo = format!("/api/games/{id}/undo");
    // Online (one side's token only): not offered, nothing changes.
    let (status, answer) = app
        .call("POST", &undo, Some(json!({"turn_number": 2})), Some(black))
        .await;
    assert_eq!((status, code(&answer)), (403, "not_offered"), "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not offered")
    );
    // A wrong other token, a stale page: refused, nothing changes.
    let (status, answer) = app
        .call(
            "POST",
            &undo,
            Some(json!({"turn_number": 2, "other_token": black})),
            Some(black),
        )
        .await;
    assert_eq!((status, code(&answer)), (401, "unauthorized"), "{answer}");
    let (status, answer) = app
        .call(
            "POST",
            &undo,
            Some(json!({"turn_number": 1, "other_token": white})),
            Some(black),
        )
        .await;
    assert_eq!((status, code(&answer)), (409, "conflict"), "{answer}");
    assert_eq!(app.game(&id).await["turn_number"], json!(2));
    // Both tokens: Black's C3 is taken back.
    let (status, game) = app
        .call(
            "POST",
            &undo,
            Some(json!({"turn_number": 2, "other_token": white})),
            Some(black),
        )
        .await;
    assert_eq!(status, 200, "{game}");
    assert_eq!(
        (game["turn_number"].as_u64(), game["undos"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(game["stones"], json!({"E5": "white"}));
    assert_eq!(game["to_move"], json!("black"));
    // Black plays again (turn 2 stored anew), and it all survives a restart.
    assert_eq!(app.play(&id, "D4", 1, black).await.0, 200);
    let before = app.game(&id).await;
    let app = app.restart().await;
    let after = app.game(&id).await;
    assert_eq!(essentials(&after), essentials(&before));
    assert_eq!(after["stones"], json!({"E5": "white", "D4": "black"}));
    // Back to the start, then nothing left to take back.
    for n in [2, 1] {
        let (status, game) = app
            .call(
                "POST",
                &undo,
                Some(json!({"turn_number": n, "other_token": black})),
                Some(white),
            )
            .await;
        assert_eq!(status, 200, "{game}");
    }
    let (status, answer) = app
        .call(
            "POST",
            &undo,
            Some(json!({"turn_number": 0, "other_token": black})),
            Some(white),
        )
        .await;
    assert_eq!((status, code(&answer)), (409, "conflict"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn against_the_ai_undo_takes_back_the_players_turn_and_the_answer() {
    let app = App::new("undo-ai").await;
    let (id, tokens) = app
        .create(
            json!({"variant": "hexsygo", "size": 4, "black": {"kind": "human"},
                       "white": {"kind": "ai", "level": 1, "time_ms": 100}}),
        )
        .await;
    let black = tokens["black"].as_str().unwrap();
    let undo = format!("/api/games/{id}/undo");
    let game = app.ai_done(&id).await;
    assert_eq!(game["turn_number"], json!(1));
    // Only the AI's turn so far: nothing of Black's to take back.
    let (status, answer) = app
        .call("POST", &undo, Some(json!({"turn_number": 1})), Some(black))
        .await;
    assert_eq!((status, code(&answer)), (409, "conflict"), "{answer}");
    let vacant = ["A1", "G7", "D4", "A4"]
        .into_iter()
        .find(|p| game["stones"].get(*p).is_none())
        .unwrap();
    assert_eq!(app.play(&id, vacant, 1, black).await.0, 200);
    let game = app.ai_done(&id).await;
    assert_eq!(game["turn_number"], json!(3), "{game}");
    let (status, game) = app
        .call("POST", &undo, Some(json!({"turn_number": 3})), Some(black))
        .await;
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["turn_number"], json!(1));
    assert_eq!(game["to_move"], json!("black"));
    assert!(game["stones"].get(vacant).is_none());
    let before = app.game(&id).await;
    let app = app.restart().await;
    assert_eq!(essentials(&app.game(&id).await), essentials(&before));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_the_ai_thinks_undo_takes_back_the_players_turn_and_drops_the_search() {
    let app = App::new("undo-ai-thinking").await;
    // The person is White (moves first); the AI at level 6 always takes
    // its time, here the longest (a minute): the undo comes while it
    // thinks.
    let (id, tokens) = app
        .create(
            json!({"variant": "hexsygo", "size": 4, "white": {"kind": "human"},
                       "black": {"kind": "ai", "level": 6, "time_ms": 60000}}),
        )
        .await;
    let white = tokens["white"].as_str().unwrap();
    assert_eq!(app.play(&id, "D4", 0, white).await.0, 200);
    assert_eq!(app.game(&id).await["ai_thinking"], json!(true));
    let (status, game) = app
        .call(
            "POST",
            &format!("/api/games/{id}/undo"),
            Some(json!({"turn_number": 1})),
            Some(white),
        )
        .await;
    assert_eq!(status, 200, "{game}");
    assert_eq!(
        (game["turn_number"].as_u64(), game["ai_thinking"].as_bool()),
        (Some(0), Some(false))
    );
    assert_eq!(game["to_move"], json!("white"));
    // The search is dropped (it would think for a minute).
    app.metrics_show("sygo_ai_searches_running 0").await;
    let before = app.game(&id).await;
    assert_eq!(
        before["turn_number"],
        json!(0),
        "the dropped search played nothing: {before}"
    );
    let app = app.restart().await;
    assert_eq!(essentials(&app.game(&id).await), essentials(&before));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_updates_carry_the_game_after_an_undo() {
    let app = App::new("undo-events").await;
    let (id, tokens) = app.create(two_people()).await;
    let (black, white) = (
        tokens["black"].as_str().unwrap(),
        tokens["white"].as_str().unwrap(),
    );
    app.play(&id, "E5", 0, white).await;
    let request = Request::get(format!("/api/games/{id}/events"))
        .body(Body::empty())
        .unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let mut body = response.into_body();
    let (status, _) = app
        .call(
            "POST",
            &format!("/api/games/{id}/undo"),
            Some(json!({"turn_number": 1, "other_token": black})),
            Some(white),
        )
        .await;
    assert_eq!(status, 200);
    let mut seen = String::new();
    let found = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(Ok(frame)) = body.frame().await {
            if let Some(data) = frame.data_ref() {
                seen.push_str(&String::from_utf8_lossy(data));
                if seen.contains("\"undos\":1") {
                    return true;
                }
            }
        }
        false
    })
    .await;
    assert_eq!(found, Ok(true), "the event after the undo: {seen}");
    let last = seen.rsplit("data: ").next().unwrap();
    let game: Value = serde_json::from_str(last.lines().next().unwrap()).unwrap();
    assert_eq!(
        (game["turn_number"].as_u64(), game["undos"].as_u64()),
        (Some(0), Some(1))
    );
}
