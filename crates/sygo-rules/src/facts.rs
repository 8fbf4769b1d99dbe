//! Fast read-only facts about a position, for players that search: whether a
//! step is *eligible* (allowed, and its stone's group keeps a liberty), the
//! one liberty of a group in atari, and what a point's neighbours hold.
//!
//! None of these changes the position or the rules; each is answered from
//! the board's incremental structures in a few looks, so that playouts and
//! move priors in `sygo-ai` can ask them at every step.

use crate::board::{COLOR, EDGE, EMPTY};
use crate::color::Color;
use crate::geometry::Point;
use crate::position::Position;
use crate::turn::StepKind;

/// What the on-board neighbours of a point hold (see
/// [`Position::neighbour_counts`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NeighbourCounts {
    /// Vacant neighbours.
    pub vacant: u8,
    /// Neighbours holding a Black stone.
    pub black: u8,
    /// Neighbours holding a White stone.
    pub white: u8,
    /// Missing neighbours: the point is on the edge (4 or 6 minus the others).
    pub edge: u8,
}

impl NeighbourCounts {
    /// Neighbours holding a stone of `color`.
    #[inline]
    pub fn of(&self, color: Color) -> u8 {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }
}

impl Position {
    /// Whether the mover may play a stone on p now **and** the stone's group
    /// then has a liberty (after what it reverses): the step is allowed
    /// ([`Position::check_step`] succeeds) and leaves no transient suicide,
    /// so the turn may always end right after it. This is what the random
    /// player calls *eligible*. Returns the kind of step, or `None`.
    ///
    /// It costs a look at p's neighbours (and, rarely, a walk of a group the
    /// stone would capture). Off-board and occupied points give `None`.
    ///
    /// # Examples
    ///
    /// ```
    /// use sygo_rules::{Geometry, Position, StepKind};
    /// let g = Geometry::sygo(5).unwrap();
    /// let at = |s: &str| g.parse_point(s).unwrap();
    /// // White A2 and B1, Black C3; Black to move.
    /// let pos: Position = "sygo 5 5/5/2B2/W4/1W3 b - 0".parse().unwrap();
    /// assert_eq!(pos.eligible_step(at("E5")), Some(StepKind::Placement));
    /// assert_eq!(pos.eligible_step(at("C4")), Some(StepKind::Growth));
    /// assert_eq!(pos.eligible_step(at("A1")), None); // no liberty: suicide
    /// assert_eq!(pos.eligible_step(at("B1")), None); // occupied
    /// ```
    pub fn eligible_step(&self, p: Point) -> Option<StepKind> {
        if self.is_over() || self.turn_ended_by_placement() {
            return None;
        }
        let i = self.index_if_vacant(p)?;
        match self.kind_at(i) {
            StepKind::Growth => (self.growth_allowed(i)
                && self.board.stone_would_live(i, self.side_to_move()))
            .then_some(StepKind::Growth),
            StepKind::Placement => ((!self.turn_in_progress() || self.balance_available())
                && self.placement_outcome(i).is_ok())
            .then_some(StepKind::Placement),
        }
    }

    /// If the group of the stone on p has exactly one liberty, that liberty;
    /// otherwise (more liberties, none, or no stone on p) `None`.
    ///
    /// Cheap for most groups: a group with many (stone, liberty) contacts is
    /// ruled out at once; otherwise its stones are walked.
    ///
    /// # Examples
    ///
    /// ```
    /// use sygo_rules::{Geometry, Position};
    /// let g = Geometry::sygo(5).unwrap();
    /// let at = |s: &str| g.parse_point(s).unwrap();
    /// // White A1 is in atari at A2 (Black B1).
    /// let pos: Position = "sygo 5 5/5/5/5/WB3 w g 0".parse().unwrap();
    /// assert_eq!(pos.atari_liberty(at("A1")), Some(at("A2")));
    /// assert_eq!(pos.atari_liberty(at("B1")), None); // two liberties
    /// assert_eq!(pos.atari_liberty(at("C3")), None); // no stone
    /// ```
    pub fn atari_liberty(&self, p: Point) -> Option<Point> {
        let i = p.index();
        if i >= self.geometry().index_len() {
            return None;
        }
        let color = self.board.color(i);
        if color == EMPTY || color == EDGE {
            return None;
        }
        self.root_atari_liberty(self.board.root(i))
    }

