//! A real server on a free loopback port with a database of its own, and a
//! client that speaks to it over the socket.
//!
//! The database is a SQLite file, or, when `SYGO_TEST_POSTGRES` names a
//! PostgreSQL server (`postgres://user@host:port`, as
//! `scripts/with-postgres.sh` sets it), a new database on that server: the
//! whole suite runs against either store.

#![allow(dead_code)]

pub mod app;

use std::path::PathBuf;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
pub use sygo_server::Database;

use rand::SeedableRng;
use serde_json::{Value, json};
use sygo_rules::{Game, Geometry, Position, Turn, Variant};
use sygo_server::{Config, Server};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A server running on the test's runtime.
pub struct TestServer {
    pub base: String,
    pub client: reqwest::Client,
    pub db: Database,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
    /// Whether the database's folder is removed when the server is dropped
    /// (not when it is restarted on the same database).
    remove_dir: bool,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if self.remove_dir {
            if let Some(dir) = self.db.path().and_then(|p| p.parent()) {
                let _ = std::fs::remove_dir_all(dir);
            }
        }
    }
}

/// A database of its own for each server of each test: a SQLite file
/// under the build's own folder for test files (what outlives a test stays
/// there), or a new database on the PostgreSQL server of
/// `SYGO_TEST_POSTGRES`.
pub fn temp_db(name: &str) -> Database {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    if let Some(server) = postgres_server() {
        let db_name: String = format!("t{}_{n}_{name}", std::process::id())
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
        postgres_run(&server, &format!("CREATE DATABASE {db_name}"));
        return Database::Postgres(format!("{server}/{db_name}"));
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "sygo-server-test-{}-{name}-{n}",
        std::process::id(),
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Database::Sqlite(dir.join("games.db"))
}

/// The PostgreSQL server the tests run against, if any.
pub fn postgres_server() -> Option<String> {
    std::env::var("SYGO_TEST_POSTGRES")
        .ok()
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_end_matches('/').to_string())
}

/// Runs statements on a PostgreSQL database (`server` alone: its
/// `postgres` database). On a thread of its own: the synchronous client
/// runs a runtime of its own, which cannot start inside a test's.
fn postgres_run(url: &str, sql: &str) {
    let url = if url.matches('/').count() < 3 {
        format!("{url}/postgres")
    } else {
        url.to_string()
    };
    let sql = sql.to_string();
    std::thread::spawn(move || {
        let mut client = postgres::Client::connect(&url, postgres::NoTls)
            .unwrap_or_else(|e| panic!("connecting to {url}: {e}"));
        client
            .batch_execute(&sql)
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    })
    .join()
    .unwrap();
}

/// Runs statements on a server's database behind its back (the server
/// stopped), as a host or a bug might have left it. Plain SQL that both
/// stores take.
pub fn execute_sql(db: &Database, sql: &str) {
    match db {
        Database::Sqlite(path) => rusqlite::Connection::open(path)
            .unwrap()
            .execute_batch(sql)
            .unwrap(),
        Database::Postgres(url) => postgres_run(url, sql),
    }
}

/// The first column of the first row of a query on a server's database.
pub fn query_i64(db: &Database, sql: &str) -> i64 {
    match db {
        Database::Sqlite(path) => rusqlite::Connection::open(path)
            .unwrap()
            .query_row(sql, [], |r| r.get(0))
            .unwrap(),
        Database::Postgres(url) => {
            let (url, sql) = (url.clone(), sql.to_string());
            std::thread::spawn(move || {
                let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
                client.query_one(&sql, &[]).unwrap().get::<_, i64>(0)
            })
            .join()
            .unwrap()
        }
    }
}

/// Runs `f` on a thread of its own and waits for it: for the synchronous
/// clients (`sygo_server::admin::Admin`), which on PostgreSQL run a runtime
/// of their own that cannot start inside a test's.
pub fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| s.spawn(f).join().unwrap())
}

/// Holds every table a turn writes to locked, as another program's long
/// transaction would, until the guard is dropped: the server's writes
/// fail after its wait (SQLite's busy timeout, PostgreSQL's lock timeout).
pub struct WriteLock {
    release: Option<std::sync::mpsc::Sender<()>>,
    holder: Option<std::thread::JoinHandle<()>>,
}

