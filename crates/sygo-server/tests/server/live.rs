//! Live updates as small events (`docs/web.md`, `GET /api/games/{id}/events`):
//! the stream opens with the whole game, and each change after it comes as
//! the little that changed. Applied to the first game as a page applies
//! them (`common::apply_event`, strictly: an event that does not follow on
//! is an error), they give exactly the game that `GET /api/games/{id}`
//! gives after every action: turns (placements, growth, a capture that
//! reverses stones, Black's balance turn), turns taken back, undo requests,
//! chat, presence, a resignation, a rematch, the AI's turns, a conditional
//! turn fired, an abort and a loss on time.

use crate::common;

use std::time::Duration;

use common::{Events, TestServer, apply_event, random_turn, replay};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(30);

/// A game's JSON without what differs from one reading to the next while
/// nothing changes (the server's time in the clock).
fn steady(game: &Value) -> Value {
    let mut game = game.clone();
    if let Some(clock) = game.get_mut("clock").and_then(Value::as_object_mut) {
        clock.remove("now_ms");
    }
    game
}

/// The first field in which two games differ, for a failure's message.
fn difference(a: &Value, b: &Value) -> String {
    match (a.as_object(), b.as_object()) {
        (Some(a), Some(b)) => {
            for (key, value) in a {
                if b.get(key) != Some(value) {
                    return format!("{key}: from the events {value}, fetched {:?}", b.get(key));
                }
            }
            for key in b.keys() {
                if !a.contains_key(key) {
                    return format!("{key}: missing from the events");
                }
            }
            "none".to_string()
        }
        _ => format!("{a} / {b}"),
    }
}

/// Reads the stream until the game made of its events is the game as
/// fetched now (`what` names the action, for a failure); the events read.
async fn agrees(s: &TestServer, events: &mut Events, id: &str, what: &str) -> Vec<String> {
    let (status, fetched) = s.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(status, 200);
    let want = steady(&fetched);
    let deadline = tokio::time::Instant::now() + WAIT;
    let mut seen = Vec::new();
    loop {
        if events.game.as_ref().map(steady).as_ref() == Some(&want) {
            return seen;
        }
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let Some((event, _, _)) = events.try_next(left).await else {
            let got = events.game.clone().unwrap_or(Value::Null);
            panic!(
                "{what}: the events ({seen:?}) do not make the game fetched; first difference: {}",
                difference(&steady(&got), &want)
            );
        };
        seen.push(event);
    }
}

/// POST with a token: status and body.
async fn post(s: &TestServer, path: &str, body: Value, token: &str) -> (u16, Value) {
    s.post(path, &body, Some(token)).await
}