    /// Every group in atari, once each: `f(stone, liberty)` with one stone
    /// of the group and its only liberty. Faster than asking
    /// [`Position::atari_liberty`] of every stone, which walks a group once
    /// per stone.
    ///
    /// # Examples
    ///
    /// ```
    /// use sygo_rules::{Geometry, Position};
    /// let g = Geometry::sygo(5).unwrap();
    /// let at = |s: &str| g.parse_point(s).unwrap();
    /// // White A1 is in atari at A2; Black B1 has two liberties.
    /// let pos: Position = "sygo 5 5/5/5/5/WB3 w g 0".parse().unwrap();
    /// let mut ataris = Vec::new();
    /// pos.for_each_atari(|stone, liberty| ataris.push((stone, liberty)));
    /// assert_eq!(ataris, vec![(at("A1"), at("A2"))]);
    /// ```
    pub fn for_each_atari(&self, mut f: impl FnMut(Point, Point)) {
        for i in 0..self.geometry().index_len() {
            let color = self.board.color(i);
            // Each group once: at its root.
            if color == EMPTY || color == EDGE || self.board.root(i) != i {
                continue;
            }
            if let Some(l) = self.root_atari_liberty(i) {
                f(Point(i as u16), l);
            }
        }
    }

    /// [`Position::atari_liberty`] of the group whose root is r.
    #[inline]
    fn root_atari_liberty(&self, r: usize) -> Option<Point> {
        // A group with one liberty L has as many pseudo-liberties as it has
        // stones next to L: at most the board's degree.
        let pseudo = usize::from(self.board.libs(r));
        if pseudo == 0 || pseudo > self.geometry().degree() {
            return None;
        }
        let geometry = self.geometry();
        let mut liberty = None;
        for s in self.board.group_stones(r) {
            for q in geometry.adjacent(s) {
                if self.board.color(q) == EMPTY {
                    match liberty {
                        None => liberty = Some(q),
                        Some(l) if l != q => return None,
                        Some(_) => {}
                    }
                }
            }
        }
        liberty.map(|l| Point(l as u16))
    }

    /// Whether a stone of the mover on p would put its own group in atari:
    /// if the group the stone joins (or starts) would then have exactly one
    /// liberty, the number of stones of that group (the new stone, and any
    /// stones it reverses, included); otherwise `None` (two liberties or
    /// more, none at all, or p not vacant).
    ///
    /// A capture counts like any other step: the reversed stones join the
    /// captor and bring no liberty (they had none), so a capture that leaves
    /// the captor in atari gives the whole of it back to an opponent who
    /// fills that liberty.
    ///
    /// Whether the step is allowed is not looked at: ask
    /// [`Position::eligible_step`] for that. Cheap when p has two vacant
    /// neighbours (the usual case); otherwise the groups it joins are walked
    /// unless their (stone, liberty) contacts rule an atari out at once.
    ///
    /// # Examples
    ///
    /// ```
    /// use sygo_rules::{Geometry, Position};
    /// let g = Geometry::sygo(5).unwrap();
    /// let at = |s: &str| g.parse_point(s).unwrap();
    /// // Black A1, A2; White B1, B2, A4. Black to move.
    /// let pos: Position = "sygo 5 5/W4/5/BW3/BW3 b g 0".parse().unwrap();
    /// assert_eq!(pos.self_atari(at("A3")), Some(3)); // A1-A3: only liberty B3
    /// assert_eq!(pos.self_atari(at("D4")), None); // four liberties
    /// ```
    pub fn self_atari(&self, p: Point) -> Option<u32> {
        let i = self.index_if_vacant(p)?;
        let geometry = self.geometry();
        let me = self.side_to_move() as u8;
        let them = self.side_to_move().opponent() as u8;
        // The liberty found so far: two distinct ones rule the atari out.
        let mut liberty = None;
        let mut note = |q: usize| -> bool {
            match liberty {
                None => {
                    liberty = Some(q);
                    true
                }
                Some(l) => l == q,
            }
        };
        for q in geometry.adjacent(i) {
            let color = self.board.color(q);
            if color == EMPTY && !note(q) {
                return None;
            }
        }
        // The groups the stone unites: ours next to p, the opponent's it
        // reverses (p is their last liberty), and ours next to those. More
        // than 32 groups is taken as no atari (the answer is then `None`).
        let mut roots = [0usize; 32];
        let mut count = 0;
        let mut size = 1u32;
        // Lists root r once: `Some(true)` when new, `None` when full.
        let mut add = |r: usize| -> Option<bool> {
            if roots[..count].contains(&r) {
                return Some(false);
            }
            *roots.get_mut(count)? = r;
            count += 1;
            size += u32::from(self.board.size(r));
            Some(true)
        };
        for q in geometry.adjacent(i) {
            let color = self.board.color(q);
            if color == me {
                add(self.board.root(q))?;
            } else if color == them {
                let r = self.board.root(q);
                if self.root_atari_liberty(r) != Some(p) || !add(r)? {
                    continue;
                }
                for s in self.board.group_stones(r) {
                    for t in geometry.adjacent(s) {
                        if self.board.color(t) == me {
                            add(self.board.root(t))?;
                        }
                    }
                }
            }
        }
        for &r in &roots[..count] {
            if self.board.color(r) != me {
                // A group the stone reverses: it has no liberty.
                continue;
            }
            // Contacts with points other than p: more than the degree means
            // at least two distinct liberties other than p.
            let touching_p = geometry
                .adjacent(i)
                .filter(|&t| self.board.color(t) == me && self.board.root(t) == r)
                .count();
            if usize::from(self.board.libs(r)) - touching_p > geometry.degree() {
                return None;
            }
            for s in self.board.group_stones(r) {
                for t in geometry.adjacent(s) {
                    if t != i && self.board.color(t) == EMPTY && !note(t) {
                        return None;
                    }
                }
            }
        }
        liberty.map(|_| size)
    }