impl WriteLock {
    pub fn hold(db: &Database) -> WriteLock {
        let db = db.clone();
        let (locked_tx, locked_rx) = std::sync::mpsc::channel::<()>();
        let (release, released) = std::sync::mpsc::channel::<()>();
        let holder = std::thread::spawn(move || match db {
            Database::Sqlite(path) => {
                let conn = rusqlite::Connection::open(path).unwrap();
                conn.execute_batch("BEGIN EXCLUSIVE").unwrap();
                locked_tx.send(()).unwrap();
                let _ = released.recv();
                conn.execute_batch("COMMIT").unwrap();
            }
            Database::Postgres(url) => {
                let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
                client
                    .batch_execute(
                        "BEGIN; LOCK TABLE games, turns, rating_changes IN ACCESS EXCLUSIVE MODE",
                    )
                    .unwrap();
                locked_tx.send(()).unwrap();
                let _ = released.recv();
                client.batch_execute("COMMIT").unwrap();
            }
        });
        locked_rx.recv().unwrap();
        WriteLock {
            release: Some(release),
            holder: Some(holder),
        }
    }
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        drop(self.release.take());
        if let Some(holder) = self.holder.take() {
            let _ = holder.join();
        }
    }
}

impl TestServer {
    /// A server on a new database.
    pub async fn start(name: &str) -> TestServer {
        TestServer::on(temp_db(name)).await
    }

    /// A server on this database.
    pub async fn on(db: Database) -> TestServer {
        TestServer::with(db, |_| {}).await
    }

