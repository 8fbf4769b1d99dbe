//! The statistics of a match: the Elo difference with its 95% confidence
//! interval, and the sequential probability ratio test (SPRT).
//!
//! # The Elo difference
//!
//! With W wins, D draws and L losses of player A in N games, A's score
//! fraction is `s = (W + D/2) / N`, and the Elo difference that the logistic
//! model gives that expected score is
//!
//! ```text
//! Elo(s) = −400 · log10(1/s − 1)          (s = 0.75 gives +190.8)
//! ```
//!
//! The 95% interval comes from the score's standard error. One game scores
//! 1, ½ or 0, so its variance is
//! `σ² = [W·(1 − s)² + D·(½ − s)² + L·s²] / N`; the mean of N games has
//! standard error `σ / √N`, and the interval `s ± 1.959964 · σ/√N` (clamped
//! to 0…1) is mapped through `Elo` (the normal approximation used by chess
//! testing tools such as cutechess-cli). When every game was won the normal
//! approximation has no width, so the interval is then the exact
//! (Clopper–Pearson) one: s from `0.025^(1/N)` to 1, i.e. Elo from
//! `Elo(0.025^(1/N))` to +∞ (100 wins out of 100: at least +570); the same,
//! mirrored, when every game was lost.
//!
//! # The SPRT
//!
//! [`Sprt`] tests H0: "A is `elo0` stronger than B" against H1: "A is `elo1`
//! stronger", both in logistic Elo, with error rates α and β (0.05 each by
//! default), as fishtest does. The outcomes are counted either per game
//! (trinomial: losses, draws, wins) or per pair of games played from the same
//! opening with colours swapped (pentanomial: pairs scoring 0, ½, 1, 1½, 2,
//! which takes the opening's correlation into account). With `k` outcome
//! values `a_i = i/(k−1)` observed with frequencies `p_i` (a count of zero is
//! replaced by 0.001, as fishtest does) over N games or pairs, the
//! generalised log-likelihood ratio (GSPRT) is
//!
//! ```text
//! LLR = N · Σ p_i · ln(q1_i / q0_i)
//! ```
//!
//! where `q0`, `q1` are the distributions closest to the observed one
//! (maximum likelihood) whose expectation is `s0 = 1/(1 + 10^(−elo0/400))`
//! and `s1` likewise: `q_i = p_i / (1 + x·(a_i − s))`, with `x` the root of
//! `Σ p_i (a_i − s) / (1 + x·(a_i − s)) = 0` (found by bisection; the root is
//! unique). This is fishtest's `LLR_logistic`. Its well-known quadratic
//! approximation, [`Sprt::llr_approx`], is
//!
//! ```text
//! LLR ≈ N · (s1 − s0) · (2μ − s0 − s1) / (2σ²)
//! ```
//!
//! with μ and σ² the mean and variance of the observed distribution; it
//! agrees for long matches and overshoots for short or lopsided ones, so the
//! verdict uses the exact form. The test accepts H1 when the LLR reaches
//! `ln((1 − β)/α)` (+2.944 for α = β = 0.05), accepts H0 when it falls to
//! `ln(β/(1 − α))` (−2.944), and otherwise asks for more games.

use std::fmt;

/// A player's games against one opponent, from that player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Points scored: a win is 1, a draw ½.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The score fraction `(W + D/2) / N`; `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// The counts as the SPRT reads them: losses, draws, wins.
    pub fn trinomial(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }
}

/// The Elo difference that an expected score `s` means in the logistic
/// model: `−400 · log10(1/s − 1)`; ±∞ at 1 and 0.
pub fn elo_of_score(s: f64) -> f64 {
    // Adding 0 turns the −0 of an even score into 0.
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

/// The expected score of a player `elo` stronger: `1 / (1 + 10^(−elo/400))`.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The 97.5% quantile of the standard normal distribution: a two-sided 95%
/// interval is the mean ± this many standard errors.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// An Elo difference with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The score fraction `(W + D/2) / N`.
    pub score: f64,
    /// The standard error of the score fraction.
    pub score_error: f64,
    /// The Elo difference of the score fraction.
    pub elo: f64,
    /// The lower end of the 95% interval (may be −∞).
    pub low: f64,
    /// The upper end of the 95% interval (may be +∞).
    pub high: f64,
}

