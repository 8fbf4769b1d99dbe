//! A study's numbers and its report in Markdown (`report.md`), and the
//! summary of several studies (`sygo study plot`): all of it a function of
//! the CSV, so that a study played again writes the same report.

use std::collections::HashMap;
use std::fmt::Write as _;

use sygo_ai::solver::Symmetries;
use sygo_rules::{Color, Geometry, Turn};

use super::stats::{self, Estimate};
use super::table::{Balance, End, GameRow, Params, board_name, on_off};

/// The figures of one study.
#[derive(Clone, Debug)]
pub struct Numbers {
    /// Games played.
    pub games: usize,
    /// Games White won.
    pub white_wins: usize,
    /// Draws.
    pub draws: usize,
    /// Games Black won.
    pub black_wins: usize,
    /// White's score (wins + draws/2, over games) with its interval.
    pub white_score: Option<Estimate>,
    /// The margins (White − Black) of the games the score decided.
    pub margins: Vec<f64>,
    /// Their mean with its interval.
    pub mean_margin: Option<Estimate>,
    /// Their median with its interval.
    pub median_margin: Option<Estimate>,
    /// Each game's turns.
    pub turns: Vec<f64>,
    /// Each game's stones.
    pub stones: Vec<f64>,
    /// Games where Black played the balance turn.
    pub balance_used: usize,
    /// Games that ended by resignation.
    pub resignations: usize,
    /// Games lost by an illegal turn.
    pub forfeits: usize,
}

impl Numbers {
    /// The figures of `rows`.
    pub fn of(rows: &[GameRow]) -> Numbers {
        let count = |f: &dyn Fn(&GameRow) -> bool| rows.iter().filter(|r| f(r)).count();
        let white_wins = count(&|r| r.winner == Some(Color::White));
        let draws = count(&|r| r.winner.is_none());
        let margins: Vec<f64> = rows
            .iter()
            .filter_map(|r| r.margin)
            .map(|m| m as f64)
            .collect();
        Numbers {
            games: rows.len(),
            white_wins,
            draws,
            black_wins: rows.len() - white_wins - draws,
            white_score: score_of(rows),
            mean_margin: stats::mean(&margins),
            median_margin: stats::median(&margins),
            margins,
            turns: rows.iter().map(|r| r.turns as f64).collect(),
            stones: rows.iter().map(|r| r.stones as f64).collect(),
            balance_used: count(&|r| r.balance == Balance::Used),
            resignations: count(&|r| r.end == End::Resignation),
            forfeits: count(&|r| r.end == End::Forfeit),
        }
    }
}

/// White's score in `rows` (wins and half the draws) with its interval.
fn score_of<'a>(rows: impl IntoIterator<Item = &'a GameRow>) -> Option<Estimate> {
    let (mut points, mut n) = (0.0, 0.0);
    for row in rows {
        n += 1.0;
        points += match row.winner {
            Some(Color::White) => 1.0,
            None => 0.5,
            Some(Color::Black) => 0.0,
        };
    }
    stats::wilson(points, n)
}

/// `61.5% [54.1%, 68.4%]`.
pub fn percent(e: &Estimate) -> String {
    format!(
        "{:.1}% [{:.1}%, {:.1}%]",
        100.0 * e.value,
        100.0 * e.low,
        100.0 * e.high
    )
}

/// `+5.3 [+3.1, +7.5]`.
pub fn signed(e: &Estimate) -> String {
    format!("{:+.1} [{:+.1}, {:+.1}]", e.value, e.low, e.high)
}

/// `n (p%)`.
fn share(n: usize, of: usize) -> String {
    if of == 0 {
        n.to_string()
    } else {
        format!("{n} ({:.1}%)", 100.0 * n as f64 / of as f64)
    }
}

/// The playouts a turn, in words.
pub fn strength(params: &Params) -> String {
    let visits = match params.visits {
        Some(v) => format!("{v} playouts a turn (`--visits {v}`)"),
        None => "the player's own playouts a turn".to_string(),
    };
    let opening = match params.opening_turns {
        0 => "from the empty board".to_string(),
        k => format!("after {k} uniformly random turns"),
    };
    format!("`{}`, {visits}, {opening}", params.player)
}

