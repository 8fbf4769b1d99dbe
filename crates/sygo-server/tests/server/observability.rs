//! What the host of a server behind a load balancer reads (`docs/web.md`,
//! "Health, readiness, metrics and logs"): `GET /healthz`, `GET /readyz`
//! (also while the server shuts down) and `GET /metrics`, read as
//! Prometheus reads it: every line checked, every sample under a declared
//! family, every histogram whole. The requests are counted by route
//! template with bounded labels (no game id in any of them), turns played
//! and the histogram's count go up by exactly what was done, open live
//! streams are counted while open, and two servers in one process count
//! apart.

use crate::common;

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use common::app::App;
use common::{Events, TestServer, temp_db};
use serde_json::json;

/// One sample of the text format: its name, its labels, its value.
#[derive(Debug, Clone)]
struct Sample {
    name: String,
    labels: BTreeMap<String, String>,
    value: f64,
}

/// Whether a name is a metric or label name of the text format.
fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == ':')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
}

/// A sample's value: a float, `+Inf`, `-Inf` or `NaN`.
fn value_of(text: &str) -> Option<f64> {
    match text {
        "+Inf" => Some(f64::INFINITY),
        "-Inf" => Some(f64::NEG_INFINITY),
        "NaN" => Some(f64::NAN),
        _ => text.parse().ok(),
    }
}

/// The labels of a sample line after its `{`: the labels and the rest of
/// the line after the `}`.
fn labels_of(mut rest: &str, line: &str) -> (BTreeMap<String, String>, String) {
    let mut labels = BTreeMap::new();
    loop {
        rest = rest.trim_start_matches(',');
        if let Some(after) = rest.strip_prefix('}') {
            return (labels, after.to_string());
        }
        let (key, after) = rest
            .split_once("=\"")
            .unwrap_or_else(|| panic!("a label without =\": {line:?}"));
        assert!(is_name(key), "label name {key:?}: {line:?}");
        let mut value = String::new();
        let mut chars = after.char_indices();
        let end = loop {
            match chars.next() {
                Some((_, '\\')) => match chars.next() {
                    Some((_, '\\')) => value.push('\\'),
                    Some((_, '"')) => value.push('"'),
                    Some((_, 'n')) => value.push('\n'),
                    other => panic!("escape {other:?}: {line:?}"),
                },
                Some((i, '"')) => break i,
                Some((_, c)) => value.push(c),
                None => panic!("an unclosed label value: {line:?}"),
            }
        };
        assert!(
            labels.insert(key.to_string(), value).is_none(),
            "label {key} twice: {line:?}"
        );
        rest = &after[end + 1..];
    }
}

/// The text format (Prometheus 0.0.4) read strictly: `# HELP` and `# TYPE`
/// lines, then samples `name{labels} value`, each of a family whose type
/// was declared before it (a histogram's `_bucket`, `_sum` and `_count`;
/// a bucket has `le`, the `+Inf` bucket equals the count). Panics on
/// anything else.
fn parse(text: &str) -> Vec<Sample> {
    assert!(text.ends_with('\n'), "the text ends with a newline");
    let mut types: HashMap<String, String> = HashMap::new();
    let mut samples = Vec::new();
    for line in text.lines() {
        if line.is_empty() {
            continue;
        }
        if let Some(comment) = line.strip_prefix("# ") {
            let mut words = comment.splitn(3, ' ');
            match (words.next(), words.next(), words.next()) {
                (Some("TYPE"), Some(name), Some(kind)) => {
                    assert!(is_name(name), "{line:?}");
                    assert!(
                        ["counter", "gauge", "histogram", "summary", "untyped"].contains(&kind),
                        "{line:?}"
                    );
                    assert!(
                        types.insert(name.to_string(), kind.to_string()).is_none(),
                        "{name} declared twice"
                    );
                }
                (Some("HELP"), Some(name), _) => assert!(is_name(name), "{line:?}"),
                _ => {}
            }
            continue;
        }
        let name_end = line
            .find(['{', ' '])
            .unwrap_or_else(|| panic!("a sample without a value: {line:?}"));
        let name = &line[..name_end];
        assert!(is_name(name), "sample name {name:?}: {line:?}");
        let (labels, rest) = if line[name_end..].starts_with('{') {
            labels_of(&line[name_end + 1..], line)
        } else {
            (BTreeMap::new(), line[name_end..].to_string())
        };
        let mut fields = rest.split_whitespace();
        let value = fields
            .next()
            .and_then(value_of)
            .unwrap_or_else(|| panic!("no value: {line:?}"));
        if let Some(timestamp) = fields.next() {
            assert!(timestamp.parse::<i64>().is_ok(), "timestamp: {line:?}");
        }
        assert!(fields.next().is_none(), "more after the value: {line:?}");
        let family = ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|suffix| {
                let base = name.strip_suffix(suffix)?;
                (types.get(base).map(String::as_str) == Some("histogram")).then_some(base)
            })
            .unwrap_or(name);
        let kind = types
            .get(family)
            .unwrap_or_else(|| panic!("{name} has no TYPE before it"));
        if kind == "histogram" {
            assert_ne!(
                family, name,
                "a histogram's samples have suffixes: {line:?}"
            );
        }
        if name.ends_with("_bucket") && kind == "histogram" {
            assert!(labels.contains_key("le"), "a bucket without le: {line:?}");
        }
        if kind == "counter" {
            assert!(value >= 0.0, "a negative counter: {line:?}");
        }
        samples.push(Sample {
            name: name.to_string(),
            labels,
            value,
        });
    }
    // Each histogram's +Inf bucket is its count.
    for s in samples.iter().filter(|s| s.name.ends_with("_count")) {
        let base = s.name.strip_suffix("_count").unwrap();
        if types.get(base).map(String::as_str) != Some("histogram") {
            continue;
        }
        let mut inf = s.labels.clone();
        inf.insert("le".to_string(), "+Inf".to_string());
        let bucket = samples
            .iter()
            .find(|b| b.name == format!("{base}_bucket") && b.labels == inf)
            .unwrap_or_else(|| panic!("no +Inf bucket for {s:?}"));
        assert_eq!(bucket.value, s.value, "{base}: +Inf bucket and count");
    }
    samples
}

