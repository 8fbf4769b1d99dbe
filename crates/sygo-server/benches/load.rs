//! The web server under load (a benchmark, not a test): the server on
//! loopback with a database of its own, 500 games of people in progress,
//! and turns submitted at 200 a second across them for 30 seconds by
//! concurrent clients, each turn a legal one chosen by the rules library's
//! random player on the client's copy of the game. Prints how many turns
//! were answered and the answer times (p50, p90, p99, max).
//!
//! ```text
//! cargo bench -p sygo-server --bench load [-- --games 500 --rate 200 --seconds 30]
//!     [--clocks 1] [--subscribers 2000] [--timeouts 50] [--signins 100]
//! ```
//!
//! What a community server carries besides (docs/performance.md): with
//! `--clocks 1` every game has a live clock (3 hours + 10 s, so none runs
//! out during the run); `--subscribers N` keeps N live-update streams open
//! across the games, reading every update; `--timeouts K` adds K games
//! whose Black runs out of time (a 10 s byo-yomi period) during the run,
//! and prints how long after each deadline its end reached a subscriber;
//! `--signins R` signs an account in R times a second (Argon2id) while the
//! turns go on, and prints those answer times.
//!
//! The turns are sent on a fixed schedule, whether or not earlier answers
//! have come (so a slow answer does not hide the ones that queue behind it);
//! a game whose last turn is not answered yet is skipped in its round.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use rand::SeedableRng;
use serde_json::{Value, json};
use sygo_rules::{Game, Geometry, Position, Turn};
use sygo_server::{Config, Server};

/// One game as a client sees it.
struct Client {
    id: String,
    tokens: [String; 2],
    game: Mutex<Game>,
    busy: AtomicBool,
    rng: Mutex<rand_pcg::Pcg64Mcg>,
}

