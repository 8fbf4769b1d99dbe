//! Accounts over the socket (`docs/web.md`, "Accounts" and "Limits on
//! requests"): sign-up, sign-in and sign-out with the session cookie; a
//! guest's sides claimed and given back to another device; the password
//! changed; everything kept across a restart; an account disabled by the
//! host while the server runs; the rate limits; requests from another site.

use crate::common;

use std::time::{Duration, Instant};

use common::{Answer, TestServer, code, message, send, temp_db};
use serde_json::{Value, json};

/// The `name=value` part of a `Set-Cookie` header, to send back.
fn cookie_of(a: &Answer) -> String {
    let set = a.set_cookie.as_deref().expect("a cookie is set");
    set.split(';').next().unwrap().to_string()
}

async fn sign_up(s: &TestServer, name: &str, password: &str, claims: Value) -> Answer {
    send(
        s,
        reqwest::Method::POST,
        "/api/account",
        Some(&json!({"name": name, "password": password, "claims": claims})),
        None,
        &[],
    )
    .await
}

async fn sign_in(s: &TestServer, name: &str, password: &str) -> Answer {
    send(
        s,
        reqwest::Method::POST,
        "/api/session",
        Some(&json!({"name": name, "password": password})),
        None,
        &[],
    )
    .await
}

async fn me(s: &TestServer, cookie: &str) -> Answer {
    send(
        s,
        reqwest::Method::GET,
        "/api/account",
        None,
        Some(cookie),
        &[],
    )
    .await
}

