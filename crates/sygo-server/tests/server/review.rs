//! The AI's review of whole games (`docs/web.md`, review), the record with
//! the review in it, and the place of a search in the AI's queue, through
//! the application called in-process; restarts read the database again.

use crate::common;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::Request;
use common::app::App;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use sygo_records::Record;
use sygo_rules::{Game, Turn};
use sygo_server::Config;
use tower::ServiceExt;

/// Few visits: reviews in tests are fast.
fn fast(config: &mut Config) {
    config.review_visits = Some(20);
}

/// So many visits that a review runs for the whole test.
fn endless(config: &mut Config) {
    config.review_visits = Some(50_000_000);
}

/// One slot for the AI, taken by an endless review.
fn one_slot_endless(config: &mut Config) {
    endless(config);
    config.ai_slots = 1;
}

/// A game of two people on a `size`×`size` board with `turns` random
/// turns: its id and the game as the rules library plays it.
async fn played(app: &App, size: u8, turns: usize) -> (String, Game) {
    let (id, tokens) = app
        .create(json!({"variant": "sygo", "size": size,
                       "black": {"kind": "human"}, "white": {"kind": "human"}}))
        .await;
    for n in 0..turns {
        let game = common::replay(&app.game(&id).await);
        if game.position().is_over() {
            break;
        }
        let color = if game.position().side_to_move() == sygo_rules::Color::Black {
            "black"
        } else {
            "white"
        };
        let turn = common::random_turn(&game, n as u64 + 7);
        let token = tokens[color].as_str().unwrap();
        let (status, answer) = app.play(&id, &turn, n as u64, token).await;
        assert_eq!(status, 200, "{turn}: {answer}");
    }
    let game = common::replay(&app.game(&id).await);
    (id, game)
}

async fn review(app: &App, id: &str) -> Value {
    let (status, review) = app
        .call("GET", &format!("/api/games/{id}/review"), None, None)
        .await;
    assert_eq!(status, 200, "{review}");
    review
}

async fn ask_review(app: &App, id: &str) -> (u16, Value) {
    app.call("POST", &format!("/api/games/{id}/review"), None, None)
        .await
}

