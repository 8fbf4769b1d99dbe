//! The web server under load (a benchmark, not a test): the server on
//! loopback with a database of its own, 500 games of people in progress,
//! and turns submitted at 200 a second across them for 30 seconds by
//! concurrent clients, each turn a legal one chosen by the rules library's
//! random player on the client's copy of the game. Prints how many turns
//! were answered and the answer times (p50, p90, p99, max).
//!
//! ```text
//! cargo bench -p sygo-server --bench load [-- --games 500 --rate 200 --seconds 30]
//!     [--clocks 1] [--subscribers 2000] [--timeouts 50] [--signins 100] [--timeline 1]
//!     [--db postgres://user@host/db] [--instances 2] [--post-to 0] [--server-threads 1]
//! ```
//!
//! What a community server carries besides (docs/performance.md): with
//! `--clocks 1` every game has a live clock (3 hours + 10 s, so none runs
//! out during the run); `--subscribers N` keeps N live-update streams open
//! across the games, reading every update; `--timeouts K` adds K games
//! whose Black runs out of time (a 10 s byo-yomi period) during the run,
//! and prints how long after each deadline its end reached a subscriber;
//! `--signins R` signs an account in R times a second (Argon2id) while the
//! turns go on, and prints those answer times; `--timeline 1` prints the
//! answer times of each second of the run too. `--db` runs the server on
//! that database (an empty PostgreSQL database, say) instead of a new
//! SQLite file; the PostgreSQL server's own processes are not in the CPU
//! figures of the process, but when it runs on this machine their CPU time
//! is printed apart (the processes of the server the connection reaches).
//!
//! `--instances N` (with `--db postgres://…`) runs N servers on that one
//! database, each on a runtime of its own (threads `server-0`, `server-1`,
//! …), as N `sygo serve` would: the games are created on each in turn, and
//! each turn of a game is posted to instance k mod N, k its turn number, so
//! that a game's consecutive turns go through different instances (the one
//! that takes a turn stores it; the others play it from its notice); the
//! live-update streams are spread over the instances in turn (a game's
//! streams on different instances where there are several). `--post-to I`
//! posts every turn to instance I instead (the others only follow: the
//! CPU a turn of storing and of following, apart). For each `turn` event a
//! stream reads, the time from the answer to that turn's POST (as the
//! client read it) to the stream's reading of the event is printed, apart
//! for the streams on the instance that stored the turn and on the others
//! (a stream can read it before the answer comes: a negative time); and
//! the CPU time of each instance's threads. `--server-threads T` gives
//! each server's runtime T worker threads (default: one a core, as `sygo
//! serve` runs).
//!
//! The turns are sent on a fixed schedule, whether or not earlier answers
//! have come (so a slow answer does not hide the ones that queue behind it);
//! a game whose last turn is not answered yet is skipped in its round. Each
//! is sent as the game page sends it, asking for the turn's event as the
//! answer rather than the whole game (`Prefer: return=minimal`).
//!
//! The clients share the machine with the server, so they do little: the
//! turns and the streams go through a minimal HTTP/1.1 client on plain
//! sockets (`raw`), a stream's reader counts the events and checks that
//! their ids (turn numbers) follow on, without parsing their JSON, and the
//! streams are all open before the turns start. A game over (two passes in
//! a row) is played in no more. The CPU time of the server's threads, its
//! database threads and the clients' threads during the turns is printed
//! apart (Linux).

/// The allocator `sygo` runs the server with.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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
    /// Turns answered during the run.
    answered: AtomicU64,
    /// The turns sent, by the id of their `turn` event (the turn number
    /// after the turn): when they were sent and answered, by which
    /// instance, and the streams that read the event before the answer.
    marks: Mutex<std::collections::HashMap<u64, Mark>>,
}

/// A turn sent, as the live-update streams' readers time its event.
struct Mark {
    sent: Instant,
    /// When the client read the answer (200).
    answered: Option<Instant>,
    /// The instance the turn was posted to (which stored it).
    instance: usize,
    /// Streams that read the event before the answer came: when, and the
    /// instance each is on.
    early: Vec<(Instant, usize)>,
}

impl Mark {
    /// The delivery of this (answered) turn's event to a stream on
    /// instance `on`, read at `read`.
    fn delivery(&self, read: Instant, on: usize) -> Delivery {
        let answered = self.answered.unwrap_or(self.sent);
        let from_answer = if read >= answered {
            (read - answered).as_secs_f64()
        } else {
            -(answered - read).as_secs_f64()
        };
        Delivery {
            other_instance: on != self.instance,
            from_answer,
            from_send: read.saturating_duration_since(self.sent).as_secs_f64(),
        }
    }
}

/// A `turn` event read by a stream.
struct Delivery {
    /// Whether the stream is on another instance than the one that stored
    /// the turn.
    other_instance: bool,
    /// Seconds from the turn's answer to the reading (negative: read
    /// before the answer).
    from_answer: f64,
    /// Seconds from the turn's sending to the reading.
    from_send: f64,
}

