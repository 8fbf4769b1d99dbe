//! The commands: one table of name, arguments and handler, from which
//! `list_commands` and `known_command` are derived.
//!
//! Each handler reads all of its arguments before it changes anything, and
//! builds any new state aside before it replaces the old, so that a failure
//! leaves the engine exactly as it was.

use std::num::IntErrorKind;
use std::time::Instant;

use sygo_records::{GameInfo, Record};
use sygo_rules::{
    Color, Game, Geometry, ParsePointError, ParseTurnError, Point, Position, StepError, Turn,
    TurnError, Variant, parse_points,
};

use crate::analyze;
use crate::args::parse_bool;
use crate::engine::{Engine, TimeLeft, TimeSettings};
use crate::error::CommandError;
use crate::framing::quote;

/// What a handler answers: the result of a success, or why it failed.
pub type Answer = Result<String, CommandError>;

/// A command handler: the engine and the arguments, already counted.
pub type Handler = fn(&mut Engine, &[&str]) -> Answer;

/// One command of the protocol.
#[derive(Clone, Copy, Debug)]
pub struct Command {
    /// Its name.
    pub name: &'static str,
    /// Its arguments as written in messages and docs, separated by spaces,
    /// an optional one in brackets: `COLOR [PREFIX]`; `...` for any number
    /// more: `[KEY VALUE ...]`.
    pub args: &'static str,
    /// What it does.
    pub handler: Handler,
}

impl Command {
    const fn new(name: &'static str, args: &'static str, handler: Handler) -> Command {
        Command {
            name,
            args,
            handler,
        }
    }

    /// How it is written: `play COLOR MOVE`.
    pub fn usage(&self) -> String {
        if self.args.is_empty() {
            self.name.to_string()
        } else {
            format!("{} {}", self.name, self.args)
        }
    }

    /// The fewest and the most arguments it takes (`usize::MAX`: any
    /// number).
    pub fn arity(&self) -> (usize, usize) {
        let (mut min, mut max, mut depth) = (0, 0usize, 0usize);
        for word in self.args.split_whitespace() {
            if word.trim_matches(|c| c == '[' || c == ']') == "..." {
                max = usize::MAX;
            } else {
                max = max.saturating_add(1);
                if depth == 0 && !word.starts_with('[') {
                    min += 1;
                }
            }
            depth += word.matches('[').count();
            depth = depth.saturating_sub(word.matches(']').count());
        }
        (min, max)
    }
}

/// Every command the engine answers, in the order `list_commands` gives.
pub const COMMANDS: &[Command] = &[
    Command::new("protocol_version", "", protocol_version),
    Command::new("name", "", name),
    Command::new("version", "", version),
    Command::new("known_command", "NAME", known_command),
    Command::new("list_commands", "", list_commands),
    Command::new("quit", "", quit),
    Command::new("boardsize", "N", boardsize),
    Command::new("variant", "sygo|hexsygo N", variant),
    Command::new("clear_board", "", clear_board),
    Command::new("komi", "X", komi),
    Command::new("play", "COLOR MOVE", play),
    Command::new("genmove", "COLOR", genmove),
    Command::new("undo", "", undo),
    Command::new("showboard", "", showboard),
    Command::new("final_score", "", final_score),
    Command::new("legal_steps", "COLOR [PREFIX]", legal_steps),
    Command::new("setup", "COLOR VERTICES", setup),
    Command::new("set_turn", "COLOR", set_turn),
    Command::new("set_growth_started", "true|false", set_growth_started),
    Command::new("time_settings", "MAIN BYO STONES", time_settings),
    Command::new("time_left", "COLOR TIME STONES", time_left),
    Command::new("loadsgf", "FILE [MOVE_NUMBER]", loadsgf),
    Command::new("printsgf", "", printsgf),
    Command::new("final_status_list", "alive|dead|seki", final_status_list),
    Command::new("analyze", ANALYZE_ARGS, analyze),
    Command::new("kata-analyze", ANALYZE_ARGS, analyze),
];

/// The arguments of `analyze` and its alias `kata-analyze`.
const ANALYZE_ARGS: &str = "[COLOR] [INTERVAL] [KEY VALUE ...]";

/// The command of that name, if the engine knows it (names are
/// case-sensitive, as in GTP 2).
pub fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// Runs a command: finds it, counts its arguments, calls its handler.
pub(crate) fn execute(engine: &mut Engine, name: &str, args: &[&str]) -> Answer {
    let command = find(name).ok_or(CommandError::UnknownCommand)?;
    let (min, max) = command.arity();
    if args.len() < min || args.len() > max {
        let got = match args.len() {
            0 => "no argument".to_string(),
            1 => "1 argument".to_string(),
            n => format!("{n} arguments"),
        };
        return Err(CommandError::Syntax(format!(
            "expected {}, got {got}",
            command.usage()
        )));
    }
    (command.handler)(engine, args)
}

// ------------------------------------------------------------ arguments

