//! What the server counts for its host (`GET /metrics`, `docs/web.md`,
//! "Health, readiness, metrics and logs"): [`Metrics`], a registry of its
//! own per application (two servers in one process count apart), the
//! middleware that counts and times every request ([`record`]), and the
//! guard that counts the open live-update streams ([`StreamGuard`]).
//!
//! A request's labels are bounded: the method is one of the standard ones
//! or `other`, the route is the template the router matched
//! (`/api/games/{id}/turns`, never the path with its id) or `unmatched`,
//! the status a number. Recording a request allocates nothing once its
//! labels have been seen: the route is the router's own shared string, and
//! each series is found under a read lock.

use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use prometheus_client::encoding::{EncodeLabelSet, EncodeLabelValue, LabelValueEncoder};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

/// The content type of `GET /metrics`: the Prometheus text format 0.0.4.
pub(crate) const CONTENT_TYPE: &str = prometheus_client::encoding::prometheus_text::CONTENT_TYPE;

/// The upper bounds of the request duration histogram's buckets, in
/// seconds: half a millisecond to five seconds.
const DURATION_BUCKETS: [f64; 13] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];

/// The route label of a request: the router's template, or none matched.
#[derive(Clone, Debug)]
pub(crate) enum Route {
    /// The template the router matched, as the router keeps it (cloning it
    /// clones a shared pointer).
    Matched(MatchedPath),
    /// No route matched (the answer is the JSON 404).
    Unmatched,
}

impl Route {
    /// The label's text.
    pub(crate) fn as_str(&self) -> &str {
        match self {
            Route::Matched(path) => path.as_str(),
            Route::Unmatched => "unmatched",
        }
    }
}

impl PartialEq for Route {
    fn eq(&self, other: &Route) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Route {}

impl Hash for Route {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl EncodeLabelValue for Route {
    fn encode(&self, encoder: &mut LabelValueEncoder) -> Result<(), std::fmt::Error> {
        self.as_str().encode(encoder)
    }
}

/// The method label of a request: a standard method's name, else `other`
/// (a client may send any token as a method; the label stays bounded).
pub(crate) fn method_label(method: &axum::http::Method) -> &'static str {
    match method.as_str() {
        "GET" => "GET",
        "HEAD" => "HEAD",
        "POST" => "POST",
        "PUT" => "PUT",
        "DELETE" => "DELETE",
        "PATCH" => "PATCH",
        "OPTIONS" => "OPTIONS",
        "CONNECT" => "CONNECT",
        "TRACE" => "TRACE",
        _ => "other",
    }
}

/// The labels of `sygo_http_requests_total`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, EncodeLabelSet)]
struct RequestLabels {
    method: &'static str,
    route: Route,
    status: u16,
}

/// The labels of `sygo_http_request_duration_seconds`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, EncodeLabelSet)]
struct RouteLabels {
    method: &'static str,
    route: Route,
}

/// The label of `sygo_live_streams`: which stream.
#[derive(Clone, Debug, PartialEq, Eq, Hash, EncodeLabelSet)]
struct StreamLabels {
    stream: &'static str,
}

/// The label of `sygo_turns_played_total`: who played the turn.
#[derive(Clone, Debug, PartialEq, Eq, Hash, EncodeLabelSet)]
struct ByLabels {
    by: &'static str,
}

/// The label of `sygo_accounts_reads_total`: what was read.
#[derive(Clone, Debug, PartialEq, Eq, Hash, EncodeLabelSet)]
struct KindLabels {
    kind: &'static str,
}

/// A reading of the accounts from the database after another server's or
/// program's change, for `sygo_accounts_reads_total{kind}`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum AccountsReading {
    /// Every account (`sygo admin` changed them, the server's connection to
    /// the others was lost, a notice named no account).
    Whole,
    /// The accounts a notice named, or a request found missing.
    Targeted,
}

/// A kind of live-update stream, for `sygo_live_streams{stream}`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Stream {
    /// A game's (`GET /api/games/{id}/events`).
    Game,
    /// The lobby's (`GET /api/lobby/events`).
    Lobby,
    /// An account's notice (`GET /api/account/events`).
    Account,
}

/// Who played a turn, for `sygo_turns_played_total{by}`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum PlayedBy {
    /// A side's turn sent to `POST /api/games/{id}/turns`.
    Api,
    /// The AI's turn.
    Ai,
    /// A conditional turn's answer, played by the server.
    Conditional,
}

