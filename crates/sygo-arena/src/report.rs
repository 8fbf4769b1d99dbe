//! The report of a match in words (`docs/strength.md` explains the
//! figures), ending in a line for machines.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use sygo_ai::Budget;

use crate::game::Side;
use crate::runner::{MatchReport, MatchSettings};
use crate::stats::{Sprt, SprtVerdict, Tally};
use crate::summary::Distribution;

/// The budget of each turn in words: `100 ms per turn`, `500 visits per
/// turn`.
pub fn budget_text(budget: &Budget) -> String {
    match (budget.time, budget.visits) {
        (_, Some(visits)) => format!("{visits} visits per turn"),
        (Some(time), None) => format!("{} ms per turn", time.as_millis()),
        (None, None) => "no limit per turn".to_string(),
    }
}

/// A number with at most one decimal, and its sign: `+1.5`, `-3`, `+0`.
fn margin(x: f64) -> String {
    let rounded = (x * 10.0).round() / 10.0;
    if rounded == 0.0 {
        "0".to_string()
    } else {
        format!("{rounded:+}")
    }
}

/// `1 win`, `2 wins`: a count and its noun.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `3 wins, 1 loss, 0 draws`.
fn tally_text(t: &Tally) -> String {
    format!(
        "{}, {}, {}",
        count(t.wins, "win", "wins"),
        count(t.losses, "loss", "losses"),
        count(t.draws, "draw", "draws")
    )
}

/// A distribution in a line: mean, sd, and the quantiles.
fn distribution_text(d: &Distribution, signed: bool) -> String {
    let f = |x: f64| {
        if signed {
            margin(x)
        } else {
            format!("{}", (x * 10.0).round() / 10.0)
        }
    };
    format!(
        "mean {}, sd {:.1}; min {}, 10% {}, 25% {}, median {}, 75% {}, 90% {}, max {}",
        f(d.mean),
        d.sd,
        f(d.min),
        f(d.p10),
        f(d.q1),
        f(d.median),
        f(d.q3),
        f(d.p90),
        f(d.max)
    )
}

/// A duration in milliseconds, with two decimals below 10 ms.
fn millis(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 10.0 {
        format!("{ms:.2} ms")
    } else {
        format!("{ms:.0} ms")
    }
}

