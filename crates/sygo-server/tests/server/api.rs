//! The HTTP API of `docs/web.md` over a real socket: every endpoint, every
//! error with its status and code (and nothing changed by it), captures,
//! growth and balance turns through `/steps` and `/turns`, concurrent
//! double submission, live updates, the AI, hints and analyses, records.

use crate::common;

use std::time::Duration;

use common::{Events, TestServer, code, message, random_turn, replay};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(30);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_static_files_and_unknown_paths() {
    let s = TestServer::start("pages").await;
    for page in ["/", "/games", "/game/ab12cd34"] {
        let r = s.client.get(s.url(page)).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200, "{page}");
        assert_eq!(r.headers()["content-type"], "text/html; charset=utf-8");
        assert!(r.text().await.unwrap().contains("<html"));
    }
    let r = s
        .client
        .get(s.url("/static/index.html"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    for path in [
        "/static/no-such-file.js",
        "/static/../Cargo.toml",
        "/nothing",
        "/api",
        "/api/nothing",
        "/api/games/ab12cd34",
        "/api/games/not-an-id",
        "/api/games/AB12CD34/record",
    ] {
        let (status, body) = s.get_json(path).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(code(&body), "not_found", "{path}");
        assert!(!message(&body).is_empty());
    }
    let r = s.client.delete(s.url("/api/games")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 405);
    let body: Value = r.json().await.unwrap();
    assert_eq!(code(&body), "method_not_allowed");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_are_created_listed_and_shown() {
    let s = TestServer::start("create").await;
    let (status, body) = s
        .post(
            "/api/games",
            &json!({"variant": "hexsygo", "size": 3, "komi": 0.5,
                    "black": {"kind": "human"},
                    "white": {"kind": "human"}}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let game = &body["game"];
    let id = game["id"].as_str().unwrap();
    assert_eq!(id.len(), 8);
    assert_eq!(game["variant"], "hexsygo");
    assert_eq!(game["size"], 3);
    assert_eq!(game["komi"], 0.5);
    assert_eq!(game["turn_number"], 0);
    assert_eq!(game["to_move"], "white");
    assert_eq!(game["status"], "playing");
    assert_eq!(game["source"], "played");
    assert_eq!(game["result"], Value::Null);
    assert_eq!(game["ai_thinking"], false);
    assert_eq!(game["points"].as_array().unwrap().len(), 19);
    assert_eq!(game["points"][0], json!({"name": "A1", "col": 0, "row": 0}));
    assert_eq!(game["stones"], json!({}));
    assert_eq!(game["last_turn"], Value::Null);
    let (black, white) = (
        body["tokens"]["black"].as_str().unwrap(),
        body["tokens"]["white"].as_str().unwrap(),
    );
    assert_ne!(black, white);
    assert_eq!(
        body["links"]["black"].as_str().unwrap(),
        format!("/game/{id}#token={black}")
    );
    assert_eq!(
        body["links"]["spectator"].as_str().unwrap(),
        format!("/game/{id}")
    );

    // An AI side gets no token; a Sygo board of the default size.
    let (status, body) = s
        .post(
            "/api/games",
            &json!({"variant": "sygo", "black": {"kind": "human"},
                    "white": {"kind": "ai", "level": 1, "time_ms": 100}}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["game"]["size"], 19);
    assert_eq!(body["game"]["points"].as_array().unwrap().len(), 361);
    assert_eq!(body["tokens"]["white"], Value::Null);
    assert_eq!(body["links"]["white"], Value::Null);
    assert_eq!(
        body["game"]["white"],
        json!({"kind": "ai", "level": 1, "time_ms": 100})
    );

    let (status, list) = s.get_json("/api/games").await;
    assert_eq!(status, 200);
    let games = list["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    // Newest first.
    assert_eq!(games[0]["id"], body["game"]["id"]);
    assert_eq!(games[1]["id"], id);
    for key in [
        "id", "variant", "size", "black", "white", "turns", "to_move", "status", "result",
        "source", "created", "updated",
    ] {
        assert!(games[1].get(key).is_some(), "{key}");
    }
    let (status, shown) = s.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(shown["id"], id);

    // Games created within the same millisecond keep their order too.
    let mut created = vec![
        id.to_string(),
        body["game"]["id"].as_str().unwrap().to_string(),
    ];
    for _ in 0..12 {
        let (status, body) = s
            .post(
                "/api/games",
                &json!({"variant": "sygo", "size": 5,
                        "black": {"kind": "human"}, "white": {"kind": "human"}}),
                None,
            )
            .await;
        assert_eq!(status, 201, "{body}");
        created.push(body["game"]["id"].as_str().unwrap().to_string());
    }
    let (_, list) = s.get_json("/api/games").await;
    let listed: Vec<String> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    created.reverse();
    assert_eq!(listed, created);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_games_are_refused_and_nothing_is_stored() {
    let s = TestServer::start("bad-create").await;
    let human = json!({"kind": "human"});
    let bad_bodies = [
        json!({"variant": "chess", "black": human, "white": human}),
        json!({"variant": "sygo", "size": 26, "black": human, "white": human}),
        json!({"variant": "sygo", "size": 2, "black": human, "white": human}),
        json!({"variant": "hexsygo", "size": 14, "black": human, "white": human}),
        json!({"variant": "hexsygo", "size": 1, "black": human, "white": human}),
        json!({"variant": "sygo", "size": -3, "black": human, "white": human}),
        json!({"variant": "sygo", "size": "9", "black": human, "white": human}),
        json!({"variant": "sygo", "size": 9, "black": human}),
        json!({"variant": "sygo", "size": 9, "komi": 5000, "black": human, "white": human}),
        json!({"variant": "sygo", "black": {"kind": "robot"}, "white": human}),
        json!({"variant": "sygo", "black": {"kind": "ai"}, "white": human}),
        json!({"variant": "sygo", "black": {"kind": "ai", "level": 0}, "white": human}),
        json!({"variant": "sygo", "black": {"kind": "ai", "level": 7}, "white": human}),
        json!({"variant": "sygo", "black": {"kind": "ai", "level": 2, "time_ms": 99}, "white": human}),
        json!({"variant": "sygo", "black": {"kind": "ai", "level": 2, "time_ms": 60001}, "white": human}),
        json!([1, 2, 3]),
        json!("sygo"),
    ];
    for body in &bad_bodies {
        let (status, answer) = s.post("/api/games", body, None).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(code(&answer), "bad_request", "{body}");
        assert!(!message(&answer).is_empty());
    }
    let (status, answer) = s
        .post_raw(
            "/api/games",
            Some("application/json"),
            b"{\"variant\": ".to_vec(),
            None,
        )
        .await;
    assert_eq!((status, code(&answer)), (400, "bad_request"));
    let good =
        serde_json::to_vec(&json!({"variant": "sygo", "black": human, "white": human})).unwrap();
    for ct in [
        None,
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
    ] {
        let (status, answer) = s.post_raw("/api/games", ct, good.clone(), None).await;
        assert_eq!(
            (status, code(&answer)),
            (415, "unsupported_media_type"),
            "{ct:?}"
        );
    }
    let mut huge = b"{\"variant\": \"sygo\", \"x\": \"".to_vec();
    huge.extend(std::iter::repeat_n(b'a', 300 * 1024));
    huge.extend(b"\"}");
    let (status, answer) = s
        .post_raw("/api/games", Some("application/json"), huge, None)
        .await;
    assert_eq!((status, code(&answer)), (413, "too_large"));
    let (_, list) = s.get_json("/api/games").await;
    assert_eq!(list["games"], json!([]));
    s.stop().await;
}

/// Every refusal of a turn, each leaving the game as it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_turns_are_refused_and_change_nothing() {
    let s = TestServer::start("bad-turns").await;
    let (id, black, white) = s.new_game("sygo", 9).await;
    s.play(&id, &white, "E5", 0).await;
    let path = format!("/api/games/{id}/turns");
    let (_, before) = s.get(&format!("/api/games/{id}")).await;
    let cases: Vec<(Value, Option<&str>, u16, &str)> = vec![
        (
            json!({"turn": "C3", "turn_number": 1}),
            None,
            401,
            "unauthorized",
        ),
        (
            json!({"turn": "C3", "turn_number": 1}),
            Some("0123456789abcdef0123456789abcdef"),
            401,
            "unauthorized",
        ),
        (
            json!({"turn": "C3", "turn_number": 1}),
            Some(white.as_str()),
            403,
            "not_your_turn",
        ),
        (
            json!({"turn": "C3", "turn_number": 0}),
            Some(black.as_str()),
            409,
            "conflict",
        ),
        (
            json!({"turn": "C3", "turn_number": 2}),
            Some(black.as_str()),
            409,
            "conflict",
        ),
        (
            json!({"turn": "Z99", "turn_number": 1}),
            Some(black.as_str()),
            400,
            "bad_request",
        ),
        (
            json!({"turn": "C3,,D4", "turn_number": 1}),
            Some(black.as_str()),
            400,
            "bad_request",
        ),
        (
            json!({"turn": "", "turn_number": 1}),
            Some(black.as_str()),
            400,
            "bad_request",
        ),
        (
            json!({"turn": "C3", "turn_number": -1}),
            Some(black.as_str()),
            400,
            "bad_request",
        ),
        (
            json!({"turn": 5, "turn_number": 1}),
            Some(black.as_str()),
            400,
            "bad_request",
        ),
        (
            json!({"turn": "C3"}),
            Some(black.as_str()),
            400,
            "bad_request",
        ),
        (
            json!({"turn": "E5", "turn_number": 1}),
            Some(black.as_str()),
            422,
            "illegal",
        ),
        (
            json!({"turn": "C3,D4", "turn_number": 1}),
            Some(black.as_str()),
            422,
            "illegal",
        ),
    ];
    for (body, token, status, expected) in &cases {
        let (got, answer) = s.post(&path, body, *token).await;
        assert_eq!(
            (got, code(&answer)),
            (*status, *expected),
            "{body}: {answer}"
        );
        let (_, after) = s.get(&format!("/api/games/{id}")).await;
        assert_eq!(after, before, "{body} changed the game");
    }
    // The rules' own reasons.
    let (_, answer) = s
        .post(
            &path,
            &json!({"turn": "E5", "turn_number": 1}),
            Some(&black),
        )
        .await;
    assert_eq!(message(&answer), "E5 is already occupied");
    let (_, answer) = s
        .post(
            &path,
            &json!({"turn": "C3,D4", "turn_number": 1}),
            Some(&black),
        )
        .await;
    assert_eq!(
        message(&answer),
        "the placement at C3 ended the turn: finish it, or take it back"
    );
    // Not JSON, malformed JSON, too large.
    let (status, answer) = s
        .post_raw(&path, Some("text/plain"), b"C3".to_vec(), Some(&black))
        .await;
    assert_eq!((status, code(&answer)), (415, "unsupported_media_type"));
    let (status, answer) = s
        .post_raw(
            &path,
            Some("application/json"),
            b"{\"turn\":".to_vec(),
            Some(&black),
        )
        .await;
    assert_eq!((status, code(&answer)), (400, "bad_request"));
    let big = format!(
        "{{\"turn\": \"{}\", \"turn_number\": 1}}",
        "C3,".repeat(100_000)
    );
    let (status, answer) = s
        .post_raw(
            &path,
            Some("application/json"),
            big.into_bytes(),
            Some(&black),
        )
        .await;
    assert_eq!((status, code(&answer)), (413, "too_large"));
    let (status, answer) = s
        .post(
            "/api/games/00000000/turns",
            &json!({"turn": "C3", "turn_number": 1}),
            Some(&black),
        )
        .await;
    assert_eq!((status, code(&answer)), (404, "not_found"));
    let (_, after) = s.get(&format!("/api/games/{id}")).await;
    assert_eq!(after, before);

    // A game over takes no more turns.
    s.play(&id, &black, "pass", 1).await;
    let over = s.play(&id, &white, "pass", 2).await;
    assert_eq!(over["status"], "over");
    assert_eq!(over["result"], "W+81");
    let (status, answer) = s
        .post(
            &path,
            &json!({"turn": "C3", "turn_number": 3}),
            Some(&black),
        )
        .await;
    assert_eq!((status, code(&answer)), (409, "conflict"), "{answer}");
    s.stop().await;
}

/// A capture (a placement that reverses a group), checked first through
/// `/steps`, then played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_capture_through_steps_and_turns() {
    let s = TestServer::start("capture").await;
    let (id, black, white) = s.new_game("sygo", 5).await;
    let turns = [
        ("C3", &white),
        ("B3", &black),
        ("pass", &white),
        ("D3", &black),
        ("pass", &white),
        ("C2", &black),
        ("pass", &white),
    ];
    for (n, (turn, token)) in turns.iter().enumerate() {
        s.play(&id, token, turn, n).await;
    }
    let steps = format!("/api/games/{id}/steps");
    let (status, empty) = s.post(&steps, &json!({"stones": []}), None).await;
    assert_eq!(status, 200, "{empty}");
    assert_eq!(
        empty["next"]["C4"],
        json!({"kind": "placement", "reverses": ["C3"]})
    );
    assert_eq!(
        empty["next"]["E5"],
        json!({"kind": "placement", "reverses": []})
    );
    assert_eq!(
        empty["next"]["B4"],
        json!({"kind": "growth", "reverses": []})
    );
    assert!(
        empty["next"].get("C3").is_none(),
        "occupied points have no entry"
    );
    assert_eq!(
        empty["finish"],
        json!({"allowed": false, "reason": "the turn has no stone yet: play a stone, or pass"})
    );
    assert_eq!(empty["groups"].as_array().unwrap().len(), 3);
    assert!(
        empty["groups"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["status"] == "fresh")
    );

    let (status, after) = s.post(&steps, &json!({"stones": ["C4"]}), None).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["pending"], json!(["C4"]));
    assert_eq!(after["kinds"], json!(["placement"]));
    assert_eq!(after["reversed"], json!(["C3"]));
    assert_eq!(after["stones"]["C3"], "black");
    assert_eq!(after["finish"], json!({"allowed": true, "reason": null}));
    assert_eq!(
        after["next"]["A1"]["refused"],
        "the placement at C4 ended the turn: finish it, or take it back"
    );
    let game = s.play(&id, &black, "C4", 7).await;
    assert_eq!(game["stones"]["C3"], "black");
    assert_eq!(
        game["last_turn"],
        json!({"color": "black", "turn": "C4", "stones": ["C4"], "reversed": ["C3"],
               "kind": "placement", "description": "Black placed C4, reversing C3."})
    );
    assert_eq!(game["score"]["black"].as_u64().unwrap(), 25);
    s.stop().await;
}

/// A growth turn of two stones, its groups' status through `/steps`, a
/// refused step with its number, and the turn played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_multi_stone_growth_turn() {
    let s = TestServer::start("growth").await;
    let (id, black, white) = s.new_game("sygo", 5).await;
    s.play(&id, &white, "B2", 0).await;
    s.play(&id, &black, "E5", 1).await;
    s.play(&id, &white, "D4", 2).await;
    s.play(&id, &black, "E1", 3).await;
    let steps = format!("/api/games/{id}/steps");
    let (status, one) = s.post(&steps, &json!({"stones": ["B3"]}), None).await;
    assert_eq!(status, 200, "{one}");
    assert_eq!(one["kinds"], json!(["growth"]));
    assert_eq!(
        one["groups"],
        json!([{"stones": ["B2"], "status": "grown"}, {"stones": ["D4"], "status": "fresh"}])
    );
    assert_eq!(
        one["next"]["B1"]["refused"],
        "B1 would grow the group at B2 a second time this turn"
    );
    assert_eq!(one["next"]["D3"], json!({"kind": "growth", "reverses": []}));
    assert!(
        one["next"]["A5"]["refused"]
            .as_str()
            .unwrap()
            .contains("White may not place after growing")
    );
    assert_eq!(one["finish"]["allowed"], true);

    let (status, refused) = s.post(&steps, &json!({"stones": ["B3", "B4"]}), None).await;
    assert_eq!((status, code(&refused)), (422, "illegal"));
    assert_eq!(
        message(&refused),
        "step 2 (B4): B4 touches only stones played this turn (such as B3): \
         a growth stone must touch a group you had when the turn began"
    );
    let (status, bad) = s.post(&steps, &json!({"stones": ["B3", "Q9"]}), None).await;
    assert_eq!((status, code(&bad)), (400, "bad_request"), "{bad}");
    let (status, bad) = s.post(&steps, &json!({"stones": "B3"}), None).await;
    assert_eq!((status, code(&bad)), (400, "bad_request"));
    let (status, bad) = s
        .post("/api/games/00000000/steps", &json!({"stones": []}), None)
        .await;
    assert_eq!((status, code(&bad)), (404, "not_found"));

    let (status, two) = s.post(&steps, &json!({"stones": ["B3", "D3"]}), None).await;
    assert_eq!(status, 200, "{two}");
    assert_eq!(two["kinds"], json!(["growth", "growth"]));
    assert!(
        two["groups"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["status"] == "grown")
    );
    let game = s.play(&id, &white, "B3,D3", 4).await;
    assert_eq!(
        game["turns"][4],
        json!({"number": 5, "color": "white", "turn": "B3,D3", "kind": "growth",
               "description": "White grew B3 and D3."})
    );
    assert_eq!(game["last_turn"]["stones"], json!(["B3", "D3"]));
    assert_eq!(game["stones"]["D3"], "white");
    s.stop().await;
}

/// Black's balance turn: a growth then a placement, offered while no growth
/// turn has been played, gone after.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blacks_balance_turn() {
    let s = TestServer::start("balance").await;
    let (id, black, white) = s.new_game("hexsygo", 3).await;
    let game = s.play(&id, &white, "C3", 0).await;
    assert_eq!(game["balance_available"], true);
    s.play(&id, &black, "A1", 1).await;
    let game = s.play(&id, &white, "E5", 2).await;
    assert_eq!(game["balance_available"], true);
    let steps = format!("/api/games/{id}/steps");
    let (status, grown) = s.post(&steps, &json!({"stones": ["B1"]}), None).await;
    assert_eq!(status, 200, "{grown}");
    assert_eq!(grown["next"]["E3"]["kind"], "placement");
    let (status, both) = s.post(&steps, &json!({"stones": ["B1", "E3"]}), None).await;
    assert_eq!(status, 200, "{both}");
    assert_eq!(both["kinds"], json!(["growth", "placement"]));
    assert_eq!(both["finish"]["allowed"], true);
    let game = s.play(&id, &black, "B1,E3", 3).await;
    assert_eq!(game["balance_available"], false);
    assert_eq!(game["last_turn"]["turn"], "B1,E3");
    // White may not do the same.
    let (status, answer) = s
        .post(
            &format!("/api/games/{id}/turns"),
            &json!({"turn": "D4,A3", "turn_number": 4}),
            Some(&white),
        )
        .await;
    assert_eq!((status, code(&answer)), (422, "illegal"));
    assert!(
        message(&answer).contains("White may not place after growing"),
        "{answer}"
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_reviewed_turn_by_turn() {
    let s = TestServer::start("review").await;
    let (id, black, white) = s.new_game("sygo", 7).await;
    s.play(&id, &white, "D4", 0).await;
    s.play(&id, &black, "B2", 1).await;
    s.play(&id, &white, "D5", 2).await;
    let (status, first) = s.get_json(&format!("/api/games/{id}?turn=1")).await;
    assert_eq!(status, 200);
    assert_eq!(first["shown_turn"], 1);
    assert_eq!(first["turn_number"], 3);
    assert_eq!(first["stones"], json!({"D4": "white"}));
    assert_eq!(first["to_move"], "black");
    assert_eq!(first["last_turn"]["turn"], "D4");
    assert_eq!(first["turns"].as_array().unwrap().len(), 3);
    let (_, start) = s.get_json(&format!("/api/games/{id}?turn=0")).await;
    assert_eq!(start["stones"], json!({}));
    assert_eq!(start["last_turn"], Value::Null);
    let (_, now) = s.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(now["shown_turn"], 3);
    for bad in ["?turn=4", "?turn=-1", "?turn=abc", "?turn=1.5"] {
        let (status, answer) = s.get_json(&format!("/api/games/{id}{bad}")).await;
        assert_eq!((status, code(&answer)), (400, "bad_request"), "{bad}");
    }
    s.stop().await;
}

/// Many submissions of the same turn at once: exactly one is accepted and
/// stored, every other one is a conflict.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_submissions_of_a_turn_accept_exactly_one() {
    let s = TestServer::start("race").await;
    let (id, black, white) = s.new_game("sygo", 9).await;
    for round in 0..3 {
        // Different points each round: every submission is legal, so each
        // refusal is for its turn number alone.
        let (token, turns) = match round {
            0 => (
                &white,
                [
                    "A1", "B2", "C3", "D4", "E5", "F6", "G7", "H8", "J9", "A9", "B8", "C7",
                ],
            ),
            1 => (
                &black,
                [
                    "A2", "B3", "C4", "D5", "E6", "F7", "G8", "H9", "J1", "A8", "B7", "C6",
                ],
            ),
            _ => (
                &white,
                [
                    "A3", "B5", "C9", "D1", "E3", "F5", "G1", "H3", "J5", "A5", "B9", "C1",
                ],
            ),
        };
        let mut tasks = Vec::new();
        for turn in turns {
            let client = s.client.clone();
            let url = s.url(&format!("/api/games/{id}/turns"));
            let token = token.clone();
            tasks.push(tokio::spawn(async move {
                let r = client
                    .post(url)
                    .bearer_auth(token)
                    .json(&json!({"turn": turn, "turn_number": round}))
                    .send()
                    .await
                    .unwrap();
                let status = r.status().as_u16();
                let body: Value = r.json().await.unwrap();
                (status, body)
            }));
        }
        let mut accepted = 0;
        for task in tasks {
            let (status, body) = task.await.unwrap();
            match status {
                200 => accepted += 1,
                409 => assert_eq!(code(&body), "conflict"),
                other => panic!("{other}: {body}"),
            }
        }
        assert_eq!(accepted, 1, "round {round}");
        let (_, game) = s.get_json(&format!("/api/games/{id}")).await;
        assert_eq!(game["turn_number"], round + 1);
    }
    // What is stored is what was accepted.
    let (_, before) = s.get_json(&format!("/api/games/{id}")).await;
    let s = s.restart().await;
    let (_, after) = s.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(after["turns"], before["turns"]);
    assert_eq!(after["stones"], before["stones"]);
    s.stop().await;
}

/// A watcher sees the game at once, then each turn as it is played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_updates_bring_the_opponents_turn() {
    let s = TestServer::start("events").await;
    let (id, black, white) = s.new_game("hexsygo", 4).await;
    s.play(&id, &white, "D4", 0).await;
    let mut events = Events::open(&s, &id).await;
    let (event, event_id, game) = events.next(WAIT).await;
    assert_eq!((event.as_str(), event_id.as_str()), ("game", "1"));
    assert_eq!(game["turn_number"], 1);
    assert_eq!(game["stones"], json!({"D4": "white"}));
    s.play(&id, &black, "A1", 1).await;
    // The turn comes as a small event, applied to the game (`common`).
    let (event, event_id, game) = events.next(WAIT).await;
    assert_eq!((event.as_str(), event_id.as_str()), ("turn", "2"));
    assert_eq!(game["last_turn"]["turn"], "A1");
    assert_eq!(game["stones"]["A1"], "black");
    // A second watcher (a reload) starts from the game as it is.
    let mut again = Events::open(&s, &id).await;
    let (_, event_id, _) = again.next(WAIT).await;
    assert_eq!(event_id, "2");
    let (status, answer) = s.get_json("/api/games/00000000/events").await;
    assert_eq!((status, code(&answer)), (404, "not_found"));
    // Shutting down ends the streams (the server does not wait for them).
    s.stop().await;
}

/// Against the AI: it opens as White, answers a person's turn, and says
/// when it is thinking.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ai_answers_a_turn() {
    let s = TestServer::start("ai").await;
    // Level 6 takes all its time (0.3 s): the answer to a turn comes while
    // it thinks, however loaded the machine (a level with few visits may
    // have played already).
    let (status, created) = s
        .post(
            "/api/games",
            &json!({"variant": "sygo", "size": 7, "black": {"kind": "human"},
                    "white": {"kind": "ai", "level": 6, "time_ms": 300}}),
            None,
        )
        .await;
    assert_eq!(status, 201);
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let black = created["tokens"]["black"].as_str().unwrap().to_string();
    let mut events = Events::open(&s, &id).await;
    let game = events
        .until(WAIT, |g| g["turn_number"] == 1 && g["ai_thinking"] == false)
        .await;
    assert_eq!(game["turns"][0]["color"], "white");
    for n in [1usize, 3, 5] {
        let turn = random_turn(&replay(&game_now(&s, &id).await), n as u64);
        let answer = s.play(&id, &black, &turn, n).await;
        assert_eq!(answer["ai_thinking"], true);
        let game = events
            .until(WAIT, |g| {
                g["turn_number"] == n + 2 && g["ai_thinking"] == false
            })
            .await;
        assert_eq!(game["turns"][n]["color"], "black");
        assert_eq!(game["turns"][n + 1]["color"], "white");
        // The AI's turn is legal: the rules library replays the game.
        replay(&game);
    }
    s.stop().await;
}

async fn game_now(s: &TestServer, id: &str) -> Value {
    s.get_json(&format!("/api/games/{id}")).await.1
}

/// A hint for the side to move, an analysis for anyone: the shape of
/// `docs/web.md`, every candidate legal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_and_analyses() {
    let s = TestServer::start("hint").await;
    let (id, black, white) = s.new_game("sygo", 5).await;
    s.play(&id, &white, "C3", 0).await;
    let hint = format!("/api/games/{id}/hint");
    let (status, answer) = s.post(&hint, &json!({"time_ms": 100}), None).await;
    assert_eq!((status, code(&answer)), (401, "unauthorized"));
    let (status, answer) = s.post(&hint, &json!({"time_ms": 100}), Some(&white)).await;
    assert_eq!((status, code(&answer)), (403, "not_your_turn"));
    let (status, answer) = s.post(&hint, &json!({"time_ms": 50}), Some(&black)).await;
    assert_eq!((status, code(&answer)), (400, "bad_request"));
    let (status, answer) = s.post(&hint, &json!({"time_ms": 100}), Some(&black)).await;
    assert_eq!(status, 200, "{answer}");
    check_analysis(&answer, &replay(&game_now(&s, &id).await));

    let analysis = format!("/api/games/{id}/analysis");
    // No body at all: the defaults (1 s).
    let (status, answer) = s.post_raw(&analysis, None, Vec::new(), None).await;
    assert_eq!(status, 200, "{answer}");
    check_analysis(&answer, &replay(&game_now(&s, &id).await));
    let (status, answer) = s
        .post(&analysis, &json!({"time_ms": 100, "turn": 0}), None)
        .await;
    assert_eq!(status, 200, "{answer}");
    let start = sygo_rules::Game::new(sygo_rules::Position::new(
        sygo_rules::Geometry::sygo(5).unwrap(),
    ));
    check_analysis(&answer, &start);
    let (status, answer) = s.post(&analysis, &json!({"turn": 9}), None).await;
    assert_eq!((status, code(&answer)), (400, "bad_request"));
    // Black B1 next to White A1 leaves it one liberty, A2, next to no
    // Black stone: White is in danger of a placement there.
    s.play(&id, &black, "B1", 1).await;
    s.play(&id, &white, "A1", 2).await;
    s.play(&id, &black, "E5", 3).await;
    let (status, answer) = s.post(&analysis, &json!({"time_ms": 100}), None).await;
    assert_eq!(status, 200, "{answer}");
    check_analysis(&answer, &replay(&game_now(&s, &id).await));
    assert_eq!(answer["dangers"][0]["stones"], json!(["A1"]));
    assert_eq!(answer["dangers"][0]["kind"], "placement");
    let (status, answer) = s.post(&analysis, &json!({"time_ms": "fast"}), None).await;
    assert_eq!((status, code(&answer)), (400, "bad_request"));
    let (status, answer) = s
        .post_raw(&analysis, Some("text/plain"), b"{}".to_vec(), None)
        .await;
    assert_eq!((status, code(&answer)), (415, "unsupported_media_type"));
    // A game over has nothing to search.
    s.play(&id, &white, "resign", 4).await;
    let (status, answer) = s.post(&analysis, &json!({"time_ms": 100}), None).await;
    assert_eq!((status, code(&answer)), (409, "conflict"));
    s.stop().await;
}

