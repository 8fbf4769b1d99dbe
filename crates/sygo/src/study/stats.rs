//! The statistics of a study, each with its 95% interval.
//!
//! - A rate (White's score: wins and half the draws, over games): the
//!   Wilson score interval, `(p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 +
//!   z²/n)`, z = 1.96, which stays inside [0, 1] and is right even near 0
//!   and 1. A draw counts half a win, which makes the interval a little
//!   wider than it need be.
//! - The difference of two rates: Newcombe's hybrid score interval (his
//!   method 10) from the two Wilson intervals.
//! - A mean: `mean ± t·s/√n`, Student's t with n − 1 degrees of freedom.
//! - The difference of two means: Welch's interval (degrees of freedom by
//!   Welch–Satterthwaite).
//! - A median: the order statistics whose ranks a binomial(n, ½) puts
//!   around n/2 (distribution-free, at least 95% by the normal
//!   approximation).

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A value with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The value.
    pub value: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

/// The Wilson interval of `successes` out of `n` (`successes` may be a half
/// number: draws count half). `None` when `n` is 0.
pub fn wilson(successes: f64, n: f64) -> Option<Estimate> {
    if n <= 0.0 {
        return None;
    }
    let p = successes / n;
    let z2 = Z95 * Z95;
    let centre = p + z2 / (2.0 * n);
    let spread = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let denominator = 1.0 + z2 / n;
    Some(Estimate {
        value: p,
        low: ((centre - spread) / denominator).max(0.0),
        high: ((centre + spread) / denominator).min(1.0),
    })
}

/// Newcombe's interval of the difference `a − b` of two rates, from their
/// Wilson estimates.
pub fn rate_difference(a: &Estimate, b: &Estimate) -> Estimate {
    let d = a.value - b.value;
    Estimate {
        value: d,
        low: d - ((a.value - a.low).powi(2) + (b.high - b.value).powi(2)).sqrt(),
        high: d + ((a.high - a.value).powi(2) + (b.value - b.low).powi(2)).sqrt(),
    }
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom: a table
/// up to 30, then the Cornish–Fisher expansion (off by less than 10⁻⁴).
pub fn t975(df: f64) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    if !df.is_finite() {
        return Z95;
    }
    if df < 30.5 {
        let i = (df.round().max(1.0) as usize).min(30);
        return TABLE[i - 1];
    }
    let z = Z95;
    let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
    z + (z3 + z) / (4.0 * df)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * df * df)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * df.powi(3))
}

/// The mean and the sample variance of `xs`.
fn mean_variance(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let variance = if xs.len() > 1 {
        xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    (mean, variance)
}

/// The mean of `xs` with its t interval (`None` without values; a single
/// value has an interval of nothing but itself).
pub fn mean(xs: &[f64]) -> Option<Estimate> {
    if xs.is_empty() {
        return None;
    }
    let (mean, variance) = mean_variance(xs);
    let n = xs.len() as f64;
    let half = if xs.len() > 1 {
        t975(n - 1.0) * (variance / n).sqrt()
    } else {
        0.0
    };
    Some(Estimate {
        value: mean,
        low: mean - half,
        high: mean + half,
    })
}

/// The sample standard deviation of `xs` (0 for fewer than two).
pub fn standard_deviation(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        mean_variance(xs).1.sqrt()
    }
}

/// Welch's interval of the difference `mean(a) − mean(b)`.
pub fn mean_difference(a: &[f64], b: &[f64]) -> Option<Estimate> {
    if a.len() < 2 || b.len() < 2 {
        return None;
    }
    let (ma, va) = mean_variance(a);
    let (mb, vb) = mean_variance(b);
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let (sa, sb) = (va / na, vb / nb);
    let se = (sa + sb).sqrt();
    let df = if sa + sb > 0.0 {
        (sa + sb).powi(2) / (sa * sa / (na - 1.0) + sb * sb / (nb - 1.0))
    } else {
        f64::INFINITY
    };
    let d = ma - mb;
    let half = t975(df) * se;
    Some(Estimate {
        value: d,
        low: d - half,
        high: d + half,
    })
}

/// The median of `xs` with its distribution-free interval (module doc).
pub fn median(xs: &[f64]) -> Option<Estimate> {
    if xs.is_empty() {
        return None;
    }
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let value = if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    };
    let nf = n as f64;
    let half = Z95 * nf.sqrt() / 2.0;
    // 1-based ranks, clamped to the sample.
    let low_rank = ((nf / 2.0 - half).floor() as usize).clamp(1, n);
    let high_rank = ((nf / 2.0 + half).ceil() as usize + 1).clamp(1, n);
    Some(Estimate {
        value,
        low: sorted[low_rank - 1],
        high: sorted[high_rank - 1],
    })
}

/// The value below which a share `q` (0 to 1) of `xs` lies (the nearest
/// rank; `xs` need not be sorted). 0 for no values.
pub fn quantile(xs: &[f64], q: f64) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = (q.clamp(0.0, 1.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() < tolerance
    }

    #[test]
    fn wilson_matches_published_values() {
        // 81 of 263 (Newcombe 1998, table I, example: 0.2553 to 0.3662).
        let e = wilson(81.0, 263.0).unwrap();
        assert!(
            close(e.low, 0.2553, 1e-4) && close(e.high, 0.3662, 1e-4),
            "{e:?}"
        );
        // 0 of 10: 0 to 0.2775.
        let e = wilson(0.0, 10.0).unwrap();
        assert!(
            close(e.low, 0.0, 1e-9) && close(e.high, 0.2775, 1e-4),
            "{e:?}"
        );
        assert_eq!(wilson(1.0, 0.0), None);
    }

    #[test]
    fn newcombe_matches_the_published_example() {
        // 56/70 against 48/80: 0.0524 to 0.3339 (Newcombe 1998b, example a).
        let d = rate_difference(&wilson(56.0, 70.0).unwrap(), &wilson(48.0, 80.0).unwrap());
        assert!(
            close(d.low, 0.0524, 1e-4) && close(d.high, 0.3339, 1e-4),
            "{d:?}"
        );
    }

    #[test]
    fn t_quantiles() {
        assert!(close(t975(10.0), 2.228, 1e-3));
        assert!(close(t975(40.0), 2.0211, 1e-3));
        assert!(close(t975(120.0), 1.9799, 1e-3));
        assert!(close(t975(f64::INFINITY), 1.96, 1e-3));
    }

    #[test]
    fn means_and_medians() {
        let xs = [1.0, 2.0, 3.0, 4.0, 5.0];
        let m = mean(&xs).unwrap();
        // s = 1.5811, t(4) = 2.776: 3 ± 1.963.
        assert!(
            close(m.value, 3.0, 1e-9) && close(m.high, 4.963, 1e-3),
            "{m:?}"
        );
        let md = median(&xs).unwrap();
        assert_eq!((md.value, md.low, md.high), (3.0, 1.0, 5.0));
        assert_eq!(median(&[1.0, 2.0]).unwrap().value, 1.5);
        assert_eq!(quantile(&xs, 0.5), 3.0);
        assert_eq!(quantile(&xs, 1.0), 5.0);
        let d = mean_difference(&[1.0, 2.0, 3.0], &[1.0, 2.0, 3.0]).unwrap();
        assert!(close(d.value, 0.0, 1e-9) && d.low < 0.0 && d.high > 0.0);
    }
}
