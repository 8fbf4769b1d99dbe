//! A game at the terminal under way: the turns so far, the turn being built
//! stone by stone, who plays each colour, and what the players see.
//!
//! The loop ([`Session::run`]) lets the computer play its turns, draws the
//! board before a person's turn, reads a line, and answers it: a refused
//! line gets one line saying why, and changes nothing. What the players see
//! is written by [`crate::screen`].
//!
//! Input is read a line at a time, so a game works as well through a pipe
//! as at a terminal; with [`Setup::echo`], each line read is written after
//! its prompt, and the output reads as a transcript.

use std::fmt;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

use sygo_ai::Decision;
use sygo_records::GameInfo;

use sygo_rules::{
    Color, Game, Point, Position, StepError, StepKind, Turn, TurnError, format_points,
};

use crate::input::{self, Command};
use crate::paint::Paint;
use crate::players::{Computer, Player, Strength, thinks};
use crate::record;
use crate::screen;

/// How a game starts.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The game so far (a new game, or one loaded from a record).
    pub game: Game,
    /// Who plays Black and who plays White.
    pub black: Player,
    /// Who plays White.
    pub white: Player,
    /// The seed of the computer's choices.
    pub seed: u64,
    /// How hard the AI thinks, as a player and for hints.
    pub strength: Strength,
    /// Colours or plain letters.
    pub paint: Paint,
    /// Whether to write each line read after its prompt (when the input is
    /// not a terminal, so that the output reads as a transcript).
    pub echo: bool,
    /// The record's information (names, date, komi) to write back on
    /// `save`, and the file it came from, for a loaded game.
    pub loaded: Option<(GameInfo, PathBuf)>,
}

/// What to do after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// A game in progress at the terminal.
pub struct Session<W: Write> {
    game: Game,
    /// The turn being built: the current position with the stones put down
    /// so far this turn (`game` is the position before them).
    building: Position,
    players: [Player; 2],
    computer: Computer,
    hints: Computer,
    /// The AI's level, for its name.
    level: u8,
    paint: Paint,
    echo: bool,
    /// The information written on `save`.
    info: GameInfo,
    /// The file the game was loaded from.
    source: Option<PathBuf>,
    out: W,
    /// Whether to draw the board before the next prompt.
    redraw: bool,
    /// Whether the end of the game has been shown since it ended.
    end_shown: bool,
}

impl<W: Write> Session<W> {
    /// A session writing to `out`.
    pub fn new(setup: Setup, out: W) -> Session<W> {
        let mut players = [Player::Human, Player::Human];
        players[Color::Black.index()] = setup.black;
        players[Color::White.index()] = setup.white;
        let (info, source) = match setup.loaded {
            Some((info, path)) => (info, Some(path)),
            None => (GameInfo::default(), None),
        };
        Session {
            info,
            source,
            building: setup.game.position().clone(),
            game: setup.game,
            players,
            computer: Computer::new(setup.seed, setup.strength),
            // Hints draw from their own numbers and think with their own
            // trees, so that asking for one does not change what the
            // computer plays.
            hints: Computer::new(setup.seed ^ 0x9e37_79b9_7f4a_7c15, setup.strength),
            level: setup.strength.level,
            paint: setup.paint,
            echo: setup.echo,
            out,
            redraw: true,
            end_shown: false,
        }
    }

    /// Plays until the input ends or a player quits; with no person playing,
    /// until the game is over.
    ///
    /// # Errors
    ///
    /// [`SessionError`] when the input cannot be read or the output
    /// written, or the rules refuse a turn of the computer.
    pub fn run(&mut self, input: impl BufRead) -> Result<(), SessionError> {
        self.introduce()?;
        let mut lines = input.lines();
        loop {
            let pos = self.game.position();
            if pos.is_over() {
                if !self.end_shown {
                    self.show_end()?;
                    self.end_shown = true;
                    self.redraw = false;
                }
                if !self.a_person_plays() {
                    return Ok(());
                }
            } else if let Some(decision) = self
                .computer
                .choose(&self.players[pos.side_to_move().index()], &self.game)
            {
                self.play_computer_turn(decision)?;
                continue;
            }
            if self.redraw {
                self.show_board()?;
                self.redraw = false;
            }
            self.prompt()?;
            let Some(line) = lines.next() else {
                writeln!(self.out)?;
                return Ok(());
            };
            let line = line?;
            if self.echo {
                writeln!(self.out, "{line}")?;
            }
            if self.answer(&line)? == Flow::Quit {
                return Ok(());
            }
        }
    }

    /// The colour to move.
    fn mover(&self) -> Color {
        self.game.position().side_to_move()
    }

    /// How the program names who plays `color`.
    fn player_name(&self, color: Color) -> String {
        screen::player_name(&self.players[color.index()], self.level)
    }

    /// Whether a person plays either colour.
    fn a_person_plays(&self) -> bool {
        self.players.iter().any(|p| p.is_human())
    }

