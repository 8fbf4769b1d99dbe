//! Two `sygo serve` processes and a `sygo worker` on one PostgreSQL
//! database, as a host runs them behind a load balancer: games played
//! through both servers in turn, the worker and one server killed with
//! SIGKILL in the middle of it, the worker in the middle of a review too.
//! Every turn a server acknowledged is stored, and every AI turn still due
//! and the review are finished by the survivors.
//!
//! PostgreSQL only: `scripts/test.sh` runs it on the PostgreSQL server it
//! starts (`SYGO_TEST_POSTGRES`), with `--include-ignored`.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use serde_json::{Value, json};

use crate::common::first_line;
use sygo_rules::{Game, Geometry, Position, Turn, Variant};

/// A running `sygo serve` or `sygo worker`.
struct Process {
    child: Child,
    /// The server's address (none for a worker).
    addr: Option<String>,
}

impl Process {
    fn serve(db: &str, ai_slots: usize) -> Process {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sygo"))
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--no-rate-limits",
                "--db",
                db,
            ])
            .args(["--ai-slots", &ai_slots.to_string()])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let line = first_line(&mut child);
        let addr = line
            .trim()
            .strip_prefix("sygo web app: open http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
            .to_string();
        Process {
            child,
            addr: Some(addr),
        }
    }

    fn worker(db: &str) -> Process {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sygo"))
            .args(["worker", "--ai-slots", "2", "--db", db])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let line = first_line(&mut child);
        assert!(line.starts_with("sygo worker: "), "{line:?}");
        Process { child, addr: None }
    }

    /// SIGKILL: no chance to let go of anything.
    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One request over a new connection: status and JSON body; `None` when
/// the server does not answer (killed).
fn request(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    token: Option<&str>,
) -> Option<(u16, Value)> {
    let mut stream = TcpStream::connect(addr).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n{auth}\r\n{body}",
        body.len()
    )
    .ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    let status: u16 = answer.split(' ').nth(1)?.parse().ok()?;
    let (_, text) = answer.split_once("\r\n\r\n")?;
    Some((status, serde_json::from_str(text).unwrap_or(Value::Null)))
}

/// A 19×19 game of 60 random turns between two people made on the server
/// at `addr`, its review asked for there (about 8 s of a core's work); its
/// id.
fn reviewed_game(addr: &str) -> String {
    let (status, body) = request(
        addr,
        "POST",
        "/api/games",
        Some(&json!({"variant": "sygo", "size": 19,
                     "black": {"kind": "human"}, "white": {"kind": "human"}})),
        None,
    )
    .unwrap();
    assert_eq!(status, 201, "{body}");
    let id = body["game"]["id"].as_str().unwrap().to_string();
    let tokens = [
        body["tokens"]["black"].as_str().unwrap().to_string(),
        body["tokens"]["white"].as_str().unwrap().to_string(),
    ];
    let mut game = replay(&body["game"]);
    for n in 0..60 {
        if game.position().is_over() {
            break;
        }
        let token =
            &tokens[usize::from(game.position().side_to_move() == sygo_rules::Color::White)];
        let (status, after) = request(
            addr,
            "POST",
            &format!("/api/games/{id}/turns"),
            Some(&json!({"turn": random_turn(&game, 1000 + n), "turn_number": n})),
            Some(token),
        )
        .unwrap();
        assert_eq!(status, 200, "{after}");
        game = replay(&after);
    }
    let (status, body) =
        request(addr, "POST", &format!("/api/games/{id}/review"), None, None).unwrap();
    assert_eq!(status, 202, "{body}");
    id
}

/// The game a game JSON describes, replayed by the rules library.
fn replay(game: &Value) -> Game {
    let variant = Variant::from_name(game["variant"].as_str().unwrap()).unwrap();
    let g = Geometry::new(variant, game["size"].as_u64().unwrap() as u8).unwrap();
    let mut replayed = Game::new(Position::new(g));
    for t in game["turns"].as_array().unwrap() {
        let turn = Turn::parse(t["turn"].as_str().unwrap(), &g).unwrap();
        replayed.play(turn).unwrap();
    }
    replayed
}

/// A random legal turn for the side to move, in notation.
fn random_turn(game: &Game, seed: u64) -> String {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let stones = game.position().random_turn_stones(&mut rng);
    if stones.is_empty() {
        "pass".to_string()
    } else {
        Turn::Stones(stones).to_notation(&game.position().geometry())
    }
}

/// A game of the test: its id, tokens, whether White is the AI, and every
/// turn a server acknowledged, by number.
struct Played {
    id: String,
    black: String,
    white: String,
    ai: bool,
    acknowledged: Vec<(usize, String)>,
}

