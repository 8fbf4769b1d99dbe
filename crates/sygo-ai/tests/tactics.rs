//! Tactics: positions with one right idea, solved by the strongest player.
//!
//! Each position has a forced capture to make in one turn, or a group of the
//! side to move to save in one turn. The answer is a predicate over the
//! position after the turn (a growth turn may add stones that do not matter),
//! checked with the rules library:
//!
//! - [`Goal::Capture`]: every stone of the opponent's groups named is now the
//!   mover's;
//! - [`Goal::Save`]: every stone of the mover's group named is still the
//!   mover's, and no turn of the opponent (searched exhaustively) can reverse
//!   any of them;
//! - [`Goal::CaptureSafely`]: both: the groups named are captured, and the
//!   opponent cannot take any of those stones back on the next turn.
//!
//! Before the search, each position is checked: the intended solution meets
//! the goal, and a tempting legal turn (`wrong`) does not, so no position is
//! trivial. The uniformly random player's success rate is measured for each.
//! The strongest player must solve at least 90%: with its settings on one
//! thread and a fixed number of simulations a position (the same turns on
//! every run, whatever the machine and its load: the test of the suite), and
//! as users get it, on every core at one second a position (a timed test,
//! ignored: run it with `--ignored` on an idle machine). A line per position
//! says what it played, and for a miss the turns it preferred.
//! `TACTICS=words` runs only the positions whose names contain the words.
//!
//! The strongest player's playouts barely tell a tactic from a quiet turn on
//! an open board, where random play reverses big groups back and forth;
//! what helps it find them is the static part of its value (the stones won
//! by captures since the root, `docs/ai.md`). `playout_values` (ignored: a
//! diagnostic) prints, for each position, the side to move's share of games
//! won after the solution, after the wrong turn and after a pass, in
//! uniformly random games and in the strong player's playouts, and the
//! latter's mean margin. `TACTICS_OPTIONS=static=0,visits=40000` changes the
//! strongest player's settings for an experiment.
//!
//! In the drawings `X` is Black, `O` White, `.` vacant (see
//! `sygo-rules/tests/common/diagram.rs`, which reads them). On the hex board
//! a cell's neighbours are the two beside it in its row and the two touching
//! it in the rows above and below.

#[allow(dead_code)]
#[path = "../../sygo-rules/tests/common/diagram.rs"]
mod diagram;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use diagram::Growth;
use sygo_ai::{Budget, MctsPlayer, Player, RandomPlayer};
use sygo_rules::{Color, Game, Geometry, Point, Position, Turn};

