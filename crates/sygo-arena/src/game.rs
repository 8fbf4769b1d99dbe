//! One game of a match: the opening, then the two players in turn until the
//! game ends, a player resigns, or a player forfeits.

use std::time::{Duration, Instant};

use sygo_rules::{Color, Game, Geometry, Outcome, Position, Score, Turn};

use sygo_ai::{Budget, overrun_limit};

use crate::contender::{Contender, Forfeit};

/// One side of a match: the first player named (`--a`) or the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Player A, whose point of view the results take.
    A,
    /// Player B.
    B,
}

impl Side {
    /// 0 for A, 1 for B.
    pub fn index(self) -> usize {
        match self {
            Side::A => 0,
            Side::B => 1,
        }
    }

    /// `A` or `B`.
    pub fn letter(self) -> char {
        match self {
            Side::A => 'A',
            Side::B => 'B',
        }
    }
}

/// A game's result from player A's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// A won.
    Win,
    /// A lost.
    Loss,
    /// Equal scores.
    Draw,
}

impl GameResult {
    /// A's points: 1, ½ or 0.
    pub fn points(self) -> f64 {
        match self {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.5,
            GameResult::Loss => 0.0,
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// Two passes: the score decides (docs/rules.md §8; no komi).
    Score(Score),
    /// A player resigned.
    Resignation {
        /// The player who did not resign.
        winner: Color,
    },
    /// A player failed: an illegal turn, or an engine that crashed,
    /// answered garbage or too late.
    Forfeit {
        /// The player who failed.
        loser: Color,
        /// Why.
        reason: Forfeit,
    },
}

/// How one side spent its time in a game (or a match).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideTime {
    /// Turns chosen.
    pub turns: u64,
    /// Time spent choosing them.
    pub total: Duration,
    /// The longest turn.
    pub longest: Duration,
    /// Turns that took longer than the time budget allows
    /// ([`overrun_limit`]).
    pub overruns: u64,
}

impl SideTime {
    /// Counts a turn that took `took`, against a budget of `limit`.
    pub fn add(&mut self, took: Duration, limit: Option<Duration>) {
        self.turns += 1;
        self.total += took;
        self.longest = self.longest.max(took);
        if limit.is_some_and(|limit| took > overrun_limit(limit)) {
            self.overruns += 1;
        }
    }

    /// Adds another's turns to these.
    pub fn merge(&mut self, other: &SideTime) {
        self.turns += other.turns;
        self.total += other.total;
        self.longest = self.longest.max(other.longest);
        self.overruns += other.overruns;
    }

    /// The mean time of a turn.
    pub fn mean(&self) -> Duration {
        if self.turns == 0 {
            Duration::ZERO
        } else {
            self.total.div_f64(self.turns as f64)
        }
    }
}

/// Everything about one game of a match.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The game's number in the match, from 0. Games 2p and 2p + 1 share
    /// opening p, colours swapped.
    pub index: usize,
    /// Player A's colour.
    pub a_color: Color,
    /// The game: the opening's turns, then the players'.
    pub game: Game,
    /// How many of the game's turns are the opening's.
    pub opening_turns: usize,
    /// How it ended.
    pub end: GameEnd,
    /// Time spent by A and by B.
    pub time: [SideTime; 2],
}

impl GameReport {
    /// The colour of a side.
    pub fn color_of(&self, side: Side) -> Color {
        match side {
            Side::A => self.a_color,
            Side::B => self.a_color.opponent(),
        }
    }

    /// The side playing a colour.
    pub fn side_of(&self, color: Color) -> Side {
        if color == self.a_color {
            Side::A
        } else {
            Side::B
        }
    }

    /// The pair of games this one belongs to (same opening).
    pub fn pair(&self) -> usize {
        self.index / 2
    }