fn check_analysis(answer: &Value, game: &sygo_rules::Game) {
    let rate = answer["win_rate"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&rate));
    assert!(answer["score_lead"].as_f64().is_some());
    assert!(answer["visits"].as_u64().unwrap() > 0);
    let g = game.position().geometry();
    let candidates = answer["candidates"].as_array().unwrap();
    assert!(!candidates.is_empty());
    for c in candidates {
        let turn = sygo_rules::Turn::parse(c["turn"].as_str().unwrap(), &g).unwrap();
        let mut copy = game.position().clone();
        copy.play_turn(&turn).unwrap();
        assert_eq!(c["pv"][0], c["turn"]);
        assert!(c["visits"].as_u64().is_some());
    }
    // The groups in danger: the rules library's, each with a turn that
    // reverses the group.
    let dangers = answer["dangers"].as_array().unwrap();
    assert_eq!(dangers.len(), game.position().dangers().len());
    for d in dangers {
        let stone = g.parse_point(d["stones"][0].as_str().unwrap()).unwrap();
        let owner = game.position().stone_at(stone).unwrap();
        let mut copy = game.position().clone();
        copy.set_side_to_move(owner.opponent()).unwrap();
        let turn = sygo_rules::Turn::parse(d["turn"].as_str().unwrap(), &g).unwrap();
        copy.play_turn(&turn).unwrap();
        assert_eq!(copy.stone_at(stone), Some(owner.opponent()), "{d}");
        assert_eq!(
            d["next_turn"].as_bool().unwrap(),
            owner != game.position().side_to_move()
        );
    }
    let ownership = answer["ownership"].as_object().unwrap();
    assert_eq!(ownership.len(), g.num_points());
    assert!(
        ownership
            .values()
            .all(|o| (-1.0..=1.0).contains(&o.as_f64().unwrap()))
    );
}

