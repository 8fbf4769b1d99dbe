//! A record with the AI's review in it (`GET /api/games/{id}/record?analysis=1`,
//! `docs/records.md`): on each node of the main line whose position was
//! reviewed, Sabaki's `SBKV` (Black's win probability in percent, two
//! decimals) and a line of the comment with the best turn, the win
//! probability and the expected result ("AI: best D5,F7 — Black 63.2%,
//! B+4.5"). Everything else of the record (an uploaded record's comments,
//! properties and variations) is kept.

use sygo_records::{Property, Record, RecordError};

use crate::review_store::PositionReview;

/// The `SBKV` value: Black's win probability in percent, two decimals.
fn sbkv(win_rate: f64) -> String {
    format!("{:.2}", win_rate * 100.0)
}

/// An expected margin as a result: `B+4.5`, `W+0.5`, `0`.
fn margin(lead: f64) -> String {
    let lead = (lead * 10.0).round() / 10.0;
    if lead > 0.0 {
        format!("B+{lead:.1}")
    } else if lead < 0.0 {
        format!("W+{:.1}", -lead)
    } else {
        "0".to_string()
    }
}

/// The comment's line for a reviewed position.
fn comment_line(p: &PositionReview) -> String {
    let view = format!("Black {:.1}%, {}", p.win_rate * 100.0, margin(p.score_lead));
    match &p.best {
        Some(best) => format!("AI: best {best} — {view}"),
        None => format!("AI: game over — {view}"),
    }
}

/// `record` with the review `positions` (by turn of the game; the game's
/// `turns` turns, a resignation included, end the record's main line).
/// Each position goes on the node where it arises: the root for the start,
/// else the node of the turn that made it (a resignation has no node).
///
/// # Errors
///
/// The record built again is refused ([`Record::new`]); it never is, as
/// only comments and properties change.
pub(crate) fn with_review(
    record: Record,
    turns: usize,
    positions: &[(usize, PositionReview)],
) -> Result<Record, RecordError> {
    let resigned = usize::from(record.info().resigned().is_some());
    let plays = record.main_line_len() - resigned;
    // Turns a record holds before the game's start (passes of a start
    // position that had them).
    let before = plays.saturating_sub(turns.saturating_sub(resigned));
    let (info, start, mut tree) = record.into_parts();
    let mut played = 0usize;
    for (i, node) in tree.main_line_mut().into_iter().enumerate() {
        let arises = if i == 0 {
            true
        } else if node.play.is_some() {
            played += 1;
            true
        } else {
            false
        };
        if !arises || played < before {
            continue;
        }
        let turn = played - before;
        let Ok(k) = positions.binary_search_by_key(&turn, |(t, _)| *t) else {
            continue;
        };
        let review = &positions[k].1;
        node.properties.retain(|p| p.identifier != "SBKV");
        node.properties
            .push(Property::new("SBKV", &sbkv(review.win_rate)));
        let line = comment_line(review);
        node.comment = Some(match node.comment.take() {
            Some(text) if !text.is_empty() => format!("{text}\n{line}"),
            _ => line,
        });
    }
    Record::new(info, start, tree)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_as_sabaki_and_players_read_them() {
        assert_eq!(sbkv(0.632), "63.20");
        assert_eq!(sbkv(1.0), "100.00");
        assert_eq!(margin(4.46), "B+4.5");
        assert_eq!(margin(-0.5), "W+0.5");
        assert_eq!(margin(0.01), "0");
        let p = PositionReview {
            hash: 0,
            win_rate: 0.632,
            score_lead: 4.5,
            best: Some("D5,F7".to_string()),
            visits: 10,
            ownership: Vec::new(),
        };
        assert_eq!(comment_line(&p), "AI: best D5,F7 — Black 63.2%, B+4.5");
    }
}
