//! What the priors look at: the groups of the board with their exact
//! liberties, each point's line (distance to the edge) and its distance to
//! the nearest stone. Computed once per expanded node, in a few passes over
//! the board (microseconds, against a playout's tens), into buffers that are
//! kept between expansions.

use sygo_rules::{CaptureReader, Color, Geometry, Point, Position, Turn, Variant};

use super::reading::DefenceReader;

/// No group.
const NONE: u32 = u32::MAX;

/// Liberties remembered per group (enough to judge ataris and
/// self-ataris exactly; more only counts).
pub(crate) const KEPT_LIBERTIES: usize = 4;

/// A group of stones.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Group {
    /// The stone it was found from.
    pub(crate) first: Point,
    pub(crate) color: Color,
    pub(crate) size: u32,
    /// Exact number of liberties.
    pub(crate) libs: u32,
    /// The first [`KEPT_LIBERTIES`] liberties found.
    pub(crate) lib: [Point; KEPT_LIBERTIES],
    /// It touches the last liberty of an opponent group (or a liberty of an
    /// opponent group that can be closed this turn): growing there captures,
    /// so growing elsewhere this turn would throw the capture away.
    pub(crate) capturer: bool,
    /// Every liberty of this group (two to four) can be filled this turn by
    /// growth, each by a different group of the opponent's: one growth turn
    /// reverses it.
    pub(crate) closable: bool,
    /// Its opponent can reverse it with one turn (the rules library's exact
    /// reading, the board read as a position between turns).
    pub(crate) in_danger: bool,
}

impl Group {
    /// The liberties kept (all of them when there are few).
    pub(crate) fn kept(&self) -> &[Point] {
        &self.lib[..(self.libs as usize).min(KEPT_LIBERTIES)]
    }
}

/// The board's groups and distances (module doc).
#[derive(Clone, Debug, Default)]
pub(crate) struct Features {
    /// Per point index: its group, or [`NONE`].
    group_of: Vec<u32>,
    pub(crate) groups: Vec<Group>,
    /// Per point index: the token of the last group that counted it as a
    /// liberty.
    lib_mark: Vec<u32>,
    token: u32,
    /// Per point index: distance (in steps) to the nearest stone, capped.
    distance: Vec<u8>,
    stack: Vec<Point>,
    queue: Vec<Point>,
    /// Per point index: its line, 1 on the edge (fixed per board).
    line: Vec<u8>,
    line_board: Option<Geometry>,
    /// The exact one-turn capture reading (when `read_dangers` is set).
    reader: CaptureReader,
    /// Per point index: the stones of the mover's opponent that a turn of
    /// the mover through this point reverses (the witness turns of the
    /// groups in danger), and of the mover's groups in danger next to it.
    capture_through: Vec<u32>,
    /// Per point index: the opponent stones whose capture a growth on this
    /// point would throw away, by touching the point of a placement that
    /// ends the capture in Black's balance turn (a placement may touch no
    /// stone of the mover, a growth only stones of a group that has not
    /// grown this turn).
    spoils: Vec<u32>,
    pub(crate) read_dangers: bool,
    /// Read the balance turn's placement apart (`spoils`, and no credit
    /// for the placement before its growths): `PriorSettings::balance`.
    pub(crate) read_balance: bool,
    /// Read the defences of the mover's groups in danger of at least this
    /// many stones at the start of a turn (0: never): `PriorSettings::defence`.
    pub(crate) read_defences: u32,
    /// The positions the defence reading may read per group.
    pub(crate) defence_budget: u64,
    defence: DefenceReader,
    /// Per point index: our stones in danger that a safe turn through this
    /// point keeps (the defence reading's, `read_defences`).
    defends: Vec<u32>,
    /// Whether some point of `defends` is set.
    defended: bool,
    /// Scratch for the priors: the learned strength of each step.
    pub(crate) strengths: Vec<f32>,
}

/// Distances are counted up to this.
pub(crate) const FAR: u8 = 5;

