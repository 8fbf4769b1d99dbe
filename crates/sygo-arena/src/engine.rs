//! An external engine as a player: a command run as a subprocess that speaks
//! the engine protocol (`docs/protocol.md`) on its standard input and output.
//!
//! Before each `genmove` the player brings the engine's game up to date with
//! the arena's: `variant` when the board changes, `clear_board` (and `setup`,
//! `set_turn`, `set_growth_started` for a start that is not the empty board)
//! when the engine's game is not the beginning of the arena's, then `play`
//! for each turn it has not seen, and `time_settings 0 T 1` (T seconds per
//! turn) when the time budget changes.
//!
//! An engine never hangs the arena: every answer is awaited with a deadline
//! ([`EngineConfig::timeout`], plus the turn's time for `genmove`), on a
//! thread that reads the engine's output, and an engine that misses it is
//! killed. An engine that exits, answers out of protocol, refuses a command
//! it must accept, or answers `genmove` with something that is not a move
//! forfeits the game ([`Forfeit`]) with the reason, including the last lines
//! it wrote on its standard error; a killed or crashed engine is started
//! again for the next game.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use sygo_rules::{Game, Geometry, Position, Turn};

use sygo_ai::{Budget, Decision, Player};

use crate::contender::{Contender, Forfeit};
use crate::error::{CommandLineError, StartError};

/// The longest line an engine may write, in bytes.
const MAX_LINE: u64 = 1 << 20;
/// How many lines of the engine's standard error are kept for reports.
const STDERR_LINES: usize = 3;

/// How to run an external engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// How long to wait for any answer; `genmove` may take its turn's time
    /// budget on top of this.
    pub timeout: Duration,
}

impl EngineConfig {
    /// A configuration from a command line (split as [`split_command`]
    /// does), with a timeout of 10 seconds.
    ///
    /// # Errors
    ///
    /// When the command is empty or has an unclosed quote.
    pub fn from_command_line(text: &str) -> Result<EngineConfig, CommandLineError> {
        Ok(EngineConfig {
            command: split_command(text)?,
            timeout: Duration::from_secs(10),
        })
    }

    /// The command as one line, for messages.
    pub fn command_line(&self) -> String {
        self.command.join(" ")
    }
}

/// Splits a command line into words as a POSIX shell would, without running
/// a shell (the `shlex` crate): words are separated by white space; `'…'`
/// keeps its text as it is, `"…"` too except that `\"`, `\\`, `\$` and `` \` ``
/// stand for the character after the backslash; outside quotes a backslash
/// keeps the next character as it is.
///
/// # Errors
///
/// When there is no word, or a quote is not closed (or a backslash ends the
/// line).
pub fn split_command(text: &str) -> Result<Vec<String>, CommandLineError> {
    let words = shlex::split(text).ok_or_else(|| CommandLineError::Unclosed {
        text: text.to_string(),
    })?;
    if words.is_empty() {
        return Err(CommandLineError::Empty);
    }
    Ok(words)
}

/// Reads the next line of an engine's output into `buffer` (cleared
/// first), at most [`MAX_LINE`] bytes of it: the bytes read, 0 at the end.
fn read_line(reader: &mut impl BufRead, buffer: &mut Vec<u8>) -> io::Result<usize> {
    buffer.clear();
    reader.by_ref().take(MAX_LINE).read_until(b'\n', buffer)
}

/// What the reader of an engine's output hands on.
enum Line {
    /// A line, without its end.
    Text(String),
    /// A line longer than [`MAX_LINE`] bytes: the reader stops there.
    TooLong,
}

/// A running engine: its process, its input, and the lines it writes,
/// read by threads so that waiting for them can time out.
struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// The thread reading standard error: finished once the engine is gone
    /// and its last words are kept.
    stderr_reader: thread::JoinHandle<()>,
    next_id: u64,
}

