//! What a match has shown so far, from player A's point of view: results by
//! colour and by pair, score margins, game lengths, time, resignations and
//! forfeits, and the statistics drawn from them.

use std::collections::HashMap;

use sygo_rules::Color;

use crate::game::{GameEnd, GameReport, GameResult, Side, SideTime};
use crate::stats::{EloEstimate, Pentanomial, Sprt, SprtStatus, Tally};

/// A forfeit, as the summary lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForfeitNote {
    /// The game's number.
    pub game: usize,
    /// Who forfeited.
    pub side: Side,
    /// Why, in words.
    pub reason: String,
}

/// The results of a match so far (games may arrive in any order).
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// A's wins, losses and draws.
    pub tally: Tally,
    /// A's results with White (who moves first).
    pub as_white: Tally,
    /// A's results with Black.
    pub as_black: Tally,
    /// Pairs of games from the same opening, by A's points over the pair.
    pub pentanomial: Pentanomial,
    /// A's points in the first finished game of each pair still waiting for
    /// its other game.
    pending: HashMap<usize, f64>,
    /// A's score minus B's in each game the score decided.
    pub margins: Vec<i64>,
    /// The number of turns of each game, the opening's included.
    pub lengths: Vec<usize>,
    /// Resignations by A and by B.
    pub resignations: [u64; 2],
    /// Every forfeit.
    pub forfeits: Vec<ForfeitNote>,
    /// Time spent by A and by B.
    pub time: [SideTime; 2],
}

impl Summary {
    /// Counts a finished game.
    pub fn add(&mut self, report: &GameReport) {
        let result = report.result();
        for tally in [
            &mut self.tally,
            if report.a_color == Color::White {
                &mut self.as_white
            } else {
                &mut self.as_black
            },
        ] {
            match result {
                GameResult::Win => tally.wins += 1,
                GameResult::Loss => tally.losses += 1,
                GameResult::Draw => tally.draws += 1,
            }
        }
        match self.pending.remove(&report.pair()) {
            Some(first) => self.pentanomial.add(first + result.points()),
            None => {
                self.pending.insert(report.pair(), result.points());
            }
        }
        self.margins.extend(report.margin());
        self.lengths.push(report.game.turns().len());
        match &report.end {
            GameEnd::Resignation { winner } => {
                self.resignations[report.side_of(winner.opponent()).index()] += 1;
            }
            GameEnd::Forfeit { loser, reason } => self.forfeits.push(ForfeitNote {
                game: report.index,
                side: report.side_of(*loser),
                reason: reason.to_string(),
            }),
            GameEnd::Score(_) => {}
        }
        for side in 0..2 {
            self.time[side].merge(&report.time[side]);
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.tally.games()
    }

    /// The Elo difference of A over B with its 95% interval; `None` before
    /// any game.
    pub fn elo(&self) -> Option<EloEstimate> {
        EloEstimate::of(&self.tally)
    }

    /// Where a test stands: on the pairs of games finished (pentanomial), or
    /// on single games (trinomial) while no pair is.
    pub fn sprt(&self, sprt: &Sprt) -> SprtStatus {
        if self.pentanomial.pairs() > 0 {
            sprt.status(&self.pentanomial.0)
        } else {
            sprt.status(&self.tally.trinomial())
        }
    }

    /// Forfeits by one side.
    pub fn forfeits_by(&self, side: Side) -> usize {
        self.forfeits.iter().filter(|f| f.side == side).count()
    }
}

/// The shape of a list of numbers: mean, standard deviation, quantiles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Distribution {
    /// How many numbers.
    pub count: usize,
    /// Their mean.
    pub mean: f64,
    /// Their standard deviation (of the population).
    pub sd: f64,
    /// The smallest.
    pub min: f64,
    /// The 10% quantile.
    pub p10: f64,
    /// The 25% quantile.
    pub q1: f64,
    /// The median.
    pub median: f64,
    /// The 75% quantile.
    pub q3: f64,
    /// The 90% quantile.
    pub p90: f64,
    /// The largest.
    pub max: f64,
}

impl Distribution {
    /// The distribution of `values`; `None` when there are none. Quantiles
    /// interpolate linearly between the sorted values.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Option<Distribution> {
        let mut sorted: Vec<f64> = values.into_iter().collect();
        if sorted.is_empty() {
            return None;
        }
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let mean = sorted.iter().sum::<f64>() / n as f64;
        let sd = (sorted.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n as f64).sqrt();
        let quantile = |q: f64| {
            let at = q * (n - 1) as f64;
            let (below, frac) = (at.floor() as usize, at.fract());
            let above = (below + 1).min(n - 1);
            sorted[below] + (sorted[above] - sorted[below]) * frac
        };
        Some(Distribution {
            count: n,
            mean,
            sd,
            min: sorted[0],
            p10: quantile(0.1),
            q1: quantile(0.25),
            median: quantile(0.5),
            q3: quantile(0.75),
            p90: quantile(0.9),
            max: sorted[n - 1],
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::*;

    #[test]
    fn distribution_of_known_values() {
        let d = Distribution::of([1.0, 2.0, 3.0, 4.0, 5.0].into_iter().rev()).unwrap();
        assert_eq!(
            (d.count, d.mean, d.min, d.median, d.max),
            (5, 3.0, 1.0, 3.0, 5.0)
        );
        assert_eq!((d.q1, d.q3), (2.0, 4.0));
        assert!((d.p10 - 1.4).abs() < 1e-12);
        assert!((d.sd - 2f64.sqrt()).abs() < 1e-12);
        assert_eq!(Distribution::of(std::iter::empty()), None);
        let one = Distribution::of([7.0]).unwrap();
        assert_eq!((one.min, one.median, one.max, one.sd), (7.0, 7.0, 7.0, 0.0));
    }
}