impl EloEstimate {
    /// The estimate from a tally (module doc); `None` before any game.
    pub fn of(tally: &Tally) -> Option<EloEstimate> {
        let n = tally.games() as f64;
        let s = tally.score()?;
        let variance = (tally.wins as f64 * (1.0 - s).powi(2)
            + tally.draws as f64 * (0.5 - s).powi(2)
            + tally.losses as f64 * s.powi(2))
            / n;
        let score_error = (variance / n).sqrt();
        let (low, high) = if tally.wins as f64 == n {
            // Every game won: the exact binomial bound, as the normal
            // approximation has no width.
            (elo_of_score(0.025f64.powf(1.0 / n)), f64::INFINITY)
        } else if tally.losses as f64 == n {
            (
                f64::NEG_INFINITY,
                elo_of_score(1.0 - 0.025f64.powf(1.0 / n)),
            )
        } else {
            let half = Z_95 * score_error;
            (
                elo_of_score((s - half).max(0.0)),
                elo_of_score((s + half).min(1.0)),
            )
        };
        Some(EloEstimate {
            score: s,
            score_error,
            elo: elo_of_score(s),
            low,
            high,
        })
    }
}

impl fmt::Display for EloEstimate {
    /// `+88.7 [+20.1, +162.0]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} [{}, {}]",
            signed(self.elo),
            signed(self.low),
            signed(self.high)
        )
    }
}

/// An Elo figure with its sign and one decimal: `+88.7`, `-12.0`, `+inf`.
pub fn signed(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else if elo.is_nan() {
        "nan".to_string()
    } else {
        format!("{elo:+.1}")
    }
}

/// Pairs of games played from the same opening with colours swapped,
/// counted by A's points over the pair: 0, ½, 1, 1½ or 2 (index 0 to 4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Counts a pair in which A scored `points` (0, 0.5, … 2).
    pub fn add(&mut self, points: f64) {
        let i = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[i] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }
}

/// The verdict of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// H1 accepted: A is at least `elo1` stronger (the LLR reached the
    /// upper bound).
    H1,
    /// H0 accepted: A is not `elo1` stronger; at most `elo0` (the LLR reached
    /// the lower bound).
    H0,
    /// Neither yet: play more games.
    Continue,
}

impl fmt::Display for SprtVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtVerdict::H1 => "H1",
            SprtVerdict::H0 => "H0",
            SprtVerdict::Continue => "continue",
        })
    }
}

/// A sequential probability ratio test of H0: A is `elo0` stronger than B,
/// against H1: A is `elo1` stronger (logistic Elo; module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1 (greater than `elo0`).
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Where a test stands after some games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The lower bound: H0 is accepted at or below it.
    pub lower: f64,
    /// The upper bound: H1 is accepted at or above it.
    pub upper: f64,
    /// The verdict.
    pub verdict: SprtVerdict,
}

impl Sprt {
    /// A test with α = β = 0.05.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// The bounds of the LLR: `ln(β/(1 − α))` and `ln((1 − β)/α)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The verdict of a log-likelihood ratio.
    pub fn verdict(&self, llr: f64) -> SprtVerdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::H1
        } else if llr <= lower {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }

    /// The status after the outcomes `counts`, in increasing order of A's
    /// score: three (losses, draws, wins) or five (pairs scoring 0 … 2).
    pub fn status(&self, counts: &[u64]) -> SprtStatus {
        let llr = self.llr(counts);
        let (lower, upper) = self.bounds();
        SprtStatus {
            llr,
            lower,
            upper,
            verdict: self.verdict(llr),
        }
    }

    /// The generalised log-likelihood ratio of the outcomes `counts` (three
    /// or five, in increasing order of A's score; module doc). 0 before any
    /// game.
    pub fn llr(&self, counts: &[u64]) -> f64 {
        let Some((n, pdf)) = distribution(counts) else {
            return 0.0;
        };
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        let q0 = closest_with_mean(&pdf, s0);
        let q1 = closest_with_mean(&pdf, s1);
        let per_game: f64 = pdf
            .iter()
            .zip(q0.iter().zip(&q1))
            .map(|(&(_, p), (&p0, &p1))| p * (p1.ln() - p0.ln()))
            .sum();
        n * per_game
    }

    /// The quadratic approximation of [`Sprt::llr`]:
    /// `N · (s1 − s0) · (2μ − s0 − s1) / (2σ²)`.
    pub fn llr_approx(&self, counts: &[u64]) -> f64 {
        let Some((n, pdf)) = distribution(counts) else {
            return 0.0;
        };
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        let (mean, variance) = mean_variance(&pdf);
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }
}

/// The observed distribution of outcomes: the number of games (or pairs),
/// and each outcome's value `i/(k−1)` with its frequency; a count of zero
/// counts as 0.001 (as in fishtest), so that every outcome has some weight.
/// `None` with no outcome at all.
fn distribution(counts: &[u64]) -> Option<(f64, Vec<(f64, f64)>)> {
    if counts.len() < 2 || counts.iter().all(|&c| c == 0) {
        return None;
    }
    let regularised: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let n: f64 = regularised.iter().sum();
    let last = (counts.len() - 1) as f64;
    let pdf = regularised
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / last, c / n))
        .collect();
    Some((n, pdf))
}