/// The report of a match as `sygo arena` prints it: people's lines (the
/// entrants `names`, the settings, A's results by colour and by pair, the
/// Elo difference, margins, lengths, time, resignations and forfeits, the
/// SPRT when there is one, the folder of the `records`), then the one line
/// for machines: `games=… wins=… losses=… draws=… score=… elo=… …`.
pub fn report_text(
    names: &[String; 2],
    settings: &MatchSettings,
    report: &MatchReport,
    sprt: Option<&Sprt>,
    records: Option<&Path>,
) -> String {
    let s = &report.summary;
    let mut out = String::new();
    let games = s.games();
    let _ = writeln!(out, "A: {}\nB: {}", names[0], names[1]);
    let _ = writeln!(
        out,
        "{}, {}{}, seed {}, {}, {}, {}, {:.1} s",
        settings.geometry.name(),
        count(games, "game", "games"),
        if report.stopped {
            format!(" (stopped early, of {})", settings.games)
        } else {
            String::new()
        },
        settings.seed,
        count(
            settings.opening_turns as u64,
            "opening turn",
            "opening turns"
        ),
        budget_text(&settings.budget),
        count(
            settings.jobs.clamp(1, settings.games.max(1)) as u64,
            "job",
            "jobs"
        ),
        report.elapsed.as_secs_f64()
    );
    let score = s.tally.score().unwrap_or(0.5);
    let _ = writeln!(
        out,
        "A's results: {} (score {:.1}%)",
        tally_text(&s.tally),
        score * 100.0
    );
    let _ = writeln!(out, "  as White: {}", tally_text(&s.as_white));
    let _ = writeln!(out, "  as Black: {}", tally_text(&s.as_black));
    let p = s.pentanomial.0;
    let _ = writeln!(
        out,
        "  pairs by A's points (0, 1/2, 1, 3/2, 2): {} {} {} {} {}",
        p[0], p[1], p[2], p[3], p[4]
    );
    match s.elo() {
        Some(elo) => {
            let _ = writeln!(out, "Elo of A over B: {elo} (95% interval)");
        }
        None => {
            let _ = writeln!(out, "Elo of A over B: no game played");
        }
    }
    let margins = Distribution::of(s.margins.iter().map(|&m| m as f64));
    match &margins {
        Some(d) => {
            let _ = writeln!(
                out,
                "score margin (A - B, {} games decided by the score): {}",
                d.count,
                distribution_text(d, true)
            );
        }
        None => {
            let _ = writeln!(out, "score margin: no game was decided by the score");
        }
    }
    let lengths = Distribution::of(s.lengths.iter().map(|&l| l as f64));
    if let Some(d) = &lengths {
        let _ = writeln!(out, "game length (turns): {}", distribution_text(d, false));
    }
    for (i, t) in s.time.iter().enumerate() {
        let _ = writeln!(
            out,
            "time per turn, {}: mean {}, longest {}, {} in {}",
            ['A', 'B'][i],
            millis(t.mean()),
            millis(t.longest),
            count(t.overruns, "overrun", "overruns"),
            count(t.turns, "turn", "turns")
        );
    }
    let _ = writeln!(
        out,
        "resignations: A {}, B {}; forfeits: A {}, B {}",
        s.resignations[0],
        s.resignations[1],
        s.forfeits_by(Side::A),
        s.forfeits_by(Side::B)
    );
    let mut forfeits = s.forfeits.clone();
    forfeits.sort_by_key(|f| f.game);
    for f in forfeits.iter().take(10) {
        let _ = writeln!(
            out,
            "  game {}: {} forfeits: {}",
            f.game + 1,
            f.side.letter(),
            f.reason
        );
    }
    if forfeits.len() > 10 {
        let _ = writeln!(out, "  … and {} more", forfeits.len() - 10);
    }
    let status = sprt.map(|sprt| (sprt, s.sprt(sprt)));
    if let Some((sprt, status)) = &status {
        let on = if s.pentanomial.pairs() > 0 {
            format!("{} pairs", s.pentanomial.pairs())
        } else {
            format!("{games} games")
        };
        let verdict = match status.verdict {
            SprtVerdict::H1 => format!("H1 accepted: A is stronger by {} Elo or more", sprt.elo1),
            SprtVerdict::H0 => format!("H0 accepted: A is not stronger by {} Elo", sprt.elo1),
            SprtVerdict::Continue => "no verdict yet: play more games".to_string(),
        };
        let _ = writeln!(
            out,
            "SPRT [{}, {}] (alpha {}, beta {}): LLR {:.2} in ({:.2}, {:.2}) over {on}: {verdict}",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, status.llr, status.lower, status.upper
        );
    }
    if let Some(dir) = records {
        let _ = writeln!(out, "records: {} games in {}", games, dir.display());
    }
    // The line for machines.
    let elo = s.elo();
    let number = |x: f64| {
        if x.is_infinite() {
            if x > 0.0 { "inf" } else { "-inf" }.to_string()
        } else {
            format!("{x:.1}")
        }
    };
    let _ = write!(
        out,
        "games={games} wins={} losses={} draws={} score={:.4} elo={} elo_low={} elo_high={}",
        s.tally.wins,
        s.tally.losses,
        s.tally.draws,
        score,
        elo.map_or("nan".into(), |e| number(e.elo)),
        elo.map_or("nan".into(), |e| number(e.low)),
        elo.map_or("nan".into(), |e| number(e.high)),
    );
    let _ = write!(
        out,
        " margin_mean={:.2} length_mean={:.1} forfeits_a={} forfeits_b={} overruns_a={} overruns_b={}",
        margins.map_or(0.0, |d| d.mean),
        lengths.map_or(0.0, |d| d.mean),
        s.forfeits_by(Side::A),
        s.forfeits_by(Side::B),
        s.time[0].overruns,
        s.time[1].overruns,
    );
    if let Some((_, status)) = &status {
        let _ = write!(out, " llr={:.3} sprt={}", status.llr, status.verdict);
    }
    let _ = writeln!(out, " seconds={:.2}", report.elapsed.as_secs_f64());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(margin(1.54), "+1.5");
        assert_eq!(margin(-3.0), "-3");
        assert_eq!(margin(0.04), "0");
        assert_eq!(count(1, "win", "wins"), "1 win");
        assert_eq!(count(2, "loss", "losses"), "2 losses");
        assert_eq!(budget_text(&Budget::visits(500)), "500 visits per turn");
        assert_eq!(
            budget_text(&Budget::time(Duration::from_millis(100))),
            "100 ms per turn"
        );
        assert_eq!(millis(Duration::from_micros(2500)), "2.50 ms");
    }
}