/// The value of the sample `name` with exactly these labels, if any.
fn value(samples: &[Sample], name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    let labels: BTreeMap<String, String> = labels
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    samples
        .iter()
        .find(|s| s.name == name && s.labels == labels)
        .map(|s| s.value)
}

/// `GET /metrics`, checked and read.
async fn metrics(s: &TestServer) -> (String, Vec<Sample>) {
    let r = s.client.get(s.url("/metrics")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let content_type = r.headers()["content-type"].to_str().unwrap().to_string();
    assert_eq!(content_type, "text/plain; version=0.0.4; charset=utf-8");
    let text = r.text().await.unwrap();
    let samples = parse(&text);
    (text, samples)
}

/// A plain-text answer: status, content type, body.
async fn plain(s: &TestServer, path: &str) -> (u16, String, String) {
    let r = s.client.get(s.url(path)).send().await.unwrap();
    let status = r.status().as_u16();
    let content_type = r.headers()["content-type"].to_str().unwrap().to_string();
    (status, content_type, r.text().await.unwrap())
}

const TURNS: &str = "/api/games/{id}/turns";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_and_readiness_answer_in_plain_text() {
    let s = TestServer::start("obs-health").await;
    let (status, content_type, body) = plain(&s, "/healthz").await;
    assert_eq!((status, body.as_str()), (200, "ok"));
    assert_eq!(content_type, "text/plain; charset=utf-8");
    let (status, content_type, body) = plain(&s, "/readyz").await;
    assert_eq!((status, body.as_str()), (200, "ready"));
    assert_eq!(content_type, "text/plain; charset=utf-8");
    // Another method is refused as elsewhere, and counted under the route.
    let (status, _) = s.post("/healthz", &json!({}), None).await;
    assert_eq!(status, 405);
    let (_, samples) = metrics(&s).await;
    for (method, route, status) in [
        ("GET", "/healthz", "200"),
        ("GET", "/readyz", "200"),
        ("POST", "/healthz", "405"),
    ] {
        assert_eq!(
            value(
                &samples,
                "sygo_http_requests_total",
                &[("method", method), ("route", route), ("status", status)]
            ),
            Some(1.0),
            "{method} {route} {status}"
        );
    }
    s.stop().await;
}

/// Readiness goes to 503 once the server is shutting down (a load balancer
/// stops sending it requests), while liveness stays 200.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_fails_while_shutting_down() {
    let app = App::open(temp_db("obs-shutdown")).await;
    let (status, _) = app.call("GET", "/readyz", None, None).await;
    assert_eq!(status, 200);
    app.shutdown.stop();
    let (status, _) = app.call("GET", "/readyz", None, None).await;
    assert_eq!(status, 503);
    let (status, _) = app.call("GET", "/healthz", None, None).await;
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_and_turns_are_counted_by_route_without_ids() {
    let s = TestServer::start("obs-metrics").await;
    let (_, before) = metrics(&s).await;
    for by in ["api", "ai", "conditional"] {
        assert_eq!(
            value(&before, "sygo_turns_played_total", &[("by", by)]),
            Some(0.0),
            "every turn counter is there from the start: {by}"
        );
    }
    assert_eq!(value(&before, "sygo_games_in_memory", &[]), Some(0.0));
    assert_eq!(value(&before, "sygo_ai_searches_running", &[]), Some(0.0));
    let ok = [("method", "POST"), ("route", TURNS), ("status", "200")];
    let turns_ok = |samples: &[Sample]| value(samples, "sygo_http_requests_total", &ok);
    assert_eq!(turns_ok(&before), None, "no turn yet");

    let (id, black, white) = s.new_game("sygo", 5).await;
    let played = [
        ("C3", &white),
        ("A1", &black),
        ("E5", &white),
        ("B1", &black),
    ];
    for (n, (turn, token)) in played.iter().enumerate() {
        s.play(&id, token, turn, n).await;
    }
    // A turn refused (another came first): counted under its status, not
    // as a turn played.
    let (status, _) = s
        .post(
            &format!("/api/games/{id}/turns"),
            &json!({"turn": "D4", "turn_number": 1}),
            Some(&white),
        )
        .await;
    assert_eq!(status, 409);
    let (status, _) = s.get(&format!("/api/games/{id}")).await;
    assert_eq!(status, 200);
    let (status, _) = s.get(&format!("/no/such/page/{id}")).await;
    assert_eq!(status, 404);
    let (status, _) = s.get(&format!("/api/no-such-endpoint/{id}")).await;
    assert_eq!(status, 404);

    let (text, after) = metrics(&s).await;
    let n = played.len() as f64;
    assert_eq!(turns_ok(&after), Some(n), "one count per turn posted");
    assert_eq!(
        value(
            &after,
            "sygo_http_requests_total",
            &[("method", "POST"), ("route", TURNS), ("status", "409")]
        ),
        Some(1.0)
    );
    assert_eq!(
        value(&after, "sygo_turns_played_total", &[("by", "api")]),
        Some(n)
    );
    assert_eq!(
        value(
            &after,
            "sygo_http_request_duration_seconds_count",
            &[("method", "POST"), ("route", TURNS)]
        ),
        Some(n + 1.0),
        "every answer timed, the refusal too"
    );
    let sum = value(
        &after,
        "sygo_http_request_duration_seconds_sum",
        &[("method", "POST"), ("route", TURNS)],
    )
    .unwrap();
    assert!(sum > 0.0 && sum < 60.0, "{sum}");
    assert_eq!(
        value(
            &after,
            "sygo_http_requests_total",
            &[
                ("method", "POST"),
                ("route", "/api/games"),
                ("status", "201")
            ]
        ),
        Some(1.0)
    );
    assert_eq!(
        value(
            &after,
            "sygo_http_requests_total",
            &[
                ("method", "GET"),
                ("route", "/api/games/{id}"),
                ("status", "200")
            ]
        ),
        Some(1.0)
    );
    assert_eq!(
        value(
            &after,
            "sygo_http_requests_total",
            &[("method", "GET"), ("route", "unmatched"), ("status", "404")]
        ),
        Some(2.0),
        "paths no route matches, in the app and under /api"
    );
    assert_eq!(
        value(
            &after,
            "sygo_http_requests_total",
            &[("method", "GET"), ("route", "/metrics"), ("status", "200")]
        ),
        Some(1.0),
        "the scrape before"
    );
    assert_eq!(value(&after, "sygo_games_in_memory", &[]), Some(1.0));
    // Bounded labels: no game id anywhere, and every route a template.
    assert!(!text.contains(&id), "a game id in the metrics:\n{text}");
    for sample in &after {
        for (key, label) in &sample.labels {
            assert!(!label.contains(&id), "{key}={label:?} in {sample:?}");
        }
        if let Some(route) = sample.labels.get("route") {
            assert!(
                route == "unmatched" || route.starts_with('/'),
                "route {route:?}"
            );
        }
    }
    s.stop().await;
}

/// Open live-update streams are counted while open, and no longer once
/// their client has gone; another server in the same process counts its
/// own requests only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_streams_are_counted_and_servers_count_apart() {
    let s = TestServer::with(temp_db("obs-streams"), |c| {
        // Keep-alive comments often, so that a stream notices its client
        // has gone.
        c.keep_alive = Duration::from_millis(100);
    })
    .await;
    let streams = |samples: &[Sample]| {
        value(samples, "sygo_live_streams", &[("stream", "game")]).expect("the gauge is there")
    };
    let (_, samples) = metrics(&s).await;
    assert_eq!(streams(&samples), 0.0);
    let (id, _, white) = s.new_game("sygo", 5).await;
    let mut first = Events::open(&s, &id).await;
    let mut second = Events::open(&s, &id).await;
    first.next(Duration::from_secs(30)).await;
    second.next(Duration::from_secs(30)).await;
    let (_, samples) = metrics(&s).await;
    assert_eq!(streams(&samples), 2.0);
    s.play(&id, &white, "C3", 0).await;
    drop(first);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, samples) = metrics(&s).await;
        let open = streams(&samples);
        if open == 1.0 {
            break;
        }
        assert!(
            open == 2.0 && Instant::now() < deadline,
            "{open} streams counted after one of two closed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // A second server in the same process: its own registry.
    let other = TestServer::start("obs-other").await;
    let (_, samples) = metrics(&other).await;
    assert_eq!(
        value(&samples, "sygo_turns_played_total", &[("by", "api")]),
        Some(0.0)
    );
    assert_eq!(streams(&samples), 0.0);
    assert_eq!(value(&samples, "sygo_games_in_memory", &[]), Some(0.0));
    assert!(
        samples
            .iter()
            .all(|s| s.labels.get("route").map(String::as_str) != Some(TURNS)),
        "no turn was posted to this server"
    );
    drop(second);
    other.stop().await;
    s.stop().await;
}
