//! Clocks over the socket (`docs/web.md`, "Clocks"): a live game lost on
//! time at its deadline, declared by the server within about a second and
//! kept across a restart; deadlines kept to the millisecond across a
//! restart; the increment and the correspondence bank; the AI keeping to
//! its clock; controls out of range refused; no undo with a clock.

use crate::common;

use std::time::Duration;

use common::{Events, TestServer, code, message};
use serde_json::{Value, json};

/// A game where White (who moves first) is a person, Black `black`.
async fn game_with(s: &TestServer, black: Value, clock: Value) -> (String, Value) {
    let (status, body) = s
        .post(
            "/api/games",
            &json!({"variant": "sygo", "size": 5, "white": {"kind": "human"},
                    "black": black, "clock": clock}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{body}");
    (body["game"]["id"].as_str().unwrap().to_string(), body)
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_runs_out_of_time_loses_at_the_deadline() {
    let s = TestServer::start("clock-timeout").await;
    let clock = json!({"kind": "byoyomi", "main_ms": 0, "periods": 1, "period_ms": 5000});
    let (id, body) = game_with(&s, json!({"kind": "human"}), clock.clone()).await;
    let black = body["tokens"]["black"].as_str().unwrap().to_string();
    let white = body["tokens"]["white"].as_str().unwrap().to_string();
    assert_eq!(body["game"]["clock"]["control"], clock);
    assert_eq!(body["game"]["clock"]["running"], "white");
    let game = s.play(&id, &white, "C3", 0).await;
    let c = &game["clock"];
    assert_eq!(c["running"], "black");
    assert_eq!(
        c["white"],
        json!({"left_ms": 0, "periods": 1, "on_vacation": false,
               "vacation_until": null, "vacation_until_ms": null}),
        "the period is kept"
    );
    // Five seconds from the turn, less what the answer took to come.
    let deadline = c["deadline_ms"].as_i64().unwrap();
    let lead = deadline - now_ms();
    assert!(
        (0..=5_100).contains(&lead),
        "Black has five seconds: {lead}"
    );

    // Nobody moves: the server ends the game on time by itself (no request
    // comes), within a second or so of the deadline (its watcher looks
    // every second; a loaded machine may add some).
    let mut events = Events::open(&s, &id).await;
    let over = events
        .until(Duration::from_secs(30), |g| g["status"] == "over")
        .await;
    let late = now_ms() - deadline;
    assert!(
        (0..5_000).contains(&late),
        "declared {late} ms after the deadline"
    );
    assert_eq!(over["result"], "W+T");
    assert_eq!(over["last_turn"]["kind"], "timeout");
    assert_eq!(over["last_turn"]["description"], "Black ran out of time.");
    assert_eq!(over["clock"]["running"], Value::Null);

    // A turn after it is refused, and nothing changes.
    let (status, answer) = s
        .post(
            &format!("/api/games/{id}/turns"),
            &json!({"turn": "D4", "turn_number": 1}),
            Some(&black),
        )
        .await;
    assert_eq!((status, code(&answer)), (409, "conflict"));

    // The result is kept across a restart.
    let s = s.restart().await;
    let (_, game) = s.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(game["result"], "W+T");
    assert_eq!(game["turns"][1]["kind"], "timeout");
    let (_, record) = s.get(&format!("/api/games/{id}/record")).await;
    assert!(record.contains("RE[W+T]"), "{record}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deadlines_and_banks_are_kept_across_a_restart() {
    let s = TestServer::start("clock-restart").await;
    let fischer = json!({"kind": "fischer", "main_ms": 600000, "increment_ms": 20000});
    let (id, body) = game_with(&s, json!({"kind": "human"}), fischer).await;
    let black = body["tokens"]["black"].as_str().unwrap().to_string();
    let white = body["tokens"]["white"].as_str().unwrap().to_string();
    let created = now_ms();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let game = s.play(&id, &white, "C3", 0).await;
    // 600 s less at least 0.3 s, plus 20 s.
    let left = game["clock"]["white"]["left_ms"].as_i64().unwrap();
    assert!((600_000..=619_700).contains(&left), "{left}");
    assert_eq!(game["clock"]["black"]["left_ms"], 600_000);

    let corr = json!({"kind": "correspondence", "days_per_turn": 3, "bank_days": 5});
    let (cid, cbody) = game_with(&s, json!({"kind": "human"}), corr).await;
    let cwhite = cbody["tokens"]["white"].as_str().unwrap().to_string();
    let cgame = s.play(&cid, &cwhite, "B2", 0).await;
    assert_eq!(
        cgame["clock"]["white"]["left_ms"],
        5 * 86_400_000_i64,
        "capped at 5 days"
    );
    let before = [
        s.get_json(&format!("/api/games/{id}")).await.1["clock"].clone(),
        s.get_json(&format!("/api/games/{cid}")).await.1["clock"].clone(),
    ];
    let s = s.restart().await;
    for (i, game_id) in [&id, &cid].into_iter().enumerate() {
        let (_, after) = s.get_json(&format!("/api/games/{game_id}")).await;
        for field in ["deadline_ms", "black", "white", "running", "control"] {
            assert_eq!(
                after["clock"][field], before[i][field],
                "{field} of {game_id}"
            );
        }
    }
    assert!(before[0]["deadline_ms"].as_i64().unwrap() > created + 600_000);
    // Black plays after the restart: its time counted from White's turn.
    let game = s.play(&id, &black, "D4", 1).await;
    let left = game["clock"]["black"]["left_ms"].as_i64().unwrap();
    assert!((600_000..620_000).contains(&left), "{left}");
    // No undo in a game with a clock.
    let (status, answer) = s
        .post(
            &format!("/api/games/{id}/undo"),
            &json!({"turn_number": 2}),
            Some(&black),
        )
        .await;
    assert_eq!((status, code(&answer)), (403, "not_offered"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ai_keeps_to_its_clock() {
    let s = TestServer::start("clock-ai").await;
    let clock = json!({"kind": "fischer", "main_ms": 10000, "increment_ms": 0});
    let (id, body) = game_with(
        &s,
        json!({"kind": "ai", "level": 1, "time_ms": 5000}),
        clock,
    )
    .await;
    let white = body["tokens"]["white"].as_str().unwrap().to_string();
    s.play(&id, &white, "C3", 0).await;
    let mut events = Events::open(&s, &id).await;
    let game = events
        .until(Duration::from_secs(30), |g| g["turn_number"] == 2)
        .await;
    // Ten seconds shared over at least ten turns: about one, well under
    // its 5 s a turn (room left for a loaded machine).
    let left = game["clock"]["black"]["left_ms"].as_i64().unwrap();
    assert!(
        (7_000..10_000).contains(&left),
        "the AI used {} ms",
        10_000 - left
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn controls_out_of_range_are_refused() {
    let s = TestServer::start("clock-bad").await;
    for (clock, words) in [
        (
            json!({"kind": "fischer", "main_ms": 1000, "increment_ms": 0}),
            "main time",
        ),
        (
            json!({"kind": "byoyomi", "main_ms": 0, "periods": 0, "period_ms": 30000}),
            "periods",
        ),
        (
            json!({"kind": "byoyomi", "main_ms": 0, "periods": 5, "period_ms": 10}),
            "period",
        ),
        (
            json!({"kind": "correspondence", "days_per_turn": 4, "bank_days": 8}),
            "days per turn",
        ),
        (
            json!({"kind": "correspondence", "days_per_turn": 3, "bank_days": 90}),
            "bank",
        ),
        (json!({"kind": "hourglass"}), "not what this path takes"),
        (
            json!({"kind": "fischer", "main_ms": -5, "increment_ms": 0}),
            "not what this path takes",
        ),
    ] {
        let (status, body) = s
            .post(
                "/api/games",
                &json!({"variant": "sygo", "size": 5, "black": {"kind": "human"},
                        "white": {"kind": "human"}, "clock": clock}),
                None,
            )
            .await;
        assert_eq!(status, 400, "{clock}: {body}");
        assert!(message(&body).contains(words), "{clock}: {body}");
    }
    let (_, list) = s.get_json("/api/games").await;
    assert_eq!(list["games"], json!([]));
}
