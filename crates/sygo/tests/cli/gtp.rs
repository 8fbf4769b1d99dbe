//! The engine protocol as a user meets it: the real `sygo gtp` binary driven
//! through its standard input and output, as a GUI or a harness drives it.
//!
//! Whole games are replayed from transcripts in `tests/transcripts/`; every
//! command of PROTOCOL.md is answered; malformed input of every kind is
//! refused with a failure answer that changes nothing; `genmove` plays
//! whole games whose every turn the rules library accepts, with the random
//! player and with the search, within the time given; and `analyze` streams
//! its reports until the next line.
//!
//! The engine runs with `--player random` unless a test names a player, so
//! that the tests of the protocol itself answer at once.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

use sygo_rules::{Color, Geometry, Point, Position, Turn, Variant, format_points};

/// The longest the engine may take to answer anything here.
const TIMEOUT: Duration = Duration::from_secs(30);

/// The commands PROTOCOL.md requires of every build.
const PROTOCOL_COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "variant",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "legal_steps",
    "setup",
    "set_turn",
    "set_growth_started",
    "time_settings",
    "time_left",
];

// ------------------------------------------------------------ the driver

/// One answer of the engine, read.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Answer {
    /// `=` (true) or `?` (false).
    ok: bool,
    /// The id echoed, if any.
    id: Option<String>,
    /// The result or message: the text after `=id ` on the first line, or the
    /// lines after it for a multi-line result.
    text: String,
    /// The answer exactly as written, with its empty line.
    raw: String,
}