/// Two people's game: turns of each kind, a capture, undo of both kinds,
/// chat, presence, a resignation and a rematch, each applied from small
/// events; the whole game only after turns were taken back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn small_events_applied_give_the_game_after_every_action() {
    let s = TestServer::start("live-small").await;
    let (id, black, white) = s.new_game("sygo", 9).await;
    let token = |c: &str| if c == "black" { &black } else { &white };
    let mut events = Events::open(&s, &id).await;
    let (event, event_id, _) = events.next(WAIT).await;
    assert_eq!((event.as_str(), event_id.as_str()), ("game", "0"));

    // White A3, Black G3, White C1, Black's balance turn (G4 grown, A1
    // placed), then White's growth A2,B1 reversing A1.
    let opening = [
        ("white", "A3", "placement"),
        ("black", "G3", "placement"),
        ("white", "C1", "placement"),
        ("black", "G4,A1", "balance"),
        ("white", "A2,B1", "growth"),
    ];
    for (n, (color, turn, kind)) in opening.iter().enumerate() {
        s.play(&id, token(color), turn, n).await;
        let seen = agrees(&s, &mut events, &id, turn).await;
        assert_eq!(seen, ["turn"], "{turn}: one small event");
        let game = events.game.as_ref().unwrap();
        assert_eq!(game["last_turn"]["kind"], *kind, "{turn}");
    }
    let game = events.game.clone().unwrap();
    assert_eq!(game["last_turn"]["reversed"], json!(["A1"]));
    assert_eq!(game["stones"]["A1"], "white", "reversed by the event");

    // Taken back on a page playing both sides: the whole game.
    let (status, answer) = post(
        &s,
        &format!("/api/games/{id}/undo"),
        json!({"turn_number": 5, "other_token": black}),
        &white,
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    let seen = agrees(&s, &mut events, &id, "undo").await;
    assert_eq!(seen, ["game"], "turns taken back: the whole game");
    assert_eq!(events.game.as_ref().unwrap()["stones"]["A1"], "black");
    s.play(&id, &white, "A2,B1", 4).await;
    agrees(&s, &mut events, &id, "A2,B1 again").await;

    // Black asks to take back; White declines (a change), then accepts
    // the next request (the whole game).
    s.play(&id, &black, "E5", 5).await;
    agrees(&s, &mut events, &id, "E5").await;
    let request = format!("/api/games/{id}/undo-request");
    let answer = format!("/api/games/{id}/undo-answer");
    assert_eq!(
        post(&s, &request, json!({"turn_number": 6}), &black)
            .await
            .0,
        200
    );
    assert_eq!(
        agrees(&s, &mut events, &id, "undo request").await,
        ["change"]
    );
    assert_eq!(
        events.game.as_ref().unwrap()["undo_request"],
        json!({"by": "black", "turn_number": 6})
    );
    assert_eq!(
        post(&s, &answer, json!({"accept": false}), &white).await.0,
        200
    );
    assert_eq!(agrees(&s, &mut events, &id, "declined").await, ["change"]);
    let (status, refused) = post(&s, &request, json!({"turn_number": 6}), &black).await;
    assert_eq!(status, 409, "declined once: {refused}");
    s.play(&id, &white, "J9", 6).await;
    s.play(&id, &black, "E6", 7).await;
    agrees(&s, &mut events, &id, "J9 and E6").await;
    assert_eq!(
        post(&s, &request, json!({"turn_number": 8}), &black)
            .await
            .0,
        200
    );
    agrees(&s, &mut events, &id, "asked again").await;
    assert_eq!(
        post(&s, &answer, json!({"accept": true}), &white).await.0,
        200
    );
    assert_eq!(agrees(&s, &mut events, &id, "accepted").await, ["game"]);

    // Chat and presence.
    let chat = format!("/api/games/{id}/chat");
    for (side, text) in [(&white, "hello\nthere \"friend\" <b>"), (&black, "hi")] {
        assert_eq!(post(&s, &chat, json!({"text": text}), side).await.0, 200);
        assert_eq!(agrees(&s, &mut events, &id, "chat").await, ["chat"]);
    }
    let presence = format!("/api/games/{id}/presence");
    assert_eq!(
        post(&s, &presence, json!({"present": true}), &white)
            .await
            .0,
        204
    );
    assert_eq!(agrees(&s, &mut events, &id, "presence").await, ["change"]);

    // Random turns for a while (or to the end): captures, and territory
    // of both sides (with these seeds).
    let mut owners = std::collections::BTreeSet::new();
    let mut reversals = 0;
    for seed in 0..120u64 {
        let game = events.game.clone().unwrap();
        if game["status"] != "playing" {
            break;
        }
        let n = game["turn_number"].as_u64().unwrap() as usize;
        let turn = random_turn(&replay(&game), 3000 + seed);
        let mover = game["to_move"].as_str().unwrap().to_string();
        s.play(&id, token(&mover), &turn, n).await;
        agrees(&s, &mut events, &id, &turn).await;
        let game = events.game.as_ref().unwrap();
        for owner in game["score"]["territory"].as_object().unwrap().values() {
            owners.insert(owner.as_str().unwrap().to_string());
        }
        if game["last_turn"]["reversed"]
            .as_array()
            .is_some_and(|r| !r.is_empty())
        {
            reversals += 1;
        }
    }
    assert_eq!(owners.len(), 2, "territory of both sides: {owners:?}");
    assert!(reversals > 1, "captures: {reversals}");

    // A resignation (unless two passes ended it), then a rematch offered
    // and accepted.
    if events.game.as_ref().unwrap()["status"] == "playing" {
        let resign = format!("/api/games/{id}/resign");
        assert_eq!(post(&s, &resign, json!({}), &black).await.0, 200);
        assert_eq!(agrees(&s, &mut events, &id, "resign").await, ["turn"]);
        assert_eq!(events.game.as_ref().unwrap()["result"], "W+R");
    }
    let rematch = format!("/api/games/{id}/rematch");
    assert_eq!(post(&s, &rematch, json!({}), &white).await.0, 200);
    assert_eq!(
        agrees(&s, &mut events, &id, "rematch offered").await,
        ["change"]
    );
    assert_eq!(post(&s, &rematch, json!({}), &black).await.0, 201);
    assert_eq!(
        agrees(&s, &mut events, &id, "rematch started").await,
        ["change"]
    );
    assert!(events.game.as_ref().unwrap()["rematch"]["game"].is_string());

    // A second watcher opening now starts from the game as it is.
    let mut late = Events::open(&s, &id).await;
    let (event, _, game) = late.next(WAIT).await;
    assert_eq!(event, "game");
    assert_eq!(steady(&game), steady(events.game.as_ref().unwrap()));
    s.stop().await;
}