impl Features {
    /// Analyses `pos` (any turn in progress included).
    pub(crate) fn compute(&mut self, pos: &Position) {
        let g = pos.geometry();
        let n = g.index_len();
        if self.group_of.len() < n {
            self.group_of.resize(n, NONE);
            self.lib_mark.resize(n, 0);
            self.distance.resize(n, FAR);
            self.capture_through.resize(n, 0);
            self.spoils.resize(n, 0);
            self.defends.resize(n, 0);
        }
        if self.line_board != Some(g) {
            self.line = lines(&g);
            self.line_board = Some(g);
        }
        self.groups.clear();
        for p in g.points() {
            self.group_of[p.index()] = NONE;
        }
        for p in g.points() {
            if self.group_of[p.index()] != NONE {
                continue;
            }
            if let Some(color) = pos.stone_at(p) {
                self.flood(pos, p, color);
            }
        }
        // The groups next to the last liberty of a group in atari, and the
        // groups whose liberties the side to move can all fill this turn.
        let mover = pos.side_to_move();
        for i in 0..self.groups.len() {
            let group = self.groups[i];
            let closable = !self.read_dangers
                && group.color != mover
                && (2..=KEPT_LIBERTIES as u32).contains(&group.libs)
                && self.closable(pos, &group);
            if group.libs != 1 && !closable {
                continue;
            }
            self.groups[i].closable = closable;
            for &l in group.kept() {
                for q in g.neighbours(l) {
                    if pos.stone_at(q) == Some(group.color.opponent()) {
                        let id = self.group_of[q.index()] as usize;
                        self.groups[id].capturer = true;
                    }
                }
            }
        }
        if self.read_dangers {
            self.read_dangers(pos);
        }
        self.read_defences(pos);
        self.distances(pos);
    }

    /// The groups in danger, read exactly: the opponent's, with the points
    /// of a turn of the mover that reverses each (our groups next to them
    /// are capturers); the mover's, flagged. Replaces the matching of
    /// `closable`, which takes a stone next to two of our groups for one
    /// growth of one of them.
    fn read_dangers(&mut self, pos: &Position) {
        let g = pos.geometry();
        for p in g.points() {
            self.capture_through[p.index()] = 0;
            self.spoils[p.index()] = 0;
        }
        let mover = pos.side_to_move();
        let balance = self.read_balance && pos.balance_available();
        let (groups, group_of, through, spoils) = (
            &mut self.groups,
            &self.group_of,
            &mut self.capture_through,
            &mut self.spoils,
        );
        self.reader
            .for_each_reversible(pos, mover.opponent(), |stone, turn| {
                let id = group_of[stone.index()] as usize;
                groups[id].in_danger = true;
                let size = groups[id].size;
                for &p in turn {
                    let placement = !g.neighbours(p).any(|q| pos.stone_at(q) == Some(mover));
                    if placement && balance {
                        // The placement that ends a balance turn: a growth
                        // next to it (not of the turn) makes it illegal.
                        for q in g.neighbours(p) {
                            if pos.stone_at(q).is_none() && !turn.contains(&q) {
                                spoils[q.index()] += size;
                            }
                        }
                        if turn.len() > 1 {
                            // It captures only after the growth before it
                            // (then the group is in atari there, which the
                            // priors see); played first it ends the turn
                            // and captures nothing.
                            continue;
                        }
                    }
                    through[p.index()] += size;
                    // Our groups that grow in the capture: growing elsewhere
                    // would throw it away.
                    for q in g.neighbours(p) {
                        if pos.stone_at(q) == Some(mover) {
                            groups[group_of[q.index()] as usize].capturer = true;
                        }
                    }
                }
            });
        self.reader.for_each_reversible(pos, mover, |stone, _| {
            let id = group_of[stone.index()] as usize;
            groups[id].in_danger = true;
        });
    }

    /// The defences of the mover's groups in danger (`read_defences` stones
    /// or more), at the start of a turn: every stone of a turn after which
    /// the opponent cannot reverse the group counts its stones in `defends`
    /// (the largest group it keeps).
    fn read_defences(&mut self, pos: &Position) {
        let g = pos.geometry();
        // Cleared only after a node that set some: with the reading off (the
        // default) this costs nothing per expansion.
        if self.defended {
            for p in g.points() {
                self.defends[p.index()] = 0;
            }
            self.defended = false;
        }
        if self.read_defences == 0 || !self.read_dangers || pos.turn_in_progress() {
            return;
        }
        let mover = pos.side_to_move();
        for i in 0..self.groups.len() {
            let group = self.groups[i];
            if group.color != mover || !group.in_danger || group.size < self.read_defences {
                continue;
            }
            let defences = self.defence.read(pos, group.first, self.defence_budget);
            for turn in &defences.safe {
                if let Turn::Stones(stones) = turn {
                    self.defended = true;
                    for p in stones {
                        let d = &mut self.defends[p.index()];
                        *d = (*d).max(group.size);
                    }
                }
            }
        }
    }