/// A record downloaded, uploaded, shown as the same game; bad records
/// refused with their reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_round_trip() {
    let s = TestServer::start("records").await;
    let (id, black, white) = s.new_game("hexsygo", 3).await;
    for (n, (turn, token)) in [
        ("C3", &white),
        ("A1", &black),
        ("E5", &white),
        ("B1,E3", &black),
    ]
    .iter()
    .enumerate()
    {
        s.play(&id, token, turn, n).await;
    }
    let r = s
        .client
        .get(s.url(&format!("/api/games/{id}/record")))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert!(
        r.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/x-go-sgf")
    );
    assert_eq!(
        r.headers()["content-disposition"],
        format!("attachment; filename=\"sygo-{id}.sgf\"").as_str()
    );
    let sgf = r.text().await.unwrap();
    assert!(sgf.contains("VR[hexsygo]"), "{sgf}");
    let parsed = sygo_records::Record::parse(&sgf).unwrap();
    assert_eq!(parsed.main_line_len(), 4);

    let (status, uploaded) = s
        .post_raw(
            "/api/records",
            Some("application/x-go-sgf"),
            sgf.clone().into_bytes(),
            None,
        )
        .await;
    assert_eq!(status, 201, "{uploaded}");
    let copy = &uploaded["game"];
    assert_eq!(copy["source"], "uploaded");
    assert!(uploaded.get("tokens").is_none());
    let (_, original) = s.get_json(&format!("/api/games/{id}")).await;
    for key in [
        "variant",
        "size",
        "turns",
        "stones",
        "last_turn",
        "score",
        "to_move",
        "turn_number",
    ] {
        assert_eq!(copy[key], original[key], "{key}");
    }
    let copy_id = copy["id"].as_str().unwrap();
    assert_ne!(copy_id, id);
    let (status, text) = s.get(&format!("/api/games/{copy_id}/record")).await;
    assert_eq!((status, text.as_str()), (200, sgf.as_str()));
    // text/plain is a record too.
    let (status, _) = s
        .post_raw(
            "/api/records",
            Some("text/plain"),
            sgf.clone().into_bytes(),
            None,
        )
        .await;
    assert_eq!(status, 201);
    // Nobody plays an uploaded game.
    let (status, answer) = s
        .post(
            &format!("/api/games/{copy_id}/turns"),
            &json!({"turn": "pass", "turn_number": 4}),
            Some(&black),
        )
        .await;
    assert_eq!((status, code(&answer)), (401, "unauthorized"));

    let (_, before) = s.get("/api/games").await;
    let bad: [(&[u8], &str); 4] = [
        (b"this is not sgf", ""),
        (b"(;FF[4]GM[1]SZ[9])", ""),
        (
            b"(;FF[4]GM[400]VR[sygo]SZ[9];W[ee];B[cg];W[ed][ec])",
            "node 3: White's turn E6,E7 is illegal: E7 touches only stones played this turn \
             (such as E6): a growth stone must touch a group you had when the turn began",
        ),
        (b"\xff\xfe(;FF[4])", "the record is not UTF-8 text"),
    ];
    for (text, expected) in bad {
        let (status, answer) = s
            .post_raw(
                "/api/records",
                Some("application/x-go-sgf"),
                text.to_vec(),
                None,
            )
            .await;
        assert_eq!((status, code(&answer)), (422, "bad_record"), "{answer}");
        assert!(!message(&answer).is_empty());
        if !expected.is_empty() {
            assert_eq!(message(&answer), expected);
        }
    }
    let (status, answer) = s
        .post_raw(
            "/api/records",
            Some("application/json"),
            sgf.clone().into_bytes(),
            None,
        )
        .await;
    assert_eq!((status, code(&answer)), (415, "unsupported_media_type"));
    let (status, answer) = s
        .post_raw(
            "/api/records",
            Some("application/x-go-sgf"),
            vec![b'('; 300 * 1024],
            None,
        )
        .await;
    assert_eq!((status, code(&answer)), (413, "too_large"));
    let (_, after) = s.get("/api/games").await;
    assert_eq!(after, before);
    s.stop().await;
}