/// What the side to move must achieve in its turn.
#[derive(Clone, Copy, Debug)]
enum Goal {
    /// Reverse every stone of the opponent's groups at these points
    /// (comma-separated).
    Capture(&'static str),
    /// Keep the mover's group at this point: the opponent's next turn cannot
    /// reverse any of its stones.
    Save(&'static str),
}

/// A tactics position.
struct Puzzle {
    name: &'static str,
    geometry: Geometry,
    to_move: Color,
    /// Whether a growth turn has been played (Black's balance turn is gone).
    growth: Growth,
    board: &'static str,
    goal: Goal,
    /// A turn that meets the goal.
    solution: &'static str,
    /// A legal, tempting turn that does not.
    wrong: &'static str,
}

fn sygo(n: u8) -> Geometry {
    Geometry::sygo(n).unwrap()
}

fn hex(n: u8) -> Geometry {
    Geometry::hexsygo(n).unwrap()
}

impl Puzzle {
    fn start(&self) -> Position {
        diagram::position(self.geometry, self.to_move, self.growth, self.board).0
    }

    fn turn(&self, text: &str) -> Turn {
        Turn::parse(text, &self.geometry).unwrap_or_else(|e| panic!("{}: {text}: {e}", self.name))
    }

    /// The stones the goal is about, in the start position.
    fn targets(&self, start: &Position) -> Vec<Point> {
        let points = match self.goal {
            Goal::Capture(p) | Goal::Save(p) => p,
        };
        let mut stones = Vec::new();
        for v in points.split(',') {
            let p = self.geometry.parse_point(v).unwrap();
            let color = start
                .stone_at(p)
                .unwrap_or_else(|| panic!("{}: {v} is vacant", self.name));
            let owner = match self.goal {
                Goal::Save(_) => self.to_move,
                _ => self.to_move.opponent(),
            };
            assert_eq!(color, owner, "{}: the stone at {v}", self.name);
            stones.extend(start.group(p));
        }
        stones
    }

    /// Whether `turn`, played in the start position, meets the goal (`Err`:
    /// the turn is illegal).
    fn solved_by(&self, turn: &Turn) -> Result<bool, String> {
        let start = self.start();
        let targets = self.targets(&start);
        let mut after = start.clone();
        after.play_turn(turn).map_err(|e| format!("illegal: {e}"))?;
        if after.is_over() {
            return Ok(false);
        }
        let mine = targets
            .iter()
            .all(|&p| after.stone_at(p) == Some(self.to_move));
        Ok(match self.goal {
            Goal::Capture(_) => mine,
            Goal::Save(_) => mine && !can_reverse(&after, &targets),
        })
    }
}

/// Whether the side to move in `pos` has a turn that reverses any of
/// `targets`: every turn is searched, step by step (states reached twice
/// within the turn are searched once: a state is its stones, their colours
/// and which are new, and that decides every base group's status).
fn can_reverse(pos: &Position, targets: &[Point]) -> bool {
    fn search(pos: &Position, targets: &[Point], seen: &mut HashSet<u64>) -> bool {
        let mover = pos.side_to_move();
        if pos.turn_in_progress()
            && targets.iter().any(|&p| pos.stone_at(p) == Some(mover))
            && pos.check_finish().is_ok()
        {
            return true;
        }
        if !seen.insert(pos.hash()) {
            return false;
        }
        assert!(seen.len() < 2_000_000, "too many states to search");
        pos.allowed_steps().into_iter().any(|p| {
            let mut next = pos.clone();
            next.play_step(p).expect("an allowed step");
            search(&next, targets, seen)
        })
    }
    search(pos, targets, &mut HashSet::new())
}

/// The random player's rate of success over `tries` turns.
fn random_rate(puzzle: &Puzzle, tries: u64) -> f64 {
    let game = Game::new(puzzle.start());
    let solved = (0..tries)
        .filter(|&seed| {
            let turn = RandomPlayer::new(seed)
                .choose(&game, &Budget::default())
                .turn;
            puzzle.solved_by(&turn) == Ok(true)
        })
        .count();
    solved as f64 / tries as f64
}

/// Every position is sound: its solution meets its goal, and its tempting
/// wrong turn is legal and does not.
#[test]
fn every_position_has_a_solution_and_a_wrong_turn() {
    for puzzle in puzzles() {
        let start = puzzle.start();
        assert_eq!(
            puzzle.solved_by(&puzzle.turn(puzzle.solution)),
            Ok(true),
            "{}: the solution {} fails\n{}",
            puzzle.name,
            puzzle.solution,
            start.diagram()
        );
        assert_eq!(
            puzzle.solved_by(&puzzle.turn(puzzle.wrong)),
            Ok(false),
            "{}: the wrong turn {} is illegal or solves it\n{}",
            puzzle.name,
            puzzle.wrong,
            start.diagram()
        );
        // Doing nothing never solves it.
        assert_eq!(puzzle.solved_by(&Turn::Pass), Ok(false), "{}", puzzle.name);
    }
}

/// The strongest player's settings on one thread with a fixed number of
/// simulations a position: reproducible, whatever the machine and its load.
/// 30,000 simulations is about what one thread reads in a second on the
/// middle-sized boards of the set (docs/performance.md).
const VISITS: u64 = 30_000;

/// The strongest player's settings, one thread, [`VISITS`] simulations a
/// position (the same turns on every run and machine), solves at least 90%.
#[test]
fn the_strongest_player_solves_the_tactics() {
    let options = vec![
        ("threads".to_string(), "1".to_string()),
        ("visits".to_string(), VISITS.to_string()),
    ];
    solve_tactics(&options, &Budget::visits(VISITS));
}

/// The strongest player as users get it (every core, one second a
/// position) solves at least 90%: the figure of docs/ai.md. Ignored as a
/// timed test (its result depends on the machine and its load); run it with
/// `cargo test --release -p sygo-ai --test tactics -- --ignored --nocapture`.
#[test]
#[ignore = "timed: run it on an idle machine (see docs/ai.md, Tactics)"]
fn the_strongest_player_solves_the_tactics_in_one_second() {
    solve_tactics(&[], &Budget::time(Duration::from_secs(1)));
}

/// Lets the player with `options` (and any of `TACTICS_OPTIONS`) choose a
/// turn in each position within `budget`, prints a line per position, and
/// checks that at least 90% are solved.
fn solve_tactics(options: &[(String, String)], budget: &Budget) {
    // TACTICS=words runs only the positions whose names contain them.
    let only = std::env::var("TACTICS").unwrap_or_default();
    let puzzles: Vec<Puzzle> = puzzles()
        .into_iter()
        .filter(|p| p.name.contains(only.as_str()))
        .collect();
    // TACTICS_OPTIONS=visits=50000,static=0 changes the player's settings
    // (MctsSettings::set), for experiments.
    let mut options = options.to_vec();
    options.extend(
        std::env::var("TACTICS_OPTIONS")
            .unwrap_or_default()
            .split(',')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string())),
    );
    let mut solved = 0;
    let mut random_total = 0.0;
    let started = Instant::now();
    for (i, puzzle) in puzzles.iter().enumerate() {
        let random = random_rate(puzzle, 100);
        random_total += random;
        let game = Game::new(puzzle.start());
        let mut player = MctsPlayer::from_options(1000 + i as u64, &options).unwrap();
        let decision = player.choose(&game, budget);
        let (visits, win_rate) = decision
            .analysis
            .as_ref()
            .map_or((0, 0.0), |a| (a.visits, a.win_rate));
        let outcome = puzzle.solved_by(&decision.turn);
        let ok = outcome == Ok(true);
        solved += usize::from(ok);
        if !ok && let Some(a) = &decision.analysis {
            for c in a.candidates.iter().take(6) {
                println!(
                    "       candidate {:<20} {:>6} visits, win rate {:>3.0}%, score {:>+6.1}{}",
                    c.turn.to_notation(&puzzle.geometry),
                    c.visits,
                    c.win_rate * 100.0,
                    c.score_lead,
                    if puzzle.solved_by(&c.turn) == Ok(true) {
                        " (solves it)"
                    } else {
                        ""
                    }
                );
            }
        }
        println!(
            "{:<4} {:<46} {:<11} played {:<16} {:>7} visits, win rate {:>3.0}% (random player: {:>3.0}%){}",
            if ok { "ok" } else { "FAIL" },
            puzzle.name,
            puzzle.geometry.name(),
            decision.turn.to_notation(&puzzle.geometry),
            visits,
            win_rate * 100.0,
            random * 100.0,
            match outcome {
                Err(e) => format!(" {e}"),
                Ok(_) => String::new(),
            }
        );
    }
    let rate = solved as f64 / puzzles.len() as f64;
    println!(
        "solved {solved} of {} ({:.0}%) in {:.1} s; the random player solves {:.0}% on average",
        puzzles.len(),
        rate * 100.0,
        started.elapsed().as_secs_f64(),
        random_total / puzzles.len() as f64 * 100.0
    );
    assert!(rate >= 0.9, "solved only {solved} of {}", puzzles.len());
}

