//! The board: stones, groups and liberties, kept incrementally.
//!
//! Everything is a flat array indexed by point (see [`geometry`](crate::geometry)):
//!
//! - `cells[p]`: the colour at p (empty, black, white, edge); for a stone, the
//!   flag `NEW` (the turn in progress added it); for a vacant point, whether
//!   it neighbours a stone of each colour ([`touches`]): a stone there would
//!   be a growth for that colour, else a placement.
//! - `group[p]`: the root point of the group of stone p. Every stone of a group
//!   holds the same root; on a merge the smaller group is relabelled. For a
//!   vacant point or an edge cell it is 0, itself an edge cell (the corner of
//!   the padding): so `libs`, the `TOUCHED` flag and the like can be read at
//!   `group[q]` for any neighbour q without first testing what q holds. Entry
//!   0 is never a group.
//! - `next[p]`: the next stone of the same group; each group is a circular list.
//! - at each root r: `libs[r]`, the group's *pseudo-liberties* (the number of
//!   (stone, vacant neighbour) pairs: zero exactly when the group has no
//!   liberty), `size[r]`, and the flag `TOUCHED` in `cells[r]` (the group is no
//!   longer fresh this turn, docs/rules.md §3: it grew or it captured).
//! - [`Vacant`]: the vacant points in an array, for O(1) random choice.
//! - `log`: the turn in progress, the stones it added from the front and the
//!   stones it reversed from the back. The two never overlap: they are
//!   different stones of the board.
//!
//! Invariants that make the bookkeeping cheap, all consequences of "stones never
//! leave the board":
//!
//! - a reversed group had no liberty, so no vacant point ever neighbours a
//!   reversed stone: reversing changes no liberty and no vacant point;
//! - a vacant point's neighbours only change by being filled, so "touches
//!   colour c" never becomes false while the point stays vacant.

use crate::color::Color;
use crate::geometry::{Geometry, MAX_INDEX, MAX_POINTS};
use crate::point_array::PointArray;
use crate::vacant::Vacant;
use crate::zobrist;

/// Cell value: no stone.
pub(crate) const EMPTY: u8 = 0;
/// Cell value: off the board.
pub(crate) const EDGE: u8 = 3;
/// Mask of the colour bits of a cell (Black = 1, White = 2).
pub(crate) const COLOR: u8 = 3;
/// Flag: the turn in progress added this stone.
pub(crate) const NEW: u8 = 4;
/// Flag of a group's root stone: the group is no longer fresh this turn.
pub(crate) const TOUCHED: u8 = 8;

/// Flag of a vacant cell: it neighbours a stone of `color`.
#[inline]
pub(crate) const fn touches(color: Color) -> u8 {
    16 << (color as u8 - 1)
}

/// Stones, groups, liberties and vacant points (see the module doc).
#[derive(Clone, Copy)]
pub(crate) struct Board {
    pub(crate) geometry: Geometry,
    cells: PointArray<u8, MAX_INDEX>,
    group: PointArray<u16, MAX_INDEX>,
    next: PointArray<u16, MAX_INDEX>,
    libs: PointArray<u16, MAX_INDEX>,
    size: PointArray<u16, MAX_INDEX>,
    /// The vacant points.
    pub(crate) vacant: Vacant,
    /// The turn's new stones (`log[..added]`) and reversed stones (the last
    /// `reversed` entries).
    log: PointArray<u16, MAX_POINTS>,
    added: u16,
    reversed: u16,
    /// Stones per colour index.
    stones: [u16; 2],
    /// Zobrist hash of the board key, the stones and the `NEW` marks.
    hash: u64,
}

/// What becomes of a stone put on a vacant point with no vacant neighbour
/// (see [`Board::survival_without_vacant_neighbour`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Survival {
    /// Its group has a liberty.
    Lives,
    /// Its group has none.
    Dies,
    /// It captures, and lives if a captured group touches another of our
    /// groups that has a liberty.
    Captures,
}

