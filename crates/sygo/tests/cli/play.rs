//! `sygo play` as a user meets it: the real binary, its input a pipe, its
//! output read as a person would read the screen.
//!
//! Whole games on both boards between two people at one keyboard (scripted),
//! against the random player and against the AI (driven turn by turn: the
//! person plays the AI's hints), the computer against itself, with every kind
//! of turn, a capture and its reversed stones, refused lines, taking back a
//! stone, undo, and the end of the game with the score.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

/// The longest the program may take to answer a line.
const TIMEOUT: Duration = Duration::from_secs(30);

// ------------------------------------------------------------ the drivers

/// Runs `sygo play` with the whole input at once; returns what it wrote.
fn play_script(args: &[&str], input: &str) -> String {
    let output = play_script_output(args, input, &[]);
    assert!(
        output.status.success(),
        "sygo play failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("the output is UTF-8")
}

fn play_script_output(args: &[&str], input: &str, env: &[(&str, &str)]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sygo"))
        .arg("play")
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the sygo binary starts");
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.to_string();
    // Write from a thread, so that a program that stops reading cannot block us.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("sygo play ends");
    writer.join().expect("the input was written");
    output
}

/// A running `sygo play`, answered line by line.
struct Game {
    child: Child,
    stdin: Option<ChildStdin>,
    chunks: Receiver<Vec<u8>>,
    /// Everything written so far.
    transcript: String,
}

impl Game {
    fn start(args: &[&str]) -> Game {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sygo"))
            .arg("play")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the sygo binary starts");
        let mut stdout = child.stdout.take().expect("piped");
        let (send, chunks) = mpsc::channel();
        thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n @ 1..) = stdout.read(&mut buffer) {
                if send.send(buffer[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Game {
            stdin: child.stdin.take(),
            child,
            chunks,
            transcript: String::new(),
        }
    }

    /// Reads up to the next prompt (`White> `, `Black> `, `game over> `);
    /// returns what was written since the last one, prompt included.
    fn until_prompt(&mut self) -> String {
        let start = self.transcript.len();
        loop {
            let last_line = self.transcript.rsplit('\n').next().unwrap_or("");
            if self.transcript.len() > start && is_prompt(last_line) {
                return self.transcript[start..].to_string();
            }
            let chunk = self
                .chunks
                .recv_timeout(TIMEOUT)
                .unwrap_or_else(|_| panic!("no prompt in time after:\n{}", self.transcript));
            self.transcript
                .push_str(std::str::from_utf8(&chunk).expect("UTF-8 output"));
        }
    }

    /// Types a line; returns the answer up to the next prompt.
    fn send(&mut self, line: &str) -> String {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("the program reads");
        stdin.flush().expect("the program reads");
        self.until_prompt()
    }

    /// Closes the input; the program must end successfully.
    fn finish(mut self) -> String {
        drop(self.stdin.take());
        while let Ok(chunk) = self.chunks.recv_timeout(TIMEOUT) {
            self.transcript
                .push_str(std::str::from_utf8(&chunk).expect("UTF-8 output"));
        }
        let deadline = Instant::now() + TIMEOUT;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("the program ends") {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("sygo play did not end: {}", self.transcript);
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        assert!(status.success(), "sygo play failed: {status}");
        self.transcript
    }
}

fn is_prompt(line: &str) -> bool {
    ["White> ", "Black> ", "game over> "].contains(&line)
}

/// The answer to one line in a transcript: what follows `prompt line`, up to
/// the next prompt.
#[track_caller]
fn answer_to<'a>(transcript: &'a str, prompt_and_line: &str) -> &'a str {
    let start = transcript
        .find(&format!("{prompt_and_line}\n"))
        .unwrap_or_else(|| panic!("{prompt_and_line:?} is not in:\n{transcript}"))
        + prompt_and_line.len()
        + 1;
    let rest = &transcript[start..];
    let end = rest
        .find("White> ")
        .into_iter()
        .chain(rest.find("Black> "))
        .chain(rest.find("game over> "))
        .min()
        .unwrap_or(rest.len());
    &rest[..end]
}

/// Asserts that the answer to a line is one line of refusal.
#[track_caller]
fn assert_refused(transcript: &str, prompt_and_line: &str, message: &str) {
    let answer = answer_to(transcript, prompt_and_line);
    assert_eq!(
        answer,
        format!("! {message}\n"),
        "after {prompt_and_line:?}"
    );
}

#[track_caller]
fn assert_contains(text: &str, part: &str) {
    assert!(text.contains(part), "{part:?} is not in:\n{text}");
}

// ------------------------------------------------------------ whole games

/// Two people on the square board: placements, a capture by placement, a
/// refused turn, a balance turn built stone by stone with a stone taken back,
/// a multi-stone growth turn, undo, a growth ended with done, and two passes.
#[test]
fn two_people_play_a_whole_game_on_the_square_board() {
    let script = "A2\nA1\nB1\nC3\nA3,B2\nI3\nE5\nC4\nback\nC2\nE1\nA3,E4\nundo\nA3,E4\n\
                  D3\ndone\npass\npass\n";
    let out = play_script(&["--size", "5"], script);

    assert_contains(
        &out,
        "Sygo 5x5: White (O) human, Black (X) human. White moves first.",
    );
    // The first board, coordinates on all sides.
    assert_contains(
        &out,
        "    A B C D E\n  5 . . . . .  5\n  4 . . . . .  4\n  3 . . . . .  3\n  \
         2 . . . . .  2\n  1 . . . . .  1\n    A B C D E\nWhite> A2\n",
    );
    // White's placement at B1 takes A1's last liberty: A1 is reversed, and
    // marked so with the last turn.
    let capture = answer_to(&out, "White> B1");
    assert_contains(capture, "White placed B1, reversing A1.");
    assert_contains(capture, "  1 O~O*. . .  1\n");
    assert_contains(capture, "* White's last turn (B1)   ~ reversed by it\n");
    assert_contains(capture, "Stones: Black 0, White 3.");

    // A group grows once a turn: refused in one line, nothing changed.
    assert_refused(
        &out,
        "White> A3,B2",
        "B2 would grow the group at A2 a second time this turn",
    );
    assert_refused(
        &out,
        "White> I3",
        "\"I3\" is not a point: write a column letter (A–Z, no I) and a row number, like D4",
    );
    assert_contains(
        &out,
        "White> I3\n! \"I3\" is not a point: write a column letter (A–Z, no I) and a row number, like D4\nWhite> E5\n",
    );

    // Black's balance turn, stone by stone: a growth shown pending, taken
    // back, another growth, then the placement that ends the turn.
    let pending = answer_to(&out, "Black> C4");
    assert_contains(pending, "  4 . . x . .  4\n  3 . . X-. .  3\n");
    assert_contains(pending, "x stones of this turn   - has grown\n");
    assert_contains(
        pending,
        "Turn in progress: C4. Next: place one stone (the balance turn), done, or back.\n",
    );
    assert_contains(answer_to(&out, "Black> back"), "C4 taken back.\n");
    assert_contains(
        answer_to(&out, "Black> E1"),
        "Black's balance turn: grew C2 and placed E1.",
    );

    // A growth turn of two stones, taken back and played again.
    assert_contains(answer_to(&out, "White> A3,E4"), "White grew A3 and E4.\n");
    assert_contains(answer_to(&out, "Black> undo"), "Taken back: White A3,E4.\n");
    assert_contains(answer_to(&out, "Black> undo"), "turn 7: White (O) to play.");

    // A growth stone by stone: the grown group and the one that may still grow.
    let growing = answer_to(&out, "Black> D3");
    assert_contains(
        growing,
        "  3 O*. X-x .  3\n  2 O . X-. .  2\n  1 O O . . X+ 1\n",
    );
    assert_contains(
        growing,
        "x stones of this turn   + may still grow   - has grown\n",
    );
    assert_contains(answer_to(&out, "Black> done"), "Black grew D3.\n");

    // Two passes end the game; the score and the result follow.
    assert_contains(
        answer_to(&out, "White> pass"),
        "White passed: a pass now ends the game.\n",
    );
    let end = answer_to(&out, "Black> pass");
    assert_contains(end, "Game over: both players passed.\n");
    assert_contains(end, "Black (X): 4 stones + 0 territory = 4\n");
    assert_contains(end, "White (O): 6 stones + 0 territory = 6\n");
    assert_contains(end, "Result: W+2, White wins by 2.\n");
    assert!(out.ends_with("game over> \n"), "{out}");
}

/// Two people on the hexagon: a balance turn typed whole, and a growth that
/// captures, freezing the captors, shown and refused accordingly.
#[test]
fn two_people_play_a_whole_game_on_the_hex_board() {
    let script = "B1\nA1\nA2\nD2\nE5\nD3,B4\nB2\nC2\nD5\nscore\ndone\npass\nundo\npass\npass\n";
    let out = play_script(&["--variant", "hexsygo", "--size", "3"], script);

    // The hexagon, rows numbered at both ends, columns above and below.
    assert_contains(
        &out,
        "      C D E\n  5   . . .  5\n  4  . . . .  4\n  3 . . . . .  3\n  \
         2  . . . .  2\n  1   . . .  1\n      A B C\nWhite> B1\n",
    );
    assert_contains(
        answer_to(&out, "Black> D3,B4"),
        "Black's balance turn: grew D3 and placed B4.",
    );
    // B2 grows both White stones next to A1 and captures it: the captors,
    // now one group with A1, are frozen for the rest of the turn.
    let capture = answer_to(&out, "White> B2");
    assert_contains(
        capture,
        "  5   . . O+ 5\n  4  X*. . .  4\n  3 . . . X*.  3\n  2  O#o . X  2\n  1   O~O#.  1\n",
    );
    assert_contains(
        capture,
        "o stones of this turn   ~ reversed this turn   + may still grow   # captured, may not grow\n",
    );
    assert_refused(
        &out,
        "White> C2",
        "C2 would grow the group at B1, which captured this turn and may not grow any further \
         (grow a group marked +, done, or back)",
    );
    // Nothing may follow D5: the turn ends by itself.
    assert_contains(
        answer_to(&out, "White> D5"),
        "White grew B2 and D5, reversing A1.\n",
    );
    let score = answer_to(&out, "Black> score");
    assert_contains(
        score,
        "Black (X): 3 stones + 0 territory = 3\nWhite (O): 6 stones + 0 territory = 6\n",
    );
    assert_refused(
        &out,
        "Black> done",
        "the turn has no stone yet: play a stone, or pass",
    );
    assert_contains(answer_to(&out, "White> undo"), "Taken back: Black pass.\n");
    let end = answer_to(&out, "White> pass");
    assert_contains(end, "Result: W+3, White wins by 3.\n");
}

/// A person against the random player on each board, playing the AI's
/// hints until the game ends, with an undo that takes back the computer's
/// reply with the person's turn.
#[test]
fn a_person_plays_the_random_player_to_the_end() {
    for (args, person) in [
        (
            vec![
                "--size", "7", "--white", "random", "--seed", "5", "--level", "2",
            ],
            "Black",
        ),
        (
            vec![
                "--variant",
                "hexsygo",
                "--size",
                "4",
                "--black",
                "random",
                "--level",
                "1",
            ],
            "White",
        ),
    ] {
        let mut game = Game::start(&args);
        let mut screen = game.until_prompt();
        let mut turns = 0;
        let mut undone = false;
        while !screen.ends_with("game over> ") {
            assert!(screen.ends_with(&format!("{person}> ")), "{screen}");
            let hint = game.send("hint");
            // `Hint: D5,F7 (…)`, or `Hint: D5, then done (…)` for a lone
            // growth stone, after which the turn could go on.
            let word = hint
                .strip_prefix("hint\nHint: ")
                .and_then(|h| h.split(' ').next())
                .unwrap_or_else(|| panic!("a hint: {hint}"));
            let (turn, then_done) = match word.strip_suffix(',') {
                Some(turn) => (turn.to_string(), true),
                None => (word.to_string(), false),
            };
            assert_contains(&hint, "(the AI at level ");
            assert_contains(&hint, &format!(": {person} "));
            assert_contains(&hint, "% to win, score lead ");
            screen = game.send(&turn);
            if then_done {
                assert_contains(&screen, &format!("Turn in progress: {turn}."));
                screen = game.send("done");
            }
            turns += 1;
            if turns == 3 && !undone && !screen.ends_with("game over> ") {
                let before = game.transcript.clone();
                let answer = game.send("undo");
                assert!(
                    answer.starts_with(&format!("undo\nTaken back: {}", opponent(person))),
                    "{answer}"
                );
                assert_contains(&answer, &format!("; {person} {turn}."));
                // The position is the one before the person's turn.
                let before_turn = before
                    .rfind(&format!("{person}> hint\n"))
                    .expect("the hint was asked");
                let board_then = last_board(&before[..before_turn]);
                assert_eq!(last_board(&answer), board_then);
                undone = true;
                screen = game.send(&turn);
                if then_done {
                    screen = game.send("done");
                }
            }
            assert!(turns < 500, "the game does not end");
        }
        assert!(undone);
        let out = game.finish();
        assert_contains(&out, "Game over: both players passed.\n");
        assert_contains(&out, "Result: ");
        assert!(out.contains(&format!("{} (random) ", opponent(person))));
    }
}

/// A person against the AI on each board, playing the AI's own hints: the
/// AI answers every turn with a legal turn of its own and a line saying what
/// it thinks, an undo takes back its reply with the person's turn, and the
/// game ends with the score.
#[test]
fn a_person_plays_the_ai_to_the_end() {
    for (args, person, ai) in [
        (
            vec![
                "--size", "5", "--white", "ai", "--level", "1", "--seed", "3",
            ],
            "Black",
            "White",
        ),
        (
            vec![
                "--variant",
                "hexsygo",
                "--size",
                "3",
                "--black",
                "ai",
                "--level",
                "1",
            ],
            "White",
            "Black",
        ),
    ] {
        let mut game = Game::start(&args);
        let mut screen = game.until_prompt();
        let symbol = if ai == "White" { "O" } else { "X" };
        assert_contains(&screen, &format!("{ai} ({symbol}) ai level 1"));
        let mut turns = 0;
        let mut undone = false;
        while !screen.ends_with("game over> ") {
            assert!(screen.ends_with(&format!("{person}> ")), "{screen}");
            let hint = game.send("hint");
            assert_contains(&hint, &format!("(the AI at level 1: {person} "));
            let word = hint
                .strip_prefix("hint\nHint: ")
                .and_then(|h| h.split(' ').next())
                .unwrap_or_else(|| panic!("a hint: {hint}"));
            let (turn, then_done) = match word.strip_suffix(',') {
                Some(turn) => (turn.to_string(), true),
                None => (word.to_string(), false),
            };
            screen = game.send(&turn);
            if then_done {
                screen = game.send("done");
            }
            turns += 1;
            if turns == 2 && !undone && !screen.ends_with("game over> ") {
                let answer = game.send("undo");
                assert!(
                    answer.starts_with(&format!("undo\nTaken back: {ai} ")),
                    "{answer}"
                );
                assert_contains(&answer, &format!("; {person} {turn}."));
                undone = true;
                screen = game.send(&turn);
                if then_done {
                    screen = game.send("done");
                }
            }
            assert!(turns < 200, "the game does not end");
        }
        let out = game.finish();
        assert!(undone);
        // Every turn of the AI is followed by what it thinks.
        let ai_turns = out
            .lines()
            .filter(|l| l.starts_with(&format!("{ai} (ai level 1) ")))
            .count();
        let thoughts = out
            .lines()
            .filter(|l| {
                l.starts_with(&format!("  {ai} thinks: ")) && l.contains("% to win, score lead ")
            })
            .count();
        assert!(ai_turns > 0);
        assert_eq!(ai_turns, thoughts, "{out}");
        assert_contains(&out, "Game over: ");
        assert_contains(&out, "Result: ");
    }
}

/// The computer against itself, the AI and the other built-in players named
/// by their specifications: the program plays to the end and stops.
#[test]
fn the_ai_plays_itself() {
    for (variant, black, white) in [
        ("sygo", "ai", "mcts:level=1"),
        ("hexsygo", "uct:visits=50,threads=1", "ai"),
    ] {
        let out = play_script(
            &[
                "--variant",
                variant,
                "--size",
                "3",
                "--black",
                black,
                "--white",
                white,
                "--level",
                "1",
            ],
            "",
        );
        assert_contains(
            &out,
            &format!("White (O) {}", white.replace("ai", "ai level 1")),
        );
        assert_contains(&out, "Black (");
        assert_contains(&out, "  White thinks: ");
        assert_contains(&out, "  Black thinks: ");
        assert_contains(&out, "Game over: ");
        assert_contains(&out, "Result: ");
        assert!(!out.contains("> "), "no prompt without a person: {out}");
    }
}

fn opponent(color: &str) -> &'static str {
    if color == "Black" { "White" } else { "Black" }
}

/// The last board drawn in a text: from its heading to the line before the
/// prompt.
fn last_board(text: &str) -> String {
    let start = text.rfind(", turn ").expect("a board heading");
    let start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let rest = &text[start..];
    rest.lines()
        .take_while(|l| !is_prompt(l) && !l.ends_with("> "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// With no person playing, the computer plays a whole game and the program
/// ends with the result.
#[test]
fn the_random_player_plays_itself() {
    for variant in ["sygo", "hexsygo"] {
        let out = play_script(
            &[
                "--variant",
                variant,
                "--size",
                "5",
                "--black",
                "random",
                "--white",
                "random",
                "--seed",
                "11",
            ],
            "",
        );
        assert_contains(&out, "White (random) ");
        assert_contains(&out, "Black (random) ");
        assert_contains(&out, "Game over: ");
        assert_contains(&out, "Result: ");
        assert!(!out.contains("> "), "no prompt without a person: {out}");
    }
}

// -------------------------------------------------------------- mistakes

/// Every mistake gets one line saying what is wrong and what is allowed,
/// and changes nothing.
#[test]
fn mistakes_get_one_line_each() {
    let script = "hlep\npass now\nsave\ndone\nback\nundo\nZ9\nE5\nE5\nA1\nC3\nA3\nE6\nE4\nF6\n\
                  pass\nquit\n";
    let out = play_script(&["--size", "9"], script);
    assert_refused(
        &out,
        "White> hlep",
        "\"hlep\" is not a command: type stones like D5 or D5,F7, or one of done, back, undo, \
         pass, resign, score, hint, save FILE, board, help, quit",
    );
    assert_refused(
        &out,
        "White> pass now",
        "pass takes nothing after it: type pass",
    );
    assert_refused(
        &out,
        "White> save",
        "save needs a file name: save FILE, like save game.sgf",
    );
    assert_refused(
        &out,
        "White> done",
        "the turn has no stone yet: play a stone, or pass",
    );
    assert_refused(
        &out,
        "White> back",
        "no stone of this turn to take back: undo takes back whole turns",
    );
    assert_refused(
        &out,
        "White> undo",
        "there is no turn of a player at the keyboard to take back",
    );
    assert_refused(&out, "White> Z9", "Z9 is not on the sygo 9 board");
    assert_refused(&out, "Black> E5", "E5 is already occupied");
    // White grows E5 to E6, and C3 may still grow, so the turn goes on;
    // E4 would grow E5 again.
    let next = "(grow a group marked +, done, or back)";
    assert_refused(
        &out,
        "White> E4",
        &format!("E4 would grow the group at E5 a second time this turn {next}"),
    );
    assert_refused(
        &out,
        "White> F6",
        &format!(
            "F6 touches only stones played this turn (such as E6): a growth stone must touch a \
             group you had when the turn began {next}"
        ),
    );
    assert_refused(
        &out,
        "White> pass",
        &format!("stones of this turn are pending: finish the turn or take them back first {next}"),
    );
    assert!(out.ends_with("White> quit\n"), "{out}");
}

/// The placement in a typed turn ends it: nothing may follow.
#[test]
fn nothing_follows_a_placement() {
    let out = play_script(&["--size", "5"], "C3\nA1,E5\n");
    assert_refused(
        &out,
        "Black> A1,E5",
        "A1 is a placement, which ends the turn: no stone may follow it, as E5 does",
    );
}

// ---------------------------------------------------------------- output

/// Colours only when asked for or when the output is a terminal; the
/// letters are the same either way.
#[test]
fn colours_only_where_wanted() {
    let script = "C3\nresign\n";
    let plain = play_script(&["--size", "5"], script);
    assert!(!plain.contains('\x1b'), "a pipe gets no colour");
    let never = play_script(&["--size", "5", "--color", "never"], script);
    assert_eq!(never, plain);
    let coloured = play_script(&["--size", "5", "--color", "always"], script);
    assert_contains(&coloured, "\x1b[1;31mO\x1b[0m");
    let output = play_script_output(
        &["--size", "5", "--color", "auto"],
        script,
        &[("NO_COLOR", "1")],
    );
    assert!(!String::from_utf8_lossy(&output.stdout).contains('\x1b'));
    assert_contains(&plain, "Game over: Black resigned.\n");
    assert_contains(&plain, "Result: W+R, White wins by resignation.\n");
}

/// Help lists every command; bad options are refused before the game.
#[test]
fn help_and_bad_options() {
    let out = play_script(&["--variant", "hexsygo", "--size", "2"], "help\nquit\n");
    let help = answer_to(&out, "White> help");
    for command in [
        "done",
        "back",
        "undo",
        "pass",
        "resign",
        "score",
        "hint",
        "save FILE",
        "quit",
    ] {
        assert_contains(help, &format!("  {command}"));
    }
    assert_contains(help, "a column runs up and to the left");
    assert_contains(help, "run sygo rules");

    let bad = play_script_output(&["--size", "40"], "", &[]);
    assert_eq!(bad.status.code(), Some(2));
    for bad_args in [
        &["--white", "alphago"][..],
        &["--black", "cmd:sygo gtp"],
        &["--white", "mcts:level=9"],
        &["--white", "uct:colour=blue"],
        &["--level", "7"],
        &["--level", "0"],
        &["--time", "0"],
        &["--time", "10000000000"],
    ] {
        let bad = play_script_output(bad_args, "", &[]);
        assert_eq!(bad.status.code(), Some(2), "{bad_args:?}");
        let stderr = String::from_utf8_lossy(&bad.stderr);
        assert!(stderr.starts_with("error: invalid value"), "{stderr}");
    }
}

// ----------------------------------------------------------- save and load

/// A game saved in the middle, with a capture in it, loads as it was and
/// plays on to the end; the record is one any reader of records accepts.
#[test]
fn a_saved_game_loads_and_plays_on() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join("play-saved-hex.sgf");
    let _ = std::fs::remove_file(&file);
    let name = file.to_str().expect("a UTF-8 path");
    // The hex game above up to the capture by growth, saved while Black's
    // next turn is in progress (its stone is not saved).
    let script = format!("B1\nA1\nA2\nD2\nE5\nD3,B4\nB2\nD5\nC3\nsave {name}\nquit\n");
    let out = play_script(&["--variant", "hexsygo", "--size", "3"], &script);
    assert_contains(
        &out,
        &format!("Saved 7 turns to {name} (not the stones of the turn in progress).\n"),
    );
    let text = std::fs::read_to_string(&file).expect("the record was written");
    let record = sygo_records::Record::parse(&text).expect("the record reads back");
    assert_eq!(record.main_line_len(), 7);

    let loaded = play_script(&["--load", name], "pass\npass\nquit\n");
    assert_contains(&loaded, &format!("Loaded {name}: 7 turns played.\n"));
    // The board as it was after White's capture, marks and all.
    let before = answer_to(&out, "White> D5");
    let board = before
        .split("Stones: ")
        .nth(1)
        .and_then(|b| b.split_once('\n'))
        .map(|(_, board)| board)
        .expect("a board");
    let board_after_load = loaded
        .split("Stones: ")
        .nth(1)
        .and_then(|b| b.split_once('\n'))
        .and_then(|(_, board)| board.split("Black> ").next())
        .unwrap_or_else(|| panic!("a board in {loaded}"));
    assert_eq!(board_after_load, board);
    assert_contains(&loaded, "Result: W+");

    // A game over is saved with its result.
    let played = play_script(
        &["--load", name],
        &format!("pass\npass\nsave {name}\nquit\n"),
    );
    assert_contains(&played, "Game over: both players passed.");
    let text = std::fs::read_to_string(&file).expect("the record was written");
    assert!(text.contains("RE[W+"), "{text}");
    let again = play_script(&["--load", name], "undo\nquit\n");
    assert_contains(&again, "Game over: both players passed.");
    assert_contains(
        answer_to(&again, "game over> undo"),
        "Taken back: White pass.\n",
    );
}

/// A record that breaks a rule is refused with its node and reason, before
/// any play; so is a file that is not there.
#[test]
fn an_illegal_record_is_refused() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join("play-illegal.sgf");
    std::fs::write(&file, "(;FF[4]GM[400]VR[sygo]SZ[9];W[ee];W[cc])").expect("written");
    let output = play_script_output(&["--load", file.to_str().expect("UTF-8")], "", &[]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.ends_with(
            "play-illegal.sgf: node 2: White moves twice in a row: turns alternate, passes included\n"
        ),
        "{stderr}"
    );
    let output = play_script_output(&["--load", "no-such-file.sgf"], "", &[]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).ends_with("no-such-file.sgf: no such file\n"));
}

// ------------------------------------------------------------ the README

/// The README's transcript is what the program writes: its typed lines
/// replayed give every line shown, in order (`…` stands for lines left out).
#[test]
fn the_readme_transcript_is_true() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("the README is there");
    let command = "$ sygo play --size 7 --white random --seed 2\n";
    let start = readme
        .find(command)
        .expect("the transcript is in the README")
        + command.len();
    let shown = &readme[start..start + readme[start..].find("```").expect("the block ends")];
    let typed: String = shown
        .lines()
        .filter_map(|l| l.strip_prefix("Black> "))
        .map(|l| format!("{l}\n"))
        .collect();
    let out = play_script(&["--size", "7", "--white", "random", "--seed", "2"], &typed);
    let mut rest = out.as_str();
    for line in shown.lines().filter(|l| l.trim() != "…") {
        let at = rest
            .find(&format!("{line}\n"))
            .unwrap_or_else(|| panic!("README line {line:?} is not next in:\n{rest}"));
        rest = &rest[at + line.len() + 1..];
    }
}
