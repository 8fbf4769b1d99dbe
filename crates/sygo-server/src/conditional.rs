//! Conditional turns (docs/web.md, "Conditional turns"): a correspondence
//! player waiting for the opponent leaves answers in advance — "if they
//! play this, answer that", several levels deep. A tree of [`Branch`]es,
//! checked against the rules on the game as it stands when it is set, and
//! matched by the position the opponent's turn reaches (two orders of the
//! same growth stones are one turn).

use serde::{Deserialize, Serialize};
use sygo_rules::{Color, Game, Turn};

use crate::error::ApiError;

/// Most branches in one side's tree.
pub(crate) const MAX_BRANCHES: usize = 100;
/// Deepest a tree goes (pairs of turns).
pub(crate) const MAX_DEPTH: usize = 10;

/// If the opponent plays `if`, answer `then`, and go on with `next`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Branch {
    /// The opponent's turn, as the protocol writes it (`D5,F7`, `pass`).
    #[serde(rename = "if")]
    pub when: String,
    /// The answer.
    pub then: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub next: Vec<Branch>,
}

/// Checks a tree for `color` on `game` (where the opponent is to move):
/// every turn legal in its line, no resignation, within the size limits.
pub(crate) fn check(tree: &[Branch], game: &Game, color: Color) -> Result<(), ApiError> {
    let bad = |m: String| Err(ApiError::Illegal(m));
    if game.position().is_over() {
        return Err(ApiError::Conflict("the game is over".to_string()));
    }
    if game.position().side_to_move() == color {
        return Err(ApiError::Conflict(
            "it is your turn: play it; conditional turns wait for the other side's".to_string(),
        ));
    }
    let mut count = 0;
    fn walk(
        tree: &[Branch],
        game: &Game,
        color: Color,
        depth: usize,
        count: &mut usize,
        path: &str,
    ) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(format!("deeper than {MAX_DEPTH} levels"));
        }
        let g = game.position().geometry();
        let mut seen = Vec::new();
        for b in tree {
            *count += 1;
            if *count > MAX_BRANCHES {
                return Err(format!("more than {MAX_BRANCHES} branches"));
            }
            let here = format!("{path}if {} then {}", b.when, b.then);
            let mut line = game.clone();
            let theirs = Turn::parse(b.when.trim(), &g).map_err(|e| format!("{here}: {e}"))?;
            let mine = Turn::parse(b.then.trim(), &g).map_err(|e| format!("{here}: {e}"))?;
            if theirs == Turn::Resign || mine == Turn::Resign {
                return Err(format!("{here}: a resignation is not a conditional turn"));
            }
            line.play_as(color.opponent(), theirs)
                .map_err(|e| format!("{here}: their turn: {e}"))?;
            let key = line.position().hash();
            if seen.contains(&key) {
                return Err(format!("{here}: two answers to the same turn"));
            }
            seen.push(key);
            if line.position().is_over() {
                return Err(format!("{here}: their turn ends the game"));
            }
            line.play_as(color, mine)
                .map_err(|e| format!("{here}: your answer: {e}"))?;
            if !b.next.is_empty() && line.position().is_over() {
                return Err(format!("{here}: your answer ends the game"));
            }
            walk(
                &b.next,
                &line,
                color,
                depth + 1,
                count,
                &format!("{here}, "),
            )?;
        }
        Ok(())
    }
    match walk(tree, game, color, 1, &mut count, "") {
        Ok(()) => Ok(()),
        Err(why) => bad(why),
    }
}

/// The branch of `tree` whose `if` the opponent's turn just played on
/// `before` matches (by the position it reaches, `after`): its answer and
/// what follows.
pub(crate) fn matching<'a>(
    tree: &'a [Branch],
    before: &Game,
    after_hash: u64,
    opponent: Color,
) -> Option<&'a Branch> {
    let g = before.position().geometry();
    tree.iter().find(|b| {
        let mut line = before.clone();
        Turn::parse(b.when.trim(), &g)
            .ok()
            .and_then(|t| line.play_as(opponent, t).ok())
            .is_some_and(|()| line.position().hash() == after_hash)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sygo_rules::{Geometry, Position, Variant};

    fn game() -> Game {
        Game::new(Position::new(Geometry::new(Variant::Sygo, 5).unwrap()))
    }

    fn branch(when: &str, then: &str, next: Vec<Branch>) -> Branch {
        Branch {
            when: when.to_string(),
            then: then.to_string(),
            next,
        }
    }

    #[test]
    fn trees_are_checked_by_the_rules() {
        let g = game(); // White to move: Black waits.
        let ok = vec![
            branch("C3", "D4", vec![branch("B2", "D2", vec![])]),
            branch("B2", "C3", vec![]),
        ];
        assert!(check(&ok, &g, Color::Black).is_ok());
        assert!(check(&ok, &g, Color::White).is_err(), "White is to move");
        let occupied = vec![branch("C3", "C3", vec![])];
        assert!(check(&occupied, &g, Color::Black).is_err());
        let twice = vec![branch("C3", "D4", vec![]), branch("C3", "B2", vec![])];
        assert!(check(&twice, &g, Color::Black).is_err());
        let resign = vec![branch("C3", "resign", vec![])];
        assert!(check(&resign, &g, Color::Black).is_err());
        let junk = vec![branch("Z99", "D4", vec![])];
        assert!(check(&junk, &g, Color::Black).is_err());
    }

    #[test]
    fn the_opponents_turn_is_matched_by_its_position() {
        let before = game();
        let tree = vec![branch("B2", "D4", vec![]), branch("C3", "D2", vec![])];
        let mut after = before.clone();
        after
            .play_as(
                Color::White,
                Turn::parse("C3", &before.position().geometry()).unwrap(),
            )
            .unwrap();
        let b = matching(&tree, &before, after.position().hash(), Color::White).unwrap();
        assert_eq!(b.then, "D2");
        assert!(matching(&tree, &before, 12345, Color::White).is_none());
    }
}