/// On a big board the event of a turn is a small fraction of the game,
/// and it is the same bytes for every watcher.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_on_a_big_board_is_a_small_event() {
    let s = TestServer::start("live-big").await;
    let (id, black, white) = s.new_game("sygo", 19).await;
    for n in 0..60usize {
        let game = s.get_json(&format!("/api/games/{id}")).await.1;
        let turn = random_turn(&replay(&game), n as u64);
        let mover = if game["to_move"] == "black" {
            &black
        } else {
            &white
        };
        s.play(&id, mover, &turn, n).await;
    }
    let mut one = Events::open(&s, &id).await;
    let mut two = Events::open(&s, &id).await;
    let (_, _, first) = one.next_raw(WAIT).await;
    two.next_raw(WAIT).await;
    let whole = first.to_string().len();
    let game = s.get_json(&format!("/api/games/{id}")).await.1;
    let turn = random_turn(&replay(&game), 99);
    let mover = if game["to_move"] == "black" {
        &black
    } else {
        &white
    };
    s.play(&id, mover, &turn, 60).await;
    let (event, _, a) = one.next_raw(WAIT).await;
    let (_, _, b) = two.next_raw(WAIT).await;
    assert_eq!(event, "turn");
    assert_eq!(a, b);
    let small = a.to_string().len();
    assert!(
        small * 10 < whole,
        "a turn's event of {small} bytes against a game of {whole}"
    );
    assert_eq!(a["board"].as_str().unwrap().len(), 361);
    let mut applied = first.clone();
    apply_event(&mut applied, "turn", &a).unwrap();
    let fetched = s.get_json(&format!("/api/games/{id}")).await.1;
    assert_eq!(steady(&applied), steady(&fetched));
    s.stop().await;
}

