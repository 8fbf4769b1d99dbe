//! Hostile input, sent as an attacker with no account would, over the
//! socket, each attack answered at once with a bounded answer while a
//! hot-seat game's turns are still answered: records made to be large to
//! answer (long, deep, wide), to overflow the reader's stack, to give an
//! absurd komi; floods of uploads, analyses, reviews and password guesses;
//! passwords of spaces and NUL characters. Then a property test: random
//! and mutated records are refused with one clear error or answered with
//! a size linear in their nodes, never a 5xx.

use crate::common;

use std::sync::OnceLock;

use common::{TestServer, code, message, send, temp_db};
use proptest::prelude::*;
use serde_json::{Value, json};

const HEAD: &str = "(;FF[4]GM[400]VR[sygo]SZ[5]";

/// Uploads a record's text: status and answer.
async fn upload(s: &TestServer, text: &str) -> (u16, Value) {
    s.post_raw(
        "/api/records",
        Some("application/x-go-sgf"),
        text.as_bytes().to_vec(),
        None,
    )
    .await
}

/// Every part of an uploaded game's tree: the nodes, and the largest part's
/// size in bytes.
async fn whole_tree(s: &TestServer, id: &str) -> (Vec<Value>, usize) {
    let mut nodes = Vec::new();
    let mut largest = 0;
    let mut from = 0;
    loop {
        let (status, text) = s
            .get(&format!("/api/games/{id}/record/tree?from={from}"))
            .await;
        assert_eq!(status, 200, "{text}");
        largest = largest.max(text.len());
        let part: Value = serde_json::from_str(&text).unwrap();
        nodes.extend(part["nodes"].as_array().unwrap().iter().cloned());
        match part["next"].as_u64() {
            Some(next) => from = next,
            None => return (nodes, largest),
        }
    }
}