    fn introduce(&mut self) -> io::Result<()> {
        let g = self.game.position().geometry();
        let mut names = [String::new(), String::new()];
        for c in Color::BOTH {
            names[c.index()] = self.player_name(c);
        }
        let loaded = self
            .source
            .as_deref()
            .map(|path| (path, self.game.turns().len()));
        let text = screen::introduction(g, names, self.paint, loaded);
        self.out.write_all(text.as_bytes())
    }

    /// Writes the game as a record; the turn in progress is not part of it.
    fn save(&mut self, path: &Path) -> io::Result<()> {
        let mut info = self.info.clone();
        for color in Color::BOTH {
            let name = match color {
                Color::Black => &mut info.black,
                Color::White => &mut info.white,
            };
            if name.is_none() && !self.players[color.index()].is_human() {
                *name = Some(format!("sygo {} player", self.player_name(color)));
            }
        }
        if info.date.is_none() {
            info.date = record::today();
        }
        if let Err(e) = record::save(path, &self.game, info) {
            return self.refuse(&format!("cannot write {}: {e}", path.display()));
        }
        let n = self.game.turns().len();
        let pending = if self.building.turn_in_progress() {
            " (not the stones of the turn in progress)"
        } else {
            ""
        };
        writeln!(
            self.out,
            "Saved {n} turn{} to {}{pending}.",
            if n == 1 { "" } else { "s" },
            path.display()
        )
    }

    // ---------------------------------------------------------- the answers

    /// Answers one line.
    fn answer(&mut self, line: &str) -> io::Result<Flow> {
        let g = self.game.position().geometry();
        let command = match input::parse(line, &g) {
            Ok(Some(command)) => command,
            Ok(None) => return Ok(Flow::Continue),
            Err(e) => {
                self.refuse(&e.to_string())?;
                return Ok(Flow::Continue);
            }
        };
        let over = self.game.position().is_over();
        match command {
            Command::Quit => return Ok(Flow::Quit),
            Command::Help => self.help()?,
            Command::Board => self.redraw = true,
            Command::Score => self.show_score()?,
            Command::Undo => self.undo()?,
            Command::Save(path) => self.save(&path)?,
            Command::Stones(_)
            | Command::Done
            | Command::Back
            | Command::Pass
            | Command::Resign
            | Command::Hint
                if over =>
            {
                self.refuse("the game is over: you may undo, score, save FILE, or quit")?
            }
            Command::Stones(points) => self.stones(&points)?,
            Command::Done => self.done()?,
            Command::Back => self.back()?,
            Command::Pass => self.pass()?,
            Command::Resign => self.resign()?,
            Command::Hint => self.hint()?,
        }
        Ok(Flow::Continue)
    }

    /// One line saying what is wrong, and what may be done during a turn in
    /// progress.
    fn refuse(&mut self, message: &str) -> io::Result<()> {
        let next = if self.building.turn_in_progress() && !self.game.position().is_over() {
            format!(" ({})", screen::next_steps(&self.building))
        } else {
            String::new()
        };
        writeln!(self.out, "! {message}{next}")
    }

    /// Plays stones: one is a step; several are the rest of the turn.
    fn stones(&mut self, points: &[Point]) -> io::Result<()> {
        let mut next = self.building.clone();
        let mut kind = StepKind::Growth;
        for &p in points {
            match next.play_step(p) {
                Ok(k) => kind = k,
                Err(StepError::TurnOver { placement }) => {
                    let g = next.geometry();
                    return self.refuse(&format!(
                        "{placement} is a placement, which ends the turn: no stone may follow it, \
                         as {} does",
                        g.vertex(p)
                    ));
                }
                Err(e) => return self.refuse(&e.to_string()),
            }
        }
        let whole = points.len() > 1 || kind == StepKind::Placement || {
            // A growth after which nothing may be played ends the turn, if it can.
            next.allowed_steps().is_empty() && next.check_finish().is_ok()
        };
        if whole {
            if let Err(e) = next.check_finish() {
                return self.refuse(&e.to_string());
            }
            self.building = next;
            self.finish()
        } else {
            self.building = next;
            self.redraw = true;
            Ok(())
        }
    }

    fn done(&mut self) -> io::Result<()> {
        match self.building.check_finish() {
            Ok(()) => self.finish(),
            Err(e) => self.refuse(&e.to_string()),
        }
    }

    /// Ends the turn in progress, which may end.
    fn finish(&mut self) -> io::Result<()> {
        let turn = Turn::Stones(self.building.turn_stones());
        self.play(turn)
    }

    /// Plays a person's whole turn for the mover and says what it did.
    fn play(&mut self, turn: Turn) -> io::Result<()> {
        let before = self.game.position().clone();
        if let Err(e) = self.game.play_as(before.side_to_move(), turn.clone()) {
            // Every turn here was checked step by step: this is not expected.
            self.building = before;
            return self.refuse(&e.to_string());
        }
        self.played(&before, &turn)
    }

    /// Plays the computer's whole turn and says what it did, and, for a
    /// player that searched, what it thinks: `  White thinks: 62% to win, …`.
    fn play_computer_turn(&mut self, decision: Decision) -> Result<(), SessionError> {
        let before = self.game.position().clone();
        let turn = decision.turn;
        self.game
            .play_as(before.side_to_move(), turn.clone())
            .map_err(SessionError::ComputerTurn)?;
        self.played(&before, &turn)?;
        if let Some(analysis) = &decision.analysis {
            writeln!(
                self.out,
                "  {} thinks: {}.",
                before.side_to_move(),
                thinks(analysis)
            )?;
        }
        Ok(())
    }

