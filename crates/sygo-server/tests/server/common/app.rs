//! The application called in-process (`sygo_server::app` with
//! `tower::ServiceExt::oneshot`) on a database file of its own, and read
//! again by a fresh application on the same file (a restart).

use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use sygo_server::{AppState, Config, Shutdown, app};
use tower::ServiceExt;

/// The application on a database file, called in-process.
pub struct App {
    pub router: Router,
    pub shutdown: Shutdown,
    pub db: super::Database,
    /// Changes to the default settings, kept across restarts.
    pub settings: fn(&mut Config),
}

impl App {
    pub async fn open(db: super::Database) -> App {
        App::open_with(db, |_| {}).await
    }

    /// The application on `db` with the default settings changed by
    /// `settings`.
    pub async fn open_with(db: super::Database, settings: fn(&mut Config)) -> App {
        let mut config = Config::new("127.0.0.1:0".parse().unwrap(), db.clone());
        settings(&mut config);
        let (state, shutdown) = AppState::open(&config).await.unwrap();
        state.resume_ai();
        App {
            router: app(state),
            shutdown,
            db,
            settings,
        }
    }

    /// Stops the application as `sygo serve` does once its requests are
    /// answered: the AI and the live streams stopped, the database let go.
    pub fn stop(&self) {
        self.shutdown.stop();
        self.shutdown.release_database();
    }

    pub async fn new(name: &str) -> App {
        App::open(super::temp_db(name)).await
    }

    /// The same database read again by a new application.
    pub async fn restart(self) -> App {
        let settings = self.settings;
        self.restart_with(settings).await
    }

    /// The same database read again by a new application with other
    /// settings.
    pub async fn restart_with(self, settings: fn(&mut Config)) -> App {
        self.stop();
        let db = self.db.clone();
        drop(self);
        App::open_with(db, settings).await
    }

    pub async fn call(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
        token: Option<&str>,
    ) -> (u16, Value) {
        let mut request = Request::builder().method(method).uri(path);
        if let Some(token) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        let request = match body {
            Some(body) => request
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string())),
            None => request.body(Body::empty()),
        }
        .unwrap();
        self.send(request).await
    }

    /// Calls with a body of text of a content type.
    pub async fn call_raw(
        &self,
        method: &str,
        path: &str,
        body: &str,
        content_type: &str,
    ) -> (u16, Value) {
        let request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::CONTENT_TYPE, content_type)
            .body(Body::from(body.to_string()))
            .unwrap();
        self.send(request).await
    }

    /// The status and the JSON body (`null` if none) of the answer.
    async fn send(&self, request: Request<Body>) -> (u16, Value) {
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status().as_u16();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    pub async fn game(&self, id: &str) -> Value {
        let (status, game) = self
            .call("GET", &format!("/api/games/{id}"), None, None)
            .await;
        assert_eq!(status, 200, "{game}");
        game
    }

    /// A new game; its id and its tokens (black, white).
    pub async fn create(&self, spec: Value) -> (String, Value) {
        let (status, answer) = self.call("POST", "/api/games", Some(spec), None).await;
        assert_eq!(status, 201, "{answer}");
        (
            answer["game"]["id"].as_str().unwrap().to_string(),
            answer["tokens"].clone(),
        )
    }

    pub async fn play(&self, id: &str, turn: &str, number: u64, token: &str) -> (u16, Value) {
        self.call(
            "POST",
            &format!("/api/games/{id}/turns"),
            Some(json!({"turn": turn, "turn_number": number})),
            Some(token),
        )
        .await
    }

    /// The server's metrics (`GET /metrics`), as text.
    pub async fn metrics(&self) -> String {
        let request = Request::get("/metrics").body(Body::empty()).unwrap();
        let response = self.router.clone().oneshot(request).await.unwrap();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Waits until the metrics have the line `line` (30 s at most).
    pub async fn metrics_show(&self, line: &str) {
        let start = Instant::now();
        loop {
            let text = self.metrics().await;
            if text.lines().any(|l| l == line) {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the metrics never showed {line}: {text}"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Waits until the AI is not thinking.
    pub async fn ai_done(&self, id: &str) -> Value {
        let start = Instant::now();
        loop {
            let game = self.game(id).await;
            if game["ai_thinking"] == json!(false) {
                return game;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the AI answers within 30 s"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}