impl Board {
    /// An empty board.
    pub(crate) fn new(geometry: Geometry) -> Board {
        let mut board = Board {
            geometry,
            cells: PointArray::filled(EDGE),
            group: PointArray::filled(0),
            next: PointArray::filled(0),
            libs: PointArray::filled(0),
            size: PointArray::filled(0),
            vacant: Vacant::new(geometry.points().map(|p| p.index())),
            log: PointArray::filled(0),
            added: 0,
            reversed: 0,
            stones: [0; 2],
            hash: zobrist::board(geometry.degree() == 6, geometry.size()),
        };
        for p in geometry.points() {
            board.cells[p.index()] = EMPTY;
        }
        board
    }

    /// Builds a board holding exactly `stones`, with no rules applied (no
    /// captures); groups and liberties are computed from scratch.
    pub(crate) fn from_stones(geometry: Geometry, stones: &[(usize, Color)]) -> Board {
        let mut board = Board::new(geometry);
        for &(p, color) in stones {
            board.cells[p] = color as u8;
            board.stones[color.index()] += 1;
            board.hash ^= zobrist::stone(color.index(), p);
        }
        board.rebuild_groups();
        board
    }

    /// Recomputes groups, liberties and the vacant points from the colours of
    /// the cells alone.
    fn rebuild_groups(&mut self) {
        let geometry = self.geometry;
        let mut seen = [false; MAX_INDEX];
        for p in geometry.points().map(|p| p.index()) {
            let color = self.cells[p] & COLOR;
            if color == EMPTY || seen[p] {
                continue;
            }
            // Flood fill the group of p, threading the circular list.
            let mut stack = vec![p];
            seen[p] = true;
            let (mut size, mut libs, mut prev) = (0u16, 0u16, p);
            while let Some(s) = stack.pop() {
                self.group[s] = p as u16;
                self.next[prev] = s as u16;
                prev = s;
                size += 1;
                for q in geometry.adjacent(s) {
                    let qc = self.cells[q] & COLOR;
                    if qc == EMPTY {
                        libs += 1;
                    } else if qc == color && !seen[q] {
                        seen[q] = true;
                        stack.push(q);
                    }
                }
            }
            self.next[prev] = p as u16;
            self.size[p] = size;
            self.libs[p] = libs;
        }
        for p in geometry.points().map(|p| p.index()) {
            if self.cells[p] & COLOR != EMPTY {
                continue;
            }
            self.cells[p] = EMPTY;
            for color in Color::BOTH {
                if geometry
                    .adjacent(p)
                    .any(|q| self.cells[q] & COLOR == color as u8)
                {
                    self.cells[p] |= touches(color);
                }
            }
        }
        self.vacant = Vacant::new(
            geometry
                .points()
                .map(|p| p.index())
                .filter(|&p| self.cells[p] & COLOR == EMPTY),
        );
    }

    /// Makes `self` a copy of `source`, copying only the part of each array
    /// that `source`'s board uses. The rest of `self`'s arrays is never read:
    /// every index the board uses is below its geometry's `index_len`.
    pub(crate) fn copy_from(&mut self, source: &Board) {
        let n = source.geometry.index_len();
        self.geometry = source.geometry;
        self.cells.0[..n].copy_from_slice(&source.cells.0[..n]);
        self.group.0[..n].copy_from_slice(&source.group.0[..n]);
        self.next.0[..n].copy_from_slice(&source.next.0[..n]);
        self.libs.0[..n].copy_from_slice(&source.libs.0[..n]);
        self.size.0[..n].copy_from_slice(&source.size.0[..n]);
        self.vacant.copy_from(&source.vacant, n);
        let (added, reversed) = (usize::from(source.added), usize::from(source.reversed));
        self.log.0[..added].copy_from_slice(&source.log.0[..added]);
        self.log.0[MAX_POINTS - reversed..].copy_from_slice(&source.log.0[MAX_POINTS - reversed..]);
        self.added = source.added;
        self.reversed = source.reversed;
        self.stones = source.stones;
        self.hash = source.hash;
    }

    /// The raw cell: colour bits and flags.
    #[inline]
    pub(crate) fn cell(&self, p: usize) -> u8 {
        self.cells[p]
    }