/// The report of one study, in Markdown.
pub fn study_report(params: &Params, rows: &[GameRow]) -> String {
    let n = Numbers::of(rows);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# {}, balance turn {}: self-play study\n",
        params.board_name(),
        on_off(params.balance)
    );
    let _ = writeln!(
        out,
        "{} games of {} against itself (seed {}). White moves first. Every \
         figure below follows from `games.csv`; 95% intervals in brackets.\n",
        n.games,
        strength(params),
        params.seed
    );
    if n.games == 0 {
        out.push_str("No game has been played yet.\n");
        return out;
    }
    out.push_str("## Results\n\n| | |\n| --- | --- |\n");
    let _ = writeln!(
        out,
        "| White (first player) wins | {}; draws {}; Black wins {} |",
        share(n.white_wins, n.games),
        n.draws,
        n.black_wins
    );
    if let Some(score) = &n.white_score {
        let _ = writeln!(
            out,
            "| White's score (draws half) | {} (Wilson) |",
            percent(score)
        );
    }
    if let (Some(mean), Some(median)) = (&n.mean_margin, &n.median_margin) {
        let _ = writeln!(
            out,
            "| margin, White − Black | mean {} (t); median {:+.1} [{:+.0}, {:+.0}]; sd {:.1}; \
             5%–95% {:+.0} to {:+.0} |",
            signed(mean),
            median.value,
            median.low,
            median.high,
            stats::standard_deviation(&n.margins),
            stats::quantile(&n.margins, 0.05),
            stats::quantile(&n.margins, 0.95),
        );
        let _ = writeln!(
            out,
            "| komi that would balance it | {:+.1}: the median margin (with it White wins as \
             often as Black); the mean margin is {:+.1} |",
            median.value, mean.value
        );
    }
    let _ = writeln!(
        out,
        "| turns a game | mean {:.1}, median {:.0}, 5%–95% {:.0}–{:.0}, min {:.0}, max {:.0} |",
        stats::mean(&n.turns).map_or(0.0, |e| e.value),
        stats::median(&n.turns).map_or(0.0, |e| e.value),
        stats::quantile(&n.turns, 0.05),
        stats::quantile(&n.turns, 0.95),
        stats::quantile(&n.turns, 0.0),
        stats::quantile(&n.turns, 1.0),
    );
    let _ = writeln!(
        out,
        "| stones a game | mean {:.1} (of {} points) |",
        stats::mean(&n.stones).map_or(0.0, |e| e.value),
        points(params),
    );
    let _ = writeln!(
        out,
        "| ended | by the score {}, by resignation {}, by an illegal turn {} |",
        n.margins.len(),
        n.resignations,
        n.forfeits
    );
    if n.resignations + n.forfeits > 0 {
        out.push_str(
            "\nMargins are those of the games the score decided; a resigned game has none \
             (`resign=off` in the player's options scores every game).\n",
        );
    }
    balance_section(&mut out, params, rows);
    opening_section(&mut out, params, rows);
    out
}

/// The points of the study's board.
fn points(params: &Params) -> usize {
    Geometry::new(params.variant, params.size).map_or(0, |g| g.num_points())
}

fn balance_section(out: &mut String, params: &Params, rows: &[GameRow]) {
    out.push_str("\n## The balance turn\n\n");
    if !params.balance {
        out.push_str(
            "Off: the games start as if a growth turn had been played (`… w g 0`), so Black \
             never has it. Compare with the same study with the balance turn \
             (`sygo study plot`).\n",
        );
        return;
    }
    let used: Vec<&GameRow> = rows.iter().filter(|r| r.balance == Balance::Used).collect();
    let unused: Vec<&GameRow> = rows.iter().filter(|r| r.balance != Balance::Used).collect();
    let first_white = unused
        .iter()
        .filter(|r| matches!(r.first_growth, Some((_, Color::White))))
        .count();
    let first_black = unused
        .iter()
        .filter(|r| matches!(r.first_growth, Some((_, Color::Black))))
        .count();
    let none = unused.len() - first_white - first_black;
    let _ = writeln!(
        out,
        "Black played it in {} games. In the {} others the first growth turn was White's in \
         {first_white}, a growth of Black's without a placement in {first_black}, and in \
         {none} nobody grew.",
        share(used.len(), rows.len()),
        unused.len(),
    );
    let turns: Vec<f64> = used
        .iter()
        .filter_map(|r| r.first_growth.map(|g| g.0 as f64))
        .collect();
    if let Some(m) = stats::median(&turns) {
        let _ = writeln!(
            out,
            "When played, it was turn {:.0} (median; {:.0} to {:.0}).",
            m.value,
            stats::quantile(&turns, 0.0),
            stats::quantile(&turns, 1.0)
        );
    }
    out.push('\n');
    for (name, games) in [("used", &used), ("not used", &unused)] {
        if let Some(score) = score_of(games.iter().copied()) {
            let margins: Vec<f64> = games
                .iter()
                .filter_map(|r| r.margin)
                .map(|m| m as f64)
                .collect();
            let _ = writeln!(
                out,
                "- Games where it was {name}: {}, White's score {}, mean margin {}.",
                games.len(),
                percent(&score),
                stats::mean(&margins).map_or("–".to_string(), |e| signed(&e))
            );
        }
    }
    out.push_str(
        "\nWhich games use it depends on how they went, so these two lines do not say what \
         it is worth: the same study with `--no-balance` does (`sygo study plot` compares \
         them).\n",
    );
}