    /// Our stones in danger that a safe turn through p keeps.
    #[inline]
    pub(crate) fn defends(&self, p: Point) -> u32 {
        self.defends.get(p.index()).copied().unwrap_or(0)
    }

    /// The opponent stones that the witness turns through p reverse.
    #[inline]
    pub(crate) fn capture_through(&self, p: Point) -> u32 {
        if self.read_dangers {
            self.capture_through[p.index()]
        } else {
            0
        }
    }

    /// The opponent stones whose capture in this balance turn a growth on p
    /// would throw away (see `spoils`).
    #[inline]
    pub(crate) fn spoils(&self, p: Point) -> u32 {
        if self.read_dangers {
            self.spoils[p.index()]
        } else {
            0
        }
    }

    /// The group of the stone on p (by flood fill), with its liberties.
    fn flood(&mut self, pos: &Position, start: Point, color: Color) {
        let g = pos.geometry();
        let id = self.groups.len() as u32;
        self.token = self.token.wrapping_add(1);
        if self.token == 0 {
            self.lib_mark.fill(0);
            self.token = 1;
        }
        let token = self.token;
        let mut group = Group {
            first: start,
            color,
            size: 0,
            libs: 0,
            lib: [start; KEPT_LIBERTIES],
            capturer: false,
            closable: false,
            in_danger: false,
        };
        self.stack.clear();
        self.stack.push(start);
        self.group_of[start.index()] = id;
        while let Some(s) = self.stack.pop() {
            group.size += 1;
            for q in g.neighbours(s) {
                match pos.stone_at(q) {
                    None if self.lib_mark[q.index()] != token => {
                        self.lib_mark[q.index()] = token;
                        if (group.libs as usize) < KEPT_LIBERTIES {
                            group.lib[group.libs as usize] = q;
                        }
                        group.libs += 1;
                    }
                    Some(c) if c == color && self.group_of[q.index()] == NONE => {
                        self.group_of[q.index()] = id;
                        self.stack.push(q);
                    }
                    _ => {}
                }
            }
        }
        self.groups.push(group);
    }

    /// Whether the side to move can fill every liberty of `group` (all kept)
    /// by growth this turn: each liberty a growth step now, and the
    /// liberties matched to different groups of the mover's (a group grows
    /// once a turn).
    fn closable(&self, pos: &Position, group: &Group) -> bool {
        let g = pos.geometry();
        let libs = group.kept();
        // For each liberty, the mover's groups next to it (at most 6).
        let mut growers = [[NONE; 6]; KEPT_LIBERTIES];
        for (i, &l) in libs.iter().enumerate() {
            // An allowed growth, even one that leaves its group without a
            // liberty until the capture (docs/rules.md §7).
            if pos.check_step(l) != Ok(sygo_rules::StepKind::Growth) {
                return false;
            }
            let mut n = 0;
            for q in g.neighbours(l) {
                if pos.stone_at(q) == Some(group.color.opponent()) {
                    let id = self.group_of[q.index()];
                    if !growers[i][..n].contains(&id) {
                        growers[i][n] = id;
                        n += 1;
                    }
                }
            }
        }
        // A matching of liberties to distinct groups, by trying every
        // choice (at most 6^4).
        fn assign(growers: &[[u32; 6]], used: &mut [u32; KEPT_LIBERTIES], i: usize) -> bool {
            if i == growers.len() {
                return true;
            }
            for &id in growers[i].iter().take_while(|&&id| id != NONE) {
                if !used[..i].contains(&id) {
                    used[i] = id;
                    if assign(growers, used, i + 1) {
                        return true;
                    }
                }
            }
            false
        }
        assign(&growers[..libs.len()], &mut [NONE; KEPT_LIBERTIES], 0)
    }

    /// Breadth-first distances from every stone, up to [`FAR`].
    fn distances(&mut self, pos: &Position) {
        let g = pos.geometry();
        self.queue.clear();
        for p in g.points() {
            if pos.stone_at(p).is_some() {
                self.distance[p.index()] = 0;
                self.queue.push(p);
            } else {
                self.distance[p.index()] = FAR;
            }
        }
        let mut head = 0;
        while head < self.queue.len() {
            let p = self.queue[head];
            head += 1;
            let d = self.distance[p.index()] + 1;
            if d >= FAR {
                continue;
            }
            for q in g.neighbours(p) {
                if self.distance[q.index()] > d {
                    self.distance[q.index()] = d;
                    self.queue.push(q);
                }
            }
        }
    }