/// `black`, `b`, `white` or `w`, case-insensitive.
fn parse_color(text: &str) -> Result<Color, CommandError> {
    Color::from_name(text).ok_or_else(|| {
        CommandError::Syntax(format!(
            "{} is not a colour: write black, b, white or w",
            quote(text, 16)
        ))
    })
}

/// A vertex list or a move that cannot be read: malformed text is a syntax
/// error; a well-formed vertex off this board is refused by `off_board`
/// (the rules' own failure for the command).
fn points_error(e: ParseTurnError, off_board: fn(String) -> CommandError) -> CommandError {
    match e {
        ParseTurnError::Point(e @ ParsePointError::OffBoard { .. }) => off_board(e.to_string()),
        e => CommandError::Syntax(e.to_string()),
    }
}

/// A move: `pass`, `resign`, or comma-separated vertices.
fn parse_move(text: &str, geometry: &Geometry) -> Result<Turn, CommandError> {
    Turn::parse(text, geometry).map_err(|e| points_error(e, CommandError::IllegalMove))
}

/// A board size: a number that is not one of the variant's sizes, however
/// large, is unacceptable; text that is not a number is a syntax error.
fn parse_size(text: &str, variant: Variant) -> Result<Geometry, CommandError> {
    let size: u8 = text.parse().map_err(|e: std::num::ParseIntError| {
        if matches!(
            e.kind(),
            IntErrorKind::PosOverflow | IntErrorKind::NegOverflow
        ) || text.len() > 1
            && text.starts_with('-')
            && text[1..].bytes().all(|b| b.is_ascii_digit())
        {
            CommandError::UnacceptableSize(format!(
                "{variant} cannot be played at size {}: sizes run from {} to {}",
                quote(text, 24),
                variant.sizes().start(),
                variant.sizes().end()
            ))
        } else {
            CommandError::Syntax(format!("{} is not a board size", quote(text, 16)))
        }
    })?;
    Geometry::new(variant, size).map_err(|e| CommandError::UnacceptableSize(e.to_string()))
}

/// A finite decimal number (`7`, `-0.5`, `1e3`); not NaN nor infinity.
fn parse_number(text: &str, what: &str) -> Result<f64, CommandError> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(CommandError::Syntax(format!(
            "{} is not a {what}: write a decimal number like 6.5",
            quote(text, 16)
        ))),
    }
}

/// A duration in seconds: a finite number, not negative.
fn parse_seconds(text: &str) -> Result<f64, CommandError> {
    let x = parse_number(text, "time in seconds")?;
    if x < 0.0 {
        return Err(CommandError::Syntax(format!(
            "{} is a negative time",
            quote(text, 16)
        )));
    }
    Ok(x)
}

/// A count of stones: a whole number from 0 to 2³² − 1.
fn parse_stones(text: &str) -> Result<u32, CommandError> {
    text.parse::<u32>().map_err(|_| {
        CommandError::Syntax(format!(
            "{} is not a number of stones: write a whole number like 25",
            quote(text, 16)
        ))
    })
}

/// Fails unless `color` may play now: the game is not over and it is to move.
fn check_mover(position: &Position, color: Color) -> Result<(), CommandError> {
    let refusal = if position.is_over() {
        TurnError::GameOver
    } else if position.side_to_move() != color {
        TurnError::WrongColor {
            to_move: position.side_to_move(),
        }
    } else {
        return Ok(());
    };
    Err(CommandError::IllegalMove(refusal.to_string()))
}

// ------------------------------------------------------------ handlers

fn protocol_version(_: &mut Engine, _: &[&str]) -> Answer {
    Ok("2".to_string())
}

fn name(_: &mut Engine, _: &[&str]) -> Answer {
    Ok("sygo".to_string())
}

fn version(_: &mut Engine, _: &[&str]) -> Answer {
    Ok(env!("CARGO_PKG_VERSION").to_string())
}

fn known_command(_: &mut Engine, args: &[&str]) -> Answer {
    Ok(find(args[0]).is_some().to_string())
}

fn list_commands(_: &mut Engine, _: &[&str]) -> Answer {
    Ok(COMMANDS
        .iter()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join("\n"))
}

fn quit(engine: &mut Engine, _: &[&str]) -> Answer {
    engine.quit = true;
    Ok(String::new())
}

fn boardsize(engine: &mut Engine, args: &[&str]) -> Answer {
    let geometry = parse_size(args[0], Variant::Sygo)?;
    engine.replace_game(Game::new(Position::new(geometry)), true);
    Ok(String::new())
}

fn variant(engine: &mut Engine, args: &[&str]) -> Answer {
    let variant = Variant::from_name(args[0]).ok_or_else(|| {
        CommandError::Syntax(format!(
            "{} is not a variant: write sygo or hexsygo",
            quote(args[0], 16)
        ))
    })?;
    let geometry = parse_size(args[1], variant)?;
    engine.replace_game(Game::new(Position::new(geometry)), true);
    Ok(String::new())
}

fn clear_board(engine: &mut Engine, _: &[&str]) -> Answer {
    let game = Game::new(Position::new(engine.position().geometry()));
    engine.replace_game(game, true);
    Ok(String::new())
}