fn mean_variance(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mean: f64 = pdf.iter().map(|&(a, p)| a * p).sum();
    let variance = pdf.iter().map(|&(a, p)| p * (a - mean).powi(2)).sum();
    (mean, variance)
}

/// The distribution on the same outcomes that is most likely to have
/// produced `pdf` among those with expectation `s` (0 < s < 1):
/// `q_i = p_i / (1 + x·(a_i − s))` where x solves the secular equation
/// `Σ p_i (a_i − s) / (1 + x·(a_i − s)) = 0`. Its left side falls strictly
/// from +∞ to −∞ between the poles `−1/max(a − s)` and `−1/min(a − s)`, so
/// bisection finds the root.
fn closest_with_mean(pdf: &[(f64, f64)], s: f64) -> Vec<f64> {
    let shifted: Vec<(f64, f64)> = pdf.iter().map(|&(a, p)| (a - s, p)).collect();
    let high_value = shifted.iter().map(|&(d, _)| d).fold(f64::MIN, f64::max);
    let low_value = shifted.iter().map(|&(d, _)| d).fold(f64::MAX, f64::min);
    let secular = |x: f64| -> f64 { shifted.iter().map(|&(d, p)| p * d / (1.0 + x * d)).sum() };
    let mut lo = -1.0 / high_value;
    let mut hi = -1.0 / low_value;
    // 200 halvings reach the resolution of an f64 whatever the span; the
    // poles themselves are never evaluated.
    for _ in 0..200 {
        let mid = lo + (hi - lo) / 2.0;
        if mid <= lo || mid >= hi {
            break;
        }
        if secular(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = lo + (hi - lo) / 2.0;
    shifted.iter().map(|&(d, p)| p / (1.0 + x * d)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u64, draws: u64, losses: u64) -> Tally {
        Tally {
            wins,
            losses,
            draws,
        }
    }

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_of_score(0.75), 190.848, 0.001));
        assert_eq!(format!("{:+.0}", elo_of_score(0.75)), "+191");
        assert_eq!(signed(elo_of_score(0.5)), "+0.0");
        assert!(close(elo_of_score(0.25), -190.848, 0.001));
        assert!(close(elo_of_score(0.9), 381.697, 0.001));
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
        assert_eq!(elo_of_score(0.0), f64::NEG_INFINITY);
        for elo in [-500.0, -100.0, 0.0, 35.0, 400.0] {
            assert!(close(elo_of_score(score_of_elo(elo)), elo, 1e-9));
        }
    }

    #[test]
    fn a_75_percent_score_is_191_elo_with_or_without_draws() {
        let e = EloEstimate::of(&tally(75, 0, 25)).unwrap();
        assert!(close(e.elo, 190.85, 0.01));
        let e = EloEstimate::of(&tally(50, 50, 0)).unwrap();
        assert!(close(e.elo, 190.85, 0.01));
    }

    #[test]
    fn interval_of_an_even_match_without_draws() {
        // 50 wins, 50 losses: σ = 0.5, standard error 0.05, so s is within
        // 0.5 ± 0.098 and the Elo within ±69.0.
        let e = EloEstimate::of(&tally(50, 0, 50)).unwrap();
        assert!(close(e.score_error, 0.05, 1e-12));
        assert!(close(e.elo, 0.0, 1e-9));
        assert!(close(e.high, 69.0, 0.1), "{}", e.high);
        assert!(close(e.low, -69.0, 0.1), "{}", e.low);
        // Four times the games halve the interval (in score; nearly so in Elo).
        let e4 = EloEstimate::of(&tally(200, 0, 200)).unwrap();
        assert!(close(e4.score_error, 0.025, 1e-12));
        assert!(close(e4.high, 34.2, 0.1), "{}", e4.high);
    }

    #[test]
    fn draws_narrow_the_interval() {
        // 100 games at 50%: with half of them drawn σ² = 0.25·50/100 = 0.125.
        let e = EloEstimate::of(&tally(25, 50, 25)).unwrap();
        assert!(close(e.score_error, (0.125f64 / 100.0).sqrt(), 1e-12));
        assert!(close(e.high, 48.5, 0.1), "{}", e.high);
    }

    #[test]
    fn interval_of_75_percent() {
        // 75–25 in 100 games: σ = √0.1875 ≈ 0.433, standard error 0.0433, so
        // s in [0.665, 0.835]: Elo in [+119.2, +281.5].
        let e = EloEstimate::of(&tally(75, 0, 25)).unwrap();
        assert!(close(e.low, 119.2, 0.1), "{}", e.low);
        assert!(close(e.high, 281.5, 0.1), "{}", e.high);
        assert_eq!(e.to_string(), "+190.8 [+119.2, +281.5]");
    }

    #[test]
    fn all_wins_give_an_exact_lower_bound() {
        let e = EloEstimate::of(&tally(100, 0, 0)).unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        assert_eq!(e.high, f64::INFINITY);
        // 0.025^(1/100) = 0.96378: +570.0
        assert!(close(e.low, 570.0, 0.1), "{}", e.low);
        let e = EloEstimate::of(&tally(0, 0, 10)).unwrap();
        assert_eq!(e.low, f64::NEG_INFINITY);
        // 0.025^(1/10) = 0.691: at most −140.2
        assert!(close(e.high, -140.2, 0.1), "{}", e.high);
        assert_eq!(EloEstimate::of(&Tally::default()), None);
    }

    #[test]
    fn sprt_bounds() {
        let (lower, upper) = Sprt::new(0.0, 10.0).bounds();
        assert!(close(lower, -2.944_438_979, 1e-9));
        assert!(close(upper, 2.944_438_979, 1e-9));
    }

    // Reference values: fishtest's LLRcalc (LLR_logistic for the exact
    // GSPRT, LLR_alt2 for the approximation) on the same counts.
    const REFERENCE: &[(&[u64], f64, f64, f64, f64)] = &[
        // counts (losses first), elo0, elo1, exact, approximation
        (&[4063, 8620, 4307], 0.0, 3.0, 2.991289, 2.992212838505),
        (&[100, 50, 150], 0.0, 10.0, 1.578711, 1.631822618066),
        (&[10, 0, 20], 0.0, 50.0, 1.129552, 1.263224536380),
        (&[30, 5, 20], 0.0, 20.0, -0.732949, -0.760173047730),
        (&[0, 0, 30], 0.0, 100.0, 7.408767, 43364.187068452),
        (&[12, 40, 30, 15, 3], 0.0, 10.0, -2.128047, -2.735663175974),
        (&[2, 10, 30, 40, 18], 0.0, 20.0, 4.709432, 7.065163724316),
        (&[5, 20, 50, 20, 5], -5.0, 5.0, 0.0, 0.0),
        (&[100, 0, 300], 0.0, 50.0, 24.654478, 32.666261),
        (&[200, 0, 200], 0.0, 50.0, -4.127909, -4.085602),
        (&[4, 0, 6], 0.0, 50.0, 0.184634, 0.191375),
    ];

    #[test]
    fn llr_matches_fishtest() {
        for &(counts, elo0, elo1, exact, approx) in REFERENCE {
            let sprt = Sprt::new(elo0, elo1);
            let llr = sprt.llr(counts);
            assert!(close(llr, exact, 2e-6), "{counts:?}: {llr} vs {exact}");
            let a = sprt.llr_approx(counts);
            assert!(
                close(a, approx, 5e-7f64.max(1e-9 * approx.abs())),
                "{counts:?}: {a} vs {approx}"
            );
        }
    }

    #[test]
    fn the_closest_distribution_has_the_asked_mean() {
        let (_, pdf) = distribution(&[12, 40, 30, 15, 3]).unwrap();
        for s in [0.3, 0.5, 0.514, 0.7] {
            let q = closest_with_mean(&pdf, s);
            let total: f64 = q.iter().sum();
            let mean: f64 = q.iter().zip(&pdf).map(|(q, (a, _))| q * a).sum();
            assert!(close(total, 1.0, 1e-9) && close(mean, s, 1e-9));
        }
    }

    #[test]
    fn sprt_verdicts_on_synthetic_results() {
        let sprt = Sprt::new(0.0, 50.0);
        // A clearly stronger player: 300–100.
        assert_eq!(
            sprt.status(&tally(300, 0, 100).trinomial()).verdict,
            SprtVerdict::H1
        );
        // Equal players over many games: H0 (A is not 50 Elo stronger).
        assert_eq!(
            sprt.status(&tally(200, 0, 200).trinomial()).verdict,
            SprtVerdict::H0
        );
        // Too few games to tell.
        assert_eq!(
            sprt.status(&tally(6, 0, 4).trinomial()).verdict,
            SprtVerdict::Continue
        );
        // Nothing played yet.
        assert_eq!(sprt.status(&[0, 0, 0]).llr, 0.0);
        // Pentanomial: 40 pairs won 2–0 and 10 split: H1.
        assert_eq!(sprt.status(&[0, 0, 10, 0, 40]).verdict, SprtVerdict::H1);
        // A weaker A never passes a test of strength.
        assert_eq!(
            Sprt::new(0.0, 10.0).status(&[80, 60, 40, 16, 4]).verdict,
            SprtVerdict::H0
        );
    }

    #[test]
    fn pentanomial_counts_pairs() {
        let mut p = Pentanomial::default();
        for points in [0.0, 0.5, 1.0, 1.0, 1.5, 2.0, 2.0] {
            p.add(points);
        }
        assert_eq!(p.0, [1, 1, 2, 1, 2]);
        assert_eq!(p.pairs(), 7);
    }
}