fn option(args: &[String], name: &str, default: u64) -> u64 {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games = option(&args, "--games", 500) as usize;
    let rate = option(&args, "--rate", 200);
    let seconds = option(&args, "--seconds", 30);
    let clocks = option(&args, "--clocks", 0) != 0;
    let subscribers = option(&args, "--subscribers", 0) as usize;
    let timeouts = option(&args, "--timeouts", 0) as usize;
    let signins = option(&args, "--signins", 0);

    let dir = std::env::temp_dir().join(format!("sygo-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.db");

    // The server on a runtime of its own, as `sygo serve` runs it.
    let server_rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    // One client address starts every game: the rate limits are off, as
    // `sygo serve --no-rate-limits`.
    let mut config = Config::new("127.0.0.1:0".parse().unwrap(), db);
    config.rate_limits = false;
    let server = server_rt.block_on(Server::bind(config)).unwrap();
    let base = format!("http://{}", server.local_addr());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = server_rt.spawn(server.run(async {
        let _ = stopped.await;
    }));

    let client_rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    client_rt.block_on(async move {
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(256)
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap();
        let boards = [("sygo", 19), ("sygo", 9), ("hexsygo", 10), ("hexsygo", 5)];
        let t = Instant::now();
        let mut clients = Vec::with_capacity(games);
        for i in 0..games {
            let (variant, size) = boards[i % boards.len()];
            let clock = if clocks {
                json!({"kind": "fischer", "main_ms": 10_800_000, "increment_ms": 10_000})
            } else {
                Value::Null
            };
            let r = http
                .post(format!("{base}/api/games"))
                .json(&json!({"variant": variant, "size": size, "clock": clock,
                              "black": {"kind": "human"}, "white": {"kind": "human"}}))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status().as_u16(), 201);
            let body: Value = r.json().await.unwrap();
            let g = match variant {
                "sygo" => Geometry::sygo(size).unwrap(),
                _ => Geometry::hexsygo(size).unwrap(),
            };
            clients.push(Arc::new(Client {
                id: body["game"]["id"].as_str().unwrap().to_string(),
                tokens: [
                    body["tokens"]["black"].as_str().unwrap().to_string(),
                    body["tokens"]["white"].as_str().unwrap().to_string(),
                ],
                game: Mutex::new(Game::new(Position::new(g))),
                busy: AtomicBool::new(false),
                rng: Mutex::new(rand_pcg::Pcg64Mcg::seed_from_u64(i as u64)),
            }));
        }
        println!(
            "created {games} games in {:.1} s; now {rate} turns/s for {seconds} s",
            t.elapsed().as_secs_f64()
        );

        // Live-update streams, spread over the games, each read to the end.
        let updates = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let read = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let mut streams = Vec::new();
        for i in 0..subscribers {
            let url = format!("{base}/api/games/{}/events", clients[i % clients.len()].id);
            let (http, updates, read) = (http.clone(), updates.clone(), read.clone());
            streams.push(tokio::spawn(async move {
                let Ok(mut r) = http.get(url).timeout(Duration::from_secs(3600)).send().await
                else {
                    return;
                };
                while let Ok(Some(chunk)) = r.chunk().await {
                    // Every event: the game at first, then each turn's.
                    let n = chunk.windows(7).filter(|w| w == b"event: ").count();
                    updates.fetch_add(n as u64, Ordering::Relaxed);
                    read.fetch_add(chunk.len() as u64, Ordering::Relaxed);
                }
            }));
        }
        // Games that run out of time during the run, each watched: how late
        // after its deadline its end reaches a subscriber.
        let lateness = Arc::new(Mutex::new(Vec::<i64>::new()));
        let mut watched = Vec::new();
        for _ in 0..timeouts {
            let clock = json!({"kind": "byoyomi", "main_ms": 0, "periods": 1, "period_ms": 10_000});
            let r = http
                .post(format!("{base}/api/games"))
                .json(&json!({"variant": "sygo", "size": 9, "clock": clock,
                              "black": {"kind": "human"}, "white": {"kind": "human"}}))
                .send()
                .await
                .unwrap();
            let body: Value = r.json().await.unwrap();
            let id = body["game"]["id"].as_str().unwrap().to_string();
            let white = body["tokens"]["white"].as_str().unwrap().to_string();
            let r = http
                .post(format!("{base}/api/games/{id}/turns"))
                .bearer_auth(white)
                .json(&json!({"turn": "E5", "turn_number": 0}))
                .send()
                .await
                .unwrap();
            let game: Value = r.json().await.unwrap();
            let deadline = game["clock"]["deadline_ms"].as_i64().unwrap();
            let (http, base, lateness) = (http.clone(), base.clone(), lateness.clone());
            watched.push(tokio::spawn(async move {
                let mut r = http
                    .get(format!("{base}/api/games/{id}/events"))
                    .send()
                    .await
                    .unwrap();
                let mut text = String::new();
                while let Ok(Some(chunk)) = r.chunk().await {
                    text.push_str(&String::from_utf8_lossy(&chunk));
                    if text.contains("\"status\":\"over\"") {
                        let now = std::time::SystemTime::now()
                            .duration_since(std::time::UNIX_EPOCH)
                            .unwrap()
                            .as_millis() as i64;
                        lateness.lock().push(now - deadline);
                        return;
                    }
                    if let Some(end) = text.rfind("\n\n") {
                        text.drain(..end);
                    }
                }
            }));
        }
        // Sign-ins during the run.
        let signin_times = Arc::new(Mutex::new(Vec::<Duration>::new()));
        let signing = if signins > 0 {
            let r = http
                .post(format!("{base}/api/account"))
                .json(&json!({"name": "loadtest", "password": "correct horse battery"}))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status().as_u16(), 201);
            let (http, base, times) = (http.clone(), base.clone(), signin_times.clone());
            Some(tokio::spawn(async move {
                let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / signins as f64));
                let mut tasks = Vec::new();
                for _ in 0..signins * seconds {
                    tick.tick().await;
                    let (http, base, times) = (http.clone(), base.clone(), times.clone());
                    tasks.push(tokio::spawn(async move {
                        let sent = Instant::now();
                        let r = http
                            .post(format!("{base}/api/session"))
                            .json(&json!({"name": "loadtest", "password": "correct horse battery"}))
                            .send()
                            .await;
                        if r.is_ok_and(|r| r.status().as_u16() == 200) {
                            times.lock().push(sent.elapsed());
                        }
                    }));
                }
                for t in tasks {
                    let _ = t.await;
                }
            }))
        } else {
            None
        };

        let latencies = Arc::new(Mutex::new(Vec::<Duration>::new()));
        let errors = Arc::new(Mutex::new(Vec::<String>::new()));
        let mut skipped = 0u64;
        let mut ticker = tokio::time::interval(Duration::from_secs_f64(1.0 / rate as f64));
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
        let total = rate * seconds;
        let mut tasks = Vec::with_capacity(total as usize);
        let start = Instant::now();
        for n in 0..total {
            ticker.tick().await;
            let client = clients[n as usize % clients.len()].clone();
            if client.busy.swap(true, Ordering::AcqRel) {
                skipped += 1;
                continue;
            }
            let (http, base) = (http.clone(), base.clone());
            let (latencies, errors) = (latencies.clone(), errors.clone());
            tasks.push(tokio::spawn(async move {
                let (turn, number, token) = {
                    let game = client.game.lock();
                    let pos = game.position();
                    let stones = pos.random_turn_stones(&mut *client.rng.lock());
                    let turn = if stones.is_empty() {
                        Turn::Pass
                    } else {
                        Turn::Stones(stones)
                    };
                    let token = client.tokens[pos.side_to_move().index()].clone();
                    (turn, game.turns().len(), token)
                };
                let notation = turn.to_notation(&client.game.lock().position().geometry());
                let sent = Instant::now();
                let answer = http
                    .post(format!("{base}/api/games/{}/turns", client.id))
                    .bearer_auth(token)
                    .json(&json!({"turn": notation, "turn_number": number}))
                    .send()
                    .await;
                let outcome = match answer {
                    Ok(r) => {
                        let status = r.status().as_u16();
                        let body = r.bytes().await;
                        match (status, body) {
                            (200, Ok(_)) => Ok(()),
                            (s, b) => Err(format!(
                                "{s}: {:?}",
                                b.map(|b| String::from_utf8_lossy(&b).into_owned())
                            )),
                        }
                    }
                    Err(e) => Err(e.to_string()),
                };
                let took = sent.elapsed();
                match outcome {
                    Ok(()) => {
                        latencies.lock().push(took);
                        client.game.lock().play(turn).unwrap();
                    }
                    Err(e) => errors.lock().push(e),
                }
                client.busy.store(false, Ordering::Release);
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        let elapsed = start.elapsed();
        let mut l = latencies.lock().clone();
        l.sort();
        let at = |q: f64| l[((l.len() as f64 * q).ceil() as usize).clamp(1, l.len()) - 1];
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "{} turns answered in {:.1} s ({:.0}/s), {} errors, {} skipped (game busy)",
            l.len(),
            elapsed.as_secs_f64(),
            l.len() as f64 / elapsed.as_secs_f64(),
            errors.lock().len(),
            skipped
        );
        if !l.is_empty() {
            println!(
                "answer time: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                ms(at(0.50)),
                ms(at(0.90)),
                ms(at(0.99)),
                ms(*l.last().unwrap())
            );
        }
        for e in errors.lock().iter().take(5) {
            println!("error: {e}");
        }
        if let Some(signing) = signing {
            signing.await.unwrap();
            let mut t = signin_times.lock().clone();
            t.sort();
            if !t.is_empty() {
                let at = |q: f64| t[((t.len() as f64 * q).ceil() as usize).clamp(1, t.len()) - 1];
                println!(
                    "{} sign-ins ({}/s asked): p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
                    t.len(),
                    signins,
                    ms(at(0.50)),
                    ms(at(0.99)),
                    ms(*t.last().unwrap())
                );
            }
        }
        if subscribers > 0 {
            println!(
                "{subscribers} live-update streams open: {} updates read, {:.1} MB",
                updates.load(Ordering::Relaxed),
                read.load(Ordering::Relaxed) as f64 / 1e6
            );
        }
        for w in watched {
            let _ = tokio::time::timeout(Duration::from_secs(30), w).await;
        }
        let mut late = lateness.lock().clone();
        late.sort();
        if timeouts > 0 {
            println!(
                "timeouts: {} of {timeouts} seen ended; after the deadline: median {} ms, max {} ms",
                late.len(),
                late.get(late.len() / 2).copied().unwrap_or(-1),
                late.last().copied().unwrap_or(-1)
            );
        }
        for s in streams {
            s.abort();
        }
    });
    let _ = stop.send(());
    server_rt.block_on(serving).unwrap().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
