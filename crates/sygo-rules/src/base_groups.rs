//! The base groups of the turn in progress and what became of each: fresh,
//! grown, or frozen by a capture (docs/rules.md §3, §5).
//!
//! The hot path only needs to know whether a group is still fresh; interfaces
//! and error messages want the exact status of each base group, which this
//! module recovers by replaying the turn from its start. It is the slow path:
//! a rebuild per call.

use crate::color::Color;
use crate::geometry::Point;
use crate::position::Position;
use crate::turn::StepKind;

/// What has become of a base group during the turn in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GroupStatus {
    /// It has not grown and took no part in a capture: it may still grow.
    Fresh,
    /// It has grown by one stone this turn.
    Grown,
    /// It is part of the group that a capture by growth united: it may not grow
    /// any further this turn.
    Frozen,
}

/// One of the mover's groups as it was when the turn began.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseGroup {
    /// Its stones, in increasing order.
    pub stones: Vec<Point>,
    /// Fresh, grown or frozen.
    pub status: GroupStatus,
}

/// The groups of `color` in `position`, in order of their lowest stone
/// (each group's stones in increasing order), and for every point (by
/// index) the number of the group its stone belongs to.
pub(crate) fn label_groups(
    position: &Position,
    color: Color,
) -> (Vec<Option<usize>>, Vec<Vec<Point>>) {
    let g = position.geometry();
    let mut label: Vec<Option<usize>> = vec![None; g.index_len()];
    let mut groups: Vec<Vec<Point>> = Vec::new();
    for p in g.points() {
        if position.stone_at(p) == Some(color) && label[p.index()].is_none() {
            let stones = position.group(p);
            for s in &stones {
                label[s.index()] = Some(groups.len());
            }
            groups.push(stones);
        }
    }
    (label, groups)
}

impl Position {
    /// The mover's base groups for the turn in progress, each with its status,
    /// in order of their lowest stone. Between turns every group is fresh.
    pub fn base_groups(&self) -> Vec<BaseGroup> {
        let mut replay = self.turn_start();
        let g = self.geometry();
        let mover = self.side_to_move();

        let (label, stones) = label_groups(&replay, mover);
        let mut groups: Vec<BaseGroup> = stones
            .into_iter()
            .map(|stones| BaseGroup {
                stones,
                status: GroupStatus::Fresh,
            })
            .collect();

        for s in self.turn_stones() {
            let kind = if replay.board.cell(s.index()) & crate::board::touches(mover) != 0 {
                StepKind::Growth
            } else {
                StepKind::Placement
            };
            if kind == StepKind::Growth {
                for q in g.neighbours(s) {
                    if let Some(i) = label[q.index()] {
                        if groups[i].status == GroupStatus::Fresh {
                            groups[i].status = GroupStatus::Grown;
                        }
                    }
                }
            }
            let before = replay.stone_count(mover);
            replay.apply_step(s.index(), kind);
            let reversed = replay.stone_count(mover) > before + 1;
            if reversed && kind == StepKind::Growth {
                for t in replay.group(s) {
                    if let Some(i) = label[t.index()] {
                        groups[i].status = GroupStatus::Frozen;
                    }
                }
            }
        }
        groups
    }

    /// The status of the base group holding the stone on p, if p holds a base
    /// stone of the mover.
    pub fn base_group_status(&self, p: Point) -> Option<GroupStatus> {
        self.base_groups()
            .into_iter()
            .find(|g| g.stones.contains(&p))
            .map(|g| g.status)
    }
}