/// The AI's turns, a conditional turn fired, an abort, and a loss on time
/// under a clock.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ai_conditional_turns_an_abort_and_a_timeout_as_small_events() {
    let s = TestServer::start("live-more").await;

    // Against the AI: its thinking and its turns.
    let (status, created) = s
        .post(
            "/api/games",
            &json!({"variant": "hexsygo", "size": 4, "black": {"kind": "human"},
                    "white": {"kind": "ai", "level": 1, "time_ms": 100}}),
            None,
        )
        .await;
    assert_eq!(status, 201);
    let ai_game = created["game"]["id"].as_str().unwrap().to_string();
    let human = created["tokens"]["black"].as_str().unwrap().to_string();
    let mut events = Events::open(&s, &ai_game).await;
    events
        .until(WAIT, |g| g["turn_number"] == 1 && g["ai_thinking"] == false)
        .await;
    agrees(&s, &mut events, &ai_game, "the AI's first turn").await;
    for n in [1usize, 3] {
        let game = events.game.clone().unwrap();
        let turn = random_turn(&replay(&game), n as u64);
        s.play(&ai_game, &human, &turn, n).await;
        events
            .until(WAIT, |g| {
                g["turn_number"] == n + 2 && g["ai_thinking"] == false
            })
            .await;
        agrees(&s, &mut events, &ai_game, "the AI's answer").await;
    }

    // A conditional turn: Black's answer to White's E5 plays at once.
    let (id, black, white) = s.new_game("sygo", 7).await;
    let mut events = Events::open(&s, &id).await;
    events.next(WAIT).await;
    s.play(&id, &white, "D4", 0).await;
    s.play(&id, &black, "C3", 1).await;
    let r = s
        .client
        .put(s.url(&format!("/api/games/{id}/conditional")))
        .bearer_auth(&black)
        .json(&json!({"tree": [{"if": "E5", "then": "B2"}]}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    s.play(&id, &white, "E5", 2).await;
    let seen = agrees(&s, &mut events, &id, "the conditional answer").await;
    assert_eq!(seen, ["turn", "turn", "turn", "turn"]);
    assert_eq!(events.game.as_ref().unwrap()["last_turn"]["turn"], "B2");

    // An abort before one's first turn.
    let (id, black, _) = s.new_game("sygo", 5).await;
    let mut events = Events::open(&s, &id).await;
    events.next(WAIT).await;
    assert_eq!(
        post(&s, &format!("/api/games/{id}/abort"), json!({}), &black)
            .await
            .0,
        200
    );
    assert_eq!(agrees(&s, &mut events, &id, "abort").await, ["turn"]);
    let game = events.game.as_ref().unwrap();
    assert_eq!(
        (game["status"].as_str(), game["last_turn"]["kind"].as_str()),
        (Some("aborted"), Some("abort"))
    );

    // A clock of one 5-second period: White plays, Black runs out.
    let clock = json!({"kind": "byoyomi", "main_ms": 0, "periods": 1, "period_ms": 5000});
    let (status, created) = s
        .post(
            "/api/games",
            &json!({"variant": "sygo", "size": 5, "clock": clock,
                    "black": {"kind": "human"}, "white": {"kind": "human"}}),
            None,
        )
        .await;
    assert_eq!(status, 201);
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let white = created["tokens"]["white"].as_str().unwrap().to_string();
    let mut events = Events::open(&s, &id).await;
    events.next(WAIT).await;
    s.play(&id, &white, "C3", 0).await;
    agrees(&s, &mut events, &id, "a turn under a clock").await;
    assert_eq!(events.game.as_ref().unwrap()["clock"]["running"], "black");
    let over = events
        .until(Duration::from_secs(30), |g| g["status"] == "over")
        .await;
    assert_eq!(over["result"], "W+T");
    assert_eq!(over["last_turn"]["kind"], "timeout");
    agrees(&s, &mut events, &id, "the timeout").await;
    s.stop().await;
}

/// A turn sent with `Prefer: return=minimal`: the status, the
/// `Preference-Applied` header and the body.
async fn play_minimal(
    s: &TestServer,
    id: &str,
    token: &str,
    turn: &str,
    number: usize,
) -> (u16, Option<String>, Value) {
    let r = s
        .client
        .post(s.url(&format!("/api/games/{id}/turns")))
        .bearer_auth(token)
        .header("prefer", "return=minimal")
        .json(&json!({"turn": turn, "turn_number": number}))
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let applied = r
        .headers()
        .get("preference-applied")
        .map(|v| v.to_str().unwrap().to_string());
    let body = serde_json::from_str(&r.text().await.unwrap()).unwrap_or(Value::Null);
    (status, applied, body)
}

/// The answer to a turn asked for with `Prefer: return=minimal` is the
/// turn's event: applied to the game before it, it gives the game after
/// it; with a stream open it is the very event the stream sends; errors
/// are the usual ones.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_minimal_answer_to_a_turn_is_its_event() {
    let s = TestServer::start("live-minimal").await;
    let (id, black, white) = s.new_game("sygo", 9).await;
    let game_now = || async { s.get_json(&format!("/api/games/{id}")).await.1 };

    // No one watches: the event is written for the answer.
    let mut game = game_now().await;
    let (status, applied, answer) = play_minimal(&s, &id, &white, "E5", 0).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(applied.as_deref(), Some("return=minimal"));
    assert_eq!(answer["turn_number"], 1);
    assert_eq!(answer["turn"]["turn"], "E5");
    apply_event(&mut game, "turn", &answer).unwrap();
    assert_eq!(steady(&game), steady(&game_now().await));

    // A stream open: the answer is the event it sends.
    let mut events = Events::open(&s, &id).await;
    let (event, _, _) = events.next_raw(WAIT).await;
    assert_eq!(event, "game");
    let (status, _, answer) = play_minimal(&s, &id, &black, "C3", 1).await;
    assert_eq!(status, 200, "{answer}");
    let (event, event_id, data) = events.next_raw(WAIT).await;
    assert_eq!((event.as_str(), event_id.as_str()), ("turn", "2"));
    assert_eq!(data, answer);
    apply_event(&mut game, "turn", &answer).unwrap();
    assert_eq!(steady(&game), steady(&game_now().await));

    // A stale turn number: 409, as without the header.
    let (status, applied, answer) = play_minimal(&s, &id, &white, "G7", 1).await;
    assert_eq!(status, 409, "{answer}");
    assert_eq!(applied, None);
    assert_eq!(answer["error"]["code"], "conflict");
    s.stop().await;
}