    /// The colour bits at p: `EMPTY`, 1 (Black), 2 (White) or `EDGE`.
    #[inline]
    pub(crate) fn color(&self, p: usize) -> u8 {
        self.cells[p] & COLOR
    }

    /// The stone at p, if any.
    pub(crate) fn stone(&self, p: usize) -> Option<Color> {
        match self.color(p) {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }

    /// Root of the group of stone p.
    #[inline]
    pub(crate) fn root(&self, p: usize) -> usize {
        usize::from(self.group[p])
    }

    /// Pseudo-liberties of the group with root r.
    #[inline]
    pub(crate) fn libs(&self, r: usize) -> u16 {
        self.libs[r]
    }

    /// Stones of the group with root r.
    #[inline]
    pub(crate) fn size(&self, r: usize) -> u16 {
        self.size[r]
    }

    /// Whether the group with root r is no longer fresh this turn.
    #[inline]
    pub(crate) fn touched(&self, r: usize) -> bool {
        self.cells[r] & TOUCHED != 0
    }

    /// Marks the group of stone p as no longer fresh.
    #[inline]
    pub(crate) fn touch(&mut self, p: usize) {
        let r = self.root(p);
        self.cells[r] |= TOUCHED;
    }

    /// Number of stones of a colour.
    pub(crate) fn stone_count(&self, color: Color) -> u32 {
        u32::from(self.stones[color.index()])
    }

    /// Hash of the board key, the stones and the turn's new-stone marks.
    #[inline]
    pub(crate) fn hash(&self) -> u64 {
        self.hash
    }

    /// The stones of the group of stone p, starting with p.
    pub(crate) fn group_stones(&self, p: usize) -> impl Iterator<Item = usize> + '_ {
        let mut s = p;
        let mut done = false;
        std::iter::from_fn(move || {
            if done {
                return None;
            }
            let out = s;
            s = usize::from(self.next[s]);
            done = s == p;
            Some(out)
        })
    }

    /// How many neighbours of p belong to the group with root r.
    #[inline(always)]
    fn adjacency<const D: usize>(&self, p: usize, r: usize) -> u16 {
        let mut n = 0;
        for q in self.geometry.around::<D>(p) {
            let color = self.cells[q] & COLOR;
            if (color == 1 || color == 2) && self.root(q) == r {
                n += 1;
            }
        }
        n
    }

    /// What becomes of a stone of `color` put on vacant p: whether its group
    /// has a liberty once the opponent groups it captures are reversed,
    /// computed without changing anything. `D` is the board's degree (4 or 6),
    /// fixed at compile time so that the neighbour loops unroll.
    ///
    /// Exact even when some groups of `color` have no liberty (a transient
    /// suicide earlier in the turn): such a group only helps if it has one.
    #[inline(always)]
    pub(crate) fn survival<const D: usize>(&self, p: usize, color: Color) -> bool {
        // A vacant neighbour stays a liberty.
        if self
            .geometry
            .around::<D>(p)
            .iter()
            .any(|&q| self.cells[q] & COLOR == EMPTY)
        {
            return true;
        }
        match self.survival_without_vacant_neighbour::<D>(p, color) {
            Survival::Lives => true,
            Survival::Dies => false,
            Survival::Captures => self.captured_touch_a_living_group::<D>(p, color),
        }
    }

    /// [`Board::survival`] for a point whose neighbours are all stones or
    /// edge, up to the question that needs a walk of the captured groups.
    #[inline(never)]
    pub(crate) fn survival_without_vacant_neighbour<const D: usize>(
        &self,
        p: usize,
        color: Color,
    ) -> Survival {
        // A joined group with a liberty other than p keeps it. (p takes at
        // most D pseudo-liberties from a group.)
        let (me, them) = (color as u8, color.opponent() as u8);
        let mut captures = false;
        for q in self.geometry.around::<D>(p) {
            let color_q = self.cells[q] & COLOR;
            if color_q == me {
                let r = self.root(q);
                if self.libs[r] > D as u16 || self.libs[r] > self.adjacency::<D>(p, r) {
                    return Survival::Lives;
                }
            } else if color_q == them {
                let r = self.root(q);
                captures |= self.libs[r] <= D as u16 && self.libs[r] == self.adjacency::<D>(p, r);
            }
        }
        if captures {
            Survival::Captures
        } else {
            Survival::Dies
        }
    }