/// A hot-seat game on `s`, a turn played: the server still answers.
async fn a_turn_is_still_answered(s: &TestServer) {
    let (id, _, white) = s.new_game("sygo", 5).await;
    s.play(&id, &white, "C3", 0).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_record_is_refused_over_the_limit_and_answered_in_parts_under_it() {
    let s = TestServer::start("hostile-long").await;
    // 16,000 empty nodes (a 16 KB upload) made a 250 MB tree: each node
    // carried its whole path.
    let long = format!("{HEAD}{})", ";".repeat(16_000));
    let (status, answer) = upload(&s, &long).await;
    assert_eq!((status, code(&answer)), (422, "bad_record"), "{answer}");
    assert!(
        message(&answer).contains("16001 nodes: a record here holds at most 10000"),
        "{answer}"
    );
    // 9,999 are taken, and answered in parts of at most a thousand nodes,
    // the whole linear in the nodes.
    let (status, answer) = upload(&s, &format!("{HEAD}{})", ";".repeat(9_999))).await;
    assert_eq!(status, 201, "{answer}");
    let id = answer["game"]["id"].as_str().unwrap().to_string();
    let (nodes, largest) = whole_tree(&s, &id).await;
    assert_eq!(nodes.len(), 10_000);
    assert!(largest < 200_000, "a part of {largest} bytes");
    // The deepest node by its number and by its path (10,000 zeros: a URL
    // of 20 KB): the answer grows with its depth, not its square.
    let (status, deepest) = s
        .get(&format!("/api/games/{id}/record/node?node=9999"))
        .await;
    assert_eq!(status, 200, "{deepest}");
    assert!(deepest.len() < 100_000, "{} bytes", deepest.len());
    a_turn_is_still_answered(&s).await;
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deep_and_wide_variations_are_bounded() {
    let s = TestServer::start("hostile-shapes").await;
    // Variations nested 1,001 deep: refused before they are read.
    let deep = format!("{HEAD}{})", "(;C[x]".repeat(1_001) + &")".repeat(1_001));
    let (status, answer) = upload(&s, &deep).await;
    assert_eq!((status, code(&answer)), (422, "bad_record"), "{answer}");
    assert!(message(&answer).contains("nested 1002 deep"), "{answer}");
    // 999 deep, each with a second variation beside it: taken, its tree
    // linear (each node its numbers, no path).
    let nested = format!("{HEAD}{})", "(;C[y])(;C[x]".repeat(998) + &")".repeat(998));
    let (status, answer) = upload(&s, &nested).await;
    assert_eq!(status, 201, "{answer}");
    let id = answer["game"]["id"].as_str().unwrap().to_string();
    let (nodes, largest) = whole_tree(&s, &id).await;
    assert_eq!(nodes.len(), 1 + 2 * 998);
    assert!(largest < 200_000, "a part of {largest} bytes");
    // 9,000 sibling variations after 900 turns' worth of nodes: the fork's
    // answer lists 9,000 children by number, not 9,000 paths 900 long.
    let wide = format!("{HEAD}{}{})", ";".repeat(900), "(;C[a])".repeat(9_000));
    let (status, answer) = upload(&s, &wide).await;
    assert_eq!(status, 201, "{answer}");
    let id = answer["game"]["id"].as_str().unwrap().to_string();
    let (status, fork) = s
        .get(&format!("/api/games/{id}/record/node?node=900"))
        .await;
    assert_eq!(status, 200, "{fork}");
    let fork_json: Value = serde_json::from_str(&fork).unwrap();
    assert_eq!(fork_json["children"].as_array().unwrap().len(), 9_000);
    assert!(fork.len() < 1_000_000, "{} bytes", fork.len());
    a_turn_is_still_answered(&s).await;
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_made_to_overflow_the_stack_or_give_absurd_values_are_refused() {
    let s = TestServer::start("hostile-stack").await;
    // A long sequence after a bad node, a collection and a game of Go: the
    // SGF reader's nested nodes were freed recursively, which aborted the
    // whole server.
    for text in [
        format!("{HEAD};B[zz]{})", ";".repeat(200_000)),
        format!("{HEAD}{}){HEAD})", ";".repeat(200_000)),
        format!("(;FF[4]GM[1]SZ[5]{})", ";".repeat(200_000)),
        format!("{HEAD}{}C[x](C[y]))", ";".repeat(200_000)),
    ] {
        let (status, answer) = upload(&s, &text).await;
        assert_eq!((status, code(&answer)), (422, "bad_record"), "{answer}");
    }
    for km in ["-1e300", "1001", "NaN", "inf"] {
        let (status, answer) = upload(&s, &format!("(;FF[4]GM[400]VR[sygo]SZ[5]KM[{km}])")).await;
        assert_eq!(
            (status, code(&answer)),
            (422, "bad_record"),
            "{km}: {answer}"
        );
        assert!(
            message(&answer).contains("at most 1000 either way"),
            "{answer}"
        );
    }
    a_turn_is_still_answered(&s).await;
    s.stop().await;
}

/// Requests from one address (`X-Forwarded-For`, the server trusting its
/// proxy) until one is refused: how many were let through, and the refusal.
async fn until_refused(
    s: &TestServer,
    method: reqwest::Method,
    path: &str,
    body: Option<&Value>,
    cookie: Option<&str>,
    addr: &str,
) -> (usize, common::Answer) {
    let mut let_through = 0;
    loop {
        let a = send(
            s,
            method.clone(),
            path,
            body,
            cookie,
            &[("x-forwarded-for", addr)],
        )
        .await;
        if a.status == 429 || let_through == 500 {
            return (let_through, a);
        }
        let_through += 1;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_analyses_reviews_and_password_guesses_are_rate_limited() {
    let s = TestServer::with(temp_db("hostile-floods"), |c| c.trust_proxy = true).await;
    // Each bucket is checked before anything else: a request that fails
    // later (an unknown game, a bad record) counts. Each gains one a few
    // seconds; a slow machine lets one more through for each.
    let started = std::time::Instant::now();
    let refilled = |per_second: f64| (started.elapsed().as_secs_f64() * per_second) as usize + 1;
    let (uploads, refused) = until_refused(
        &s,
        reqwest::Method::POST,
        "/api/records",
        None,
        None,
        "10.1.0.1",
    )
    .await;
    assert!(
        (20..=20 + refilled(1.0 / 6.0)).contains(&uploads),
        "{uploads}"
    );
    assert!(
        message(&refused.body).starts_with("too many records uploaded from this address"),
        "{}",
        refused.body
    );
    assert!(refused.retry_after.is_some());
    let started = std::time::Instant::now();
    let refilled_searches = |n: usize| (started.elapsed().as_secs() as usize) + n;
    for path in ["/api/games/nope/analysis", "/api/games/nope/hint"] {
        let addr = if path.ends_with("analysis") {
            "10.1.0.2"
        } else {
            "10.1.0.3"
        };
        let (n, refused) = until_refused(&s, reqwest::Method::POST, path, None, None, addr).await;
        assert!((60..=refilled_searches(61)).contains(&n), "{path}: {n}");
        assert!(
            message(&refused.body).starts_with("too many hints and analyses from this address"),
            "{}",
            refused.body
        );
    }
    let started = std::time::Instant::now();
    let (reviews, refused) = until_refused(
        &s,
        reqwest::Method::POST,
        "/api/games/nope/review",
        None,
        None,
        "10.1.0.4",
    )
    .await;
    let refilled = (started.elapsed().as_secs() as usize) / 6 + 1;
    assert!((10..=10 + refilled).contains(&reviews), "{reviews}");
    assert!(message(&refused.body).starts_with("too many reviews asked for from this address"));

    // A stolen session guessing the current password: five, then none.
    let signed_up = send(
        &s,
        reqwest::Method::POST,
        "/api/account",
        Some(&json!({"name": "victim", "password": "correct horse"})),
        None,
        &[("x-forwarded-for", "10.1.0.5")],
    )
    .await;
    assert_eq!(signed_up.status, 201, "{}", signed_up.body);
    let cookie = signed_up
        .set_cookie
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let started = std::time::Instant::now();
    let guess = json!({"current": "a wrong guess", "new": "battery staple"});
    let (guesses, refused) = until_refused(
        &s,
        reqwest::Method::POST,
        "/api/account/password",
        Some(&guess),
        Some(&cookie),
        "10.1.0.6",
    )
    .await;
    let refilled = (started.elapsed().as_secs() as usize) / 12 + 1;
    assert!((5..=5 + refilled).contains(&guesses), "{guesses}");
    assert!(message(&refused.body).starts_with("too many password changes for this account"));
    a_turn_is_still_answered(&s).await;
    s.stop().await;
}

/// A value of the server's metrics (`GET /metrics`).
async fn metric(s: &TestServer, name: &str) -> u64 {
    let (_, text) = s.get("/metrics").await;
    text.lines()
        .find_map(|line| line.strip_prefix(&format!("{name} ")))
        .unwrap_or_else(|| panic!("{name} in {text}"))
        .parse()
        .unwrap()
}

/// How many uploaded games a server keeps in memory (`docs/web.md`).
const KEPT_UPLOADS: u64 = 32;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploaded_games_are_not_all_held_in_memory() {
    let s = TestServer::with(temp_db("hostile-kept"), |c| c.rate_limits = false).await;
    let mut ids = Vec::new();
    for i in 0..KEPT_UPLOADS + 8 {
        let (status, body) = upload(&s, &format!("{HEAD}C[upload {i}];W[cc];B[bb])")).await;
        assert_eq!(status, 201, "{body}");
        ids.push(body["game"]["id"].as_str().unwrap().to_string());
    }
    let held = metric(&s, "sygo_uploads_in_memory").await;
    assert_eq!(
        held,
        KEPT_UPLOADS,
        "uploads held after {} uploads",
        ids.len()
    );
    // Every one still answers, read again from the database: its comment,
    // its tree, its record.
    for (i, id) in ids.iter().enumerate() {
        let (status, game) = s.get_json(&format!("/api/games/{id}")).await;
        assert_eq!(status, 200, "{game}");
        assert_eq!(
            game["record"]["comments"][0]["comment"],
            format!("upload {i}")
        );
        assert_eq!(game["turn_number"], 2, "{game}");
        let (nodes, _) = whole_tree(&s, id).await;
        assert_eq!(nodes.len(), 3);
        let (status, sgf) = s.get(&format!("/api/games/{id}/record")).await;
        assert_eq!(status, 200);
        assert!(sgf.contains(&format!("C[upload {i}]")), "{sgf}");
    }
    assert_eq!(metric(&s, "sygo_uploads_in_memory").await, KEPT_UPLOADS);
    // A watched one stays while it is watched, however many are looked at.
    let mut watching = common::Events::open(&s, &ids[0]).await;
    let _ = watching.next(std::time::Duration::from_secs(30)).await;
    for id in &ids[1..] {
        let (status, _) = s.get_json(&format!("/api/games/{id}")).await;
        assert_eq!(status, 200);
    }
    assert_eq!(metric(&s, "sygo_uploads_in_memory").await, KEPT_UPLOADS + 1);
    drop(watching);
    // The games list is of the games played here; `?ids=` finds an upload.
    let (_, list) = s.get_json("/api/games").await;
    assert_eq!(list["games"].as_array().unwrap().len(), 0, "{list}");
    let (_, chosen) = s
        .get_json(&format!("/api/games?ids={},{}", ids[0], ids[1]))
        .await;
    assert_eq!(chosen["games"].as_array().unwrap().len(), 2, "{chosen}");
    assert_eq!(chosen["missing"], json!([]));
    // After a restart none is read until asked for.
    let s = s.restart().await;
    assert_eq!(metric(&s, "sygo_uploads_in_memory").await, 0);
    let (status, game) = s.get_json(&format!("/api/games/{}", ids[7])).await;
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["record"]["comments"][0]["comment"], "upload 7");
    assert_eq!(metric(&s, "sygo_uploads_in_memory").await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_list_comes_in_pages_newest_first() {
    let s = TestServer::with(temp_db("hostile-pages"), |c| c.rate_limits = false).await;
    let mut made = Vec::new();
    for _ in 0..130 {
        made.push(s.new_game("sygo", 5).await.0);
    }
    let (_, upload_answer) = upload(&s, &format!("{HEAD};W[cc])")).await;
    let upload_id = upload_answer["game"]["id"].as_str().unwrap().to_string();
    let (status, first) = s.get_json("/api/games").await;
    assert_eq!(status, 200, "{first}");
    let first_ids: Vec<&str> = first["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(first_ids.len(), 100);
    let next = first["next"].as_str().expect("a next page").to_string();
    let (_, second) = s.get_json(&format!("/api/games?before={next}")).await;
    let second_ids: Vec<&str> = second["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert!(second["next"].is_null(), "{second}");
    let listed: Vec<&str> = first_ids.iter().chain(&second_ids).copied().collect();
    let newest_first: Vec<&str> = made.iter().rev().map(String::as_str).collect();
    assert_eq!(listed, newest_first, "every game once, newest first");
    assert!(!listed.contains(&upload_id.as_str()));
    for bad in [
        "x",
        "12-nothex",
        "-ab12cd34",
        "99999999999999999999999-ab12cd34",
    ] {
        let (status, body) = s.get_json(&format!("/api/games?before={bad}")).await;
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(message(&body).contains("is not a page's cursor"), "{body}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reviews_past_the_queues_bound_are_refused_at_once() {
    let s = TestServer::with(temp_db("hostile-queue"), |c| c.rate_limits = false).await;
    let mut ids = Vec::new();
    for _ in 0..101 {
        let (status, body) = upload(&s, &format!("{HEAD};W[cc];B[bb])")).await;
        assert_eq!(status, 201, "{body}");
        ids.push(body["game"]["id"].as_str().unwrap().to_string());
    }
    // A hundred reviews held by a taker elsewhere, for an hour.
    let until = now_ms() + 3_600_000;
    let values: Vec<String> = ids[..100]
        .iter()
        .map(|id| format!("('review', '{id}', 0, 'elsewhere', {until})"))
        .collect();
    common::execute_sql(
        &s.db,
        &format!(
            "INSERT INTO jobs (kind, game_id, due, taken_by, taken_until) VALUES {};",
            values.join(", ")
        ),
    );
    let (status, body) = s
        .post(&format!("/api/games/{}/review", ids[100]), &json!({}), None)
        .await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(code(&body), "busy");
    assert!(
        message(&body).starts_with("100 reviews are waiting"),
        "{body}"
    );
    let (_, review) = s.get_json(&format!("/api/games/{}/review", ids[100])).await;
    assert_eq!(review["status"], "none", "nothing queued: {review}");
    a_turn_is_still_answered(&s).await;
}

/// Unix milliseconds now.
fn now_ms() -> i64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    i64::try_from(since.as_millis()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_id_is_stored_as_its_digest_alone() {
    let s = TestServer::start("hostile-request-id").await;
    let spec = json!({"variant": "sygo", "size": 5,
        "black": {"kind": "human"}, "white": {"kind": "human"},
        "request_id": "double-click-00007"});
    let (status, first) = s.post("/api/games", &spec, None).await;
    assert_eq!(status, 201, "{first}");
    let (status, again) = s.post("/api/games", &spec, None).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["game"]["id"], first["game"]["id"]);
    assert_eq!(again["tokens"], first["tokens"], "the same tokens again");
    let plain = common::query_i64(
        &s.db,
        "SELECT COUNT(*) FROM games WHERE request_id = 'double-click-00007'",
    );
    assert_eq!(plain, 0, "the request id itself is not stored");
    let digest = common::query_i64(
        &s.db,
        // `printf double-click-00007 | sha256sum`
        "SELECT COUNT(*) FROM games WHERE request_id = \
         'a7a4e35d7d85cee4ed0a8518ea0271e559393f1c736298f9ec5fa18469cd0164'",
    );
    assert_eq!(digest, 1, "its digest is");
    // Still the same game after a restart.
    let s = s.restart().await;
    let (status, again) = s.post("/api/games", &spec, None).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["game"]["id"], first["game"]["id"]);
    assert_eq!(again["tokens"], first["tokens"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn side_tokens_are_stored_as_digests_and_old_ones_are_digested_at_start() {
    let s = TestServer::start("hostile-tokens").await;
    let (id, black, white) = s.new_game("sygo", 5).await;
    let stored = |token: &str| {
        common::query_i64(
            &s.db,
            &format!(
                "SELECT COUNT(*) FROM games WHERE black_token = '{token}' OR white_token = '{token}'"
            ),
        )
    };
    assert_eq!(stored(&black) + stored(&white), 0, "no token as it is");
    assert_eq!(stored(&digest(&black)), 1);
    assert_eq!(stored(&digest(&white)), 1);
    // A database of a server that kept the tokens themselves.
    let old = "00112233445566778899aabbccddeeff";
    let db = s.stop_keeping_db().await;
    common::execute_sql(
        &db,
        &format!("UPDATE games SET white_token = '{old}' WHERE id = '{id}';"),
    );
    let s = TestServer::on(db).await;
    assert_eq!(
        common::query_i64(
            &s.db,
            &format!("SELECT COUNT(*) FROM games WHERE white_token = '{old}'")
        ),
        0,
        "digested at start"
    );
    s.play(&id, old, "C3", 0).await;
    // A rematch keeps each player's token, colours swapped.
    let (status, _) = s
        .post(&format!("/api/games/{id}/resign"), &json!({}), Some(&black))
        .await;
    assert_eq!(status, 200);
    let rematch = format!("/api/games/{id}/rematch");
    let (status, offered) = s.post(&rematch, &json!({}), Some(&black)).await;
    assert_eq!(status, 200, "{offered}");
    let (status, seat) = s.post(&rematch, &json!({}), Some(old)).await;
    assert_eq!(status, 201, "{seat}");
    assert_eq!(seat["color"], "black");
    assert_eq!(seat["token"], old);
    let new = seat["game"].as_str().unwrap();
    let (status, other) = s.get_json_as(&rematch, &black).await;
    assert_eq!(status, 200, "{other}");
    assert_eq!(
        other,
        json!({"game": new, "color": "white", "token": black})
    );
    s.play(new, &black, "C3", 0).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_challenges_are_bounded_per_account_and_in_the_lobby() {
    let s = TestServer::with(temp_db("hostile-lobby"), |c| c.rate_limits = false).await;
    let post = |cookie: String| {
        let s = &s;
        async move {
            send(
                s,
                reqwest::Method::POST,
                "/api/challenges",
                Some(&json!({"variant": "sygo", "size": 5})),
                Some(&cookie),
                &[],
            )
            .await
        }
    };
    let mut posters = Vec::new();
    for i in 0..21 {
        let cookie = common::account(&s, &format!("poster{i:02}")).await;
        for _ in 0..10 {
            let a = post(cookie.clone()).await;
            assert_eq!(a.status, 201, "{}", a.body);
        }
        posters.push(cookie);
    }
    let refused = post(posters[0].clone()).await;
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(
        message(&refused.body).starts_with("you have 10 open challenges"),
        "{}",
        refused.body
    );
    // 210 open challenges: a newcomer sees the newest 200; a poster sees
    // its own 10 besides.
    let newcomer = common::account(&s, "newcomer").await;
    let lobby = |cookie: String| {
        let s = &s;
        async move {
            send(
                s,
                reqwest::Method::GET,
                "/api/lobby",
                None,
                Some(&cookie),
                &[],
            )
            .await
            .body
        }
    };
    let seen = lobby(newcomer).await;
    assert_eq!(seen["challenges"].as_array().unwrap().len(), 200);
    let seen = lobby(posters[0].clone()).await;
    let challenges = seen["challenges"].as_array().unwrap();
    assert_eq!(challenges.len(), 210, "its own 10, and 200 of the others");
    a_turn_is_still_answered(&s).await;
}

/// SHA-256 as 64 hexadecimal digits, as the server keeps a token.
fn digest(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn passwords_of_spaces_or_control_characters_are_refused() {
    let s = TestServer::start("hostile-passwords").await;
    for (i, password) in [
        "        ",
        "\0\0\0\0\0\0\0\0",
        "tab\there ok",
        "line\nbreak1",
    ]
    .into_iter()
    .enumerate()
    {
        let a = send(
            &s,
            reqwest::Method::POST,
            "/api/account",
            Some(&json!({"name": format!("p{i}"), "password": password})),
            None,
            &[],
        )
        .await;
        assert_eq!(
            (a.status, code(&a.body)),
            (400, "bad_request"),
            "{password:?}"
        );
    }
    let a = send(
        &s,
        reqwest::Method::POST,
        "/api/account",
        Some(&json!({"name": "spaced", "password": "  correct horse  "})),
        None,
        &[],
    )
    .await;
    assert_eq!(a.status, 201, "spaces among other characters: {}", a.body);
    s.stop().await;
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_file_is_readable_by_its_owner_alone() {
    use std::os::unix::fs::PermissionsExt;
    let db = temp_db("hostile-file");
    let sygo_server::Database::Sqlite(path) = db.clone() else {
        return; // On PostgreSQL the server makes no file.
    };
    let s = TestServer::on(db).await;
    a_turn_is_still_answered(&s).await;
    let mut files = vec![path.clone()];
    files.push(path.with_extension("db-wal"));
    for file in files.iter().filter(|f| f.exists()) {
        let mode = std::fs::metadata(file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}: {mode:o}", file.display());
    }
    s.stop().await;
}

/// Everything a connection receives until the server closes it, and when.
async fn until_closed(mut stream: tokio::net::TcpStream) -> (String, std::time::Duration) {
    use tokio::io::AsyncReadExt;
    let started = std::time::Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let read = tokio::time::timeout(std::time::Duration::from_secs(60), stream.read(&mut buf))
            .await
            .expect("the server never closed the connection");
        match read {
            Ok(0) | Err(_) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
    (
        String::from_utf8_lossy(&got).into_owned(),
        started.elapsed(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_and_silent_clients_are_cut_off() {
    use tokio::io::AsyncWriteExt;
    use tokio::net::TcpStream;
    let s = TestServer::start("hostile-slow").await;
    let addr = s.base.trim_start_matches("http://").to_string();
    // Headers that never end.
    let mut headers = TcpStream::connect(&addr).await.unwrap();
    headers
        .write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    // A request answered, then the connection kept open and silent.
    let mut idle = TcpStream::connect(&addr).await.unwrap();
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    // A body that stops after two bytes of a thousand.
    let mut body = TcpStream::connect(&addr).await.unwrap();
    body.write_all(
        b"POST /api/records HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n\
          Content-Length: 1000\r\n\r\n(;",
    )
    .await
    .unwrap();
    // Meanwhile everyone else is answered.
    a_turn_is_still_answered(&s).await;
    let (headers, idle, body) = tokio::join!(
        until_closed(headers),
        until_closed(idle),
        until_closed(body)
    );
    // Each is closed after the 10 s of `READ_TIMEOUT` (never before), and
    // within a generous margin (the wait above is 60 s).
    for (what, (_, after)) in [("headers", &headers), ("idle", &idle), ("body", &body)] {
        assert!(after.as_secs_f64() > 8.0, "{what}: closed after {after:?}");
    }
    assert_eq!(
        headers.0, "",
        "nothing is answered to headers that never end"
    );
    assert!(idle.0.starts_with("HTTP/1.1 200"), "{}", idle.0);
    assert!(body.0.starts_with("HTTP/1.1 408"), "{}", body.0);
    assert!(body.0.contains("\"timeout\""), "{}", body.0);
    s.stop().await;
}

/// One server for the property test.
struct Shared {
    runtime: tokio::runtime::Runtime,
    server: TestServer,
}

fn shared() -> &'static Shared {
    static SHARED: OnceLock<Shared> = OnceLock::new();
    SHARED.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let server = runtime.block_on(async {
            TestServer::with(temp_db("hostile-property"), |c| c.rate_limits = false).await
        });
        Shared { runtime, server }
    })
}

/// A piece of a record: nodes, turns, comments, variations nested and side
/// by side, huge values, and SGF's own characters out of place.
fn piece() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just(";".to_string()),
        Just(";W[cc]".to_string()),
        Just(";B[aa]".to_string()),
        Just(";W[]".to_string()),
        (1usize..20_000).prop_map(|n| format!(";C[{}]", "x".repeat(n))),
        (1usize..3_000).prop_map(|n| ";".repeat(n)),
        "[()\\[\\];\\\\A-Za-z]{0,12}",
    ];
    // Repeated only while the text stays near the body's limit (256 KiB).
    let fits = |piece: &str, n: usize| piece.len().saturating_mul(n) < 400_000;
    leaf.prop_recursive(3, 64, 8, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..6).prop_map(|v| v.concat()),
            (inner.clone(), 1usize..2_000).prop_map(move |(p, n)| {
                let p = format!("(;{p})");
                if fits(&p, n) { p.repeat(n) } else { p }
            }),
            (inner, 1usize..1_200).prop_map(move |(p, n)| {
                if fits(&p, 2) && n < 1_200 {
                    format!("{}{p}{}", "(;".repeat(n), ")".repeat(n))
                } else {
                    p
                }
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_records_are_refused_clearly_or_answered_in_bounded_parts(
        body in piece(),
        head in prop_oneof![Just(HEAD.to_string()), Just("(;".to_string()), Just(String::new())],
        close in prop_oneof![Just(")".to_string()), Just(String::new()), Just("))".to_string())],
    ) {
        let shared = shared();
        let text = format!("{head}{body}{close}");
        shared.runtime.block_on(async {
            let s = &shared.server;
            let (status, answer) = upload(s, &text).await;
            match status {
                201 => {
                    let id = answer["game"]["id"].as_str().unwrap().to_string();
                    let (nodes, largest) = whole_tree(s, &id).await;
                    assert_eq!(answer["game"]["record"]["nodes"], nodes.len());
                    // A part: its thousand nodes' fields and the comments
                    // of the upload, which is at most 256 KiB.
                    assert!(largest < 1_000 * 400 + 300_000, "{largest} bytes");
                    let last = nodes.len() - 1;
                    let (status, node) =
                        s.get(&format!("/api/games/{id}/record/node?node={last}")).await;
                    assert_eq!(status, 200, "{node}");
                }
                413 => assert_eq!(code(&answer), "too_large"),
                422 => {
                    assert_eq!(code(&answer), "bad_record");
                    assert!(!message(&answer).is_empty());
                }
                other => panic!("{other}: {answer}"),
            }
        });
    }
}