/// The opening of a game: its first `k` turns' stones, as points.
fn opening_points(g: &Geometry, row: &GameRow, k: usize) -> Option<Vec<Vec<sygo_rules::Point>>> {
    if row.moves.len() < k {
        return None;
    }
    row.moves[..k]
        .iter()
        .map(|m| match Turn::parse(m, g) {
            Ok(Turn::Stones(points)) => Some(points),
            Ok(_) => Some(Vec::new()),
            Err(_) => None,
        })
        .collect()
}

/// The first `k` turns up to the board's symmetries: the image that comes
/// first in the order of points, written as turns.
fn canonical(g: &Geometry, symmetries: &Symmetries, turns: &[Vec<sygo_rules::Point>]) -> String {
    let image = |s: usize| -> Vec<Vec<sygo_rules::Point>> {
        turns
            .iter()
            .map(|t| t.iter().map(|&p| symmetries.map(s, p)).collect())
            .collect()
    };
    let best = (0..symmetries.len())
        .map(image)
        .min_by(|a, b| {
            let key = |t: &Vec<Vec<sygo_rules::Point>>| -> Vec<Vec<usize>> {
                t.iter()
                    .map(|s| s.iter().map(|p| p.index()).collect())
                    .collect()
            };
            key(a).cmp(&key(b))
        })
        .unwrap_or_default();
    best.iter()
        .map(|t| {
            if t.is_empty() {
                "pass".to_string()
            } else {
                Turn::Stones(t.clone()).to_notation(g)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One line of an opening table.
struct OpeningLine {
    turns: String,
    games: usize,
    score: Estimate,
    mean_margin: Option<f64>,
}

fn opening_lines(params: &Params, rows: &[GameRow], k: usize) -> Vec<OpeningLine> {
    let Ok(g) = Geometry::new(params.variant, params.size) else {
        return Vec::new();
    };
    let symmetries = Symmetries::of(g);
    let mut groups: HashMap<String, Vec<&GameRow>> = HashMap::new();
    for row in rows {
        if let Some(turns) = opening_points(&g, row, k) {
            groups
                .entry(canonical(&g, &symmetries, &turns))
                .or_default()
                .push(row);
        }
    }
    let mut lines: Vec<OpeningLine> = groups
        .into_iter()
        .filter_map(|(turns, games)| {
            let margins: Vec<f64> = games
                .iter()
                .filter_map(|r| r.margin)
                .map(|m| m as f64)
                .collect();
            Some(OpeningLine {
                turns,
                games: games.len(),
                score: score_of(games.iter().copied())?,
                mean_margin: stats::mean(&margins).map(|e| e.value),
            })
        })
        .collect();
    lines.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.turns.cmp(&b.turns)));
    lines
}

/// How many lines an opening table shows.
const OPENING_LINES: usize = 10;

fn opening_section(out: &mut String, params: &Params, rows: &[GameRow]) {
    out.push_str("\n## Openings\n\n");
    let _ = writeln!(
        out,
        "Openings are counted up to the board's symmetries (each is written as its first \
         image in the order of points){}. The most played, with White's score (95% \
         interval) and the mean margin:\n",
        if params.opening_turns > 0 {
            format!(
                "; the first {} turns of every game are uniformly random",
                params.opening_turns
            )
        } else {
            String::new()
        }
    );
    // A line must have this many games to be called best.
    let enough = (rows.len() / 20).max(5);
    let overall = score_of(rows).map_or(0.5, |e| e.value);
    for (k, title, best_for) in [
        (1, "White's first turn", Color::White),
        (2, "The first two turns (White's, Black's)", Color::Black),
    ] {
        let lines = opening_lines(params, rows, k);
        let _ = writeln!(out, "{title}: {} different\n", lines.len());
        out.push_str(
            "| turns | games | White's score | mean margin |\n| --- | ---: | --- | ---: |\n",
        );
        for line in lines.iter().take(OPENING_LINES) {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                line.turns,
                line.games,
                percent(&line.score),
                line.mean_margin
                    .map_or("–".to_string(), |m| format!("{m:+.1}"))
            );
        }
        let best = lines.iter().filter(|l| l.games >= enough).max_by(|a, b| {
            let (x, y) = match best_for {
                Color::White => (a.score.value, b.score.value),
                Color::Black => (b.score.value, a.score.value),
            };
            x.total_cmp(&y).then_with(|| b.turns.cmp(&a.turns))
        });
        match best {
            Some(line) => {
                let outside = match best_for {
                    Color::White => line.score.low > overall,
                    Color::Black => line.score.high < overall,
                };
                let _ = writeln!(
                    out,
                    "\nBest for {} among those played {enough} times or more: {} ({} games, \
                     White's score {}); {}.\n",
                    best_for.name(),
                    line.turns,
                    line.games,
                    percent(&line.score),
                    if outside {
                        format!(
                            "its interval leaves out the study's overall score, but it is the \
                             best of {} lines: a lead to test, not a finding",
                            lines.iter().filter(|l| l.games >= enough).count()
                        )
                    } else {
                        "its interval holds the study's overall score: it is not shown to score \
                         better than the rest"
                            .to_string()
                    }
                );
            }
            None => {
                let _ = writeln!(out, "\nNone was played {enough} times or more.\n");
            }
        }
    }
}

/// One study among several, for the summary.
#[derive(Clone, Debug)]
pub struct Study {
    /// Its folder, as given.
    pub dir: String,
    /// Its parameters.
    pub params: Params,
    /// Its games.
    pub rows: Vec<GameRow>,
    /// Their figures.
    pub numbers: Numbers,
}

/// The summary of several studies in Markdown: a line per study, then what
/// the balance turn is worth on each board studied both ways with the same
/// player.
pub fn summary_report(studies: &[Study]) -> String {
    let mut out = String::from("# sygo study: summary\n\n");
    out.push_str(
        "| board | balance turn | games | player | White's score | mean margin | median \
         margin | turns (mean) | balance turn used | folder |\n\
         | --- | --- | ---: | --- | --- | --- | ---: | ---: | ---: | --- |\n",
    );
    for s in studies {
        let n = &s.numbers;
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {:.1} | {} | {} |",
            s.params.board_name(),
            on_off(s.params.balance),
            n.games,
            strength(&s.params),
            n.white_score.as_ref().map_or("–".to_string(), percent),
            n.mean_margin.as_ref().map_or("–".to_string(), signed),
            n.median_margin
                .map_or("–".to_string(), |m| format!("{:+.1}", m.value)),
            stats::mean(&n.turns).map_or(0.0, |e| e.value),
            if s.params.balance {
                share(n.balance_used, n.games)
            } else {
                "off".to_string()
            },
            s.dir
        );
    }
    let pairs = balance_pairs(studies);
    if !pairs.is_empty() {
        out.push_str(
            "\n## What the balance turn is worth\n\nThe same player on the same board, \
             without the balance turn less with it: a positive difference is what White gains \
             when Black loses it.\n\n\
             | board | White's score, off − on (percentage points) | mean margin, off − on \
             (points) |\n| --- | --- | --- |\n",
        );
        for (on, off) in pairs {
            let score = match (&off.numbers.white_score, &on.numbers.white_score) {
                (Some(a), Some(b)) => signed_percent(&stats::rate_difference(a, b)),
                _ => "–".to_string(),
            };
            let margin = stats::mean_difference(&off.numbers.margins, &on.numbers.margins)
                .map_or("–".to_string(), |e| signed(&e));
            let _ = writeln!(out, "| {} | {score} | {margin} |", on.params.board_name());
        }
    }
    out
}

/// `+12.0 [+3.1, +20.2]`, in percentage points.
fn signed_percent(e: &Estimate) -> String {
    format!(
        "{:+.1} [{:+.1}, {:+.1}]",
        100.0 * e.value,
        100.0 * e.low,
        100.0 * e.high
    )
}

/// The studies with the balance turn and without it that differ in nothing
/// else but the seed: (on, off).
pub fn balance_pairs(studies: &[Study]) -> Vec<(&Study, &Study)> {
    let mut pairs = Vec::new();
    for on in studies.iter().filter(|s| s.params.balance) {
        let same = |s: &&Study| {
            !s.params.balance
                && s.params.variant == on.params.variant
                && s.params.size == on.params.size
                && s.params.player == on.params.player
                && s.params.visits == on.params.visits
                && s.params.opening_turns == on.params.opening_turns
        };
        if let Some(off) = studies.iter().find(same) {
            pairs.push((on, off));
        }
    }
    pairs
}

/// The board of a study, named.
pub fn board_of(study: &Study) -> String {
    board_name(study.params.variant, study.params.size)
}