    /// The winning colour, or `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match &self.end {
            GameEnd::Score(score) => score.winner(),
            GameEnd::Resignation { winner } => Some(*winner),
            GameEnd::Forfeit { loser, .. } => Some(loser.opponent()),
        }
    }

    /// The result from A's point of view.
    pub fn result(&self) -> GameResult {
        match self.winner() {
            None => GameResult::Draw,
            Some(c) if c == self.a_color => GameResult::Win,
            Some(_) => GameResult::Loss,
        }
    }

    /// A's score minus B's, when the score decided the game.
    pub fn margin(&self) -> Option<i64> {
        match &self.end {
            GameEnd::Score(score) => {
                let a = i64::from(score.of(self.a_color));
                let b = i64::from(score.of(self.a_color.opponent()));
                Some(a - b)
            }
            _ => None,
        }
    }

    /// The result as SGF writes it: `B+3`, `W+R`, `B+F` (a forfeit), `0`.
    pub fn result_text(&self) -> String {
        match &self.end {
            GameEnd::Score(score) => score.to_string(),
            GameEnd::Resignation { winner } => format!("{}+R", winner.letter()),
            GameEnd::Forfeit { loser, .. } => format!("{}+F", loser.opponent().letter()),
        }
    }

    /// How the game ended, in a few words: `A (White) wins W+12 in 45
    /// turns`, `B (Black) forfeits: …`.
    pub fn describe(&self) -> String {
        let turns = self.game.turns().len();
        let who = |color: Color| {
            let side = self.side_of(color);
            format!("{} ({})", side.letter(), color.name())
        };
        match (&self.end, self.winner()) {
            (GameEnd::Forfeit { loser, reason }, _) => {
                format!("{} forfeits after {turns} turns: {reason}", who(*loser))
            }
            (_, None) => format!("draw in {turns} turns"),
            (_, Some(winner)) => {
                format!(
                    "{} wins {} in {turns} turns",
                    who(winner),
                    self.result_text()
                )
            }
        }
    }
}

/// What a game is played with: where it stands in the match and what each
/// player may spend.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// The game's number in the match.
    pub index: usize,
    /// The board.
    pub geometry: Geometry,
    /// The opening's turns, played first.
    pub opening: Vec<Turn>,
    /// Player A's colour.
    pub a_color: Color,
    /// Each turn's budget.
    pub budget: Budget,
    /// The seeds of A's and B's choices in this game.
    pub seeds: [u64; 2],
}

/// Plays one game between A's and B's contenders, from the empty board.
pub fn play_game(setup: &GameSetup, a: &mut dyn Contender, b: &mut dyn Contender) -> GameReport {
    play_game_from(Position::new(setup.geometry), setup, a, b)
}

/// Plays one game between A's and B's contenders, as [`play_game`], from
/// `start` instead of the empty board (a position of `setup.geometry`): the
/// empty board without the balance turn, for `sygo study --no-balance`.
/// The opening's turns are played from `start`
/// ([`opening_from`](crate::opening_from)).
pub fn play_game_from(
    start: Position,
    setup: &GameSetup,
    a: &mut dyn Contender,
    b: &mut dyn Contender,
) -> GameReport {
    debug_assert_eq!(start.geometry(), setup.geometry);
    let mut game = Game::new(start);
    for turn in &setup.opening {
        if game.position().is_over() {
            break;
        }
        game.play(turn.clone())
            .expect("the opening's turns are legal");
    }
    let opening_turns = game.turns().len();
    let mut time = [SideTime::default(); 2];
    let a_color = setup.a_color;
    let mut contenders: [&mut dyn Contender; 2] = [a, b];
    let end = 'game: {
        for (side, contender) in contenders.iter_mut().enumerate() {
            if let Err(reason) = contender.new_game(setup.seeds[side]) {
                let loser = if side == 0 {
                    a_color
                } else {
                    a_color.opponent()
                };
                break 'game GameEnd::Forfeit { loser, reason };
            }
        }
        while !game.position().is_over() {
            let color = game.position().side_to_move();
            let side = if color == a_color { 0 } else { 1 };
            let started = Instant::now();
            let chosen = contenders[side].choose(&game, &setup.budget);
            time[side].add(started.elapsed(), setup.budget.time);
            let decision = match chosen {
                Ok(decision) => decision,
                Err(reason) => {
                    break 'game GameEnd::Forfeit {
                        loser: color,
                        reason,
                    };
                }
            };
            let notation = decision.turn.to_notation(&setup.geometry);
            if let Err(refusal) = game.play(decision.turn) {
                break 'game GameEnd::Forfeit {
                    loser: color,
                    reason: Forfeit::IllegalTurn {
                        turn: notation,
                        reason: refusal.to_string(),
                    },
                };
            }
        }
        match game.position().outcome() {
            Some(Outcome::Score(score)) => GameEnd::Score(score),
            Some(Outcome::Resignation { winner }) => GameEnd::Resignation { winner },
            None => unreachable!("the loop ends when the game is over"),
        }
    };
    GameReport {
        index: setup.index,
        a_color,
        game,
        opening_turns,
        end,
        time,
    }
}
