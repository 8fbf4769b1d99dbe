//! Ratings (docs/web.md, "Ratings"): one Glicko-2 rating per account and
//! board family (Sygo, Hexsygo), from the `skillratings` crate, updated by
//! every rated game between two accounts when it ends — in the same
//! database transaction as the turn that ends it, with one row per player
//! and game (`rating_changes`, keyed by game and account), so that no game
//! counts twice. A rating is provisional while its deviation is above
//! [`PROVISIONAL_DEVIATION`].

use std::collections::HashMap;

use parking_lot::RwLock;
use serde::Serialize;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use sygo_rules::{Color, Variant};

use crate::time::rfc3339;

/// Above this deviation a rating is shown as provisional (`1500?`).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A board family: each has its own ratings.
pub(crate) fn family(variant: Variant) -> &'static str {
    variant.name()
}

/// A rating as stored and shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rating {
    pub glicko: Glicko2Rating,
    /// Rated games played.
    pub games: u32,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            glicko: Glicko2Rating::new(),
            games: 0,
        }
    }
}

/// A rating as the API writes it.
#[derive(Serialize, Clone, Debug)]
pub(crate) struct RatingView {
    pub rating: f64,
    pub deviation: f64,
    pub provisional: bool,
    pub games: u32,
}

impl Rating {
    pub(crate) fn view(&self) -> RatingView {
        RatingView {
            rating: self.glicko.rating.round(),
            deviation: self.glicko.deviation.round(),
            provisional: self.glicko.deviation > PROVISIONAL_DEVIATION,
            games: self.games,
        }
    }
}

/// A player's rating after a rated game: a row of `rating_changes`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RatingChange {
    pub game_id: String,
    pub account_id: i64,
    pub family: String,
    /// The player's result: 1 a win, 0.5 a draw, 0 a loss.
    pub score: f64,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played after this one.
    pub games: u32,
    /// Unix milliseconds.
    pub at: i64,
}

/// A point of a player's rating history.
#[derive(Serialize, Clone, Debug)]
pub(crate) struct HistoryPoint {
    pub at: String,
    pub rating: f64,
    pub game: String,
}

/// A player's rating in a family and the changes that made it, oldest
/// first, by (account, family).
type ByPlayer = HashMap<(i64, String), (Rating, Vec<RatingChange>)>;

#[cfg(test)]
impl RatingChange {
    /// A win in a Sygo game, the account's first rated game, for tests.
    pub(crate) fn for_test(game_id: &str, account_id: i64) -> RatingChange {
        RatingChange {
            game_id: game_id.to_string(),
            account_id,
            family: "sygo".to_string(),
            score: 1.0,
            rating: 1600.0,
            deviation: 300.0,
            volatility: 0.06,
            games: 1,
            at: 5,
        }
    }
}

/// Every rating and its history, in memory.
#[derive(Default)]
pub(crate) struct Ratings {
    inner: RwLock<ByPlayer>,
    /// Held while a game's rating changes are worked out and committed, so
    /// that two games of one player ending together both count.
    pub applying: tokio::sync::Mutex<()>,
    /// The accounts whose ratings changed here, for the reads of accounts
    /// changed elsewhere (`touched.rs`).
    pub touched: crate::touched::Touched,
}

impl Ratings {
    /// The ratings from their changes as stored (in order of time).
    pub(crate) fn load(changes: Vec<RatingChange>) -> Ratings {
        let ratings = Ratings::default();
        ratings.replace(changes);
        ratings
    }

    /// Replaces every rating (after another program changed them).
    pub(crate) fn replace(&self, changes: Vec<RatingChange>) {
        let mut map = ByPlayer::new();
        add_changes(&mut map, changes);
        *self.inner.write() = map;
    }

