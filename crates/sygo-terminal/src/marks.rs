//! What a board shows besides its stones ([`Marks`]): the last turn, the
//! stones it reversed, the groups in danger, the base groups of the turn in
//! progress, territory, or an ownership map.

use sygo_rules::{BaseGroup, Game, Point, Position, Territory};

/// What the board shows besides the stones.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// The stones of the last whole turn (`*`).
    pub last_turn: Vec<Point>,
    /// Stones reversed by the last turn or by the turn in progress (`~`).
    pub reversed: Vec<Point>,
    /// Stones of groups in danger (`?`): their opponent can reverse them
    /// with one turn.
    pub danger: Vec<Point>,
    /// During a turn: the mover's base groups and their status (`+ - #`).
    pub groups: Vec<BaseGroup>,
    /// On the score board: who owns each vacant region.
    pub territory: Option<Territory>,
    /// On an ownership map: for each point index (as [`Point::index`]), the
    /// expected owner from +1 (Black) to −1 (White); the symbols then show
    /// it instead of the stones.
    pub ownership: Option<Vec<f32>>,
}

/// The marks of the last turn of `game`: its stones (`*`) and the stones it
/// reversed (`~`); none at the start.
pub fn last_turn_marks(game: &Game) -> Marks {
    let turns = game.turns();
    let Some((last, earlier)) = turns.split_last() else {
        return Marks::default();
    };
    let mut before = game.start().clone();
    for turn in earlier {
        if before.play_turn(turn).is_err() {
            // A game's turns are legal; if not, no marks rather than wrong ones.
            return Marks::default();
        }
    }
    Marks {
        last_turn: last.stones().to_vec(),
        reversed: reversed(&before, game.position()),
        ..Marks::default()
    }
}

/// The stones whose colour changed from `before` to `after`.
pub fn reversed(before: &Position, after: &Position) -> Vec<Point> {
    before
        .stones()
        .filter(|&(p, color)| after.stone_at(p) == Some(color.opponent()))
        .map(|(p, _)| p)
        .collect()
}
