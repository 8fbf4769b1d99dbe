//! Coming back to a game (`docs/web.md`): a creation request sent twice
//! makes one game, a browser asks for the games it plays in at once, a token
//! tells its side, no spectator ever receives a secret, and an AI turn whose
//! search failed starts again when someone looks at the game.

use crate::common;

use std::time::Duration;

use common::{Events, TestServer, code, message};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(30);

fn spec(request_id: &str) -> Value {
    json!({"variant": "sygo", "size": 9, "black": {"kind": "human"},
           "white": {"kind": "human"}, "request_id": request_id})
}

async fn game_count(s: &TestServer) -> usize {
    let (status, list) = s.get_json("/api/games").await;
    assert_eq!(status, 200);
    list["games"].as_array().unwrap().len()
}

/// A repeated `POST /api/games` with the same request id (a double click, a
/// retry after a lost answer) gets the first game, with its tokens, even
/// when the requests race and after a restart; a new id makes a new game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeated_creation_request_gets_the_same_game() {
    let s = TestServer::start("dedup").await;
    let rid = "0f1e2d3c-4b5a-4968-8776-655443322110";
    let (status, first) = s.post("/api/games", &spec(rid), None).await;
    assert_eq!(status, 201, "{first}");
    let (status, again) = s.post("/api/games", &spec(rid), None).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["game"]["id"], first["game"]["id"]);
    assert_eq!(again["tokens"], first["tokens"]);
    assert_eq!(again["links"], first["links"]);
    assert_eq!(game_count(&s).await, 1);

    // Twelve at once with another id: one game, every answer names it.
    let rid2 = "racing_double_click_0123456789";
    let answers = futures_util::future::join_all(
        (0..12).map(|_| async { s.post("/api/games", &spec(rid2), None).await }),
    )
    .await;
    let created: Vec<_> = answers.iter().filter(|(st, _)| *st == 201).collect();
    assert_eq!(created.len(), 1, "{answers:?}");
    assert!(answers.iter().all(|(st, _)| *st == 201 || *st == 200));
    let id2 = &created[0].1["game"]["id"];
    assert!(answers.iter().all(|(_, b)| &b["game"]["id"] == id2));
    assert!(
        answers
            .iter()
            .all(|(_, b)| b["tokens"] == created[0].1["tokens"])
    );
    assert_eq!(game_count(&s).await, 2);

    // The same id with other settings is refused, and creates nothing.
    let mut other = spec(rid);
    other["size"] = json!(13);
    let (status, body) = s.post("/api/games", &other, None).await;
    assert_eq!((status, code(&body)), (409, "conflict"), "{body}");
    assert!(message(&body).contains("request_id"), "{body}");
    assert_eq!(game_count(&s).await, 2);

    // Bad request ids: 400, nothing created.
    for bad in [
        json!("short"),
        json!("has spaces in it, sixteen+"),
        json!("a/b/c/d/e/f/g/h/i/j"),
        json!("x".repeat(65)),
        json!(12345678901234567_u64),
    ] {
        let mut body = spec("unused-unused-unused");
        body["request_id"] = bad.clone();
        let (status, answer) = s.post("/api/games", &body, None).await;
        assert_eq!((status, code(&answer)), (400, "bad_request"), "{bad}");
    }
    assert_eq!(game_count(&s).await, 2);

    // Without a request id every request is a new game, as before.
    let mut plain = spec("");
    plain.as_object_mut().unwrap().remove("request_id");
    for _ in 0..2 {
        let (status, _) = s.post("/api/games", &plain, None).await;
        assert_eq!(status, 201);
    }
    assert_eq!(game_count(&s).await, 4);

    // The request id is stored with the game: a retry after a restart
    // still gets it.
    let s = s.restart().await;
    let (status, after) = s.post("/api/games", &spec(rid), None).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["game"]["id"], first["game"]["id"]);
    assert_eq!(after["tokens"], first["tokens"]);
    assert_eq!(game_count(&s).await, 4);
    s.stop().await;
}

