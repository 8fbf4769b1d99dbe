//! Whether the turn in progress can still be completed (docs/rules.md §7).
//!
//! Suicide is judged when a turn ends, so a growth step may leave a group
//! of the mover without liberties for a moment, to be rescued by a capture
//! later in the same turn. A step can therefore be allowed by §5 and still
//! lead to a turn that cannot end. [`Position::group_without_liberty`] names
//! a group that keeps the turn from ending now;
//! [`Position::turn_can_be_completed`] says whether some continuation ends
//! it legally, and [`Position::turn_completion`] gives one.
//!
//! # How it is read
//!
//! When no group of the mover lacks a liberty, the turn may end now: the
//! answer is immediate, a look at the groups of the turn's new stones (only
//! a group holding a new stone can have lost its last liberty this turn),
//! and nothing is allocated. Otherwise:
//!
//! 1. **Only a capture rescues.** A group G without liberties has no vacant
//!    neighbour, and never gets one (stones never leave the board): it cannot
//!    grow, and no new stone can touch it. It gets a liberty again only when
//!    an opponent group E next to it is reversed, which unites G with E, with
//!    every group of the mover next to E, and with the stone that filled E's
//!    last liberty.
//! 2. **Only some opponent groups can be reversed.** E is reversed when its
//!    last liberty is filled, so every liberty of E must still be fillable:
//!    by a growth allowed now (a growth that §5 forbids now stays forbidden,
//!    as a group never becomes fresh again and a point that touches no base
//!    stone never will), or by the placement that ends Black's balance turn
//!    (§6: at most one, and it must complete a legal turn); and as each
//!    growth grows a fresh base group, and each grows once, E's growth points
//!    need as many fresh base groups next to them. A group G with no such E
//!    next to it cannot be rescued: the answer is no at once.
//! 3. **The rescue steps.** The steps tried are the liberties of those
//!    groups E, groups that can be reversed at once first, and in Black's
//!    balance turn those of the opponent groups next to the point of an E
//!    where the placement would go: the placement reverses every group it
//!    fills the last liberty of, and ends the turn, so such a group must be
//!    made ready before it. Each step is played on a copy and the position
//!    after it read again: yes as soon as no group lacks a liberty (or a
//!    placement completes a legal turn). A state already read is not read
//!    again, and every growth grows a base group that was fresh, so the
//!    search is at most as deep as the fresh base groups left.
//!
//! A yes is always right: the steps found are played, and the turn ends
//! legally after them. A no rests on steps 1 and 2, and on this: if the
//! turn can be completed, some completion starts with a rescue step (a
//! step that fills no liberty of a group the turn reverses can be left out
//! of a completion, as in the capture reading of `danger.rs`, and the
//! others can wait for the rescues they serve). The tests
//! (`tests/rules/completion.rs`) check the answer against the enumeration of
//! every continuation of the turn on tens of thousands of states of small
//! boards of both kinds.

use std::collections::HashSet;

use crate::board::EMPTY;
use crate::geometry::Point;
use crate::position::Position;
use crate::turn::StepKind;

impl Position {
    /// A stone of a group of the mover that the turn in progress has left
    /// without a liberty, if there is one: the turn may not end while such a
    /// group is left (docs/rules.md §7). `None` between turns.
    ///
    /// Cheap: a look at the group of each stone the turn has added.
    ///
    /// # Examples
    ///
    /// ```
    /// use sygo_rules::{Geometry, Position};
    /// let g = Geometry::sygo(5).unwrap();
    /// let at = |s: &str| g.parse_point(s).unwrap();
    /// // Black A1, C2, E1; White A2, B2, C1, D2, E2, E5. Black to move.
    /// let mut pos: Position = "sygo 5 4W/5/5/WWBWW/B1W1B b - 0".parse().unwrap();
    /// assert_eq!(pos.group_without_liberty(), None);
    /// pos.play_step(at("B1")).unwrap(); // A1-B1 has no liberty left
    /// assert_eq!(pos.group_without_liberty(), Some(at("B1")));
    /// assert!(pos.check_finish().is_err());
    /// ```
    pub fn group_without_liberty(&self) -> Option<Point> {
        self.first_dead_stone().map(|s| Point(s as u16))
    }