fn komi(engine: &mut Engine, args: &[&str]) -> Answer {
    engine.komi = parse_number(args[0], "komi")?;
    Ok(String::new())
}

fn play(engine: &mut Engine, args: &[&str]) -> Answer {
    let color = parse_color(args[0])?;
    let turn = parse_move(args[1], &engine.position().geometry())?;
    engine
        .game
        .play_as(color, turn)
        .map_err(|e| CommandError::IllegalMove(e.to_string()))?;
    Ok(String::new())
}

/// `genmove COLOR`: the player chooses within the budget of COLOR's clock
/// (and the visits set at the start); the time it took is charged to the
/// clock.
fn genmove(engine: &mut Engine, args: &[&str]) -> Answer {
    let color = parse_color(args[0])?;
    check_mover(engine.position(), color)?;
    let start = Instant::now();
    let clock = &mut engine.timers[color.index()];
    let mut budget = clock.budget(engine.game.position().vacant_count());
    budget.visits = engine.visits;
    let decision = engine.player.choose(&engine.game, &budget);
    engine.timers[color.index()].spend(start.elapsed());
    let geometry = engine.position().geometry();
    let notation = decision.turn.to_notation(&geometry);
    engine.game.play_as(color, decision.turn).map_err(|e| {
        CommandError::Internal(format!("the player chose {notation}, refused: {e}"))
    })?;
    Ok(notation)
}

fn undo(engine: &mut Engine, _: &[&str]) -> Answer {
    engine.game.undo().ok_or(CommandError::CannotUndo)?;
    engine.player.new_game();
    Ok(String::new())
}

fn showboard(engine: &mut Engine, _: &[&str]) -> Answer {
    let position = engine.position();
    let g = position.geometry();
    let state = if let Some(loser) = position.resigned() {
        format!("game over: {}+R", loser.opponent().letter())
    } else if position.is_over() {
        match position.score().result_with_komi(engine.komi).as_str() {
            "0" => "game over: a draw".to_string(),
            result => format!("game over: {result}"),
        }
    } else {
        format!("{} to move", position.side_to_move())
    };
    let balance = if position.growth_started() {
        "growth started"
    } else {
        "no growth turn yet"
    };
    Ok(format!(
        "{}{g}, {state}, {balance}, passes {}, turns {}, komi {}",
        position.diagram(),
        position.passes(),
        engine.game.turns().len(),
        engine.komi
    ))
}

fn final_score(engine: &mut Engine, _: &[&str]) -> Answer {
    Ok(engine.position().score().result_with_komi(engine.komi))
}

fn legal_steps(engine: &mut Engine, args: &[&str]) -> Answer {
    let color = parse_color(args[0])?;
    let position = engine.position();
    let geometry = position.geometry();
    let prefix = match args.get(1) {
        Some(text) => {
            parse_points(text, &geometry).map_err(|e| points_error(e, CommandError::IllegalMove))?
        }
        None => Vec::new(),
    };
    check_mover(position, color)?;
    let mut next = position.clone();
    for &p in &prefix {
        next.play_step(p)
            .map_err(|e: StepError| CommandError::IllegalMove(e.to_string()))?;
    }
    let mut tokens: Vec<String> = next
        .allowed_steps()
        .into_iter()
        .map(|p| geometry.vertex(p).to_string())
        .collect();
    if !prefix.is_empty() && next.check_finish().is_ok() {
        tokens.push("end".to_string());
    }
    Ok(tokens.join(" "))
}

fn setup(engine: &mut Engine, args: &[&str]) -> Answer {
    let color = parse_color(args[0])?;
    let position = engine.position();
    let geometry = position.geometry();
    let points = parse_points(args[1], &geometry)
        .map_err(|e| points_error(e, CommandError::IllegalSetup))?;
    let mut stones: Vec<(Point, Color)> = position.stones().collect();
    stones.extend(points.iter().map(|&p| (p, color)));
    let start = Position::from_parts(
        geometry,
        &stones,
        position.side_to_move(),
        position.growth_started(),
        0,
        None,
    )
    .map_err(|e| CommandError::IllegalSetup(e.to_string()))?;
    engine.replace_game(Game::new(start), false);
    Ok(String::new())
}

/// Makes a changed copy of the current position the new start of the game.
fn restart_with(
    engine: &mut Engine,
    change: impl FnOnce(&mut Position) -> Result<(), TurnError>,
) -> Answer {
    let mut start = engine.position().clone();
    change(&mut start).map_err(|e| CommandError::Internal(e.to_string()))?;
    engine.replace_game(Game::new(start), false);
    Ok(String::new())
}

fn set_turn(engine: &mut Engine, args: &[&str]) -> Answer {
    let color = parse_color(args[0])?;
    restart_with(engine, |p| p.set_side_to_move(color))
}

fn set_growth_started(engine: &mut Engine, args: &[&str]) -> Answer {
    let started = parse_bool(args[0])?;
    restart_with(engine, |p| p.set_growth_started(started))
}

