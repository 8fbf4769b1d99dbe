//! Vacation over the socket (`docs/web.md`, "Vacation"): the clock of a
//! correspondence game stops while the player to move is on vacation and
//! the deadline moves on by exactly the time spent on it (kept across a
//! restart), a turn played on vacation is charged without it, a live game
//! is not affected; a vacation whose allowance is used up ends by itself
//! and the clock then runs out; a vacation on survives a restart; bad
//! requests change nothing; the game says until when a side is on
//! vacation, a guest's list of games that its clock is stopped, and the
//! host's list of accounts each account's vacation. Short durations stand for days: the database
//! is aged while the server is stopped (as `manners.rs` does), never the
//! server's clock.

use crate::common;

use std::time::Duration;

use common::{Events, TestServer, code};
use serde_json::{Value, json};

const DAY: i64 = 86_400_000;

/// Sends a request with an optional session cookie and extra headers
/// (`common::send`): status, JSON body, and the `Set-Cookie` header if any.
async fn send(
    s: &TestServer,
    method: reqwest::Method,
    path: &str,
    body: Option<&Value>,
    cookie: Option<&str>,
    headers: &[(&str, &str)],
) -> (u16, Value, Option<String>) {
    let a = common::send(s, method, path, body, cookie, headers).await;
    (a.status, a.body, a.set_cookie)
}

/// Signs up `name`: the session's cookie, to send back.
async fn sign_up(s: &TestServer, name: &str) -> String {
    let (status, body, cookie) = send(
        s,
        reqwest::Method::POST,
        "/api/account",
        Some(&json!({"name": name, "password": "correct horse battery"})),
        None,
        &[],
    )
    .await;
    assert_eq!(status, 201, "{body}");
    cookie
        .expect("a cookie")
        .split(';')
        .next()
        .unwrap()
        .to_string()
}

