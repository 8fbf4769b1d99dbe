//! `sygo serve` as a user runs it: the binary started on a free port with a
//! database file, games played over HTTP, the process killed with SIGKILL
//! and started again on the same file: every game is exactly where it was,
//! and a game where the AI was to move resumes its thinking. Its log holds
//! no secret.
//!
//! With `SYGO_TEST_POSTGRES` naming a PostgreSQL server (`scripts/test.sh`
//! runs the kill, rating and `sygo admin` tests so), the server and `sygo
//! admin` get a new PostgreSQL database instead of the file.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::first_line;

/// A running `sygo serve` and its address.
struct Served {
    child: Child,
    addr: String,
}

impl Served {
    /// Starts the server on `db` and reads the address it prints.
    fn start(db: &Path) -> Served {
        Served::start_logging(db, Stdio::inherit())
    }

    /// Starts the server on `db` with its standard error (its log) going to
    /// `log`.
    fn start_logging(db: &Path, log: Stdio) -> Served {
        Served::start_with(db, &[], None, log)
    }

    /// Starts the server on `db` with more arguments, `RUST_LOG` set to
    /// `filter` (or unset), and its standard error going to `log`.
    fn start_with(db: &Path, args: &[&str], filter: Option<&str>, log: Stdio) -> Served {
        let mut command = Command::new(env!("CARGO_BIN_EXE_sygo"));
        command
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db_arg(db))
            .args(args);
        match filter {
            Some(filter) => command.env("RUST_LOG", filter),
            None => command.env_remove("RUST_LOG"),
        };
        let mut child = command.stdout(Stdio::piped()).stderr(log).spawn().unwrap();
        let line = first_line(&mut child);
        let addr = line
            .trim()
            .strip_prefix("sygo web app: open http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
            .to_string();
        assert!(!addr.ends_with(":0"), "the real port is printed: {addr}");
        Served { child, addr }
    }

    /// One request over a new connection: status and JSON body.
    fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        token: Option<&str>,
    ) -> (u16, Value) {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let auth = token
            .map(|t| format!("Authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n{auth}\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let status: u16 = answer
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("not HTTP: {answer:?}"));
        let (_, text) = answer.split_once("\r\n\r\n").unwrap();
        (status, serde_json::from_str(text).unwrap_or(Value::Null))
    }

    fn get(&self, path: &str) -> Value {
        let (status, body) = self.request("GET", path, None, None);
        assert_eq!(status, 200, "{path}: {body}");
        body
    }

    fn create(&self, body: Value) -> Value {
        let (status, created) = self.request("POST", "/api/games", Some(&body), None);
        assert_eq!(status, 201, "{created}");
        created
    }

    fn play(&self, id: &str, token: &str, turn: &str, number: usize) {
        let (status, body) = self.request(
            "POST",
            &format!("/api/games/{id}/turns"),
            Some(&json!({"turn": turn, "turn_number": number})),
            Some(token),
        );
        assert_eq!(status, 200, "{turn}: {body}");
    }

    /// SIGKILL: no chance to flush or say goodbye.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A folder of the test's own, and the database file in it (on
/// PostgreSQL, a new database that [`db_arg`] names instead).
fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sygo-serve-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.db");
    if let Some((server, name)) = postgres_db(&db) {
        let mut client = postgres::Client::connect(&format!("{server}/postgres"), postgres::NoTls)
            .unwrap_or_else(|e| panic!("connecting to {server}: {e}"));
        client
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap();
    }
    db
}

/// The PostgreSQL server of `SYGO_TEST_POSTGRES` and the name of the
/// database that stands for the file `db`, if the tests run on PostgreSQL.
fn postgres_db(db: &Path) -> Option<(String, String)> {
    let server = std::env::var("SYGO_TEST_POSTGRES")
        .ok()
        .filter(|s| !s.is_empty())?;
    let folder = db.parent()?.file_name()?.to_string_lossy().into_owned();
    let name: String = folder
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .take(63)
        .collect();
    Some((server.trim_end_matches('/').to_string(), name))
}

/// What `--db` is given for the file `db`: the file, or its PostgreSQL
/// database's address.
fn db_arg(db: &Path) -> std::ffi::OsString {
    match postgres_db(db) {
        Some((server, name)) => format!("{server}/{name}").into(),
        None => db.as_os_str().to_owned(),
    }
}

