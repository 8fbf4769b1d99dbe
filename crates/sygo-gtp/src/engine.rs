//! The engine's state, and the loop that feeds it lines and writes answers.

use std::io::{self, BufRead, Write};

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use sygo_rules::{Game, Geometry, GeometryError, Position, Variant};

use crate::commands;
use crate::error::CommandError;
use crate::framing::{self, CommandLine};

/// The longest line the engine reads, in bytes (64 KiB: more than 20 times
/// the longest meaningful command, `setup` of every point of 25×25). A longer
/// line is answered with a failure and otherwise ignored.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// How an engine starts: the board, and the seed of its random choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Sygo or Hexsygo.
    pub variant: Variant,
    /// N for Sygo, the base n for Hexsygo.
    pub size: u8,
    /// The seed of the random number generator behind `genmove`: one seed,
    /// one sequence of answers.
    pub seed: u64,
}

impl Default for EngineOptions {
    /// Sygo 19×19, seed 1.
    fn default() -> EngineOptions {
        EngineOptions {
            variant: Variant::Sygo,
            size: Variant::Sygo.default_size(),
            seed: 1,
        }
    }
}

/// The time control set by `time_settings`, in seconds (GTP 2 §6.4: absolute
/// time when `byo_yomi_stones` is 0 and `byo_yomi` is positive means no
/// limit; all zero means no time limit).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimeSettings {
    /// Main time.
    pub main: f64,
    /// Byo-yomi time (Canadian: for `byo_yomi_stones` stones).
    pub byo_yomi: f64,
    /// Stones to play in each byo-yomi period.
    pub byo_yomi_stones: u32,
}

/// A clock reading sent by `time_left`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Clock {
    /// Seconds left in the current period.
    pub time: f64,
    /// Stones left to play in the byo-yomi period; 0 in main time.
    pub stones: u32,
}

/// The engine: the game, the komi, the clocks and the random player, driven
/// one protocol line at a time.
///
/// # Examples
///
/// ```
/// use sygo_gtp::{Engine, EngineOptions};
/// use sygo_rules::Variant;
///
/// let options = EngineOptions { variant: Variant::Hexsygo, size: 4, seed: 7 };
/// let mut engine = Engine::new(options).unwrap();
/// assert_eq!(engine.handle_line("1 play w D4").as_deref(), Some("=1\n\n"));
/// assert_eq!(
///     engine.handle_line("2 play w E5").as_deref(),
///     Some("?2 illegal move: it is Black's turn\n\n")
/// );
/// assert_eq!(engine.handle_line("# a comment gets no answer"), None);
/// ```
pub struct Engine {
    pub(crate) game: Game,
    pub(crate) komi: f64,
    pub(crate) time_settings: TimeSettings,
    /// The last `time_left` of each colour, Black first.
    pub(crate) clocks: [Option<Clock>; 2],
    pub(crate) rng: Xoshiro256PlusPlus,
    pub(crate) quit: bool,
}

impl Engine {
    /// An engine with an empty board.
    ///
    /// # Errors
    ///
    /// [`GeometryError`] when the size is outside RULES.md §1.
    pub fn new(options: EngineOptions) -> Result<Engine, GeometryError> {
        let geometry = Geometry::new(options.variant, options.size)?;
        Ok(Engine {
            game: Game::new(Position::new(geometry)),
            komi: 0.0,
            time_settings: TimeSettings::default(),
            clocks: [None; 2],
            rng: Xoshiro256PlusPlus::seed_from_u64(options.seed),
            quit: false,
        })
    }

    /// The game: its starting position, the turns since, the current position.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The komi (added to White by `final_score`).
    pub fn komi(&self) -> f64 {
        self.komi
    }

    /// The time control last set by `time_settings`.
    pub fn time_settings(&self) -> TimeSettings {
        self.time_settings
    }

    /// The clock of a colour last sent by `time_left`, if any.
    pub fn clock(&self, color: sygo_rules::Color) -> Option<Clock> {
        self.clocks[color.index()]
    }

    /// Whether `quit` has been answered: the loop should stop.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// Runs one command: its name and arguments, with no framing.
    ///
    /// # Errors
    ///
    /// [`CommandError`] when the command is unknown, its arguments are
    /// malformed, or it is refused; the engine is then unchanged.
    pub fn execute(&mut self, name: &str, args: &[&str]) -> Result<String, CommandError> {
        commands::execute(self, name, args)
    }

    /// Reads one line of the protocol and answers it: `None` for a line that
    /// holds no command (blank, or a comment), else the whole answer,
    /// `=id result` or `?id message`, ending with its empty line.
    pub fn handle_line(&mut self, line: &str) -> Option<String> {
        let command = framing::parse_line(line)?;
        Some(self.answer(&command))
    }

    /// Answers a command line already read.
    pub fn answer(&mut self, command: &CommandLine) -> String {
        let id = command.id.as_deref();
        let outcome = if command.name.is_empty() {
            Err(CommandError::NoCommand)
        } else {
            let args: Vec<&str> = command.args.iter().map(String::as_str).collect();
            self.execute(&command.name, &args)
        };
        match outcome {
            Ok(result) => framing::success(id, &result),
            Err(error) => framing::failure(id, &error.to_string()),
        }
    }

