//! A record: the game information, the starting position and the tree of
//! turns, always legal (every turn of every variation replays).

use std::fmt;
use std::str::FromStr;

use sygo_rules::{Color, Game, Position, Turn};

use crate::error::{FormatError, IllegalError, RecordError};
use crate::tree::{Node, Play, Tree};

/// The number this format writes in `GM`: Sygo and Hexsygo are not in SGF's
/// list (which assigns 1 to 40), so a number well outside it, one for both
/// games, with `VR` naming the variant (`docs/records.md`).
pub const GAME_NUMBER: i64 = 400;

/// The largest komi (`KM`) a record may give, either way: 1000, far more
/// than any board's points.
pub const MAX_KOMI: f64 = 1000.0;

/// The identifiers this format interprets (`docs/records.md`): each at most
/// once in a node, and never among a node's kept
/// [`properties`](crate::Node::properties), except the game information
/// (`PB`, `PW`, `DT`, `RE`, `KM`) outside the root.
pub const INTERPRETED: &[&str] = &[
    "B", "W", "C", "AB", "AW", "AE", "PL", "GS", "FF", "GM", "SZ", "VR", "CA", "KM", "PB", "PW",
    "DT", "RE",
];

/// The information about a game kept in the root node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameInfo {
    /// Black's name (`PB`).
    pub black: Option<String>,
    /// White's name (`PW`).
    pub white: Option<String>,
    /// When it was played (`DT`; SGF writes `2025-06-01`).
    pub date: Option<String>,
    /// The result (`RE`): `B+R`, `W+3`, `0` for a draw, or any SGF result.
    /// `B+R` and `W+R` (or `+Resign`) are the resignation of the main line.
    pub result: Option<String>,
    /// Komi added to White's score (`KM`); 0 when absent. It is not part of
    /// the rules (docs/rules.md §8).
    pub komi: f64,
}

impl GameInfo {
    /// The player who resigned, if the result says one did: `W+R` means
    /// Black resigned.
    pub fn resigned(&self) -> Option<Color> {
        self.result.as_deref().and_then(resignation_loser)
    }
}

/// The loser of a result that is a resignation: `B+R`, `W+Resign` (any case).
pub(crate) fn resignation_loser(result: &str) -> Option<Color> {
    let (winner, how) = result.split_once('+')?;
    let winner = Color::from_name(winner)?;
    (how.eq_ignore_ascii_case("r") || how.eq_ignore_ascii_case("resign")).then(|| winner.opponent())
}

/// A game record: information, starting position (empty, or set up), and
/// the tree of turns with comments and variations.
///
/// A `Record` is always legal: [`Record::new`] and [`Record::parse`] replay
/// every turn of every variation and refuse the whole record at the first
/// illegal one.
///
/// # Examples
///
/// ```
/// use sygo_records::{GameInfo, Record};
/// use sygo_rules::{Game, Geometry, Position, Turn};
///
/// let g = Geometry::sygo(9).unwrap();
/// let mut game = Game::new(Position::new(g));
/// for turn in ["E5", "C3", "G7", "C4,E3"] {
///     game.play(Turn::parse(turn, &g).unwrap()).unwrap();
/// }
/// let record = Record::from_game(&game, GameInfo::default());
/// let text = record.to_sgf();
/// assert!(text.contains(";W[gc]\n;B[cf][eg])"));
/// let read = Record::parse(&text).unwrap();
/// assert_eq!(read, record);
/// assert_eq!(read.main_line().position(), game.position());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    info: GameInfo,
    start: Position,
    tree: Tree,
}

impl Record {
    /// A record from its parts, checked: every sequence has a node, the start
    /// is a setup (no passes, no resignation, no turn in progress), the komi
    /// is finite, every turn of every variation is legal and by the player to
    /// move, and a resignation result can end the main line.
    ///
    /// # Errors
    ///
    /// [`RecordError::Format`] or [`RecordError::Illegal`] with the node.
    pub fn new(info: GameInfo, start: Position, tree: Tree) -> Result<Record, RecordError> {
        if start.passes() != 0 || start.resigned().is_some() || start.turn_in_progress() {
            return Err(illegal(0, IllegalError::StartNotSetup));
        }
        if info.komi.is_nan() || info.komi.abs() > MAX_KOMI {
            return Err(RecordError::Format {
                node: 0,
                error: FormatError::BadValue {
                    property: "KM".to_string(),
                    values: vec![info.komi.to_string()],
                    why: format!("komi is a number of at most {MAX_KOMI} either way"),
                },
            });
        }
        check_tree(&tree, &start)?;
        let record = Record { info, start, tree };
        record.check_resignation()?;
        Ok(record)
    }

