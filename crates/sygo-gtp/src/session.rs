//! The protocol's driver: a command line answered through the command
//! table, and the loop that feeds an [`Engine`] lines and writes answers.
//!
//! The loop reads its input on a thread of its own, a line at a time, so
//! that a streaming `analyze` can go on searching until the next line
//! arrives; every line is still answered in order, one answer per command.
//!
//! This file sits above the others: the engine's state (`engine.rs`), the
//! `analyze` request and report (`analyze.rs`) and the command table
//! (`commands.rs`) never call back into it.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TryRecvError};
use std::thread;

use sygo_ai::Budget;

use crate::analyze;
use crate::commands;
use crate::engine::Engine;
use crate::error::CommandError;
use crate::framing::{self, CommandLine, MAX_LINE_BYTES};

impl Engine {
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
    ///
    /// An `analyze` answered here reports once, after one interval, and
    /// ends: only [`run`] streams, until the next line arrives.
    pub fn handle_line(&mut self, line: &str) -> Option<String> {
        let command = framing::parse_line(line)?;
        Some(self.answer(&command))
    }

    /// Answers a command line already read (as [`Engine::handle_line`]).
    pub fn answer(&mut self, command: &CommandLine) -> String {
        let mut answer = self.start_answer(command);
        if self.analysis.is_some() {
            if let Some(stop) = self.player.stop_handle() {
                stop.store(false, Ordering::SeqCst);
            }
            if let Some(report) = self.analysis_report() {
                answer.push_str(&report);
                answer.push('\n');
            }
            self.analysis = None;
            answer.push('\n');
        }
        answer
    }

    /// Answers a command line; for an `analyze` that starts, only the first
    /// line `=id`, and the analysis is left in progress.
    fn start_answer(&mut self, command: &CommandLine) -> String {
        let id = command.id.as_deref();
        let outcome = if command.name.is_empty() {
            Err(CommandError::NoCommand)
        } else {
            let args: Vec<&str> = command.args.iter().map(String::as_str).collect();
            self.execute(&command.name, &args)
        };
        match outcome {
            Ok(_) if self.analysis.is_some() => framing::stream_start(id),
            Ok(result) => framing::success(id, &result),
            Err(error) => framing::failure(id, &error.to_string()),
        }
    }

    /// Reads one line given as bytes: invalid UTF-8 is replaced (U+FFFD), so
    /// an argument holding it is malformed, never a crash.
    pub fn handle_bytes(&mut self, line: &[u8]) -> Option<String> {
        self.handle_line(&String::from_utf8_lossy(line))
    }

    /// As [`Engine::handle_bytes`], but an `analyze` that starts is left in
    /// progress after its first line.
    fn start_bytes(&mut self, line: &[u8]) -> Option<String> {
        let command = framing::parse_line(&String::from_utf8_lossy(line))?;
        Some(self.start_answer(&command))
    }

    /// One interval of the analysis in progress: the search goes on, then
    /// its report as one line (without its newline); `None` when there is
    /// nothing to report — also while no candidate has a simulation yet (an
    /// interval on a busy machine can end before the first one), as a GUI
    /// expects every report to name the best turn.
    fn analysis_report(&mut self) -> Option<String> {
        let request = self.analysis.clone()?;
        let analysis = self
            .player
            .ponder(&self.game, &Budget::time(request.interval))?;
        if analysis.candidates.is_empty() && !self.game.position().is_over() {
            return None;
        }
        let report = analyze::report(&analysis, self.game.position(), &request);
        (!report.is_empty()).then_some(report)
    }
}

/// A line read: its bytes (at most [`MAX_LINE_BYTES`]) and whether it was
/// cut; or the error that ended the input.
type Input = io::Result<(Vec<u8>, bool)>;