    /// Whether the turn in progress can still be completed legally: whether
    /// some sequence of steps allowed from here (none, if the turn may end
    /// now) ends with no group of the mover without liberties (docs/rules.md §7).
    /// True between turns and whenever no group lacks a liberty
    /// ([`Position::group_without_liberty`]).
    ///
    /// This is the question a player that builds a turn step by step asks
    /// after a growth that left a group without liberties: if the answer is
    /// no, no continuation can save the turn. Cheap, allocating nothing,
    /// when no group lacks a liberty; otherwise a small search over the
    /// steps that could rescue the group (the module doc of
    /// `completion.rs`), usually a few copies of the position.
    ///
    /// See [`Position::turn_completion`] for steps that complete it, and
    /// [`Position::check_finish`] for whether it may end now.
    ///
    /// # Examples
    ///
    /// Black's growth turn B1,D1 reverses White C1, whose two liberties the
    /// groups A1 and E1 fill, each stone alone leaving its own group without
    /// a liberty; the capture unites A1 to E1 with C2, which has a liberty
    /// at C3.
    ///
    /// ```
    /// use sygo_rules::{Color, Geometry, Position};
    /// let g = Geometry::sygo(5).unwrap();
    /// let at = |s: &str| g.parse_point(s).unwrap();
    /// let mut pos: Position = "sygo 5 4W/5/5/WWBWW/B1W1B b - 0".parse().unwrap();
    /// pos.play_step(at("B1")).unwrap();
    /// assert!(pos.check_finish().is_err()); // A1-B1 has no liberty
    /// assert!(pos.turn_can_be_completed()); // D1 will rescue it
    /// assert_eq!(pos.turn_completion(), Some(vec![at("D1")]));
    /// pos.play_step(at("D1")).unwrap();
    /// pos.finish_turn().unwrap();
    /// assert_eq!(pos.stone_at(at("C1")), Some(Color::Black));
    ///
    /// // With White on C2, White's group has the liberties of row 3 as
    /// // well: after B1 nothing saves the turn.
    /// let mut pos: Position = "sygo 5 4W/5/5/WWWWW/B1W1B b g 0".parse().unwrap();
    /// pos.play_step(at("B1")).unwrap();
    /// assert!(!pos.turn_can_be_completed());
    /// assert_eq!(pos.turn_completion(), None);
    /// ```
    pub fn turn_can_be_completed(&self) -> bool {
        if self.first_dead_stone().is_none() {
            return true;
        }
        Rescue::default().search(self, &mut None)
    }

    /// Steps that complete the turn in progress legally, in an order in
    /// which each is allowed: empty when the turn may end now (or between
    /// turns), `None` when it cannot be completed
    /// ([`Position::turn_can_be_completed`], whose example shows it). After
    /// them only the finish remains (or nothing, when the last is a
    /// placement, which ends the turn): [`Position::check_finish`] succeeds.
    pub fn turn_completion(&self) -> Option<Vec<Point>> {
        if self.first_dead_stone().is_none() {
            return Some(Vec::new());
        }
        let mut steps = Vec::new();
        if !Rescue::default().search(self, &mut Some(&mut steps)) {
            return None;
        }
        steps.reverse();
        Some(steps)
    }
}

impl Position {
    /// Calls `f` with every step a player building a turn one step at a time
    /// may take now: each step the rules allow
    /// ([`Position::for_each_allowed_step`]) after which the turn can still
    /// be completed ([`Position::turn_can_be_completed`]). With it, every
    /// legal turn is reachable step by step, and no sequence of such steps
    /// dead-ends: the turn may end once [`Position::group_without_liberty`]
    /// is `None`, and otherwise some step offered leads on to that.
    ///
    /// A placement is allowed only if the turn it completes is legal. A
    /// growth that keeps its group a liberty, played while no group of the
    /// mover lacks one, leaves the turn free to end
    /// ([`Position::eligible_step`]); any other growth is checked on a copy
    /// of the position, made once per call and only when needed, so the
    /// common case allocates nothing. The AI's step game and the Python
    /// package's actions both take their stones from here.
    ///
    /// # Examples
    ///
    /// ```
    /// use sygo_rules::{Geometry, Position};
    /// let g = Geometry::sygo(5).unwrap();
    /// let at = |s: &str| g.parse_point(s).unwrap();
    /// // B1 and D1 each leave their group without a liberty, and together
    /// // reverse White C1 (see `Position::turn_can_be_completed`).
    /// let pos: Position = "sygo 5 4W/5/5/WWBWW/B1W1B b - 0".parse().unwrap();
    /// let mut steps = Vec::new();
    /// pos.for_each_completable_step(|p, _| steps.push(p));
    /// assert!(steps.contains(&at("B1")) && steps.contains(&at("D1")));
    /// ```
    pub fn for_each_completable_step(&self, mut f: impl FnMut(Point, StepKind)) {
        let stranded = self.first_dead_stone().is_some();
        let mut scratch: Option<Box<Position>> = None;
        self.for_each_allowed_step(|p, kind| {
            if self.keeps_turn_completable(p, kind, stranded, &mut scratch) {
                f(p, kind);
            }
        });
    }