    /// A server on this database, its settings changed by `set`.
    pub async fn with(db: Database, set: impl FnOnce(&mut Config)) -> TestServer {
        let mut config = Config::new("127.0.0.1:0".parse().unwrap(), db.clone());
        set(&mut config);
        let server = Server::bind(config).await.unwrap();
        let base = format!("http://{}", server.local_addr());
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            server
                .run(async {
                    let _ = stopped.await;
                })
                .await
                .unwrap();
        });
        TestServer {
            base,
            client: reqwest::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .unwrap(),
            db,
            stop: Some(stop),
            task: Some(task),
            remove_dir: true,
        }
    }

    /// Shuts the server down, waits for it, and starts a new one on the
    /// same database.
    pub async fn restart(mut self) -> TestServer {
        self.remove_dir = false;
        let db = self.db.clone();
        self.stop().await;
        TestServer::on(db).await
    }

    /// Shuts the server down and waits for it, keeping its database.
    pub async fn stop_keeping_db(mut self) -> Database {
        self.remove_dir = false;
        let db = self.db.clone();
        self.stop().await;
        db
    }

    /// Shuts the server down and waits for it.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            tokio::time::timeout(Duration::from_secs(20), task)
                .await
                .expect("the server shuts down")
                .unwrap();
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// GET: status and body.
    pub async fn get(&self, path: &str) -> (u16, String) {
        let r = self.client.get(self.url(path)).send().await.unwrap();
        (r.status().as_u16(), r.text().await.unwrap())
    }

    /// GET, as JSON.
    pub async fn get_json(&self, path: &str) -> (u16, Value) {
        let (status, body) = self.get(path).await;
        (status, serde_json::from_str(&body).unwrap_or(Value::Null))
    }

    /// GET with a side's token: status and JSON body.
    pub async fn get_json_as(&self, path: &str, token: &str) -> (u16, Value) {
        let r = self
            .client
            .get(self.url(path))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let text = r.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// Every game of the games list, page after page (`next`).
    pub async fn listed_games(&self) -> Vec<Value> {
        let mut games = Vec::new();
        let mut path = "/api/games".to_string();
        loop {
            let (status, page) = self.get_json(&path).await;
            assert_eq!(status, 200, "{page}");
            games.extend(page["games"].as_array().unwrap().iter().cloned());
            match page["next"].as_str() {
                Some(next) => path = format!("/api/games?before={next}"),
                None => return games,
            }
        }
    }

    /// POST JSON with a side's token (or a seat's: [`seat`]): status and
    /// JSON body.
    pub async fn post(&self, path: &str, body: &Value, token: Option<&str>) -> (u16, Value) {
        let mut req = self.client.post(self.url(path)).json(body);
        if let Some(t) = token {
            let (token, cookie) = match t.split_once(SEAT) {
                Some((token, cookie)) => (token, Some(cookie)),
                None => (t, None),
            };
            req = req.bearer_auth(token);
            if let Some(cookie) = cookie {
                req = req.header("cookie", cookie);
            }
        }
        let r = req.send().await.unwrap();
        let status = r.status().as_u16();
        let text = r.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// POST raw bytes with a content type: status and JSON body.
    pub async fn post_raw(
        &self,
        path: &str,
        content_type: Option<&str>,
        body: Vec<u8>,
        token: Option<&str>,
    ) -> (u16, Value) {
        let mut req = self.client.post(self.url(path)).body(body);
        if let Some(ct) = content_type {
            req = req.header("content-type", ct);
        }
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let r = req.send().await.unwrap();
        let status = r.status().as_u16();
        let text = r.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// Starts a game of two people: its id and the tokens (black, white).
    pub async fn new_game(&self, variant: &str, size: u8) -> (String, String, String) {
        let (status, body) = self
            .post(
                "/api/games",
                &json!({"variant": variant, "size": size,
                        "black": {"kind": "human"}, "white": {"kind": "human"}}),
                None,
            )
            .await;
        assert_eq!(status, 201, "{body}");
        (
            body["game"]["id"].as_str().unwrap().to_string(),
            body["tokens"]["black"].as_str().unwrap().to_string(),
            body["tokens"]["white"].as_str().unwrap().to_string(),
        )
    }

    /// Plays a turn that must be accepted; the game after it.
    pub async fn play(&self, id: &str, token: &str, turn: &str, number: usize) -> Value {
        let (status, body) = self
            .post(
                &format!("/api/games/{id}/turns"),
                &json!({"turn": turn, "turn_number": number}),
                Some(token),
            )
            .await;
        assert_eq!(status, 200, "{turn}: {body}");
        body
    }
}

/// Signs up `name` (password "correct horse"): its session's cookie.
pub async fn account(s: &TestServer, name: &str) -> String {
    let a = send(
        s,
        reqwest::Method::POST,
        "/api/account",
        Some(&json!({"name": name, "password": "correct horse"})),
        None,
        &[],
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.body);
    a.set_cookie.unwrap().split(';').next().unwrap().to_string()
}

/// Between a token and a cookie in what [`seat`] makes.
const SEAT: &str = " with cookie ";

/// The credentials of a side an account holds, for [`TestServer::post`]
/// and [`TestServer::play`]: its token as the account's pages get it, which
/// holds with the cookie of the session it was given to.
pub fn seat(token: &str, cookie: &str) -> String {
    format!("{token}{SEAT}{cookie}")
}

/// The error code of an error body.
pub fn code(body: &Value) -> &str {
    body["error"]["code"].as_str().unwrap_or("")
}

/// The error message of an error body.
pub fn message(body: &Value) -> &str {
    body["error"]["message"].as_str().unwrap_or("")
}

/// The game a game JSON describes, replayed by the rules library.
pub fn replay(game: &Value) -> Game {
    let variant = Variant::from_name(game["variant"].as_str().unwrap()).unwrap();
    let g = Geometry::new(variant, game["size"].as_u64().unwrap() as u8).unwrap();
    let mut replayed = Game::new(Position::new(g));
    for t in game["turns"].as_array().unwrap() {
        let turn = Turn::parse(t["turn"].as_str().unwrap(), &g).unwrap();
        replayed.play(turn).unwrap();
    }
    replayed
}

/// A random legal turn for the side to move in `game`, in notation.
pub fn random_turn(game: &Game, seed: u64) -> String {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let stones = game.position().random_turn_stones(&mut rng);
    let g = game.position().geometry();
    if stones.is_empty() {
        "pass".to_string()
    } else {
        Turn::Stones(stones).to_notation(&g)
    }
}

/// Server-sent events read from a response, one `(event, id, data)` at a time.
/// For a game's stream (`/api/games/{id}/events`) the events are also
/// applied to the game as the stream had it ([`apply_event`]), as a page
/// does, and [`Events::next`] gives the game after each.
pub struct Events {
    response: reqwest::Response,
    buffer: String,
    /// The game as the stream had it so far (a game's stream only).
    pub game: Option<Value>,
}

impl Events {
    pub async fn open(server: &TestServer, id: &str) -> Events {
        Events::open_at(server, &format!("/api/games/{id}/events"), None).await
    }

    /// A stream at any path, with a cookie if given.
    pub async fn open_at(server: &TestServer, path: &str, cookie: Option<&str>) -> Events {
        let mut request = server.client.get(server.url(path));
        if let Some(c) = cookie {
            request = request.header("cookie", c);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status().as_u16(), 200);
        let ct = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_string();
        assert!(ct.starts_with("text/event-stream"), "{ct}");
        Events {
            response,
            buffer: String::new(),
            game: None,
        }
    }

    /// The next event as sent (comments skipped), within `wait`: its name,
    /// its id and its data.
    pub async fn next_raw(&mut self, wait: Duration) -> (String, String, Value) {
        self.try_next_raw(wait).await.expect("an event in time")
    }

    /// The next event as sent, or `None` if none comes within `wait`.
    pub async fn try_next_raw(&mut self, wait: Duration) -> Option<(String, String, Value)> {
        tokio::time::timeout(wait, async {
            loop {
                if let Some(end) = self.buffer.find("\n\n") {
                    let block: String = self.buffer.drain(..end + 2).collect();
                    let (mut event, mut id, mut data) =
                        (String::new(), String::new(), String::new());
                    for line in block.lines() {
                        if let Some(v) = line.strip_prefix("event:") {
                            event = v.trim().to_string();
                        } else if let Some(v) = line.strip_prefix("id:") {
                            id = v.trim().to_string();
                        } else if let Some(v) = line.strip_prefix("data:") {
                            data.push_str(v.strip_prefix(' ').unwrap_or(v));
                        }
                    }
                    if event.is_empty() && data.is_empty() {
                        continue; // a comment
                    }
                    return (event, id, serde_json::from_str(&data).unwrap());
                }
                let chunk = self
                    .response
                    .chunk()
                    .await
                    .unwrap()
                    .expect("the stream goes on");
                self.buffer.push_str(&String::from_utf8_lossy(&chunk));
            }
        })
        .await
        .ok()
    }

    /// The next event (comments skipped), within `wait`: its name, its id,
    /// and for a game's events the game after it (the event applied to the
    /// game as the stream had it), else its data.
    pub async fn next(&mut self, wait: Duration) -> (String, String, Value) {
        match self.try_next(wait).await {
            Some(next) => next,
            None => panic!("no event in {wait:?}; the game as seen: {:?}", self.game),
        }
    }

    /// As [`Events::next`], or `None` if no event comes within `wait`.
    pub async fn try_next(&mut self, wait: Duration) -> Option<(String, String, Value)> {
        let (event, id, data) = self.try_next_raw(wait).await?;
        if !matches!(event.as_str(), "game" | "turn" | "change" | "chat") {
            return Some((event, id, data));
        }
        let mut game = self.game.take().unwrap_or(Value::Null);
        if let Err(e) = apply_event(&mut game, &event, &data) {
            panic!("event {event} (id {id}) does not apply: {e}\ndata: {data}\ngame: {game}");
        }
        self.game = Some(game.clone());
        Some((event, id, game))
    }

    /// Events until one satisfies `done`; that one.
    pub async fn until(&mut self, wait: Duration, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let (_, _, game) = self.next(left).await;
            if done(&game) {
                return game;
            }
        }
    }
}

/// The most chat lines a game's JSON carries (the last ones).
pub const CHAT_SHOWN: usize = 100;

/// `(undos, turn_number)` of a game: the order of its states.
fn game_state(game: &Value) -> (i64, u64) {
    (
        game["undos"].as_i64().unwrap_or(0),
        game["turn_number"].as_u64().unwrap_or(0),
    )
}

/// Applies an event of a game's live updates (`docs/web.md`, `GET
/// /api/games/{id}/events`) to the game as it stood, as the game page does
/// (`web/js/game-events.js`), but strictly: an event that does not follow
/// on from `game` (one a page would ignore as old, or answer by fetching
/// the game) is an error, since a test reads its stream in order from the
/// start.
pub fn apply_event(game: &mut Value, event: &str, data: &Value) -> Result<(), String> {
    if event == "game" {
        *game = data.clone();
        return Ok(());
    }
    if !game.is_object() {
        return Err("no game yet: the first event is the whole game".to_string());
    }
    if event == "chat" {
        // The line after the game's last (`chat_total`); the game keeps the
        // last `CHAT_SHOWN` lines.
        let total = game["chat_total"].as_u64().ok_or("no chat_total")?;
        if data["number"].as_u64() != Some(total + 1) {
            return Err(format!("chat line {} after line {total}", data["number"]));
        }
        let chat = game["chat"].as_array_mut().ok_or("no chat")?;
        chat.push(data.clone());
        let over = chat.len().saturating_sub(CHAT_SHOWN);
        chat.drain(..over);
        game["chat_total"] = json!(total + 1);
        return Ok(());
    }
    let (undos, number) = game_state(game);
    let fields = data.as_object().ok_or("the data is not an object")?;
    let event_state = (
        data["undos"].as_i64().ok_or("no undos")?,
        data["turn_number"].as_u64().ok_or("no turn_number")?,
    );
    match event {
        "turn" => {
            if event_state != (undos, number + 1) {
                return Err(format!(
                    "a turn event of state {event_state:?} on the state {:?}",
                    (undos, number)
                ));
            }
            let turn = data["turn"].as_object().ok_or("no turn")?;
            let mut last = turn.clone();
            last.remove("number");
            game["last_turn"] = Value::Object(last);
            let mut listed = serde_json::Map::new();
            for key in ["number", "color", "turn", "kind", "description"] {
                listed.insert(key.to_string(), turn.get(key).cloned().ok_or(key)?);
            }
            game["turns"]
                .as_array_mut()
                .ok_or("no turns")?
                .push(Value::Object(listed));
            let board = data["board"].as_str().ok_or("no board")?;
            let points = game["points"].as_array().ok_or("no points")?;
            if board.chars().count() != points.len() {
                return Err(format!(
                    "a board of {} points for {} points",
                    board.chars().count(),
                    points.len()
                ));
            }
            let (mut stones, mut territory) = (serde_json::Map::new(), serde_json::Map::new());
            for (c, point) in board.chars().zip(points) {
                let name = point["name"]
                    .as_str()
                    .ok_or("a point without a name")?
                    .to_string();
                match c {
                    'B' => stones.insert(name, json!("black")),
                    'W' => stones.insert(name, json!("white")),
                    'b' => territory.insert(name, json!("black")),
                    'w' => territory.insert(name, json!("white")),
                    '.' => None,
                    other => return Err(format!("{other:?} in the board")),
                };
            }
            game["stones"] = Value::Object(stones);
            let mut score = data["score"].clone();
            score["territory"] = Value::Object(territory);
            game["score"] = score;
            game["turn_number"] = json!(event_state.1);
            game["shown_turn"] = json!(event_state.1);
            for (key, value) in fields {
                if !["undos", "turn_number", "turn", "board", "score"].contains(&key.as_str()) {
                    game[key] = value.clone();
                }
            }
            Ok(())
        }
        "change" => {
            if event_state != (undos, number) {
                return Err(format!(
                    "a change event of state {event_state:?} on the state {:?}",
                    (undos, number)
                ));
            }
            for (key, value) in fields {
                if key != "undos" && key != "turn_number" {
                    game[key] = value.clone();
                }
            }
            Ok(())
        }
        other => Err(format!("an unknown event {other:?}")),
    }
}

/// An answer: status, JSON body, and the `Set-Cookie` header if any.
pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub set_cookie: Option<String>,
    pub retry_after: Option<String>,
}

/// Sends a request with an optional session cookie and extra headers.
pub async fn send(
    s: &TestServer,
    method: reqwest::Method,
    path: &str,
    body: Option<&Value>,
    cookie: Option<&str>,
    headers: &[(&str, &str)],
) -> Answer {
    let mut req = s.client.request(method, s.url(path));
    if let Some(b) = body {
        req = req.json(b);
    }
    if let Some(c) = cookie {
        req = req.header(reqwest::header::COOKIE, c);
    }
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let r = req.send().await.unwrap();
    let status = r.status().as_u16();
    let set_cookie = r
        .headers()
        .get(reqwest::header::SET_COOKIE)
        .map(|v| v.to_str().unwrap().to_string());
    let retry_after = r
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    let text = r.text().await.unwrap();
    Answer {
        status,
        body: serde_json::from_str(&text).unwrap_or(Value::Null),
        set_cookie,
        retry_after,
    }
}