impl Process {
    fn start(config: &EngineConfig) -> Result<Process, StartError> {
        let failed = |source| StartError {
            command: config.command_line(),
            source,
        };
        let (program, args) = config
            .command
            .split_first()
            .ok_or_else(|| failed(std::io::Error::other("the command is empty")))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(failed)?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buffer = Vec::new();
            loop {
                match read_line(&mut reader, &mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if buffer.last() != Some(&b'\n') && buffer.len() as u64 >= MAX_LINE => {
                        let _ = sender.send(Line::TooLong);
                        break;
                    }
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buffer);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if sender.send(Line::Text(line)).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let kept = tail.clone();
        let stderr_reader = thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            let mut buffer = Vec::new();
            loop {
                match read_line(&mut reader, &mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buffer).trim().to_string();
                        if line.is_empty() {
                            continue;
                        }
                        let line: String = line.chars().take(200).collect();
                        let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
                        if kept.len() == STDERR_LINES {
                            kept.pop_front();
                        }
                        kept.push_back(line);
                    }
                }
            }
        });
        Ok(Process {
            child,
            stdin,
            lines,
            stderr: tail,
            stderr_reader,
            next_id: 1,
        })
    }

    /// The last lines of standard error, as `; it said: "…" / "…"`, or
    /// nothing.
    fn last_words(&self) -> String {
        let kept = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        if kept.is_empty() {
            String::new()
        } else {
            let lines: Vec<String> = kept.iter().map(|l| format!("{l:?}")).collect();
            format!("; its last words on stderr: {}", lines.join(" / "))
        }
    }

    /// How the process ended (waiting for it to end, and for its last
    /// words on standard error to be read, up to a few seconds: a process
    /// that closed its output ends at once, if late on a loaded machine),
    /// for messages.
    fn exit_status(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_secs(5);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break format!("it exited ({status})"),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => break "it closed its output".to_string(),
            }
        };
        while !self.stderr_reader.is_finished() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(2));
        }
        status
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // End of input first: an engine of the protocol exits then.
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(2));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the engine's game is, as far as this player told it.
#[derive(Clone, Debug)]
struct Known {
    start: Position,
    turns: Vec<Turn>,
}

/// An external engine, speaking the protocol of `docs/protocol.md`, as a
/// player (module doc).
///
/// As a [`Player`] it resigns when the engine fails, and keeps the reason
/// ([`EnginePlayer::failure`]); as a [`Contender`] in the arena it forfeits
/// with it.
pub struct EnginePlayer {
    name: String,
    config: EngineConfig,
    process: Option<Process>,
    /// The engine's board, once told.
    geometry: Option<Geometry>,
    /// The engine's game, once told; `None` after a new game.
    known: Option<Known>,
    /// The time per turn last sent by `time_settings` (`Some(None)`: none).
    time: Option<Option<Duration>>,
    failure: Option<Forfeit>,
}

impl EnginePlayer {
    /// Starts the engine.
    ///
    /// # Errors
    ///
    /// When the command cannot be started (not found, not executable).
    pub fn start(
        name: impl Into<String>,
        config: EngineConfig,
    ) -> Result<EnginePlayer, StartError> {
        let process = Process::start(&config)?;
        Ok(EnginePlayer {
            name: name.into(),
            config,
            process: Some(process),
            geometry: None,
            known: None,
            time: None,
            failure: None,
        })
    }

    /// Why the engine last failed, if it did (the player then resigned).
    pub fn failure(&self) -> Option<&Forfeit> {
        self.failure.as_ref()
    }

    /// Makes sure the engine runs, starting it again if it was stopped.
    fn ensure_running(&mut self) -> Result<(), Forfeit> {
        if self.process.is_none() {
            let process = Process::start(&self.config)
                .map_err(|e| Forfeit::Crashed(format!("could not be started again: {e}")))?;
            self.process = Some(process);
            self.geometry = None;
            self.known = None;
            self.time = None;
        }
        Ok(())
    }

    /// Stops the engine after a failure that leaves its state unknown.
    fn stop(&mut self) {
        self.process = None;
        self.geometry = None;
        self.known = None;
        self.time = None;
    }

    /// Sends one command and returns the result of a success answer.
    ///
    /// # Errors
    ///
    /// [`Forfeit::Protocol`] for a failure answer or an answer out of
    /// protocol, [`Forfeit::Crashed`] when the engine has gone,
    /// [`Forfeit::Timeout`] when no answer came within `wait`. After any but
    /// a failure answer the engine is stopped.
    fn command(&mut self, command: &str, wait: Duration) -> Result<String, Forfeit> {
        self.ensure_running()?;
        match self.exchange(command, wait) {
            Ok(Answer::Success(result)) => Ok(result),
            Ok(Answer::Failure(message)) => {
                // A failure answer: the engine keeps its game as it was,
                // which is no longer the arena's.
                self.known = None;
                Err(Forfeit::Protocol(format!("refused `{command}`: {message}")))
            }
            Err(forfeit) => {
                self.stop();
                Err(forfeit)
            }
        }
    }