/// A game against the AI (the person plays Black): its id and Black's token.
async fn game_against_ai(s: &TestServer) -> (String, String) {
    let (status, body) = s
        .post(
            "/api/games",
            &json!({"variant": "sygo", "size": 5, "black": {"kind": "human"},
                    "white": {"kind": "ai", "level": 1, "time_ms": 100}}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{body}");
    (
        body["game"]["id"].as_str().unwrap().to_string(),
        body["tokens"]["black"].as_str().unwrap().to_string(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_sign_in_and_sign_out_with_the_session_cookie() {
    let s = TestServer::start("accounts-session").await;
    let a = sign_up(&s, "Ann_Lee", "correct horse", json!([])).await;
    assert_eq!(a.status, 201, "{}", a.body);
    assert_eq!(a.body["account"]["name"], "Ann_Lee");
    let set = a.set_cookie.clone().unwrap();
    for attribute in [
        "sygo_session=",
        "HttpOnly",
        "SameSite=Lax",
        "Path=/",
        "Max-Age=2592000",
    ] {
        assert!(set.contains(attribute), "{attribute} in {set}");
    }
    assert!(!set.contains("Secure"), "plain HTTP: {set}");
    let cookie = cookie_of(&a);
    let m = me(&s, &cookie).await;
    assert_eq!(m.status, 200, "{}", m.body);
    assert_eq!(m.body["account"]["name"], "Ann_Lee");
    assert_eq!(m.body["games"], json!([]));

    // Bad sign-ups change nothing.
    let taken = sign_up(&s, "ann_lee", "another password", json!([])).await;
    assert_eq!((taken.status, code(&taken.body)), (409, "conflict"));
    assert!(taken.set_cookie.is_none());
    for (name, password, words) in [
        ("al", "long enough", "3 to 20"),
        ("ann lee", "long enough", "other than letters"),
        ("admin", "long enough", "kept back"),
        ("bob", "short", "8 to 128"),
        ("bobbybob", "BobbyBob", "cannot be the name"),
    ] {
        let a = sign_up(&s, name, password, json!([])).await;
        assert_eq!(a.status, 400, "{name}: {}", a.body);
        assert!(message(&a.body).contains(words), "{name}: {}", a.body);
    }
    let missing = send(
        &s,
        reqwest::Method::POST,
        "/api/account",
        Some(&json!({"name": "bob"})),
        None,
        &[],
    )
    .await;
    assert_eq!(missing.status, 400);

    // Wrong passwords and unknown names get one message.
    let wrong = sign_in(&s, "ann_lee", "correct horsf").await;
    let nobody = sign_in(&s, "nobody", "correct horse").await;
    for a in [&wrong, &nobody] {
        assert_eq!(a.status, 401);
        assert_eq!(message(&a.body), "wrong name or password");
        assert!(a.set_cookie.is_none());
    }

    // Another sign-in (any case) is another session.
    let again = sign_in(&s, "ANN_LEE", "correct horse").await;
    assert_eq!(again.status, 200, "{}", again.body);
    let second = cookie_of(&again);
    assert_ne!(second, cookie);

    // Signing out ends that session only, and clears its cookie.
    let out = send(
        &s,
        reqwest::Method::DELETE,
        "/api/session",
        None,
        Some(&cookie),
        &[],
    )
    .await;
    assert_eq!(out.status, 204);
    assert!(out.set_cookie.unwrap().contains("Max-Age=0"));
    let gone = me(&s, &cookie).await;
    assert_eq!(gone.status, 401);
    assert!(
        gone.set_cookie.unwrap().contains("Max-Age=0"),
        "a dead cookie is cleared"
    );
    assert_eq!(me(&s, &second).await.status, 200);
    // Forged cookies sign no one in.
    assert_eq!(
        me(&s, "sygo_session=00000000000000000000000000000000")
            .await
            .status,
        401
    );
    assert_eq!(me(&s, "sygo_session=").await.status, 401);
    let anonymous = send(&s, reqwest::Method::GET, "/api/account", None, None, &[]).await;
    assert_eq!(anonymous.status, 401);
    assert!(anonymous.set_cookie.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guests_sides_are_claimed_and_reach_another_device() {
    let s = TestServer::start("accounts-claims").await;
    let (ai_game, ai_token) = game_against_ai(&s).await;
    let (online, black, white) = s.new_game("hexsygo", 3).await;
    let claims = json!([
        {"game": ai_game, "token": ai_token},
        {"game": online, "token": black},
        {"game": online, "token": black},
        {"game": online, "token": "0123456789abcdef0123456789abcdef"},
        {"game": "ffffffff", "token": black},
        {"game": "../x", "token": black},
    ]);
    let a = sign_up(&s, "ann", "correct horse", claims).await;
    assert_eq!(a.status, 201, "{}", a.body);
    assert_eq!(
        a.body["claimed"],
        json!([{"game": ai_game, "color": "black"}, {"game": online, "color": "black"}])
    );

    // Another device signs in and gets both sides, newest first, each with
    // a token of its session's own: it holds with that session's cookie,
    // not without, nor with another's.
    let other_device = cookie_of(&sign_in(&s, "ann", "correct horse").await);
    let m = me(&s, &other_device).await;
    let sides: Vec<(Value, Value)> = m.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["id"].clone(), g["color"].clone()))
        .collect();
    assert_eq!(
        sides,
        [
            (json!(online), json!("black")),
            (json!(ai_game), json!("black"))
        ]
    );
    let seat_token = m.body["games"][0]["token"].as_str().unwrap().to_string();
    assert_ne!(
        seat_token, black,
        "the game's own token is given to no one again"
    );
    let side = |token: String, cookie: Option<String>| {
        let s = &s;
        let online = online.clone();
        async move {
            let mut req = s
                .client
                .get(s.url(&format!("/api/games/{online}/side")))
                .bearer_auth(token);
            if let Some(cookie) = cookie {
                req = req.header("cookie", cookie);
            }
            req.send().await.unwrap().status().as_u16()
        }
    };
    assert_eq!(
        side(seat_token.clone(), Some(other_device.clone())).await,
        200
    );
    assert_eq!(side(seat_token.clone(), None).await, 401);
    let first_device = cookie_of(&sign_in(&s, "ann", "correct horse").await);
    assert_eq!(side(seat_token.clone(), Some(first_device)).await, 401);
    assert_eq!(
        side(black.clone(), None).await,
        200,
        "the game's own still holds"
    );

    // Bob cannot take Ann's side, but takes White's with its token.
    let bob = cookie_of(&sign_up(&s, "bob", "battery staple", json!([])).await);
    let claim = |token: &str| json!({"claims": [{"game": online, "token": token}]});
    let c = send(
        &s,
        reqwest::Method::POST,
        "/api/account/claims",
        Some(&claim(&black)),
        Some(&bob),
        &[],
    )
    .await;
    assert_eq!(c.status, 200);
    assert_eq!(c.body["claimed"], json!([]));
    assert_eq!(
        c.body["refused"][0]["reason"],
        "this side is another account's"
    );
    let c = send(
        &s,
        reqwest::Method::POST,
        "/api/account/claims",
        Some(&claim(&white)),
        Some(&bob),
        &[],
    )
    .await;
    assert_eq!(
        c.body["claimed"],
        json!([{"game": online, "color": "white"}])
    );
    let nobody = send(
        &s,
        reqwest::Method::POST,
        "/api/account/claims",
        Some(&claim(&white)),
        None,
        &[],
    )
    .await;
    assert_eq!(nobody.status, 401);
    let too_many: Vec<Value> = (0..101)
        .map(|_| json!({"game": online, "token": white}))
        .collect();
    let c = send(
        &s,
        reqwest::Method::POST,
        "/api/account/claims",
        Some(&json!({"claims": too_many})),
        Some(&bob),
        &[],
    )
    .await;
    assert_eq!(c.status, 400);

    // Ann's profile: two games, one against Bob and one against the AI.
    let (status, profile) = s.get_json("/api/players/ANN").await;
    assert_eq!(status, 200);
    assert_eq!(profile["name"], "ann");
    let games = profile["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["id"], online.as_str());
    assert_eq!(
        games[0]["opponent"],
        json!({"kind": "account", "name": "bob"})
    );
    assert_eq!(games[1]["opponent"], json!({"kind": "ai", "level": 1}));
    assert_eq!(games[1]["color"], "black");
    assert!(
        !profile.to_string().contains(&ai_token),
        "no token in a profile"
    );
    assert_eq!(
        profile["against_ai"],
        json!({"won": 0, "lost": 0, "drawn": 0, "playing": 1})
    );
    // Ann resigns against the AI: a loss on her record.
    let (status, _) = s
        .post(
            &format!("/api/games/{ai_game}/resign"),
            &json!({}),
            Some(&ai_token),
        )
        .await;
    assert_eq!(status, 200);
    let (_, profile) = s.get_json("/api/players/ann").await;
    assert_eq!(
        profile["against_ai"],
        json!({"won": 0, "lost": 1, "drawn": 0, "playing": 0})
    );
    assert_eq!(s.get_json("/api/players/nobody").await.0, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_password_ends_the_other_sessions_and_a_restart_keeps_everything() {
    let s = TestServer::start("accounts-password").await;
    let (game, token) = game_against_ai(&s).await;
    let here = cookie_of(
        &sign_up(
            &s,
            "carol",
            "first password",
            json!([{"game": game, "token": token}]),
        )
        .await,
    );
    let there = cookie_of(&sign_in(&s, "carol", "first password").await);
    let change = |current: &str, new: &str| json!({"current": current, "new": new});
    let wrong = send(
        &s,
        reqwest::Method::POST,
        "/api/account/password",
        Some(&change("not it at all", "second password")),
        Some(&here),
        &[],
    )
    .await;
    assert_eq!(wrong.status, 401);
    assert_eq!(me(&s, &there).await.status, 200, "nothing changed");
    let ok = send(
        &s,
        reqwest::Method::POST,
        "/api/account/password",
        Some(&change("first password", "second password")),
        Some(&here),
        &[],
    )
    .await;
    assert_eq!(ok.status, 204, "{}", ok.body);
    assert_eq!(me(&s, &here).await.status, 200);
    assert_eq!(me(&s, &there).await.status, 401);
    assert_eq!(sign_in(&s, "carol", "first password").await.status, 401);
    assert_eq!(sign_in(&s, "carol", "second password").await.status, 200);

    // Everything is kept across a restart: the account, the session, the seat.
    let s = s.restart().await;
    let m = me(&s, &here).await;
    assert_eq!(m.status, 200);
    assert_eq!(m.body["games"][0]["id"], game.as_str());
    assert_eq!(m.body["games"][0]["color"], "black");
    let seat = common::seat(m.body["games"][0]["token"].as_str().unwrap(), &here);
    let (status, _) = s
        .post(
            &format!("/api/games/{game}/resign"),
            &json!({}),
            Some(&seat),
        )
        .await;
    assert_eq!(status, 200, "the seat's token holds after the restart");
    assert_eq!(
        sign_up(&s, "Carol", "whatever else", json!([]))
            .await
            .status,
        409
    );
    let dave = sign_up(&s, "dave", "whatever else", json!([])).await;
    assert_eq!(
        dave.status, 201,
        "a new id after the restart: {}",
        dave.body
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_disables_an_account_while_the_server_runs() {
    let db = temp_db("accounts-admin");
    let s = TestServer::on(db.clone()).await;
    let cookie = cookie_of(&sign_up(&s, "erin", "correct horse", json!([])).await);
    let mut admin = common::off_runtime(|| sygo_server::admin::Admin::open(&db).unwrap());
    common::off_runtime(|| {
        assert_eq!(admin.accounts().unwrap()[0].sessions, 1);
        assert_eq!(admin.set_disabled("ERIN", true).unwrap(), "erin");
        assert!(matches!(
            admin.set_disabled("nobody", true),
            Err(sygo_server::admin::AdminError::NoAccount(_))
        ));
    });
    // The server reads the change within about a second.
    let deadline = Instant::now() + Duration::from_secs(30);
    while me(&s, &cookie).await.status == 200 {
        assert!(Instant::now() < deadline, "the session still works");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let refused = sign_in(&s, "erin", "correct horse").await;
    assert_eq!((refused.status, code(&refused.body)), (403, "disabled"));
    assert_eq!(sign_in(&s, "erin", "wrong password").await.status, 401);
    assert_eq!(s.get_json("/api/players/erin").await.0, 404);
    let summary = common::off_runtime(|| admin.accounts().unwrap().remove(0));
    assert!(summary.disabled);
    assert_eq!(summary.sessions, 0);

    common::off_runtime(|| admin.set_disabled("erin", false).unwrap());
    let deadline = Instant::now() + Duration::from_secs(30);
    while sign_in(&s, "erin", "correct horse").await.status != 200 {
        assert!(Instant::now() < deadline, "enabled again");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        me(&s, &cookie).await.status,
        401,
        "its old sessions stay ended"
    );
    common::off_runtime(move || drop(admin));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_ins_and_games_are_rate_limited_per_address_and_per_account() {
    let s = TestServer::with(temp_db("accounts-limits"), |c| c.trust_proxy = true).await;
    let from = |addr: &'static str| [("x-forwarded-for", addr)];
    let attempt = |name: &'static str, addr: &'static str| {
        let s = &s;
        async move {
            send(
                s,
                reqwest::Method::POST,
                "/api/session",
                Some(&json!({"name": name, "password": "not the password"})),
                None,
                &from(addr),
            )
            .await
        }
    };
    // Ten sign-ins to one account from one address; the eleventh is
    // refused. The bucket gains one every 6 s: one more is let through for
    // each 6 s the attempts took (a loaded machine's password checks are
    // slow). The owner, from another address, still signs in.
    let owner = send(
        &s,
        reqwest::Method::POST,
        "/api/account",
        Some(&json!({"name": "frank", "password": "correct horse"})),
        None,
        &from("10.0.9.9"),
    )
    .await;
    assert_eq!(owner.status, 201, "{}", owner.body);
    let started = Instant::now();
    let mut let_through = 0;
    let limited = loop {
        let answer = attempt("frank", "10.0.0.1").await;
        if answer.status != 401 || let_through == 60 {
            break answer;
        }
        let_through += 1;
    };
    let refilled = started.elapsed().as_secs() as usize / 6;
    assert_eq!((limited.status, code(&limited.body)), (429, "rate_limited"));
    assert!(
        (10..=10 + refilled).contains(&let_through),
        "{let_through} sign-ins let through in {:?}",
        started.elapsed()
    );
    assert!(message(&limited.body).contains("sign-ins to this account from this address"));
    let secs: u64 = limited.retry_after.unwrap().parse().unwrap();
    assert!((1..=6).contains(&secs), "{secs}");
    let signed_in = send(
        &s,
        reqwest::Method::POST,
        "/api/session",
        Some(&json!({"name": "frank", "password": "correct horse"})),
        None,
        &from("10.0.0.2"),
    )
    .await;
    assert_eq!(
        signed_in.status, 200,
        "the owner elsewhere: {}",
        signed_in.body
    );

    // Sixty sign-ins to one account from sixty addresses; then the account
    // takes no more from anywhere (one more a second the attempts took).
    let started = Instant::now();
    let mut let_through = 0;
    let limited = loop {
        let addr: &'static str = Box::leak(format!("10.0.3.{}", let_through + 1).into_boxed_str());
        let answer = attempt("gina", addr).await;
        if answer.status != 401 || let_through == 200 {
            break answer;
        }
        let_through += 1;
    };
    let refilled = started.elapsed().as_secs() as usize;
    assert_eq!((limited.status, code(&limited.body)), (429, "rate_limited"));
    assert!(
        (60..=60 + refilled).contains(&let_through),
        "{let_through} sign-ins let through in {:?}",
        started.elapsed()
    );
    assert!(message(&limited.body).starts_with("too many sign-ins to this account:"));

    // Thirty from one address (to other accounts, each under its own
    // limit); then they are refused, and another address is not. The
    // bucket gains one every 2 s: on a slow machine, where each attempt's
    // password check takes long, one more is let through for each 2 s the
    // attempts took.
    let started = Instant::now();
    let mut let_through = 0;
    let limited = loop {
        let name: &'static str = Box::leak(format!("g{let_through}").into_boxed_str());
        let answer = attempt(name, "10.0.1.1").await;
        if answer.status != 401 || let_through == 60 {
            break answer;
        }
        let_through += 1;
    };
    let refilled = started.elapsed().as_secs() as usize / 2;
    assert_eq!(limited.status, 429, "after {let_through} sign-ins");
    assert!(message(&limited.body).contains("from this address"));
    assert!(
        (30..=30 + refilled).contains(&let_through),
        "{let_through} sign-ins let through in {:?}",
        started.elapsed()
    );
    assert_eq!(attempt("h11", "10.0.1.2").await.status, 401);

    // 120 games at once from one address, then no more. The bucket gains
    // one a second: one more is let through for each second they took.
    let game = json!({"variant": "sygo", "size": 5, "black": {"kind": "human"},
                      "white": {"kind": "human"}});
    let started = Instant::now();
    let mut made = 0;
    let a = loop {
        let a = send(
            &s,
            reqwest::Method::POST,
            "/api/games",
            Some(&game),
            None,
            &from("10.0.2.1"),
        )
        .await;
        if a.status != 201 || made == 1000 {
            break a;
        }
        made += 1;
    };
    let refilled = started.elapsed().as_secs() as usize;
    assert_eq!(a.status, 429);
    assert!(
        (120..=120 + refilled).contains(&made),
        "{made} games made in {:?}",
        started.elapsed()
    );
    assert!(message(&a.body).contains("games started from this address"));
    assert_eq!(
        s.listed_games().await.len(),
        made,
        "the refused one was not made"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_from_another_site_change_nothing() {
    let s = TestServer::start("accounts-cross-site").await;
    let host = s.base.trim_start_matches("http://").to_string();
    let game = json!({"variant": "sygo", "size": 5, "black": {"kind": "human"},
                      "white": {"kind": "human"}});
    let cookie = cookie_of(&sign_up(&s, "mallory", "correct horse", json!([])).await);
    for headers in [
        vec![("origin", "https://evil.example")],
        vec![("origin", "null")],
        vec![("sec-fetch-site", "cross-site")],
        vec![("sec-fetch-site", "same-site")],
    ] {
        let a = send(
            &s,
            reqwest::Method::POST,
            "/api/games",
            Some(&game),
            None,
            &headers,
        )
        .await;
        assert_eq!(
            (a.status, code(&a.body)),
            (403, "cross_site"),
            "{headers:?}"
        );
        let out = send(
            &s,
            reqwest::Method::DELETE,
            "/api/session",
            None,
            Some(&cookie),
            &headers,
        )
        .await;
        assert_eq!(out.status, 403, "{headers:?}");
        assert_eq!(me(&s, &cookie).await.status, 200, "still signed in");
        let read = send(
            &s,
            reqwest::Method::GET,
            "/api/players/mallory",
            None,
            None,
            &headers,
        )
        .await;
        assert_eq!(read.status, 200, "reading from another site is allowed");
    }
    let origin = format!("http://{host}");
    let a = send(
        &s,
        reqwest::Method::POST,
        "/api/games",
        Some(&game),
        None,
        &[
            ("origin", origin.as_str()),
            ("sec-fetch-site", "same-origin"),
        ],
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let (_, list) = s.get_json("/api/games").await;
    assert_eq!(list["games"].as_array().unwrap().len(), 1);
}
