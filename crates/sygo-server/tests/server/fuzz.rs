//! Random requests never get a 5xx: random methods, paths (real and made
//! up), content types, tokens and bodies (random bytes, and JSON shaped
//! like the API's with random values), against one server; every error is
//! the JSON of `docs/web.md`.

use crate::common;

use std::sync::OnceLock;

use common::TestServer;
use proptest::prelude::*;
use serde_json::{Value, json};

struct Shared {
    runtime: tokio::runtime::Runtime,
    server: TestServer,
    id: String,
    tokens: [String; 2],
}

fn shared() -> &'static Shared {
    static SHARED: OnceLock<Shared> = OnceLock::new();
    SHARED.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let (server, id, tokens) = runtime.block_on(async {
            let server = TestServer::start("fuzz").await;
            let (id, black, white) = server.new_game("sygo", 5).await;
            server.play(&id, &white, "C3", 0).await;
            (server, id, [black, white])
        });
        Shared {
            runtime,
            server,
            id,
            tokens,
        }
    })
}

/// Text percent-encoded for a path.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn path() -> impl Strategy<Value = String> {
    let id = prop_oneof![
        Just(None),
        any::<String>().prop_map(Some),
        "[0-9a-f]{8}".prop_map(Some)
    ];
    let tail = prop_oneof![
        Just(""),
        Just("/steps"),
        Just("/turns"),
        Just("/resign"),
        Just("/undo"),
        Just("/events"),
        Just("/hint"),
        Just("/analysis"),
        Just("/record"),
        Just("/nothing"),
    ];
    let query = prop_oneof![
        Just(String::new()),
        any::<String>().prop_map(|q| format!("?turn={}", encode(&q))),
        (-3i64..8).prop_map(|n| format!("?turn={n}"))
    ];
    prop_oneof![
        (id, tail, query).prop_map(|(id, tail, query)| {
            let id = match id {
                None => shared().id.clone(),
                Some(text) => encode(&text),
            };
            format!("/api/games/{id}{tail}{query}")
        }),
        Just("/api/games".to_string()),
        Just("/api/records".to_string()),
        Just("/api/position".to_string()),
        Just("/api/position/steps".to_string()),
        Just("/api/position/turns".to_string()),
        any::<String>().prop_map(|p| format!("/{}", encode(&p))),
        any::<String>().prop_map(|p| format!("/static/{}", encode(&p))),
        any::<String>().prop_map(|p| format!("/api/{}", encode(&p))),
    ]
}

fn method() -> impl Strategy<Value = reqwest::Method> {
    prop_oneof![
        Just(reqwest::Method::GET),
        Just(reqwest::Method::POST),
        Just(reqwest::Method::POST),
        Just(reqwest::Method::PUT),
        Just(reqwest::Method::DELETE),
        Just(reqwest::Method::PATCH),
    ]
}

fn content_type() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(None),
        Just(Some("application/json".to_string())),
        Just(Some("application/json".to_string())),
        Just(Some("application/json; charset=utf-8".to_string())),
        Just(Some("application/x-go-sgf".to_string())),
        Just(Some("text/plain".to_string())),
        "[ -~]{0,30}".prop_map(Some),
    ]
}

fn small_json() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-5i64..30).prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        any::<String>().prop_map(Value::from),
        "[A-Za-z][0-9]{1,2}(,[A-Za-z][0-9]{1,2}){0,3}".prop_map(Value::from),
        prop::collection::vec("[A-Za-z][0-9]{1,2}", 0..5).prop_map(|v| json!(v)),
    ]
}

fn body() -> impl Strategy<Value = Vec<u8>> {
    let side = prop_oneof![
        Just(json!({"kind": "human"})),
        small_json().prop_map(|k| json!({"kind": k, "level": 1, "time_ms": 100}))
    ];
    prop_oneof![
        Just(Vec::new()),
        prop::collection::vec(any::<u8>(), 0..300),
        (small_json(), small_json()).prop_map(|(t, n)| json!({"turn": t, "turn_number": n}).to_string().into_bytes()),
        small_json().prop_map(|s| json!({"stones": s}).to_string().into_bytes()),
        (small_json(), small_json()).prop_map(|(t, n)| json!({"time_ms": t, "turn": n}).to_string().into_bytes()),
        (prop_oneof![Just(json!("sygo")), Just(json!("hexsygo")), small_json()], small_json(), small_json(), side.clone(), side)
            .prop_map(|(v, size, komi, b, w)| json!({"variant": v, "size": size, "komi": komi, "black": b, "white": w}).to_string().into_bytes()),
        (position(), small_json(), small_json()).prop_map(|(p, s, t)| json!({"position": p, "stones": s, "turn": t}).to_string().into_bytes()),
        "\\(;FF\\[4\\]GM\\[400\\]VR\\[(sygo|hexsygo)\\]SZ\\[[0-9]{1,2}\\](;[BW]\\[[a-t]{2}\\]){0,6}\\)".prop_map(String::into_bytes),
        any::<String>().prop_map(String::into_bytes),
    ]
}

/// Position strings: good ones, ones a character off, and anything.
fn position() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!("sygo 5 5/5/2W2/5/5 b - 0")),
        Just(json!("hexsygo 2 B1/1W1/2 b g 1")),
        Just(json!("sygo 5 5/5/2W2/5/5 b - 2")),
        "(sygo|hexsygo) [0-9]{1,2} [0-9BW/]{1,30} [bwx] [-g] [0-3]( [BW]\\+R)?"
            .prop_map(Value::from),
        small_json(),
    ]
}

fn token() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(None),
        Just(Some(shared().tokens[0].clone())),
        Just(Some(shared().tokens[1].clone())),
        "[ -~]{0,40}".prop_map(Some),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn random_requests_never_get_a_server_error(
        method in method(),
        path in path(),
        content_type in content_type(),
        token in token(),
        body in body(),
    ) {
        let shared = shared();
        let s = &shared.server;
        let (status, ct, text) = shared.runtime.block_on(async {
            let mut request = s.client.request(method.clone(), s.url(&path)).body(body.clone());
            if let Some(ct) = &content_type {
                request = request.header("content-type", ct.as_str());
            }
            if let Some(token) = &token {
                request = request.header("authorization", format!("Bearer {token}"));
            }
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            let ct = response
                .headers()
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_string();
            // A live stream never ends: its status is enough.
            let text = if ct.starts_with("text/event-stream") {
                String::new()
            } else {
                response.text().await.unwrap()
            };
            (status, ct, text)
        });
        prop_assert!(status < 500, "{method} {path} -> {status}: {text}");
        if status >= 400 {
            prop_assert_eq!(ct.as_str(), "application/json", "{} {} -> {}", method, path, status);
            let error: Value = serde_json::from_str(&text).unwrap();
            prop_assert!(error["error"]["code"].is_string(), "{}", text);
            prop_assert!(error["error"]["message"].is_string(), "{}", text);
        }
    }
}