/// `GET /api/games?ids=`: the games a browser plays in, in one request, in
/// the order asked, with their positions; unknown ids listed apart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_of_a_browser_in_one_request() {
    let s = TestServer::start("ids").await;
    let (a, _, a_white) = s.new_game("sygo", 5).await;
    let (b, _, _) = s.new_game("hexsygo", 3).await;
    s.play(&a, &a_white, "C3", 0).await;
    let unknown = if a == "0badf00d" || b == "0badf00d" {
        "0badf00e"
    } else {
        "0badf00d"
    };
    let (status, answer) = s
        .get_json(&format!("/api/games?ids={b},{unknown},{a},{b}"))
        .await;
    assert_eq!(status, 200, "{answer}");
    let games = answer["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{answer}");
    assert_eq!(games[0]["id"], b.as_str());
    assert_eq!(games[1]["id"], a.as_str());
    assert_eq!(answer["missing"], json!([unknown]));
    let ga = &games[1];
    assert_eq!(ga["position"], "sygo 5 5/5/2W2/5/5 b - 0");
    assert_eq!(ga["to_move"], "black");
    assert_eq!(ga["turns"], 1);
    assert_eq!(ga["status"], "playing");
    assert_eq!(ga["ai_thinking"], false);
    assert_eq!(ga["black"], json!({"kind": "human"}));
    assert_eq!(games[0]["position"], "hexsygo 3 3/4/5/4/3 w - 0");
    // The whole list stays as it was: no positions.
    let (_, all) = s.get_json("/api/games").await;
    assert!(all["games"][0].get("position").is_none(), "{all}");
    assert!(all.get("missing").is_none());

    let (status, empty) = s.get_json("/api/games?ids=").await;
    assert_eq!(status, 200);
    assert_eq!(empty, json!({"games": [], "missing": []}));
    // Bad input: one clear 400 each.
    let many: Vec<String> = (0..101).map(|i| format!("{i:08x}")).collect();
    for (query, says) in [
        ("ids=../../etc".to_string(), "not a game id"),
        (format!("ids={a},ABCDEF12"), "not a game id"),
        (format!("ids={}", many.join(",")), "at most 100"),
        (format!("ids={a}&ids={b}"), "?ids="),
    ] {
        let (status, body) = s.get_json(&format!("/api/games?{query}")).await;
        assert_eq!((status, code(&body)), (400, "bad_request"), "{query}");
        assert!(message(&body).contains(says), "{query}: {body}");
    }
    s.stop().await;
}

/// `GET /api/games/{id}/side` tells a token's side, and nothing to anyone
/// else.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_tells_its_side() {
    let s = TestServer::start("side").await;
    let (id, black, white) = s.new_game("sygo", 5).await;
    let side = |token: Option<String>| {
        let s = &s;
        let id = id.clone();
        async move {
            let mut req = s.client.get(s.url(&format!("/api/games/{id}/side")));
            if let Some(t) = token {
                req = req.bearer_auth(t);
            }
            let r = req.send().await.unwrap();
            let status = r.status().as_u16();
            (status, r.json::<Value>().await.unwrap())
        }
    };
    assert_eq!(
        side(Some(black.clone())).await,
        (200, json!({"side": "black"}))
    );
    assert_eq!(
        side(Some(white.clone())).await,
        (200, json!({"side": "white"}))
    );
    let (status, body) = side(None).await;
    assert_eq!((status, code(&body)), (401, "unauthorized"));
    let (status, body) = side(Some("0".repeat(32))).await;
    assert_eq!((status, code(&body)), (401, "unauthorized"));
    // Another game's token is not this game's.
    let (_, other_black, _) = s.new_game("sygo", 5).await;
    let (status, _) = side(Some(other_black)).await;
    assert_eq!(status, 401);
    let (status, body) = s.get_json("/api/games/00000000/side").await;
    assert_eq!((status, code(&body)), (404, "not_found"));
    s.stop().await;
}

