//! Many games at once, in Rust, with the interpreter released: random games
//! (the rules library's random player, as `sygo bench` plays them), games
//! between built-in players, random positions as stacked tensors, and a
//! replay of whole turns by the rules alone.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg32;
use sygo_ai::{Budget, PlayerSpec};
use sygo_records::{GameInfo, Record};
use sygo_rules::{Color, Game, Position, Turn};

use crate::arrays;
use crate::core::{Config, Core};
use crate::errors::{illegal, parse, refused};
use crate::game::PyGame;
use crate::observation;
use crate::players::{read_budget, read_spec};

/// A seed of its own for game `index` (and side `side`) of a run seeded
/// with `seed` (SplitMix64 of the three).
pub(crate) fn derive_seed(seed: u64, index: u64, side: u64) -> u64 {
    let mut z = seed
        .wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(side.wrapping_mul(0xD1B5_4A32_D192_ED03));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// How one game ended.
struct Ended {
    score: (u32, u32),
    /// 0 Black, 1 White, −1 a draw (komi counted).
    winner: i8,
    turns: u32,
    steps: u32,
    resigned: bool,
    record: Option<String>,
    turn_list: Option<Vec<String>>,
    position: Option<String>,
}

impl Ended {
    /// How a game that ended in `pos` after `turns` turns and `steps`
    /// stones ended.
    fn at(pos: &Position, config: &Config, turns: u32, steps: u32) -> Ended {
        let score = pos.score();
        let margin = f64::from(score.black) - f64::from(score.white) - config.komi;
        let winner = match pos.resigned() {
            Some(loser) => loser.opponent().index() as i8,
            None if margin > 0.0 => 0,
            None if margin < 0.0 => 1,
            None => -1,
        };
        Ended {
            score: (score.black, score.white),
            winner,
            turns,
            steps,
            resigned: pos.resigned().is_some(),
            record: None,
            turn_list: None,
            position: None,
        }
    }

    /// How `game` ended, with its record and its turns if asked.
    fn of(game: &Game, config: &Config, steps: u32, record: bool, turns: bool) -> Ended {
        let pos = game.position();
        let info = GameInfo {
            komi: config.komi,
            ..GameInfo::default()
        };
        Ended {
            record: record.then(|| Record::from_game(game, info).to_sgf()),
            turn_list: turns.then(|| {
                game.turns()
                    .iter()
                    .map(|t| t.to_notation(&config.geometry))
                    .collect()
            }),
            position: turns.then(|| pos.to_position_string()),
            ..Ended::at(pos, config, game.turns().len() as u32, steps)
        }
    }
}

/// The results of games as a dict of arrays (and lists of records).
fn results<'py>(py: Python<'py>, games: &[Ended], seconds: f64) -> PyResult<Bound<'py, PyDict>> {
    let n = games.len();
    let d = PyDict::new(py);
    let column = |f: &dyn Fn(&Ended) -> i32| games.iter().map(f).collect::<Vec<i32>>();
    d.set_item("games", n)?;
    d.set_item(
        "steps",
        games.iter().map(|g| u64::from(g.steps)).sum::<u64>(),
    )?;
    d.set_item(
        "turns",
        games.iter().map(|g| u64::from(g.turns)).sum::<u64>(),
    )?;
    d.set_item("seconds", seconds)?;
    d.set_item(
        "winner",
        arrays::array(
            py,
            &games.iter().map(|g| g.winner).collect::<Vec<i8>>(),
            &[n],
        )?,
    )?;
    d.set_item(
        "black_score",
        arrays::array(py, &column(&|g| g.score.0 as i32), &[n])?,
    )?;
    d.set_item(
        "white_score",
        arrays::array(py, &column(&|g| g.score.1 as i32), &[n])?,
    )?;
    d.set_item(
        "game_turns",
        arrays::array(py, &column(&|g| g.turns as i32), &[n])?,
    )?;
    d.set_item(
        "game_steps",
        arrays::array(py, &column(&|g| g.steps as i32), &[n])?,
    )?;
    d.set_item(
        "resigned",
        arrays::array(
            py,
            &games.iter().map(|g| g.resigned).collect::<Vec<bool>>(),
            &[n],
        )?,
    )?;
    if games.first().is_some_and(|g| g.record.is_some()) {
        let records: Vec<&str> = games.iter().filter_map(|g| g.record.as_deref()).collect();
        d.set_item("records", records)?;
    }
    if games.first().is_some_and(|g| g.turn_list.is_some()) {
        let lists: Vec<&Vec<String>> = games.iter().filter_map(|g| g.turn_list.as_ref()).collect();
        d.set_item("turn_lists", lists)?;
        let positions: Vec<&str> = games.iter().filter_map(|g| g.position.as_deref()).collect();
        d.set_item("positions", positions)?;
    }
    Ok(d)
}

