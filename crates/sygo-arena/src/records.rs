//! Each game of a match as a record (`docs/records.md`): the players'
//! names, the result, a comment on the match in the root, the end of the
//! random opening marked, and a forfeit's reason on the last node.

use std::fmt::Write as _;
use std::path::Path;

use sygo_records::{GameInfo, Record, RecordError};
use sygo_rules::Color;

use crate::error::WriteRecordError;
use crate::game::{GameEnd, GameReport, Side};
use crate::report::budget_text;
use crate::runner::MatchSettings;

/// The records of a match's games: what each says about the match it
/// belongs to.
#[derive(Clone, Debug)]
pub struct GameRecords {
    /// The entrants' names, A then B.
    pub names: [String; 2],
    /// The match's settings.
    pub settings: MatchSettings,
}

impl GameRecords {
    /// The record of a game: the players' names, the result, a comment on
    /// the match in the root, the end of the opening marked, and a forfeit's
    /// reason on the last node.
    ///
    /// # Errors
    ///
    /// [`RecordError`] if the record made of the game is refused (not
    /// expected: the arena's games are legal).
    pub fn record(&self, game: &GameReport) -> Result<Record, RecordError> {
        let name = |side: Side| self.names[side.index()].clone();
        let (black, white) = match game.a_color {
            Color::Black => (name(Side::A), name(Side::B)),
            Color::White => (name(Side::B), name(Side::A)),
        };
        let info = GameInfo {
            black: Some(black),
            white: Some(white),
            result: Some(game.result_text()),
            ..GameInfo::default()
        };
        let record = Record::from_game(&game.game, info);
        let (info, start, mut tree) = record.into_parts();
        let s = &self.settings;
        let number = game.index + 1;
        let mut root = format!(
            "sygo arena, game {number} of {}: A = {} ({}), B = {} ({}); seed {}, {}.",
            s.games,
            self.names[0],
            game.color_of(Side::A).name(),
            self.names[1],
            game.color_of(Side::B).name(),
            s.seed,
            budget_text(&s.budget),
        );
        let pair = game.pair();
        if game.opening_turns > 0 {
            let _ = write!(
                root,
                " Turns 1 to {} are the random opening of pair {} (games {} and {}).",
                game.opening_turns,
                pair + 1,
                2 * pair + 1,
                2 * pair + 2
            );
        }
        tree.nodes[0].comment = Some(root);
        if game.opening_turns > 0 {
            // Node k holds turn k: the root is node 0.
            tree.nodes[game.opening_turns].comment = Some(format!(
                "End of the random opening ({} turns): the players take over.",
                game.opening_turns
            ));
        }
        if let GameEnd::Forfeit { loser, reason } = &game.end {
            let last = tree.nodes.len() - 1;
            let side = game.side_of(*loser);
            let note = format!(
                "{} ({} = {}) forfeits: {reason}",
                loser.name(),
                side.letter(),
                name(side)
            );
            let comment = &mut tree.nodes[last].comment;
            *comment = Some(match comment.take() {
                Some(before) => format!("{before}\n{note}"),
                None => note,
            });
        }
        Record::new(info, start, tree)
    }

    /// Writes game N's record as `game-N.sgf` in `dir` (N with leading
    /// zeros, so that the files sort in order).
    ///
    /// # Errors
    ///
    /// [`WriteRecordError`] when the record is refused or the file cannot
    /// be written.
    pub fn write(&self, dir: &Path, game: &GameReport) -> Result<(), WriteRecordError> {
        let width = self.settings.games.to_string().len();
        let path = dir.join(format!("game-{:0width$}.sgf", game.index + 1));
        let text = self
            .record(game)
            .map_err(WriteRecordError::Record)?
            .to_sgf();
        std::fs::write(&path, text).map_err(|source| WriteRecordError::Io { path, source })
    }
}