#[test]
#[ignore = "needs PostgreSQL: scripts/test.sh runs it"]
fn two_servers_and_a_worker_lose_nothing_acknowledged_when_killed() {
    let server = std::env::var("SYGO_TEST_POSTGRES")
        .ok()
        .filter(|s| !s.is_empty())
        .expect("this test needs PostgreSQL: run it with scripts/test.sh");
    let server = server.trim_end_matches('/');
    let name = format!("cluster_kill_{}", std::process::id());
    let mut client =
        postgres::Client::connect(&format!("{server}/postgres"), postgres::NoTls).unwrap();
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap();
    let db = format!("{server}/{name}");

    // A leaves the AI to others; the worker plays it; B, started once the
    // worker is reviewing a game, plays it too.
    let mut a = Process::serve(&db, 0);
    let mut worker = Process::worker(&db);
    let addr_a = a.addr.clone().unwrap();
    let reviewed = reviewed_game(&addr_a);
    let review_path = format!("/api/games/{reviewed}/review");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, review) = request(&addr_a, "GET", &review_path, None, None).unwrap();
        if review["status"] == "running" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the worker never took the review: {review}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let b = Process::serve(&db, 1);
    let addr_b = b.addr.clone().unwrap();

    let mut games = Vec::new();
    for i in 0..8 {
        let ai = i % 2 == 1;
        let white = if ai {
            json!({"kind": "ai", "level": 1, "time_ms": 100})
        } else {
            json!({"kind": "human"})
        };
        let addr = if i % 2 == 0 { &addr_a } else { &addr_b };
        let (status, body) = request(
            addr,
            "POST",
            "/api/games",
            Some(
                &json!({"variant": if i % 4 < 2 { "sygo" } else { "hexsygo" },
                          "size": if i % 4 < 2 { 7 } else { 4 },
                          "black": {"kind": "human"}, "white": white}),
            ),
            None,
        )
        .unwrap();
        assert_eq!(status, 201, "{body}");
        games.push(Played {
            id: body["game"]["id"].as_str().unwrap().to_string(),
            black: body["tokens"]["black"].as_str().unwrap().to_string(),
            // No token for the AI's side.
            white: body["tokens"]["white"].as_str().unwrap_or("").to_string(),
            ai,
            acknowledged: Vec::new(),
        });
    }

    // Turns through both servers in turn; the worker killed after some
    // turns (counted, not timed: a loaded machine plays fewer a second),
    // then server A.
    let deadline = Instant::now() + Duration::from_secs(180);
    let mut round = 0u64;
    let (mut worker_killed, mut a_killed) = (false, false);
    loop {
        let count: usize = games.iter().map(|p| p.acknowledged.len()).sum();
        if count >= 60 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "only {count} turns acknowledged in 180 s"
        );
        if !worker_killed && count >= 15 {
            // In the middle of the review: some positions made, not all.
            let (_, review) = request(&addr_a, "GET", &review_path, None, None).unwrap();
            let done = review["positions_done"].as_u64().unwrap();
            assert!(
                review["status"] == "running" && done < review["positions_total"].as_u64().unwrap(),
                "the review is not under way when the worker is killed: {review}"
            );
            worker.kill();
            worker_killed = true;
        }
        if !a_killed && count >= 30 {
            a.kill();
            a_killed = true;
        }
        for (g, played) in games.iter_mut().enumerate() {
            round += 1;
            let addr = if a_killed || (round + g as u64) % 2 == 0 {
                &addr_b
            } else {
                &addr_a
            };
            let Some((200, body)) = request(
                addr,
                "GET",
                &format!("/api/games/{}", played.id),
                None,
                None,
            ) else {
                continue;
            };
            let game = replay(&body);
            if game.position().is_over() {
                continue;
            }
            let to_move = game.position().side_to_move();
            if played.ai && to_move == sygo_rules::Color::White {
                continue; // the AI's turn: someone's job
            }
            let token = if to_move == sygo_rules::Color::Black {
                &played.black
            } else {
                &played.white
            };
            let number = game.turns().len();
            let turn = random_turn(&game, round);
            if let Some((200, _)) = request(
                addr,
                "POST",
                &format!("/api/games/{}/turns", played.id),
                Some(&json!({"turn": turn, "turn_number": number})),
                Some(token),
            ) {
                played.acknowledged.push((number + 1, turn));
            }
        }
    }
    assert!(worker_killed && a_killed);

    // Every AI turn still due is played by B, the survivor, once the
    // killed takers' leases run out.
    let deadline = Instant::now() + Duration::from_secs(60);
    for played in games.iter().filter(|p| p.ai) {
        loop {
            let (status, body) = request(
                &addr_b,
                "GET",
                &format!("/api/games/{}", played.id),
                None,
                None,
            )
            .unwrap();
            assert_eq!(status, 200);
            let game = replay(&body);
            if game.position().is_over()
                || game.position().side_to_move() == sygo_rules::Color::Black
            {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "game {}: the AI's turn {} was never played",
                played.id,
                game.turns().len() + 1
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    // The review the worker left is taken up by B, once the worker's lease
    // runs out, and finished: every position reviewed. On a loaded machine
    // it takes long: the deadline is for a position to be made (the lease
    // and one position), not for the whole review.
    let mut done = 0;
    let mut deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let (_, review) = request(&addr_b, "GET", &review_path, None, None).unwrap();
        if review["status"] == "done" {
            assert_eq!(
                review["positions_done"], review["positions_total"],
                "{review}"
            );
            break;
        }
        let now_done = review["positions_done"].as_u64().unwrap_or(0);
        if now_done > done {
            done = now_done;
            deadline = Instant::now() + Duration::from_secs(120);
        }
        assert!(
            Instant::now() < deadline,
            "the review made no position for 120 s: {review}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }

    // A new server reading the database has every turn acknowledged, at
    // its number.
    let c = Process::serve(&db, 1);
    let addr_c = c.addr.clone().unwrap();
    let mut acknowledged = 0;
    for played in &games {
        let (status, body) = request(
            &addr_c,
            "GET",
            &format!("/api/games/{}", played.id),
            None,
            None,
        )
        .unwrap();
        assert_eq!(status, 200);
        let turns = body["turns"].as_array().unwrap();
        for (number, turn) in &played.acknowledged {
            let stored = turns
                .get(number - 1)
                .and_then(|t| t["turn"].as_str())
                .unwrap_or_else(|| panic!("game {}: turn {number} is lost", played.id));
            assert_eq!(
                stored.to_ascii_lowercase(),
                turn.to_ascii_lowercase(),
                "game {}, turn {number}",
                played.id
            );
            acknowledged += 1;
        }
    }
    assert!(acknowledged >= 60, "only {acknowledged} turns were played");
    drop((b, c));
}