    /// The group of the stone on p.
    #[inline]
    pub(crate) fn group_at(&self, p: Point) -> Option<u32> {
        let id = self.group_of[p.index()];
        (id != NONE).then_some(id)
    }

    /// Distance from p to the nearest stone (0 on a stone), capped at [`FAR`].
    #[inline]
    pub(crate) fn distance(&self, p: Point) -> u8 {
        self.distance[p.index()]
    }

    /// p's line: 1 on the edge, 2 next to it, and so on.
    #[inline]
    pub(crate) fn line(&self, p: Point) -> u8 {
        self.line[p.index()]
    }
}

/// Each point's line on a board (1 on the edge).
fn lines(g: &Geometry) -> Vec<u8> {
    let mut line = vec![0; g.index_len()];
    let side = i32::from(g.side());
    let n = i32::from(g.size());
    for p in g.points() {
        let (c, r) = g.col_row(p);
        let (c, r) = (i32::from(c), i32::from(r));
        let l = match g.variant() {
            Variant::Sygo => c.min(r).min(side - 1 - c).min(side - 1 - r) + 1,
            Variant::Hexsygo => {
                // Hex distance from the centre cell (n − 1, n − 1).
                let (dc, dr) = (c - (n - 1), r - (n - 1));
                let d = dc.abs().max(dr.abs()).max((dc - dr).abs());
                n - d
            }
        };
        line[p.index()] = l as u8;
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_liberties_lines_and_distances() {
        let g = Geometry::sygo(5).unwrap();
        let at = |s: &str| g.parse_point(s).unwrap();
        // White A1 in atari at A2; Black B1–C1.
        let pos: Position = "sygo 5 5/5/5/5/WBB2 w g 0".parse().unwrap();
        let mut f = Features::default();
        f.compute(&pos);
        assert_eq!(f.groups.len(), 2);
        let white = f.groups[f.group_at(at("A1")).unwrap() as usize];
        assert_eq!((white.color, white.size, white.libs), (Color::White, 1, 1));
        assert_eq!(white.kept(), &[at("A2")]);
        let black = f.groups[f.group_at(at("C1")).unwrap() as usize];
        assert_eq!((black.size, black.libs), (2, 3));
        assert_eq!(f.group_at(at("C3")), None);
        assert_eq!(
            (f.line(at("A1")), f.line(at("B2")), f.line(at("C3"))),
            (1, 2, 3)
        );
        assert_eq!(
            (
                f.distance(at("B1")),
                f.distance(at("B2")),
                f.distance(at("E5"))
            ),
            (0, 1, 5)
        );
        let hex = Geometry::hexsygo(3).unwrap();
        let mut f = Features::default();
        f.compute(&Position::new(hex));
        let centre = hex.parse_point("C3").unwrap();
        assert_eq!(f.line(centre), 3);
        assert_eq!(f.line(hex.parse_point("A1").unwrap()), 1);
        assert_eq!(f.line(hex.parse_point("B2").unwrap()), 2);
    }
}

/// What a stone on a point would do, for the mover.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct StepFacts {
    /// Opponent stones it reverses.
    pub(crate) captures: u32,
    /// Opponent stones it puts in atari (groups with two liberties now).
    pub(crate) threatens: u32,
    /// Opponent stones of groups whose liberties can all be filled this
    /// turn, of which this is one.
    pub(crate) closes_in: u32,
    /// Our stones in atari next to it.
    pub(crate) rescues: u32,
    /// Liberties of its group afterwards (exact up to 4, else at least 4),
    /// ignoring captures.
    pub(crate) libs_after: u32,
    /// Every neighbour is a stone of ours (or the edge).
    pub(crate) own_eye: bool,
    /// Some neighbour is an opponent stone.
    pub(crate) contact: bool,
    /// It grows a group of ours that could capture elsewhere instead (a
    /// group grows once a turn).
    pub(crate) spends_capturer: bool,
    /// Opponent stones reversed by a turn through this point (the reading's
    /// witness turns: several of our groups growing together, a balance
    /// turn, a capture that keeps the captors alive).
    pub(crate) captures_with: u32,
    /// Our stones in danger (the opponent reverses them next turn) in the
    /// groups this stone grows.
    pub(crate) saves: u32,
    /// Opponent stones whose capture by the placement that ends Black's
    /// balance turn this stone, as a growth, would make impossible (it
    /// touches that placement's point).
    pub(crate) spoils: u32,
    /// Our stones in danger kept by a safe turn of the defence reading
    /// through this point (`Features::read_defences`).
    pub(crate) defends: u32,
    /// It leaves a group of ours without a liberty for a moment: the turn
    /// can end only after a capture later in it rescues the group (docs/rules.md
    /// §7; the search offers the stone only if one can). Such a stone is
    /// part of a capture: `captures_with` counts at least the stones that
    /// the rescue reverses.
    pub(crate) transient: bool,
}