/// Plays `n` random games with the rules library's random player, from the
/// game's empty board, in Rust with the interpreter released.
///
/// The games are those of `sygo bench --games n --seed seed` (one PCG32
/// stream over all of them): with the default options the totals `steps`
/// and `turns` are the bench's. Returns a dict: `games`, `steps` (stones),
/// `turns` (passes included) and `seconds` (the time in Rust), and per
/// game NumPy arrays `winner` (0 Black, 1 White, −1 draw; komi counted),
/// `black_score`, `white_score`, `game_turns`, `game_steps`, `resigned`;
/// with `records=True` also `records`, each game as SGF; with
/// `turns=True`, `turn_lists` (each game's turns as written) and
/// `positions` (each final position string).
#[pyfunction]
#[pyo3(signature = (game, n, seed = 1, records = false, turns = false))]
pub(crate) fn play_random_games<'py>(
    py: Python<'py>,
    game: PyRef<'_, PyGame>,
    n: usize,
    seed: u64,
    records: bool,
    turns: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let config = game.config;
    drop(game);
    let (games, seconds) = py.detach(|| {
        let mut rng = Pcg32::seed_from_u64(seed);
        let empty = config.empty();
        let mut position = empty.clone();
        let mut games = Vec::with_capacity(n);
        let start = Instant::now();
        for _ in 0..n {
            if records || turns {
                // The bench's game, turn by turn on the same position and
                // random stream; each turn's stones found first on a copy
                // with a copy of the stream (the copy draws alike).
                position.clone_from(&empty);
                let mut played = Vec::new();
                let mut steps = 0;
                while !position.is_over() {
                    let stones = position.random_turn_stones(&mut rng.clone());
                    position.play_random_turn(&mut rng);
                    steps += stones.len() as u32;
                    played.push(if stones.is_empty() {
                        Turn::Pass
                    } else {
                        Turn::Stones(stones)
                    });
                }
                let mut game = Game::new(empty.clone());
                for turn in played {
                    game.play(turn)
                        .expect("the random player's turns are legal");
                }
                debug_assert_eq!(game.position(), &position);
                games.push(Ended::of(&game, &config, steps, records, turns));
            } else {
                position.clone_from(&empty);
                let stats = position.play_random_game(&mut rng);
                games.push(Ended::at(
                    &position,
                    &config,
                    stats.turns as u32,
                    stats.steps as u32,
                ));
            }
        }
        (games, start.elapsed().as_secs_f64())
    });
    results(py, &games, seconds)
}

