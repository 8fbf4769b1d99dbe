//! A real server on a free loopback port with a database of its own, and a
//! client that speaks to it over the socket.

#![allow(dead_code)]

pub mod app;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

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
    pub db: PathBuf,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
    /// Whether the database's folder is removed when the server is dropped
    /// (not when it is restarted on the same database).
    remove_dir: bool,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if self.remove_dir {
            if let Some(dir) = self.db.parent() {
                let _ = std::fs::remove_dir_all(dir);
            }
        }
    }
}

/// A database file of its own for each server of each test, under the
/// build's own folder for test files (what outlives a test stays there).
pub fn temp_db(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "sygo-server-test-{}-{name}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("games.db")
}

impl TestServer {
    /// A server on a new database.
    pub async fn start(name: &str) -> TestServer {
        TestServer::on(temp_db(name)).await
    }

    /// A server on this database.
    pub async fn on(db: PathBuf) -> TestServer {
        TestServer::with(db, |_| {}).await
    }

    /// A server on this database, its settings changed by `set`.
    pub async fn with(db: PathBuf, set: impl FnOnce(&mut Config)) -> TestServer {
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

    /// Shuts the server down and waits for it, keeping its database: the
    /// database's path.
    pub async fn stop_keeping_db(mut self) -> PathBuf {
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

    /// POST a JSON value with an optional token: status and JSON body.
    pub async fn post(&self, path: &str, body: &Value, token: Option<&str>) -> (u16, Value) {
        let mut req = self.client.post(self.url(path)).json(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
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
pub struct Events {
    response: reqwest::Response,
    buffer: String,
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
        }
    }

    /// The next event (comments skipped), within `wait`.
    pub async fn next(&mut self, wait: Duration) -> (String, String, Value) {
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
        .expect("an event in time")
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