impl Answer {
    fn parse(raw: &str) -> Answer {
        let body = raw
            .strip_suffix("\n\n")
            .unwrap_or_else(|| panic!("an answer ends with an empty line: {raw:?}"));
        let (first, rest) = body.split_once('\n').unwrap_or((body, ""));
        let ok = match first.as_bytes().first() {
            Some(b'=') => true,
            Some(b'?') => false,
            _ => panic!("an answer starts with = or ?: {raw:?}"),
        };
        let after = &first[1..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let id = (digits > 0).then(|| after[..digits].to_string());
        let head = &after[digits..];
        let text = if rest.is_empty() {
            assert!(
                head.is_empty() || head.starts_with(' '),
                "a space after the id: {raw:?}"
            );
            head.strip_prefix(' ').unwrap_or(head).to_string()
        } else {
            assert!(
                head.is_empty(),
                "a multi-line result starts on the next line: {raw:?}"
            );
            rest.to_string()
        };
        Answer {
            ok,
            id,
            text,
            raw: raw.to_string(),
        }
    }
}

/// A running `sygo gtp`.
struct Gtp {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Vec<u8>>,
}

impl Gtp {
    /// Starts `sygo gtp` with these options (and `--player random` if they
    /// name no player).
    fn start(args: &[&str]) -> Gtp {
        let names_player = args.iter().any(|a| *a == "--player" || *a == "--level");
        let default_player: &[&str] = if names_player {
            &[]
        } else {
            &["--player", "random"]
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_sygo"))
            .arg("gtp")
            .args(default_player)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the sygo binary starts");
        let stdout = child.stdout.take().expect("piped");
        let (send, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if send.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Gtp {
            stdin: child.stdin.take(),
            child,
            lines,
        }
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("the engine reads");
        stdin.flush().expect("the engine reads");
    }

    /// Reads the next answer: lines up to an empty one.
    fn answer(&mut self) -> Answer {
        let mut raw = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(TIMEOUT)
                .expect("the engine answers in time");
            raw.extend_from_slice(&line);
            if line == b"\n" {
                break;
            }
        }
        Answer::parse(&String::from_utf8(raw).expect("answers are UTF-8"))
    }

    /// Sends one line, without reading anything.
    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Reads one line of output, without its newline.
    fn line(&mut self) -> String {
        let line = self
            .lines
            .recv_timeout(TIMEOUT)
            .expect("the engine writes in time");
        let line = String::from_utf8(line).expect("output is UTF-8");
        line.strip_suffix('\n').expect("whole lines").to_string()
    }

    /// Sends one line and reads its answer.
    fn ask(&mut self, line: &str) -> Answer {
        self.ask_bytes(line.as_bytes())
    }

    fn ask_bytes(&mut self, line: &[u8]) -> Answer {
        let mut bytes = line.to_vec();
        bytes.push(b'\n');
        self.send_bytes(&bytes);
        self.answer()
    }

    /// Sends a line that must succeed; returns the result.
    #[track_caller]
    fn ok(&mut self, line: &str) -> String {
        let answer = self.ask(line);
        assert!(answer.ok, "{line:?} failed: {}", answer.raw);
        answer.text
    }

    /// Sends a line that must fail, and checks that it changed nothing;
    /// returns the message.
    #[track_caller]
    fn refused_bytes(&mut self, line: &[u8]) -> String {
        let before = self.snapshot();
        let answer = self.ask_bytes(line);
        let shown = String::from_utf8_lossy(line);
        assert!(!answer.ok, "{shown:?} succeeded: {}", answer.raw);
        assert_eq!(self.snapshot(), before, "{shown:?} changed the state");
        answer.text
    }

    #[track_caller]
    fn refused(&mut self, line: &str) -> String {
        self.refused_bytes(line.as_bytes())
    }

    /// Everything a user can see of the state: the board and its status
    /// line (side to move, growth, passes, turns, komi), the score, and the
    /// steps allowed to each colour.
    fn snapshot(&mut self) -> String {
        let board = self.ok("showboard");
        let score = self.ok("final_score");
        let black = self.ask("legal_steps b").raw;
        let white = self.ask("legal_steps w").raw;
        format!("{board}\n{score}\n{black}{white}")
    }

    /// The colour to move, from `legal_steps` (which refuses the other one).
    fn side_to_move(&mut self) -> Color {
        if self.ask("legal_steps b").ok {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Closes standard input and waits for the engine to exit.
    fn finish(mut self) -> ExitStatus {
        drop(self.stdin.take());
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(start.elapsed() < TIMEOUT, "the engine does not exit");
            thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs the binary on a whole input at once and returns its output and exit
/// status.
fn run_whole(args: &[&str], input: &[u8]) -> (String, ExitStatus) {
    run_whole_in(env!("CARGO_MANIFEST_DIR"), args, input)
}

/// [`run_whole`] in a working directory.
fn run_whole_in(dir: &str, args: &[&str], input: &[u8]) -> (String, ExitStatus) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sygo"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the sygo binary starts");
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.to_vec();
    let writer = thread::spawn(move || {
        // The engine may stop reading after `quit`.
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().expect("piped");
    let (send, receive) = mpsc::channel();
    thread::spawn(move || {
        let mut output = Vec::new();
        let _ = stdout.read_to_end(&mut output);
        let _ = send.send(output);
    });
    let output = receive
        .recv_timeout(TIMEOUT)
        .expect("the engine finishes in time");
    writer.join().expect("writer");
    let status = child.wait().expect("wait");
    (String::from_utf8(output).expect("UTF-8 output"), status)
}

// ------------------------------------------------------------ transcripts

/// Replays a transcript (format in the files' headers) and compares every
/// answer with the one written down.
fn replay_transcript(text: &str, args: &[&str]) {
    replay_transcript_in(env!("CARGO_MANIFEST_DIR"), text, args);
}

/// [`replay_transcript`] with the engine in a working directory.
fn replay_transcript_in(dir: &str, text: &str, args: &[&str]) {
    let mut commands: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(command) = line.strip_prefix("> ") {
            commands.push((command.to_string(), String::new()));
        } else if let Some((_, expected)) = commands.last_mut() {
            expected.push_str(line);
            expected.push('\n');
        }
    }
    let input: String = commands.iter().map(|(c, _)| format!("{c}\n")).collect();
    let mut full_args = vec!["gtp", "--player", "random"];
    full_args.extend_from_slice(args);
    let (output, status) = run_whole_in(dir, &full_args, input.as_bytes());
    assert!(status.success(), "{status}");
    let mut answers = output.split_inclusive("\n\n");
    for (command, expected) in &commands {
        let actual = if expected.is_empty() {
            ""
        } else {
            answers.next().unwrap_or("(no answer)")
        };
        if command.split_whitespace().any(|word| word == "genmove") && expected.starts_with('=') {
            // The random player's draws may change: any move will do.
            let (recorded, played) = (Answer::parse(expected), Answer::parse(actual));
            assert!(played.ok, "{command:?}: {actual:?}");
            assert_eq!(played.id, recorded.id, "{command:?}");
            assert!(is_move(&played.text), "{command:?}: {actual:?}");
        } else {
            assert_eq!(actual, expected, "the answer to {command:?}");
        }
    }
    assert_eq!(answers.next(), None, "answers left over");
}

/// Whether text has the form of a move: `pass`, `resign`, or vertices
/// separated by single commas.
fn is_move(text: &str) -> bool {
    text == "pass"
        || text == "resign"
        || text.split(',').all(|v| {
            let mut chars = v.chars();
            chars
                .next()
                .is_some_and(|c| c.is_ascii_uppercase() && c != 'I')
                && matches!(chars.as_str().parse::<u8>(), Ok(1..=25))
        })
}

#[test]
fn a_game_on_the_square_board_follows_its_transcript() {
    replay_transcript(
        include_str!("../transcripts/sygo-9.txt"),
        &["--size", "9", "--seed", "1"],
    );
}

#[test]
fn a_game_on_the_hex_board_follows_its_transcript() {
    replay_transcript(
        include_str!("../transcripts/hexsygo-4.txt"),
        &["--seed", "1"],
    );
}

#[test]
fn the_session_in_the_protocol_docs_is_what_the_engine_says() {
    let docs = include_str!("../../../../docs/protocol.md");
    let section = &docs[docs.find("## A session").expect("a session section")..];
    let start = section.find("```text\n").expect("a transcript") + "```text\n".len();
    let end = start + section[start..].find("```").expect("its end");
    replay_transcript(&section[start..end], &["--seed", "1"]);
}

#[test]
fn the_records_session_in_the_protocol_docs_is_what_the_engine_says() {
    let docs = include_str!("../../../../docs/protocol.md");
    let section = &docs[docs
        .find("## Records: a session")
        .expect("a records section")..];
    let start = section.find("```text\n").expect("a transcript") + "```text\n".len();
    let end = start + section[start..].find("```").expect("its end");
    let top = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    replay_transcript_in(top, &section[start..end], &["--seed", "1"]);
}

#[test]
fn the_session_in_the_readme_is_what_the_engine_says() {
    let readme = include_str!("../../../../README.md");
    let section = &readme[readme.find("$ sygo gtp").expect("a session in the README")..];
    let start = section.find('\n').expect("the command line") + 1;
    let end = start + section[start..].find("```").expect("its end");
    replay_transcript(&section[start..end], &["--variant", "sygo", "--size", "9"]);
}

// ------------------------------------------------------------ every command

#[test]
fn every_command_of_the_protocol_is_known_and_answers() {
    let mut gtp = Gtp::start(&["--size", "9"]);
    let listed = gtp.ok("list_commands");
    let listed: Vec<&str> = listed.lines().collect();
    for name in PROTOCOL_COMMANDS {
        assert!(listed.contains(name), "list_commands lacks {name}");
        assert_eq!(gtp.ok(&format!("known_command {name}")), "true");
    }
    for name in &listed {
        assert_eq!(gtp.ok(&format!("known_command {name}")), "true");
    }
    assert_eq!(gtp.ok("known_command dance"), "false");

    assert_eq!(gtp.ok("protocol_version"), "2");
    assert_eq!(gtp.ok("name"), "sygo");
    assert_eq!(gtp.ok("version"), env!("CARGO_PKG_VERSION"));

    // boardsize: square, cleared.
    gtp.ok("play w E5");
    assert_eq!(gtp.ok("boardsize 13"), "");
    let board = gtp.ok("showboard");
    assert!(
        board.contains(" 13 . . . . . . . . . . . . . 13"),
        "{board}"
    );
    assert!(board.contains("White to move, no growth turn yet, passes 0, turns 0"));
    assert_eq!(gtp.ok("final_score"), "0");

    // variant: hexagonal of base 5 (9 rows), cleared; and back.
    assert_eq!(gtp.ok("variant hexsygo 5"), "");
    let board = gtp.ok("showboard");
    assert_eq!(board.lines().count(), 9 + 3, "{board}");
    assert!(
        board.ends_with("hexsygo 5, White to move, no growth turn yet, passes 0, turns 0, komi 0")
    );
    assert_eq!(gtp.ok("variant sygo 7"), "");
    assert!(gtp.ok("showboard").contains("  7 . . . . . . . 7"));

    // komi counts for White in final_score.
    assert_eq!(gtp.ok("komi 6.5"), "");
    assert_eq!(gtp.ok("final_score"), "W+6.5");

    // play, genmove, undo, clear_board.
    assert_eq!(gtp.ok("play white D4"), "");
    let reply = gtp.ok("genmove black");
    let g = Geometry::sygo(7).unwrap();
    assert!(Turn::parse(&reply, &g).is_ok(), "{reply}");
    assert_eq!(gtp.ok("undo"), "");
    assert_eq!(gtp.ok("undo"), "");
    assert!(gtp.refused("undo").starts_with("cannot undo"));
    gtp.ok("play W D4");
    assert_eq!(gtp.ok("clear_board"), "");
    assert!(gtp.ok("showboard").contains("turns 0"));

    // legal_steps, setup, set_turn, set_growth_started.
    assert_eq!(gtp.ok("legal_steps w").split(' ').count(), 49);
    assert_eq!(gtp.ok("setup b D4,D5"), "");
    assert_eq!(gtp.ok("setup w A1"), "");
    assert_eq!(gtp.ok("set_turn b"), "");
    assert!(gtp.refused("legal_steps w").starts_with("illegal move"));
    let steps = gtp.ok("legal_steps b D6");
    assert!(steps.contains("A7") && steps.ends_with(" end"), "{steps}");
    assert_eq!(gtp.ok("set_growth_started true"), "");
    assert_eq!(gtp.ok("legal_steps b D6"), "end");
    assert_eq!(gtp.ok("set_growth_started false"), "");
    assert!(gtp.ok("legal_steps b D6").contains("A7"));

    // Time control: stored, decimals accepted; genmove answers at once
    // (a random player does not wait for its 30 s).
    assert_eq!(gtp.ok("time_settings 0 0.5 1"), "");
    assert_eq!(gtp.ok("time_left black 30.5 1"), "");
    assert_eq!(gtp.ok("time_left w 30 0"), "");
    let start = Instant::now();
    gtp.ok("genmove b");
    assert!(start.elapsed() < Duration::from_secs(5));

    // quit answers, and the engine exits.
    assert_eq!(gtp.ask("99 quit").raw, "=99\n\n");
    assert!(gtp.finish().success());
}

#[test]
fn ids_are_echoed_on_every_kind_of_answer() {
    let mut gtp = Gtp::start(&["--size", "5"]);
    assert_eq!(gtp.ask("1 protocol_version").raw, "=1 2\n\n");
    assert_eq!(gtp.ask("2 play w C3").raw, "=2\n\n");
    assert!(
        gtp.ask("3 showboard")
            .raw
            .starts_with("=3\n    A B C D E\n")
    );
    assert!(
        gtp.ask("4 list_commands")
            .raw
            .starts_with("=4\nprotocol_version\nname\n")
    );
    assert_eq!(gtp.ask("5 nonsense").raw, "?5 unknown command\n\n");
    assert_eq!(
        gtp.ask("6 play w C2").raw,
        "?6 illegal move: it is Black's turn\n\n"
    );
    let huge = "1".repeat(60);
    assert_eq!(
        gtp.ask(&format!("{huge} name")).raw,
        format!("={huge} sygo\n\n")
    );
    assert_eq!(gtp.ask("007 name").id.as_deref(), Some("007"));
    // No id, no id echoed.
    assert_eq!(gtp.ask("name").raw, "= sygo\n\n");
    assert_eq!(gtp.ask("\t8\tname\t").raw, "=8 sygo\n\n");
}

// ------------------------------------------------------------ bad input

/// A game in progress on 9×9: White E5 E6, Black C3 C4 and G3, White to move.
fn game_in_progress() -> Gtp {
    let mut gtp = Gtp::start(&["--size", "9"]);
    gtp.ok("play w E5");
    gtp.ok("play b C3");
    gtp.ok("play w E6");
    gtp.ok("play b C4");
    gtp.ok("play w pass");
    gtp.ok("play b G3");
    gtp
}

/// Reads a table of cases: each line is a command, `=>`, and the start of
/// the failure message it must get.
fn cases(table: &str) -> impl Iterator<Item = (&str, &str)> {
    table.lines().filter(|l| !l.trim().is_empty()).map(|l| {
        let (line, expected) = l.split_once(" => ").expect("command => message");
        (line.trim_end(), expected)
    })
}

/// Lines that cannot be read, on the game of [`game_in_progress`], and the
/// start of the failure each gets. (`plаy` has a Cyrillic а.)
const MALFORMED: &str = r#"
frobnicate                              => unknown command
PLAY w D4                               => unknown command
plаy w D4                               => unknown command
42                                      => syntax error: an id but no command
play                                    => syntax error: expected play COLOR MOVE, got no argument
play w                                  => syntax error: expected play COLOR MOVE, got 1 argument
play w D4 E4                            => syntax error: expected play COLOR MOVE, got 3 arguments
play w D4, E4                           => syntax error: expected play COLOR MOVE, got 3 arguments
play purple D4                          => syntax error: "purple" is not a colour
play w D4,                              => syntax error: a comma with no stone beside it
play w ,D4                              => syntax error: a comma with no stone beside it
play w D4,,E4                           => syntax error: a comma with no stone beside it
play w ,                                => syntax error: a comma with no stone beside it
play w I4                               => syntax error: "I4" is not a point
play w D0                               => syntax error: "D0" is not a point
play w D04                              => syntax error: "D04" is not a point
play w 4D                               => syntax error: "4D" is not a point
play w D                                => syntax error: "D" is not a point
play w D99999999999999999999            => syntax error: "D999999999999999
play w Ｄ４                               => syntax error: "Ｄ４" is not a point
play w D4;E4                            => syntax error: "D4;E4" is not a point
play w passs                            => syntax error: "passs" is not a point
play w pass,D4                          => syntax error: "pass" is not a point
play w K9                               => illegal move: K9 is not on the sygo 9 board
play w Z25                              => illegal move: Z25 is not on the sygo 9 board
genmove                                 => syntax error: expected genmove COLOR, got no argument
genmove w b                             => syntax error: expected genmove COLOR, got 2 arguments
genmove bl                              => syntax error: "bl" is not a colour
undo 1                                  => syntax error: expected undo, got 1 argument
quit now                                => syntax error: expected quit, got 1 argument
showboard all                           => syntax error: expected showboard, got 1 argument
final_score 1                           => syntax error: expected final_score, got 1 argument
clear_board 9                           => syntax error: expected clear_board, got 1 argument
name 1                                  => syntax error: expected name, got 1 argument
known_command                           => syntax error: expected known_command NAME, got no argument
known_command a b                       => syntax error: expected known_command NAME, got 2 arguments
boardsize                               => syntax error: expected boardsize N, got no argument
boardsize nine                          => syntax error: "nine" is not a board size
boardsize 9.0                           => syntax error: "9.0" is not a board size
boardsize 2                             => unacceptable size: sygo cannot be played at size 2
boardsize 26                            => unacceptable size: sygo cannot be played at size 26
boardsize 256                           => unacceptable size: sygo cannot be played at size "256"
boardsize 18446744073709551617          => unacceptable size
boardsize -19                           => unacceptable size
variant                                 => syntax error: expected variant sygo|hexsygo N, got no argument
variant hexsygo                         => syntax error: expected variant sygo|hexsygo N, got 1 argument
variant hexsygo 5 5                     => syntax error: expected variant sygo|hexsygo N, got 3 arguments
variant go 19                           => syntax error: "go" is not a variant
variant hexsygo 1                       => unacceptable size: hexsygo cannot be played at size 1
variant hexsygo 14                      => unacceptable size: hexsygo cannot be played at size 14
variant sygo 99999999999999999999999999 => unacceptable size
komi                                    => syntax error: expected komi X, got no argument
komi 1 2                                => syntax error: expected komi X, got 2 arguments
komi nan                                => syntax error: "nan" is not a komi
komi inf                                => syntax error: "inf" is not a komi
komi -infinity                          => syntax error: "-infinity" is not a komi
komi 1e999                              => syntax error: "1e999" is not a komi
komi 6,5                                => syntax error: "6,5" is not a komi
legal_steps                             => syntax error: expected legal_steps COLOR [PREFIX], got no argument
legal_steps w D4 E4                     => syntax error: expected legal_steps COLOR [PREFIX], got 3 arguments
legal_steps x                           => syntax error: "x" is not a colour
legal_steps w F5,                       => syntax error: a comma with no stone beside it
legal_steps w ,F5                       => syntax error: a comma with no stone beside it
legal_steps w Q5                        => illegal move: Q5 is not on the sygo 9 board
setup                                   => syntax error: expected setup COLOR VERTICES, got no argument
setup b                                 => syntax error: expected setup COLOR VERTICES, got 1 argument
setup b A1 A2                           => syntax error: expected setup COLOR VERTICES, got 3 arguments
setup red A1                            => syntax error: "red" is not a colour
setup b A1,,A2                          => syntax error: a comma with no stone beside it
setup b A1,                             => syntax error: a comma with no stone beside it
setup b I1                              => syntax error: "I1" is not a point
set_turn                                => syntax error: expected set_turn COLOR, got no argument
set_turn both                           => syntax error: "both" is not a colour
set_growth_started                      => syntax error: expected set_growth_started true|false, got no argument
set_growth_started yes                  => syntax error: "yes" is not true or false
set_growth_started 1                    => syntax error: "1" is not true or false
time_settings 1 2                       => syntax error: expected time_settings MAIN BYO STONES, got 2 arguments
time_settings -1 0 0                    => syntax error: "-1" is a negative time
time_settings nan 0 0                   => syntax error: "nan" is not a time in seconds
time_settings 10 5 -1                   => syntax error: "-1" is not a number of stones
time_settings 10 5 2.5                  => syntax error: "2.5" is not a number of stones
time_settings 10 5 99999999999999999999 => syntax error: "9999999999999999…" is not a number of stones
time_left w 1                           => syntax error: expected time_left COLOR TIME STONES, got 2 arguments
time_left x 1 1                         => syntax error: "x" is not a colour
time_left w soon 1                      => syntax error: "soon" is not a time in seconds
time_left w inf 1                       => syntax error: "inf" is not a time in seconds
"#;

/// Well-formed lines the rules refuse on the game of [`game_in_progress`]
/// (White to move), and the start of the failure each gets.
const REFUSED_BY_THE_RULES: &str = r#"
play b D4           => illegal move: it is White's turn
genmove black       => illegal move: it is White's turn
legal_steps b       => illegal move: it is White's turn
play b pass         => illegal move: it is White's turn
play b resign       => illegal move: it is White's turn
play w E5           => illegal move: E5 is already occupied
play w D6,D5        => illegal move: D5 would grow the group at E5 a second time this turn
play w E7,E8        => illegal move: E8 touches only stones played this turn (such as E7): a growth stone must touch a group you had when the turn began
play w D6,A1        => illegal move: A1 touches none of your stones, so it would be a placement, and White may not place after growing: only Black's balance turn ends with a placement
play w A1,A2        => illegal move: the placement at A1 ended the turn: finish it, or take it back
legal_steps w A1,A2 => illegal move: the placement at A1 ended the turn
legal_steps w D6,D5 => illegal move: D5 would grow the group at E5 a second time this turn
"#;

#[test]
fn malformed_commands_fail_and_change_nothing() {
    let mut gtp = game_in_progress();
    for (line, expected) in cases(MALFORMED) {
        let message = gtp.refused(line);
        assert!(
            message.starts_with(expected),
            "{line:?}: {message:?} does not start with {expected:?}"
        );
    }
    // Nothing above was taken as a turn or a setting: the game goes on.
    gtp.ok("play w F5");
}

#[test]
fn rules_refusals_start_with_illegal_move_and_change_nothing() {
    let mut gtp = game_in_progress();
    for (line, expected) in cases(REFUSED_BY_THE_RULES) {
        let message = gtp.refused(line);
        assert!(
            message.starts_with(expected),
            "{line:?}: {message:?} does not start with {expected:?}"
        );
    }
    // Two passes end the game: every turn is refused, the state stays.
    gtp.ok("play w pass");
    gtp.ok("play b pass");
    for line in [
        "play w F5",
        "play w pass",
        "play b pass",
        "play w resign",
        "genmove w",
        "genmove b",
        "legal_steps w",
    ] {
        assert_eq!(
            gtp.refused(line),
            "illegal move: the game is over",
            "{line}"
        );
    }
    assert!(gtp.ok("showboard").contains("game over: "));
    // Undo reopens it.
    gtp.ok("undo");
    gtp.ok("play b F5");
    // So does a resignation, and clear_board.
    gtp.ok("play w resign");
    assert!(gtp.ok("showboard").contains("game over: B+R"));
    assert_eq!(gtp.refused("play b A1"), "illegal move: the game is over");
    gtp.ok("clear_board");
    gtp.ok("play w A1");
}

#[test]
fn non_utf8_bytes_and_control_characters_never_crash() {
    let mut gtp = game_in_progress();
    let cases: &[(&[u8], &str)] = &[
        (b"play w D\xff4", "syntax error"),
        (b"play w \xc3", "syntax error"),
        (b"play \xff D4", "syntax error"),
        (b"\xff\xfe\xfd", "unknown command"),
        (b"pl\xc3ay w D4", "unknown command"),
        (b"1 \xe2\x80 name", "?"),
        (b"\x1b[A", "unknown command"),
        (b"komi \x80", "syntax error"),
        (b"setup b \xf0\x9f\x98\x80", "syntax error"),
    ];
    for (line, expected) in cases {
        let message = gtp.refused_bytes(line);
        assert!(
            expected == &"?" || message.starts_with(expected),
            "{:?}: {message:?}",
            String::from_utf8_lossy(line)
        );
    }
    // Control characters are dropped, tabs are spaces, CR LF is a newline.
    assert_eq!(gtp.ask_bytes(b"5\tna\x00m\x07e\r").raw, "=5 sygo\n\n");
    assert_eq!(gtp.ask_bytes(b"6 play\x01 w\tF5\r").raw, "=6\n\n");
    assert!(gtp.ok("showboard").contains("  5 . . . . O O . . . 5"));
}

#[test]
fn blank_lines_and_comments_get_no_answer() {
    let mut gtp = Gtp::start(&[]);
    gtp.send_bytes(b"\n   \n\t\n# a comment\n   # another\n\r\n");
    assert_eq!(gtp.ask("1 name # the name").raw, "=1 sygo\n\n");
    assert_eq!(gtp.ask("2 play w D4#E4").raw, "=2\n\n");
}

#[test]
fn oversized_input_is_refused() {
    let mut gtp = game_in_progress();
    let mut long = b"12 play w ".to_vec();
    long.extend(std::iter::repeat_n(b'D', 5_000_000));
    let message = gtp.refused_bytes(&long);
    assert!(
        message.starts_with("syntax error: the line is longer than"),
        "{message}"
    );
    let long_list = vec!["D4"; 200_000].join(",");
    assert!(
        gtp.refused(&format!("play w {long_list}"))
            .starts_with("syntax error")
    );
    let digits = "9".repeat(5000);
    for line in [
        format!("boardsize {digits}"),
        format!("komi {digits}"),
        format!("time_left w 1 {digits}"),
        format!("play w D{digits}"),
    ] {
        let message = gtp.refused(&line);
        assert!(message.len() < 200, "a short message: {message}");
    }
    // A very long number is still a number: a huge finite komi is accepted.
    gtp.ok(&format!("komi -{}", "9".repeat(300)));
    assert!(gtp.ok("final_score").starts_with("B+"));
}

// ------------------------------------------------------------ legal_steps

/// Checks `legal_steps` for the side to move against the rules library, for
/// the empty prefix and for a sample of prefixes; and that a listed `end`
/// means `play` accepts the turn.
fn check_legal_steps(gtp: &mut Gtp, position: &Position, rounds: &mut u32) {
    let g = position.geometry();
    let color = position.side_to_move();
    let name = color.name();
    let mut prefixes: Vec<Vec<Point>> = vec![Vec::new()];
    let mut checked = 0;
    while let Some(prefix) = prefixes.pop() {
        if checked == 12 {
            break;
        }
        checked += 1;
        let notation = format_points(&prefix, &g);
        let answer = gtp.ok(&format!("legal_steps {name} {notation}"));
        let mut next = position.clone();
        for &p in &prefix {
            next.play_step(p).expect("a listed step is allowed");
        }
        let mut expected: Vec<String> = next
            .allowed_steps()
            .iter()
            .map(|&p| g.vertex(p).to_string())
            .collect();
        let ends = !prefix.is_empty() && next.check_finish().is_ok();
        if ends {
            expected.push("end".to_string());
        }
        let mut got: Vec<String> = answer.split_whitespace().map(str::to_string).collect();
        got.sort();
        expected.sort();
        assert_eq!(got, expected, "legal_steps {name} {notation}");
        if ends {
            gtp.ok(&format!("play {name} {notation}"));
            gtp.ok("undo");
            *rounds += 1;
        } else if !prefix.is_empty() {
            assert!(
                gtp.refused(&format!("play {name} {notation}"))
                    .starts_with("illegal move")
            );
        }
        // Extend by the first and the last allowed step, and try one refused.
        let allowed = next.allowed_steps();
        for p in [allowed.first(), allowed.last()].into_iter().flatten() {
            let mut longer = prefix.clone();
            longer.push(*p);
            prefixes.push(longer);
        }
        if let Some(refused) = g.points().find(|p| !allowed.contains(p)) {
            let mut bad = prefix.clone();
            bad.push(refused);
            let bad = format_points(&bad, &g);
            let message = gtp.refused(&format!("legal_steps {name} {bad}"));
            assert!(message.starts_with("illegal move: "), "{bad}: {message}");
        }
    }
}

#[test]
fn legal_steps_agree_with_the_rules_and_with_play() {
    let mut rounds = 0;
    let mut gtp = Gtp::start(&["--seed", "11"]);
    for (variant, g) in [
        ("sygo 7", Geometry::sygo(7).unwrap()),
        ("hexsygo 3", Geometry::hexsygo(3).unwrap()),
        ("sygo 3", Geometry::sygo(3).unwrap()),
    ] {
        gtp.ok(&format!("variant {variant}"));
        let mut position = Position::new(g);
        while !position.is_over() {
            check_legal_steps(&mut gtp, &position, &mut rounds);
            let color = position.side_to_move();
            let reply = gtp.ok(&format!("genmove {}", color.name()));
            position
                .play_turn(&Turn::parse(&reply, &g).unwrap())
                .unwrap();
        }
    }
    assert!(rounds > 20, "complete turns checked: {rounds}");
}

// ------------------------------------------------------------ setup

#[test]
fn setup_errors_change_nothing_and_a_setup_is_a_new_start() {
    let mut gtp = Gtp::start(&["--size", "5"]);
    gtp.ok("play w C3");
    gtp.ok("play b A5");
    let cases: &[(&str, &str)] = &[
        ("setup b C3", "illegal setup: C3 is already occupied"),
        ("setup w A5", "illegal setup: A5 is already occupied"),
        ("setup b B2,B2", "illegal setup: B2 is already occupied"),
        ("setup b F1", "illegal setup: F1 is not on the sygo 5 board"),
        (
            "setup b A1,Z25",
            "illegal setup: Z25 is not on the sygo 5 board",
        ),
        // White's C3 would be surrounded.
        (
            "setup b B3,D3,C2,C4",
            "illegal setup: the group at C3 would have no liberties",
        ),
        // Black's own A5 would be surrounded.
        (
            "setup w A4,B5",
            "illegal setup: the group at A5 would have no liberties",
        ),
        // New stones that leave themselves no liberty: the lowest dead group is named.
        (
            "setup w E1,D1,E2,D2,C1,C2,B1,B2,A1,A2,A3,B3,D3,E3,A4,B4,C4,D4,E4,B5,C5,D5,E5",
            "illegal setup: the group at A1 would have no liberties",
        ),
    ];
    for (line, expected) in cases {
        assert_eq!(&gtp.refused(line), expected, "{line}");
    }
    // A good setup: the side to move (White) stays, and undo stops there.
    gtp.ok("setup b B3,D3,C4");
    let board = gtp.ok("showboard");
    assert!(board.contains("  3 . X O X . 3"), "{board}");
    assert!(
        board.contains("White to move, no growth turn yet, passes 0, turns 0"),
        "{board}"
    );
    assert!(gtp.refused("undo").starts_with("cannot undo"));
    // White's C3 has one liberty left; White saves it by growing.
    gtp.ok("play w C2");
    gtp.ok("undo");
    assert!(gtp.refused("undo").starts_with("cannot undo"));
    // Passes return to 0 with a setup: one pass each does not end the game.
    gtp.ok("play w pass");
    gtp.ok("setup w E5");
    gtp.ok("play b pass");
    assert!(!gtp.ok("showboard").contains("game over"));
    gtp.ok("play w D2");
}

// ------------------------------------------------------------ genmove

#[test]
fn genmove_plays_whole_random_games_whose_every_turn_is_legal() {
    let boards: &[(&str, u8, u32)] = &[
        ("sygo", 3, 10),
        ("sygo", 5, 8),
        ("sygo", 9, 4),
        ("sygo", 19, 2),
        ("sygo", 25, 1),
        ("hexsygo", 2, 10),
        ("hexsygo", 3, 8),
        ("hexsygo", 6, 3),
        ("hexsygo", 10, 2),
        ("hexsygo", 13, 1),
    ];
    let mut gtp = Gtp::start(&["--seed", "2024"]);
    let mut turns = 0;
    for &(variant, size, games) in boards {
        gtp.ok(&format!("variant {variant} {size}"));
        let g = Geometry::new(Variant::from_name(variant).unwrap(), size).unwrap();
        for game in 0..games {
            gtp.ok("clear_board");
            let mut position = Position::new(g);
            while !position.is_over() {
                let color = position.side_to_move();
                let reply = gtp.ok(&format!("genmove {}", color.letter()));
                let turn = Turn::parse(&reply, &g)
                    .unwrap_or_else(|e| panic!("{g} game {game}: {reply:?} is not a move: {e}"));
                assert_ne!(turn, Turn::Resign);
                position
                    .play_turn(&turn)
                    .unwrap_or_else(|e| panic!("{g} game {game}: {reply} is illegal: {e}"));
                turns += 1;
            }
            // Two passes ended it; the engine agrees.
            assert_eq!(position.passes(), 2);
            let over = gtp.refused(&format!("genmove {}", position.side_to_move().letter()));
            assert_eq!(over, "illegal move: the game is over");
            assert_eq!(gtp.ok("final_score"), position.score().to_string());
        }
    }
    assert!(turns > 500, "turns played: {turns}");
}

#[test]
fn genmove_follows_the_seed() {
    let game = |seed: &str| {
        let mut gtp = Gtp::start(&["--size", "7", "--seed", seed]);
        (0..10)
            .map(|i| gtp.ok(if i % 2 == 0 { "genmove w" } else { "genmove b" }))
            .collect::<Vec<_>>()
    };
    assert_eq!(game("5"), game("5"));
    assert_ne!(game("5"), game("6"));
}

#[test]
fn set_turn_and_set_growth_started_change_the_rules_in_force() {
    let mut gtp = Gtp::start(&["--size", "9"]);
    gtp.ok("play w E5");
    assert_eq!(gtp.side_to_move(), Color::Black);
    gtp.ok("set_turn white");
    assert_eq!(gtp.side_to_move(), Color::White);
    assert!(gtp.refused("undo").starts_with("cannot undo"));
    gtp.ok("play w E6");
    // White grew: Black's balance turn is gone ...
    gtp.ok("play b C3");
    gtp.ok("play w pass");
    assert!(
        gtp.refused("play b C4,H8")
            .contains("the balance turn is gone")
    );
    // ... until set_growth_started false gives it back.
    gtp.ok("set_growth_started false");
    gtp.ok("play b C4,H8");
}

// ------------------------------------------------------------ the process

#[test]
fn the_engine_exits_on_quit_and_at_the_end_of_input() {
    let (output, status) = run_whole(&["gtp"], b"1 name\n2 quit\n3 name\n");
    assert!(status.success());
    assert_eq!(output, "=1 sygo\n\n=2\n\n");
    let (output, status) = run_whole(&["gtp"], b"1 name\n2 protocol_version");
    assert!(status.success());
    assert_eq!(output, "=1 sygo\n\n=2 2\n\n");
    let (output, status) = run_whole(&["gtp"], b"");
    assert!(status.success());
    assert_eq!(output, "");
}

#[test]
fn bad_command_line_options_exit_with_code_2() {
    for args in [
        &["gtp", "--size", "26"][..],
        &["gtp", "--variant", "hexsygo", "--size", "14"],
        &["gtp", "--variant", "chess"],
        &["gtp", "--seed", "-1"],
        &["gtp", "extra"],
        &["gtp", "--player", "chess"],
        &["gtp", "--player", "mcts:level=9"],
        &["gtp", "--player", "mcts:depth=3"],
        &["gtp", "--player", "random:threads=2"],
        &["gtp", "--player", "cmd:sygo gtp"],
        &["gtp", "--player", "random", "--threads", "2"],
        &["gtp", "--player", "uct", "--level", "3"],
        &["gtp", "--level", "0"],
        &["gtp", "--level", "7"],
        &["gtp", "--time", "0"],
        &["gtp", "--visits", "0"],
        &["gtp", "--threads", "0"],
    ] {
        let (output, status) = run_whole(args, b"name\n");
        assert_eq!(status.code(), Some(2), "{args:?}");
        assert_eq!(output, "", "{args:?}");
    }
}

#[test]
fn the_board_options_choose_the_starting_board() {
    let (output, _) = run_whole(&["gtp", "--variant", "hexsygo"], b"showboard\n");
    assert!(output.contains("hexsygo 10, White to move"), "{output}");
    let (output, _) = run_whole(&["gtp"], b"showboard\n");
    assert!(output.contains("sygo 19, White to move"), "{output}");
    let (output, _) = run_whole(&["gtp", "--size", "4"], b"legal_steps w\n");
    assert_eq!(output.split(' ').count(), 1 + 16, "{output}");
}

// ------------------------------------------------------------ the search

/// Plays a whole game by `genmove` on the board in use, each turn checked by
/// the rules library; returns the turns played.
fn play_a_whole_game(gtp: &mut Gtp, g: Geometry) -> usize {
    gtp.ok("clear_board");
    let mut position = Position::new(g);
    let mut turns = 0;
    while !position.is_over() {
        let color = position.side_to_move();
        let reply = gtp.ok(&format!("genmove {}", color.letter()));
        let turn =
            Turn::parse(&reply, &g).unwrap_or_else(|e| panic!("{g}: {reply:?} is not a move: {e}"));
        position
            .play_turn(&turn)
            .unwrap_or_else(|e| panic!("{g}: {reply} is illegal: {e}"));
        turns += 1;
        assert!(turns < 400, "{g}: the game does not end");
    }
    assert_eq!(gtp.ok("final_score"), position.score().to_string());
    turns
}

#[test]
fn genmove_with_the_search_plays_whole_games_of_legal_turns() {
    let mut turns = 0;
    let mut gtp = Gtp::start(&["--player", "mcts:threads=1", "--visits", "40"]);
    for (variant, size) in [("sygo", 5), ("hexsygo", 3), ("sygo", 7), ("hexsygo", 4)] {
        gtp.ok(&format!("variant {variant} {size}"));
        let g = Geometry::new(Variant::from_name(variant).unwrap(), size).unwrap();
        turns += play_a_whole_game(&mut gtp, g);
    }
    // A level: 50 visits a turn.
    let mut gtp = Gtp::start(&["--level", "1", "--size", "4"]);
    turns += play_a_whole_game(&mut gtp, Geometry::sygo(4).unwrap());
    assert!(turns > 40, "turns played: {turns}");
}

// The clock tests measure the engine's time from outside, through pipes,
// on a machine perhaps loaded: each compares times that differ several
// times over (what the clock allows against what the player would take
// without it), not a time against a margin of milliseconds.

#[test]
fn genmove_answers_within_the_time_settings() {
    // The strongest player, on every core, 30 s a turn by itself; a fifth
    // of a second a turn by the clock.
    let mut gtp = Gtp::start(&["--player", "mcts:time=30000", "--size", "9"]);
    gtp.ok("time_settings 0 0.2 1");
    for color in ["w", "b", "w", "b"] {
        let start = Instant::now();
        let reply = gtp.ok(&format!("genmove {color}"));
        let took = start.elapsed();
        assert!(is_move(&reply), "{reply}");
        // Within the time (with room for a busy machine), and searching.
        assert!(took < Duration::from_secs(5), "genmove took {took:?}");
        assert!(took > Duration::from_millis(50), "genmove took {took:?}");
    }
}

#[test]
fn time_left_sets_the_clock_of_its_colour() {
    let mut gtp = Gtp::start(&["--player", "mcts:threads=1", "--size", "9"]);
    // Thirty seconds of main time each: over 2 s for a turn on 9×9.
    gtp.ok("time_settings 30 0 0");
    // White has a third of a second left: a few hundredths a turn.
    gtp.ok("time_left w 0.3 0");
    let start = Instant::now();
    gtp.ok("genmove w");
    let white = start.elapsed();
    // Black's clock still has its thirty seconds.
    let start = Instant::now();
    gtp.ok("genmove b");
    let black = start.elapsed();
    assert!(black > Duration::from_millis(1500), "Black took {black:?}");
    assert!(
        white * 2 < black,
        "White took {white:?} with 0.3 s left, Black {black:?} with 30 s"
    );
    // In byo-yomi: 0.2 s for the next turn.
    gtp.ok("time_left w 0.2 1");
    let start = Instant::now();
    gtp.ok("genmove w");
    let white = start.elapsed();
    assert!(
        white * 2 < black,
        "White took {white:?} in byo-yomi of 0.2 s, Black {black:?} with 30 s"
    );
}

#[test]
fn without_time_left_the_engine_counts_its_own_time() {
    let mut gtp = Gtp::start(&["--player", "mcts:threads=1", "--size", "7"]);
    // Three seconds for White's whole game, and no time_left: the engine
    // charges each turn to White's clock. Were it not to, forty turns at
    // a tenth of the three seconds would take 10 s.
    gtp.ok("time_settings 3 0 0");
    let start = Instant::now();
    for _ in 0..40 {
        gtp.ok("genmove w");
        gtp.ok("undo");
    }
    let took = start.elapsed();
    assert!(took < Duration::from_secs(6), "40 turns took {took:?}");
    // A new game gives the clock its time again: a turn of about 0.2 s.
    gtp.ok("clear_board");
    let start = Instant::now();
    gtp.ok("genmove w");
    let took = start.elapsed();
    assert!(took > Duration::from_millis(100), "{took:?}");
}

// ------------------------------------------------------------ analyze

/// One candidate of an analysis report.
#[derive(Debug)]
struct Info {
    turn: String,
    visits: u64,
    winrate: f64,
    score_lead: f64,
    order: usize,
    pv: Vec<String>,
}

/// One `danger` group of a report: key and value pairs.
type DangerGroup = Vec<(String, String)>;

/// One report of `analyze`, read.
#[derive(Debug, Default)]
struct Report {
    infos: Vec<Info>,
    root_visits: Option<u64>,
    dangers: Vec<DangerGroup>,
    ownership: Option<Vec<f64>>,
}

/// Reads a report line: `info` groups, then `rootInfo`, `danger` groups,
/// then `ownership`.
fn parse_report(line: &str) -> Report {
    let mut report = Report::default();
    let words: Vec<&str> = line.split(' ').collect();
    let mut i = 0;
    let number = |w: &str| -> f64 { w.parse().unwrap_or_else(|_| panic!("{w:?} in {line}")) };
    while i < words.len() {
        match words[i] {
            "info" => {
                let field = |key: &str, at: usize| {
                    assert_eq!(words[at], key, "{line}");
                    words[at + 1]
                };
                let mut info = Info {
                    turn: field("move", i + 1).to_string(),
                    visits: number(field("visits", i + 3)) as u64,
                    winrate: number(field("winrate", i + 5)),
                    score_lead: number(field("scoreLead", i + 7)),
                    order: number(field("order", i + 9)) as usize,
                    pv: Vec::new(),
                };
                assert_eq!(words[i + 11], "pv", "{line}");
                i += 12;
                while i < words.len()
                    && !["info", "rootInfo", "danger", "ownership"].contains(&words[i])
                {
                    info.pv.push(words[i].to_string());
                    i += 1;
                }
                report.infos.push(info);
            }
            "rootInfo" => {
                assert_eq!(
                    (words[i + 1], words[i + 3], words[i + 5]),
                    ("visits", "winrate", "scoreLead"),
                    "{line}"
                );
                report.root_visits = Some(number(words[i + 2]) as u64);
                assert!((0.0..=1.0).contains(&number(words[i + 4])), "{line}");
                i += 7;
            }
            "danger" => {
                let mut group = Vec::new();
                i += 1;
                while i + 1 < words.len()
                    && !["info", "rootInfo", "danger", "ownership"].contains(&words[i])
                {
                    group.push((words[i].to_string(), words[i + 1].to_string()));
                    i += 2;
                }
                report.dangers.push(group);
            }
            "ownership" => {
                report.ownership = Some(words[i + 1..].iter().map(|w| number(w)).collect());
                i = words.len();
            }
            other => panic!("{other:?} in the report {line:?}"),
        }
    }
    report
}

/// Checks a report on `position`: candidates in order, legal turns and
/// principal variations, figures in range, an ownership of every point.
fn check_report(report: &Report, position: &Position, ownership: bool) {
    let g = position.geometry();
    assert!(!report.infos.is_empty(), "{report:?}");
    for (order, info) in report.infos.iter().enumerate() {
        assert_eq!(info.order, order, "{report:?}");
        assert!((0.0..=1.0).contains(&info.winrate), "{info:?}");
        assert!(info.score_lead.is_finite(), "{info:?}");
        assert_eq!(info.pv.first(), Some(&info.turn), "{info:?}");
        let mut line = position.clone();
        for turn in &info.pv {
            let turn = Turn::parse(turn, &g).unwrap_or_else(|e| panic!("{info:?}: {e}"));
            line.play_turn(&turn)
                .unwrap_or_else(|e| panic!("{info:?}: {e}"));
        }
    }
    if ownership {
        let values = report.ownership.as_ref().expect("an ownership");
        assert_eq!(values.len(), g.num_points());
        assert!(
            values.iter().all(|v| (-1.0..=1.0).contains(v)),
            "{values:?}"
        );
    } else {
        assert!(report.ownership.is_none());
    }
}

/// Reads `n` reports of the analysis streaming, checks them, and returns
/// the root's visits of the last (which never decrease).
fn read_reports(gtp: &mut Gtp, n: usize, position: &Position, ownership: bool) -> u64 {
    let (mut visits, mut last) = (0, 0);
    for _ in 0..n {
        let line = gtp.line();
        assert!(!line.is_empty(), "the analysis ended early");
        let report = parse_report(&line);
        check_report(&report, position, ownership);
        let root = report.root_visits.expect("rootInfo");
        assert!(root >= visits, "visits went down: {visits} then {root}");
        visits = root;
        last = report.infos.iter().map(|i| i.visits).sum();
    }
    assert!(last > 0, "no candidate was visited");
    visits
}

/// Sends a line that ends the analysis streaming, reads the rest of the
/// stream (reports, then the empty line) and returns the answer to the line.
fn end_analysis(gtp: &mut Gtp, line: &str, position: &Position) -> Answer {
    gtp.send(line);
    loop {
        let rest = gtp.line();
        if rest.is_empty() {
            break;
        }
        check_report(&parse_report(&rest), position, rest.contains(" ownership "));
    }
    gtp.answer()
}

#[test]
fn analyze_streams_reports_until_the_next_line_which_is_then_answered() {
    let mut gtp = Gtp::start(&["--player", "mcts:threads=1", "--size", "7"]);
    let g = Geometry::sygo(7).unwrap();
    let mut position = Position::new(g);
    for (color, turn) in [("w", "D4"), ("b", "C3"), ("w", "D5")] {
        gtp.ok(&format!("play {color} {turn}"));
        position.play_turn(&Turn::parse(turn, &g).unwrap()).unwrap();
    }
    gtp.send("analyze b 5 ownership true rootInfo true");
    assert_eq!(gtp.line(), "=");
    read_reports(&mut gtp, 4, &position, true);
    let answer = end_analysis(&mut gtp, "12 showboard", &position);
    assert!(
        answer.ok && answer.id.as_deref() == Some("12"),
        "{answer:?}"
    );
    assert!(answer.text.contains("Black to move"), "{answer:?}");
    // kata-analyze with an id; maxmoves; the colour may be left out.
    gtp.send("34 kata-analyze interval 5 maxmoves 2 rootInfo true");
    assert_eq!(gtp.line(), "=34");
    for _ in 0..3 {
        let report = parse_report(&gtp.line());
        check_report(&report, &position, false);
        assert!(report.infos.len() <= 2, "{report:?}");
    }
    assert_eq!(
        end_analysis(&mut gtp, "35 name", &position).raw,
        "=35 sygo\n\n"
    );
    // The search is stopped by the line, not at the end of an interval.
    gtp.send("36 analyze b 1000");
    assert_eq!(gtp.line(), "=36");
    thread::sleep(Duration::from_millis(200));
    let start = Instant::now();
    let answer = end_analysis(&mut gtp, "37 final_score", &position);
    assert_eq!(answer.raw, "=37 W+1\n\n");
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    // quit ends an analysis too, and is answered.
    gtp.send("analyze b 5");
    assert_eq!(gtp.line(), "=");
    assert_eq!(end_analysis(&mut gtp, "38 quit", &position).raw, "=38\n\n");
    assert!(gtp.finish().success());
}

/// `danger true` adds a group per group in danger to each report: here
/// White C3, whose three liberties touch three Black groups, and nothing
/// of Black's. The turn given reverses it.
#[test]
fn analyze_lists_the_groups_in_danger_when_asked() {
    let mut gtp = Gtp::start(&["--player", "mcts:threads=1", "--size", "5"]);
    let g = Geometry::sygo(5).unwrap();
    gtp.ok("setup b C5,D3,A3,C1");
    gtp.ok("setup w C3");
    gtp.ok("set_growth_started true");
    gtp.ok("set_turn b");
    let position: Position = "sygo 5 2B2/5/B1WB1/5/2B2 b g 0".parse().unwrap();
    gtp.send("analyze b 5 danger true");
    assert_eq!(gtp.line(), "=");
    let report = parse_report(&gtp.line());
    check_report(&report, &position, false);
    assert_eq!(report.dangers.len(), 1, "{report:?}");
    let group = &report.dangers[0];
    let value = |key: &str| {
        group
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("no {key} in {group:?}"))
    };
    assert_eq!(value("color"), "w");
    assert_eq!(value("stones"), "C3");
    assert_eq!(value("liberties"), "C2,B3,C4");
    assert_eq!(value("kind"), "growth");
    assert_eq!(value("nextTurn"), "true");
    let mut after = position.clone();
    after
        .play_turn(&Turn::parse(value("turn"), &g).unwrap())
        .unwrap();
    assert_eq!(
        after.stone_at(g.parse_point("C3").unwrap()),
        Some(Color::Black)
    );
    end_analysis(&mut gtp, "name", &position);
    // Without the key, no danger group.
    gtp.send("analyze b 5");
    assert_eq!(gtp.line(), "=");
    assert!(parse_report(&gtp.line()).dangers.is_empty());
    end_analysis(&mut gtp, "quit", &position);
}

#[test]
fn an_analysis_goes_on_in_the_same_position_and_starts_afresh_after_clear_board() {
    let mut gtp = Gtp::start(&["--player", "mcts:threads=1", "--size", "5"]);
    let empty = Position::new(Geometry::sygo(5).unwrap());
    gtp.send("analyze w 2 rootInfo true");
    assert_eq!(gtp.line(), "=");
    let first = read_reports(&mut gtp, 5, &empty, false);
    end_analysis(&mut gtp, "name", &empty);
    // The same position: the search goes on where it stopped.
    gtp.send("analyze w 2 rootInfo true");
    assert_eq!(gtp.line(), "=");
    let second = read_reports(&mut gtp, 3, &empty, false);
    assert!(second >= first, "{first} then {second}");
    end_analysis(&mut gtp, "clear_board", &empty);
    // clear_board leaves no trace of the search, though the board is the same.
    gtp.send("analyze w 2 rootInfo true");
    assert_eq!(gtp.line(), "=");
    let afresh = read_reports(&mut gtp, 1, &empty, false);
    assert!(afresh < second, "{second} then {afresh}");
    end_analysis(&mut gtp, "name", &empty);
}

#[test]
fn bad_analyze_commands_fail_in_one_line_and_change_nothing() {
    let mut gtp = Gtp::start(&["--player", "mcts:threads=1", "--size", "5"]);
    gtp.ok("play w C3");
    for (line, message) in [
        ("analyze w", "illegal move: it is Black's turn"),
        ("analyze b 0", "syntax error: \"0\" is not an interval"),
        ("analyze b -5", "syntax error: \"-5\" has no value"),
        (
            "analyze b 10 ownership maybe",
            "syntax error: \"maybe\" is not true or false",
        ),
        (
            "analyze b 10 maxmoves",
            "syntax error: \"maxmoves\" has no value",
        ),
        (
            "7 kata-analyze b 10 depth 3",
            "syntax error: \"depth\" is not an analysis option",
        ),
        (
            "analyze b 10 maxmoves 0",
            "syntax error: \"0\" is not a number of moves",
        ),
    ] {
        let message_got = gtp.refused(line);
        assert!(message_got.starts_with(message), "{line}: {message_got}");
    }
    assert_eq!(gtp.ask("8 analyze b interval").raw.lines().count(), 2);
    gtp.ok("play b resign");
    assert_eq!(gtp.refused("analyze"), "illegal move: the game is over");
    // The random player does not search.
    let mut gtp = Gtp::start(&["--size", "5"]);
    assert_eq!(
        gtp.refused("analyze"),
        "cannot analyze: the random player gives no analysis; start the engine with --player mcts"
    );
    // At the end of the input an analysis ends at once.
    let (output, status) = run_whole(
        &["gtp", "--player", "mcts:threads=1", "--size", "5"],
        b"1 analyze 5\n",
    );
    assert!(status.success());
    assert_eq!(output, "=1\n\n");
}

#[test]
fn the_analysis_session_in_the_protocol_docs_is_what_the_engine_says() {
    let docs = include_str!("../../../../docs/protocol.md");
    let section = &docs[docs.find("## Analysis").expect("an analysis section")..];
    let start = section.find("```text\n> 1 ").expect("a session") + "```text\n".len();
    let end = start + section[start..].find("```").expect("its end");
    // Commands, each with the seconds waited before it and its answer.
    let mut commands: Vec<(String, f64, Vec<&str>)> = Vec::new();
    for line in section[start..end].lines() {
        let (wait, rest) = match line.strip_prefix('(') {
            Some(timed) => {
                let (time, rest) = timed.split_once(" s) ").expect("(T s) > …");
                (time.parse().expect("seconds"), rest)
            }
            None => (0.0, line),
        };
        match rest.strip_prefix("> ") {
            Some(command) => commands.push((command.to_string(), wait, Vec::new())),
            None => commands.last_mut().expect("a command first").2.push(line),
        }
    }
    let g = Geometry::sygo(5).unwrap();
    // The position of the engine, and that of the session as written (the
    // engine's genmove may differ).
    let mut position = Position::new(g);
    let mut shown = Position::new(g);
    let mut gtp = Gtp::start(&["--size", "5", "--player", "mcts:threads=1"]);
    let mut streaming = false;
    for (command, wait, expected) in &commands {
        thread::sleep(Duration::from_secs_f64(*wait));
        gtp.send(command);
        let mut expected = expected.as_slice();
        if streaming {
            // The rest of the reports, then the empty line that ends them.
            loop {
                let rest = gtp.line();
                if rest.is_empty() {
                    break;
                }
                check_report(
                    &parse_report(&rest),
                    &position,
                    rest.contains(" ownership "),
                );
            }
            assert_eq!(expected.first(), Some(&""), "{command}");
            expected = &expected[1..];
            streaming = false;
        }
        if command.contains("analyze") {
            // The reports differ from run to run: their form is checked.
            assert_eq!(gtp.line(), expected[0], "{command}");
            for report in &expected[1..] {
                check_report(
                    &parse_report(report),
                    &shown,
                    report.contains(" ownership "),
                );
            }
            streaming = true;
            continue;
        }
        let answer = gtp.answer();
        let recorded = format!("{}\n", expected.join("\n"));
        if command.contains("genmove") {
            let recorded = Answer::parse(&recorded);
            assert_eq!(answer.id, recorded.id);
            shown
                .play_turn(&Turn::parse(&recorded.text, &g).expect("a move"))
                .expect("legal");
            position
                .play_turn(&Turn::parse(&answer.text, &g).expect("a move"))
                .expect("legal");
        } else {
            assert_eq!(answer.raw, recorded, "{command}");
            let words: Vec<&str> = command.split(' ').collect();
            if let [_, "play", _, turn] = words.as_slice() {
                position.play_turn(&Turn::parse(turn, &g).unwrap()).unwrap();
                shown.play_turn(&Turn::parse(turn, &g).unwrap()).unwrap();
            }
        }
    }
}