/// What a stream's reader needs to time the `turn` events it reads.
struct Watch {
    client: Arc<Client>,
    /// The instance the stream is on.
    instance: usize,
    deliveries: Arc<Mutex<Vec<Delivery>>>,
}

impl Watch {
    /// The `turn` event `id` read now.
    fn read(&self, id: u64) {
        let now = Instant::now();
        let mut marks = self.client.marks.lock();
        match marks.get_mut(&id) {
            Some(mark) if mark.answered.is_some() => {
                let d = mark.delivery(now, self.instance);
                drop(marks);
                self.deliveries.lock().push(d);
            }
            Some(mark) => mark.early.push((now, self.instance)),
            None => {
                UNMATCHED.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

/// `turn` events read by all the live-update streams.
static TURNS_READ: AtomicU64 = AtomicU64::new(0);

/// Turns the streams had no `turn` event of but a whole game resent after
/// them (an instance that read the game again, a reader that fell behind).
static TURNS_IN_GAMES: AtomicU64 = AtomicU64::new(0);

/// Live-update streams that have read their first event (the game).
static STREAMS_OPEN: AtomicU64 = AtomicU64::new(0);

/// `turn` events read for which no turn was sent (or whose turn's POST
/// failed).
static UNMATCHED: AtomicU64 = AtomicU64::new(0);

/// The `q` quantile of `sorted` (not empty).
fn quantile<T: Copy>(sorted: &[T], q: f64) -> T {
    sorted[((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len()) - 1]
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
    let timeline = option(&args, "--timeline", 0) != 0;
    let instances = option(&args, "--instances", 1).max(1) as usize;
    // Worker threads of each server's runtime (0: tokio's default, a core
    // each).
    let server_threads = option(&args, "--server-threads", 0) as usize;
    let post_to = args
        .iter()
        .position(|a| a == "--post-to")
        .map(|_| (option(&args, "--post-to", 0) as usize).min(instances - 1));

    let dir = std::env::temp_dir().join(format!("sygo-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = match args.iter().position(|a| a == "--db") {
        Some(i) => sygo_server::Database::parse(args.get(i + 1).expect("--db needs an address")),
        None => sygo_server::Database::Sqlite(dir.join("games.db")),
    };

    if instances > 1 && !matches!(db, sygo_server::Database::Postgres(_)) {
        eprintln!("--instances needs a shared database: --db postgres://…");
        std::process::exit(2);
    }
    // The PostgreSQL server's main process, when it runs on this machine:
    // its processes' CPU time is measured too.
    let postmaster = match &db {
        sygo_server::Database::Postgres(url) => postmaster_of(url),
        sygo_server::Database::Sqlite(_) => None,
    };

    // Each server on a runtime of its own, as `sygo serve` runs it; the
    // database threads each starts are told apart by when they appear (not
    // by name: a new thread names itself once it runs).
    let mut servers = Vec::with_capacity(instances);
    let mut owners = std::collections::HashMap::<u64, usize>::new();
    for i in 0..instances {
        let mut builder = tokio::runtime::Builder::new_multi_thread();
        if server_threads > 0 {
            builder.worker_threads(server_threads);
        }
        let server_rt = builder
            .thread_name(if instances == 1 {
                "server".to_string()
            } else {
                format!("server-{i}")
            })
            .enable_all()
            .build()
            .unwrap();
        // One client address starts every game: the rate limits are off, as
        // `sygo serve --no-rate-limits`.
        let mut config = Config::new("127.0.0.1:0".parse().unwrap(), db.clone());
        config.rate_limits = false;
        let threads_before = cpu_by_thread().unwrap_or_default();
        let server = server_rt.block_on(Server::bind(config)).unwrap();
        let addr = server.local_addr();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let serving = server_rt.spawn(server.run(async {
            let _ = stopped.await;
        }));
        for tid in cpu_by_thread().unwrap_or_default().into_keys() {
            if !threads_before.contains_key(&tid) {
                owners.insert(tid, i);
            }
        }
        servers.push((server_rt, addr, stop, serving));
    }
    let addrs: Vec<std::net::SocketAddr> = servers.iter().map(|s| s.1).collect();
    let bases: Vec<String> = addrs.iter().map(|a| format!("http://{a}")).collect();
    let base = bases[0].clone();

    let client_rt = tokio::runtime::Builder::new_multi_thread()
        .thread_name("client")
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
            let base = &bases[i % instances];
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
                answered: AtomicU64::new(0),
                rng: Mutex::new(rand_pcg::Pcg64Mcg::seed_from_u64(i as u64)),
                marks: Mutex::new(std::collections::HashMap::new()),
            }));
        }
        println!("created {games} games in {:.1} s", t.elapsed().as_secs_f64());
        if instances > 1 {
            // Each game known to every instance (from its creator's notice)
            // before its streams open there.
            let t = Instant::now();
            for (i, client) in clients.iter().enumerate() {
                for (j, base) in bases.iter().enumerate() {
                    if j != i % instances {
                        known(&http, base, &client.id).await;
                    }
                }
            }
            println!(
                "every game known to all {instances} instances {:.1} s later",
                t.elapsed().as_secs_f64()
            );
        }

        // Live-update streams, spread over the games, each read to the end:
        // the events counted and their order checked, their JSON not parsed
        // (a real client is on another machine: its parsing is not the
        // server's load).
        // The streams of a game go to different instances in turn.
        let tally = Arc::new(Mutex::new(Tally::default()));
        let deliveries = Arc::new(Mutex::new(Vec::<Delivery>::new()));
        let (stop_reading, reading) = tokio::sync::watch::channel(false);
        let mut streams = Vec::new();
        for i in 0..subscribers {
            let client = clients[i % clients.len()].clone();
            let on = (i + i / clients.len()) % instances;
            let addr = addrs[on];
            let path = format!("/api/games/{}/events", client.id);
            let (tally, mut reading) = (tally.clone(), reading.clone());
            let deliveries = deliveries.clone();
            streams.push(tokio::spawn(async move {
                let mut reader = EventReader {
                    watch: Some(Watch {
                        client,
                        instance: on,
                        deliveries,
                    }),
                    ..EventReader::default()
                };
                tokio::select! {
                    r = raw::read_events(addr, &path, |bytes| reader.read(bytes)) => {
                        if let Err(e) = r {
                            eprintln!("a live-update stream: {e}");
                        }
                    }
                    _ = reading.changed() => {}
                }
                tally.lock().add(&reader.tally);
            }));
        }
        // Every stream open before the turns start.
        let opening = Instant::now();
        while STREAMS_OPEN.load(Ordering::Relaxed) < subscribers as u64
            && opening.elapsed() < Duration::from_secs(60)
        {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        if subscribers > 0 {
            println!(
                "{} of {subscribers} live-update streams open in {:.1} s",
                STREAMS_OPEN.load(Ordering::Relaxed),
                opening.elapsed().as_secs_f64()
            );
        }
        // Games that run out of time during the run, each watched: how late
        // after its deadline its end reaches a subscriber (on another
        // instance than the one it was created on, when there are several).
        let lateness = Arc::new(Mutex::new(Vec::<i64>::new()));
        let mut watched = Vec::new();
        for j in 0..timeouts {
            let base = &bases[j % instances];
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
            let base = bases[(j + 1) % instances].clone();
            let (http, lateness) = (http.clone(), lateness.clone());
            watched.push(tokio::spawn(async move {
                if instances > 1 {
                    known(&http, &base, &id).await;
                }
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
            let (http, bases, times) = (http.clone(), bases.clone(), signin_times.clone());
            Some(tokio::spawn(async move {
                let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / signins as f64));
                let mut tasks = Vec::new();
                for k in 0..signins * seconds {
                    tick.tick().await;
                    let base = bases[k as usize % instances].clone();
                    let (http, times) = (http.clone(), times.clone());
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

        // The turns' connections, kept open and reused as a page's are (a
        // pool for each instance).
        let pools: Arc<Vec<raw::Pool>> =
            Arc::new(addrs.iter().map(|&a| raw::Pool::new(a)).collect());
        // The turns each instance answered (stored).
        let stored: Arc<Vec<AtomicU64>> =
            Arc::new((0..instances).map(|_| AtomicU64::new(0)).collect());
        // Each answer time, with the second of the run its turn was sent in.
        let latencies = Arc::new(Mutex::new(Vec::<(u64, Duration)>::new()));
        let errors = Arc::new(Mutex::new(Vec::<String>::new()));
        let mut skipped = 0u64;
        let mut over = 0u64;
        let mut ticker = tokio::time::interval(Duration::from_secs_f64(1.0 / rate as f64));
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
        let total = rate * seconds;
        let mut tasks = Vec::with_capacity(total as usize);
        println!("now {rate} turns/s for {seconds} s");
        let cpu_before = cpu_by_thread();
        let postgres_before = postmaster.and_then(postgres_ticks);
        let start = Instant::now();
        for n in 0..total {
            ticker.tick().await;
            let client = clients[n as usize % clients.len()].clone();
            if client.busy.swap(true, Ordering::AcqRel) {
                skipped += 1;
                continue;
            }
            // A game that ended (two passes in a row, on a small board) is
            // not played in any more.
            if client.game.lock().position().is_over() {
                over += 1;
                continue;
            }
            let (pools, stored) = (pools.clone(), stored.clone());
            let (latencies, errors, deliveries) =
                (latencies.clone(), errors.clone(), deliveries.clone());
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
                let path = format!("/api/games/{}/turns", client.id);
                let body = format!("{{\"turn\":\"{notation}\",\"turn_number\":{number}}}");
                // Turn k of a game to instance k mod N.
                let at = post_to.unwrap_or(number % instances);
                // The id of the turn's event: the turns after it.
                let id = number as u64 + 1;
                let sent = Instant::now();
                client.marks.lock().insert(
                    id,
                    Mark {
                        sent,
                        answered: None,
                        instance: at,
                        early: Vec::new(),
                    },
                );
                // As the game page asks: the turn's event, not the game.
                let outcome = match pools[at].post(&path, &token, &body).await {
                    Ok((200, _)) => Ok(()),
                    Ok((s, b)) => Err(format!("{s}: {}", String::from_utf8_lossy(&b))),
                    Err(e) => Err(e.to_string()),
                };
                let took = sent.elapsed();
                match outcome {
                    Ok(()) => {
                        let second = (sent - start).as_secs();
                        latencies.lock().push((second, took));
                        client.answered.fetch_add(1, Ordering::Relaxed);
                        stored[at].fetch_add(1, Ordering::Relaxed);
                        client.game.lock().play(turn).unwrap();
                        // The streams that read the event before the answer.
                        let early: Vec<Delivery> = {
                            let mut marks = client.marks.lock();
                            let mark = marks.get_mut(&id).unwrap();
                            mark.answered = Some(sent + took);
                            std::mem::take(&mut mark.early)
                                .into_iter()
                                .map(|(read, on)| mark.delivery(read, on))
                                .collect()
                        };
                        deliveries.lock().extend(early);
                    }
                    Err(e) => {
                        let mark = client.marks.lock().remove(&id);
                        if let Some(mark) = mark {
                            UNMATCHED.fetch_add(mark.early.len() as u64, Ordering::Relaxed);
                        }
                        errors.lock().push(e)
                    }
                }
                client.busy.store(false, Ordering::Release);
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        let elapsed = start.elapsed();
        let cpu = cpu_since(&cpu_before, cpu_by_thread(), &owners, instances);
        let postgres_cpu = match (postgres_before, postmaster.and_then(postgres_ticks)) {
            (Some(before), Some(after)) => Some(after.saturating_sub(before) as f64 / 100.0),
            _ => None,
        };
        if timeline {
            // The answer times of the turns sent in each second of the run.
            let mut by_second = std::collections::BTreeMap::<u64, Vec<Duration>>::new();
            for &(second, took) in latencies.lock().iter() {
                by_second.entry(second).or_default().push(took);
            }
            for (second, mut t) in by_second {
                t.sort();
                let at = |q: f64| t[((t.len() as f64 * q).ceil() as usize).clamp(1, t.len()) - 1];
                println!(
                    "  second {second:>3}: {:>5} answered, p50 {:>7.2} ms, p99 {:>7.2} ms, max {:>7.2} ms",
                    t.len(),
                    at(0.5).as_secs_f64() * 1000.0,
                    at(0.99).as_secs_f64() * 1000.0,
                    t.last().map_or(0.0, |d| d.as_secs_f64() * 1000.0),
                );
            }
        }
        let mut l: Vec<Duration> = latencies.lock().iter().map(|&(_, took)| took).collect();
        l.sort();
        let at = |q: f64| l[((l.len() as f64 * q).ceil() as usize).clamp(1, l.len()) - 1];
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "{} turns answered in {:.1} s ({:.0}/s), {} errors, {} skipped (game busy), {} (game over)",
            l.len(),
            elapsed.as_secs_f64(),
            l.len() as f64 / elapsed.as_secs_f64(),
            errors.lock().len(),
            skipped,
            over
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
        if let Some(cpu) = cpu {
            let per_turn = |s: f64| s * 1e6 / l.len().max(1) as f64;
            println!(
                "CPU over the turns: server {:.1} s (user {:.1}, system {:.1}), database threads {:.1} s, \
                 clients {:.1} s; per turn answered: server {:.0} µs, database {:.0} µs, clients {:.0} µs",
                cpu.server.total(),
                cpu.server.user,
                cpu.server.system,
                cpu.db.total(),
                cpu.client.total(),
                per_turn(cpu.server.total()),
                per_turn(cpu.db.total()),
                per_turn(cpu.client.total()),
            );
            if postmaster.is_some() {
                println!(
                    "CPU of the listening threads (the notices of commits): {:.1} s, {:.0} µs per turn answered",
                    cpu.listen.total(),
                    per_turn(cpu.listen.total())
                );
            }
            if instances > 1 {
                for (i, (server, db)) in cpu.by_instance.iter().enumerate() {
                    let n = stored[i].load(Ordering::Relaxed);
                    println!(
                        "instance {i}: stored {n} turns; CPU server {:.1} s, database threads (listening included) \
                         {:.1} s; per turn answered by all: server {:.0} µs, database {:.0} µs",
                        server.total(),
                        db.total(),
                        per_turn(server.total()),
                        per_turn(db.total()),
                    );
                }
            }
        }
        if let Some(seconds) = postgres_cpu {
            println!(
                "CPU of PostgreSQL's processes over the turns: {seconds:.1} s, {:.0} µs per turn answered",
                seconds * 1e6 / l.len().max(1) as f64
            );
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
            // The streams still read what the last turns sent: each turn
            // answered is a `turn` event for each stream of its game.
            let expected: u64 = (0..subscribers)
                .map(|i| clients[i % clients.len()].answered.load(Ordering::Relaxed))
                .sum();
            let waiting = Instant::now();
            let had = || {
                TURNS_READ.load(Ordering::Relaxed) + TURNS_IN_GAMES.load(Ordering::Relaxed)
            };
            while had() < expected && waiting.elapsed() < Duration::from_secs(10) {
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            let read = TURNS_READ.load(Ordering::Relaxed);
            let in_games = TURNS_IN_GAMES.load(Ordering::Relaxed);
            println!(
                "the streams had {read} of the {expected} turns' events{} {:.0} ms after the last answer",
                if in_games > 0 {
                    format!(" (and {in_games} more turns in whole games resent)")
                } else {
                    String::new()
                },
                (start + elapsed).elapsed().as_secs_f64() * 1000.0
            );
            let _ = stop_reading.send(true);
            for s in streams.drain(..) {
                let _ = s.await;
            }
            let t = tally.lock();
            println!(
                "{subscribers} live-update streams open: {} updates read ({} turns, {} whole games), {:.1} MB; \
                 out of order or missed: {}, whole game resent to a slow reader: {}",
                t.events,
                t.turns,
                t.games,
                t.bytes as f64 / 1e6,
                t.out_of_order,
                t.resent
            );
            // How soon each turn's event reached the streams, from its
            // answer (and from its sending).
            let deliveries = std::mem::take(&mut *deliveries.lock());
            for other in [true, false] {
                let mut from_answer: Vec<f64> = Vec::new();
                let mut from_send: Vec<f64> = Vec::new();
                for d in deliveries.iter().filter(|d| d.other_instance == other) {
                    from_answer.push(d.from_answer * 1000.0);
                    from_send.push(d.from_send * 1000.0);
                }
                if from_answer.is_empty() {
                    continue;
                }
                from_answer.sort_by(f64::total_cmp);
                from_send.sort_by(f64::total_cmp);
                let early = from_answer.iter().filter(|&&t| t < 0.0).count();
                println!(
                    "turn events read on {}: {}, after the turn's answer: p50 {:.2} ms, p90 {:.2} ms, \
                     p99 {:.2} ms, max {:.2} ms ({early} read before the answer); after its sending: \
                     p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                    if other {
                        "another instance than the one that stored the turn"
                    } else {
                        "the instance that stored the turn"
                    },
                    from_answer.len(),
                    quantile(&from_answer, 0.50),
                    quantile(&from_answer, 0.90),
                    quantile(&from_answer, 0.99),
                    from_answer[from_answer.len() - 1],
                    quantile(&from_send, 0.50),
                    quantile(&from_send, 0.99),
                    from_send[from_send.len() - 1],
                );
            }
            let unmatched = UNMATCHED.load(Ordering::Relaxed);
            if unmatched > 0 {
                println!("turn events read of no turn answered: {unmatched}");
            }
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
    });
    for (server_rt, _, stop, serving) in servers {
        let _ = stop.send(());
        server_rt.block_on(serving).unwrap().unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether `base`'s instance knows game `id` (another instance created
/// it): waits until it does (a minute at most).
async fn known(http: &reqwest::Client, base: &str, id: &str) {
    let asked = Instant::now();
    loop {
        if let Ok(r) = http.get(format!("{base}/api/games/{id}")).send().await {
            let ok = r.status().as_u16() == 200;
            let _ = r.bytes().await;
            if ok {
                return;
            }
        }
        assert!(
            asked.elapsed() < Duration::from_secs(60),
            "game {id} unknown to {base} after a minute"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// The process id of the PostgreSQL server at `url` (its postmaster, the
/// parent of the connection's backend), when it runs on this machine.
fn postmaster_of(url: &str) -> Option<u64> {
    let mut client = postgres::Client::connect(url, postgres::NoTls).ok()?;
    let backend: i32 = client
        .query_one("SELECT pg_backend_pid()", &[])
        .ok()?
        .get(0);
    let stat = std::fs::read_to_string(format!("/proc/{backend}/stat")).ok()?;
    // `pid (name) state ppid …`
    let (_, rest) = stat.rsplit_once(") ")?;
    rest.split(' ').nth(1)?.parse().ok()
}

/// The CPU clock ticks (1/100 s) of the PostgreSQL server whose postmaster
/// is `postmaster`: its own, its processes' (backends, writers) and those of
/// its processes that ended (Linux: `/proc`).
fn postgres_ticks(postmaster: u64) -> Option<u64> {
    let mut ticks = 0;
    for process in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = process.file_name().to_string_lossy().parse::<u64>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(process.path().join("stat")) else {
            continue;
        };
        let Some((_, rest)) = stat.rsplit_once(") ") else {
            continue;
        };
        let fields: Vec<&str> = rest.split(' ').collect();
        let tick = |i: usize| {
            fields
                .get(i)
                .and_then(|f| f.parse::<u64>().ok())
                .unwrap_or(0)
        };
        let parent = tick(1);
        if pid == postmaster {
            // utime, stime, and the children's it waited for.
            ticks += tick(11) + tick(12) + tick(13) + tick(14);
        } else if parent == postmaster {
            ticks += tick(11) + tick(12);
        }
    }
    Some(ticks)
}

/// What the live-update streams read, all together.
#[derive(Default)]
struct Tally {
    /// Events (keep-alive comments aside).
    events: u64,
    /// `turn` events.
    turns: u64,
    /// `game` events (each stream's first, and any resent).
    games: u64,
    /// Bytes read.
    bytes: u64,
    /// Events whose `id:` (the turn number) does not follow on: a `turn`
    /// not one more than the event before it, any other event not equal.
    out_of_order: u64,
    /// `game` events after a stream's first: the server resent the whole
    /// game to a reader that fell behind.
    resent: u64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.events += other.events;
        self.turns += other.turns;
        self.games += other.games;
        self.bytes += other.bytes;
        self.out_of_order += other.out_of_order;
        self.resent += other.resent;
    }
}

/// Reads a stream of server-sent events as raw bytes: the `event:` and
/// `id:` lines of each event, its data skipped, and checks that the ids
/// follow on.
#[derive(Default)]
struct EventReader {
    tally: Tally,
    /// The start of a line cut by the end of a chunk (at most 32 bytes:
    /// enough for an `event:` or `id:` line).
    partial: Vec<u8>,
    /// Whether the cut line is longer than what `partial` keeps.
    long: bool,
    kind: Option<&'static str>,
    id: Option<u64>,
    last_id: Option<u64>,
    /// The stream's game and instance, to time its `turn` events.
    watch: Option<Watch>,
}

impl EventReader {
    fn read(&mut self, mut bytes: &[u8]) {
        self.tally.bytes += bytes.len() as u64;
        while let Some(end) = bytes.iter().position(|&b| b == b'\n') {
            let line = &bytes[..end];
            if self.partial.is_empty() && !self.long {
                self.line(line);
            } else {
                let mut whole = std::mem::take(&mut self.partial);
                whole.extend_from_slice(&line[..line.len().min(32)]);
                self.line(&whole);
                self.long = false;
            }
            bytes = &bytes[end + 1..];
        }
        let room = 32usize.saturating_sub(self.partial.len());
        self.long |= bytes.len() > room;
        self.partial
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    fn line(&mut self, line: &[u8]) {
        if line.is_empty() {
            self.event();
        } else if let Some(name) = line.strip_prefix(b"event: ") {
            self.kind = Some(match name {
                b"game" => "game",
                b"turn" => "turn",
                b"change" => "change",
                b"chat" => "chat",
                _ => "other",
            });
        } else if let Some(id) = line.strip_prefix(b"id: ") {
            self.id = std::str::from_utf8(id).ok().and_then(|s| s.parse().ok());
        }
    }

    /// The end of an event (or of a keep-alive comment, which has neither
    /// line).
    fn event(&mut self) {
        let (Some(kind), id) = (self.kind.take(), self.id.take()) else {
            return;
        };
        let t = &mut self.tally;
        t.events += 1;
        let follows = match (kind, self.last_id, id) {
            ("game", last, Some(id)) => {
                t.games += 1;
                if let Some(last) = last {
                    t.resent += 1;
                    // The turns it brings that the stream had no event of.
                    TURNS_IN_GAMES.fetch_add(id.saturating_sub(last), Ordering::Relaxed);
                } else {
                    STREAMS_OPEN.fetch_add(1, Ordering::Relaxed);
                }
                true
            }
            ("turn", Some(last), Some(id)) => {
                t.turns += 1;
                TURNS_READ.fetch_add(1, Ordering::Relaxed);
                if let Some(watch) = &self.watch {
                    watch.read(id);
                }
                id == last + 1
            }
            (_, Some(last), Some(id)) => id == last,
            _ => false,
        };
        if !follows {
            t.out_of_order += 1;
        }
        if id.is_some() {
            self.last_id = id;
        }
    }
}

/// CPU time, seconds.
#[derive(Clone, Copy, Default)]
struct Cpu {
    user: f64,
    system: f64,
}

impl Cpu {
    fn total(self) -> f64 {
        self.user + self.system
    }
}

/// CPU time by what the threads run: the server's runtime (threads named
/// `server`), its database threads (`sygo-db`, `sygo-checkpoint`), the
/// clients' runtime (`client`).
#[derive(Default)]
struct CpuUse {
    server: Cpu,
    db: Cpu,
    client: Cpu,
    /// The threads that listen to the notices of commits (`sygo-listen`,
    /// PostgreSQL), not in `db`.
    listen: Cpu,
    /// By instance: its server's runtime (`server-i`), and its database
    /// threads, listening included.
    by_instance: Vec<(Cpu, Cpu)>,
}

impl Cpu {
    fn add(&mut self, user: f64, system: f64) {
        self.user += user;
        self.system += system;
    }
}

/// Each thread of this process: its name and its (user, system) clock
/// ticks so far (Linux: `/proc/self/task`; `None` elsewhere).
fn cpu_by_thread() -> Option<std::collections::HashMap<u64, (String, u64, u64)>> {
    let mut all = std::collections::HashMap::new();
    for task in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
        let Ok(tid) = task.file_name().to_string_lossy().parse::<u64>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
            continue;
        };
        // `tid (name) state ppid …`: utime and stime are the 12th and 13th
        // fields after the name.
        let Some((head, rest)) = stat.rsplit_once(") ") else {
            continue;
        };
        let name = head.split_once(" (").map_or("", |(_, n)| n).to_string();
        let fields: Vec<&str> = rest.split(' ').collect();
        let tick = |i: usize| {
            fields
                .get(i)
                .and_then(|f| f.parse::<u64>().ok())
                .unwrap_or(0)
        };
        all.insert(tid, (name, tick(11), tick(12)));
    }
    Some(all)
}

/// The CPU time the threads spent between two readings of
/// [`cpu_by_thread`] (a thread gone meanwhile is not counted).
/// `owners`: the instance each database thread belongs to, by id (the
/// threads that appeared while it started).
fn cpu_since(
    before: &Option<std::collections::HashMap<u64, (String, u64, u64)>>,
    after: Option<std::collections::HashMap<u64, (String, u64, u64)>>,
    owners: &std::collections::HashMap<u64, usize>,
    instances: usize,
) -> Option<CpuUse> {
    let (before, after) = (before.as_ref()?, after?);
    let mut used = CpuUse {
        by_instance: vec![(Cpu::default(), Cpu::default()); instances],
        ..CpuUse::default()
    };
    for (tid, (name, user, system)) in after {
        let (u0, s0) = before.get(&tid).map_or((0, 0), |(_, u, s)| (*u, *s));
        // Clock ticks of 1/100 s (USER_HZ).
        let user = user.saturating_sub(u0) as f64 / 100.0;
        let system = system.saturating_sub(s0) as f64 / 100.0;
        let instance = owners.get(&tid).copied();
        match name.as_str() {
            "server" => {
                used.server.add(user, system);
                used.by_instance[0].0.add(user, system);
            }
            "sygo-db" | "sygo-checkpoint" => used.db.add(user, system),
            "sygo-listen" => used.listen.add(user, system),
            "client" => used.client.add(user, system),
            name => {
                if let Some(i) = name
                    .strip_prefix("server-")
                    .and_then(|i| i.parse::<usize>().ok())
                    .filter(|&i| i < instances)
                {
                    used.server.add(user, system);
                    used.by_instance[i].0.add(user, system);
                }
                continue;
            }
        }
        if let Some(i) = instance.filter(|&i| i < instances) {
            used.by_instance[i].1.add(user, system);
        }
    }
    Some(used)
}

/// Just enough HTTP/1.1 for the benchmark's busiest clients, on plain
/// sockets: a turn's request and its answer (with a `Content-Length`), and
/// a stream of live updates (chunked). A general client (reqwest: a URL
/// parsed, a pool consulted, headers built for every request) costs several
/// times the server's own work for such small requests, on the same cores.
mod raw {
    use std::io;
    use std::net::SocketAddr;

    use parking_lot::Mutex;
    use tokio::net::TcpStream;

    /// Writes all of `bytes`.
    async fn write_all(stream: &TcpStream, mut bytes: &[u8]) -> io::Result<()> {
        while !bytes.is_empty() {
            stream.writable().await?;
            match stream.try_write(bytes) {
                Ok(n) => bytes = &bytes[n..],
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Reads what is there (at least a byte) onto the end of `buf`; 0 at
    /// the end of the stream.
    async fn read_some(stream: &TcpStream, buf: &mut Vec<u8>) -> io::Result<usize> {
        loop {
            stream.readable().await?;
            let len = buf.len();
            buf.resize(len + 8 * 1024, 0);
            match stream.try_read(&mut buf[len..]) {
                Ok(n) => {
                    buf.truncate(len + n);
                    return Ok(n);
                }
                Err(e) => {
                    buf.truncate(len);
                    if e.kind() != io::ErrorKind::WouldBlock {
                        return Err(e);
                    }
                }
            }
        }
    }

    fn closed() -> io::Error {
        io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the server closed the connection",
        )
    }

    fn bad(what: &str) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, what.to_string())
    }

    /// Reads an answer's head: its status and the value of `header` (a
    /// lowercase name), and the bytes read past the head.
    async fn read_head(
        stream: &TcpStream,
        buf: &mut Vec<u8>,
        header: &str,
    ) -> io::Result<(u16, Option<String>, usize)> {
        let end = loop {
            if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            if read_some(stream, buf).await? == 0 {
                return Err(closed());
            }
        };
        let head = std::str::from_utf8(&buf[..end]).map_err(|_| bad("a head not in UTF-8"))?;
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad("no status"))?;
        let value = lines.find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case(header)
                .then(|| value.trim().to_ascii_lowercase())
        });
        Ok((status, value, end))
    }

    /// How long a connection may wait in the pool: under the server's
    /// idle keep-alive timeout (`config::READ_TIMEOUT`, 10 s), so that a
    /// request is never sent on a connection the server is closing, as a
    /// general client's pool does (reqwest's `pool_idle_timeout`).
    const IDLE: std::time::Duration = std::time::Duration::from_secs(5);

    /// Open connections to the server, reused from one request to the next.
    pub struct Pool {
        addr: SocketAddr,
        idle: Mutex<Vec<(TcpStream, Vec<u8>, std::time::Instant)>>,
    }

    impl Pool {
        pub fn new(addr: SocketAddr) -> Pool {
            Pool {
                addr,
                idle: Mutex::new(Vec::new()),
            }
        }

        /// `POST path` with a bearer token and a JSON body, asking for the
        /// minimal answer: the status and the answer's body.
        pub async fn post(
            &self,
            path: &str,
            token: &str,
            body: &str,
        ) -> io::Result<(u16, Vec<u8>)> {
            let idle = {
                let mut idle = self.idle.lock();
                // The oldest first: those idle too long are let go.
                idle.retain(|(_, _, since)| since.elapsed() < IDLE);
                idle.pop().map(|(stream, buf, _)| (stream, buf))
            };
            let (stream, mut buf) = match idle {
                Some(c) => c,
                None => {
                    let s = TcpStream::connect(self.addr).await?;
                    s.set_nodelay(true)?;
                    (s, Vec::with_capacity(16 * 1024))
                }
            };
            let request = format!(
                "POST {path} HTTP/1.1\r\nhost: {}\r\nauthorization: Bearer {token}\r\n\
                 prefer: return=minimal\r\ncontent-type: application/json\r\n\
                 content-length: {}\r\n\r\n{body}",
                self.addr,
                body.len()
            );
            write_all(&stream, request.as_bytes()).await?;
            buf.clear();
            let (status, length, start) = read_head(&stream, &mut buf, "content-length").await?;
            let length: usize = length
                .and_then(|l| l.parse().ok())
                .ok_or_else(|| bad("no content-length"))?;
            while buf.len() < start + length {
                if read_some(&stream, &mut buf).await? == 0 {
                    return Err(closed());
                }
            }
            let answer = buf[start..start + length].to_vec();
            if buf.len() == start + length {
                self.idle
                    .lock()
                    .push((stream, buf, std::time::Instant::now()));
            }
            Ok((status, answer))
        }
    }

    /// `GET path`, a stream of server-sent events: hands each piece of the
    /// stream's body to `read`, until the stream ends.
    pub async fn read_events(
        addr: SocketAddr,
        path: &str,
        mut read: impl FnMut(&[u8]),
    ) -> io::Result<()> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let request =
            format!("GET {path} HTTP/1.1\r\nhost: {addr}\r\naccept: text/event-stream\r\n\r\n");
        write_all(&stream, request.as_bytes()).await?;
        let mut buf = Vec::with_capacity(64 * 1024);
        let (status, encoding, start) = read_head(&stream, &mut buf, "transfer-encoding").await?;
        if status != 200 || encoding.as_deref() != Some("chunked") {
            return Err(bad(&format!(
                "status {status}, transfer-encoding {encoding:?}"
            )));
        }
        buf.drain(..start);
        // The chunked body: a size line, that many bytes, CRLF; … 0.
        let mut at = 0;
        let mut left = 0usize;
        loop {
            if left > 0 {
                let n = left.min(buf.len() - at);
                read(&buf[at..at + n]);
                at += n;
                left -= n;
                if left > 0 {
                    buf.clear();
                    at = 0;
                    if read_some(&stream, &mut buf).await? == 0 {
                        return Ok(());
                    }
                    continue;
                }
            }
            // A size line (after the CRLF that ends the chunk before).
            let line = buf[at..]
                .windows(2)
                .enumerate()
                .find_map(|(i, w)| (w == b"\r\n" && i > 0).then_some(i));
            let Some(end) = line else {
                buf.drain(..at);
                at = 0;
                if read_some(&stream, &mut buf).await? == 0 {
                    return Ok(());
                }
                continue;
            };
            let text = std::str::from_utf8(&buf[at..at + end]).map_err(|_| bad("a chunk size"))?;
            let size = usize::from_str_radix(text.trim_start_matches("\r\n").trim(), 16)
                .map_err(|_| bad("a chunk size"))?;
            if size == 0 {
                return Ok(());
            }
            at += end + 2;
            left = size;
        }
    }
}
