//! The lobby and the ratings over the socket (`docs/web.md`, "Lobby" and
//! "Ratings"): a challenge seen appearing live and accepted; a direct
//! challenge; every way a challenge cannot be taken; a rated game changing
//! both ratings exactly once (by resignation and on time), kept across a
//! restart and annulled by the host; the leaderboard.

use crate::common;

use std::time::Duration;

use common::{Events, TestServer, account, code, temp_db};
use reqwest::Method;
use reqwest::header::COOKIE;
use serde_json::{Value, json};

async fn send(
    s: &TestServer,
    method: Method,
    path: &str,
    body: Option<&Value>,
    cookie: Option<&str>,
) -> (u16, Value) {
    let mut req = s.client.request(method, s.url(path));
    if let Some(b) = body {
        req = req.json(b);
    }
    if let Some(c) = cookie {
        req = req.header(COOKIE, c);
    }
    let r = req.send().await.unwrap();
    let status = r.status().as_u16();
    let text = r.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

async fn post_challenge(s: &TestServer, cookie: &str, terms: Value) -> String {
    let (status, c) = send(
        s,
        Method::POST,
        "/api/challenges",
        Some(&terms),
        Some(cookie),
    )
    .await;
    assert_eq!(status, 201, "{c}");
    c["id"].as_str().unwrap().to_string()
}

async fn accept(s: &TestServer, cookie: &str, id: &str) -> (u16, Value) {
    send(
        s,
        Method::POST,
        &format!("/api/challenges/{id}/accept"),
        None,
        Some(cookie),
    )
    .await
}

async fn profile(s: &TestServer, name: &str) -> Value {
    let (status, p) = s.get_json(&format!("/api/players/{name}")).await;
    assert_eq!(status, 200);
    p
}

/// Ann challenges Bob (rated, Ann Black); Bob accepts: the game's id and
/// each side's token (Black's, White's).
async fn rated_game(
    s: &TestServer,
    ann: &str,
    bob: &str,
    clock: Value,
) -> (String, String, String) {
    let id = post_challenge(
        s,
        ann,
        json!({"variant": "sygo", "size": 5, "color": "black", "rated": true, "clock": clock}),
    )
    .await;
    let (status, a) = accept(s, bob, &id).await;
    assert_eq!(status, 201, "{a}");
    assert_eq!(a["color"], "white");
    let game = a["game"].as_str().unwrap().to_string();
    let (_, mine) = send(s, Method::GET, "/api/account", None, Some(ann)).await;
    let black = mine["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == game.as_str())
        .unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string();
    (
        game,
        common::seat(&black, ann),
        common::seat(a["token"].as_str().unwrap(), bob),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_appears_live_and_is_accepted_once() {
    let s = TestServer::start("lobby-accept").await;
    let ann = account(&s, "ann").await;
    let bob = account(&s, "bob").await;
    let cat = account(&s, "cat").await;
    let mut lobby = Events::open_at(&s, "/api/lobby/events", Some(&bob)).await;
    let (_, _, first) = lobby.next(Duration::from_secs(30)).await;
    assert_eq!(first["challenges"], json!([]));

    let clock = json!({"kind": "fischer", "main_ms": 300000, "increment_ms": 5000});
    let id = post_challenge(
        &s,
        &ann,
        json!({"variant": "hexsygo", "size": 4, "color": "white", "clock": clock, "rated": true}),
    )
    .await;
    let seen = lobby
        .until(Duration::from_secs(30), |l| {
            l["challenges"].as_array().is_some_and(|c| !c.is_empty())
        })
        .await;
    let c = &seen["challenges"][0];
    assert_eq!(c["id"], id.as_str());
    assert_eq!(c["from"]["name"], "ann");
    assert_eq!(c["from"]["rating"]["rating"], 1500.0);
    assert_eq!(c["from"]["rating"]["provisional"], true);
    assert_eq!(
        (c["variant"].clone(), c["size"].clone()),
        (json!("hexsygo"), json!(4))
    );
    assert_eq!(c["clock"], clock);
    assert_eq!(c.get("accepted_by"), Some(&Value::Null), "open");

    // Ann cannot take her own; Bob takes it; then nobody can.
    let (status, e) = accept(&s, &ann, &id).await;
    assert_eq!((status, code(&e)), (409, "conflict"));
    assert!(e["error"]["message"].as_str().unwrap().contains("your own"));
    let (status, a) = accept(&s, &bob, &id).await;
    assert_eq!(status, 201, "{a}");
    assert_eq!(a["color"], "black", "Ann chose White");
    let game_id = a["game"].as_str().unwrap();
    let (status, e) = accept(&s, &cat, &id).await;
    assert_eq!(status, 409);
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("accepted already")
    );
    let (_, game) = s.get_json(&format!("/api/games/{game_id}")).await;
    assert_eq!(game["white"], json!({"kind": "human", "name": "ann"}));
    assert_eq!(game["black"], json!({"kind": "human", "name": "bob"}));
    assert_eq!(game["clock"]["control"], clock);
    // Ann's page learns the game from her lobby, and her token from her account.
    let (_, ann_lobby) = send(&s, Method::GET, "/api/lobby", None, Some(&ann)).await;
    assert_eq!(ann_lobby["challenges"][0]["state"], "accepted");
    assert_eq!(ann_lobby["challenges"][0]["game"], game_id);
    assert_eq!(ann_lobby["challenges"][0]["accepted_by"], "bob");
    let (_, mine) = send(&s, Method::GET, "/api/account", None, Some(&ann)).await;
    assert_eq!(mine["games"][0]["id"], game_id);
    assert_eq!(mine["games"][0]["color"], "white");
    let (_, cat_lobby) = send(&s, Method::GET, "/api/lobby", None, Some(&cat)).await;
    assert_eq!(cat_lobby["challenges"], json!([]));
    assert_eq!(cat_lobby["playing"][0]["id"], game_id, "watchable");
    assert_eq!(
        cat_lobby["playing"][0]["white"],
        json!({"kind": "account", "name": "ann"})
    );
    assert_eq!(
        cat_lobby["playing"][0]["black"],
        json!({"kind": "account", "name": "bob"})
    );

    // Withdrawing: only the poster, only while open.
    let id = post_challenge(&s, &ann, json!({"variant": "sygo"})).await;
    let path = format!("/api/challenges/{id}");
    assert_eq!(
        send(&s, Method::DELETE, &path, None, Some(&bob)).await.0,
        403
    );
    assert_eq!(send(&s, Method::DELETE, &path, None, None).await.0, 401);
    assert_eq!(
        send(&s, Method::DELETE, &path, None, Some(&ann)).await.0,
        204
    );
    let (status, e) = accept(&s, &bob, &id).await;
    assert_eq!(status, 409);
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("withdrawn")
    );
    assert_eq!(
        send(&s, Method::DELETE, &path, None, Some(&ann)).await.0,
        409
    );
    assert_eq!(accept(&s, &bob, "00000000").await.0, 404);
    assert_eq!(accept(&s, &bob, "../../x").await.0, 404);
    let (status, _) = send(
        &s,
        Method::POST,
        "/api/challenges",
        Some(&json!({"variant": "sygo"})),
        None,
    )
    .await;
    assert_eq!(status, 401, "a guest posts no challenge");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn direct_challenges_ranges_and_expiry() {
    let db = temp_db("lobby-direct");
    let s = TestServer::on(db.clone()).await;
    let ann = account(&s, "ann").await;
    let bob = account(&s, "bob").await;
    let cat = account(&s, "cat").await;
    let id = post_challenge(&s, &ann, json!({"variant": "sygo", "opponent": "BOB"})).await;
    let (_, cat_lobby) = send(&s, Method::GET, "/api/lobby", None, Some(&cat)).await;
    assert_eq!(cat_lobby["challenges"], json!([]), "not for Cat");
    let (_, bob_lobby) = send(&s, Method::GET, "/api/lobby", None, Some(&bob)).await;
    assert_eq!(bob_lobby["challenges"][0]["to"], "bob");
    let (status, e) = accept(&s, &cat, &id).await;
    assert_eq!((status, code(&e)), (403, "not_offered"));
    assert_eq!(accept(&s, &bob, &id).await.0, 201);
    for (terms, status) in [
        (json!({"variant": "sygo", "opponent": "nobody"}), 404),
        (json!({"variant": "sygo", "opponent": "ann"}), 400),
        (
            json!({"variant": "sygo", "min_rating": 1600, "max_rating": 1400}),
            400,
        ),
        (json!({"variant": "sygo", "size": 99}), 400),
        (
            json!({"variant": "sygo", "clock": {"kind": "fischer", "main_ms": 1, "increment_ms": 0}}),
            400,
        ),
    ] {
        let (got, body) = send(
            &s,
            Method::POST,
            "/api/challenges",
            Some(&terms),
            Some(&ann),
        )
        .await;
        assert_eq!(got, status, "{terms}: {body}");
    }
    // A rating range Bob (1500) is outside.
    let id = post_challenge(&s, &ann, json!({"variant": "sygo", "min_rating": 1600})).await;
    let (status, e) = accept(&s, &bob, &id).await;
    assert_eq!((status, code(&e)), (403, "not_offered"));
    assert!(e["error"]["message"].as_str().unwrap().contains("1500"));
    // An hour-old live challenge has expired (after a restart too).
    let id = post_challenge(&s, &ann, json!({"variant": "sygo"})).await;
    let db = s.stop_keeping_db().await;
    common::execute_sql(
        &db,
        &format!("UPDATE challenges SET created = created - 3600001 WHERE id = '{id}'"),
    );
    let s = TestServer::on(db).await;
    let (status, e) = accept(&s, &bob, &id).await;
    assert_eq!(status, 409);
    assert!(e["error"]["message"].as_str().unwrap().contains("expired"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_changes_both_ratings_once_and_the_host_can_annul_it() {
    let db = temp_db("lobby-rated");
    let s = TestServer::on(db.clone()).await;
    let ann = account(&s, "ann").await;
    let bob = account(&s, "bob").await;
    let (game, black, white) = rated_game(&s, &ann, &bob, Value::Null).await;
    s.play(&game, &white, "C3", 0).await;
    // Bob (White) resigns: Ann wins.
    let resign = format!("/api/games/{game}/resign");
    let (status, _) = s.post(&resign, &json!({}), Some(&white)).await;
    assert_eq!(status, 200);
    let (status, _) = s.post(&resign, &json!({}), Some(&black)).await;
    assert_eq!(status, 409, "over: no second result");
    let a = profile(&s, "ann").await;
    let b = profile(&s, "bob").await;
    let (ra, rb) = (&a["ratings"]["sygo"], &b["ratings"]["sygo"]);
    assert_eq!(
        (ra["games"].clone(), rb["games"].clone()),
        (json!(1), json!(1))
    );
    assert!(ra["rating"].as_f64().unwrap() > 1600.0, "{ra}");
    assert!(rb["rating"].as_f64().unwrap() < 1400.0, "{rb}");
    assert_eq!(ra["history"][0]["game"], game.as_str());
    assert_eq!(a["ratings"]["hexsygo"]["games"], 0, "one rating per family");
    let before = (ra.clone(), rb.clone());

    // Kept exactly across a restart.
    let s = s.restart().await;
    assert_eq!(profile(&s, "ann").await["ratings"]["sygo"], before.0);
    assert_eq!(profile(&s, "bob").await["ratings"]["sygo"], before.1);

    // A rated game lost on time counts too.
    let clock = json!({"kind": "byoyomi", "main_ms": 0, "periods": 1, "period_ms": 5000});
    let (game2, _, white2) = rated_game(&s, &ann, &bob, clock).await;
    s.play(&game2, &white2, "C3", 0).await;
    let mut events = Events::open(&s, &game2).await;
    let over = events
        .until(Duration::from_secs(30), |g| g["status"] == "over")
        .await;
    assert_eq!(over["result"], "W+T", "Ann (Black) ran out of time");
    let a = profile(&s, "ann").await;
    assert_eq!(a["ratings"]["sygo"]["games"], 2);
    assert!(a["ratings"]["sygo"]["rating"].as_f64() < before.0["rating"].as_f64());

    // The host annuls the first game: every rating worked out again.
    common::off_runtime(|| {
        let mut admin = sygo_server::admin::Admin::open(&db).unwrap();
        let names = admin.annul(&game).unwrap();
        assert_eq!(names, vec!["ann".to_string(), "bob".to_string()]);
        assert!(admin.annul(&game).is_err(), "annulled already");
        assert!(admin.annul("ffffffff").is_err());
    });
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let a = profile(&s, "ann").await;
        if a["ratings"]["sygo"]["games"] == 1 {
            // Only the game lost on time is left: as if it were the first.
            assert!(
                a["ratings"]["sygo"]["rating"].as_f64().unwrap() < 1400.0,
                "{a}"
            );
            assert_eq!(a["ratings"]["sygo"]["history"][0]["game"], game2.as_str());
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the server reads it again"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_lists_established_ratings_best_first() {
    let s = TestServer::start("lobby-leaderboard").await;
    let ann = account(&s, "ann").await;
    let bob = account(&s, "bob").await;
    // Ann (Black) wins two games in three.
    for i in 0..30 {
        let (game, black, white) = rated_game(&s, &ann, &bob, Value::Null).await;
        let loser = if i % 3 == 2 { &black } else { &white };
        let (status, _) = s
            .post(
                &format!("/api/games/{game}/resign"),
                &json!({}),
                Some(loser),
            )
            .await;
        assert_eq!(status, 200);
    }
    let (status, board) = s.get_json("/api/ratings/sygo").await;
    assert_eq!(status, 200);
    let players = board["players"].as_array().unwrap();
    assert_eq!(players.len(), 2, "{board}");
    assert_eq!(players[0]["name"], "ann");
    assert_eq!(players[0]["rank"], 1);
    assert_eq!(players[0]["provisional"], false);
    assert!(players[0]["rating"].as_f64() > players[1]["rating"].as_f64());
    let (_, hex) = s.get_json("/api/ratings/hexsygo").await;
    assert_eq!(hex["players"], json!([]));
    assert_eq!(s.get_json("/api/ratings/chess").await.0, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accounts_notice_counts_the_games_waiting_for_it_and_challenges_to_it() {
    let s = TestServer::start("lobby-notice").await;
    let ann = account(&s, "ann").await;
    let bob = account(&s, "bob").await;
    assert_eq!(
        send(&s, Method::GET, "/api/account/events", None, None)
            .await
            .0,
        401
    );
    let mut notice = Events::open_at(&s, "/api/account/events", Some(&ann)).await;
    let (event, _, first) = notice.next(Duration::from_secs(30)).await;
    assert_eq!(event, "notice");
    assert_eq!(first, json!({"your_turn": [], "challenges": 0}));
    // Bob challenges Ann by name: she sees it.
    post_challenge(&s, &bob, json!({"variant": "sygo", "opponent": "ann"})).await;
    let seen = notice
        .until(Duration::from_secs(30), |n| n["challenges"] == 1)
        .await;
    assert_eq!(seen["your_turn"], json!([]));
    // A correspondence game where Ann (White) moves first: it waits for her.
    let corr = json!({"kind": "correspondence", "days_per_turn": 1, "bank_days": 2});
    let (game, _, white) = {
        let id = post_challenge(
            &s,
            &bob,
            json!({"variant": "sygo", "size": 5, "color": "black", "clock": corr}),
        )
        .await;
        let (status, a) = accept(&s, &ann, &id).await;
        assert_eq!(status, 201);
        (
            a["game"].as_str().unwrap().to_string(),
            (),
            common::seat(a["token"].as_str().unwrap(), &ann),
        )
    };
    let seen = notice
        .until(Duration::from_secs(30), |n| {
            n["your_turn"].as_array().is_some_and(|w| !w.is_empty())
        })
        .await;
    let waiting = &seen["your_turn"][0];
    assert_eq!(waiting["id"], game.as_str());
    assert_eq!(waiting["correspondence"], true);
    // What the game is: the board, who plays the other side, the turns.
    assert_eq!(waiting["board"], "Sygo 5×5", "{seen}");
    assert_eq!(
        waiting["opponent"],
        json!({"kind": "account", "name": "bob"})
    );
    assert_eq!(waiting["turn_number"], 0);
    let deadline = waiting["deadline_ms"].as_i64().expect("a deadline");
    // A guest has no notice: the list of its games gives the same deadline.
    let (status, chosen) = s.get_json(&format!("/api/games?ids={game}")).await;
    assert_eq!(status, 200, "{chosen}");
    let listed = &chosen["games"][0];
    assert_eq!(listed["deadline_ms"], deadline, "{chosen}");
    assert_eq!(listed["clock"]["kind"], "correspondence");
    assert_eq!(listed["paused"], false);
    s.play(&game, &white, "C3", 0).await;
    notice
        .until(Duration::from_secs(30), |n| n["your_turn"] == json!([]))
        .await;
    // Bob's turn now: the list's deadline is his.
    let (_, chosen) = s.get_json(&format!("/api/games?ids={game}")).await;
    let bobs = chosen["games"][0]["deadline_ms"]
        .as_i64()
        .expect("Bob's deadline");
    assert!(bobs > deadline, "{chosen}");

    // A Hexsygo game of two people whose White Ann claims: it waits for
    // her, against a guest, after one turn; without a clock, no deadline.
    let (hex, black, white) = s.new_game("hexsygo", 3).await;
    let (status, claimed) = send(
        &s,
        Method::POST,
        "/api/account/claims",
        Some(&json!({"claims": [{"game": hex, "token": white}]})),
        Some(&ann),
    )
    .await;
    assert_eq!(status, 200, "{claimed}");
    s.play(&hex, &white, "C3", 0).await;
    s.play(&hex, &black, "B2", 1).await;
    let seen = notice
        .until(Duration::from_secs(30), |n| {
            n["your_turn"].as_array().is_some_and(|w| !w.is_empty())
        })
        .await;
    assert_eq!(
        seen["your_turn"],
        json!([{"id": hex, "board": "Hexsygo, base 3", "opponent": {"kind": "guest"},
                "turn_number": 2, "deadline_ms": null, "correspondence": false,
                "paused": false}])
    );
    let (_, chosen) = s.get_json(&format!("/api/games?ids={hex}")).await;
    let listed = &chosen["games"][0];
    assert_eq!(
        (
            listed["deadline_ms"].clone(),
            listed["clock"].clone(),
            listed["paused"].clone()
        ),
        (Value::Null, Value::Null, json!(false)),
        "{chosen}"
    );
}

/// The games being played now name each side by its kind: the account
/// holding it (a side claimed too), the AI with its level, or a guest.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_being_played_name_their_sides_by_kind() {
    let s = TestServer::start("lobby-sides").await;
    let ann = account(&s, "ann").await;
    let (status, created) = s
        .post(
            "/api/games",
            &json!({"variant": "sygo", "size": 5, "black": {"kind": "human"},
                    "white": {"kind": "ai", "level": 2, "time_ms": 100}}),
            None,
        )
        .await;
    assert_eq!(status, 201);
    let ai_game = created["game"]["id"].as_str().unwrap().to_string();
    let (people, black, _) = s.new_game("sygo", 5).await;
    let (status, claimed) = send(
        &s,
        Method::POST,
        "/api/account/claims",
        Some(&json!({"claims": [{"game": people, "token": black}]})),
        Some(&ann),
    )
    .await;
    assert_eq!(status, 200, "{claimed}");
    let (_, lobby) = send(&s, Method::GET, "/api/lobby", None, None).await;
    let listed = |id: &str| {
        lobby["playing"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("{id} listed: {lobby}"))
    };
    let g = listed(&ai_game);
    assert_eq!(g["white"], json!({"kind": "ai", "level": 2}));
    assert_eq!(g["black"], json!({"kind": "guest"}));
    let g = listed(&people);
    assert_eq!(g["black"], json!({"kind": "account", "name": "ann"}));
    assert_eq!(g["white"], json!({"kind": "guest"}));
    s.stop().await;
}