/// What must survive: every game's turns, stones, side to move and status.
fn essentials(game: &Value) -> Value {
    json!({
        "turns": game["turns"], "stones": game["stones"], "to_move": game["to_move"],
        "status": game["status"], "black": game["black"], "white": game["white"],
        "variant": game["variant"], "size": game["size"], "last_turn": game["last_turn"],
    })
}

#[test]
fn games_survive_sigkill_and_the_ai_resumes() {
    let db = temp_db("sigkill");
    let server = Served::start(&db);
    let people = |variant: &str, size: u8| {
        json!({"variant": variant, "size": size,
               "black": {"kind": "human"}, "white": {"kind": "human"}})
    };
    // Two games of people on both boards, with a capture and a growth turn.
    let square = server.create(people("sygo", 5));
    let (sq, sb, sw) = ids(&square);
    for (n, (turn, token)) in [
        ("C3", &sw),
        ("B3", &sb),
        ("pass", &sw),
        ("D3", &sb),
        ("pass", &sw),
        ("C2", &sb),
        ("pass", &sw),
        ("C4", &sb),
    ]
    .iter()
    .enumerate()
    {
        server.play(&sq, token, turn, n);
    }
    let hex = server.create(people("hexsygo", 3));
    let (hx, hb, hw) = ids(&hex);
    for (n, (turn, token)) in [("C3", &hw), ("A1", &hb), ("E5", &hw), ("B1,E3", &hb)]
        .iter()
        .enumerate()
    {
        server.play(&hx, token, turn, n);
    }
    // A game where the AI is White, thinking for 10 s on its first turn
    // when the server is killed (time enough for the reads below on a
    // loaded machine).
    let ai = server.create(
        json!({"variant": "sygo", "size": 7, "black": {"kind": "human"},
                                  "white": {"kind": "ai", "level": 6, "time_ms": 10000}}),
    );
    let ai_id = ai["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(ai["game"]["ai_thinking"], true);
    let before: Vec<Value> = [&sq, &hx, &ai_id]
        .iter()
        .map(|id| server.get(&format!("/api/games/{id}")))
        .collect();
    assert_eq!(before[2]["turn_number"], 0, "the AI has not played yet");
    server.kill();

    let server = Served::start(&db);
    let list = server.get("/api/games");
    assert_eq!(list["games"].as_array().unwrap().len(), 3);
    for (id, was) in [&sq, &hx, &ai_id].iter().zip(&before) {
        let now = server.get(&format!("/api/games/{id}"));
        if *id == &ai_id && now["turn_number"] != 0 {
            continue; // the AI already played again: checked below
        }
        assert_eq!(essentials(&now), essentials(was), "game {id}");
    }
    let square_now = server.get(&format!("/api/games/{sq}"));
    assert_eq!(square_now["stones"]["C3"], "black", "the capture is kept");
    // The tokens still work.
    server.play(&sq, &sw, "A1", 8);
    // The AI resumes, and plays its turn.
    let start = Instant::now();
    loop {
        let game = server.get(&format!("/api/games/{ai_id}"));
        if game["turn_number"] == 1 {
            assert_eq!(game["turns"][0]["color"], "white");
            assert_eq!(game["ai_thinking"], false);
            break;
        }
        assert_eq!(game["ai_thinking"], true, "{game}");
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the AI never played"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // And once more after a second kill, with the turn played since.
    server.kill();
    let server = Served::start(&db);
    let game = server.get(&format!("/api/games/{sq}"));
    assert_eq!(game["turn_number"], 9);
    assert_eq!(game["last_turn"]["turn"], "A1");
    let game = server.get(&format!("/api/games/{ai_id}"));
    assert_eq!(game["turn_number"], 1);
    server.terminate(&format!("/api/games/{sq}/events"));
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

impl Served {
    /// SIGTERM, with a live update stream open: the server stops by itself,
    /// successfully, within seconds.
    fn terminate(mut self, watch: &str) {
        let mut watcher = TcpStream::connect(&self.addr).unwrap();
        write!(
            watcher,
            "GET {watch} HTTP/1.1\r\nHost: {}\r\n\r\n",
            self.addr
        )
        .unwrap();
        let mut first = [0u8; 12];
        watcher.read_exact(&mut first).unwrap();
        assert_eq!(&first, b"HTTP/1.1 200");
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let start = Instant::now();
        loop {
            if let Some(exit) = self.child.try_wait().unwrap() {
                assert!(exit.success(), "{exit}");
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "no shutdown on SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn ids(created: &Value) -> (String, String, String) {
    (
        created["game"]["id"].as_str().unwrap().to_string(),
        created["tokens"]["black"].as_str().unwrap().to_string(),
        created["tokens"]["white"].as_str().unwrap().to_string(),
    )
}

/// The server's log (standard error) never holds a side's token or a
/// creation's request id, whatever the requests: tokens right and wrong,
/// malformed `Authorization` headers, and a failure that is logged (a turn
/// that cannot be stored while another connection locks the database).
#[test]
fn the_log_never_holds_a_secret() {
    let db = temp_db("log");
    let log_path = db.with_file_name("stderr.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let server = Served::start_logging(&db, Stdio::from(log));
    let rid = "log-test-request-id-0123456789";
    let body = json!({"variant": "sygo", "size": 5, "black": {"kind": "human"},
                      "white": {"kind": "human"}, "request_id": rid});
    let created = server.create(body.clone());
    let (id, black, white) = ids(&created);
    let (status, _) = server.request("POST", "/api/games", Some(&body), None);
    assert_eq!(status, 200, "the repeated request gets the game");
    server.play(&id, &white, "C3", 0);
    // Wrong sides, wrong tokens, another game's token, malformed headers.
    let turn = json!({"turn": "A1", "turn_number": 1});
    let turns = format!("/api/games/{id}/turns");
    for token in [
        white.as_str(),
        &black[..31],
        "not a token at all",
        &format!("{black}{black}"),
    ] {
        let (status, _) = server.request("POST", &turns, Some(&turn), Some(token));
        assert!(status == 401 || status == 403, "{token}: {status}");
    }
    let (status, side) =
        server.request("GET", &format!("/api/games/{id}/side"), None, Some(&black));
    assert_eq!((status, side["side"].as_str()), (200, Some("black")));
    // A turn that cannot be stored: another connection holds the database's
    // write lock for longer than the server waits (5 s). Its failure is
    // logged.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let (status, answer) = server.request("POST", &turns, Some(&turn), Some(&black));
    assert_eq!(status, 500, "{answer}");
    conn.execute_batch("COMMIT").unwrap();
    drop(conn);
    server.play(&id, &black, "A1", 1);
    server.terminate(&format!("/api/games/{id}/events"));
    let log = std::fs::read_to_string(&log_path).unwrap();
    assert!(
        log.contains("internal error"),
        "the failure is logged: {log:?}"
    );
    for secret in [black.as_str(), white.as_str(), &black[..31], rid] {
        assert!(!log.contains(secret), "the log holds a secret: {log}");
    }
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

/// A request with extra headers (a cookie): status, the raw head, the body.
fn request_with(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    headers: &[(&str, &str)],
) -> std::io::Result<(u16, String, Value)> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let extra: String = headers
        .iter()
        .map(|(k, v)| format!("{k}: {v}\r\n"))
        .collect();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n{extra}\r\n{body}",
        body.len()
    )?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer)?;
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other("not HTTP"))?;
    let (head, text) = answer
        .split_once("\r\n\r\n")
        .ok_or_else(|| std::io::Error::other("no body"))?;
    Ok((
        status,
        head.to_string(),
        serde_json::from_str(text).unwrap_or(Value::Null),
    ))
}

/// Signs `name` up: its session cookie.
fn sign_up(addr: &str, name: &str) -> String {
    let body = json!({"name": name, "password": "correct horse"});
    let (status, head, _) = request_with(addr, "POST", "/api/account", Some(&body), &[]).unwrap();
    assert_eq!(status, 201);
    head.lines()
        .find_map(|l| l.strip_prefix("set-cookie: "))
        .and_then(|c| c.split(';').next())
        .unwrap()
        .to_string()
}

/// One rated game started through the lobby and resigned by White (Bob):
/// its id once the resignation is acknowledged.
fn rated_game_resigned(addr: &str, ann: &str, bob: &str) -> std::io::Result<String> {
    let terms = json!({"variant": "sygo", "size": 5, "color": "black", "rated": true});
    let (status, _, c) = request_with(
        addr,
        "POST",
        "/api/challenges",
        Some(&terms),
        &[("Cookie", ann)],
    )?;
    if status != 201 {
        return Err(std::io::Error::other(format!("challenge: {status}")));
    }
    let id = c["id"].as_str().unwrap_or_default().to_string();
    let path = format!("/api/challenges/{id}/accept");
    let (status, _, a) = request_with(addr, "POST", &path, None, &[("Cookie", bob)])?;
    if status != 201 {
        return Err(std::io::Error::other(format!("accept: {status}")));
    }
    let game = a["game"].as_str().unwrap_or_default().to_string();
    let auth = format!("Bearer {}", a["token"].as_str().unwrap_or_default());
    let path = format!("/api/games/{game}/resign");
    let (status, _, _) = request_with(
        addr,
        "POST",
        &path,
        Some(&json!({})),
        // An account's token holds with its session's cookie.
        &[("Authorization", &auth), ("Cookie", bob)],
    )?;
    if status != 200 {
        return Err(std::io::Error::other(format!("resign: {status}")));
    }
    Ok(game)
}

#[test]
fn a_rated_game_counts_exactly_once_when_the_server_is_killed_in_the_middle() {
    let db = temp_db("rated-sigkill");
    let server = Served::start(&db);
    let (ann, bob) = (sign_up(&server.addr, "ann"), sign_up(&server.addr, "bob"));
    let mut acknowledged = Vec::new();
    let mut server = server;
    for round in 0..3u64 {
        // Games end one after another until the server is killed, at a
        // moment that falls anywhere in a game.
        let addr = server.addr.clone();
        let (a, b) = (ann.clone(), bob.clone());
        let (ended, endings) = std::sync::mpsc::channel();
        let playing = std::thread::spawn(move || {
            while let Ok(game) = rated_game_resigned(&addr, &a, &b) {
                if ended.send(game).is_err() {
                    break;
                }
            }
        });
        // One game acknowledged first (however slow the machine), then the
        // kill after a while that differs each round.
        let first = endings
            .recv_timeout(Duration::from_secs(60))
            .expect("a rated game ends");
        acknowledged.push(first);
        std::thread::sleep(Duration::from_millis(100 + 170 * round));
        server.kill();
        playing.join().unwrap();
        acknowledged.extend(endings.try_iter());
        server = Served::start(&db);
        // Nothing acknowledged is lost; every rated game over counts once
        // for each player, whatever the moment of the kill.
        for game in &acknowledged {
            assert_eq!(server.get(&format!("/api/games/{game}"))["status"], "over");
        }
        for name in ["ann", "bob"] {
            let profile = server.get(&format!("/api/players/{name}"));
            let over = profile["games"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|g| g["status"] == "over")
                .count();
            let rating = &profile["ratings"]["sygo"];
            assert_eq!(rating["games"], over, "{name} after kill {round}");
            let history: Vec<&Value> = rating["history"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| &h["game"])
                .collect();
            let mut unique = history.clone();
            unique.sort_by_key(|g| g.to_string());
            unique.dedup();
            assert_eq!(unique.len(), history.len(), "no game counts twice");
            assert_eq!(history.len(), over);
        }
    }
    assert!(
        acknowledged.len() >= 3,
        "games were played: {}",
        acknowledged.len()
    );
}

/// `sygo admin` on a database, as the host types it: its standard output,
/// standard error and exit code.
fn admin(db: &Path, args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_sygo"))
        .arg("admin")
        .arg("--db")
        .arg(db_arg(db))
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn the_host_disables_an_account_from_the_command_line_while_the_server_runs() {
    let db = temp_db("admin-cli");
    let server = Served::start(&db);
    sign_up(&server.addr, "ann");
    let (out, _, code) = admin(&db, &["accounts"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("ann ") && out.contains("sessions   1"),
        "{out}"
    );
    assert!(
        out.contains("not on vacation, 30.0 days left in 365"),
        "each account's vacation: {out}"
    );
    let (out, _, code) = admin(&db, &["disable", "ANN"]);
    assert_eq!(code, 0);
    assert!(out.contains("ann is disabled"), "{out}");
    let (_, err, code) = admin(&db, &["disable", "nobody"]);
    assert_eq!(code, 1);
    assert!(err.contains("there is no account \"nobody\""), "{err}");
    let (_, err, code) = admin(&db, &["annul", "ffffffff"]);
    assert_eq!(code, 1);
    assert!(err.contains("changed no rating"), "{err}");
    // The running server reads the change within about a second.
    let body = json!({"name": "ann", "password": "correct horse"});
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (status, _, answer) =
            request_with(&server.addr, "POST", "/api/session", Some(&body), &[]).unwrap();
        if status == 403 {
            assert_eq!(answer["error"]["code"], "disabled");
            break;
        }
        assert!(Instant::now() < deadline, "still signs in: {status}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let (out, _, _) = admin(&db, &["accounts"]);
    assert!(out.contains("disabled"), "{out}");
    // A database that is not a server's (a missing file, an empty
    // PostgreSQL database): refused, named.
    let missing = temp_db("admin-none").with_file_name("missing.db");
    let (_, err, code) = admin(&missing, &["accounts"]);
    assert_eq!(code, 1);
    let named = postgres_db(&missing).map_or("missing.db".to_string(), |(_, name)| name);
    assert!(err.contains(&named), "{err}");
}

/// The log's lines as JSON objects: each line of `--log-format json` is one,
/// with a timestamp, a level, a target and a message.
fn json_lines(log: &str) -> Vec<Value> {
    log.lines()
        .map(|line| {
            let event: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("not a JSON line ({e}): {line:?}\n{log}"));
            assert!(event.is_object(), "{line}");
            for field in ["timestamp", "level", "target", "message"] {
                assert!(event[field].is_string(), "no {field}: {line}");
            }
            event
        })
        .collect()
}

/// Runs a server on `db` with `--log-format json` and `RUST_LOG` set to
/// `filter` (or unset): a game started and looked at, then SIGTERM. Its
/// log, as JSON lines, and the game's id.
fn json_log(db: &Path, filter: Option<&str>) -> (Vec<Value>, String) {
    let log_path = db.with_file_name("stderr.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let server = Served::start_with(db, &["--log-format", "json"], filter, Stdio::from(log));
    let created = server.create(json!({"variant": "sygo", "size": 5,
        "black": {"kind": "human"}, "white": {"kind": "human"}}));
    let (id, _, _) = ids(&created);
    server.get(&format!("/api/games/{id}"));
    server.terminate(&format!("/api/games/{id}/events"));
    let log = std::fs::read_to_string(&log_path).unwrap();
    (json_lines(&log), id)
}

#[test]
fn the_log_is_json_lines_when_asked_with_requests_at_the_debug_level() {
    let db = temp_db("json-log");
    let (events, _) = json_log(&db, None);
    let messages: Vec<&str> = events
        .iter()
        .map(|e| e["message"].as_str().unwrap())
        .collect();
    let serving = events
        .iter()
        .find(|e| e["message"] == "serving")
        .unwrap_or_else(|| panic!("the start is logged: {messages:?}"));
    assert_eq!(serving["level"], "INFO");
    assert!(
        serving["address"]
            .as_str()
            .unwrap()
            .starts_with("127.0.0.1:"),
        "{serving}"
    );
    assert!(
        serving["database"].as_str().unwrap().ends_with("games.db"),
        "{serving}"
    );
    assert!(
        messages.contains(&"shutting down") && messages.contains(&"stopped"),
        "the end is logged: {messages:?}"
    );
    assert!(
        !messages.contains(&"request"),
        "no line per request at the default level: {messages:?}"
    );
    // With the server's DEBUG events: a line per request, with its route
    // template (not the path with the game's id), status and time.
    let (events, id) = json_log(&db, Some("info,sygo_server=debug"));
    let requests: Vec<&Value> = events
        .iter()
        .filter(|e| e["message"] == "request")
        .collect();
    let get = requests
        .iter()
        .find(|e| e["route"] == "/api/games/{id}" && e["method"] == "GET")
        .unwrap_or_else(|| panic!("the GET of the game is logged: {requests:?}"));
    assert_eq!(get["level"], "DEBUG");
    assert_eq!(get["status"], 200);
    assert!(get["latency_ms"].as_f64().unwrap() >= 0.0, "{get}");
    assert!(
        requests
            .iter()
            .any(|e| e["route"] == "/api/games" && e["status"] == 201),
        "{requests:?}"
    );
    assert!(
        requests.iter().all(|e| !e.to_string().contains(&id)),
        "no game id in a request's line: {requests:?}"
    );
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

#[test]
fn a_bad_log_format_or_filter_is_refused() {
    let db = temp_db("bad-log");
    let serve = |args: &[&str], filter: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_sygo"));
        command
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(&db)
            .args(args);
        match filter {
            Some(filter) => command.env("RUST_LOG", filter),
            None => command.env_remove("RUST_LOG"),
        };
        let out = command.output().unwrap();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status.code().unwrap_or(-1),
        )
    };
    let (out, err, code) = serve(&["--log-format", "xml"], None);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "no server started: {out}");
    assert!(
        err.contains("invalid value 'xml' for '--log-format <FORMAT>'")
            && err.contains("[possible values: text, json]"),
        "{err}"
    );
    let (out, err, code) = serve(&[], Some("sygo_server=loudest"));
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty(), "no server started: {out}");
    assert!(err.contains("RUST_LOG is not a log filter"), "{err}");
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}