/// Everything a spectator can read (the game, a review, the list, the
/// chosen games, live updates, the record, a turn in progress, an analysis
/// request refused) holds neither side's token nor the request id.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_never_receive_a_secret() {
    let s = TestServer::start("secrets").await;
    let rid = "secret-request-id-0123456789abcdef";
    let (status, created) = s.post("/api/games", &spec(rid), None).await;
    assert_eq!(status, 201);
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let black = created["tokens"]["black"].as_str().unwrap().to_string();
    let white = created["tokens"]["white"].as_str().unwrap().to_string();
    // The creator's answer is the one place the tokens appear (and only in
    // the fragment of the links).
    assert!(
        created["links"]["black"]
            .as_str()
            .unwrap()
            .ends_with(&format!("#token={black}"))
    );
    assert_eq!(created["links"]["spectator"], format!("/game/{id}"));
    assert!(!created.to_string().contains(rid));
    s.play(&id, &white, "E5", 0).await;
    s.play(&id, &black, "C3", 1).await;

    let mut seen: Vec<(String, String)> = Vec::new();
    for path in [
        format!("/api/games/{id}"),
        format!("/api/games/{id}?turn=1"),
        "/api/games".to_string(),
        format!("/api/games?ids={id}"),
        format!("/api/games/{id}/record"),
        format!("/game/{id}"),
    ] {
        let (status, body) = s.get(&path).await;
        assert_eq!(status, 200, "{path}");
        seen.push((path, body));
    }
    let mut events = Events::open(&s, &id).await;
    let (_, _, game) = events.next(WAIT).await;
    seen.push(("events".to_string(), game.to_string()));
    // A turn played while watching arrives as an event too.
    s.play(&id, &white, "E6", 2).await;
    let (_, _, game) = events.next(WAIT).await;
    assert_eq!(game["turn_number"], 3);
    seen.push(("events after a turn".to_string(), game.to_string()));
    let (status, steps) = s
        .post(
            &format!("/api/games/{id}/steps"),
            &json!({"stones": ["C4"]}),
            None,
        )
        .await;
    assert_eq!(status, 200);
    seen.push(("steps".to_string(), steps.to_string()));
    // A spectator's attempts: refused, and the refusals hold no secret.
    for (path, body) in [
        ("turns", json!({"turn": "A1", "turn_number": 3})),
        ("hint", json!({})),
    ] {
        let (status, answer) = s
            .post(&format!("/api/games/{id}/{path}"), &body, None)
            .await;
        assert_eq!(status, 401, "{path}: {answer}");
        seen.push((path.to_string(), answer.to_string()));
    }
    for (what, body) in &seen {
        for secret in [black.as_str(), white.as_str(), rid] {
            assert!(!body.contains(secret), "{what} holds a secret: {body}");
        }
    }
    // And the spectator could not move: the game is where it was.
    let (_, game) = s.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(game["turn_number"], 3);
    s.stop().await;
}

/// The AI's turn fails (its database write is refused: another connection
/// holds the database); the game is not left waiting forever: the next
/// time someone looks at it (its player coming back) the AI starts again
/// and plays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_ai_turn_starts_again_when_its_player_comes_back() {
    let s = TestServer::start("resume").await;
    let (status, created) = s
        .post(
            "/api/games",
            &json!({"variant": "sygo", "size": 9, "black": {"kind": "human"},
                    "white": {"kind": "ai", "level": 6, "time_ms": 5000}}),
            None,
        )
        .await;
    assert_eq!(status, 201);
    let id = created["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(created["game"]["ai_thinking"], true);
    // While the AI thinks (5 s: level 6 has no cap on visits, so it
    // takes all its time), another connection takes the database's
    // write lock and keeps it: the AI's turn cannot be stored (the server
    // waits 5 s for the lock, then gives up).
    let lock = common::WriteLock::hold(&s.db);
    // The list does not restart the AI: watch it give up there.
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let g = listed(&s, &id).await;
        if g["ai_thinking"] == false {
            assert_eq!(g["turns"], 0, "the AI's turn was not stored: {g}");
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the AI never gave up"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    drop(lock);
    // On SQLite, still waiting, with no search: only looking at the game
    // restarts it. On PostgreSQL the AI's turn is a job with a lease (15 s
    // from when it was taken): once the lease runs out any server takes it
    // again, so there a look is not the only way back (on a loaded machine
    // the lease may run out before this line).
    let shared = matches!(s.db, sygo_server::Database::Postgres(_));
    if !shared {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let g = listed(&s, &id).await;
        assert_eq!(
            (g["turns"].clone(), g["ai_thinking"].clone()),
            (json!(0), json!(false))
        );
    }
    // The player comes back: the game page asks for the game.
    let (status, game) = s.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(status, 200);
    assert!(
        game["ai_thinking"] == true || (shared && game["turn_number"] == 1),
        "{game}"
    );
    let mut events = Events::open(&s, &id).await;
    let game = events
        .until(WAIT, |g| g["turn_number"] == 1 && g["ai_thinking"] == false)
        .await;
    assert_eq!(game["to_move"], "black");
    assert_eq!(game["turns"][0]["color"], "white");
    s.stop().await;
}

/// A game as the whole list shows it (which does not restart the AI).
async fn listed(s: &TestServer, id: &str) -> Value {
    let (_, list) = s.get_json("/api/games").await;
    list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id)
        .cloned()
        .unwrap()
}