/// The server's metrics and their registry.
pub(crate) struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    durations: Family<RouteLabels, Histogram, fn() -> Histogram>,
    games_in_memory: Gauge,
    uploads_in_memory: Gauge,
    /// By [`Stream`], in its order.
    streams: [Gauge; 3],
    /// By [`PlayedBy`], in its order.
    turns: [Counter; 3],
    ai_running: Gauge,
    ai_waiting: Gauge,
    /// By [`AccountsReading`], in its order.
    accounts_reads: [Counter; 2],
}

fn duration_histogram() -> Histogram {
    Histogram::new(DURATION_BUCKETS)
}

impl Metrics {
    /// Every metric registered, at zero.
    pub(crate) fn new() -> Metrics {
        let mut registry = Registry::with_prefix("sygo");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by method, route template and status",
            requests.clone(),
        );
        let durations = Family::<RouteLabels, Histogram, fn() -> Histogram>::new_with_constructor(
            duration_histogram,
        );
        registry.register(
            "http_request_duration_seconds",
            "Time from a request's arrival to its answer's head, by method and route template",
            durations.clone(),
        );
        let games_in_memory = Gauge::default();
        registry.register(
            "games_in_memory",
            "Games held in memory (every game played here, and uploaded ones looked at lately)",
            games_in_memory.clone(),
        );
        let uploads_in_memory = Gauge::default();
        registry.register(
            "uploads_in_memory",
            "Uploaded games held in memory (at most uploaded::KEPT_UPLOADS, and those watched)",
            uploads_in_memory.clone(),
        );
        let streams_family = Family::<StreamLabels, Gauge>::default();
        registry.register(
            "live_streams",
            "Open server-sent-event streams, by stream (game, lobby, account)",
            streams_family.clone(),
        );
        let streams = ["game", "lobby", "account"]
            .map(|stream| streams_family.get_or_create_owned(&StreamLabels { stream }));
        let turns_family = Family::<ByLabels, Counter>::default();
        registry.register(
            "turns_played",
            "Turns accepted and stored, by who played them (api, ai, conditional)",
            turns_family.clone(),
        );
        let turns = ["api", "ai", "conditional"]
            .map(|by| turns_family.get_or_create_owned(&ByLabels { by }));
        let ai_running = Gauge::default();
        registry.register(
            "ai_searches_running",
            "AI searches running (turns, hints, analyses, reviews)",
            ai_running.clone(),
        );
        let ai_waiting = Gauge::default();
        registry.register(
            "ai_searches_waiting",
            "AI searches waiting for a free slot",
            ai_waiting.clone(),
        );
        let reads_family = Family::<KindLabels, Counter>::default();
        registry.register(
            "accounts_reads",
            "Readings of the accounts from the database after another server's or program's \
             change, by kind (whole: every account; targeted: the accounts a change named)",
            reads_family.clone(),
        );
        let accounts_reads = ["whole", "targeted"]
            .map(|kind| reads_family.get_or_create_owned(&KindLabels { kind }));
        Metrics {
            registry,
            requests,
            durations,
            games_in_memory,
            uploads_in_memory,
            streams,
            turns,
            ai_running,
            ai_waiting,
            accounts_reads,
        }
    }

    /// Counts a request answered with `status` after `seconds`.
    pub(crate) fn request(&self, method: &'static str, route: &Route, status: u16, seconds: f64) {
        // The labels hold the route by a shared pointer: no allocation.
        let labels = RequestLabels {
            method,
            route: route.clone(),
            status,
        };
        self.requests.get_or_create(&labels).inc();
        let RequestLabels { method, route, .. } = labels;
        self.durations
            .get_or_create(&RouteLabels { method, route })
            .observe(seconds);
    }

    /// Counts a turn stored.
    pub(crate) fn turn_played(&self, by: PlayedBy) {
        self.turns[by as usize].inc();
    }

    /// Counts a reading of the accounts after another's change.
    pub(crate) fn accounts_read(&self, kind: AccountsReading) {
        self.accounts_reads[kind as usize].inc();
    }

    /// A live-update stream opened: counted until the guard is dropped.
    pub(crate) fn stream_opened(&self, stream: Stream) -> StreamGuard {
        let gauge = self.streams[stream as usize].clone();
        gauge.inc();
        StreamGuard(gauge)
    }

    /// The metrics in the Prometheus text format, the gauges read at this
    /// moment set first: the games in memory, the AI's searches running and
    /// waiting.
    pub(crate) fn encode(&self, held: Held) -> String {
        let gauge = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        let Held {
            games,
            uploads,
            ai_running,
            ai_waiting,
        } = held;
        self.games_in_memory.set(gauge(games));
        self.uploads_in_memory.set(gauge(uploads));
        self.ai_running.set(gauge(ai_running));
        self.ai_waiting.set(gauge(ai_waiting));
        let mut text = String::new();
        // Writing to a String does not fail.
        let _ = prometheus_client::encoding::prometheus_text::encode(&mut text, &self.registry);
        text
    }
}