/// The positions: about half on each board, of every size.
fn puzzles() -> Vec<Puzzle> {
    vec![
        // Black's block of nine has two liberties: B5, touched only by White's
        // C5-D5, and D1, touched by B1-C1 and the E-group. Two white groups grow in
        // one turn and reverse all nine; B5 alone only puts the block in atari.
        // (Black to move would grow out instead.)
        Puzzle {
            name: "white captures a nine-stone block with two growths",
            geometry: sygo(5),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                A B C D E
              5 . . O O . 5
              4 O X X X O 4
              3 O X X X O 3
              2 O X X X O 2
              1 . O O . O 1
                A B C D E
            ",
            goal: Goal::Capture("C3"),
            solution: "B5,D1",
            wrong: "B5",
        },
        // Black's C3-C4 is in atari at C2, where White may place. White's D3-D4
        // is in atari too, at D2, which touches no black stone: a placement at D2
        // reverses it and joins Black's stones into one group (growing to C2 also
        // survives). Growing the E-group instead lets White place at C2.
        Puzzle {
            name: "black saves the group in atari by capturing",
            geometry: sygo(6),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                A B C D E F
              6 . . . . . . 6
              5 . . O X . . 5
              4 . O X O X . 4
              3 . O X O X . 3
              2 . . . . . . 2
              1 . . . . . . 1
                A B C D E F
            ",
            goal: Goal::Save("C4"),
            solution: "D2",
            wrong: "E2",
        },
        // Both white groups are in atari: C5-C6 at C7 (touching Black's B-group),
        // E2-E3 at E1 (touching the F-group). Two different black groups grow, so
        // one growth turn takes both; C7 alone takes one.
        Puzzle {
            name: "black captures two groups in one growth turn",
            geometry: sygo(7),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                A B C D E F G
              7 . X . . . . . 7
              6 . X O X . . . 6
              5 . X O X . . . 5
              4 . . X . X . . 4
              3 . . . X O X . 3
              2 . . . X O X . 2
              1 . . . . . X . 1
                A B C D E F G
            ",
            goal: Goal::Capture("C6,E3"),
            solution: "C7,E1",
            wrong: "C7",
        },
        // White's seven stones inside Black's wall have one liberty, D3, which
        // touches no black stone: only a placement takes them. Left alone, White
        // grows to D3 and has three liberties there. Growing the wall is useless.
        Puzzle {
            name: "black captures the big group by placement",
            geometry: sygo(8),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                A B C D E F G H
              8 . . . . . . . . 8
              7 . X X X X X . . 7
              6 . X O O O X . O 6
              5 . X O O O X . O 5
              4 . X X O X X . . 4
              3 . . . . . . . . 3
              2 . O . . . . O . 2
              1 . . . . . . . . 1
                A B C D E F G H
            ",
            goal: Goal::Capture("D5"),
            solution: "D3",
            wrong: "G4",
        },
        // Black's block D4-E6 has three liberties, each touched by a different
        // white group: E7 (the C-group), F4 (F5-F6) and E3 (D3). All three grow in
        // one turn and reverse six stones; two are not enough.
        Puzzle {
            name: "white captures with three growths from three groups",
            geometry: sygo(9),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                A B C D E F G H J
              9 . . . . . . . . . 9
              8 . X . . . . . X . 8
              7 . . O O . . . . . 7
              6 . . O X X O . . . 6
              5 . . O X X O . . . 5
              4 . . O X X . . . . 4
              3 . . . O . . . . . 3
              2 . . . . . . . X . 2
              1 . . . . . . . . . 1
                A B C D E F G H J
            ",
            goal: Goal::Capture("D5"),
            solution: "E7,F4,E3",
            wrong: "E7,F4",
        },
        // No growth turn yet, so Black may grow and then place (RULES.md §6). G4 is
        // in atari at G3, next to G2: a growth. C6 is in atari at C5, which touches
        // no black stone: a placement. The balance turn G3 then C5 takes both; a
        // plain placement takes one.
        Puzzle {
            name: "black's balance turn: a growth capture, then a placement capture",
            geometry: sygo(9),
            to_move: Color::Black,
            growth: Growth::NotYet,
            board: "
                A B C D E F G H J
              9 O . . . . . . . . 9
              8 . . . O . . . . . 8
              7 . . X . . . . O . 7
              6 . X O X . . . . . 6
              5 . . . . . . X . . 5
              4 . . . . . X O X . 4
              3 . O . . . . . . . 3
              2 . . . . O . X . . 2
              1 . . . . . . . . O 1
                A B C D E F G H J
            ",
            goal: Goal::Capture("C6,G4"),
            solution: "G3,C5",
            wrong: "C5",
        },
        // White's E5-E6 has two liberties, E7 (next to Black's D-group) and E4
        // (next to the F-group): Black threatens to grow both at once. Growing to E7
        // (or E4) leaves three liberties, one of which no black group touches. A
        // placement at E8 does not help.
        Puzzle {
            name: "white saves a group that two black groups could fill",
            geometry: sygo(11),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                A B C D E F G H J K L
             11 . . . . . . . . . . . 11
             10 . . . . . . . . . . . 10
              9 . . O . . . . . . . . 9
              8 . . . . . . . X . . . 8
              7 . . . X . . . . . . . 7
              6 . . . X O X . . . . . 6
              5 . . . X O X . . O . . 5
              4 . . . . . X . . . . . 4
              3 . . X . . . . O . . . 3
              2 . . . . . . . . . . . 2
              1 . . . . . . . . . . . 1
                A B C D E F G H J K L
            ",
            goal: Goal::Save("E5"),
            solution: "E7",
            wrong: "E8",
        },
        // White's seven stones on the edge have one liberty, D4, which touches no
        // black stone (C4 and E4 are empty): only a placement takes them, and if
        // Black grows instead White escapes at D4.
        Puzzle {
            name: "black captures on the edge by placement",
            geometry: sygo(13),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                A B C D E F G H J K L M N
             13 . . . . . . . . . . . . . 13
             12 . . . . . . . . . . . . . 12
             11 . . . . . . . . . . . . . 11
             10 . . . O . . . . O X . . . 10
              9 . . . . . . . . . . . . . 9
              8 . . . . . . . . . . . . . 8
              7 . . . . . . . . . . . . . 7
              6 . . . . . . . . . . . . . 6
              5 . . . . . . . . . . . . . 5
              4 . . . . . . . . . O . . . 4
              3 . X X O X . . . . . . . . 3
              2 X X O O X X . . . . . . . 2
              1 X O O O O X . . . . . . . 1
                A B C D E F G H J K L M N
            ",
            goal: Goal::Capture("C1"),
            solution: "D4",
            wrong: "G2",
        },
        // White's B6-F6 is in atari at F5. Extending there leaves two liberties,
        // G5 and F4, which Black's G6 and E4-E5 fill in one turn. Instead the
        // H-group grows to G5 and reverses G6, which joins the five stones to it.
        Puzzle {
            name: "white saves the group by capturing its attacker",
            geometry: sygo(13),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                A B C D E F G H J K L M N
             13 . . . . . . . . . . . . . 13
             12 . . . . . . . . . . . . . 12
             11 . . . . . . . . . . . . . 11
             10 . . O . . . . . . X . . . 10
              9 . . . . . . . . . . . . . 9
              8 . . . . . . . . . . . . . 8
              7 X X X X X X O O . . . . . 7
              6 X O O O O O X O . . . . . 6
              5 . X X X X . . O . . . . . 5
              4 . . . . X . . . . O . . . 4
              3 . . . . . . . . . . . . . 3
              2 . . . . . . . . . . . . . 2
              1 . . . . . . . . . . . . . 1
                A B C D E F G H J K L M N
            ",
            goal: Goal::Save("D6"),
            solution: "G5",
            wrong: "F5",
        },
        // Black's C14-H14 group is in atari at H15, and so are White's D15-G15.
        // Taking them at H15 leaves the whole group one liberty, J15, where White
        // grows from J14 and reverses twelve stones. A15 instead takes B14-B15 with
        // the A-group and joins everything into one group with three liberties.
        Puzzle {
            name: "black does not take the bait",
            geometry: sygo(15),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                A B C D E F G H J K L M N O P
             15 . O X O O O O . . . . . . . . 15
             14 X O X X X X X X O . . . . . . 14
             13 X X O O O O O O O . . . . . . 13
             12 . . . . . . . . . O . . . . . 12
             11 . . . . . . . . . . . . . . . 11
             10 . . . . . . . . . . . X . . . 10
              9 . . . . . . . . . . . . . . . 9
              8 . . . . . . . . . . . . . . . 8
              7 . . . . . . . . . . . . . . . 7
              6 . . . . . . . . . . . . . . . 6
              5 . . . . . . . . . . . . . . . 5
              4 . . . O . . . . . . X . . . . 4
              3 . . . . . . . . . . . . . . . 3
              2 . . . . . . . . . . . . . . . 2
              1 . . . . . . . . . . . . . . . 1
                A B C D E F G H J K L M N O P
            ",
            goal: Goal::Save("D14"),
            solution: "A15",
            wrong: "H15",
        },
        // Four black stones share their last liberty P2, which touches no white
        // stone: one placement reverses all four.
        Puzzle {
            name: "white reverses four stones with one placement",
            geometry: sygo(17),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                A B C D E F G H J K L M N O P Q R
             17 . . . . . . . . . . . . . . . . . 17
             16 . . . . . . . . . . . . . . . . . 16
             15 . . . . . . . . . . . . X . . . . 15
             14 . . . X . . . . . . . . . O . . . 14
             13 . . . . . . . . . . . . . . . . . 13
             12 . . . . . . . . . . . . . . . . . 12
             11 . . . . . . . . . . . . . . . . . 11
             10 . . . . . . . . . . . . . . . . . 10
              9 . . . . . . . . O . . . . . . . . 9
              8 . . . . . . . . . . . . . . . . . 8
              7 . . . . . . . . . . . . . . . . . 7
              6 . . . . . . . . . . . . . . . . . 6
              5 . . . . . . . . . . . . . . . . . 5
              4 . . . X . . . . . . . . . . O . . 4
              3 . . . . . . . . . . . . . O X O . 3
              2 . . . . . . . . . . . . O X . X O 2
              1 . . . . . . . . . . . . . O X O . 1
                A B C D E F G H J K L M N O P Q R
            ",
            goal: Goal::Capture("P3,O2,Q2,P1"),
            solution: "P2",
            wrong: "P5",
        },
        // Black's K10-K13 is in atari at K14. Extending there gives three
        // liberties, J14, L14 and K15, each touched by a different white group
        // (the J-group, the L-group, K16), so White fills all three in one turn.
        // Instead J8-J9 grows to K8 and reverses K9, joining the four stones to
        // the outside.
        Puzzle {
            name: "black saves the group by capturing, not by extending",
            geometry: sygo(19),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                A B C D E F G H J K L M N O P Q R S T
             19 . . . . . . . . . . . . . . . . . . . 19
             18 . . . . . . . . . . . . . . . . . . . 18
             17 . . . . . . . . . . . . . . . . . . . 17
             16 . . . O . . . . . O . . . . . X . . . 16
             15 . . . . . . . . . . . . . . . . . . . 15
             14 . . . . . . . . . . . . . . . . . . . 14
             13 . . . . . . . . O X O . . . . . . . . 13
             12 . . . . . . . . O X O . . . . . . . . 12
             11 . . . . . . . . O X O . . . . . . . . 11
             10 . . . . . . . . O X O . . . . . . . . 10
              9 . . . . . . . . X O X . . . . . . . . 9
              8 . . . . . . . . X . . . . . . . . . . 8
              7 . . . . . . . . . . . . . . . . . . . 7
              6 . . . . . . . . . . . . . . . . . . . 6
              5 . . . . . . . . . . . . . . . . . . . 5
              4 . . . X . . . . . . . . . . . O . . . 4
              3 . . . . . . . . . . . . . . . . . . . 3
              2 . . . . . . . . . . . . . . . . . . . 2
              1 . . . . . . . . . . . . . . . . . . . 1
                A B C D E F G H J K L M N O P Q R S T
            ",
            goal: Goal::Save("K10"),
            solution: "K8",
            wrong: "K14",
        },
        // Black's J10-M10 has two liberties, H10 (touched only by H9-M9) and N10
        // (touched only by J11-N11): both white groups grow in one turn.
        Puzzle {
            name: "white captures a two-liberty group in the centre",
            geometry: sygo(19),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                A B C D E F G H J K L M N O P Q R S T
             19 . . . . . . . . . . . . . . . . . . . 19
             18 . . . . . . . . . . . . . . . . . . . 18
             17 . . . . . . . . . . . . . . . . . . . 17
             16 . . . O . . . . . . . . . . . X . . . 16
             15 . . . . . . . . . . . . . . . . . . . 15
             14 . . . . . . . . . . . . . . . . . . . 14
             13 . . . . . . . . . . . . . . . . . . . 13
             12 . . . . . . . . . . . . . . . . . . . 12
             11 . . . . . . . . O O O O O . . . . . . 11
             10 . . X . . . . . X X X X . . . . . . . 10
              9 . . . . . . . O O O O O . . . . . . . 9
              8 . . . . . . . . . . . . . . . . . . . 8
              7 . . . . . . . . . . . . . . . . . . . 7
              6 . . . . . . . . . . . . . . . . . . . 6
              5 . . . . . . . . . . . . . . . . . . . 5
              4 . . . X . . . . . . . . . . . O . . . 4
              3 . . . . . . . . . . . . . . . . . . . 3
              2 . . . . . . . . . . . . . . . . . . . 2
              1 . . . . . . . . . . . . . . . . . . . 1
                A B C D E F G H J K L M N O P Q R S T
            ",
            goal: Goal::Capture("K10"),
            solution: "H10,N10",
            wrong: "H10",
        },
        // Black's C3-D3 is in atari at E4, next to White's ring: one growth.
        Puzzle {
            name: "white captures by growth on the smallest board",
            geometry: hex(3),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                  C D E
              5   . . . 5
              4  . O O . 4
              3 . O X X O 3
              2  . O O O 2
              1   . . . 1
                  A B C
            ",
            goal: Goal::Capture("C3"),
            solution: "E4",
            wrong: "C5",
        },
        // White's A1-C1 is in atari at A2 (touching Black's B2-D2) and G5-G7 at G4
        // (touching the F-group): two black groups, two growths in one turn. Any
        // other growth of the F-group first (F3, E4) would spoil G4.
        Puzzle {
            name: "black captures two corner groups with two growths",
            geometry: hex(4),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                   D E F G
              7    . . X O 7
              6   . . O X O 6
              5  . O . . X O 5
              4 . . . O . X . 4
              3  . . . . . . 3
              2   . X X X . 2
              1    O O O X 1
                   A B C D
            ",
            goal: Goal::Capture("A1,G7"),
            solution: "A2,G4",
            wrong: "A2",
        },
        // White's A1-B1 and Black's B2-C2-C1 share their one liberty, A2: whoever
        // grows there first reverses the other.
        Puzzle {
            name: "white escapes a mutual atari by capturing first",
            geometry: hex(4),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                   D E F G
              7    . X X . 7
              6   . . O X X 6
              5  . . . . . . 5
              4 X . . . . . . 4
              3  . O O O . . 3
              2   . X X O . 2
              1    O O X O 1
                   A B C D
            ",
            goal: Goal::Save("A1"),
            solution: "A2",
            wrong: "E2",
        },
        // No growth turn yet. White's corner stones A1 and E9 are each in atari,
        // at B2 (touching B1 and A2) and E8 (touching D8 and F9): a growth turn of
        // two stones takes both.
        Puzzle {
            name: "black takes both corners while the balance turn is open",
            geometry: hex(5),
            to_move: Color::Black,
            growth: Growth::NotYet,
            board: "
                    E F G H J
              9     O X . . . 9
              8    X . . . . O 8
              7   . . . . . . . 7
              6  X . . . . O . . 6
              5 . O . . X . . . . 5
              4  . . . O . . . X 4
              3   . . . . . O . 3
              2    X . O . . . 2
              1     O X . . . 1
                    A B C D E
            ",
            goal: Goal::Capture("A1,E9"),
            solution: "B2,E8",
            wrong: "B2",
        },
        // Black's A1 (at A2) and D1-E1-E2 (at F2) are both in atari, and both
        // liberties touch the same white group, which grows once: take the three
        // stones, which would otherwise grow out at F2.
        Puzzle {
            name: "white takes the three stones, not the one",
            geometry: hex(5),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                    E F G H J
              9     . . . . . 9
              8    . . . . . . 8
              7   . . O . . . . 7
              6  . X . . . . O . 6
              5 . . . . . . X . . 5
              4  . . . . . . . . 4
              3   . . . . O O . 3
              2    . O O O X . 2
              1     X O O X X 1
                    A B C D E
            ",
            goal: Goal::Capture("D1"),
            solution: "F2",
            wrong: "A2",
        },
        // Black's F5-F7 is in atari at G8, inside White's ring. Growing there gives
        // three liberties, which the ring alone cannot fill. Taking the corner
        // stone A1 at B2 is a capture, but loses the three stones.
        Puzzle {
            name: "black saves the centre group by extending",
            geometry: hex(6),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                     F G H J K L
             11      . . . . . . 11
             10     . . . . . . . 10
              9    . . . . . X . . 9
              8   X . . O . . . . . 8
              7  . . . O X O . . . . 7
              6 . . . . O X O . . O . 6
              5  . . O . O X O . . . 5
              4   . . . . O O . . . 4
              3    . . . . . . . O 3
              2     X . . O . . . 2
              1      O X . . . . 1
                     A B C D E F
            ",
            goal: Goal::Save("F6"),
            solution: "G8",
            wrong: "B2",
        },
        // Three black corner groups are in atari, at A2, H3 and L9, each touched
        // by the white stones of its own corner: three growths in one turn.
        Puzzle {
            name: "white captures three corners in one growth turn",
            geometry: hex(6),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                     F G H J K L
             11      . . . . O X 11
             10     . . . . . O X 10
              9    . . . . X . O . 9
              8   . . . . O . . . . 8
              7  . . . . . . . . . . 7
              6 . . . . O X . . . . . 6
              5  . . . . . . . . . . 5
              4   . . O X . . . . . 4
              3    . . . . . . O . 3
              2     . O O . . O X 2
              1      X X O . O X 1
                     A B C D E F
            ",
            goal: Goal::Capture("A1,F1,L11"),
            solution: "A2,H3,L9",
            wrong: "A2,H3",
        },
        // White's G1-G2 has two liberties: F2 touches only Black's F1, G3 only
        // H2-H3. Both grow in one turn (the new stones may touch each other).
        Puzzle {
            name: "black captures a corner group with two liberties",
            geometry: hex(7),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                      G H J K L M N
             13       . . . . . X O 13
             12      . . . . . . X O 12
             11     . . . . . . X . . 11
             10    . . . . . . . . . . 10
              9   . . . . . . . O . . . 9
              8  . . . . . . O . . . . . 8
              7 . . . . . . . . X . . . . 7
              6  . . O . . . . . . . . . 6
              5   . . . . O . . . . . . 5
              4    . . . X . . . . . . 4
              3     . . . . . . . X . 3
              2      . . . . . . O X 2
              1       . . . . . X O 1
                      A B C D E F G
            ",
            goal: Goal::Capture("G1"),
            solution: "F2,G3",
            wrong: "F2",
        },
        // Black's A1 (at A2) and D1-F2 (at G1) are both in atari, both liberties
        // next to the same white group, which grows once: take the five stones.
        Puzzle {
            name: "white takes the five stones, not the corner",
            geometry: hex(8),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                       H J K L M N O P
             15        . . . . . . . . 15
             14       . . . . . . . . . 14
             13      . . . . . O . . . . 13
             12     . . . . . . . X . . . 12
             11    . . . . . . . . . . . . 11
             10   . . . . . . . . . . O . . 10
              9  . . . . . O . . . . . . . . 9
              8 . . . . O . . . . . . . . . . 8
              7  . . . . . . . X . . . . . . 7
              6   . . . X . . . . . . . . . 6
              5    . . . . . . . . . X . . 5
              4     . . . . . . . . O . . 4
              3      . . . . O O O . . . 3
              2       . O O O X X O . . 2
              1        X O O X X X . O 1
                       A B C D E F G H
            ",
            goal: Goal::Capture("E1"),
            solution: "G1",
            wrong: "A2",
        },
        // Black's J7-J9 is in atari at K10; growing there gives three liberties,
        // more than the surrounding white group can fill. Growing the corner group
        // does nothing for it.
        Puzzle {
            name: "black extends out of atari",
            geometry: hex(9),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                        J K L M N O P Q R
             17         . . . . . . . . . 17
             16        . . . . . . . . . . 16
             15       . . . . . . . . . . . 15
             14      . . . . . . X . . . . . 14
             13     . . . . . . O . . . . . . 13
             12    . . . . . . . . . . . . . . 12
             11   . . . O . . . . . . . . . . . 11
             10  . . . . . . . O . . . . X . . . 10
              9 . . . . . . . O X O . . . . . . . 9
              8  . . . . . . . O X O . . O . . . 8
              7   . . . . . . . O X O . . . . . 7
              6    . . . . X . . O O . . . . . 6
              5     . . . . . . . . . . . . . 5
              4      . . . . . . . . . . . . 4
              3       O . . . . . . . . . . 3
              2        . O . . . . . . . . 2
              1         X X O . . . . . . 1
                        A B C D E F G H J
            ",
            goal: Goal::Save("J8"),
            solution: "K10",
            wrong: "C2",
        },
        // Black's corner groups A1-B1, K1-L2 and T18-T19 are in atari, at A2, M3
        // and T17, each touched by the white stones of its own corner: one growth
        // turn of three stones.
        Puzzle {
            name: "white takes three corners on the largest board",
            geometry: hex(10),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                         K L M N O P Q R S T
             19          . . . . . . . . O X 19
             18         . . . . . . . . . O X 18
             17        . . . . . . . . . . O . 17
             16       . . . . . . . . . . . . . 16
             15      . . . . . . . . . X . . . . 15
             14     . . . . . . . . . . . . . . . 14
             13    . . . . . . . . . . . . . . . . 13
             12   . . . O . . . . . X . . . . . . . 12
             11  . . . . . . . . . . . . . . O . . . 11
             10 . . . . . . . . . O . . . . . . . . . 10
              9  . . . . . . . X . . . . . . . . . . 9
              8   . . . . . . . . . . . . O . . . . 8
              7    . . . . . . . . . . . . . . . . 7
              6     . . . . . . . . . . . . . . . 6
              5      . . . . X . . . . . . . . . 5
              4       . . . . . . . . . . . . . 4
              3        . . . . . . . . . . O . 3
              2         . O O . . . . . . O X 2
              1          X X O . . . . . O X 1
                         A B C D E F G H J K
            ",
            goal: Goal::Capture("A1,K1,T19"),
            solution: "A2,M3,T17",
            wrong: "A2,M3",
        },
        // Black's A1-B1 and White's B2-C2-C1 share their one liberty A2: Black
        // grows there first and reverses the white stones.
        Puzzle {
            name: "black escapes a mutual atari by capturing first",
            geometry: hex(10),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                         K L M N O P Q R S T
             19          . . . . . . . . . . 19
             18         . . . . . . . . . . . 18
             17        . . . . . . . . . . . . 17
             16       . O . . . . . . . . . . . 16
             15      O O . . . . . . . . . . . . 15
             14     . O . . . . . . . . X . . . . 14
             13    . . . . . . . . . . . . . . . . 13
             12   . . . . . . . . . . . . . . O . . 12
             11  . . . . . . . . O . . . . . . . . . 11
             10 . . . . . . . . . . . X . . . . . . . 10
              9  . . . . . . . . . . . . . . . . . . 9
              8   . . . . . . . . . . . . . . . . . 8
              7    . . . . . . O . . . . . . . . . 7
              6     . . . . . . . . X . . . . . . 6
              5      . . . . . . . . . . . . . . 5
              4       O . . . . . . . . . . . . 4
              3        . X X X . . . . . . . . 3
              2         . O O X . . . . . . . 2
              1          X X O X . . . . . . 1
                         A B C D E F G H J K
            ",
            goal: Goal::Save("A1"),
            solution: "A2",
            wrong: "E2",
        },
    ]
}