/// Waits until the review of `id` is done.
async fn review_done(app: &App, id: &str) -> Value {
    let start = Instant::now();
    loop {
        let review = review(app, id).await;
        if review["status"] == "done" {
            return review;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the review ends within 2 minutes: {}",
            review["status"]
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until `check` holds of the review of `id`.
async fn review_until(app: &App, id: &str, check: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let review = review(app, id).await;
        if check(&review) {
            return review;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "{review}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn text(app: &App, path: &str) -> (u16, String) {
    let request = Request::get(path).body(Body::empty()).unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    let status = response.status().as_u16();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

fn code(answer: &Value) -> &str {
    answer["error"]["code"].as_str().unwrap_or("")
}

/// The game after its first `n` turns.
fn after(game: &Game, n: usize) -> Game {
    let mut earlier = Game::new(game.start().clone());
    for turn in &game.turns()[..n] {
        earlier.play(turn.clone()).unwrap();
    }
    earlier
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_game_is_reviewed_position_by_position() {
    let app = App::open_with(common::temp_db("review-short"), fast).await;
    let (id, game) = played(&app, 5, 6).await;
    assert_eq!(review(&app, &id).await["status"], "none");
    let (status, queued) = ask_review(&app, &id).await;
    assert_eq!(status, 202, "{queued}");
    assert!(
        ["queued", "running"].contains(&queued["status"].as_str().unwrap()),
        "{queued}"
    );
    let done = review_done(&app, &id).await;
    let total = game.turns().len() + 1;
    assert_eq!(done["positions_total"], json!(total));
    assert_eq!(done["positions_done"], json!(total));
    assert_eq!(done["visits_per_position"], json!(20));
    let points = done["points"].as_array().unwrap();
    assert_eq!(points.len(), 25);
    let positions = done["positions"].as_array().unwrap();
    assert_eq!(positions.len(), total, "one entry per position");
    let g = game.position().geometry();
    for (n, p) in positions.iter().enumerate() {
        assert_eq!(p["turn"], json!(n));
        let win = p["win_rate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&win), "{p}");
        assert!(p["score_lead"].as_f64().unwrap().is_finite());
        assert!(p["visits"].as_u64().unwrap() >= 20, "{p}");
        let ownership = p["ownership"].as_array().unwrap();
        assert_eq!(ownership.len(), 25);
        assert!(
            ownership
                .iter()
                .all(|o| (-1.0..=1.0).contains(&o.as_f64().unwrap()))
        );
        // The best turn is legal in its position, by the rules library.
        let best = Turn::parse(p["best"].as_str().unwrap(), &g).unwrap();
        let mut before = after(&game, n);
        before
            .play(best.clone())
            .unwrap_or_else(|e| panic!("turn {n}: the best turn {best:?} is refused: {e}"));
    }
    // Only the positions from a turn on.
    let (status, later) = app
        .call("GET", &format!("/api/games/{id}/review?from=4"), None, None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(later["positions"].as_array().unwrap().len(), total - 4);
    assert_eq!(later["positions"][0]["turn"], json!(4));
    // The record of a game played here, with the review: an SBKV on the
    // root and on every turn.
    let (status, sgf) = text(&app, &format!("/api/games/{id}/record?analysis=1")).await;
    assert_eq!(status, 200);
    let record = Record::parse(&sgf).unwrap_or_else(|e| panic!("{e}\n{sgf}"));
    let sbkv: Vec<f64> = record
        .tree()
        .main_line()
        .map(|node| {
            let p = node.properties.iter().find(|p| p.identifier == "SBKV");
            p.unwrap_or_else(|| panic!("no SBKV: {sgf}")).values[0]
                .parse()
                .unwrap()
        })
        .collect();
    assert_eq!(sbkv.len(), total);
    for (percent, p) in sbkv.iter().zip(positions) {
        assert!((percent - p["win_rate"].as_f64().unwrap() * 100.0).abs() <= 0.0051);
    }
    // Reproducible: the same visits and seed give the same review.
    let again = App::open_with(common::temp_db("review-short-again"), fast).await;
    let record = text(&app, &format!("/api/games/{id}/record")).await.1;
    let (status, uploaded) = again
        .call_raw("POST", "/api/records", &record, "application/x-go-sgf")
        .await;
    assert_eq!(status, 201, "{uploaded}");
    let copy = uploaded["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(ask_review(&again, &copy).await.0, 202);
    let copied = review_done(&again, &copy).await;
    assert_eq!(copied["positions"], done["positions"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_review_waits_behind_the_first_and_none_is_queued_twice() {
    let app = App::open_with(common::temp_db("review-queue"), endless).await;
    let (first, _) = played(&app, 9, 3).await;
    let (second, _) = played(&app, 9, 2).await;
    assert_eq!(ask_review(&app, &first).await.0, 202);
    review_until(&app, &first, |r| r["status"] == "running").await;
    // Asked again while it runs: still the one review.
    let (status, again) = ask_review(&app, &first).await;
    assert_eq!(status, 202, "{again}");
    assert_eq!(again["status"], "running");
    let (status, queued) = ask_review(&app, &second).await;
    assert_eq!(status, 202, "{queued}");
    assert_eq!(queued["status"], "queued");
    assert_eq!(queued["queue_position"], json!(1), "{queued}");
    // Asked twice more: not queued twice.
    assert_eq!(
        ask_review(&app, &second).await.1["queue_position"],
        json!(1)
    );
    assert_eq!(ask_review(&app, &first).await.1["status"], "running");
    let now = review(&app, &second).await;
    assert_eq!(
        (now["status"].as_str(), now["queue_position"].as_u64()),
        (Some("queued"), Some(1))
    );
    app.shutdown.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reviews_survive_a_restart_and_an_unfinished_one_is_taken_up_again() {
    let app = App::open_with(common::temp_db("review-restart"), fast).await;
    let (done_id, _) = played(&app, 5, 4).await;
    ask_review(&app, &done_id).await;
    let done = review_done(&app, &done_id).await;
    // A review that cannot end before the restart.
    let app = app.restart_with(endless).await;
    let read = review(&app, &done_id).await;
    assert_eq!(read["status"], "done");
    assert_eq!(read["positions"], done["positions"], "read back as it was");
    let (pending_id, _) = played(&app, 5, 3).await;
    ask_review(&app, &pending_id).await;
    review_until(&app, &pending_id, |r| r["status"] == "running").await;
    // Stopped by the restart; taken up again after it.
    let app = app.restart_with(fast).await;
    assert_ne!(review(&app, &pending_id).await["status"], "none");
    let taken_up = review_done(&app, &pending_id).await;
    assert_eq!(taken_up["positions_done"], json!(4));
    assert_eq!(review(&app, &done_id).await["positions"], done["positions"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_in_progress_is_reviewed_again_for_its_new_positions_only() {
    let app = App::open_with(common::temp_db("review-more"), fast).await;
    let (id, tokens) = app
        .create(json!({"variant": "sygo", "size": 5,
                       "black": {"kind": "human"}, "white": {"kind": "human"}}))
        .await;
    let white = tokens["white"].as_str().unwrap();
    let black = tokens["black"].as_str().unwrap();
    assert_eq!(app.play(&id, "C3", 0, white).await.0, 200);
    ask_review(&app, &id).await;
    let first = review_done(&app, &id).await;
    assert_eq!(first["positions_done"], json!(2));
    // A finished review asked again: refused, nothing to do.
    let (status, answer) = ask_review(&app, &id).await;
    assert_eq!((status, code(&answer)), (409, "conflict"), "{answer}");
    assert_eq!(app.play(&id, "A1", 1, black).await.0, 200);
    let more = review(&app, &id).await;
    assert_eq!(
        (
            more["status"].as_str(),
            more["positions_done"].as_u64(),
            more["positions_total"].as_u64()
        ),
        (Some("done"), Some(2), Some(3))
    );
    assert_eq!(ask_review(&app, &id).await.0, 202);
    let second = review_done(&app, &id).await;
    assert_eq!(second["positions_done"], json!(3));
    // The earlier positions are the ones already made.
    assert_eq!(second["positions"][0], first["positions"][0]);
    assert_eq!(second["positions"][1], first["positions"][1]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_record_with_the_review_holds_sabakis_win_rate_on_every_reviewed_node() {
    let app = App::open_with(common::temp_db("review-record"), fast).await;
    let example = include_str!("../../../../docs/examples/sygo-9.sgf");
    let (status, uploaded) = app
        .call_raw("POST", "/api/records", example, "application/x-go-sgf")
        .await;
    assert_eq!(status, 201, "{uploaded}");
    let id = uploaded["game"]["id"].as_str().unwrap().to_string();
    ask_review(&app, &id).await;
    let done = review_done(&app, &id).await;
    let (status, text) = text(&app, &format!("/api/games/{id}/record?analysis=1")).await;
    assert_eq!(status, 200, "{text}");
    let record = Record::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let main: Vec<_> = record.tree().main_line().collect();
    // The root and every turn of the main line: all reviewed.
    assert_eq!(
        main.len(),
        done["positions_total"].as_u64().unwrap() as usize
    );
    for (node, position) in main.iter().zip(done["positions"].as_array().unwrap()) {
        let sbkv = node
            .properties
            .iter()
            .find(|p| p.identifier == "SBKV")
            .unwrap_or_else(|| panic!("no SBKV on {node:?}"));
        let percent: f64 = sbkv.values[0].parse().unwrap();
        let win = position["win_rate"].as_f64().unwrap() * 100.0;
        assert!((percent - win).abs() <= 0.005 + 1e-9, "{percent} {win}");
        assert_eq!(sbkv.values[0].split('.').nth(1).map(str::len), Some(2));
        let comment = node.comment.as_deref().unwrap();
        let line = comment.lines().last().unwrap();
        match position["best"].as_str() {
            Some(best) => assert!(
                line.starts_with(&format!("AI: best {best} — Black ")),
                "{line}"
            ),
            None => assert!(line.starts_with("AI: game over — Black "), "{line}"),
        }
    }
    // The uploaded record's own comments and its variation are kept.
    let original = Record::parse(example).unwrap();
    assert_eq!(record.tree().node_count(), original.tree().node_count());
    assert!(
        main[0]
            .comment
            .as_deref()
            .unwrap()
            .starts_with("A short game of Sygo")
    );
    assert_eq!(text.matches("C[A quieter move: D4.]").count(), 1, "{text}");
    assert_eq!(record.main_line().turns(), original.main_line().turns());
    // Without the query: the record as uploaded.
    assert_eq!(text_of(&app, &id).await, example);
}

async fn text_of(app: &App, id: &str) -> String {
    text(app, &format!("/api/games/{id}/record")).await.1
}

/// An application whose one AI slot an endless review holds; the reviewed
/// game's id.
async fn busy_with_a_review(name: &str) -> (App, String) {
    let app = App::open_with(common::temp_db(name), one_slot_endless).await;
    let (id, _) = played(&app, 19, 2).await;
    ask_review(&app, &id).await;
    review_until(&app, &id, |r| r["status"] == "running").await;
    // Its job taken, the review's search holds the one slot a moment later.
    app.metrics_show("sygo_ai_searches_running 1").await;
    (app, id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_turn_comes_before_a_review() {
    let (app, id) = busy_with_a_review("review-priority").await;
    // The one slot is the review's; the AI, to move first, plays all the same.
    let (ai_game, _) = app
        .create(
            json!({"variant": "sygo", "size": 9, "black": {"kind": "human"},
                       "white": {"kind": "ai", "level": 1, "time_ms": 200}}),
        )
        .await;
    let start = Instant::now();
    loop {
        let game = app.game(&ai_game).await;
        if game["turn_number"] == json!(1) {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the AI plays while a review runs: {game}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // And the review goes on.
    review_until(&app, &id, |r| r["status"] == "running").await;
    app.shutdown.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_waiting_for_the_ai_knows_its_place() {
    let (app, id) = busy_with_a_review("review-ticket").await;
    let router = app.router.clone();
    let path = format!("/api/games/{id}/analysis");
    let waiting = tokio::spawn(async move {
        let request = Request::post(path)
            .header("content-type", "application/json")
            .body(Body::from(
                json!({"time_ms": 100, "ticket": "page-ticket-1"}).to_string(),
            ))
            .unwrap();
        router.oneshot(request).await.unwrap().status().as_u16()
    });
    let start = Instant::now();
    let place = loop {
        let (status, place) = app
            .call("GET", "/api/searches/page-ticket-1", None, None)
            .await;
        if status == 200 {
            break place;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "{place}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    assert_eq!(place, json!({"state": "waiting", "ahead": 1}));
    let (status, answer) = app
        .call("GET", "/api/searches/nobody-has-this", None, None)
        .await;
    assert_eq!((status, code(&answer)), (404, "not_found"), "{answer}");
    let (status, answer) = app
        .call(
            "POST",
            &format!("/api/games/{id}/analysis"),
            Some(json!({"ticket": "a b"})),
            None,
        )
        .await;
    assert_eq!((status, code(&answer)), (400, "bad_request"), "{answer}");
    app.shutdown.stop();
    // The waiting analysis ends (the server shuts down), never hangs.
    let status = tokio::time::timeout(Duration::from_secs(20), waiting)
        .await
        .expect("the analysis ends")
        .unwrap();
    assert_eq!(status, 503);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn review_errors_are_the_apis_json_errors() {
    let app = App::open_with(common::temp_db("review-errors"), fast).await;
    let (id, _) = played(&app, 5, 2).await;
    let checks = [
        (
            "GET",
            "/api/games/00000000/review".to_string(),
            404,
            "not_found",
        ),
        (
            "POST",
            "/api/games/00000000/review".to_string(),
            404,
            "not_found",
        ),
        (
            "POST",
            "/api/games/nonsense/review".to_string(),
            404,
            "not_found",
        ),
        (
            "DELETE",
            format!("/api/games/{id}/review"),
            405,
            "method_not_allowed",
        ),
        (
            "PUT",
            format!("/api/games/{id}/review"),
            405,
            "method_not_allowed",
        ),
        (
            "GET",
            format!("/api/games/{id}/review?from=-1"),
            400,
            "bad_request",
        ),
        (
            "GET",
            format!("/api/games/{id}/review?from=x"),
            400,
            "bad_request",
        ),
        (
            "GET",
            format!("/api/games/{id}/record?analysis=2"),
            400,
            "bad_request",
        ),
        (
            "GET",
            "/api/games/00000000/record?analysis=1".to_string(),
            404,
            "not_found",
        ),
    ];
    for (method, path, status, expected) in checks {
        let (got, answer) = app.call(method, &path, None, None).await;
        assert_eq!(
            (got, code(&answer)),
            (status, expected),
            "{method} {path}: {answer}"
        );
    }
    // Before any review, the record with analysis is the plain record.
    let (status, text) = text(&app, &format!("/api/games/{id}/record?analysis=1")).await;
    assert_eq!(status, 200);
    assert!(!text.contains("SBKV"), "{text}");
}