    /// What p's neighbours on the board hold: vacant points, Black and White
    /// stones, and how many neighbours are missing because p is on the edge.
    /// p itself may hold anything. Off-board points count as all edge.
    ///
    /// # Examples
    ///
    /// ```
    /// use sygo_rules::{Geometry, NeighbourCounts, Position};
    /// let g = Geometry::sygo(5).unwrap();
    /// let pos: Position = "sygo 5 5/5/5/5/WB3 w g 0".parse().unwrap();
    /// let counts = pos.neighbour_counts(g.parse_point("A2").unwrap());
    /// assert_eq!(counts, NeighbourCounts { vacant: 2, black: 0, white: 1, edge: 1 });
    /// ```
    pub fn neighbour_counts(&self, p: Point) -> NeighbourCounts {
        let geometry = self.geometry();
        let degree = geometry.degree() as u8;
        let i = p.index();
        if i >= geometry.index_len() || self.board.color(i) == EDGE {
            return NeighbourCounts {
                edge: degree,
                ..NeighbourCounts::default()
            };
        }
        let mut counts = [0u8; 4];
        for q in geometry.adjacent(i) {
            counts[usize::from(self.board.cell(q) & COLOR)] += 1;
        }
        NeighbourCounts {
            vacant: counts[usize::from(EMPTY)],
            black: counts[Color::Black as usize],
            white: counts[Color::White as usize],
            edge: counts[usize::from(EDGE)],
        }
    }

    /// The padded index of p if p is a vacant point of this board.
    #[inline]
    fn index_if_vacant(&self, p: Point) -> Option<usize> {
        let i = p.index();
        (i < self.geometry().index_len() && self.board.color(i) == EMPTY).then_some(i)
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::geometry::Geometry;

    /// The slow answers: a step played on a copy, the liberties listed, the
    /// neighbours looked up one by one.
    fn check_facts(pos: &Position) {
        let g = pos.geometry();
        for p in g.points() {
            let slow_eligible = pos.check_step(p).ok().filter(|_| {
                let mut next = pos.clone();
                next.play_step(p).unwrap();
                // The new stone's group has a liberty.
                !next.liberties(p).is_empty()
            });
            assert_eq!(pos.eligible_step(p), slow_eligible, "{p:?} in {pos:?}");
            let libs = pos.liberties(p);
            let slow_atari = (libs.len() == 1).then(|| libs[0]);
            assert_eq!(pos.atari_liberty(p), slow_atari, "{p:?} in {pos:?}");
            let mut slow = NeighbourCounts {
                edge: g.degree() as u8,
                ..NeighbourCounts::default()
            };
            for q in g.neighbours(p) {
                slow.edge -= 1;
                match pos.stone_at(q) {
                    None => slow.vacant += 1,
                    Some(Color::Black) => slow.black += 1,
                    Some(Color::White) => slow.white += 1,
                }
            }
            assert_eq!(pos.neighbour_counts(p), slow, "{p:?}");
        }
    }

    /// Random games on both boards; the facts are checked between turns and
    /// after every step of turns built one allowed step at a time.
    #[test]
    fn facts_agree_with_the_slow_answers() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        for g in [
            Geometry::sygo(5).unwrap(),
            Geometry::sygo(9).unwrap(),
            Geometry::hexsygo(3).unwrap(),
            Geometry::hexsygo(5).unwrap(),
        ] {
            for _ in 0..6 {
                let mut pos = Position::new(g);
                while !pos.is_over() {
                    check_facts(&pos);
                    // A turn in progress: the allowed steps, transient
                    // suicides included, one at a time.
                    let mut turn = pos.clone();
                    for _ in 0..3 {
                        let steps = turn.allowed_steps();
                        if steps.is_empty() {
                            break;
                        }
                        let p = steps[(rng.next_u32() as usize) % steps.len()];
                        turn.play_step(p).unwrap();
                        check_facts(&turn);
                    }
                    pos.play_random_turn(&mut rng);
                }
                check_facts(&pos);
            }
        }
    }
}
