//! The players never play an illegal turn and never lose on time.
//!
//! Whole games on both boards of several sizes: the strongest player (every
//! core) against the random player and against plain UCT, and UCT against
//! the random player, with short time budgets (a few milliseconds to 30 ms a
//! turn). Every turn is timed and played through `Game::play`, which must
//! accept it; none may take longer than the arena's forfeit threshold
//! ([`overrun_limit`]: the budget plus a tenth, at least 20 ms more). The
//! exact budget is not the bar: a busy machine delays threads by a few
//! milliseconds, which the threshold allows for. On a machine so loaded that
//! the player's threads wait longer than that for a core, a turn over the
//! threshold is excused (and counted) when the player did not even get the
//! threshold's worth of CPU time per search thread during the turn: the
//! machine held it back, not the player. Then the levels 1 to 5, with visit
//! budgets, play games whose turns must all be legal.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use sygo_ai::overrun_limit;
use sygo_ai::{Budget, MctsPlayer, Player, RandomPlayer, UctPlayer};
use sygo_rules::{Game, Geometry, Position, Turn};

/// The tests run one at a time: each measures the process's CPU time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The CPU time the whole process has used (all its threads), from
/// `/proc/self/stat` (in ticks of 10 ms); `None` where there is no such file.
fn process_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's closing parenthesis; utime and stime
    // are fields 14 and 15 of the whole line.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// What the games of a run saw.
#[derive(Debug, Default)]
struct Tally {
    games: usize,
    turns: usize,
    /// Turns of players that search (the random player's are not timed).
    timed_turns: usize,
    /// The largest time over budget, with the turn's board and budget.
    worst_overrun: Option<(Duration, String, Duration)>,
    /// The longest turn.
    longest: Duration,
    /// Turns that took longer than the forfeit threshold, with the player
    /// on the CPU for longer than that: the player's own overruns.
    forfeits: Vec<String>,
    /// Turns over the forfeit threshold while the machine held the player
    /// back.
    excused: Vec<String>,
}

impl Tally {
    fn report(&self, what: &str, elapsed: Duration) {
        let worst = match &self.worst_overrun {
            Some((over, board, budget)) => format!(
                "largest overrun {:.1} ms (a {} ms turn on {board})",
                over.as_secs_f64() * 1000.0,
                budget.as_millis()
            ),
            None => "no turn over its budget".to_string(),
        };
        println!(
            "{what}: {} games, {} turns ({} searched), longest turn {:.1} ms, {worst}, in {:.1} s",
            self.games,
            self.turns,
            self.timed_turns,
            self.longest.as_secs_f64() * 1000.0,
            elapsed.as_secs_f64()
        );
        for excused in &self.excused {
            println!("  excused (the machine was busy): {excused}");
        }
    }
}

/// A player by name, and the threads it searches on (0: it does not search,
/// and its turns are not timed).
fn player(kind: &str, seed: u64) -> (Box<dyn Player>, usize) {
    match kind {
        "random" => (Box::new(RandomPlayer::new(seed)), 0),
        "uct" => (Box::new(UctPlayer::new(seed)), 1),
        _ => {
            let level = match kind.strip_prefix("mcts") {
                Some("") => 6,
                Some(level) => level.parse().unwrap(),
                None => panic!("no player {kind}"),
            };
            let mcts = MctsPlayer::level(level, seed).unwrap();
            let threads = mcts.settings().threads;
            (Box::new(mcts), threads)
        }
    }
}

/// One game to play: the board, the players, each turn's budget.
struct Match<'a> {
    geometry: Geometry,
    white: &'a str,
    black: &'a str,
    budget: Budget,
    /// The game stops here if it has not ended.
    max_turns: usize,
    seed: u64,
}

