//! A game of `sygo play` under way: the turns so far, the turn being built
//! stone by stone, who plays each colour, and what the players see.
//!
//! The loop ([`Session::run`]) lets the computer play its turns, draws the
//! board before a person's turn, reads a line, and answers it: a refused
//! line gets one line saying why, and changes nothing.

use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

use sygo_ai::Decision;
use sygo_records::GameInfo;

use sygo_rules::{
    Color, Game, GroupStatus, Point, Position, StepError, StepKind, Turn, TurnSummary,
    format_points,
};

use super::input::{self, COMMANDS, Command};
use super::players::{Computer, Player, Strength, thinks};
use super::record;
use super::render::{Marks, Paint, Renderer, board_name, symbol};

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
    /// When the input cannot be read or the output written.
    pub fn run(&mut self, input: impl BufRead) -> anyhow::Result<()> {
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
                if !self.players.iter().any(|p| p.is_human()) {
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

    // ------------------------------------------------------------- who plays

    /// The colour to move.
    fn mover(&self) -> Color {
        self.game.position().side_to_move()
    }

    /// Who plays the colour to move.
    fn player(&self) -> &Player {
        &self.players[self.mover().index()]
    }

    /// How the program names who plays `color`: `human`, `random`,
    /// `ai level 4`, `mcts:level=3`.
    fn player_name(&self, color: Color) -> String {
        match &self.players[color.index()] {
            Player::Ai => format!("ai level {}", self.level),
            player => player.to_string(),
        }
    }

    /// `White`, or `White (random)` for a computer player.
    fn name(&self, color: Color) -> String {
        if self.players[color.index()].is_human() {
            color.name().to_string()
        } else {
            format!("{} ({})", color.name(), self.player_name(color))
        }
    }

    fn introduce(&mut self) -> io::Result<()> {
        let g = self.game.position().geometry();
        let who = |c: Color| format!("{} ({}) {}", c, symbol(c), self.player_name(c));
        writeln!(
            self.out,
            "{}: {}, {}. White moves first. Type help for the commands.",
            self.paint.bold(&board_name(g)),
            who(Color::White),
            who(Color::Black),
        )?;
        if let Some(path) = &self.source {
            let n = self.game.turns().len();
            writeln!(
                self.out,
                "Loaded {}: {n} turn{} played.",
                path.display(),
                if n == 1 { "" } else { "s" }
            )?;
        }
        Ok(())
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
            format!(" ({})", self.next_steps())
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
    fn play_computer_turn(&mut self, decision: Decision) -> anyhow::Result<()> {
        let before = self.game.position().clone();
        let turn = decision.turn;
        self.game
            .play_as(before.side_to_move(), turn.clone())
            .map_err(|e| anyhow::anyhow!("the computer's turn was refused: {e}"))?;
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
        // The rules' own account of the turn, in the player's name.
        let said = match TurnSummary::of(before, color, turn) {
            Ok(summary) => summary.sentence(&self.name(color)),
            Err(_) => format!(
                "{} played {}.",
                self.name(color),
                turn.to_notation(&before.geometry())
            ),
        };
        writeln!(self.out, "{said}")
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
        let pos = self.game.position();
        let g = pos.geometry();
        let turn = decision.turn;
        let from = if self.building.turn_in_progress() {
            " for the whole turn, from its start"
        } else {
            ""
        };
        // A lone growth stone leaves the turn open: say how to end it.
        let then_done = match turn.stones() {
            &[p] => {
                let mut after = pos.clone();
                after.play_step(p) == Ok(StepKind::Growth) && !after.allowed_steps().is_empty()
            }
            _ => false,
        };
        let view = match &decision.analysis {
            Some(analysis) => format!(": {} {}", pos.side_to_move(), thinks(analysis)),
            None => String::new(),
        };
        writeln!(
            self.out,
            "Hint{from}: {}{} (the AI at level {}{view}).",
            turn.to_notation(&g),
            if then_done { ", then done" } else { "" },
            self.level,
        )
    }

    fn help(&mut self) -> io::Result<()> {
        let mut text = String::from("Commands (case does not matter):\n");
        for (command, what) in COMMANDS {
            text.push_str(&format!("  {command:<10} {what}\n"));
        }
        text.push_str(
            "A placement (a stone touching none of yours) ends the turn by itself. A growth \
             turn grows any or all of your groups by one stone each: type its stones one by \
             one, then done. Black, before any growth turn, may grow and then place one stone \
             (the balance turn). The rules in a page: quit, then run sygo rules.\n",
        );
        if self.game.position().geometry().variant() == sygo_rules::Variant::Hexsygo {
            text.push_str(
                "On the hexagon, a column runs up and to the left: its letter is below its \
                 lowest cell or above its highest.\n",
            );
        }
        self.out.write_all(text.as_bytes())
    }

    // ------------------------------------------------------- what is shown

    /// The marks on the board now: the last turn, what it or the turn in
    /// progress reversed, and the mover's groups during a turn.
    fn marks(&self) -> Marks {
        let last = self.game.turns().last();
        let last_turn = last.map(|t| t.stones().to_vec()).unwrap_or_default();
        if self.building.turn_in_progress() {
            Marks {
                last_turn,
                reversed: reversed(&self.building.turn_start(), &self.building),
                groups: self.building.base_groups(),
                ..Marks::default()
            }
        } else {
            let reversed = match self.position_before_last() {
                Some(before) => reversed(&before, self.game.position()),
                None => Vec::new(),
            };
            Marks {
                last_turn,
                reversed,
                ..Marks::default()
            }
        }
    }

    /// The position before the last turn, if there was one.
    fn position_before_last(&self) -> Option<Position> {
        let turns = self.game.turns();
        let (_, earlier) = turns.split_last()?;
        let mut pos = self.game.start().clone();
        for t in earlier {
            pos.play_turn(t).expect("a played turn replays");
        }
        Some(pos)
    }

    fn show_board(&mut self) -> io::Result<()> {
        let pos = self.game.position();
        let g = pos.geometry();
        let marks = self.marks();
        let mut text = format!(
            "\n{}, turn {}: {} ({}) to play.  Stones: Black {}, White {}.\n",
            board_name(g),
            self.game.turns().len() + 1,
            self.mover(),
            symbol(self.mover()),
            pos.stone_count(Color::Black),
            pos.stone_count(Color::White),
        );
        text.push_str(&Renderer::new(&self.building, &marks, self.paint).board());
        text.push_str(&self.legend(&marks));
        text.push_str(&self.status());
        self.out.write_all(text.as_bytes())
    }

    /// What the marks on the board mean, for the marks shown: a line on the
    /// last turn, a line on the turn in progress.
    fn legend(&self, marks: &Marks) -> String {
        let g = self.building.geometry();
        let mut text = String::new();
        if let Some((color, turn)) = self.game.turns_with_colors().last() {
            if !turn.stones().is_empty() {
                text.push_str(&format!("* {color}'s last turn ({})", turn.to_notation(&g)));
                if !marks.reversed.is_empty() && !self.building.turn_in_progress() {
                    text.push_str("   ~ reversed by it");
                }
                text.push('\n');
            }
        }
        if self.building.turn_in_progress() {
            let mut parts = vec![format!(
                "{} stones of this turn",
                symbol(self.mover()).to_ascii_lowercase()
            )];
            if !marks.reversed.is_empty() {
                parts.push("~ reversed this turn".to_string());
            }
            let has = |status| marks.groups.iter().any(|group| group.status == status);
            if has(GroupStatus::Fresh) {
                parts.push("+ may still grow".to_string());
            }
            if has(GroupStatus::Grown) {
                parts.push("- has grown".to_string());
            }
            if has(GroupStatus::Frozen) {
                parts.push("# captured, may not grow".to_string());
            }
            text.push_str(&parts.join("   "));
            text.push('\n');
        }
        text
    }

    /// What the mover may do now, when it is worth saying.
    fn status(&self) -> String {
        let pos = &self.building;
        let g = pos.geometry();
        if pos.turn_in_progress() {
            let stones = format_points(&pos.turn_stones(), &g);
            let mut text = format!("Turn in progress: {stones}.");
            if let Err(e) = pos.check_finish() {
                text.push_str(&format!(" It cannot end here: {e}."));
            }
            text.push_str(&format!(" Next: {}.\n", self.next_steps()));
            text
        } else if pos.balance_available() && self.player().is_human() {
            "Black may make the balance turn: grow any or all groups, then place one stone.\n"
                .to_string()
        } else if pos.passes() == 1 {
            format!(
                "{} passed: a pass now ends the game.\n",
                pos.side_to_move().opponent()
            )
        } else {
            String::new()
        }
    }

    /// What may follow in the turn in progress.
    fn next_steps(&self) -> String {
        let pos = &self.building;
        let mut can_grow = false;
        let mut can_place = false;
        pos.for_each_allowed_step(|_, kind| match kind {
            StepKind::Growth => can_grow = true,
            StepKind::Placement => can_place = true,
        });
        let mut options = Vec::new();
        if can_grow {
            options.push("grow a group marked +");
        }
        if can_place {
            options.push("place one stone (the balance turn)");
        }
        if pos.check_finish().is_ok() {
            options.push("done");
        }
        options.push("back");
        let last = options.pop().expect("back is always an option");
        if options.is_empty() {
            last.to_string()
        } else {
            format!("{}, or {last}", options.join(", "))
        }
    }

    fn prompt(&mut self) -> io::Result<()> {
        if self.game.position().is_over() {
            write!(self.out, "game over> ")?;
        } else {
            write!(self.out, "{}> ", self.mover())?;
        }
        self.out.flush()
    }

    /// The score now, with the territory board.
    fn show_score(&mut self) -> io::Result<()> {
        let pos = self.game.position().clone();
        let text = self.score_text(&pos);
        let note = if self.building.turn_in_progress() {
            "(The stones of the turn in progress are not counted.)\n"
        } else {
            ""
        };
        write!(self.out, "{text}{note}")
    }

    fn score_text(&self, pos: &Position) -> String {
        let territory = pos.territory();
        let marks = Marks {
            territory: Some(territory.clone()),
            ..Marks::default()
        };
        let mut text = Renderer::new(pos, &marks, self.paint).board();
        text.push_str(
            "x o: territory of Black, of White (vacant points only their stones border)\n",
        );
        for color in Color::BOTH {
            let stones = territory.stones[color.index()];
            let area = territory.area(color);
            text.push_str(&format!(
                "{color} ({}): {stones} stones + {area} territory = {}\n",
                symbol(color),
                stones + area
            ));
        }
        text
    }

    fn show_end(&mut self) -> io::Result<()> {
        let pos = self.game.position().clone();
        let Some(outcome) = pos.outcome() else {
            return Ok(());
        };
        let how = match pos.resigned() {
            Some(color) => format!("{color} resigned"),
            None => "both players passed".to_string(),
        };
        let result = match (outcome.winner(), pos.resigned()) {
            (Some(winner), Some(_)) => format!("{winner} wins by resignation"),
            (Some(winner), None) => {
                let score = pos.score();
                let margin = score.of(winner) - score.of(winner.opponent());
                format!("{winner} wins by {margin}")
            }
            (None, _) => "a draw".to_string(),
        };
        let mut text = format!("\nGame over: {how}.\n");
        text.push_str(&self.score_text(&pos));
        text.push_str(&format!(
            "Result: {}\n",
            self.paint.bold(&format!("{outcome}, {result}."))
        ));
        if self.players.iter().any(|p| p.is_human()) {
            text.push_str("You may undo, score, save FILE, or quit.\n");
        }
        self.out.write_all(text.as_bytes())
    }
}

/// The stones whose colour changed from `before` to `after`.
fn reversed(before: &Position, after: &Position) -> Vec<Point> {
    before
        .stones()
        .filter(|&(p, color)| after.stone_at(p) == Some(color.opponent()))
        .map(|(p, _)| p)
        .collect()
}
