//! A game: a starting position and the turns played from it, with undo.

use crate::color::Color;
use crate::error::TurnError;
use crate::position::Position;
use crate::turn::Turn;

/// A game record in memory: where it started, the turns since, and the
/// current position.
///
/// Undo replays the turns from the start (a few microseconds a turn), so a
/// game keeps one position however long it is.
///
/// # Examples
///
/// ```
/// use sygo_rules::{Game, Geometry, Position, Turn};
/// let g = Geometry::hexsygo(5).unwrap();
/// let mut game = Game::new(Position::new(g));
/// game.play(Turn::parse("E5", &g).unwrap()).unwrap();
/// let before = game.position().clone();
/// game.play(Turn::parse("A1", &g).unwrap()).unwrap();
/// assert_eq!(game.undo(), Some(Turn::parse("A1", &g).unwrap()));
/// assert_eq!(game.position(), &before);
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    turns: Vec<Turn>,
    current: Position,
}

impl Game {
    /// A game from a starting position (which must have no turn in progress).
    pub fn new(start: Position) -> Game {
        Game {
            current: start.clone(),
            start,
            turns: Vec::new(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// The starting position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The turns played since the start, in order.
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// Who played each turn, in order (turns alternate from the start's side
    /// to move).
    pub fn turns_with_colors(&self) -> impl Iterator<Item = (Color, &Turn)> {
        let first = self.start.side_to_move();
        let last = self.turns.len().wrapping_sub(1);
        // A resignation ends the game, so it can only be the last turn; it is
        // the turn of the player who resigned, who may have resigned out of
        // turn (`resign_as`).
        let resigned = self.current.resigned();
        self.turns.iter().enumerate().map(move |(i, t)| {
            let alternate = if i % 2 == 0 { first } else { first.opponent() };
            match (t, resigned) {
                (Turn::Resign, Some(loser)) if i == last => (loser, t),
                _ => (alternate, t),
            }
        })
    }

    /// Plays a whole turn.
    ///
    /// # Errors
    ///
    /// [`TurnError`] when the turn is refused; nothing changes then.
    pub fn play(&mut self, turn: Turn) -> Result<(), TurnError> {
        self.current.play_turn(&turn)?;
        self.turns.push(turn);
        Ok(())
    }

    /// Plays a whole turn for `color`.
    ///
    /// # Errors
    ///
    /// [`TurnError::WrongColor`] if `color` is not to move (also when the game
    /// is over it says so first), else as [`Game::play`].
    pub fn play_as(&mut self, color: Color, turn: Turn) -> Result<(), TurnError> {
        if self.current.is_over() {
            return Err(TurnError::GameOver);
        }
        if color != self.current.side_to_move() {
            return Err(TurnError::WrongColor {
                to_move: self.current.side_to_move(),
            });
        }
        self.play(turn)
    }

    /// Resigns for `color` at any time, on its turn or not (docs/rules.md §3: a
    /// resignation is always legal). It is kept as the game's last turn,
    /// [`Turn::Resign`], with `color` as its player.
    ///
    /// # Errors
    ///
    /// [`TurnError::GameOver`] when the game is over.
    pub fn resign_as(&mut self, color: Color) -> Result<(), TurnError> {
        self.current.resign_as(color)?;
        self.turns.push(Turn::Resign);
        Ok(())
    }

    /// Takes back the last turn; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Turn> {
        let last = self.turns.pop()?;
        let mut pos = self.start.clone();
        for turn in &self.turns {
            pos.play_turn(turn)
                .expect("a turn that was played replays identically");
        }
        self.current = pos;
        Some(last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_resigns_on_its_turn_or_out_of_turn() {
        let start: Position = "sygo 5 5/5/5/5/5 w - 0".parse().unwrap();
        let mut game = Game::new(start.clone());
        game.play(Turn::Pass).unwrap();
        // Black is to move; White resigns all the same.
        game.resign_as(Color::White).unwrap();
        assert_eq!(game.position().resigned(), Some(Color::White));
        assert!(game.position().is_over());
        let colors: Vec<Color> = game.turns_with_colors().map(|(c, _)| c).collect();
        assert_eq!(colors, [Color::White, Color::White]);
        assert_eq!(game.resign_as(Color::Black), Err(TurnError::GameOver));
        // Taken back, the game goes on with Black to move.
        assert_eq!(game.undo(), Some(Turn::Resign));
        assert!(!game.position().is_over());
        assert_eq!(game.position().side_to_move(), Color::Black);
        // On its own turn it is the usual resignation.
        game.resign_as(Color::Black).unwrap();
        assert_eq!(game.position().resigned(), Some(Color::Black));
    }
}