/// Runs the protocol: reads commands from `input` line by line and writes
/// each answer to `output` (flushed at once), until `quit` or the end of the
/// input.
///
/// The input is read on a thread of its own, so that `analyze` can stream
/// its reports until the next line arrives; that line ends the analysis
/// (the empty line of its answer) and is then read as any other.
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
pub fn run<R>(engine: &mut Engine, input: R, mut output: impl Write) -> io::Result<()>
where
    R: BufRead + Send + 'static,
{
    let stop = engine.player.stop_handle();
    let analysing = Arc::new(AtomicBool::new(false));
    // A few lines read ahead at most: the reader waits for the engine.
    let (sender, lines) = mpsc::sync_channel::<Input>(4);
    {
        let (stop, analysing) = (stop.clone(), analysing.clone());
        thread::spawn(move || read_lines(input, &sender, stop.as_deref(), &analysing));
    }
    let mut next: Option<Input> = None;
    while !engine.quit_requested() {
        let Some(message) = next.take().or_else(|| lines.recv().ok()) else {
            break;
        };
        let (line, too_long) = message?;
        let answer = if too_long {
            answer_too_long(engine, &line)
        } else {
            engine.start_bytes(&line)
        };
        if let Some(answer) = answer {
            output.write_all(answer.as_bytes())?;
            output.flush()?;
        }
        if engine.analysis.is_some() {
            analysing.store(true, Ordering::SeqCst);
            let ended = stream_analysis(engine, &lines, stop.as_deref(), &mut output);
            analysing.store(false, Ordering::SeqCst);
            engine.analysis = None;
            output.write_all(b"\n")?;
            output.flush()?;
            match ended? {
                Some(message) => next = Some(message),
                None => break,
            }
        }
    }
    Ok(())
}

/// Streams the analysis in progress, a report per interval, until a line
/// arrives (returned) or the input ends (`None`).
fn stream_analysis(
    engine: &mut Engine,
    lines: &Receiver<Input>,
    stop: Option<&AtomicBool>,
    output: &mut impl Write,
) -> io::Result<Option<Input>> {
    loop {
        // Lowered before looking for input: a line that arrives after the
        // look raises it again (the reader raises it while `analysing`).
        if let Some(stop) = stop {
            stop.store(false, Ordering::SeqCst);
        }
        match lines.try_recv() {
            Ok(message) => return Ok(Some(message)),
            Err(TryRecvError::Disconnected) => return Ok(None),
            Err(TryRecvError::Empty) => {}
        }
        let report = engine.analysis_report();
        // A line that stopped the search ends the analysis unreported.
        match lines.try_recv() {
            Ok(message) => return Ok(Some(message)),
            Err(TryRecvError::Disconnected) => return Ok(None),
            Err(TryRecvError::Empty) => {}
        }
        if let Some(report) = report {
            output.write_all(report.as_bytes())?;
            output.write_all(b"\n")?;
            output.flush()?;
        }
    }
}

/// The reader's thread: sends each line of `input`, then the error that
/// ended it if any, and stops at the end of the input or when the engine no
/// longer listens. A line that arrives during an analysis stops its search.
fn read_lines(
    mut input: impl BufRead,
    sender: &SyncSender<Input>,
    stop: Option<&AtomicBool>,
    analysing: &AtomicBool,
) {
    loop {
        let mut line = Vec::new();
        let message = match read_line(&mut input, &mut line) {
            Ok(None) => return,
            Ok(Some(too_long)) => Ok((line, too_long)),
            Err(e) => Err(e),
        };
        let failed = message.is_err();
        if sender.send(message).is_err() {
            return;
        }
        if analysing.load(Ordering::SeqCst) {
            if let Some(stop) = stop {
                stop.store(true, Ordering::SeqCst);
            }
        }
        if failed {
            return;
        }
    }
}

/// The answer to a line cut at [`MAX_LINE_BYTES`]: if the part read has a
/// comment, the rest is comment too and the line is read as usual; otherwise
/// it is refused, with its id if it starts with one.
fn answer_too_long(engine: &mut Engine, start: &[u8]) -> Option<String> {
    if start.contains(&b'#') {
        return engine.start_bytes(start);
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
    use crate::engine::EngineOptions;
    use sygo_rules::Variant;

    fn engine() -> Engine {
        Engine::new(EngineOptions::random(Variant::Sygo, 9, 1)).unwrap()
    }

    fn session(input: &[u8]) -> String {
        let mut output = Vec::new();
        run(&mut engine(), io::Cursor::new(input.to_vec()), &mut output).unwrap();
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