    /// Replaces the ratings of the accounts `ids` in every family with
    /// `changes`, their changes as stored now (another server changed
    /// them): `changes` holds those accounts' changes only.
    pub(crate) fn replace_of(&self, ids: &[i64], changes: Vec<RatingChange>) {
        let ids: std::collections::HashSet<i64> = ids.iter().copied().collect();
        let mut map = self.inner.write();
        map.retain(|(account, _), _| !ids.contains(account));
        add_changes(&mut map, changes);
    }

    /// A player's rating in a family (the starting rating if none).
    pub(crate) fn get(&self, account: i64, family: &str) -> Rating {
        self.inner
            .read()
            .get(&(account, family.to_string()))
            .map(|(r, _)| *r)
            .unwrap_or_default()
    }

    /// A player's rating history in a family, oldest first.
    pub(crate) fn history(&self, account: i64, family: &str) -> Vec<HistoryPoint> {
        self.inner
            .read()
            .get(&(account, family.to_string()))
            .map(|(_, h)| {
                h.iter()
                    .map(|c| HistoryPoint {
                        at: rfc3339(c.at),
                        rating: c.rating.round(),
                        game: c.game_id.clone(),
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The changes a rated game between `accounts` (by colour) makes when it
    /// ends with `winner` (`None`: a draw) at `at`.
    pub(crate) fn changes_for(
        &self,
        game_id: &str,
        family: &str,
        accounts: [i64; 2],
        winner: Option<Color>,
        at: i64,
    ) -> Vec<RatingChange> {
        let [black, white] = accounts.map(|a| self.get(a, family));
        let outcome = match winner {
            Some(Color::Black) => Outcomes::WIN,
            Some(Color::White) => Outcomes::LOSS,
            None => Outcomes::DRAW,
        };
        let (b, w) = glicko2(
            &black.glicko,
            &white.glicko,
            &outcome,
            &Glicko2Config::new(),
        );
        let score = |c: Color| match winner {
            None => 0.5,
            Some(w) if w == c => 1.0,
            Some(_) => 0.0,
        };
        [
            (Color::Black, b, black.games),
            (Color::White, w, white.games),
        ]
        .into_iter()
        .map(|(c, g, games)| RatingChange {
            game_id: game_id.to_string(),
            account_id: accounts[c.index()],
            family: family.to_string(),
            score: score(c),
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
            games: games + 1,
            at,
        })
        .collect()
    }

    /// Adds changes (committed already).
    pub(crate) fn apply(&self, changes: &[RatingChange]) {
        let mut inner = self.inner.write();
        for c in changes {
            add_change(&mut inner, c.clone());
        }
        self.touched.touch(changes.iter().map(|c| c.account_id));
    }

    /// The rated players of a family, best first: (account, rating).
    pub(crate) fn table(&self, family: &str) -> Vec<(i64, Rating)> {
        let mut all: Vec<(i64, Rating)> = self
            .inner
            .read()
            .iter()
            .filter(|((_, f), _)| f == family)
            .map(|((a, _), (r, _))| (*a, *r))
            .collect();
        all.sort_by(|a, b| b.1.glicko.rating.total_cmp(&a.1.glicko.rating));
        all
    }
}

/// Every rating again from the rated games' results, in order of time,
/// leaving out the annulled games: what `sygo admin annul` writes back.
/// `results`: (game, family, [black account, white account], black's score,
/// time), in any order. The changes of each game, in order.
pub(crate) fn recompute(
    mut results: Vec<(String, String, [i64; 2], f64, i64)>,
) -> Vec<RatingChange> {
    results.sort_by(|a, b| (a.4, &a.0).cmp(&(b.4, &b.0)));
    let ratings = Ratings::default();
    let mut all = Vec::new();
    for (game, family, accounts, black_score, at) in results {
        let winner = if black_score > 0.5 {
            Some(Color::Black)
        } else if black_score < 0.5 {
            Some(Color::White)
        } else {
            None
        };
        let changes = ratings.changes_for(&game, &family, accounts, winner, at);
        ratings.apply(&changes);
        all.extend(changes);
    }
    all
}

/// Adds stored rating changes to `map`, oldest first: each player's rating
/// is that of their latest change, and their history the changes in order.
fn add_changes(map: &mut ByPlayer, mut changes: Vec<RatingChange>) {
    changes.sort_by_key(|c| c.at);
    for c in changes {
        add_change(map, c);
    }
}

/// Adds one change, the player's latest: their rating becomes its, and it
/// ends their history.
fn add_change(map: &mut ByPlayer, c: RatingChange) {
    let entry = map.entry((c.account_id, c.family.clone())).or_default();
    entry.0 = Rating {
        glicko: Glicko2Rating {
            rating: c.rating,
            deviation: c.deviation,
            volatility: c.volatility,
        },
        games: c.games,
    };
    entry.1.push(c);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_raises_the_winner_and_lowers_the_loser_and_deviation_shrinks() {
        let r = Ratings::default();
        let c = r.changes_for("g1", "sygo", [1, 2], Some(Color::Black), 10);
        assert_eq!(c.len(), 2);
        assert!(c[0].rating > 1500.0 && c[1].rating < 1500.0);
        assert!(
            (c[0].rating - 1500.0 + (c[1].rating - 1500.0)).abs() < 1e-6,
            "symmetric"
        );
        assert!(c[0].deviation < 350.0);
        assert_eq!((c[0].score, c[1].score), (1.0, 0.0));
        r.apply(&c);
        assert_eq!(r.get(1, "sygo").games, 1);
        assert!(r.get(1, "sygo").view().provisional);
        assert_eq!(r.get(1, "hexsygo").games, 0, "one rating per family");
        assert_eq!(r.table("sygo")[0].0, 1);
        assert_eq!(r.history(2, "sygo").len(), 1);
        let d = r.changes_for("g2", "sygo", [1, 2], None, 20);
        assert!(
            d[0].rating < c[0].rating,
            "a draw against a weaker player costs"
        );
    }

    #[test]
    fn the_ratings_of_accounts_read_again_replace_theirs_only() {
        let r = Ratings::default();
        let first = r.changes_for("g1", "sygo", [1, 2], Some(Color::Black), 10);
        r.apply(&first);
        let other = r.changes_for("g2", "hexsygo", [1, 3], Some(Color::White), 20);
        r.apply(&other);
        // Account 1's as stored: g1 only (g2 annulled), and a later game.
        let later = r.changes_for("g3", "sygo", [4, 1], None, 30);
        let stored = vec![later[1].clone(), first[0].clone()];
        r.replace_of(&[1], stored);
        assert_eq!(r.get(1, "sygo").games, later[1].games);
        assert_eq!(
            r.history(1, "sygo")
                .iter()
                .map(|p| p.game.as_str())
                .collect::<Vec<_>>(),
            ["g1", "g3"],
            "oldest first"
        );
        assert_eq!(r.get(1, "hexsygo").games, 0, "g2's gone");
        assert_eq!(r.get(2, "sygo").games, 1, "the others' kept");
        assert_eq!(r.get(3, "hexsygo").games, 1);
    }

    #[test]
    fn many_games_make_a_rating_established_and_recomputing_agrees() {
        let r = Ratings::default();
        let mut results = Vec::new();
        for i in 0..30 {
            let winner = if i % 3 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let c = r.changes_for(&format!("g{i}"), "sygo", [1, 2], Some(winner), i);
            r.apply(&c);
            let black_score = if winner == Color::Black { 1.0 } else { 0.0 };
            results.push((format!("g{i}"), "sygo".to_string(), [1, 2], black_score, i));
        }
        assert!(!r.get(1, "sygo").view().provisional);
        assert!(r.get(1, "sygo").glicko.rating > r.get(2, "sygo").glicko.rating);
        let again = recompute(results);
        let last = again.iter().rev().find(|c| c.account_id == 1).unwrap();
        assert!((last.rating - r.get(1, "sygo").glicko.rating).abs() < 1e-9);
    }
}