/// The most seconds a clock counts (about 31 years): longer times are
/// stored as given but counted as this, so that no duration overflows.
const MAX_CLOCK_SECONDS: f64 = 1e9;

fn time_settings(engine: &mut Engine, args: &[&str]) -> Answer {
    let settings = TimeSettings {
        main: parse_seconds(args[0])?,
        byo_yomi: parse_seconds(args[1])?,
        byo_yomi_stones: parse_stones(args[2])?,
    };
    engine.time_settings = settings;
    engine.time_left = [None; 2];
    engine.control = Some(sygo_ai::TimeControl::from_gtp(
        settings.main.min(MAX_CLOCK_SECONDS),
        settings.byo_yomi.min(MAX_CLOCK_SECONDS),
        settings.byo_yomi_stones,
    ));
    engine.reset_timers();
    Ok(String::new())
}

fn time_left(engine: &mut Engine, args: &[&str]) -> Answer {
    let color = parse_color(args[0])?;
    let clock = TimeLeft {
        time: parse_number(args[1], "time in seconds")?,
        stones: parse_stones(args[2])?,
    };
    engine.time_left[color.index()] = Some(clock);
    engine.timers[color.index()].set_time_left(clock.time.min(MAX_CLOCK_SECONDS), clock.stones);
    Ok(String::new())
}

/// A move number of `loadsgf`: a whole number from 1 (numbers beyond the
/// last turn mean the end).
fn parse_move_number(text: &str) -> Result<usize, CommandError> {
    let all_digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        // Too many digits for a usize: later than any turn.
        Err(_) if all_digits => Ok(usize::MAX),
        _ => Err(CommandError::Syntax(format!(
            "{} is not a move number: write a whole number from 1, the turn to be played next",
            quote(text, 16)
        ))),
    }
}

/// `loadsgf FILE [N]` (GTP 2 §6.3.5): the board, komi and game of a record,
/// replayed up to the position before its turn N (all of its main line
/// without N). A turn is a move: a whole turn of several stones counts one,
/// a pass and a resignation count one.
fn loadsgf(engine: &mut Engine, args: &[&str]) -> Answer {
    let next_turn = args.get(1).map(|n| parse_move_number(n)).transpose()?;
    let record = Record::read_file(args[0]).map_err(|e| CommandError::CannotLoad(e.to_string()))?;
    engine.replace_game(
        record.game_after(next_turn.map_or(usize::MAX, |n| n - 1)),
        true,
    );
    engine.komi = record.info().komi;
    Ok(String::new())
}

/// `printsgf`: the game as a record (`docs/records.md`), with the komi and,
/// once the game is over, its result.
fn printsgf(engine: &mut Engine, _: &[&str]) -> Answer {
    let info = GameInfo {
        komi: engine.komi,
        ..GameInfo::default()
    };
    Ok(Record::from_game(&engine.game, info).to_sgf())
}

/// `final_status_list STATUS`: Sygo has no dead stones and no seki of its
/// own (stones are never removed, and every stone on the board counts for
/// its colour, docs/rules.md §8): `alive` lists every stone, one group per line;
/// `dead` and `seki` list none.
fn final_status_list(engine: &mut Engine, args: &[&str]) -> Answer {
    match args[0].to_ascii_lowercase().as_str() {
        "alive" => {
            let position = engine.position();
            let g = position.geometry();
            let mut listed = vec![false; g.index_len()];
            let mut lines = Vec::new();
            for (p, _) in position.stones() {
                if listed[p.index()] {
                    continue;
                }
                let group = position.group(p);
                for q in &group {
                    listed[q.index()] = true;
                }
                let vertices: Vec<String> =
                    group.iter().map(|&q| g.vertex(q).to_string()).collect();
                lines.push(vertices.join(" "));
            }
            Ok(lines.join("\n"))
        }
        "dead" | "seki" => Ok(String::new()),
        _ => Err(CommandError::Syntax(format!(
            "{} is not a status: write alive, dead or seki",
            quote(args[0], 16)
        ))),
    }
}