/// The opponent stones that the turn through p reverses, where the stone
/// on p (a growth the search offers) leaves a group of `me` without a
/// liberty: p, then the rules library's completion of the turn
/// (`Position::turn_completion`). 0 if the turn cannot be completed.
fn rescue_captures(pos: &Position, p: Point, me: Color) -> u32 {
    let mut next = pos.clone();
    if next.play_step(p).is_err() {
        return 0;
    }
    let Some(rest) = next.turn_completion() else {
        return 0;
    };
    for q in rest {
        next.play_step_unchecked(q);
    }
    let them = me.opponent();
    pos.stone_count(them).saturating_sub(next.stone_count(them))
}

/// The facts of a stone of `me` on vacant p.
pub(crate) fn step_facts(pos: &Position, f: &Features, p: Point, me: Color) -> StepFacts {
    let g = pos.geometry();
    let mut facts = StepFacts::default();
    let mut own = [u32::MAX; 6];
    let mut theirs = [u32::MAX; 6];
    let (mut n_own, mut n_theirs, mut vacant) = (0, 0, 0);
    for q in g.neighbours(p) {
        match f.group_at(q) {
            None => vacant += 1,
            Some(id) => {
                if f.groups[id as usize].color == me {
                    if !own[..n_own].contains(&id) {
                        own[n_own] = id;
                        n_own += 1;
                    }
                } else if !theirs[..n_theirs].contains(&id) {
                    theirs[n_theirs] = id;
                    n_theirs += 1;
                }
            }
        }
    }
    for &id in &theirs[..n_theirs] {
        let group = &f.groups[id as usize];
        match group.libs {
            1 => facts.captures += group.size,
            2 => facts.threatens += group.size,
            _ => {}
        }
        if group.closable {
            facts.closes_in += group.size;
        }
    }
    facts.contact = n_theirs > 0;
    facts.captures_with = f.capture_through(p);
    if pos.eligible_step(p).is_none() {
        // Offered, yet its group has no liberty: a rescue follows.
        facts.transient = true;
        facts.captures_with = facts.captures_with.max(rescue_captures(pos, p, me));
    }
    facts.spoils = f.spoils(p);
    facts.defends = f.defends(p);
    facts.own_eye = vacant == 0 && n_theirs == 0;
    // Liberties afterwards: the union of our joined groups' liberties and
    // p's vacant neighbours, without p.
    let mut libs: [Point; 4 * KEPT_LIBERTIES + 6] = [p; 4 * KEPT_LIBERTIES + 6];
    let mut n_libs = 0;
    let mut many = false;
    let mut add = |q: Point| {
        if q != p && !libs[..n_libs].contains(&q) && n_libs < libs.len() {
            libs[n_libs] = q;
            n_libs += 1;
        }
    };
    for &id in &own[..n_own] {
        let group = &f.groups[id as usize];
        if group.libs == 1 {
            facts.rescues += group.size;
        }
        if group.in_danger {
            facts.saves += group.size;
        }
        facts.spends_capturer |= group.capturer;
        if group.libs as usize > KEPT_LIBERTIES {
            many = true;
        }
        group.kept().iter().for_each(|&q| add(q));
    }
    for q in g.neighbours(p) {
        if pos.stone_at(q).is_none() {
            add(q);
        }
    }
    facts.libs_after = if many {
        (n_libs as u32).max(KEPT_LIBERTIES as u32)
    } else {
        n_libs as u32
    };
    facts
}