    /// Sends a command and reads its answer: the result of a success, or
    /// the message of a failure.
    fn exchange(&mut self, command: &str, wait: Duration) -> Result<Answer, Forfeit> {
        let process = self.process.as_mut().expect("the engine runs");
        let id = process.next_id;
        process.next_id += 1;
        let written = match process.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{id} {command}").and_then(|()| stdin.flush()),
            None => Err(std::io::Error::other("its input is closed")),
        };
        if let Err(e) = written {
            let status = process.exit_status();
            let words = process.last_words();
            return Err(Forfeit::Crashed(format!(
                "could not send `{command}` ({e}): {status}{words}"
            )));
        }
        let deadline = Instant::now() + wait;
        let mut answer: Vec<String> = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match process.lines.recv_timeout(left) {
                Ok(Line::Text(line)) => {
                    if answer.is_empty() {
                        if line.trim().is_empty() {
                            continue;
                        }
                        if !line.starts_with(['=', '?']) {
                            // Not an answer: say so now, not at the deadline.
                            return Err(garbage(&line, command));
                        }
                        answer.push(line);
                    } else if line.is_empty() {
                        break;
                    } else {
                        answer.push(line);
                    }
                }
                Ok(Line::TooLong) => {
                    let words = process.last_words();
                    return Err(Forfeit::Protocol(format!(
                        "wrote a line longer than {MAX_LINE} bytes in answer to `{command}`{words}"
                    )));
                }
                Err(RecvTimeoutError::Timeout) => {
                    let words = process.last_words();
                    return Err(Forfeit::Timeout(format!(
                        "no complete answer to `{command}` within {:.1} s{words}",
                        wait.as_secs_f64()
                    )));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = process.exit_status();
                    let words = process.last_words();
                    return Err(Forfeit::Crashed(format!(
                        "{status} while answering `{command}`{words}"
                    )));
                }
            }
        }
        parse_answer(id, command, &answer)
    }

    /// Brings the engine's game and time settings up to date with `game`.
    fn sync(&mut self, game: &Game, budget: &Budget) -> Result<(), Forfeit> {
        let timeout = self.config.timeout;
        let g = game.position().geometry();
        self.ensure_running()?;
        if self.geometry != Some(g) {
            self.command(
                &format!("variant {} {}", g.variant().name(), g.size()),
                timeout,
            )?;
            self.geometry = Some(g);
            self.known = None;
        }
        let continues = self.known.as_ref().is_some_and(|known| {
            &known.start == game.start() && game.turns().starts_with(&known.turns)
        });
        if !continues {
            self.command("clear_board", timeout)?;
            let start = game.start();
            if start != &Position::new(g) {
                for color in sygo_rules::Color::BOTH {
                    let stones: Vec<_> = start
                        .stones()
                        .filter(|&(_, c)| c == color)
                        .map(|(p, _)| p)
                        .collect();
                    if !stones.is_empty() {
                        let list = sygo_rules::format_points(&stones, &g);
                        self.command(&format!("setup {} {list}", letter(color)), timeout)?;
                    }
                }
                self.command(
                    &format!("set_turn {}", letter(start.side_to_move())),
                    timeout,
                )?;
                self.command(
                    &format!("set_growth_started {}", start.growth_started()),
                    timeout,
                )?;
            }
            self.known = Some(Known {
                start: start.clone(),
                turns: Vec::new(),
            });
        }
        let seen = self.known.as_ref().map_or(0, |k| k.turns.len());
        let unseen: Vec<(sygo_rules::Color, Turn)> = game
            .turns_with_colors()
            .skip(seen)
            .map(|(c, t)| (c, t.clone()))
            .collect();
        for (color, turn) in unseen {
            let notation = turn.to_notation(&g);
            self.command(&format!("play {} {notation}", letter(color)), timeout)?;
            if let Some(known) = self.known.as_mut() {
                known.turns.push(turn);
            }
        }
        if self.time != Some(budget.time) {
            let seconds = budget.time.map_or(0.0, |t| t.as_secs_f64());
            let settings = if budget.time.is_some() {
                format!("time_settings 0 {seconds} 1")
            } else {
                "time_settings 0 0 0".to_string()
            };
            self.command(&settings, timeout)?;
            self.time = Some(budget.time);
        }
        Ok(())
    }

    /// Asks the engine for a turn, its game brought up to date first.
    fn genmove(&mut self, game: &Game, budget: &Budget) -> Result<Decision, Forfeit> {
        self.sync(game, budget)?;
        let g = game.position().geometry();
        let color = game.position().side_to_move();
        let command = format!("genmove {}", letter(color));
        let wait = budget.time.unwrap_or_default() + self.config.timeout;
        let answer = self.command(&command, wait)?;
        let answer = answer.trim();
        let turn = Turn::parse(answer, &g).map_err(|e| {
            self.known = None;
            Forfeit::Protocol(format!(
                "answered `{command}` with {answer:?}, which is not a move: {e}"
            ))
        })?;
        if let Some(known) = self.known.as_mut() {
            known.turns.push(turn.clone());
        }
        Ok(Decision::turn(turn))
    }
}