/// Plays `n` games between two built-in players (specifications as every
/// sygo program writes them: `random`, `uct`, `mcts:level=3`), `black`
/// against `white`, from the game's empty board, in Rust with the
/// interpreter released, on `threads` threads (one game each at a time).
/// Each game's players are seeded from `seed` and the game's number, so a
/// game is the same whatever the threads (unless a player searches on
/// several threads itself). `visits` and `time` (seconds) are the budget of
/// each turn (None: the players' own). Returns the dict of
/// `play_random_games` (`records=True`: each game as SGF).
#[pyfunction]
#[pyo3(signature = (game, n, black, white, seed = 0, visits = None, time = None, threads = 1, records = false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn play_games<'py>(
    py: Python<'py>,
    game: PyRef<'_, PyGame>,
    n: usize,
    black: &str,
    white: &str,
    seed: u64,
    visits: Option<u64>,
    time: Option<f64>,
    threads: usize,
    records: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let config = game.config;
    drop(game);
    let specs = [read_spec(black)?, read_spec(white)?];
    let budget = read_budget(visits, time)?;
    if threads == 0 {
        return Err(refused("threads=0: write a number of threads from 1"));
    }
    let (games, seconds) = py.detach(|| {
        let start = Instant::now();
        let next = AtomicUsize::new(0);
        let done: Mutex<Vec<Option<Result<Ended, String>>>> =
            Mutex::new((0..n).map(|_| None).collect());
        std::thread::scope(|scope| {
            for _ in 0..threads.min(n.max(1)) {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            break;
                        }
                        let ended = play_one(&config, &specs, &budget, seed, i, records);
                        done.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(ended);
                    }
                });
            }
        });
        let games = done.into_inner().unwrap_or_else(|e| e.into_inner());
        (games, start.elapsed().as_secs_f64())
    });
    let games = games
        .into_iter()
        .map(|g| g.unwrap_or_else(|| Err("a game was not played".to_string())))
        .collect::<Result<Vec<Ended>, String>>()
        .map_err(illegal)?;
    results(py, &games, seconds)
}

/// Game `index` of `play_games`.
fn play_one(
    config: &Config,
    specs: &[PlayerSpec; 2],
    budget: &Budget,
    seed: u64,
    index: usize,
    record: bool,
) -> Result<Ended, String> {
    let mut players: Vec<_> = specs
        .iter()
        .enumerate()
        .map(|(side, spec)| spec.build(derive_seed(seed, index as u64, side as u64)))
        .collect();
    let mut game = Game::new(config.empty());
    let mut steps = 0;
    while !game.position().is_over() {
        let side = game.position().side_to_move();
        let player = &mut players[side.index()];
        let decision = player.choose(&game, budget);
        steps += decision.turn.stones().len() as u32;
        let name = player.name();
        game.play(decision.turn.clone()).map_err(|e| {
            format!(
                "game {index}: {name} ({}) chose {}, which is illegal: {e}",
                side.lowercase(),
                decision.turn.to_notation(&config.geometry)
            )
        })?;
    }
    Ok(Ended::of(&game, config, steps, record, false))
}

