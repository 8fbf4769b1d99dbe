//! Conditional turns (docs/web.md, "Conditional turns"): a correspondence
//! player waiting for the opponent leaves answers in advance — "if they
//! play this, answer that", several levels deep. A tree of [`Branch`]es,
//! checked against the rules on the game as it stands when it is set, and
//! matched by the position the opponent's turn reaches (two orders of the
//! same growth stones are one turn).

use serde::{Deserialize, Serialize};
use sygo_rules::{Color, Game, Turn};

use crate::error::{ApiError, PlanError, PlanField};

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
/// A refusal names the branch at fault and the rules' reason
/// ([`PlanError`]).
pub(crate) fn check(tree: &[Branch], game: &Game, color: Color) -> Result<(), ApiError> {
    if game.position().is_over() {
        return Err(ApiError::Conflict("the game is over".to_string()));
    }
    if game.position().side_to_move() == color {
        return Err(ApiError::Conflict(
            "it is your turn: play it; conditional turns wait for the other side's".to_string(),
        ));
    }
    let mut walk = Walk {
        color,
        count: 0,
        line: Vec::new(),
        branch: Vec::new(),
    };
    walk.tree(tree, game)
        .map_err(|e| ApiError::IllegalPlan(Box::new(e)))
}

/// A tree checked branch by branch: where the walk is.
struct Walk {
    color: Color,
    /// Branches seen so far.
    count: usize,
    /// The turns from the root to the branch looked at (its own included).
    line: Vec<String>,
    /// The indices from the root to the branch looked at.
    branch: Vec<usize>,
}

impl Walk {
    /// The branch looked at is refused: `field`, `reason`.
    fn refuse(&self, field: Option<PlanField>, reason: impl ToString) -> PlanError {
        PlanError {
            line: self.line.clone(),
            branch: self.branch.clone(),
            field,
            reason: reason.to_string(),
        }
    }

    /// The branches of `tree`, on `game` (the opponent to move), one level
    /// below the walk's branch.
    fn tree(&mut self, tree: &[Branch], game: &Game) -> Result<(), PlanError> {
        let color = self.color;
        let g = game.position().geometry();
        let mut seen = Vec::new();
        for (i, b) in tree.iter().enumerate() {
            self.branch.push(i);
            self.line.push(b.when.trim().to_string());
            self.line.push(b.then.trim().to_string());
            self.count += 1;
            if self.branch.len() > MAX_DEPTH {
                return Err(self.refuse(None, format!("deeper than {MAX_DEPTH} levels")));
            }
            if self.count > MAX_BRANCHES {
                return Err(self.refuse(None, format!("more than {MAX_BRANCHES} branches")));
            }
            let theirs =
                Turn::parse(b.when.trim(), &g).map_err(|e| self.refuse(Some(PlanField::If), e))?;
            let mine = Turn::parse(b.then.trim(), &g)
                .map_err(|e| self.refuse(Some(PlanField::Then), e))?;
            for (turn, field) in [(&theirs, PlanField::If), (&mine, PlanField::Then)] {
                if *turn == Turn::Resign {
                    return Err(self.refuse(Some(field), "a resignation is not a conditional turn"));
                }
            }
            let mut line = game.clone();
            line.play_as(color.opponent(), theirs)
                .map_err(|e| self.refuse(Some(PlanField::If), e))?;
            let key = line.position().hash();
            if seen.contains(&key) {
                return Err(
                    self.refuse(Some(PlanField::If), "an earlier line answers the same turn")
                );
            }
            seen.push(key);
            if line.position().is_over() {
                return Err(self.refuse(Some(PlanField::If), "it ends the game"));
            }
            line.play_as(color, mine)
                .map_err(|e| self.refuse(Some(PlanField::Then), e))?;
            if !b.next.is_empty() && line.position().is_over() {
                return Err(self.refuse(
                    Some(PlanField::Then),
                    "it ends the game: nothing can follow it",
                ));
            }
            self.tree(&b.next, &line)?;
            self.branch.pop();
            self.line.truncate(self.line.len().saturating_sub(2));
        }
        Ok(())
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
        let occupied = vec![
            branch("B2", "D2", vec![]),
            branch("C3", "D4", vec![branch("B2", " C3 ", vec![])]),
        ];
        match check(&occupied, &g, Color::Black) {
            Err(ApiError::IllegalPlan(e)) => {
                assert_eq!(e.line, ["C3", "D4", "B2", "C3"]);
                assert_eq!(e.branch, [1, 0]);
                assert_eq!(e.field, Some(PlanField::Then));
                assert!(e.reason.contains("occupied"), "{e}");
                assert!(
                    e.to_string()
                        .starts_with("if C3 then D4, if B2 then C3: your answer: "),
                    "{e}"
                );
            }
            other => panic!("refused with the branch: {other:?}"),
        }
        let twice = vec![branch("C3", "D4", vec![]), branch("C3", "B2", vec![])];
        assert!(check(&twice, &g, Color::Black).is_err());
        let resign = vec![branch("C3", "resign", vec![])];
        assert!(check(&resign, &g, Color::Black).is_err());
        let junk = vec![branch("Z99", "D4", vec![])];
        assert!(check(&junk, &g, Color::Black).is_err());
        // Ten levels are allowed, eleven are not (9×9: points apart).
        let big = Game::new(Position::new(Geometry::new(Variant::Sygo, 9).unwrap()));
        let points: Vec<String> = ["A", "C", "E", "G", "J"]
            .iter()
            .flat_map(|c| [1, 3, 5, 7, 9].map(|r| format!("{c}{r}")))
            .collect();
        let deep = |levels: usize| {
            let mut tree = Vec::new();
            for pair in points[..2 * levels].chunks(2).rev() {
                tree = vec![branch(&pair[0], &pair[1], tree)];
            }
            tree
        };
        assert!(check(&deep(MAX_DEPTH), &big, Color::Black).is_ok());
        match check(&deep(MAX_DEPTH + 1), &big, Color::Black) {
            Err(ApiError::IllegalPlan(e)) => {
                assert_eq!(e.branch, vec![0; MAX_DEPTH + 1]);
                assert_eq!(e.line.len(), 2 * (MAX_DEPTH + 1));
                assert_eq!(e.field, None);
            }
            other => panic!("too deep: {other:?}"),
        }
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
