//! Several servers on one PostgreSQL database, as behind a load balancer:
//! turns made through one reach the watchers of another, in order; two
//! servers never both store conflicting turns; a game, an account or a
//! session made on one works on the other at once; the AI's turns of a
//! server that leaves them to others are played by a worker, and so is a
//! review asked for on it; undo requests, rematch offers and pages open
//! shown on both; accounts, sessions, challenges, vacations and ratings
//! changed on one read on the other account by account, not all again.
//!
//! PostgreSQL only (SQLite has one server a database): `scripts/test.sh`
//! runs these on the PostgreSQL server it starts, with `--include-ignored`.

use crate::common;

use std::time::Duration;

use common::{Events, TestServer, query_i64, random_turn, replay, send, temp_db};
use reqwest::Method;
use serde_json::{Value, json};
use sygo_server::Database;

const WAIT: Duration = Duration::from_secs(20);

/// A new PostgreSQL database for the test (`SYGO_TEST_POSTGRES`).
fn shared_db(name: &str) -> Database {
    assert!(
        common::postgres_server().is_some(),
        "these tests need PostgreSQL: run them with scripts/test.sh, or set \
         SYGO_TEST_POSTGRES to a server's address"
    );
    temp_db(name)
}

/// Events until the game satisfies `done`, or a failure that says what was
/// awaited and the game as last seen.
async fn until(events: &mut Events, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        if let Some(game) = &events.game
            && done(game)
        {
            return game.clone();
        }
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        if events.try_next(left).await.is_none() {
            panic!("{what}: not in time; the game as seen: {:?}", events.game);
        }
    }
}