    /// What a stone on p would be, if it is a step of
    /// [`Position::for_each_completable_step`]: allowed by the rules, and
    /// leaving a turn that can still be completed. `None` otherwise.
    ///
    /// # Examples
    ///
    /// ```
    /// use sygo_rules::{Geometry, Position, StepKind};
    /// let g = Geometry::sygo(5).unwrap();
    /// let at = |s: &str| g.parse_point(s).unwrap();
    /// let pos: Position = "sygo 5 4W/5/5/WWBWW/B1W1B b - 0".parse().unwrap();
    /// assert_eq!(pos.eligible_step(at("B1")), None); // no liberty left
    /// assert_eq!(pos.completable_step(at("B1")), Some(StepKind::Growth));
    /// // With White on C2, nothing rescues A1-B1.
    /// let pos: Position = "sygo 5 4W/5/5/WWWWW/B1W1B b g 0".parse().unwrap();
    /// assert_eq!(pos.completable_step(at("B1")), None);
    /// ```
    pub fn completable_step(&self, p: Point) -> Option<StepKind> {
        let kind = self.check_step(p).ok()?;
        let stranded = self.first_dead_stone().is_some();
        self.keeps_turn_completable(p, kind, stranded, &mut None)
            .then_some(kind)
    }

    /// Whether the turn can still be completed after the allowed step at p
    /// of this kind; `stranded`: whether a group of the mover lacks a
    /// liberty now. A growth that needs it is played on `scratch` (made on
    /// first use).
    #[inline]
    fn keeps_turn_completable(
        &self,
        p: Point,
        kind: StepKind,
        stranded: bool,
        scratch: &mut Option<Box<Position>>,
    ) -> bool {
        // A placement is allowed only if the turn it completes is legal.
        if kind == StepKind::Placement
            || (!stranded && self.board.stone_would_live(p.index(), self.side_to_move()))
        {
            return true;
        }
        let next = scratch.get_or_insert_with(|| copy_of(self));
        next.as_mut().clone_from(self);
        next.apply_step(p.index(), StepKind::Growth);
        next.turn_can_be_completed()
    }
}

/// The search of [`Position::turn_can_be_completed`]: the states read.
#[derive(Default)]
struct Rescue {
    /// The states read (by hash): each was found not to complete.
    seen: HashSet<u64>,
}

/// An opponent group next to a group without liberties whose every
/// liberty can still be filled this turn.
struct Target {
    /// Its liberties.
    liberties: Vec<usize>,
}

impl Rescue {
    /// Whether the turn in progress of `pos`, which has a group without
    /// liberties, can be completed; when it can, the steps that do it are
    /// pushed onto `witness` last first.
    fn search(&mut self, pos: &Position, witness: &mut Option<&mut Vec<Point>>) -> bool {
        if pos.turn_ended_by_placement() || !self.seen.insert(pos.hash()) {
            // A placement is allowed only if its turn is legal; a state
            // read before did not complete.
            return false;
        }
        let Some(mut targets) = targets(pos) else {
            return false;
        };
        // Captures at once first: they are the likeliest rescues.
        targets.sort_by_key(|t| t.liberties.len());
        let mut tried = Vec::new();
        let mut next = copy_of(pos);
        for target in &targets {
            for &l in &target.liberties {
                if tried.contains(&l) {
                    continue;
                }
                tried.push(l);
                let done = match pos.kind_at(l) {
                    StepKind::Placement => pos.placement_outcome(l).is_ok(),
                    StepKind::Growth => {
                        next.as_mut().clone_from(pos);
                        next.apply_step(l, StepKind::Growth);
                        next.first_dead_stone().is_none() || self.search(&next, witness)
                    }
                };
                if done {
                    if let Some(steps) = witness {
                        steps.push(Point(l as u16));
                    }
                    return true;
                }
            }
        }
        false
    }
}