    /// For a stone on p that captures, when p has no vacant neighbour and our
    /// groups next to p have no liberty but p: whether a captured group
    /// touches another group of ours that has a liberty, which the capture
    /// unites with the stone. Walks the captured groups.
    #[inline(never)]
    pub(crate) fn captured_touch_a_living_group<const D: usize>(
        &self,
        p: usize,
        color: Color,
    ) -> bool {
        let (me, them) = (color as u8, color.opponent() as u8);
        let around = self.geometry.around::<D>(p);
        let mut joined = [usize::MAX; D];
        for (slot, &q) in joined.iter_mut().zip(&around) {
            if self.cells[q] & COLOR == me {
                *slot = self.root(q);
            }
        }
        let mut walked = [usize::MAX; D];
        for (i, &q) in around.iter().enumerate() {
            if self.cells[q] & COLOR != them {
                continue;
            }
            let r = self.root(q);
            if walked[..i].contains(&r) || self.libs[r] != self.adjacency::<D>(p, r) {
                continue; // walked already, or not captured
            }
            walked[i] = r;
            if usize::from(self.size[r]) + 1 == self.geometry.num_points() {
                continue; // all the board but p: it touches none of ours
            }
            // Most of a captured group's neighbours belong to one group of
            // ours next to p: remember the last root found to be one of those.
            // Every neighbour of a captured stone is a stone of the group
            // (root r), one of ours, p or an edge (root 0, as p is vacant).
            // Most of ours belong to one group next to p: remember the last
            // root found to be one of those. So one look at the root decides,
            // and rarely says more is needed.
            let mut known = usize::MAX;
            let geometry = self.geometry;
            for s in self.group_stones(r) {
                for t in geometry.around::<D>(s) {
                    let rt = self.root(t);
                    if rt != known && rt != r && rt != 0 {
                        if self.libs[rt] > 0 && !joined.contains(&rt) {
                            return true;
                        }
                        known = rt;
                    }
                }
            }
        }
        false
    }

    /// Whether a stone of `color` on vacant p would be in a group with a
    /// liberty (see [`Board::survival`]).
    pub(crate) fn stone_would_live(&self, p: usize, color: Color) -> bool {
        match self.geometry.degree() {
            4 => self.survival::<4>(p, color),
            _ => self.survival::<6>(p, color),
        }
    }

    /// Puts a stone of `color` on vacant p as a step of the turn in progress
    /// (marked `NEW`): joins it to its neighbours of the same colour and
    /// reverses every opponent group left without a liberty (docs/rules.md §4–§5).
    /// Returns whether anything was reversed. Does not check legality. `D` is
    /// the board's degree.
    #[inline(always)]
    pub(crate) fn put_stone<const D: usize>(&mut self, p: usize, color: Color) -> bool {
        debug_assert_eq!(self.cells[p] & COLOR, EMPTY);
        let c = color.index();
        let me = color as u8;
        self.cells[p] = me | NEW;
        self.hash ^= zobrist::stone(c, p) ^ zobrist::NEW_STONE[p];
        self.stones[c] += 1;
        self.vacant.remove(p);
        self.log[usize::from(self.added)] = p as u16;
        self.added += 1;

        // The stone starts as a group of its own. Each neighbouring group
        // loses the liberty p (once per adjacent stone: pseudo-liberties);
        // those of its colour join it. Its vacant neighbours are its liberties
        // and now touch its colour.
        self.group[p] = p as u16;
        self.next[p] = p as u16;
        self.size[p] = 1;
        self.libs[p] = 0;
        // The neighbours are classified without branches where the outcome
        // is a coin toss; `group` of a vacant or edge cell is 0, an edge cell
        // whose `libs` entry absorbs the decrements meant for stones only.
        let around = self.geometry.around::<D>(p);
        let them = color.opponent() as u8;
        let touch = touches(color);
        let mut vacant = 0;
        let mut captures = false;
        // Our neighbours, gathered without branching: whether a neighbour is
        // ours is a coin toss, how many there are much less so.
        let mut ours = [0usize; D];
        let mut n_ours = 0;
        for q in around {
            let cell = self.cells[q];
            let color_q = cell & COLOR;
            let r = self.root(q);
            self.libs[r] = self.libs[r].wrapping_sub(1);
            let empty = color_q == EMPTY;
            vacant += u16::from(empty);
            self.cells[q] = cell | (u8::from(empty) * touch);
            ours[n_ours] = q;
            n_ours += usize::from(color_q == me);
            captures |= (color_q == them) & (self.libs[r] == 0);
        }
        for &q in &ours[..n_ours] {
            if self.root(q) != self.root(p) {
                self.merge(p, q);
            }
        }
        let r = self.root(p);
        self.libs[r] += vacant;
        self.libs[0] = 0;
        if captures {
            self.reverse_captured::<D>(p, color);
        }
        captures
    }