/// One random position per random game, as stacked tensors for learning:
/// game `i` is played by the rules library's random player (seeded from
/// `seed` and `i`), and one of its states where a player acts is drawn
/// uniformly (between turns or within a turn). Returns a dict of NumPy
/// arrays: `observations` (`float32`, `(n, 10, S, S)`, from the view of
/// the player to act), `legal_mask` (`bool`, `(n, P + 2)`), `actions`
/// (`int64`, the action the random player took there), `players` (`int8`,
/// 0 Black, 1 White), `move_numbers` (`int32`, actions before the state),
/// and `returns` (`float32`, `(n, 2)`: the game's final returns, Black's
/// first, per the game's utility).
#[pyfunction]
#[pyo3(signature = (game, n, seed = 0))]
pub(crate) fn random_positions<'py>(
    py: Python<'py>,
    game: PyRef<'_, PyGame>,
    n: usize,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let config = game.config;
    drop(game);
    let g = config.geometry;
    let plane_size = observation::size(g);
    let actions_count = config.numbering().count();
    let sampled = py.detach(|| {
        let mut out = Sampled {
            observations: vec![0.0; n * plane_size],
            mask: vec![false; n * actions_count],
            actions: Vec::with_capacity(n),
            players: Vec::with_capacity(n),
            move_numbers: Vec::with_capacity(n),
            returns: Vec::with_capacity(2 * n),
        };
        for i in 0..n {
            let mut rng = Pcg32::seed_from_u64(derive_seed(seed, i as u64, 0));
            // The whole game, as actions.
            let mut whole = Core::new(config, config.empty());
            while !whole.pos.is_over() {
                let stones = whole.pos.random_turn_stones(&mut rng);
                let turn = if stones.is_empty() {
                    Turn::Pass
                } else {
                    Turn::Stones(stones)
                };
                whole
                    .apply_turn(&turn)
                    .expect("the random player's turns are legal");
            }
            let history: Vec<u32> = whole.history().collect();
            let k = if history.is_empty() {
                0
            } else {
                rng.random_range(0..history.len())
            };
            let mut state = Core::new(config, config.empty());
            for &a in &history[..k] {
                state
                    .apply_action(i64::from(a))
                    .expect("the random player's steps are actions");
            }
            let mover = state.pos.side_to_move();
            observation::write(
                &state.pos,
                mover,
                &mut out.observations[i * plane_size..(i + 1) * plane_size],
            );
            let mask = &mut out.mask[i * actions_count..(i + 1) * actions_count];
            state.for_each_legal_action(|a| mask[a] = true);
            out.actions
                .push(history.get(k).map_or(-1, |&a| i64::from(a)));
            out.players.push(mover.index() as i8);
            out.move_numbers.push(k as i32);
            out.returns
                .extend(whole.returns().iter().map(|&r| r as f32));
        }
        out
    });
    let [planes, side, _] = observation::shape(g);
    let d = PyDict::new(py);
    d.set_item(
        "observations",
        arrays::array(py, &sampled.observations, &[n, planes, side, side])?,
    )?;
    d.set_item(
        "legal_mask",
        arrays::array(py, &sampled.mask, &[n, actions_count])?,
    )?;
    d.set_item("actions", arrays::array(py, &sampled.actions, &[n])?)?;
    d.set_item("players", arrays::array(py, &sampled.players, &[n])?)?;
    d.set_item(
        "move_numbers",
        arrays::array(py, &sampled.move_numbers, &[n])?,
    )?;
    d.set_item("returns", arrays::array(py, &sampled.returns, &[n, 2])?)?;
    Ok(d)
}

/// The arrays of `random_positions`, filled in Rust.
struct Sampled {
    observations: Vec<f32>,
    mask: Vec<bool>,
    actions: Vec<i64>,
    players: Vec<i8>,
    move_numbers: Vec<i32>,
    returns: Vec<f32>,
}

/// Plays whole turns (`D4`, `D5,F7`, `pass`, `resign`) from the game's
/// empty board, or from `position` (a position string), by the rules
/// library alone (`sygo_rules::Game::play`, none of the step actions), and
/// says where they lead: a dict with `position` (the position string),
/// `black` and `white` (the score), `over`, `result` (komi counted, or
/// None) and `to_move` (0 Black, 1 White). A check on the step API: the
/// same turns played as actions must reach the same.
#[pyfunction]
#[pyo3(signature = (game, turns, position = None))]
pub(crate) fn replay_turns<'py>(
    py: Python<'py>,
    game: PyRef<'_, PyGame>,
    turns: Vec<String>,
    position: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let config = game.config;
    drop(game);
    let start = match position {
        Some(text) => config.adopt(Position::from_position_string(text).map_err(parse)?),
        None => config.empty(),
    };
    let mut replay = Game::new(start);
    for (i, text) in turns.iter().enumerate() {
        let turn = Turn::parse(text, &config.geometry).map_err(parse)?;
        replay
            .play(turn)
            .map_err(|e| illegal(format!("turn {} ({text}): {e}", i + 1)))?;
    }
    let pos = replay.position();
    let score = pos.score();
    let d = PyDict::new(py);
    d.set_item("position", pos.to_position_string())?;
    d.set_item("black", score.black)?;
    d.set_item("white", score.white)?;
    d.set_item("over", pos.is_over())?;
    d.set_item(
        "result",
        pos.outcome().map(|o| match o {
            sygo_rules::Outcome::Score(s) => s.result_with_komi(config.komi),
            o => o.to_string(),
        }),
    )?;
    d.set_item(
        "to_move",
        match pos.side_to_move() {
            Color::Black => 0,
            Color::White => 1,
        },
    )?;
    Ok(d)
}