    /// The record of a game: its start, one node per turn, the result when
    /// the game is over (a resignation, or the score with `info.komi`; it
    /// replaces `info.result`). A result in `info` that claims a resignation
    /// the game does not have is dropped. A komi that is not a number of at most [`MAX_KOMI`] either way is
    /// taken as 0.
    ///
    /// A start that is not a setup (passes just played, a resignation) is
    /// written as the setup before them followed by those turns, so that the
    /// record's main line ends in the same position as the game; except
    /// that a resignation is the turn of the player who resigned (so they
    /// are to move at the end), and comes after at most one pass (a second
    /// would have ended the game).
    pub fn from_game(game: &Game, mut info: GameInfo) -> Record {
        if info.komi.is_nan() || info.komi.abs() > MAX_KOMI {
            info.komi = 0.0;
        }
        let first = game.start();
        let g = first.geometry();
        let stones: Vec<_> = first.stones().collect();
        // The player who resigned at the start resigned on their turn, after
        // the passes (at most one: a game over by two passes has no more
        // turns, not even a resignation).
        let resigned_first = first.resigned();
        let passes = match resigned_first {
            Some(_) => first.passes().min(1),
            None => first.passes(),
        };
        let last_to_move = resigned_first.unwrap_or(first.side_to_move());
        let mut color = if passes % 2 == 1 {
            last_to_move.opponent()
        } else {
            last_to_move
        };
        let start = Position::from_parts(g, &stones, color, first.growth_started(), 0, None)
            .expect("the stones of a position form a position");
        let mut nodes = vec![Node::default()];
        for _ in 0..passes {
            nodes.push(Node::with_play(Play::pass(color)));
            color = color.opponent();
        }
        let mut resigned = resigned_first;
        for (color, turn) in game.turns_with_colors() {
            match Play::from_turn(color, turn) {
                Some(play) => nodes.push(Node::with_play(play)),
                None => resigned = Some(color),
            }
        }
        let end = game.position();
        info.result = if let Some(loser) = resigned {
            Some(format!("{}+R", loser.opponent().letter()))
        } else if end.is_over() {
            Some(end.score().result_with_komi(info.komi))
        } else if info.resigned().is_some() {
            None
        } else {
            info.result
        };
        let tree = Tree {
            nodes,
            variations: Vec::new(),
        };
        Record::new(info, start, tree).expect("the record of a legal game is legal")
    }

    /// The record of a position: a setup, and the turns that give it passes
    /// or a resignation (see [`Record::from_game`]).
    pub fn from_position(position: &Position, info: GameInfo) -> Record {
        Record::from_game(&Game::new(position.turn_start()), info)
    }

    /// The game information.
    pub fn info(&self) -> &GameInfo {
        &self.info
    }

    /// The starting position (the empty board, or the root's setup).
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The tree of nodes; its first node is the root.
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// The parts, to change them and build a record again with
    /// [`Record::new`].
    pub fn into_parts(self) -> (GameInfo, Position, Tree) {
        (self.info, self.start, self.tree)
    }