/// A copy of `pos` on the heap: the search recurses, and a position is
/// ten kilobytes.
#[inline(never)]
fn copy_of(pos: &Position) -> Box<Position> {
    Box::new(pos.clone())
}

/// The opponent groups that could rescue the groups of the mover without
/// liberties in `pos` (step 2 of the module doc), or `None` when some such
/// group has none next to it.
fn targets(pos: &Position) -> Option<Vec<Target>> {
    let board = &pos.board;
    let g = pos.geometry();
    let them = pos.side_to_move().opponent() as u8;
    let balance = pos.balance_available();
    // Opponent groups already looked at, by root, and whether they can be
    // reversed this turn.
    let mut looked: Vec<(usize, bool)> = Vec::new();
    let mut targets = Vec::new();
    let mut dead_roots: Vec<usize> = Vec::new();
    for &s in board.added() {
        let r = board.root(usize::from(s));
        if board.libs(r) != 0 || dead_roots.contains(&r) {
            continue;
        }
        dead_roots.push(r);
        let mut rescuable = false;
        for stone in board.group_stones(r) {
            for q in g.adjacent(stone) {
                if board.color(q) != them {
                    continue;
                }
                let e = board.root(q);
                if let Some(&(_, ok)) = looked.iter().find(|&&(root, _)| root == e) {
                    rescuable |= ok;
                    continue;
                }
                let target = reversible(pos, e, balance);
                looked.push((e, target.is_some()));
                if let Some(target) = target {
                    rescuable = true;
                    targets.push(target);
                }
            }
        }
        if !rescuable {
            return None;
        }
    }
    if balance {
        // The placement that ends a balance turn reverses every opponent
        // group it fills the last liberty of at once: the groups next to
        // a target's placement point may be made ready for it first.
        let mut i = 0;
        while i < targets.len() {
            let placements: Vec<usize> = targets[i]
                .liberties
                .iter()
                .copied()
                .filter(|&l| pos.kind_at(l) == StepKind::Placement)
                .collect();
            for l in placements {
                for q in g.adjacent(l) {
                    if board.color(q) != them {
                        continue;
                    }
                    let e = board.root(q);
                    if looked.iter().any(|&(root, _)| root == e) {
                        continue;
                    }
                    let target = reversible(pos, e, balance);
                    looked.push((e, target.is_some()));
                    targets.extend(target);
                }
            }
            i += 1;
        }
    }
    Some(targets)
}

/// The opponent group with root `e`, if every one of its liberties can
/// still be filled this turn: each an allowed growth, but for at most one
/// placement that ends a balance turn; and there are at least as many
/// fresh base groups next to the growth points as growth points (each
/// growth grows one at least, and each grows once).
fn reversible(pos: &Position, e: usize, balance: bool) -> Option<Target> {
    let board = &pos.board;
    let g = pos.geometry();
    let me = pos.side_to_move() as u8;
    let mut liberties: Vec<usize> = Vec::new();
    let mut placements = 0;
    // The fresh base groups next to the growth points, by root: a group
    // no step has touched is one fresh base group.
    let mut growers: Vec<usize> = Vec::new();
    for stone in board.group_stones(e) {
        for l in g.adjacent(stone) {
            if board.color(l) != EMPTY || liberties.contains(&l) {
                continue;
            }
            match pos.kind_at(l) {
                StepKind::Growth if pos.growth_allowed(l) => {
                    for q in g.adjacent(l) {
                        let r = board.root(q);
                        if board.color(q) == me && !board.touched(r) && !growers.contains(&r) {
                            growers.push(r);
                        }
                    }
                }
                StepKind::Placement if balance && placements == 0 => placements += 1,
                _ => return None,
            }
            liberties.push(l);
        }
    }
    (growers.len() + placements >= liberties.len()).then_some(Target { liberties })
}
