//! The generic search on toy games whose best moves are known: a pile game
//! (take 1 to 3; leave a multiple of 4) and tic-tac-toe (win now, or block).
//! Plain UCT, priors, RAVE, transpositions, reuse, the memory cap, threads,
//! the limits and proven results are each checked here, away from Sygo.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use sygo_ai::search::{
    Effort, GameState, Limits, Outcome, Policy, Prior, Search, SearchConfig, Trace,
    merged_children, run_parallel,
};

const MEMORY: usize = 16 << 20;

/// A tiny deterministic generator for the toy playouts.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

// ------------------------------------------------------------------ the pile

/// A pile of stones; a player takes 1, 2 or 3; whoever takes the last wins.
/// The winning move leaves a multiple of 4.
#[derive(Clone, Debug)]
struct Pile {
    stones: u32,
    to_act: usize,
}

impl GameState for Pile {
    type Action = u32;

    fn to_act(&self) -> usize {
        self.to_act
    }

    fn state_hash(&self) -> u64 {
        (u64::from(self.stones) << 1 | self.to_act as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn is_over(&self) -> bool {
        self.stones == 0
    }

    fn legal_actions(&self, out: &mut Vec<u32>) {
        out.extend((1..=3).filter(|&k| k <= self.stones));
    }

    fn apply(&mut self, k: u32) {
        self.stones -= k;
        self.to_act = 1 - self.to_act;
    }

    fn final_outcome(&self) -> Outcome {
        // The player to act faces an empty pile: the other one took the last.
        Outcome::from_margin(if self.to_act == 0 { -1.0 } else { 1.0 })
    }
}

/// Uniformly random playouts.
struct RandomPlayouts(Lcg);

impl<G: GameState> Policy<G> for RandomPlayouts {
    fn playout(&mut self, state: &mut G, _trace: &mut Trace) -> Outcome {
        let mut actions = Vec::new();
        while !state.is_over() {
            actions.clear();
            state.legal_actions(&mut actions);
            let a = actions[self.0.below(actions.len())];
            state.apply(a);
        }
        state.final_outcome()
    }
}

fn uct<G: GameState>(seed: u64) -> Search<G, RandomPlayouts> {
    Search::new(SearchConfig::uct(MEMORY), RandomPlayouts(Lcg(seed)), seed)
}

#[test]
fn uct_leaves_a_multiple_of_four() {
    for (stones, best) in [(5, 1), (6, 2), (7, 3), (10, 2), (13, 1)] {
        for seed in 0..3 {
            let mut search = uct(seed);
            search.set_root(&Pile { stones, to_act: 0 });
            search.run(&Limits::visits(3000));
            assert_eq!(
                search.best_action(),
                Some(best),
                "pile {stones}, seed {seed}"
            );
        }
    }
}

#[test]
fn transpositions_merge_the_orders_of_play() {
    // Taking 1 then 2 and 2 then 1 reach the same pile: one node with
    // transpositions, two without.
    let root = Pile {
        stones: 13,
        to_act: 0,
    };
    let mut config = SearchConfig::uct(MEMORY);
    let mut plain = Search::new(config.clone(), RandomPlayouts(Lcg(1)), 1);
    config.transpositions = true;
    let mut merged = Search::new(config, RandomPlayouts(Lcg(1)), 1);
    for search in [&mut plain, &mut merged] {
        search.set_root(&root);
        search.run(&Limits::visits(4000));
    }
    // A pile of 13 has 14 × 2 states at most.
    assert!(merged.tree_size().nodes <= 28, "{:?}", merged.tree_size());
    assert!(plain.tree_size().nodes > 100, "{:?}", plain.tree_size());
    assert_eq!(merged.best_action(), Some(1));
    assert_eq!(plain.best_action(), Some(1));
    // With transpositions, any state can be looked up by its hash.
    let after = Pile {
        stones: 10,
        to_act: 1,
    };
    assert!(merged.node_stats(after.state_hash()).is_some());
    assert!(plain.node_stats(after.state_hash()).is_none());
}

#[test]
fn reuse_keeps_the_subtree_below_the_new_root() {
    let mut config = SearchConfig::uct(MEMORY);
    config.transpositions = true;
    config.reuse = true;
    let mut search = Search::new(config, RandomPlayouts(Lcg(3)), 3);
    search.set_root(&Pile {
        stones: 15,
        to_act: 0,
    });
    search.run(&Limits::visits(3000));
    let before = search.tree_size().nodes;
    let next = Pile {
        stones: 12,
        to_act: 1,
    };
    let visits = search.node_stats(next.state_hash()).unwrap().visits;
    assert!(visits > 0);
    assert!(search.set_root(&next), "the tree holds the new root");
    assert_eq!(search.root_stats().visits, visits);
    // What lay above or beside the new root is freed.
    assert!(search.tree_size().nodes < before);
    // A state the tree does not hold starts a new tree.
    assert!(!search.set_root(&Pile {
        stones: 40,
        to_act: 0
    }));
    assert_eq!(search.tree_size().nodes, 1);
}

#[test]
fn a_full_tree_still_answers() {
    let mut config = SearchConfig::uct(MEMORY);
    config.max_nodes = 20;
    config.max_edges = 40;
    let mut search = Search::new(config, RandomPlayouts(Lcg(5)), 5);
    search.set_root(&Pile {
        stones: 9,
        to_act: 0,
    });
    assert_eq!(search.run(&Limits::visits(5000)), 5000);
    assert!(search.tree_size().nodes <= 20 && search.tree_size().edges <= 40);
    assert_eq!(search.best_action(), Some(1));
}

#[test]
fn threads_share_the_visits_and_their_trees_merge() {
    let mut searches: Vec<_> = (0..2).map(uct::<Pile>).collect();
    let root = Pile {
        stones: 11,
        to_act: 0,
    };
    for s in &mut searches {
        s.set_root(&root);
    }
    assert_eq!(run_parallel(&mut searches, &Limits::visits(4000)), 4000);
    let children = merged_children(&searches, &[]);
    let total: u64 = children.iter().map(|c| c.visits).sum();
    // The root's first visit goes to the root alone, in each tree.
    assert_eq!(total, 4000 - 2);
    let best = children.iter().max_by_key(|c| c.visits).unwrap();
    assert_eq!(best.action, 3);
}

#[test]
fn a_run_stops_at_its_deadline_or_its_flag() {
    let mut search = uct::<Pile>(9);
    search.set_root(&Pile {
        stones: 400,
        to_act: 0,
    });
    let start = Instant::now();
    search.run(&Limits::time(Duration::from_millis(30)));
    let elapsed = start.elapsed();
    assert!(elapsed >= Duration::from_millis(30), "{elapsed:?}");
    // Without its deadline the run would go on for ever: any bound a
    // loaded machine keeps shows that it stopped.
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
    // A raised flag stops an unlimited run at once.
    let stop = Arc::new(AtomicBool::new(true));
    let limits = Limits {
        stop: Some(stop),
        ..Limits::default()
    };
    assert_eq!(search.run(&limits), 0);
    // No limit at all: nothing runs (it would never end).
    assert_eq!(search.run(&Limits::default()), 0);
}

// ---------------------------------------------------------- proven results

fn proving(transpositions: bool, prove_effort: u64) -> SearchConfig {
    let mut config = SearchConfig::uct(MEMORY);
    config.transpositions = transpositions;
    config.proofs = true;
    config.prove_effort = prove_effort;
    config
}

/// A proving search (no policy proofs) of a pile of `stones`, after 3,000
/// simulations.
fn proven_pile(stones: u32, transpositions: bool, seed: u64) -> Search<Pile, RandomPlayouts> {
    let config = proving(transpositions, 0);
    let mut search = Search::new(config, RandomPlayouts(Lcg(seed)), seed);
    search.set_root(&Pile { stones, to_act: 0 });
    search.run(&Limits::visits(3000));
    search
}

#[test]
fn the_ends_of_the_game_prove_a_small_pile() {
    // From 7, taking 3 wins: the tree reaches the ends of the game and
    // proves it, with or without transpositions, and then takes nothing
    // else (taking 1 or 2 loses).
    for transpositions in [false, true] {
        let search = proven_pile(7, transpositions, 7);
        assert_eq!(search.root_stats().proven_result(0), Some(1.0));
        assert_eq!(search.root_stats().result_or_win_rate(1), 0.0);
        for c in search.root_children() {
            if c.action == 3 {
                assert_eq!(c.proven, Some(1.0));
            } else {
                assert!(c.proven.is_none_or(|r| r == 0.0), "{c:?}");
            }
        }
        assert_eq!(search.best_action(), Some(3));
    }
    // From 8 every turn loses: the root is proven lost, and the search goes
    // on below it (its simulations, not the proof, say which loss is best).
    let mut search = proven_pile(8, true, 8);
    assert_eq!(search.root_stats().proven_result(0), Some(0.0));
    let visits = |search: &Search<Pile, RandomPlayouts>| -> u64 {
        search.root_children().iter().map(|c| c.visits).sum()
    };
    let before = visits(&search);
    search.run(&Limits::visits(500));
    assert_eq!(visits(&search), before + 500);
    assert_eq!(search.root_stats().proven_result(0), Some(0.0));
    // Without proofs nothing is proven, and the win rate is the playouts'.
    let mut search = uct(7);
    search.set_root(&Pile {
        stones: 7,
        to_act: 0,
    });
    search.run(&Limits::visits(3000));
    assert_eq!(search.root_stats().proven_result(0), None);
    assert!(search.root_children().iter().all(|c| c.proven.is_none()));
}

/// Random playouts, and exact results of piles of at most 8 stones (the
/// player to act loses on a multiple of 4); counts the questions.
struct SmallPiles {
    playouts: RandomPlayouts,
    asked: u32,
}

impl Policy<Pile> for SmallPiles {
    fn playout(&mut self, state: &mut Pile, trace: &mut Trace) -> Outcome {
        self.playouts.playout(state, trace)
    }

    fn prove(&mut self, state: &Pile, _effort: &Effort) -> Option<f32> {
        self.asked += 1;
        if state.stones > 8 {
            return None;
        }
        let mover_wins = state.stones % 4 != 0;
        Some(if mover_wins == (state.to_act == 0) {
            1.0
        } else {
            0.0
        })
    }
}

/// A search of a pile of 11 with [`SmallPiles`] and this prove effort.
fn from_eleven(prove_effort: u64) -> Search<Pile, SmallPiles> {
    let policy = SmallPiles {
        playouts: RandomPlayouts(Lcg(11)),
        asked: 0,
    };
    let mut search = Search::new(proving(true, prove_effort), policy, 11);
    search.set_root(&Pile {
        stones: 11,
        to_act: 0,
    });
    search
}

#[test]
fn the_policy_proves_leaves_and_the_proofs_go_up() {
    // From 11 the tree meets piles of 8 to 10 after one turn, and the
    // policy proves those of 8 or less: taking 3 (leaving 8) wins, which
    // proves the root.
    let mut search = from_eleven(1);
    search.run(&Limits::visits(2000));
    assert_eq!(search.root_stats().proven_result(0), Some(1.0));
    assert_eq!(search.best_action(), Some(3));
    assert!(search.policy().asked > 0);
    let take_three = search.root_children().into_iter().find(|c| c.action == 3);
    assert_eq!(take_three.unwrap().proven, Some(1.0));
    // Below a proven node (not the root) a simulation ends there: the
    // children of the pile of 8 gain no visits.
    let eight = Pile {
        stones: 8,
        to_act: 1,
    };
    let below = |search: &Search<Pile, SmallPiles>| -> u64 {
        search
            .children(eight.state_hash())
            .iter()
            .map(|c| c.visits)
            .sum()
    };
    let before = below(&search);
    search.run(&Limits::visits(500));
    assert_eq!(below(&search), before);
    // Without a prove effort the policy is never asked.
    let mut search = from_eleven(0);
    search.run(&Limits::visits(200));
    assert_eq!(search.policy().asked, 0);
}

/// Two branches: at the root player 0 chooses 0 or 1, then forced moves
/// (`ends[b].0` of them after branch b) end the game with player 0's margin
/// `ends[b].1`.
#[derive(Clone, Debug)]
struct TwoBranches {
    branch: Option<u32>,
    depth: u32,
    ends: [(u32, f32); 2],
}

impl TwoBranches {
    fn root(ends: [(u32, f32); 2]) -> TwoBranches {
        TwoBranches {
            branch: None,
            depth: 0,
            ends,
        }
    }
}

impl GameState for TwoBranches {
    type Action = u32;

    fn to_act(&self) -> usize {
        (self.depth % 2) as usize
    }

    fn state_hash(&self) -> u64 {
        let branch = self.branch.map_or(0, |b| b + 1);
        (u64::from(self.depth) << 2 | u64::from(branch)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn is_over(&self) -> bool {
        self.branch
            .is_some_and(|b| self.depth > self.ends[b as usize].0)
    }

    fn legal_actions(&self, out: &mut Vec<u32>) {
        match self.branch {
            None => out.extend([0, 1]),
            Some(_) => out.push(0),
        }
    }

    fn apply(&mut self, action: u32) {
        self.branch.get_or_insert(action);
        self.depth += 1;
    }

    fn final_outcome(&self) -> Outcome {
        Outcome::from_margin(self.ends[self.branch.unwrap_or(0) as usize].1)
    }
}

/// A trap: after 0, player 0 loses by 1; after 1 the game is drawn; each
/// 1,000 forced moves away (too far for the tree to reach in the test).
const TRAP: [(u32, f32); 2] = [(1000, -1.0), (1000, 0.0)];

/// Playouts that say 0 always wins and 1 draws; the policy proves the
/// state after 0 lost only when offered work for 64 visits of it.
struct Liar {
    asked: u32,
}

impl Policy<TwoBranches> for Liar {
    fn playout(&mut self, state: &mut TwoBranches, _trace: &mut Trace) -> Outcome {
        Outcome::from_margin(if state.branch == Some(0) { 1.0 } else { 0.0 })
    }

    fn prove(&mut self, state: &TwoBranches, effort: &Effort) -> Option<f32> {
        self.asked += 1;
        (state.branch == Some(0) && state.depth == 1 && effort.work >= 64).then_some(0.0)
    }
}

#[test]
fn a_proven_loss_is_never_the_answer_whatever_its_visits() {
    let mut config = proving(true, 1);
    // Little exploration: the trap, at 100% in its playouts, takes nearly
    // every simulation until it is proven.
    config.exploration = 0.1;
    let mut search = Search::new(config, Liar { asked: 0 }, 3);
    search.set_root(&TwoBranches::root(TRAP));
    search.run(&Limits::visits(100));
    let children = search.root_children();
    let trap = children.iter().find(|c| c.action == 0).unwrap();
    let other = children.iter().find(|c| c.action == 1).unwrap();
    // The trap took the visits until it was proven lost at its 65th (the
    // question comes when a node has had 64)...
    assert_eq!(trap.visits, 65);
    assert_eq!(trap.proven, Some(0.0));
    assert!(other.visits < trap.visits);
    // ... and then none: every later simulation went to the other.
    assert_eq!(trap.visits + other.visits, 99);
    assert_eq!(search.best_action(), Some(1));
    assert_eq!(search.principal_variation(1, 1), [1]);
    // The root is not proven: the other branch is not (its draw is only
    // the playouts' word).
    assert_eq!(search.root_stats().proven_result(0), None);
    assert!(search.policy().asked >= 6, "at 2, 4, ..., 64 visits");
}

/// Two ways to lose: turn 0 loses by 5 after ten forced turns, turn 1 by 1
/// after two.
const TWO_LOSSES: [(u32, f32); 2] = [(10, -5.0), (2, -1.0)];

/// Playouts that flatter turn 0 (a win) until the tree reaches its end.
struct Flatterer;

impl Policy<TwoBranches> for Flatterer {
    fn playout(&mut self, state: &mut TwoBranches, _trace: &mut Trace) -> Outcome {
        Outcome::from_margin(if state.branch == Some(0) { 1.0 } else { -1.0 })
    }
}

#[test]
fn a_lost_root_searches_on_for_the_smallest_loss() {
    let mut config = proving(true, 0);
    config.exploration = 0.1;
    config.margin_weight = 0.5;
    let mut search = Search::new(config, Flatterer, 5);
    search.set_root(&TwoBranches::root(TWO_LOSSES));
    // The flattered turn takes the visits until its end is reached and
    // proven lost; then the other is proven lost too, and so is the root.
    search.run(&Limits::visits(40));
    assert_eq!(search.root_stats().proven_result(0), Some(0.0));
    let visits_of = |search: &Search<TwoBranches, Flatterer>, action: u32| -> u64 {
        let children = search.root_children();
        children.iter().find(|c| c.action == action).unwrap().visits
    };
    assert!(visits_of(&search, 0) > visits_of(&search, 1));
    // The search goes on, and the margins make the loss by 1 the turn
    // played, though the loss by 5 had more visits when the root was
    // proven.
    search.run(&Limits::visits(1000));
    assert!(visits_of(&search, 1) > 2 * visits_of(&search, 0));
    assert_eq!(search.best_action(), Some(1));
    assert_eq!(search.root_stats().proven_result(0), Some(0.0));
}

// ------------------------------------------------------------- tic-tac-toe

/// Tic-tac-toe: cells 0–8 row by row; player 0 is X and moves first.
#[derive(Clone, Debug)]
struct TicTacToe {
    cells: [u8; 9], // 0 empty, 1 X, 2 O
    to_act: usize,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl TicTacToe {
    /// A board from a picture: `X`, `O`, `.` row by row.
    fn from(picture: &str, to_act: usize) -> TicTacToe {
        let mut cells = [0; 9];
        for (i, c) in picture.chars().filter(|c| !c.is_whitespace()).enumerate() {
            cells[i] = match c {
                'X' => 1,
                'O' => 2,
                _ => 0,
            };
        }
        TicTacToe { cells, to_act }
    }

    fn winner(&self) -> Option<usize> {
        LINES.iter().find_map(|l| {
            let c = self.cells[l[0]];
            (c != 0 && c == self.cells[l[1]] && c == self.cells[l[2]]).then(|| usize::from(c) - 1)
        })
    }
}

impl GameState for TicTacToe {
    type Action = u8;

    fn to_act(&self) -> usize {
        self.to_act
    }

    fn state_hash(&self) -> u64 {
        let mut h = self.to_act as u64;
        for c in self.cells {
            h = h * 3 + u64::from(c);
        }
        h.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn is_over(&self) -> bool {
        self.winner().is_some() || self.cells.iter().all(|&c| c != 0)
    }

    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.extend((0..9).filter(|&i| self.cells[usize::from(i)] == 0));
    }

    fn apply(&mut self, cell: u8) {
        self.cells[usize::from(cell)] = self.to_act as u8 + 1;
        self.to_act = 1 - self.to_act;
    }

    fn final_outcome(&self) -> Outcome {
        match self.winner() {
            Some(0) => Outcome::from_margin(1.0),
            Some(_) => Outcome::from_margin(-1.0),
            None => Outcome::from_margin(0.0),
        }
    }
}

/// Random playouts that record their moves for AMAF, and a prior that
/// likes the centre: the knowledge hooks of a real policy.
struct Knowing(Lcg);

impl Policy<TicTacToe> for Knowing {
    fn expand(&mut self, state: &TicTacToe, out: &mut Vec<(u8, Prior)>) {
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        out.extend(actions.into_iter().map(|a| {
            let value = if a == 4 { 0.7 } else { 0.5 };
            (a, Prior { value, weight: 5.0 })
        }));
    }

    fn playout(&mut self, state: &mut TicTacToe, trace: &mut Trace) -> Outcome {
        let mut actions = Vec::new();
        while !state.is_over() {
            actions.clear();
            state.legal_actions(&mut actions);
            let a = actions[self.0.below(actions.len())];
            trace.record(state.to_act(), u32::from(a));
            state.apply(a);
        }
        state.final_outcome()
    }

    fn amaf_key(&self, action: u8) -> Option<u32> {
        Some(u32::from(action))
    }

    fn amaf_keys(&self) -> usize {
        9
    }
}

/// Positions with one right answer: (picture, player to act, answer).
const TACTICS: [(&str, usize, u8); 4] = [
    // X wins at once on the top row.
    ("XX. OO. ...", 0, 2),
    // O must block X's diagonal (O to act).
    ("X.. .X. O..", 1, 8),
    // O wins at once down the middle column, rather than blocking.
    ("XOX .O. X..", 1, 7),
    // X must block O's middle row.
    ("X.. OO. X..", 0, 5),
];

#[test]
fn uct_wins_and_blocks_at_tic_tac_toe() {
    for (picture, to_act, answer) in TACTICS {
        let mut search = uct(1);
        search.set_root(&TicTacToe::from(picture, to_act));
        search.run(&Limits::visits(3000));
        assert_eq!(search.best_action(), Some(answer), "{picture}");
    }
}

#[test]
fn priors_rave_and_transpositions_find_the_same_answers() {
    let config = SearchConfig {
        exploration: 0.3,
        rave_equivalence: Some(200.0),
        margin_weight: 0.1,
        margin_scale: 1.0,
        static_weight: 0.0,
        transpositions: true,
        reuse: true,
        expand_after: 2,
        widening: None,
        proofs: false,
        prove_effort: 0,
        decided: false,
        decided_root: false,
        decided_read: false,
        max_nodes: 0,
        max_edges: 0,
    }
    .with_memory(MEMORY);
    for (picture, to_act, answer) in TACTICS {
        let mut search = Search::new(config.clone(), Knowing(Lcg(2)), 2);
        search.set_root(&TicTacToe::from(picture, to_act));
        search.run(&Limits::visits(3000));
        assert_eq!(search.best_action(), Some(answer), "{picture}");
        // RAVE statistics were gathered at the root.
        assert!(search.root_children().iter().all(|c| c.rave_visits > 0));
    }
    // From the empty board, perfect play draws: the value nears one half and
    // the search opens in the centre or a corner.
    let mut search = Search::new(config, Knowing(Lcg(4)), 4);
    search.set_root(&TicTacToe::from(".........", 0));
    search.run(&Limits::visits(20000));
    assert!([0, 2, 4, 6, 8].contains(&search.best_action().unwrap()));
    let pv = search.principal_variation(9, 1);
    assert!(pv.len() >= 3, "{pv:?}");
}