    /// The turns of the main line, each with the node that holds it; a
    /// resignation (from the result) comes last, with no node.
    pub fn main_line_turns(&self) -> Vec<LineTurn<'_>> {
        let mut turns = Vec::new();
        for node in self.tree.main_line() {
            if let Some(play) = &node.play {
                turns.push(LineTurn {
                    color: play.color,
                    turn: play.turn(),
                    node: Some(node),
                });
            }
        }
        if let Some(loser) = self.info.resigned() {
            // Mostly the side to move; a player may also resign out of turn.
            turns.push(LineTurn {
                color: loser,
                turn: Turn::Resign,
                node: None,
            });
        }
        turns
    }

    /// Number of turns in the main line, a resignation included.
    pub fn main_line_len(&self) -> usize {
        self.tree.main_line().filter(|n| n.play.is_some()).count()
            + usize::from(self.info.resigned().is_some())
    }

    /// The main line as a game: the start and every turn, a resignation
    /// included.
    pub fn main_line(&self) -> Game {
        self.game_after(usize::MAX)
    }

    /// The main line up to the position after `turns` turns (all of it if
    /// there are fewer): `game_after(0)` is the start.
    pub fn game_after(&self, turns: usize) -> Game {
        let mut game = Game::new(self.start.clone());
        for line_turn in self.main_line_turns().into_iter().take(turns) {
            match line_turn.turn {
                Turn::Resign => game.resign_as(line_turn.color),
                turn => game.play(turn),
            }
            .expect("a record's turns are legal");
        }
        game
    }

    /// Checks that a resignation result can end the main line: the game is
    /// not over there. (The loser need not be to move: a player may resign
    /// at any time, also while the opponent is to move.)
    fn check_resignation(&self) -> Result<(), RecordError> {
        let Some(loser) = self.info.resigned() else {
            return Ok(());
        };
        let mut position = self.start.clone();
        for node in self.tree.main_line() {
            if let Some(play) = &node.play {
                position
                    .play_turn(&play.turn())
                    .expect("checked turns replay");
            }
        }
        let result = self.info.result.clone().unwrap_or_default();
        let why = if position.is_over() {
            format!(
                "says {loser} resigned, but the main line ends with the game over by two passes"
            )
        } else {
            return Ok(());
        };
        Err(illegal(0, IllegalError::Resignation { result, why }))
    }
}

/// A turn of a record's main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineTurn<'a> {
    /// Who played it.
    pub color: Color,
    /// The turn.
    pub turn: Turn,
    /// The node holding it (with its comment); `None` for a resignation.
    pub node: Option<&'a Node>,
}

impl FromStr for Record {
    type Err = RecordError;

    fn from_str(text: &str) -> Result<Record, RecordError> {
        Record::parse(text)
    }
}

impl fmt::Display for Record {
    /// The SGF text ([`Record::to_sgf`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_sgf())
    }
}

fn illegal(node: usize, error: IllegalError) -> RecordError {
    RecordError::Illegal { node, error }
}

/// Replays every line of the tree from `start`; refuses at the first node
/// that breaks a rule, in the order nodes are written.
///
/// Depth first, with one position kept a level of nesting (where the
/// line branches), not one a variation waiting: a record of thousands of
/// sibling variations holds one position for all of them.
fn check_tree(tree: &Tree, start: &Position) -> Result<(), RecordError> {
    // A sequence's nodes, from the position before it; who moved last on
    // the way. Gives the position at its end.
    fn check_sequence(
        tree: &Tree,
        mut position: Position,
        mut last: Option<Color>,
        number: &mut usize,
    ) -> Result<(Position, Option<Color>), RecordError> {
        let g = position.geometry();
        if tree.nodes.is_empty() {
            return Err(RecordError::Format {
                node: *number,
                error: FormatError::EmptySequence,
            });
        }
        for node in &tree.nodes {
            check_kept(node, *number)?;
            if let Some(play) = &node.play {
                let turn = play.turn();
                if !position.is_over() && play.color != position.side_to_move() {
                    let error = match last {
                        Some(_) => IllegalError::SameColorTwice { color: play.color },
                        None => IllegalError::FirstColor {
                            color: play.color,
                            to_move: position.side_to_move(),
                        },
                    };
                    return Err(illegal(*number, error));
                }
                position.play_turn(&turn).map_err(|error| {
                    illegal(
                        *number,
                        IllegalError::Turn {
                            color: play.color,
                            turn: turn.to_notation(&g),
                            error,
                        },
                    )
                })?;
                last = Some(play.color);
            }
            *number += 1;
        }
        Ok((position, last))
    }

    let mut number = 0;
    // The forks on the way: the variations, the next one to check, the
    // position at the fork and who moved last there.
    let mut forks = Vec::new();
    let (position, last) = check_sequence(tree, start.clone(), None, &mut number)?;
    forks.push((&tree.variations, 0, position, last));
    while let Some((variations, next, position, last)) = forks.last_mut() {
        let Some(variation) = variations.get(*next) else {
            forks.pop();
            continue;
        };
        *next += 1;
        let (after, last) = check_sequence(variation, position.clone(), *last, &mut number)?;
        if !variation.variations.is_empty() {
            forks.push((&variation.variations, 0, after, last));
        }
    }
    Ok(())
}

