//! The etiquette of a real server over the socket (`docs/web.md`,
//! "Etiquette"): abort before one's first turn (and by the server, for a
//! game no one touched, with or without a clock), no result and no rating; an undo request accepted and one declined (the decline kept
//! across a restart); a rematch with the
//! colours swapped, found again after a restart; chat kept as text, limited,
//! kept across a restart, a long chat's last lines in the game and the
//! earlier ones by pages; a page's presence shown to the other side; an
//! undo request and a rematch offer not yet answered kept across a restart.

use crate::common;

use std::time::{Duration, Instant};

use common::{Events, TestServer, code, message, temp_db};
use serde_json::{Value, json};

async fn post(s: &TestServer, path: &str, body: Value, token: Option<&str>) -> (u16, Value) {
    s.post(path, &body, token).await
}

async fn game(s: &TestServer, id: &str) -> Value {
    s.get_json(&format!("/api/games/{id}")).await.1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_aborted_before_ones_first_turn_only() {
    let s = TestServer::start("manners-abort").await;
    let (id, black, white) = s.new_game("sygo", 5).await;
    let abort = format!("/api/games/{id}/abort");
    s.play(&id, &white, "C3", 0).await;
    let (status, e) = post(&s, &abort, json!({}), Some(&white)).await;
    assert_eq!(status, 409);
    assert!(message(&e).contains("resign instead"), "{e}");
    // Black has not played: Black may abort.
    let (status, g) = post(&s, &abort, json!({}), Some(&black)).await;
    assert_eq!(status, 200, "{g}");
    assert_eq!(g["status"], "aborted");
    assert_eq!(g["result"], Value::Null);
    assert_eq!(g["last_turn"]["kind"], "abort");
    assert_eq!(post(&s, &abort, json!({}), Some(&black)).await.0, 409);
    assert_eq!(post(&s, &abort, json!({}), None).await.0, 401);
    let (_, record) = s.get(&format!("/api/games/{id}/record")).await;
    assert!(record.contains("RE[Void]"), "{record}");
    let s = s.restart().await;
    assert_eq!(game(&s, &id).await["status"], "aborted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_aborts_untouched_games_and_first_turns_run_out() {
    let db = temp_db("manners-untouched");
    let s = TestServer::on(db.clone()).await;
    let (old, _, _) = s.new_game("sygo", 5).await;
    let (fresh, _, _) = s.new_game("sygo", 5).await;
    let clock = json!({"kind": "byoyomi", "main_ms": 0, "periods": 1, "period_ms": 5000});
    let (status, body) = s
        .post(
            "/api/games",
            &json!({"variant": "sygo", "size": 5, "black": {"kind": "human"},
                    "white": {"kind": "human"}, "clock": clock}),
            None,
        )
        .await;
    assert_eq!(status, 201);
    let timed = body["game"]["id"].as_str().unwrap().to_string();
    let db = s.stop_keeping_db().await;
    common::execute_sql(
        &db,
        &format!("UPDATE games SET created = created - 8 * 86400000 WHERE id = '{old}'"),
    );
    let s = TestServer::on(db).await;
    let deadline = Instant::now() + Duration::from_secs(30);
    while game(&s, &old).await["status"] != "aborted"
        || game(&s, &timed).await["status"] != "aborted"
    {
        assert!(Instant::now() < deadline, "ended by the server");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(
        game(&s, &timed).await["result"],
        Value::Null,
        "not a loss on time"
    );
    assert_eq!(game(&s, &fresh).await["status"], "playing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undo_request_is_declined_then_accepted() {
    let s = TestServer::start("manners-undo").await;
    let (id, black, white) = s.new_game("sygo", 5).await;
    let ask = format!("/api/games/{id}/undo-request");
    let answer = format!("/api/games/{id}/undo-answer");
    s.play(&id, &white, "C3", 0).await;
    s.play(&id, &black, "B2", 1).await;
    let (status, e) = post(&s, &ask, json!({"turn_number": 2}), Some(&white)).await;
    assert_eq!(status, 409, "White's last turn is not the last: {e}");
    assert_eq!(
        post(&s, &ask, json!({"turn_number": 1}), Some(&black))
            .await
            .0,
        409
    );
    let (status, g) = post(&s, &ask, json!({"turn_number": 2}), Some(&black)).await;
    assert_eq!(status, 200, "{g}");
    assert_eq!(g["undo_request"], json!({"by": "black", "turn_number": 2}));
    let (status, e) = post(&s, &answer, json!({"accept": true}), Some(&black)).await;
    assert_eq!(
        (status, code(&e)),
        (409, "conflict"),
        "not one's own request"
    );
    let mut events = Events::open(&s, &id).await;
    events.next(Duration::from_secs(30)).await;
    let (status, g) = post(&s, &answer, json!({"accept": false}), Some(&white)).await;
    assert_eq!(status, 200);
    assert_eq!(g["undo_request"], Value::Null);
    assert_eq!(g["turn_number"], 2, "declined: nothing taken back");
    let declined = json!({"by": "black", "turn_number": 2, "undos": 0});
    assert_eq!(g["undo_declined"], declined);
    // Watchers are told in the same change.
    let (event, _, seen) = events.next(Duration::from_secs(30)).await;
    assert_eq!(event, "change");
    assert_eq!(seen["undo_declined"], declined);
    drop(events);
    assert_eq!(
        post(&s, &answer, json!({"accept": true}), Some(&white))
            .await
            .0,
        409
    );
    // The same request again, once declined: refused, and nothing changes.
    let (status, e) = post(&s, &ask, json!({"turn_number": 2}), Some(&black)).await;
    assert_eq!((status, code(&e)), (409, "conflict"), "{e}");
    assert_eq!(
        message(&e),
        "White declined to take back this turn already: it stands"
    );
    assert_eq!(game(&s, &id).await["undo_request"], Value::Null);
    // The decline is stored: after a restart, still refused, still said.
    let s = s.restart().await;
    assert_eq!(game(&s, &id).await["undo_declined"], declined);
    let (status, e) = post(&s, &ask, json!({"turn_number": 2}), Some(&black)).await;
    assert_eq!((status, code(&e)), (409, "conflict"), "{e}");
    assert!(message(&e).contains("declined"), "{e}");
    // After the next turns, a new request, accepted.
    s.play(&id, &white, "D2", 2).await;
    s.play(&id, &black, "B4", 3).await;
    let (status, g) = post(&s, &ask, json!({"turn_number": 4}), Some(&black)).await;
    assert_eq!(status, 200, "{g}");
    let (status, g) = post(&s, &answer, json!({"accept": true}), Some(&white)).await;
    assert_eq!(status, 200);
    assert_eq!(g["turn_number"], 3);
    assert_eq!(g["to_move"], "black");
    assert_eq!(g["undo_request"], Value::Null);
    s.play(&id, &black, "D4", 3).await;
    // A turn played clears a standing request.
    post(&s, &ask, json!({"turn_number": 4}), Some(&black)).await;
    let g = s.play(&id, &white, "E5", 4).await;
    assert_eq!(g["undo_request"], Value::Null);
    let s = s.restart().await;
    let g = game(&s, &id).await;
    assert_eq!(g["turn_number"], 5, "the undo is stored");
    assert_eq!(
        g["undo_declined"], declined,
        "the last decline, of another state"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_swaps_the_colours_and_is_found_again() {
    let s = TestServer::start("manners-rematch").await;
    let (id, black, white) = s.new_game("hexsygo", 3).await;
    let rematch = format!("/api/games/{id}/rematch");
    let (status, e) = post(&s, &rematch, json!({}), Some(&white)).await;
    assert_eq!(status, 409, "only once over: {e}");
    s.post(&format!("/api/games/{id}/resign"), &json!({}), Some(&black))
        .await;
    let withdraw = |token: &str| {
        s.client
            .delete(s.url(&rematch))
            .bearer_auth(token.to_string())
            .send()
    };
    let (status, offer) = post(&s, &rematch, json!({}), Some(&white)).await;
    assert_eq!((status, offer["state"].clone()), (200, json!("offered")));
    assert_eq!(game(&s, &id).await["rematch"]["offered_by"], "white");
    // Withdrawn by the side that offered it (only), then offered again.
    let r = withdraw(&black).await.unwrap();
    assert_eq!(r.status().as_u16(), 409, "Black has no offer");
    let r = withdraw(&white).await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let g: Value = r.json().await.unwrap();
    assert_eq!(g["rematch"], json!({"offered_by": null, "game": null}));
    let r = withdraw(&white).await.unwrap();
    assert_eq!(r.status().as_u16(), 409, "withdrawn already");
    let (status, offer) = post(&s, &rematch, json!({}), Some(&white)).await;
    assert_eq!((status, offer["state"].clone()), (200, json!("offered")));
    assert_eq!(s.get_json(&rematch).await.0, 401);
    let (status, _) = s
        .client
        .get(s.url(&rematch))
        .bearer_auth(&white)
        .send()
        .await
        .map(|r| (r.status().as_u16(), ()))
        .unwrap();
    assert_eq!(status, 404, "not started yet");
    let (status, seat) = post(&s, &rematch, json!({}), Some(&black)).await;
    assert_eq!(status, 201, "{seat}");
    assert_eq!(seat["color"], "white", "Black plays White now");
    let new_id = seat["game"].as_str().unwrap().to_string();
    let new_game = game(&s, &new_id).await;
    assert_eq!(new_game["rematch_of"], id.as_str());
    assert_eq!(new_game["variant"], "hexsygo");
    assert_eq!(game(&s, &id).await["rematch"]["game"], new_id.as_str());
    let r = withdraw(&white).await.unwrap();
    let e: Value = r.json().await.unwrap();
    assert_eq!(
        message(&e),
        "the rematch has started already: it is no longer withdrawn"
    );
    // The old White finds its way in, now Black; after a restart too.
    let s = s.restart().await;
    let r = s
        .client
        .get(s.url(&rematch))
        .bearer_auth(&white)
        .send()
        .await
        .unwrap();
    let mine: Value = r.json().await.unwrap();
    assert_eq!(mine["game"], new_id.as_str());
    assert_eq!(mine["color"], "black");
    let new_white = seat["token"].as_str().unwrap();
    s.play(&new_id, new_white, "C3", 0).await;

    // Against the AI, a rematch starts at once.
    let (status, body) = s
        .post(
            "/api/games",
            &json!({"variant": "sygo", "size": 5, "black": {"kind": "human"},
                    "white": {"kind": "ai", "level": 1, "time_ms": 100}}),
            None,
        )
        .await;
    assert_eq!(status, 201);
    let ai_game = body["game"]["id"].as_str().unwrap().to_string();
    let token = body["tokens"]["black"].as_str().unwrap().to_string();
    s.post(
        &format!("/api/games/{ai_game}/resign"),
        &json!({}),
        Some(&token),
    )
    .await;
    let (status, seat) = post(
        &s,
        &format!("/api/games/{ai_game}/rematch"),
        json!({}),
        Some(&token),
    )
    .await;
    assert_eq!(status, 201, "{seat}");
    assert_eq!(seat["color"], "white");
    let g = game(&s, seat["game"].as_str().unwrap()).await;
    assert_eq!(g["black"]["kind"], "ai");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_is_text_limited_and_kept_and_presence_is_shown() {
    let s = TestServer::start("manners-chat").await;
    let (id, black, white) = s.new_game("sygo", 5).await;
    let chat = format!("/api/games/{id}/chat");
    let mut events = Events::open(&s, &id).await;
    let (status, g) = post(
        &s,
        &chat,
        json!({"text": "  <b>good</b> game\u{7} "}),
        Some(&white),
    )
    .await;
    assert_eq!(status, 200, "{g}");
    let seen = events
        .until(Duration::from_secs(30), |g| {
            g["chat"].as_array().is_some_and(|c| !c.is_empty())
        })
        .await;
    assert_eq!(
        seen["chat"][0]["text"], "<b>good</b> game",
        "as text, cleaned"
    );
    assert_eq!(seen["chat"][0]["color"], "white");
    assert_eq!(post(&s, &chat, json!({"text": "hi"}), None).await.0, 401);
    assert_eq!(
        post(&s, &chat, json!({"text": "   "}), Some(&black))
            .await
            .0,
        400
    );
    assert_eq!(
        post(&s, &chat, json!({"text": "x".repeat(501)}), Some(&black))
            .await
            .0,
        400
    );
    // Ten lines at once, then a pause is asked for. The bucket gains one
    // every 3 s: one more is let through for each 3 s the lines took.
    let started = std::time::Instant::now();
    let mut limited = None;
    for i in 0..40 {
        let (status, body) = post(
            &s,
            &chat,
            json!({"text": format!("line {i}")}),
            Some(&black),
        )
        .await;
        if status == 429 {
            limited = Some((i, body));
            break;
        }
    }
    let (i, body) = limited.expect("a side's chat is rate-limited");
    let refilled = started.elapsed().as_secs() as usize / 3;
    assert!((10..=10 + refilled).contains(&i), "{i} lines: {body}");
    assert!(message(&body).contains("chat lines"));

    // Presence: Black's page is open, then closes.
    let presence = format!("/api/games/{id}/presence");
    let r = s
        .client
        .post(s.url(&presence))
        .bearer_auth(&black)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 204);
    let g = game(&s, &id).await;
    assert_eq!(g["connected"], json!({"black": true, "white": false}));
    let (status, _) = post(&s, &presence, json!({"present": false}), Some(&black)).await;
    assert_eq!(status, 204);
    assert_eq!(game(&s, &id).await["connected"]["black"], false);

    let s = s.restart().await;
    let g = game(&s, &id).await;
    assert_eq!(g["chat"].as_array().unwrap().len(), 11);
    assert_eq!(g["chat"][10]["text"], "line 9");
}

/// A long chat: the game carries its last 100 lines and the number of the
/// last; the earlier ones come a page at a time; the live `chat` event
/// still applies (the line after `chat_total`) across the cap; kept across
/// a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_chat_is_sent_in_pages_of_100_lines() {
    let s = TestServer::with(temp_db("manners-long-chat"), |c| c.rate_limits = false).await;
    let (id, black, white) = s.new_game("sygo", 5).await;
    let chat = format!("/api/games/{id}/chat");
    let mut events = Events::open(&s, &id).await;
    events.next(Duration::from_secs(30)).await;
    for n in 1..=130 {
        let token = if n % 2 == 0 { &black } else { &white };
        let (status, g) = post(&s, &chat, json!({"text": format!("line {n}")}), Some(token)).await;
        assert_eq!(status, 200, "{g}");
        // Each line's event applies to the game as the stream has it
        // (`common::apply_event`, strict).
        let (event, _, seen) = events.next(Duration::from_secs(30)).await;
        assert_eq!(event, "chat");
        assert_eq!(seen["chat_total"], n);
        assert_eq!(
            seen["chat"], g["chat"],
            "line {n}: the stream's chat is the game's"
        );
    }
    let numbers = |lines: &Value| -> Vec<u64> {
        lines
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["number"].as_u64().unwrap())
            .collect()
    };
    let g = game(&s, &id).await;
    assert_eq!(g["chat_total"], 130);
    assert_eq!(numbers(&g["chat"]), (31..=130).collect::<Vec<_>>());
    assert_eq!(g["chat"][99]["text"], "line 130");
    // The earlier lines: before the first shown, then before those.
    let (status, page) = s.get_json(&format!("{chat}?before=31")).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(numbers(&page["chat"]), (1..=30).collect::<Vec<_>>());
    assert_eq!(page["chat_total"], 130);
    assert_eq!(page["chat"][0]["text"], "line 1");
    assert_eq!(page["chat"][0]["color"], "white");
    let (_, page) = s.get_json(&format!("{chat}?before=120")).await;
    assert_eq!(numbers(&page["chat"]), (20..=119).collect::<Vec<_>>());
    let (_, page) = s.get_json(&chat).await;
    assert_eq!(page["chat"], g["chat"], "without before: the game's lines");
    let (_, page) = s.get_json(&format!("{chat}?before=1")).await;
    assert_eq!(page["chat"], json!([]));
    let (_, page) = s.get_json(&format!("{chat}?before=9999")).await;
    assert_eq!(numbers(&page["chat"]), (31..=130).collect::<Vec<_>>());
    for bad in [
        "?before=0",
        "?before=-3",
        "?before=x",
        "?before=99999999999",
    ] {
        let (status, e) = s.get_json(&format!("{chat}{bad}")).await;
        assert_eq!((status, code(&e)), (400, "bad_request"), "{bad}: {e}");
    }
    assert_eq!(s.get_json("/api/games/0badf00d/chat").await.0, 404);

    // Across a restart, the same.
    let s = s.restart().await;
    let again = game(&s, &id).await;
    assert_eq!(again["chat"], g["chat"]);
    assert_eq!(again["chat_total"], 130);
    let (_, page) = s.get_json(&format!("{chat}?before=31")).await;
    assert_eq!(numbers(&page["chat"]), (1..=30).collect::<Vec<_>>());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undo_request_and_a_rematch_offer_hold_across_a_restart() {
    let s = TestServer::start("manners-offers-restart").await;
    let (id, black, white) = s.new_game("sygo", 5).await;
    s.play(&id, &white, "C3", 0).await;
    let (status, g) = post(
        &s,
        &format!("/api/games/{id}/undo-request"),
        json!({"turn_number": 1}),
        Some(&white),
    )
    .await;
    assert_eq!(status, 200, "{g}");
    // Stored: the server started again still has White's request, which
    // Black accepts.
    let s = s.restart().await;
    let g = game(&s, &id).await;
    assert_eq!(
        g["undo_request"],
        json!({"by": "white", "turn_number": 1}),
        "{g}"
    );
    let (status, g) = post(
        &s,
        &format!("/api/games/{id}/undo-answer"),
        json!({"accept": true}),
        Some(&black),
    )
    .await;
    assert_eq!(status, 200, "{g}");
    assert_eq!(g["turn_number"], 0);
    assert_eq!(g["undo_request"], Value::Null);
    // A request of a game that moved on since does not come back.
    s.play(&id, &white, "C3", 0).await;
    let s = s.restart().await;
    assert_eq!(game(&s, &id).await["undo_request"], Value::Null);
    // A rematch offer made before a restart is accepted after it, and the
    // rematch is the game's after another.
    s.post(&format!("/api/games/{id}/resign"), &json!({}), Some(&black))
        .await;
    let rematch = format!("/api/games/{id}/rematch");
    let (status, offer) = post(&s, &rematch, json!({}), Some(&white)).await;
    assert_eq!((status, offer["state"].clone()), (200, json!("offered")));
    let s = s.restart().await;
    assert_eq!(game(&s, &id).await["rematch"]["offered_by"], "white");
    let (status, seat) = post(&s, &rematch, json!({}), Some(&black)).await;
    assert_eq!(status, 201, "{seat}");
    let new_id = seat["game"].as_str().unwrap().to_string();
    let s = s.restart().await;
    assert_eq!(
        game(&s, &id).await["rematch"],
        json!({"offered_by": null, "game": new_id})
    );
}