/// The account signed in with `cookie`: `GET /api/account`.
async fn me(s: &TestServer, cookie: &str) -> Value {
    let (status, body, _) = send(
        s,
        reqwest::Method::GET,
        "/api/account",
        None,
        Some(cookie),
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    body
}

/// Switches the vacation of the account signed in with `cookie`: status
/// and body.
async fn vacation(s: &TestServer, cookie: &str, on: bool) -> (u16, Value) {
    let (status, body, _) = send(
        s,
        reqwest::Method::POST,
        "/api/account/vacation",
        Some(&json!({ "on": on })),
        Some(cookie),
        &[],
    )
    .await;
    (status, body)
}

/// Gives the side whose token it is to the account signed in with `cookie`.
async fn claim(s: &TestServer, cookie: &str, game: &str, token: &str) {
    let (status, body, _) = send(
        s,
        reqwest::Method::POST,
        "/api/account/claims",
        Some(&json!({"claims": [{"game": game, "token": token}]})),
        Some(cookie),
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["claimed"].as_array().unwrap().len(), 1, "{body}");
}

/// A 5×5 game of two people with this clock: its id and the tokens
/// (black, white). White moves first.
async fn game(s: &TestServer, clock: Value) -> (String, String, String) {
    let (status, body) = s
        .post(
            "/api/games",
            &json!({"variant": "sygo", "size": 5, "black": {"kind": "human"},
                    "white": {"kind": "human"}, "clock": clock}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let text = |v: &Value| v.as_str().unwrap().to_string();
    (
        text(&body["game"]["id"]),
        text(&body["tokens"]["black"]),
        text(&body["tokens"]["white"]),
    )
}

/// The clock of a game, as `GET /api/games/{id}` gives it.
async fn clock(s: &TestServer, id: &str) -> Value {
    let (status, game) = s.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(status, 200, "{game}");
    game["clock"].clone()
}

fn ms(v: &Value) -> i64 {
    v.as_i64().unwrap_or_else(|| panic!("a number: {v}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clock_stops_on_vacation_and_the_deadline_moves_by_its_length() {
    let s = TestServer::start("vacation-stops").await;
    let ann = sign_up(&s, "Ann").await;
    let bob = sign_up(&s, "Bob").await;
    let corr = json!({"kind": "correspondence", "days_per_turn": 7, "bank_days": 14});
    let (id, black, white) = game(&s, corr).await;
    claim(&s, &ann, &id, &white).await;
    claim(&s, &bob, &id, &black).await;
    let live = json!({"kind": "fischer", "main_ms": 600000, "increment_ms": 0});
    let (live_id, _, live_white) = game(&s, live).await;
    claim(&s, &ann, &live_id, &live_white).await;
    let d0 = ms(&clock(&s, &id).await["deadline_ms"]);
    let live_d0 = ms(&clock(&s, &live_id).await["deadline_ms"]);
    let off = &me(&s, &ann).await["vacation"];
    assert_eq!(off["on"], false);
    assert_eq!(
        (off["used_ms"].clone(), off["left_ms"].clone()),
        (json!(0), json!(30 * DAY))
    );
    assert_eq!(
        (off["allowance_days"].clone(), off["window_days"].clone()),
        (json!(30), json!(365))
    );

    // Ann, to move in both, goes on vacation.
    let (status, on) = vacation(&s, &ann, true).await;
    assert_eq!(status, 200, "{on}");
    let v = &on["vacation"];
    assert_eq!(v["on"], true);
    let since = ms(&v["since_ms"]);
    assert_eq!(ms(&v["until_ms"]), since + 30 * DAY, "it may last 30 days");
    assert!(v["since"].as_str().unwrap().ends_with('Z'), "{v}");
    assert_eq!(me(&s, &ann).await["vacation"]["since_ms"], since);
    let c = clock(&s, &id).await;
    assert_eq!(c["paused"], true, "{c}");
    assert_eq!(c["running"], "white");
    assert_eq!(
        c["deadline_ms"],
        Value::Null,
        "no deadline to count down to"
    );
    assert_eq!(c["white"]["on_vacation"], true);
    assert_eq!(c["black"]["on_vacation"], false);
    // Until when, at the latest: by the side's clock.
    assert_eq!(ms(&c["white"]["vacation_until_ms"]), since + 30 * DAY);
    assert!(
        c["white"]["vacation_until"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z')),
        "{c}"
    );
    assert_eq!(
        (
            c["black"]["vacation_until"].clone(),
            c["black"]["vacation_until_ms"].clone()
        ),
        (Value::Null, Value::Null)
    );
    assert_eq!(
        ms(&c["paused_left_ms"]),
        d0 - since,
        "the time left when it began"
    );
    // The list of a browser's games (a guest's notice): stopped, no
    // deadline to remind of.
    let (_, chosen) = s.get_json(&format!("/api/games?ids={id},{live_id}")).await;
    let listed = &chosen["games"];
    assert_eq!(
        (
            listed[0]["paused"].clone(),
            listed[0]["deadline_ms"].clone()
        ),
        (json!(true), Value::Null),
        "{chosen}"
    );
    assert_eq!(listed[1]["deadline_ms"], live_d0, "{chosen}");
    // The host sees who is on vacation, since and until when, what is left.
    let accounts = common::off_runtime(|| {
        sygo_server::admin::Admin::open(&s.db)
            .unwrap()
            .accounts()
            .unwrap()
    });
    let (ann_summary, bob_summary) = (&accounts[0], &accounts[1]);
    assert_eq!(ann_summary.name, "Ann");
    assert_eq!(
        ann_summary.vacation_since.as_deref(),
        v["since"].as_str(),
        "{v}"
    );
    assert_eq!(
        ann_summary.vacation_until.as_deref(),
        v["until"].as_str(),
        "{v}"
    );
    assert!(ann_summary.vacation_left_ms <= 30 * DAY && ann_summary.vacation_left_ms > 29 * DAY);
    assert_eq!(
        (
            bob_summary.vacation_since.clone(),
            bob_summary.vacation_until.clone(),
            bob_summary.vacation_used_ms,
            bob_summary.vacation_left_ms
        ),
        (None, None, 0, 30 * DAY)
    );
    // The live game's clock runs on.
    let l = clock(&s, &live_id).await;
    assert_eq!(
        (l["paused"].clone(), l["deadline_ms"].clone()),
        (json!(false), json!(live_d0))
    );
    assert_eq!(l["white"]["on_vacation"], false);
    // Others see it; Ann's notice has no deadline to remind her of.
    let (_, profile) = s.get_json("/api/players/Ann").await;
    assert_eq!(profile["on_vacation"], true);
    let (_, profile) = s.get_json("/api/players/Bob").await;
    assert_eq!(profile["on_vacation"], false);
    let mut notices = Events::open_at(&s, "/api/account/events", Some(&ann)).await;
    let (_, _, notice) = notices.next(Duration::from_secs(30)).await;
    let waiting = notice["your_turn"].as_array().unwrap();
    let corr_notice = waiting.iter().find(|w| w["id"] == id.as_str()).unwrap();
    assert_eq!(corr_notice["paused"], true, "{notice}");
    assert_eq!(corr_notice["deadline_ms"], Value::Null, "{notice}");
    let live_notice = waiting
        .iter()
        .find(|w| w["id"] == live_id.as_str())
        .unwrap();
    assert_eq!(live_notice["deadline_ms"], live_d0, "{notice}");
    drop(notices);

    tokio::time::sleep(Duration::from_millis(300)).await;
    // Still stopped, the time left as it was.
    assert_eq!(ms(&clock(&s, &id).await["paused_left_ms"]), d0 - since);
    let (status, back) = vacation(&s, &ann, false).await;
    assert_eq!(status, 200, "{back}");
    assert_eq!(back["vacation"]["on"], false);
    let used = ms(&back["vacation"]["used_ms"]);
    assert!(used >= 300, "{back}");
    let c = clock(&s, &id).await;
    assert_eq!(c["paused"], false);
    assert_eq!(c["white"]["on_vacation"], false);
    assert_eq!(c["white"]["vacation_until_ms"], Value::Null);
    assert_eq!(
        ms(&c["deadline_ms"]),
        d0 + used,
        "later by the vacation, exactly"
    );
    assert_eq!(clock(&s, &live_id).await["deadline_ms"], live_d0);

    // The credit is kept across a restart, and so is the vacation taken.
    let s = s.restart().await;
    assert_eq!(ms(&clock(&s, &id).await["deadline_ms"]), d0 + used);
    let v = me(&s, &ann).await["vacation"].clone();
    assert_eq!((v["on"].clone(), ms(&v["used_ms"])), (json!(false), used));
    assert_eq!(ms(&v["left_ms"]), 30 * DAY - used);

    // A turn played on vacation is charged without it.
    let (status, on) = vacation(&s, &ann, true).await;
    assert_eq!(status, 200, "{on}");
    let since2 = ms(&on["vacation"]["since_ms"]);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let after = s.play(&id, &white, "C3", 0).await;
    let started = d0 - 7 * DAY;
    let spent = since2 - started - used;
    assert_eq!(
        ms(&after["clock"]["white"]["left_ms"]),
        14 * DAY - spent,
        "7 days less the time off vacation, plus 7: {after}"
    );
    // Bob's turn: his clock runs; Ann is shown on vacation.
    let c = &after["clock"];
    assert_eq!(
        (c["running"].clone(), c["paused"].clone()),
        (json!("black"), json!(false))
    );
    assert_eq!(c["white"]["on_vacation"], true);
    assert_eq!(
        ms(&c["white"]["vacation_until_ms"]),
        since2 + 30 * DAY - used
    );
    assert!(ms(&c["deadline_ms"]) > ms(&c["now_ms"]) + 7 * DAY - 10_000);
    assert_eq!(vacation(&s, &ann, false).await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_ends_when_its_allowance_is_used_up_and_the_clock_then_runs_out() {
    let s = TestServer::start("vacation-used-up").await;
    let ann = sign_up(&s, "Ann").await;
    let bob = sign_up(&s, "Bob").await;
    let corr = json!({"kind": "correspondence", "days_per_turn": 1, "bank_days": 1});
    let (id, black, white) = game(&s, corr).await;
    claim(&s, &ann, &id, &white).await;
    claim(&s, &bob, &id, &black).await;
    s.play(&id, &white, "C3", 0).await;

    // Days pass while the server is stopped: Bob has a minute left of his
    // day (time enough for the steps below on a loaded machine), and 1.5 s
    // of his 30 days of vacation (taken 100 days ago).
    let db = s.stop_keeping_db().await;
    let bob_id = common::query_i64(&db, "SELECT id FROM accounts WHERE name = 'Bob'");
    let started = now_ms() - 100 * DAY;
    common::execute_sql(
        &db,
        &format!(
            "UPDATE turns SET played = played - {} WHERE game_id = '{id}'; \
             INSERT INTO vacations (account_id, started, ended) VALUES ({bob_id}, {started}, {})",
            DAY - 60_000,
            started + 30 * DAY - 1_500
        ),
    );
    let s = TestServer::on(db).await;
    let d0 = ms(&clock(&s, &id).await["deadline_ms"]);
    let v = me(&s, &bob).await["vacation"].clone();
    assert_eq!(ms(&v["left_ms"]), 1_500, "{v}");
    assert_eq!(v["left_days"], 0.0);

    let (status, on) = vacation(&s, &bob, true).await;
    assert_eq!(status, 200, "{on}");
    let since = ms(&on["vacation"]["since_ms"]);
    assert_eq!(ms(&on["vacation"]["until_ms"]), since + 1_500);
    assert_eq!(clock(&s, &id).await["paused"], true);

    // It ends by itself, exactly when the allowance ran out: the clock
    // runs again, 1.5 s later than it would have.
    let mut events = Events::open(&s, &id).await;
    let running = events
        .until(Duration::from_secs(30), |g| {
            g["clock"]["paused"] == false && g["clock"]["black"]["on_vacation"] == false
        })
        .await;
    assert_eq!(ms(&running["clock"]["deadline_ms"]), d0 + 1_500);
    let v = me(&s, &bob).await["vacation"].clone();
    assert_eq!(v["on"], false, "{v}");
    assert_eq!((ms(&v["used_ms"]), ms(&v["left_ms"])), (30 * DAY, 0));
    let summary = common::off_runtime(|| {
        sygo_server::admin::Admin::open(&s.db)
            .unwrap()
            .accounts()
            .unwrap()
    });
    assert_eq!(summary[1].name, "Bob");
    assert_eq!(
        (
            summary[1].vacation_since.clone(),
            summary[1].vacation_used_ms,
            summary[1].vacation_left_ms
        ),
        (None, 30 * DAY, 0),
        "the host's list: none left"
    );

    // No vacation left: refused, and nothing changes.
    let (status, refused) = vacation(&s, &bob, true).await;
    assert_eq!(
        (status, code(&refused)),
        (409, "no_vacation_left"),
        "{refused}"
    );
    assert_eq!(me(&s, &bob).await["vacation"]["on"], false);
    let c = clock(&s, &id).await;
    assert_eq!(
        (c["paused"].clone(), ms(&c["deadline_ms"])),
        (json!(false), d0 + 1_500)
    );

    drop(events);

    // And Bob runs out of time at that deadline. Most of his minute passes
    // while the server is stopped again: a deadline 5 s away, moved as
    // the turn was.
    let db = s.stop_keeping_db().await;
    let shift = d0 + 1_500 - (now_ms() + 5_000);
    common::execute_sql(
        &db,
        &format!("UPDATE turns SET played = played - {shift} WHERE game_id = '{id}'"),
    );
    let s = TestServer::on(db).await;
    let deadline = d0 + 1_500 - shift;
    let mut events = Events::open(&s, &id).await;
    let c = clock(&s, &id).await;
    if c["deadline_ms"].is_number() {
        assert_eq!(ms(&c["deadline_ms"]), deadline, "{c}");
    }
    let over = events
        .until(Duration::from_secs(30), |g| g["status"] == "over")
        .await;
    // Declared by the server's own watcher (no request came), soon after
    // the deadline: the watcher looks every second, and a loaded machine
    // may add some.
    let late = now_ms() - deadline;
    assert!(
        (0..10_000).contains(&late),
        "declared {late} ms after the deadline"
    );
    assert_eq!(over["result"], "W+T");
    assert_eq!(over["last_turn"]["kind"], "timeout");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_survives_a_restart_and_bad_requests_change_nothing() {
    let s = TestServer::start("vacation-restart").await;
    let ann = sign_up(&s, "Ann").await;
    let corr = json!({"kind": "correspondence", "days_per_turn": 3, "bank_days": 6});
    let (id, _, white) = game(&s, corr).await;
    claim(&s, &ann, &id, &white).await;

    // Not signed in, from another site, a body that is not `{"on": bool}`.
    let body = json!({"on": true});
    let (status, e, _) = send(
        &s,
        reqwest::Method::POST,
        "/api/account/vacation",
        Some(&body),
        None,
        &[],
    )
    .await;
    assert_eq!((status, code(&e)), (401, "unauthorized"), "{e}");
    let (status, e, _) = send(
        &s,
        reqwest::Method::POST,
        "/api/account/vacation",
        Some(&body),
        Some(&ann),
        &[("origin", "https://evil.example")],
    )
    .await;
    assert_eq!((status, code(&e)), (403, "cross_site"), "{e}");
    for bad in [
        json!({"on": "yes"}),
        json!({}),
        json!({"on": 1}),
        json!(null),
    ] {
        let (status, e, _) = send(
            &s,
            reqwest::Method::POST,
            "/api/account/vacation",
            Some(&bad),
            Some(&ann),
            &[],
        )
        .await;
        assert_eq!((status, code(&e)), (400, "bad_request"), "{bad}: {e}");
    }
    let (status, e, _) = send(
        &s,
        reqwest::Method::GET,
        "/api/account/vacation",
        None,
        Some(&ann),
        &[],
    )
    .await;
    assert_eq!(status, 405, "{e}");
    assert_eq!(me(&s, &ann).await["vacation"]["on"], false);
    assert_eq!(clock(&s, &id).await["paused"], false);
    // Off when off: as it was.
    let (status, off) = vacation(&s, &ann, false).await;
    assert_eq!((status, off["vacation"]["on"].clone()), (200, json!(false)));
    assert_eq!(off["vacation"]["used_ms"], 0);

    // On, and on again: the same vacation.
    let (_, on) = vacation(&s, &ann, true).await;
    let since = ms(&on["vacation"]["since_ms"]);
    tokio::time::sleep(Duration::from_millis(20)).await;
    let (status, again) = vacation(&s, &ann, true).await;
    assert_eq!((status, ms(&again["vacation"]["since_ms"])), (200, since));
    let left = ms(&clock(&s, &id).await["paused_left_ms"]);

    // Across a restart: still on, since then; the clock still stopped.
    let s = s.restart().await;
    let v = me(&s, &ann).await["vacation"].clone();
    assert_eq!((v["on"].clone(), ms(&v["since_ms"])), (json!(true), since));
    let c = clock(&s, &id).await;
    assert_eq!(
        (c["paused"].clone(), ms(&c["paused_left_ms"])),
        (json!(true), left)
    );
    // Switched off: the deadline is later by the whole vacation.
    let (_, off) = vacation(&s, &ann, false).await;
    let used = ms(&off["vacation"]["used_ms"]);
    let c = clock(&s, &id).await;
    let now = ms(&c["now_ms"]);
    let deadline = ms(&c["deadline_ms"]);
    assert!(
        (deadline - (now + left)).abs() < 2_000,
        "the time left when it began, from now on: {c}"
    );
    assert_eq!(deadline, since + left + used);
}

/// Now, in Unix milliseconds.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}