    /// Reverses the opponent groups around p that have no liberty left.
    #[inline(never)]
    fn reverse_captured<const D: usize>(&mut self, p: usize, color: Color) {
        let them = color.opponent() as u8;
        for q in self.geometry.around::<D>(p) {
            if self.cells[q] & COLOR == them && self.libs[self.root(q)] == 0 {
                self.reverse::<D>(self.root(q), color);
            }
        }
    }

    /// Merges the groups of stones a and b (of one colour, different groups).
    /// The smaller group is relabelled; the two circular lists are spliced
    /// right after a, so a walk of a's old list that stops after its old
    /// length never enters the other group's stones.
    #[inline]
    fn merge(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.root(a), self.root(b));
        debug_assert_ne!(ra, rb);
        let (keep, gone) = if self.size[ra] >= self.size[rb] {
            (ra, rb)
        } else {
            (rb, ra)
        };
        let mut s = gone;
        loop {
            self.group[s] = keep as u16;
            s = usize::from(self.next[s]);
            if s == gone {
                break;
            }
        }
        self.next.0.swap(a, b);
        self.size[keep] += self.size[gone];
        self.libs[keep] += self.libs[gone];
        self.cells[keep] |= self.cells[gone] & TOUCHED;
    }

    /// Reverses the group with root r (which has no liberty) to `color` and
    /// unites it with every group of `color` around it.
    #[inline(never)]
    fn reverse<const D: usize>(&mut self, r: usize, color: Color) {
        let (c, o) = (color.index(), color.opponent().index());
        let me = color as u8;
        let n = self.size[r];
        self.stones[c] += n;
        self.stones[o] -= n;
        // Recolour the n stones, and log them.
        let mut s = r;
        for _ in 0..n {
            self.cells[s] = me;
            self.hash ^= zobrist::FLIP[s];
            self.reversed += 1;
            self.log[MAX_POINTS - usize::from(self.reversed)] = s as u16;
            s = usize::from(self.next[s]);
        }
        // Unite the group with every group of `color` it touches. The group
        // had no liberty: every neighbour of its stones is now a stone of
        // `color` or an edge cell (whose `group` is 0), so one look at the
        // neighbour's root says whether to merge, and it rarely does. A merge
        // splices the other group's stones in right after r, which the walk
        // has passed; following each stone's successor as it was before the
        // merges visits exactly the reversed stones.
        let mut united = r; // the root of the group that holds them
        let geometry = self.geometry;
        let mut s = r;
        for _ in 0..n {
            let next = usize::from(self.next[s]);
            for t in geometry.around::<D>(s) {
                let rt = self.root(t);
                if rt != united && rt != 0 {
                    self.merge(r, t);
                    united = self.root(r);
                }
            }
            s = next;
        }
    }

    /// The stones the turn in progress has added, in order.
    #[inline]
    pub(crate) fn added(&self) -> &[u16] {
        &self.log.0[..usize::from(self.added)]
    }

    /// The stones the turn in progress has reversed.
    pub(crate) fn reversed(&self) -> &[u16] {
        &self.log.0[MAX_POINTS - usize::from(self.reversed)..]
    }

    /// Ends the turn's bookkeeping: clears the `NEW` marks (and their hash
    /// keys) and the touched flags, forgets the turn's log, and makes every
    /// vacant point live again. Every touched group holds a new stone.
    pub(crate) fn end_turn(&mut self) {
        for i in 0..usize::from(self.added) {
            let s = usize::from(self.log[i]);
            self.cells[s] &= !NEW;
            self.hash ^= zobrist::NEW_STONE[s];
            let r = self.root(s);
            self.cells[r] &= !TOUCHED;
        }
        self.added = 0;
        self.reversed = 0;
        self.vacant.revive();
    }

    /// The hash recomputed from the cells alone.
    pub(crate) fn hash_from_scratch(&self) -> u64 {
        let mut h = zobrist::board(self.geometry.degree() == 6, self.geometry.size());
        for p in self.geometry.points().map(|p| p.index()) {
            let cell = self.cells[p];
            match cell & COLOR {
                1 => h ^= zobrist::stone(0, p),
                2 => h ^= zobrist::stone(1, p),
                _ => {}
            }
            if cell & NEW != 0 {
                h ^= zobrist::NEW_STONE[p];
            }
        }
        h
    }

    /// The exact liberties of the group of stone p, in increasing order.
    pub(crate) fn liberties(&self, p: usize) -> Vec<usize> {
        let mut libs: Vec<usize> = self
            .group_stones(self.root(p))
            .flat_map(|s| self.geometry.adjacent(s))
            .filter(|&q| self.cells[q] & COLOR == EMPTY)
            .collect();
        libs.sort_unstable();
        libs.dedup();
        libs
    }

    /// Checks every incremental structure against a recomputation from the
    /// cells; panics with a description of the first difference.
    pub(crate) fn check_invariants(&self) {
        let fresh = Board::from_stones(
            self.geometry,
            &self
                .geometry
                .points()
                .filter_map(|p| self.stone(p.index()).map(|c| (p.index(), c)))
                .collect::<Vec<_>>(),
        );
        for p in self.geometry.points().map(|p| p.index()) {
            let cell = self.cells[p];
            if cell & COLOR == EMPTY {
                let mut expected = EMPTY;
                for color in Color::BOTH {
                    if self
                        .geometry
                        .adjacent(p)
                        .any(|q| self.color(q) == color as u8)
                    {
                        expected |= touches(color);
                    }
                }
                assert_eq!(cell, expected, "flags of vacant point {p}");
                assert!(
                    self.vacant.contains(p),
                    "vacant point {p} missing from the array"
                );
                continue;
            }
            // Same partition into groups, same sizes and pseudo-liberties.
            let (r, fr) = (self.root(p), fresh.root(p));
            assert_eq!(self.size[r], fresh.size[fr], "size of the group of {p}");
            assert_eq!(
                self.libs[r], fresh.libs[fr],
                "pseudo-liberties of the group of {p}"
            );
            let mine: Vec<usize> = {
                let mut v: Vec<usize> = self.group_stones(r).collect();
                v.sort_unstable();
                v
            };
            let theirs: Vec<usize> = {
                let mut v: Vec<usize> = fresh.group_stones(fr).collect();
                v.sort_unstable();
                v
            };
            assert_eq!(mine, theirs, "stones of the group of {p}");
            assert!(
                mine.iter().all(|&s| self.root(s) == r),
                "roots of the group of {p}"
            );
        }
        for color in Color::BOTH {
            assert_eq!(
                self.stones[color.index()],
                fresh.stones[color.index()],
                "stone count"
            );
        }
        assert_eq!(
            self.vacant.len(),
            fresh.vacant.len(),
            "number of vacant points"
        );
        for &s in self.reversed() {
            let s = usize::from(s);
            assert!(
                self.geometry.adjacent(s).all(|q| self.color(q) != EMPTY),
                "reversed stone {s} neighbours a vacant point"
            );
        }
        assert!(usize::from(self.added) + usize::from(self.reversed) <= MAX_POINTS);
        assert_eq!(self.hash, self.hash_from_scratch(), "incremental hash");
    }
}