/// Plays one whole game (at most `max_turns` turns); checks every turn and
/// counts it in `tally`.
fn play_game(m: &Match, tally: &mut Tally) {
    let &Match {
        geometry,
        white,
        black,
        budget,
        max_turns,
        seed,
    } = m;
    let mut players = [player(white, seed), player(black, seed + 1)];
    let mut game = Game::new(Position::new(geometry));
    tally.games += 1;
    while !game.position().is_over() && game.turns().len() < max_turns {
        let side = game.position().side_to_move().index();
        let (player, threads) = &mut players[if side == 1 { 0 } else { 1 }];
        let cpu_before = process_cpu();
        let started = Instant::now();
        let decision = player.choose(&game, &budget);
        let took = started.elapsed();
        let cpu = process_cpu()
            .zip(cpu_before)
            .map(|(a, b)| a.saturating_sub(b));
        let notation = decision.turn.to_notation(&geometry);
        let name = player.name();
        let before = game.position().diagram();
        if let Err(e) = game.play(decision.turn.clone()) {
            panic!(
                "{name} played the illegal turn {notation} on {}: {e}\n{before}",
                geometry.name()
            );
        }
        tally.turns += 1;
        if *threads == 0 {
            continue;
        }
        tally.timed_turns += 1;
        tally.longest = tally.longest.max(took);
        if let Some(time) = budget.time {
            let over = took.saturating_sub(time);
            if over > tally.worst_overrun.as_ref().map_or(Duration::ZERO, |w| w.0) {
                tally.worst_overrun = Some((over, geometry.name(), time));
            }
            let limit = overrun_limit(time);
            if took > limit {
                let what = format!(
                    "{name} took {:.1} ms of {} ms for {notation} on {} (turn {}), with {} ms \
                     of CPU time on {threads} threads",
                    took.as_secs_f64() * 1000.0,
                    time.as_millis(),
                    geometry.name(),
                    game.turns().len(),
                    cpu.map_or("unknown".to_string(), |c| c.as_millis().to_string()),
                );
                // The CPU time is counted in ticks of 10 ms.
                let held_back = cpu.is_some_and(|cpu| {
                    cpu.saturating_sub(Duration::from_millis(10)) / *threads as u32 <= limit
                });
                if held_back {
                    tally.excused.push(what);
                } else {
                    tally.forfeits.push(what);
                }
            }
        }
        // A resignation ends the game; nothing more to check.
        if decision.turn == Turn::Resign {
            break;
        }
    }
}

fn sygo(n: u8) -> Geometry {
    Geometry::sygo(n).unwrap()
}

fn hex(n: u8) -> Geometry {
    Geometry::hexsygo(n).unwrap()
}

/// The boards of the runs: square 5 to 19, hex 3 to 10.
fn boards() -> Vec<Geometry> {
    vec![
        sygo(5),
        sygo(7),
        sygo(9),
        sygo(13),
        sygo(19),
        hex(3),
        hex(5),
        hex(7),
        hex(10),
    ]
}

#[test]
fn no_illegal_turn_and_no_time_forfeit_with_short_time_budgets() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let started = Instant::now();
    let mut tally = Tally::default();
    let matches = [
        ("mcts", "random", 3),
        ("random", "mcts", 10),
        ("mcts", "uct", 30),
        ("uct", "mcts", 5),
        ("uct", "random", 10),
    ];
    let mut seed = 1;
    for geometry in boards() {
        for &(white, black, ms) in &matches {
            // Long games on the big boards: enough turns to see them through
            // the opening and the middle game.
            let max_turns = if geometry.num_points() > 200 { 60 } else { 400 };
            let m = Match {
                geometry,
                white,
                black,
                budget: Budget::time(Duration::from_millis(ms)),
                max_turns,
                seed,
            };
            play_game(&m, &mut tally);
            seed += 2;
        }
    }
    tally.report("time budgets", started.elapsed());
    assert!(
        tally.forfeits.is_empty(),
        "{} turns over the forfeit threshold:\n{}",
        tally.forfeits.len(),
        tally.forfeits.join("\n")
    );
    assert!(
        tally.timed_turns >= 1000,
        "only {} turns",
        tally.timed_turns
    );
}

#[test]
fn the_levels_play_only_legal_turns_with_visit_budgets() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let started = Instant::now();
    let mut tally = Tally::default();
    let mut seed = 1000;
    for geometry in [sygo(5), hex(3), sygo(7), hex(4), sygo(9), hex(5), sygo(13)] {
        for level in 1..=5u8 {
            // Levels 1 and 2 with their own number of simulations (50, 200);
            // the others with a budget of visits below theirs (and the
            // opponent with the same).
            let budget = Budget::visits(match level {
                1 => 50,
                2 => 200,
                _ => 400,
            });
            let me = format!("mcts{level}");
            let other = if level % 2 == 0 { "random" } else { "uct" };
            let (white, black) = if seed % 2 == 0 {
                (me.as_str(), other)
            } else {
                (other, me.as_str())
            };
            let m = Match {
                geometry,
                white,
                black,
                budget,
                max_turns: 150,
                seed,
            };
            play_game(&m, &mut tally);
            seed += 3;
        }
    }
    tally.report("visit budgets, levels 1-5", started.elapsed());
    assert!(tally.timed_turns >= 500, "only {} turns", tally.timed_turns);
}