/// How much each position's tactic weighs in playouts: the side to move's
/// share of wins (in %) after the solution, the wrong turn and a pass, in
/// 1,000 uniformly random games and then in 1,000 playouts of the strong
/// player's policy (a diagnostic, not a check).
#[test]
#[ignore = "a diagnostic: prints, checks nothing"]
fn playout_values() {
    use rand::SeedableRng;
    for puzzle in puzzles() {
        let start = puzzle.start();
        let me = puzzle.to_move;
        let value = |turn: &str| {
            let mut p = start.clone();
            p.play_turn(&puzzle.turn(turn)).unwrap();
            let mut rng = rand_pcg::Pcg32::seed_from_u64(1);
            let mut wins = 0;
            let mut smart = 0;
            let mut margin = 0.0;
            let mut playouts = sygo_ai::knowledge::Playouts::new(Default::default(), 1);
            for _ in 0..1000 {
                let mut q = p.clone();
                q.play_random_game(&mut rng);
                if q.score().winner() == Some(me) {
                    wins += 1;
                }
                let mut q = p.clone();
                let o = playouts.play(&mut q, &mut Default::default());
                margin += f64::from(o.margin) * if me == Color::Black { 1.0 } else { -1.0 };
                if (o.result > 0.5) == (me == Color::Black) && o.result != 0.5 {
                    smart += 1;
                }
            }
            format!(
                "{:5.1} {:5.1} {:+6.1}",
                wins as f64 / 10.0,
                smart as f64 / 10.0,
                margin / 1000.0
            )
        };
        println!(
            "{:<50} solution {}  wrong {}  pass {}",
            puzzle.name,
            value(puzzle.solution),
            value(puzzle.wrong),
            value("pass")
        );
    }
}