    /// After a turn from `before`: a new turn begins, the board is due.
    fn played(&mut self, before: &Position, turn: &Turn) -> io::Result<()> {
        self.building = self.game.position().clone();
        self.redraw = true;
        let color = before.side_to_move();
        let who = screen::side_name(color, &self.players[color.index()], self.level);
        let text = screen::played(before, turn, &who);
        self.out.write_all(text.as_bytes())
    }

    fn back(&mut self) -> io::Result<()> {
        let mut stones = self.building.turn_stones();
        let Some(last) = stones.pop() else {
            return self.refuse("no stone of this turn to take back: undo takes back whole turns");
        };
        let mut pos = self.game.position().clone();
        for &p in &stones {
            pos.play_step(p)
                .expect("a prefix of an allowed turn is allowed");
        }
        self.building = pos;
        let g = self.building.geometry();
        writeln!(self.out, "{} taken back.", g.vertex(last))?;
        self.redraw = true;
        Ok(())
    }

    fn undo(&mut self) -> io::Result<()> {
        if self.building.turn_in_progress() {
            let g = self.building.geometry();
            let stones = format_points(&self.building.turn_stones(), &g);
            self.building = self.game.position().clone();
            writeln!(
                self.out,
                "The stones of this turn ({stones}) are taken back; undo again to take back the last turn."
            )?;
            self.redraw = true;
            return Ok(());
        }
        let human_turn = self
            .game
            .turns_with_colors()
            .any(|(c, _)| self.players[c.index()].is_human());
        if !human_turn {
            return self.refuse("there is no turn of a player at the keyboard to take back");
        }
        // Take back turns until one of a person's has gone: the computer's
        // reply goes with the turn it answered.
        let g = self.game.position().geometry();
        let mut taken = Vec::new();
        while let Some((color, _)) = self.game.turns_with_colors().last() {
            let turn = self.game.undo().expect("there is a turn to take back");
            taken.push(format!("{color} {}", turn.to_notation(&g)));
            if self.players[color.index()].is_human() {
                break;
            }
        }
        self.building = self.game.position().clone();
        self.end_shown = false;
        writeln!(self.out, "Taken back: {}.", taken.join("; "))?;
        self.redraw = true;
        Ok(())
    }

    fn pass(&mut self) -> io::Result<()> {
        if self.building.turn_in_progress() {
            return self.refuse(&sygo_rules::TurnError::TurnInProgress.to_string());
        }
        self.play(Turn::Pass)
    }

    fn resign(&mut self) -> io::Result<()> {
        self.building = self.game.position().clone();
        self.play(Turn::Resign)
    }

    fn hint(&mut self) -> io::Result<()> {
        let decision = self.hints.advise(&self.game);
        let text = screen::hint(
            self.game.position(),
            &decision.turn,
            decision.analysis.as_ref(),
            self.building.turn_in_progress(),
            self.level,
        );
        self.out.write_all(text.as_bytes())
    }

    fn help(&mut self) -> io::Result<()> {
        let variant = self.game.position().geometry().variant();
        self.out.write_all(screen::help(variant).as_bytes())
    }

    fn show_board(&mut self) -> io::Result<()> {
        let human = self.players[self.mover().index()].is_human();
        let text = screen::board(&self.game, &self.building, human, self.paint);
        self.out.write_all(text.as_bytes())
    }

    fn prompt(&mut self) -> io::Result<()> {
        let text = screen::prompt(self.game.position());
        self.out.write_all(text.as_bytes())?;
        self.out.flush()
    }

    /// The score now, with the territory board.
    fn show_score(&mut self) -> io::Result<()> {
        let text = screen::score(self.game.position(), self.paint);
        let note = if self.building.turn_in_progress() {
            "(The stones of the turn in progress are not counted.)\n"
        } else {
            ""
        };
        write!(self.out, "{text}{note}")
    }

    fn show_end(&mut self) -> io::Result<()> {
        let a_person_plays = self.a_person_plays();
        match screen::end(self.game.position(), self.paint, a_person_plays) {
            Some(text) => self.out.write_all(text.as_bytes()),
            None => Ok(()),
        }
    }
}

/// Why a game at the terminal ([`Session::run`](crate::Session::run))
/// stopped before its end.
#[derive(Debug)]
#[non_exhaustive]
pub enum SessionError {
    /// The input could not be read or the output written.
    Io(io::Error),
    /// The rules refused a turn the computer chose (not expected: the
    /// players choose legal turns).
    ComputerTurn(TurnError),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Io(e) => e.fmt(f),
            SessionError::ComputerTurn(e) => write!(f, "the computer's turn was refused: {e}"),
        }
    }
}

impl std::error::Error for SessionError {}

impl From<io::Error> for SessionError {
    fn from(e: io::Error) -> SessionError {
        SessionError::Io(e)
    }
}