/// What the server holds at the moment `GET /metrics` asks.
#[derive(Default)]
pub(crate) struct Held {
    /// Games in memory, uploaded ones included.
    pub games: usize,
    /// Uploaded games in memory.
    pub uploads: usize,
    /// AI searches running, and waiting for a slot.
    pub ai_running: usize,
    pub ai_waiting: usize,
}

/// An open live-update stream, counted in `sygo_live_streams` until it is
/// dropped (the stream ended, or its client went away).
pub(crate) struct StreamGuard(Gauge);

impl Drop for StreamGuard {
    fn drop(&mut self) {
        self.0.dec();
    }
}

/// The middleware that counts and times every request (outermost, so a
/// request refused by another middleware counts too), and logs it at the
/// DEBUG level (nothing is written, nor formatted, at the default level).
pub(crate) async fn record(
    State(metrics): State<Arc<Metrics>>,
    request: Request,
    next: Next,
) -> Response {
    let start = Instant::now();
    let method = method_label(request.method());
    let route = match request.extensions().get::<MatchedPath>() {
        Some(path) => Route::Matched(path.clone()),
        None => Route::Unmatched,
    };
    let response = next.run(request).await;
    let elapsed = start.elapsed();
    let status = response.status().as_u16();
    metrics.request(method, &route, status, elapsed.as_secs_f64());
    tracing::debug!(
        method,
        route = route.as_str(),
        status,
        latency_ms = elapsed.as_secs_f64() * 1000.0,
        "request"
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_method_is_other() {
        let method = axum::http::Method::from_bytes(b"BREW").unwrap();
        assert_eq!(method_label(&method), "other");
        assert_eq!(method_label(&axum::http::Method::POST), "POST");
    }

    #[test]
    fn streams_are_counted_while_open() {
        let metrics = Metrics::new();
        let a = metrics.stream_opened(Stream::Game);
        let b = metrics.stream_opened(Stream::Game);
        let c = metrics.stream_opened(Stream::Lobby);
        let text = metrics.encode(Held::default());
        assert!(
            text.contains("sygo_live_streams{stream=\"game\"} 2\n"),
            "{text}"
        );
        assert!(
            text.contains("sygo_live_streams{stream=\"lobby\"} 1\n"),
            "{text}"
        );
        drop((a, b, c));
        let text = metrics.encode(Held::default());
        assert!(
            text.contains("sygo_live_streams{stream=\"game\"} 0\n"),
            "{text}"
        );
        assert!(
            text.contains("sygo_live_streams{stream=\"lobby\"} 0\n"),
            "{text}"
        );
    }

    #[test]
    fn every_metric_is_there_from_the_start() {
        let metrics = Metrics::new();
        metrics.turn_played(PlayedBy::Ai);
        metrics.accounts_read(AccountsReading::Targeted);
        metrics.request("GET", &Route::Unmatched, 404, 0.002);
        let text = metrics.encode(Held {
            games: 7,
            uploads: 3,
            ai_running: 1,
            ai_waiting: 2,
        });
        for line in [
            "sygo_games_in_memory 7",
            "sygo_uploads_in_memory 3",
            "sygo_ai_searches_running 1",
            "sygo_ai_searches_waiting 2",
            "sygo_turns_played_total{by=\"ai\"} 1",
            "sygo_turns_played_total{by=\"api\"} 0",
            "sygo_accounts_reads_total{kind=\"whole\"} 0",
            "sygo_accounts_reads_total{kind=\"targeted\"} 1",
            "sygo_http_requests_total{method=\"GET\",route=\"unmatched\",status=\"404\"} 1",
            "sygo_http_request_duration_seconds_bucket{method=\"GET\",route=\"unmatched\",le=\"0.001\"} 0",
            "sygo_http_request_duration_seconds_bucket{method=\"GET\",route=\"unmatched\",le=\"0.0025\"} 1",
            "sygo_http_request_duration_seconds_count{method=\"GET\",route=\"unmatched\"} 1",
        ] {
            assert!(text.contains(&format!("{line}\n")), "{line} in {text}");
        }
    }
}