    /// Reads one line given as bytes: invalid UTF-8 is replaced (U+FFFD), so
    /// an argument holding it is malformed, never a crash.
    pub fn handle_bytes(&mut self, line: &[u8]) -> Option<String> {
        self.handle_line(&String::from_utf8_lossy(line))
    }
}

/// Runs the protocol: reads commands from `input` line by line and writes
/// each answer to `output` (flushed at once), until `quit` or the end of the
/// input.
///
/// # Errors
///
/// An I/O error of `input` or `output`.
///
/// # Examples
///
/// ```
/// use sygo_gtp::{Engine, EngineOptions, run};
/// let mut engine = Engine::new(EngineOptions::default()).unwrap();
/// let mut output = Vec::new();
/// run(&mut engine, &b"1 protocol_version\n2 quit\n3 name\n"[..], &mut output).unwrap();
/// assert_eq!(String::from_utf8(output).unwrap(), "=1 2\n\n=2\n\n");
/// ```
pub fn run(engine: &mut Engine, mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut line = Vec::new();
    while !engine.quit_requested() {
        let Some(too_long) = read_line(&mut input, &mut line)? else {
            break;
        };
        let answer = if too_long {
            answer_too_long(engine, &line)
        } else {
            engine.handle_bytes(&line)
        };
        if let Some(answer) = answer {
            output.write_all(answer.as_bytes())?;
            output.flush()?;
        }
    }
    Ok(())
}

/// The answer to a line cut at [`MAX_LINE_BYTES`]: if the part read has a
/// comment, the rest is comment too and the line is read as usual; otherwise
/// it is refused, with its id if it starts with one.
fn answer_too_long(engine: &mut Engine, start: &[u8]) -> Option<String> {
    if start.contains(&b'#') {
        return engine.handle_bytes(start);
    }
    let id = framing::parse_line(&String::from_utf8_lossy(start)).and_then(|c| c.id);
    Some(framing::failure(
        id.as_deref(),
        &CommandError::LineTooLong.to_string(),
    ))
}

/// Reads the next line (without its newline) into `line`, keeping at most
/// [`MAX_LINE_BYTES`] bytes and skipping the rest, so that no line however
/// long takes more memory. Returns `None` at the end of the input, else
/// whether the line was cut.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Option<bool>> {
    line.clear();
    let mut read_any = false;
    let mut too_long = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(read_any.then_some(too_long));
        }
        read_any = true;
        let (chunk, used, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => (&buffer[..end], end + 1, true),
            None => (buffer, buffer.len(), false),
        };
        let room = MAX_LINE_BYTES - line.len();
        if chunk.len() > room {
            too_long = true;
        }
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        input.consume(used);
        if done {
            return Ok(Some(too_long));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> Engine {
        Engine::new(EngineOptions {
            variant: Variant::Sygo,
            size: 9,
            seed: 1,
        })
        .unwrap()
    }

    fn session(input: &[u8]) -> String {
        let mut output = Vec::new();
        run(&mut engine(), input, &mut output).unwrap();
        String::from_utf8(output).unwrap()
    }

    #[test]
    fn the_loop_answers_each_command_and_stops_at_quit() {
        assert_eq!(
            session(b"1 name\n\n# nothing\r\n2 quit\n3 name\n"),
            "=1 sygo\n\n=2\n\n"
        );
    }

    #[test]
    fn the_last_line_needs_no_newline() {
        assert_eq!(session(b"protocol_version"), "= 2\n\n");
    }

    #[test]
    fn non_utf8_bytes_are_malformed_arguments() {
        let out = session(b"1 play w D\xff4\n2 play w \xc3\n3 \xfe\xff\n4 showboard\n");
        let answers: Vec<&str> = out.split("\n\n").collect();
        assert!(answers[0].starts_with("?1 syntax error"), "{out}");
        assert!(answers[1].starts_with("?2 syntax error"), "{out}");
        assert_eq!(answers[2], "?3 unknown command");
        assert!(answers[3].starts_with("=4\n"), "{out}");
    }

    #[test]
    fn a_huge_line_is_refused_without_holding_it_all() {
        let mut input = b"5 play w ".to_vec();
        input.extend(std::iter::repeat_n(b'A', 3 * MAX_LINE_BYTES));
        input.extend_from_slice(b"\n6 name\n");
        let out = session(&input);
        assert_eq!(
            out,
            format!(
                "?5 syntax error: the line is longer than {MAX_LINE_BYTES} bytes\n\n=6 sygo\n\n"
            )
        );
        // A long comment is still a comment.
        let mut input = b"7 name # ".to_vec();
        input.extend(std::iter::repeat_n(b'#', 2 * MAX_LINE_BYTES));
        input.push(b'\n');
        assert_eq!(session(&input), "=7 sygo\n\n");
    }

    #[test]
    fn an_id_alone_is_refused() {
        assert_eq!(
            engine().handle_line("42").as_deref(),
            Some("?42 syntax error: an id but no command\n\n")
        );
    }
}