/// A colour as the protocol writes it.
fn letter(color: sygo_rules::Color) -> char {
    color.letter().to_ascii_lowercase()
}

/// The forfeit of an engine that answered `line` to `command`.
fn garbage(line: &str, command: &str) -> Forfeit {
    let shown: String = line.chars().take(120).collect();
    Forfeit::Protocol(format!("answered {shown:?} to `{command}`"))
}

/// An answer of the engine.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    /// `=`: the result.
    Success(String),
    /// `?`: the message.
    Failure(String),
}

/// Reads an answer: `=ID result` (or `=` without the id) and its further
/// lines, or `?ID message`.
///
/// # Errors
///
/// [`Forfeit::Protocol`] for anything else.
fn parse_answer(id: u64, command: &str, lines: &[String]) -> Result<Answer, Forfeit> {
    let first = lines.first().map_or("", String::as_str);
    let garbage = || garbage(first, command);
    let (success, rest) = match first.chars().next() {
        Some('=') => (true, &first[1..]),
        Some('?') => (false, &first[1..]),
        _ => return Err(garbage()),
    };
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let (answer_id, text) = rest.split_at(digits);
    if !(answer_id.is_empty() || answer_id.parse::<u64>() == Ok(id)) {
        return Err(garbage());
    }
    if !(text.is_empty() || text.starts_with([' ', '\t'])) {
        return Err(garbage());
    }
    let text = text.trim();
    if success {
        let mut result = text.to_string();
        for line in &lines[1..] {
            result.push('\n');
            result.push_str(line);
        }
        Ok(Answer::Success(result))
    } else {
        Ok(Answer::Failure(text.to_string()))
    }
}

impl Contender for EnginePlayer {
    fn new_game(&mut self, _seed: u64) -> Result<(), Forfeit> {
        self.known = None;
        self.failure = None;
        self.ensure_running()
    }

    fn choose(&mut self, game: &Game, budget: &Budget) -> Result<Decision, Forfeit> {
        self.genmove(game, budget)
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &Game, budget: &Budget) -> Decision {
        match self.genmove(game, budget) {
            Ok(decision) => decision,
            Err(forfeit) => {
                self.failure = Some(forfeit);
                Decision::turn(Turn::Resign)
            }
        }
    }

    fn new_game(&mut self) {
        if let Err(forfeit) = Contender::new_game(self, 0) {
            self.failure = Some(forfeit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_like_a_shell() {
        let words = |t: &str| split_command(t).unwrap();
        assert_eq!(words("sygo gtp --seed 3"), ["sygo", "gtp", "--seed", "3"]);
        assert_eq!(
            words("  a   'b c'  \"d \\\"e\\\"\" f\\ g "),
            ["a", "b c", "d \"e\"", "f g"]
        );
        assert_eq!(words("x''"), ["x"]);
        assert_eq!(words("''"), [""]);
        assert!(split_command("   ").is_err());
        assert!(split_command("a 'b").is_err());
        assert!(split_command("a \"b").is_err());
        assert!(split_command("a b\\").is_err());
    }

    #[test]
    fn answers_are_read_strictly() {
        let lines = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            parse_answer(3, "genmove w", &lines(&["=3 D4"])),
            Ok(Answer::Success("D4".into()))
        );
        assert_eq!(
            parse_answer(3, "genmove w", &lines(&["= D4"])),
            Ok(Answer::Success("D4".into()))
        );
        assert_eq!(
            parse_answer(3, "name", &lines(&["=3"])),
            Ok(Answer::Success(String::new()))
        );
        assert_eq!(
            parse_answer(3, "showboard", &lines(&["=3", "a", "b"])),
            Ok(Answer::Success("\na\nb".into()))
        );
        assert_eq!(
            parse_answer(3, "play w D4", &lines(&["?3 illegal move: no"])),
            Ok(Answer::Failure("illegal move: no".into()))
        );
        for bad in ["=4 D4", "3 genmove w", "=3D4", "D4"] {
            assert!(
                matches!(
                    parse_answer(3, "genmove w", &lines(&[bad])),
                    Err(Forfeit::Protocol(_))
                ),
                "{bad}"
            );
        }
    }
}