/// Checks that a node's kept properties can be written and read back as
/// they are: upper-case identifiers, none that this format writes itself
/// (game information is interpreted in the root only).
fn check_kept(node: &Node, number: usize) -> Result<(), RecordError> {
    const GAME_INFO: &[&str] = &["PB", "PW", "DT", "RE", "KM"];
    for property in &node.properties {
        let id = property.identifier.as_str();
        if id.is_empty() || !id.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(RecordError::Format {
                node: number,
                error: FormatError::NoIdentifier,
            });
        }
        if INTERPRETED.contains(&id) && (number == 0 || !GAME_INFO.contains(&id)) {
            return Err(RecordError::Format {
                node: number,
                error: FormatError::Misplaced {
                    property: id.to_string(),
                    why: "this format writes it from the record's own fields, \
                          not from a node's other properties",
                },
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sygo_rules::Geometry;

    #[test]
    fn resignation_results_are_read_in_both_spellings() {
        assert_eq!(resignation_loser("W+R"), Some(Color::Black));
        assert_eq!(resignation_loser("b+resign"), Some(Color::White));
        assert_eq!(resignation_loser("B+3"), None);
        assert_eq!(resignation_loser("0"), None);
        assert_eq!(resignation_loser("Void"), None);
    }

    #[test]
    fn a_start_with_passes_becomes_a_setup_and_pass_turns() {
        let position: Position = "sygo 5 5/5/2W2/5/5 w - 1".parse().unwrap();
        let record = Record::from_position(&position, GameInfo::default());
        assert_eq!(record.start().side_to_move(), Color::Black);
        assert_eq!(record.main_line_len(), 1);
        assert_eq!(record.main_line().position(), &position);

        let resigned: Position = "sygo 5 5/5/2W2/5/5 b - 0 W+R".parse().unwrap();
        let record = Record::from_position(&resigned, GameInfo::default());
        assert_eq!(record.info().result.as_deref(), Some("W+R"));
        assert_eq!(record.main_line().position(), &resigned);
    }

    /// Every start a game can have, set up, passed or resigned in any
    /// combination, makes a record (no panic) whose main line ends on the
    /// same stones; and in the same position unless the position says more
    /// than a game can (a resignation by the player not to move, or after
    /// the game ended).
    #[test]
    fn every_start_makes_a_record() {
        let g = Geometry::sygo(5).unwrap();
        let stones = [
            (g.parse_point("C3").unwrap(), Color::White),
            (g.parse_point("A1").unwrap(), Color::Black),
        ];
        for passes in 0..=2 {
            for resigned in [None, Some(Color::Black), Some(Color::White)] {
                for side in [Color::Black, Color::White] {
                    for growth in [false, true] {
                        let position =
                            Position::from_parts(g, &stones, side, growth, passes, resigned)
                                .unwrap();
                        let record = Record::from_position(&position, GameInfo::default());
                        let end = record.main_line().position().clone();
                        let read = Record::parse(&record.to_sgf()).unwrap();
                        assert_eq!(read, record);
                        assert!(end.stones().eq(position.stones()));
                        assert_eq!(end.growth_started(), growth);
                        assert_eq!(end.resigned(), resigned);
                        let representable = match resigned {
                            None => true,
                            Some(loser) => loser == side && passes < 2,
                        };
                        if representable {
                            assert_eq!(end, position, "{position}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn node_numbers_follow_the_order_written() {
        let g = Geometry::sygo(5).unwrap();
        let at = |s: &str| g.parse_point(s).unwrap();
        let play = |color, stones: &[&str]| {
            Node::with_play(Play {
                color,
                stones: stones.iter().map(|s| at(s)).collect(),
            })
        };
        // 0 root; 1 W C3; variations: (2 B A1, 3 W C4) and (4 B C3 — occupied).
        let tree = Tree {
            nodes: vec![Node::default(), play(Color::White, &["C3"])],
            variations: vec![
                Tree {
                    nodes: vec![play(Color::Black, &["A1"]), play(Color::White, &["C4"])],
                    variations: vec![],
                },
                Tree {
                    nodes: vec![play(Color::Black, &["C3"])],
                    variations: vec![],
                },
            ],
        };
        let err = Record::new(GameInfo::default(), Position::new(g), tree).unwrap_err();
        assert_eq!(
            err.to_string(),
            "node 4: Black's turn C3 is illegal: C3 is already occupied"
        );
    }
}