/// `analyze [COLOR] [INTERVAL] [KEY VALUE ...]` (and `kata-analyze`):
/// checks the arguments, the player and the colour, and leaves the analysis
/// in progress for the loop to stream (module `analyze`).
fn analyze(engine: &mut Engine, args: &[&str]) -> Answer {
    let (color, request) = analyze::parse(args)?;
    if !engine.player.analyzes() {
        return Err(CommandError::CannotAnalyze(format!(
            "the {} player gives no analysis; start the engine with --player mcts",
            engine.player.name()
        )));
    }
    let position = engine.position();
    check_mover(position, color.unwrap_or(position.side_to_move()))?;
    engine.analysis = Some(request);
    Ok(String::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EngineOptions;

    fn engine(variant: Variant, size: u8) -> Engine {
        Engine::new(EngineOptions::random(variant, size, 5)).unwrap()
    }

    /// Runs a command line and returns the answer without its framing: `Ok`
    /// with the result or `Err` with the message.
    fn say(engine: &mut Engine, line: &str) -> Result<String, String> {
        let answer = engine.handle_line(line).expect("a command");
        let body = answer.strip_suffix("\n\n").expect("an empty line ends it");
        match body.split_at(1) {
            ("=", rest) => Ok(rest.trim_start_matches([' ', '\n']).to_string()),
            ("?", rest) => Err(rest.trim_start().to_string()),
            _ => panic!("not an answer: {answer:?}"),
        }
    }

    /// Everything a command could change, to check that a failure changed
    /// nothing.
    fn state(engine: &Engine) -> String {
        format!(
            "{:?} {:?} {:?} {} {:?} {:?} {:?} {:?}",
            engine.game().start(),
            engine.game().turns(),
            engine.position(),
            engine.komi(),
            engine.time_settings(),
            engine.time_left,
            engine.timers,
            engine.quit,
        )
    }

    #[track_caller]
    fn refused(engine: &mut Engine, line: &str, message: &str) {
        let before = state(engine);
        assert_eq!(say(engine, line), Err(message.to_string()), "{line}");
        assert_eq!(state(engine), before, "{line} changed the state");
        assert!(engine.analysis.is_none(), "{line} started an analysis");
    }

    #[test]
    fn the_table_lists_every_command_once() {
        let mut e = engine(Variant::Sygo, 9);
        let listed = say(&mut e, "list_commands").unwrap();
        let names: Vec<&str> = listed.lines().collect();
        assert_eq!(names.len(), COMMANDS.len());
        for name in &names {
            assert_eq!(
                say(&mut e, &format!("known_command {name}")).unwrap(),
                "true"
            );
            assert_eq!(COMMANDS.iter().filter(|c| c.name == *name).count(), 1);
        }
        for unknown in ["foo", "PLAY", "showboard2"] {
            assert_eq!(
                say(&mut e, &format!("known_command {unknown}")).unwrap(),
                "false"
            );
        }
    }

    #[test]
    fn argument_counts_are_checked_before_anything_runs() {
        let mut e = engine(Variant::Sygo, 9);
        refused(
            &mut e,
            "play",
            "syntax error: expected play COLOR MOVE, got no argument",
        );
        refused(
            &mut e,
            "play b",
            "syntax error: expected play COLOR MOVE, got 1 argument",
        );
        refused(
            &mut e,
            "play w D4 E5",
            "syntax error: expected play COLOR MOVE, got 3 arguments",
        );
        refused(
            &mut e,
            "name x",
            "syntax error: expected name, got 1 argument",
        );
        refused(
            &mut e,
            "quit now",
            "syntax error: expected quit, got 1 argument",
        );
        refused(
            &mut e,
            "legal_steps w D4 E5",
            "syntax error: expected legal_steps COLOR [PREFIX], got 3 arguments",
        );
        refused(&mut e, "frobnicate", "unknown command");
    }

    #[test]
    fn moves_that_cannot_be_read_are_syntax_errors() {
        let mut e = engine(Variant::Sygo, 9);
        let comma = "syntax error: a comma with no stone beside it: \
                     write the stones separated by single commas, like D5,F7";
        for bad in ["D4,", ",D4", "D4,,E5", ","] {
            refused(&mut e, &format!("play w {bad}"), comma);
        }
        refused(
            &mut e,
            "play w I5",
            "syntax error: \"I5\" is not a point: write a column letter (A–Z, no I) and a row number, like D4",
        );
        refused(
            &mut e,
            "play green D4",
            "syntax error: \"green\" is not a colour: write black, b, white or w",
        );
        refused(
            &mut e,
            "play w K10",
            "illegal move: K10 is not on the sygo 9 board",
        );
    }

    #[test]
    fn rules_refusals_start_with_illegal_move() {
        let mut e = engine(Variant::Sygo, 9);
        refused(&mut e, "play b E5", "illegal move: it is White's turn");
        refused(&mut e, "genmove b", "illegal move: it is White's turn");
        say(&mut e, "play w E5").unwrap();
        say(&mut e, "play b C3").unwrap();
        refused(
            &mut e,
            "play w E6,F6",
            "illegal move: F6 touches only stones played this turn (such as E6): \
             a growth stone must touch a group you had when the turn began",
        );
        refused(&mut e, "play w C3", "illegal move: C3 is already occupied");
        say(&mut e, "play w resign").unwrap();
        refused(&mut e, "play b D4", "illegal move: the game is over");
        refused(&mut e, "play w D4", "illegal move: the game is over");
        refused(&mut e, "genmove b", "illegal move: the game is over");
        refused(&mut e, "legal_steps b", "illegal move: the game is over");
        say(&mut e, "undo").unwrap();
        say(&mut e, "play w D4").unwrap();
    }

    #[test]
    fn undo_goes_back_to_the_start_and_no_further() {
        let mut e = engine(Variant::Hexsygo, 3);
        let empty = e.position().clone();
        say(&mut e, "play w C3").unwrap();
        say(&mut e, "play b pass").unwrap();
        say(&mut e, "play w pass").unwrap();
        assert!(e.position().is_over());
        say(&mut e, "undo").unwrap();
        assert!(!e.position().is_over());
        say(&mut e, "undo").unwrap();
        say(&mut e, "undo").unwrap();
        assert_eq!(e.position(), &empty);
        refused(
            &mut e,
            "undo",
            "cannot undo: no turn has been played since the start of the game",
        );
    }

    #[test]
    fn sizes_are_checked_whatever_their_length() {
        let mut e = engine(Variant::Sygo, 9);
        refused(
            &mut e,
            "boardsize 26",
            "unacceptable size: sygo cannot be played at size 26: sizes run from 3 to 25",
        );
        refused(
            &mut e,
            "boardsize 99999999999999999999999",
            "unacceptable size: sygo cannot be played at size \"99999999999999999999999\": sizes run from 3 to 25",
        );
        refused(
            &mut e,
            "boardsize -1",
            "unacceptable size: sygo cannot be played at size \"-1\": sizes run from 3 to 25",
        );
        refused(
            &mut e,
            "boardsize nine",
            "syntax error: \"nine\" is not a board size",
        );
        refused(
            &mut e,
            "variant hexsygo 14",
            "unacceptable size: hexsygo cannot be played at size 14: sizes run from 2 to 13",
        );
        refused(
            &mut e,
            "variant go 19",
            "syntax error: \"go\" is not a variant: write sygo or hexsygo",
        );
        say(&mut e, "variant HexSygo 2").unwrap();
        assert_eq!(e.position().geometry(), Geometry::hexsygo(2).unwrap());
        say(&mut e, "boardsize 25").unwrap();
        assert_eq!(e.position().geometry(), Geometry::sygo(25).unwrap());
    }

    #[test]
    fn komi_is_a_finite_number_and_counts_for_white() {
        let mut e = engine(Variant::Sygo, 3);
        for bad in ["nan", "NaN", "inf", "-inf", "1e400", "six", "7,5"] {
            refused(
                &mut e,
                &format!("komi {bad}"),
                &format!("syntax error: {bad:?} is not a komi: write a decimal number like 6.5"),
            );
        }
        say(&mut e, "play w B2").unwrap();
        assert_eq!(say(&mut e, "final_score").unwrap(), "W+9");
        say(&mut e, "komi -9.5").unwrap();
        assert_eq!(say(&mut e, "final_score").unwrap(), "B+0.5");
        say(&mut e, "komi -9").unwrap();
        assert_eq!(say(&mut e, "final_score").unwrap(), "0");
        // Decimal komi, decimal margins: 9 − 8.2 is 0.8.
        say(&mut e, "komi -8.2").unwrap();
        assert_eq!(say(&mut e, "final_score").unwrap(), "W+0.8");
        say(&mut e, "komi -9.3").unwrap();
        assert_eq!(say(&mut e, "final_score").unwrap(), "B+0.3");
        say(&mut e, "komi 1e300").unwrap();
        assert_eq!(
            say(&mut e, "final_score").unwrap(),
            format!("W+1{}", "0".repeat(300))
        );
    }

    #[test]
    fn legal_steps_follow_the_prefix() {
        let mut e = engine(Variant::Sygo, 9);
        assert_eq!(say(&mut e, "legal_steps w").unwrap().split(' ').count(), 81);
        say(&mut e, "play w E5").unwrap();
        say(&mut e, "play b C3").unwrap();
        say(&mut e, "play w G7").unwrap();
        // Black's balance turn: after a growth, more growth or a placement.
        let after_growth = say(&mut e, "legal_steps b C4").unwrap();
        let tokens: Vec<&str> = after_growth.split(' ').collect();
        assert!(
            tokens.contains(&"end") && tokens.contains(&"H2"),
            "{after_growth}"
        );
        assert!(!tokens.contains(&"B3"), "B3 would grow C3 twice");
        // A placement ends the turn: nothing follows but the end.
        assert_eq!(say(&mut e, "legal_steps b C4,H2").unwrap(), "end");
        assert_eq!(say(&mut e, "legal_steps black H2").unwrap(), "end");
        refused(
            &mut e,
            "legal_steps b C4,B3",
            "illegal move: B3 would grow the group at C3 a second time this turn",
        );
        refused(
            &mut e,
            "legal_steps b H2,C4",
            "illegal move: the placement at H2 ended the turn: finish it, or take it back",
        );
        refused(&mut e, "legal_steps w", "illegal move: it is Black's turn");
        refused(
            &mut e,
            "legal_steps b C4,",
            "syntax error: a comma with no stone beside it: \
             write the stones separated by single commas, like D5,F7",
        );
    }

    #[test]
    fn setup_adds_stones_and_makes_a_new_start() {
        let mut e = engine(Variant::Sygo, 5);
        say(&mut e, "play w C3").unwrap();
        refused(
            &mut e,
            "setup b C3",
            "illegal setup: C3 is already occupied",
        );
        refused(
            &mut e,
            "setup b A1,A1",
            "illegal setup: A1 is already occupied",
        );
        refused(
            &mut e,
            "setup b F1",
            "illegal setup: F1 is not on the sygo 5 board",
        );
        refused(
            &mut e,
            "setup b B3,C4,D3,C2",
            "illegal setup: the group at C3 would have no liberties",
        );
        refused(
            &mut e,
            "setup b A1,",
            "syntax error: a comma with no stone beside it: \
             write the stones separated by single commas, like D5,F7",
        );
        say(&mut e, "setup b B3,C4,D3").unwrap();
        assert_eq!(e.position().stone_count(Color::Black), 3);
        assert_eq!(e.position().side_to_move(), Color::Black);
        refused(
            &mut e,
            "undo",
            "cannot undo: no turn has been played since the start of the game",
        );
        // White's stone at C3 has one liberty: Black captures it.
        say(&mut e, "play b C2").unwrap();
        assert_eq!(e.position().stone_count(Color::White), 0);
    }

    #[test]
    fn set_turn_and_set_growth_started_are_not_turns() {
        let mut e = engine(Variant::Sygo, 9);
        say(&mut e, "play w E5").unwrap();
        say(&mut e, "set_turn w").unwrap();
        assert_eq!(e.position().side_to_move(), Color::White);
        refused(
            &mut e,
            "undo",
            "cannot undo: no turn has been played since the start of the game",
        );
        say(&mut e, "play w E6").unwrap();
        assert!(e.position().growth_started());
        say(&mut e, "set_growth_started FALSE").unwrap();
        assert!(!e.position().growth_started());
        refused(
            &mut e,
            "set_growth_started maybe",
            "syntax error: \"maybe\" is not true or false",
        );
        refused(
            &mut e,
            "set_turn nobody",
            "syntax error: \"nobody\" is not a colour: write black, b, white or w",
        );
    }

    #[test]
    fn genmove_plays_a_legal_turn_and_answers_it() {
        for (variant, size) in [(Variant::Sygo, 5), (Variant::Hexsygo, 3)] {
            let mut e = engine(variant, size);
            let g = e.position().geometry();
            let mut mirror = Position::new(g);
            while !e.position().is_over() {
                let color = e.position().side_to_move();
                let answer = say(&mut e, &format!("genmove {}", color.name())).unwrap();
                mirror
                    .play_turn(&Turn::parse(&answer, &g).unwrap())
                    .unwrap();
                assert_eq!(&mirror, e.position());
            }
        }
    }

    #[test]
    fn huge_times_are_counted_without_overflow() {
        let mut e = engine(Variant::Sygo, 5);
        say(&mut e, "time_settings 1e300 99999999999999999999 5").unwrap();
        say(&mut e, "time_left w 1e300 0").unwrap();
        say(&mut e, "time_left b 99999999999999999999 3").unwrap();
        say(&mut e, "genmove w").unwrap();
        say(&mut e, "genmove b").unwrap();
    }

    #[test]
    fn clocks_are_stored() {
        let mut e = engine(Variant::Sygo, 9);
        say(&mut e, "time_settings 0 0.5 1").unwrap();
        assert_eq!(
            e.time_settings(),
            TimeSettings {
                main: 0.0,
                byo_yomi: 0.5,
                byo_yomi_stones: 1
            }
        );
        say(&mut e, "time_left b 12.25 0").unwrap();
        assert_eq!(
            e.time_left(Color::Black),
            Some(TimeLeft {
                time: 12.25,
                stones: 0
            })
        );
        refused(
            &mut e,
            "time_settings -1 0 0",
            "syntax error: \"-1\" is a negative time",
        );
        refused(
            &mut e,
            "time_settings 1 1 1.5",
            "syntax error: \"1.5\" is not a number of stones: write a whole number like 25",
        );
        refused(
            &mut e,
            "time_left w nan 0",
            "syntax error: \"nan\" is not a time in seconds: write a decimal number like 6.5",
        );
        refused(
            &mut e,
            "time_left w 5 99999999999",
            "syntax error: \"99999999999\" is not a number of stones: write a whole number like 25",
        );
    }

    /// A file in a fresh temporary directory, removed when dropped.
    struct TempFile(std::path::PathBuf);

    impl TempFile {
        fn new(name: &str, contents: &str) -> TempFile {
            let dir = std::env::temp_dir().join(format!("sygo-gtp-{}-{name}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join(name);
            std::fs::write(&path, contents).unwrap();
            TempFile(path)
        }

        fn path(&self) -> &str {
            self.0.to_str().unwrap()
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            if let Some(dir) = self.0.parent() {
                let _ = std::fs::remove_dir_all(dir);
            }
        }
    }

    #[test]
    fn printsgf_writes_what_loadsgf_reads_back() {
        for (variant, size) in [(Variant::Sygo, 7), (Variant::Hexsygo, 4)] {
            let mut e = engine(variant, size);
            say(&mut e, "komi 2.5").unwrap();
            while !e.position().is_over() {
                let color = e.position().side_to_move();
                say(&mut e, &format!("genmove {}", color.name())).unwrap();
            }
            let sgf = say(&mut e, "printsgf").unwrap();
            assert!(sgf.starts_with("(;FF[4]GM[400]"), "{sgf}");
            assert!(sgf.contains("KM[2.5]RE["), "{sgf}");
            let file = TempFile::new("game.sgf", &sgf);
            let mut other = engine(Variant::Sygo, 19);
            say(&mut other, &format!("loadsgf {}", file.path())).unwrap();
            assert_eq!(other.game().start(), e.game().start());
            assert_eq!(other.game().turns(), e.game().turns());
            assert_eq!(other.komi(), 2.5);
            assert_eq!(say(&mut other, "printsgf").unwrap(), sgf);
            // The position before turn 3: two turns played.
            say(&mut other, &format!("loadsgf {} 3", file.path())).unwrap();
            assert_eq!(other.game().turns(), &e.game().turns()[..2]);
            say(&mut other, &format!("loadsgf {} 1", file.path())).unwrap();
            assert!(other.game().turns().is_empty());
            say(
                &mut other,
                &format!("loadsgf {} 99999999999999999999999", file.path()),
            )
            .unwrap();
            assert_eq!(other.game().turns(), e.game().turns());
        }
    }

    #[test]
    fn loadsgf_refuses_and_changes_nothing() {
        let mut e = engine(Variant::Sygo, 9);
        say(&mut e, "play w E5").unwrap();
        let dir = std::env::temp_dir();
        let missing = dir.join("sygo-gtp-no-such-file.sgf");
        refused(
            &mut e,
            &format!("loadsgf {}", missing.display()),
            &format!("cannot load file: {}: no such file", missing.display()),
        );
        let illegal = TempFile::new("illegal.sgf", "(;GM[400]VR[sygo]SZ[9];W[ee];B[ee])");
        refused(
            &mut e,
            &format!("loadsgf {}", illegal.path()),
            &format!(
                "cannot load file: {}: node 2: Black's turn E5 is illegal: E5 is already occupied",
                illegal.path()
            ),
        );
        let legal = TempFile::new("legal.sgf", "(;GM[400]VR[sygo]SZ[9];W[ee];B[cg])");
        for bad in ["0", "-1", "two", "1.5"] {
            refused(
                &mut e,
                &format!("loadsgf {} {bad}", legal.path()),
                &format!(
                    "syntax error: {:?} is not a move number: write a whole number from 1, \
                     the turn to be played next",
                    bad
                ),
            );
        }
    }

    #[test]
    fn every_stone_is_alive_and_none_dead() {
        let mut e = engine(Variant::Sygo, 5);
        assert_eq!(say(&mut e, "final_status_list alive").unwrap(), "");
        for turn in ["w C3", "b A1", "w E5", "b A2", "w C4"] {
            say(&mut e, &format!("play {turn}")).unwrap();
        }
        assert_eq!(
            say(&mut e, "final_status_list alive").unwrap(),
            "A1 A2\nC3 C4\nE5"
        );
        assert_eq!(say(&mut e, "final_status_list dead").unwrap(), "");
        assert_eq!(say(&mut e, "final_status_list SEKI").unwrap(), "");
        refused(
            &mut e,
            "final_status_list unknown",
            "syntax error: \"unknown\" is not a status: write alive, dead or seki",
        );
    }

    #[test]
    fn analyze_needs_a_searching_player_and_reports_once_here() {
        let mut e = engine(Variant::Sygo, 5);
        refused(
            &mut e,
            "analyze",
            "cannot analyze: the random player gives no analysis; \
             start the engine with --player mcts",
        );
        assert_eq!(find("analyze").unwrap().arity(), (0, usize::MAX));
        assert_eq!(find("legal_steps").unwrap().arity(), (1, 2));
        let mut e = Engine::new(EngineOptions {
            player: "mcts:threads=1".parse().unwrap(),
            ..EngineOptions::random(Variant::Sygo, 5, 5)
        })
        .unwrap();
        refused(&mut e, "analyze b", "illegal move: it is White's turn");
        refused(
            &mut e,
            "kata-analyze w 5 ownership",
            "syntax error: \"ownership\" has no value: \
             write analyze [COLOR] [INTERVAL] [KEY VALUE ...]",
        );
        // Without the loop, an analysis reports once and ends.
        let answer = e
            .handle_line("3 kata-analyze w 2 ownership true rootInfo true")
            .unwrap();
        let lines: Vec<&str> = answer.split('\n').collect();
        assert_eq!(lines.len(), 4, "{answer:?}");
        assert_eq!((lines[0], lines[2], lines[3]), ("=3", "", ""));
        assert!(lines[1].starts_with("info move "), "{answer:?}");
        let ownership = lines[1].split(" ownership ").nth(1).unwrap();
        assert_eq!(ownership.split(' ').count(), 25);
        assert!(e.analysis.is_none());
        say(&mut e, "play w C3").unwrap();
    }

    #[test]
    fn quit_answers_and_asks_the_loop_to_stop() {
        let mut e = engine(Variant::Sygo, 9);
        assert_eq!(e.handle_line("9 quit").as_deref(), Some("=9\n\n"));
        assert!(e.quit_requested());
    }
}