/// The turns of a game as `(turn, color)`.
fn turns(game: &Value) -> Vec<(String, String)> {
    game["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["turn"].as_str().unwrap().to_string(),
                t["color"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL: scripts/test.sh runs it"]
async fn turns_through_two_servers_reach_the_watchers_of_both_in_order() {
    let db = shared_db("cluster-turns");
    let a = TestServer::on(db.clone()).await;
    let b = TestServer::on(db.clone()).await;
    let (id, black, white) = a.new_game("sygo", 9).await;
    // B has not heard of the game when asked at once: it reads it.
    let mut on_a = Events::open(&a, &id).await;
    let mut on_b = Events::open(&b, &id).await;
    on_a.next(WAIT).await;
    on_b.next(WAIT).await;
    let mut game = replay(&a.get_json(&format!("/api/games/{id}")).await.1);
    for n in 0..24 {
        let server = if n % 2 == 0 { &a } else { &b };
        let token = if game.position().side_to_move() == sygo_rules::Color::Black {
            &black
        } else {
            &white
        };
        let turn = random_turn(&game, n as u64);
        let after = server.play(&id, token, &turn, n).await;
        game = replay(&after);
        // Each watcher gets the turn as a `turn` event, whichever server
        // it watches.
        for (name, events) in [("a", &mut on_a), ("b", &mut on_b)] {
            let (event, _, seen) = events
                .try_next(WAIT)
                .await
                .unwrap_or_else(|| panic!("watcher on {name}: no event for turn {n}"));
            assert_eq!(event, "turn", "watcher on {name}, turn {n}");
            assert_eq!(turns(&seen), turns(&after), "watcher on {name}");
        }
    }
    let (_, on_a_now) = a.get_json(&format!("/api/games/{id}")).await;
    let (_, on_b_now) = b.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(turns(&on_a_now), turns(&on_b_now));
    assert_eq!(turns(&on_a_now).len(), 24);
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL: scripts/test.sh runs it"]
async fn two_servers_never_both_store_a_turn_of_the_same_number() {
    let db = shared_db("cluster-race");
    let a = TestServer::on(db.clone()).await;
    let b = TestServer::on(db.clone()).await;
    let (id, black, white) = a.new_game("sygo", 9).await;
    let mut game = replay(&a.get_json(&format!("/api/games/{id}")).await.1);
    for n in 0..12 {
        let token = if game.position().side_to_move() == sygo_rules::Color::Black {
            &black
        } else {
            &white
        };
        // The same turn number through both at once, with different turns.
        let (ta, tb) = (random_turn(&game, 2 * n), random_turn(&game, 2 * n + 1));
        let path = format!("/api/games/{id}/turns");
        let body_a = json!({"turn": ta, "turn_number": n});
        let body_b = json!({"turn": tb, "turn_number": n});
        let (ra, rb) = tokio::join!(
            a.post(&path, &body_a, Some(token)),
            b.post(&path, &body_b, Some(token))
        );
        let accepted: Vec<&Value> = [&ra, &rb]
            .into_iter()
            .filter(|(status, _)| *status == 200)
            .map(|(_, body)| body)
            .collect();
        let refused = [&ra, &rb].iter().filter(|(s, _)| *s == 409).count();
        assert_eq!((accepted.len(), refused), (1, 1), "turn {n}: {ra:?} {rb:?}");
        game = replay(accepted[0]);
    }
    // Both servers, and a third reading the database afresh, agree.
    let c = TestServer::on(db.clone()).await;
    let mut seen = Vec::new();
    for server in [&a, &b, &c] {
        let body = tokio::time::timeout(WAIT, async {
            loop {
                let (_, body) = server.get_json(&format!("/api/games/{id}")).await;
                if turns(&body).len() == 12 {
                    return body;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await
        .expect("every server has the 12 turns");
        seen.push(turns(&body));
    }
    assert_eq!(seen[0], seen[1]);
    assert_eq!(seen[0], seen[2]);
    for server in [a, b, c] {
        server.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL: scripts/test.sh runs it"]
async fn a_turn_chosen_before_an_undo_on_another_server_is_refused() {
    let db = shared_db("cluster-undo");
    let a = TestServer::on(db.clone()).await;
    let b = TestServer::on(db.clone()).await;
    // Hot-seat: one page holds both tokens, so it may take turns back.
    let (id, black, white) = a.new_game("sygo", 9).await;
    a.play(&id, &white, "E5", 0).await;
    a.play(&id, &black, "C3", 1).await;
    // B has the two turns.
    let mut on_b = Events::open(&b, &id).await;
    until(&mut on_b, "B has the two turns", |g| turns(g).len() == 2).await;
    // A takes Black's turn back; B is told, and a turn numbered as before
    // the undo is refused on B.
    let (status, body) = a
        .post(
            &format!("/api/games/{id}/undo"),
            &json!({"turn_number": 2, "other_token": white}),
            Some(&black),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let after_undo = until(&mut on_b, "B hears of the undo", |g| g["undos"] == 1).await;
    assert_eq!(turns(&after_undo).len(), 1);
    let (status, body) = b
        .post(
            &format!("/api/games/{id}/turns"),
            &json!({"turn": "G7", "turn_number": 2}),
            Some(&white),
        )
        .await;
    assert_eq!(status, 409, "{body}");
    // The turn that follows the undo is taken on B and reaches A.
    let mut on_a = Events::open(&a, &id).await;
    on_a.next(WAIT).await;
    b.play(&id, &black, "G7", 1).await;
    let seen = until(&mut on_a, "A hears of B's turn", |g| turns(g).len() == 2).await;
    assert_eq!(turns(&seen)[1].0.to_ascii_lowercase(), "g7");
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL: scripts/test.sh runs it"]
async fn an_account_and_its_session_made_on_one_server_work_on_the_other() {
    let db = shared_db("cluster-accounts");
    let a = TestServer::on(db.clone()).await;
    let b = TestServer::on(db.clone()).await;
    let credentials = json!({"name": "Ada", "password": "a long enough password 1"});
    let r = a
        .client
        .post(a.url("/api/account"))
        .json(&credentials)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 201);
    let cookie = r.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    // The session, at once on B.
    let r = b
        .client
        .get(b.url("/api/account"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let me: Value = r.json().await.unwrap();
    assert_eq!(me["account"]["name"], "Ada", "{me}");
    // Signing in on B, and a second account on B, whose id is not Ada's.
    let (status, body) = b.post("/api/session", &credentials, None).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = b
        .post(
            "/api/account",
            &json!({"name": "Grace", "password": "another long password 2"}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = a
        .post(
            "/api/account",
            &json!({"name": "grace", "password": "another long password 3"}),
            None,
        )
        .await;
    assert_eq!(status, 409, "the name is taken on the other server: {body}");
    let (status, ada) = a.get_json("/api/players/Ada").await;
    assert_eq!(status, 200, "{ada}");
    let (status, grace) = a.get_json("/api/players/Grace").await;
    assert_eq!(status, 200, "{grace}");
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL: scripts/test.sh runs it"]
async fn a_worker_plays_the_ai_for_a_server_that_leaves_it_to_others() {
    let db = shared_db("cluster-worker");
    let server = TestServer::with(db.clone(), |c| c.ai_slots = 0).await;
    let (stop_worker, stopped) = tokio::sync::oneshot::channel::<()>();
    let mut config = sygo_server::Config::new("127.0.0.1:0".parse().unwrap(), db.clone());
    config.ai_slots = 1;
    let worker = tokio::spawn(async move {
        sygo_server::run_worker(&config, || {}, async {
            let _ = stopped.await;
        })
        .await
    });
    let body = against_the_ai(&server).await;
    let id = body["game"]["id"].as_str().unwrap().to_string();
    let black = body["tokens"]["black"].as_str().unwrap().to_string();
    let mut events = Events::open(&server, &id).await;
    events.next(WAIT).await;
    // The AI (White) moves first; each of its turns is the worker's, and
    // reaches the server's watchers.
    // The turns before the AI's next (it may answer before the answer to
    // the person's turn is read).
    let mut played = 0;
    let mut game = replay(&body["game"]);
    for n in 0..3u64 {
        let seen = events
            .until(WAIT, |g| {
                g["turns"].as_array().map(Vec::len) > Some(played) || !g["result"].is_null()
            })
            .await;
        game = replay(&seen);
        if game.position().is_over() {
            break;
        }
        assert_eq!(game.turns().len(), played + 1, "{seen}");
        assert_eq!(seen["turns"][played]["color"], "white", "{seen}");
        let after = server
            .play(&id, &black, &random_turn(&game, n), game.turns().len())
            .await;
        played = game.turns().len() + 1;
        assert!(after["turns"].as_array().map(Vec::len) >= Some(played));
    }
    assert!(game.turns().len() >= 3, "{} turns", game.turns().len());
    let _ = stop_worker.send(());
    worker.await.unwrap().unwrap();
    server.stop().await;
}

/// A new 5×5 game on `server`, Black a person and White the AI (level 1,
/// 100 ms a turn): the answer to its creation.
async fn against_the_ai(server: &TestServer) -> Value {
    let (status, body) = server
        .post(
            "/api/games",
            &json!({"variant": "sygo", "size": 5,
                    "black": {"kind": "human"},
                    "white": {"kind": "ai", "level": 1, "time_ms": 100}}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{body}");
    body
}

/// The game as `server` has it, once `done` holds (it follows the other
/// servers' commits through their notices: not at once).
async fn eventually(
    server: &TestServer,
    id: &str,
    what: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let (_, game) = server.get_json(&format!("/api/games/{id}")).await;
        if done(&game) {
            return game;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{what}: not in time; the game as seen: {game}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL: scripts/test.sh runs it"]
async fn offers_and_presence_made_on_one_server_hold_on_the_other() {
    let db = shared_db("cluster-offers");
    let a = TestServer::on(db.clone()).await;
    let b = TestServer::on(db.clone()).await;
    let (id, black, white) = a.new_game("sygo", 5).await;
    // Black's page says it is open through A: B shows it too.
    let presence = format!("/api/games/{id}/presence");
    let (status, _) = a.post(&presence, &json!({}), Some(&black)).await;
    assert_eq!(status, 204);
    eventually(&b, &id, "Black shown connected on B", |g| {
        g["connected"]["black"] == true && g["connected"]["white"] == false
    })
    .await;
    // The side to move plays through B, then asks through B to take it
    // back; A shows the request, and the other side accepts it through A.
    let game = replay(&a.get_json(&format!("/api/games/{id}")).await.1);
    let first = random_turn(&game, 1);
    let mover = game.position().side_to_move();
    let (mover_token, other_token) = if mover == sygo_rules::Color::Black {
        (&black, &white)
    } else {
        (&white, &black)
    };
    b.play(&id, mover_token, &first, 0).await;
    let (status, body) = b
        .post(
            &format!("/api/games/{id}/undo-request"),
            &json!({"turn_number": 1}),
            Some(mover_token),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let mover_name = mover.lowercase();
    eventually(&a, &id, "the undo request on A", |g| {
        g["undo_request"]["by"] == mover_name && g["undo_request"]["turn_number"] == 1
    })
    .await;
    let (status, body) = a
        .post(
            &format!("/api/games/{id}/undo-answer"),
            &json!({"accept": true}),
            Some(other_token),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    eventually(&b, &id, "the turn taken back on B", |g| {
        g["turns"].as_array().is_some_and(Vec::is_empty) && g["undo_request"].is_null()
    })
    .await;
    // The game ends; Black offers a rematch through A, White accepts it
    // through B: one rematch, which both servers give.
    let (status, body) = a
        .post(&format!("/api/games/{id}/resign"), &json!({}), Some(&black))
        .await;
    assert_eq!(status, 200, "{body}");
    let rematch = format!("/api/games/{id}/rematch");
    let (status, body) = a.post(&rematch, &json!({}), Some(&black)).await;
    assert_eq!(
        (status, body["state"].as_str()),
        (200, Some("offered")),
        "{body}"
    );
    eventually(&b, &id, "Black's rematch offer on B", |g| {
        g["rematch"]["offered_by"] == "black"
    })
    .await;
    let (status, body) = b.post(&rematch, &json!({}), Some(&white)).await;
    assert_eq!(status, 201, "{body}");
    let new_game = body["game"].as_str().unwrap().to_string();
    let on_a = eventually(&a, &id, "the rematch on A", |g| {
        g["rematch"]["game"].is_string()
    })
    .await;
    assert_eq!(on_a["rematch"]["game"], new_game.as_str());
    // Black, asking A again, is sent to the same rematch.
    let (status, body) = a.post(&rematch, &json!({}), Some(&black)).await;
    assert_eq!(
        (status, body["game"].as_str()),
        (200, Some(new_game.as_str())),
        "{body}"
    );
    // A server started afresh reads the same: nothing was only in memory.
    let c = TestServer::on(db.clone()).await;
    let (_, on_c) = c.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(on_c["rematch"]["game"], new_game.as_str(), "{on_c}");
    a.stop().await;
    b.stop().await;
    c.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL: scripts/test.sh runs it"]
async fn a_worker_reviews_a_game_asked_for_on_a_server_that_leaves_the_ai_to_others() {
    let db = shared_db("cluster-review");
    let small = |c: &mut sygo_server::Config| {
        c.ai_slots = 0;
        c.review_visits = Some(16);
    };
    let a = TestServer::with(db.clone(), small).await;
    let b = TestServer::with(db.clone(), small).await;
    let (id, black, white) = a.new_game("sygo", 5).await;
    let mut game = replay(&a.get_json(&format!("/api/games/{id}")).await.1);
    for n in 0..4 {
        let token = if game.position().side_to_move() == sygo_rules::Color::Black {
            &black
        } else {
            &white
        };
        let server = if n % 2 == 0 { &a } else { &b };
        game = replay(
            &server
                .play(&id, token, &random_turn(&game, n), n as usize)
                .await,
        );
    }
    let review = format!("/api/games/{id}/review");
    let (status, body) = a.post(&review, &json!({}), None).await;
    assert_eq!(status, 202, "{body}");
    // No server plays the AI: the review waits, on both servers alike.
    assert_eq!(body["status"], "queued", "{body}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, on_b) = b.get_json(&review).await;
    assert_eq!(on_b["status"], "queued", "{on_b}");
    // A worker takes it, and B serves the result.
    let (stop_worker, stopped) = tokio::sync::oneshot::channel::<()>();
    let mut config = sygo_server::Config::new("127.0.0.1:0".parse().unwrap(), db.clone());
    config.ai_slots = 1;
    config.review_visits = Some(16);
    let worker = tokio::spawn(async move {
        sygo_server::run_worker(&config, || {}, async {
            let _ = stopped.await;
        })
        .await
    });
    let deadline = tokio::time::Instant::now() + WAIT;
    let done = loop {
        let (_, on_b) = b.get_json(&review).await;
        if on_b["status"] == "done" && on_b["positions_done"] == on_b["positions_total"] {
            break on_b;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the review on B: {on_b}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(done["positions_total"], 5, "{done}");
    let positions = done["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 5);
    assert!(
        positions[..4]
            .iter()
            .all(|p| p["visits"].as_u64() >= Some(16)),
        "{done}"
    );
    // A has it too, and asked again it is reviewed already.
    let (_, on_a) = a.get_json(&review).await;
    assert_eq!(on_a["positions"], done["positions"]);
    let (status, _) = a.post(&review, &json!({}), None).await;
    assert_eq!(status, 409);
    let _ = stop_worker.send(());
    worker.await.unwrap().unwrap();
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL: scripts/test.sh runs it"]
async fn a_rematch_asked_for_on_two_servers_at_once_starts_once() {
    let db = shared_db("cluster-one-rematch");
    // No AI plays here: the games stay as the person leaves them.
    let a = TestServer::with(db.clone(), |c| c.ai_slots = 0).await;
    let b = TestServer::with(db.clone(), |c| c.ai_slots = 0).await;
    let body = against_the_ai(&a).await;
    let mut id = body["game"]["id"].as_str().unwrap().to_string();
    let mut token = body["tokens"]["black"].as_str().unwrap().to_string();
    // Against the AI a rematch starts at the first click. The person's two
    // clicks (two tabs, or a retry) reach the two servers at the same
    // moment, several games in a row: each time one rematch starts, and
    // both answers give it.
    for round in 0..6 {
        let (status, body) = a
            .post(&format!("/api/games/{id}/resign"), &json!({}), Some(&token))
            .await;
        assert_eq!(status, 200, "round {round}: {body}");
        eventually(&b, &id, "the resignation on B", |g| !g["result"].is_null()).await;
        let rematch = format!("/api/games/{id}/rematch");
        let empty = json!({});
        let ((status_a, on_a), (status_b, on_b)) = tokio::join!(
            a.post(&rematch, &empty, Some(&token)),
            b.post(&rematch, &empty, Some(&token)),
        );
        assert!(
            matches!((status_a, status_b), (200 | 201, 200 | 201)),
            "round {round}: {status_a} {on_a} / {status_b} {on_b}"
        );
        assert_eq!(on_a["game"], on_b["game"], "round {round}: two rematches");
        assert_eq!(on_a["token"], on_b["token"], "round {round}");
        let stored = query_i64(
            &db,
            &format!("SELECT COUNT(*) FROM games WHERE rematch_of = '{id}'"),
        );
        assert_eq!(stored, 1, "round {round}: rematches stored");
        id = on_a["game"].as_str().unwrap().to_string();
        token = on_a["token"].as_str().unwrap().to_string();
    }
    a.stop().await;
    b.stop().await;
}

/// A server's count of its readings of the accounts of this kind (`whole`,
/// `targeted`), from its metrics.
async fn accounts_reads(server: &TestServer, kind: &str) -> u64 {
    let (status, text) = server.get("/metrics").await;
    assert_eq!(status, 200);
    let series = format!("sygo_accounts_reads_total{{kind=\"{kind}\"}} ");
    text.lines()
        .find_map(|line| line.strip_prefix(series.as_str()))
        .unwrap_or_else(|| panic!("no {series}in the metrics:\n{text}"))
        .parse()
        .unwrap()
}

/// `path` as `server` answers it (anonymously), once `done` holds: it
/// follows the other servers' commits through their notices.
async fn eventually_at(server: &TestServer, path: &str, what: &str, done: impl Fn(&Value) -> bool) {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let (_, body) = server.get_json(path).await;
        if done(&body) {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{what}: not in time; {path} answers {body}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Signs `name` up on `server`: the session's cookie.
async fn sign_up(server: &TestServer, name: &str) -> String {
    let answer = send(
        server,
        Method::POST,
        "/api/account",
        Some(&json!({"name": name, "password": format!("{name}'s long password")})),
        None,
        &[],
    )
    .await;
    assert_eq!(answer.status, 201, "{}", answer.body);
    cookie_of(&answer)
}

fn cookie_of(answer: &common::Answer) -> String {
    let set = answer.set_cookie.as_deref().expect("a session cookie");
    set.split(';').next().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL: scripts/test.sh runs it"]
async fn accounts_changed_on_one_server_are_read_again_account_by_account_on_the_other() {
    let db = shared_db("cluster-accounts-targeted");
    let a = TestServer::on(db.clone()).await;
    let b = TestServer::on(db.clone()).await;
    let targeted_before = accounts_reads(&b, "targeted").await;
    let lobby = |done: fn(&Value, &str) -> bool, id: String| move |l: &Value| done(l, &id);
    let listed = |l: &Value, id: &str| {
        l["challenges"]
            .as_array()
            .is_some_and(|c| c.iter().any(|c| c["id"] == id))
    };
    let unlisted = |l: &Value, id: &str| {
        l["challenges"]
            .as_array()
            .is_some_and(|c| c.iter().all(|c| c["id"] != id))
    };
    // Two accounts made on A: B shows their profiles.
    let ann = sign_up(&a, "Ann").await;
    let bob = sign_up(&a, "Bob").await;
    eventually_at(&b, "/api/players/ann", "Ann on B", |p| p["name"] == "Ann").await;
    eventually_at(&b, "/api/players/bob", "Bob on B", |p| p["name"] == "Bob").await;
    // Ann signs in again on A: that session works on B.
    let again = send(
        &a,
        Method::POST,
        "/api/session",
        Some(&json!({"name": "ann", "password": "Ann's long password"})),
        None,
        &[],
    )
    .await;
    assert_eq!(again.status, 200, "{}", again.body);
    let ann_again = cookie_of(&again);
    let me = send(&b, Method::GET, "/api/account", None, Some(&ann_again), &[]).await;
    assert_eq!(me.status, 200, "{}", me.body);
    assert_eq!(me.body["account"]["name"], "Ann");
    // Ann posts two challenges on A and withdraws the second: B's lobby
    // shows the first only.
    let post = |terms: Value| {
        let (a, ann) = (&a, &ann);
        async move {
            let answer = send(
                a,
                Method::POST,
                "/api/challenges",
                Some(&terms),
                Some(ann),
                &[],
            )
            .await;
            assert_eq!(answer.status, 201, "{}", answer.body);
            answer.body["id"].as_str().unwrap().to_string()
        }
    };
    let rated = post(json!({"variant": "sygo", "size": 5, "color": "black", "rated": true})).await;
    eventually_at(
        &b,
        "/api/lobby",
        "the challenge in B's lobby",
        lobby(listed, rated.clone()),
    )
    .await;
    let other = post(json!({"variant": "hexsygo", "size": 4})).await;
    eventually_at(
        &b,
        "/api/lobby",
        "the second challenge on B",
        lobby(listed, other.clone()),
    )
    .await;
    let withdrawn = send(
        &a,
        Method::DELETE,
        &format!("/api/challenges/{other}"),
        None,
        Some(&ann),
        &[],
    )
    .await;
    assert_eq!(withdrawn.status, 204, "{}", withdrawn.body);
    eventually_at(
        &b,
        "/api/lobby",
        "the withdrawal on B",
        lobby(unlisted, other.clone()),
    )
    .await;
    // Bob accepts the first on A: the game is Ann's and Bob's on B.
    let accepted = send(
        &a,
        Method::POST,
        &format!("/api/challenges/{rated}/accept"),
        None,
        Some(&bob),
        &[],
    )
    .await;
    assert_eq!(accepted.status, 201, "{}", accepted.body);
    let game = accepted.body["game"].as_str().unwrap().to_string();
    let bob_token = common::seat(accepted.body["token"].as_str().unwrap(), &bob);
    let in_game = |name: &'static str, game: String| {
        move |p: &Value| {
            p["games"].as_array().is_some_and(|g| {
                g.iter().any(|g| {
                    g["id"] == game.as_str()
                        && g["opponent"] == json!({"kind": "account", "name": name})
                })
            })
        }
    };
    eventually_at(
        &b,
        "/api/players/Ann",
        "Ann's game on B",
        in_game("Bob", game.clone()),
    )
    .await;
    eventually_at(
        &b,
        "/api/players/Bob",
        "Bob's game on B",
        in_game("Ann", game.clone()),
    )
    .await;
    eventually_at(
        &b,
        "/api/lobby",
        "the accepted challenge off B's lobby",
        lobby(unlisted, rated.clone()),
    )
    .await;
    let ann_lobby = send(&b, Method::GET, "/api/lobby", None, Some(&ann), &[]).await;
    assert_eq!(
        ann_lobby.body["challenges"][0]["accepted_by"], "Bob",
        "{}",
        ann_lobby.body
    );
    // Ann goes on vacation on A, and comes back: B shows both.
    for on in [true, false] {
        let switched = send(
            &a,
            Method::POST,
            "/api/account/vacation",
            Some(&json!({ "on": on })),
            Some(&ann),
            &[],
        )
        .await;
        assert_eq!(switched.status, 200, "{}", switched.body);
        eventually_at(&b, "/api/players/Ann", "Ann's vacation on B", |p| {
            p["on_vacation"] == on
        })
        .await;
    }
    // Bob (White) plays, Ann (Black) resigns on A: both ratings on B.
    let mine = send(&a, Method::GET, "/api/account", None, Some(&ann), &[]).await;
    let ann_token = mine.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == game.as_str())
        .unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let ann_token = common::seat(&ann_token, &ann);
    a.play(&game, &bob_token, "C3", 0).await;
    let (status, body) = a
        .post(
            &format!("/api/games/{game}/resign"),
            &json!({}),
            Some(&ann_token),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    eventually_at(&b, "/api/players/Bob", "Bob's rating on B", |p| {
        p["ratings"]["sygo"]["games"] == 1 && p["ratings"]["sygo"]["rating"].as_f64() > Some(1600.0)
    })
    .await;
    eventually_at(&b, "/api/players/Ann", "Ann's rating on B", |p| {
        p["ratings"]["sygo"]["games"] == 1
            && p["ratings"]["sygo"]["history"][0]["game"] == game.as_str()
    })
    .await;
    // Ann signs out on A: the session no longer works on B.
    let out = send(
        &a,
        Method::DELETE,
        "/api/session",
        None,
        Some(&ann_again),
        &[],
    )
    .await;
    assert_eq!(out.status, 204, "{}", out.body);
    let deadline = tokio::time::Instant::now() + WAIT;
    while send(&b, Method::GET, "/api/account", None, Some(&ann_again), &[])
        .await
        .status
        != 401
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "Ann's session still works on B"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // B followed every change by reading the accounts it named: never
    // every account.
    assert_eq!(accounts_reads(&b, "whole").await, 0);
    let targeted = accounts_reads(&b, "targeted").await;
    assert!(
        targeted > targeted_before + 5,
        "{targeted_before} then {targeted}"
    );
    assert_eq!(accounts_reads(&a, "whole").await, 0);
    a.stop().await;
    b.stop().await;
}
