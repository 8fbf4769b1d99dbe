//! `sygo analyze FILE [--turn N]`: the AI's view of the position after N
//! turns of a record's main line (by default its end): the board, the groups
//! in danger (those the opponent can reverse with one turn, and the turn
//! that does it, read exactly by the rules library), the side to move with
//! its chance to win and its expected score lead, the best turns with their
//! lines, and who is expected to own each point; or all of it as JSON
//! (`--json`).
//!
//! A game that is over is not searched: its final score and owners are shown.
//! The AI plays by the rules, which have no komi: a record's komi is in the
//! result shown, not in the win rate or the lead.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use serde::Serialize;
use sygo_ai::view::{AnalysisView, finite, rate};
use sygo_ai::{Analysis, Budget, Candidate, PlayerSpec, SpecError};
use sygo_records::Record;
use sygo_rules::{CaptureKind, Color, Danger, Game, Geometry, Position, Turn, format_points};

use crate::marks::{Marks, last_turn_marks};
use crate::paint::Paint;
use crate::render::{self, LIKELY, Renderer, SURE};
use crate::review;

/// Time to think when neither `--time` nor `--visits` is given.
pub const DEFAULT_TIME: Duration = Duration::from_secs(2);

/// What to search with: `sygo analyze`'s options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// The AI's level, 1 to [`sygo_ai::MAX_LEVEL`].
    pub level: u8,
    /// Search threads (`None`: the level's).
    pub threads: Option<u16>,
    /// Simulations to run (`None`: the level's, or the time's).
    pub visits: Option<u64>,
    /// Time to think (`None`: [`DEFAULT_TIME`] unless `visits` is given).
    pub time: Option<Duration>,
    /// Seed of the AI's random choices.
    pub seed: u64,
}

/// The analysis of a position, with how it was made.
#[derive(Clone, Debug)]
pub struct Report {
    /// What the AI found (or the final score of a finished game).
    pub analysis: Analysis,
    /// Whether the game was over (and so not searched).
    pub over: bool,
    /// The time taken.
    pub elapsed: Duration,
    /// The AI's level.
    pub level: u8,
    /// Search threads (0 when nothing was searched).
    pub threads: usize,
}

/// Searches the position of `game`, or, when the game is over, reads its
/// final score.
///
/// # Errors
///
/// [`SpecError`] when the threads or visits are out of the AI's range.
pub fn analyse(request: &Request, game: &Game) -> Result<Report, SpecError> {
    let start = Instant::now();
    let position = game.position();
    if position.is_over() {
        return Ok(Report {
            analysis: Analysis::of_finished(position),
            over: true,
            elapsed: start.elapsed(),
            level: request.level,
            threads: 0,
        });
    }
    // The strong player at the level (`PlayerSpec::mcts_level`), with the
    // specification's own refusal of a level out of range.
    let mut spec: PlayerSpec = format!("mcts:level={}", request.level).parse()?;
    if let Some(threads) = request.threads {
        spec = spec.with("threads", &threads.to_string())?;
    }
    if let Some(visits) = request.visits {
        spec = spec.with("visits", &visits.to_string())?;
    }
    let mut ai = spec
        .build_mcts(request.seed)
        .expect("an mcts specification");
    let threads = ai.settings().threads;
    let budget = Budget {
        time: match (request.time, request.visits) {
            (Some(time), _) => Some(time),
            (None, None) => Some(DEFAULT_TIME),
            (None, Some(_)) => None,
        },
        visits: request.visits,
    };
    let analysis = ai.analyze(game, &budget);
    Ok(Report {
        analysis,
        over: false,
        elapsed: start.elapsed(),
        level: request.level,
        threads,
    })
}

// ------------------------------------------------------------------ text

/// The report as text, as `sygo analyze` prints it: the board, the side to
/// move and its chances, the best turns, and the ownership map.
pub fn text(record: &Record, n: usize, game: &Game, report: &Report, paint: Paint) -> String {
    let position = game.position();
    let g = position.geometry();
    let komi = record.info().komi;
    let analysis = &report.analysis;
    let me = position.side_to_move();
    let mut out = String::new();
    if let Some(line) = review::info_line(record.info()) {
        let _ = writeln!(out, "{line}");
    }
    let len = record.main_line_len();
    let heading = match review::last_turn_text(game) {
        Some(text) => format!("turn {n} of {len}: {text}"),
        None => format!("the start; {}", review::turns_in_main_line(len)),
    };
    let _ = writeln!(out, "{}, {heading}", render::board_name(g));

    // The board, with the last turn, what it reversed, and the groups in
    // danger.
    let dangers = position.dangers();
    let mut marks = last_turn_marks(game);
    marks.danger = dangers.iter().flat_map(|d| d.stones.clone()).collect();
    out.push_str(&Renderer::new(position, &marks, paint).board());
    if let Some((color, turn)) = game.turns_with_colors().last()
        && !turn.stones().is_empty()
    {
        let _ = write!(out, "* {color}'s last turn ({})", turn.to_notation(&g));
        if !marks.reversed.is_empty() {
            out.push_str("   ~ reversed by it");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "{}", review::status(position, komi));
    let _ = writeln!(out, "score now: {}", review::score_line(position, komi));
    if !position.is_over() {
        out.push_str(&danger_lines(position, &dangers));
    }
    out.push('\n');

    if report.over {
        let _ = writeln!(
            out,
            "The game is over: nothing to search. On the board (no komi), {}.",
            lead_words(me, analysis.score_lead)
        );
        out.push_str("\nFinal ownership (stones and territory):\n");
    } else {
        let _ = writeln!(
            out,
            "{me} to move: {:.1}% to win, score lead {:+.1} points.",
            percent(analysis.win_rate),
            finite(analysis.score_lead)
        );
        let threads = if report.threads == 1 {
            "1 thread".to_string()
        } else {
            format!("{} threads", report.threads)
        };
        let _ = writeln!(
            out,
            "(AI level {}, {threads}: {} visits in {:.1} s{}.)",
            report.level,
            analysis.visits,
            report.elapsed.as_secs_f64(),
            if komi == 0.0 {
                String::new()
            } else {
                format!("; the rules have no komi: the record's {komi} is not counted")
            }
        );
        out.push('\n');
        out.push_str(&candidates_table(me, &analysis.candidates, &g));
        out.push_str("\nOwnership (who is expected to own each point at the end):\n");
    }
    let mut owners = vec![0.0; g.index_len()];
    for (p, &o) in g.points().zip(&analysis.ownership) {
        owners[p.index()] = o;
    }
    let map = Marks {
        ownership: Some(owners),
        ..Marks::default()
    };
    out.push_str(&Renderer::new(position, &map, paint).board());
    let _ = writeln!(
        out,
        "X O: Black's, White's, surely ({}%+)   x o: likely ({}%+)   . unclear\n\
         ! a stone expected to be reversed (to end as the other side's)",
        sure_percent(SURE),
        sure_percent(LIKELY)
    );
    out
}

/// The groups in danger, a line each, or a line saying there is none.
fn danger_lines(position: &Position, dangers: &[Danger]) -> String {
    let g = position.geometry();
    if dangers.is_empty() {
        return "In danger: no group can be reversed with one turn.\n".to_string();
    }
    let mut out = "In danger (? on the board: the opponent can reverse the group with one turn):\n"
        .to_string();
    for d in dangers {
        let attacker = d.color.opponent();
        let stones = match d.stones.len() {
            1 => "1 stone".to_string(),
            n => format!("{n} stones"),
        };
        let liberties = match d.liberties.len() {
            1 => "1 liberty".to_string(),
            n => format!("{n} liberties"),
        };
        let how = match d.kind {
            CaptureKind::Placement => "a placement".to_string(),
            CaptureKind::Growth if d.growers == 1 => "a growth".to_string(),
            CaptureKind::Growth => format!("{} groups growing together", d.growers),
            CaptureKind::Balance => "the balance turn".to_string(),
        };
        let who = if d.next_turn {
            format!("{attacker} reverses it")
        } else {
            format!("if {} passed, {attacker} would reverse it", d.color)
        };
        let _ = writeln!(
            out,
            "  {} {} ({stones}, {liberties}: {}): {who} with {} ({how})",
            d.color,
            g.vertex(d.stones[0]),
            format_points(&d.liberties, &g),
            format_points(&d.turn, &g),
        );
    }
    out
}

/// `Black leads by 3 points`, `the score is even`, from the lead of `me`.
fn lead_words(me: Color, lead: f64) -> String {
    let (leader, margin) = if lead >= 0.0 {
        (me, lead)
    } else {
        (me.opponent(), -lead)
    };
    if margin == 0.0 {
        "the score is even".to_string()
    } else if margin == 1.0 {
        format!("{leader} leads by 1 point")
    } else {
        format!("{leader} leads by {margin} points")
    }
}

/// The percentage of playouts behind an ownership threshold: 0.6 → 80.
fn sure_percent(threshold: f32) -> u32 {
    (50.0 * (1.0 + threshold)).round() as u32
}

/// A win rate as a percentage, 0 to 100 (50 if it is not a number).
fn percent(win_rate: f64) -> f64 {
    100.0 * rate(win_rate)
}

/// The best turns, one a line: the turn, its visits, win rate, score lead
/// and principal variation.
fn candidates_table(me: Color, candidates: &[Candidate], g: &Geometry) -> String {
    if candidates.is_empty() {
        return "No candidate turns: the search ran no simulation.\n".to_string();
    }
    let rows: Vec<(String, &Candidate)> = candidates
        .iter()
        .map(|c| (c.turn.to_notation(g), c))
        .collect();
    let width = rows.iter().map(|(t, _)| t.len()).max().unwrap_or(4).max(4);
    let mut out = format!("Best turns for {me}:\n");
    let _ = writeln!(
        out,
        "   #  {:<width$}  visits   win %    lead  principal variation",
        "turn"
    );
    for (i, (turn, c)) in rows.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {:>2}  {turn:<width$}  {:>6}  {:>6.1}  {:>+6.1}  {}",
            i + 1,
            c.visits,
            percent(c.win_rate),
            finite(c.score_lead),
            line(&c.pv, g)
        );
    }
    out
}

/// A line of turns: `D5,F7 E6 pass`.
fn line(turns: &[Turn], g: &Geometry) -> String {
    turns
        .iter()
        .map(|t| t.to_notation(g))
        .collect::<Vec<_>>()
        .join(" ")
}

// ------------------------------------------------------------------ JSON

/// The analysis as `--json` prints it.
#[derive(Serialize)]
struct JsonReport {
    /// `sygo` or `hexsygo`.
    variant: &'static str,
    /// The board's size (the side of the square, the base of the hexagon).
    size: u8,
    /// Turns of the main line played to reach the position.
    turn: usize,
    /// Turns in the main line.
    main_line_turns: usize,
    /// `black` or `white`.
    to_move: &'static str,
    /// Whether the game is over (then nothing was searched).
    game_over: bool,
    /// The result with the record's komi, when the game is over.
    result: Option<String>,
    /// The record's komi (not counted by the AI).
    komi: f64,
    /// The AI's level.
    level: u8,
    /// Search threads (0 when nothing was searched).
    threads: usize,
    /// Seconds spent.
    seconds: f64,
    /// The search's view: simulations, win rate, margin, the best turns and
    /// the groups in danger, as the web app writes it too.
    #[serde(flatten)]
    analysis: AnalysisView,
    /// Every point, in the order of `ownership`.
    points: Vec<String>,
    /// For each point, its expected owner from +1 (Black) to −1 (White).
    ownership: Vec<f32>,
}

/// The report as JSON, as `sygo analyze --json` prints it (pretty, ending
/// in a newline): one owner per point, in the order of `points`.
pub fn json(record: &Record, n: usize, game: &Game, report: &Report) -> String {
    let json = JsonReport::new(record, n, game, report);
    let mut text = serde_json::to_string_pretty(&json).expect("the report is plain data");
    text.push('\n');
    text
}

impl JsonReport {
    fn new(record: &Record, n: usize, game: &Game, report: &Report) -> JsonReport {
        let position = game.position();
        let g = position.geometry();
        let komi = record.info().komi;
        let analysis = &report.analysis;
        JsonReport {
            variant: g.variant().name(),
            size: g.size(),
            turn: n,
            main_line_turns: record.main_line_len(),
            to_move: position.side_to_move().lowercase(),
            game_over: report.over,
            result: position.outcome().map(|outcome| match position.resigned() {
                Some(_) => outcome.to_string(),
                None => position.score().result_with_komi(komi),
            }),
            komi,
            level: report.level,
            threads: report.threads,
            seconds: report.elapsed.as_secs_f64(),
            analysis: AnalysisView::new(position, analysis),
            points: g.points().map(|p| g.vertex(p).to_string()).collect(),
            ownership: AnalysisView::ownership(analysis),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finished_game_is_not_searched_but_scored() {
        let record = Record::parse("(;GM[400]VR[sygo]SZ[5];W[cc];B[];W[])").unwrap();
        let n = record.main_line_len();
        let game = record.game_after(n);
        let request = Request {
            level: 1,
            threads: None,
            visits: None,
            time: None,
            seed: 1,
        };
        let report = analyse(&request, &game).unwrap();
        assert!(report.over);
        assert_eq!(report.analysis.visits, 0);
        assert_eq!(report.analysis.win_rate, 0.0, "Black, to move, has lost");
        let text = text(&record, n, &game, &report, Paint { color: false });
        assert!(
            text.contains("The game is over: nothing to search. On the board (no komi), White leads by 25 points."),
            "{text}"
        );
        let json = json(&record, n, &game, &report);
        assert!(json.contains("\"game_over\": true"), "{json}");
        assert!(json.ends_with("}\n"));
    }

    #[test]
    fn a_level_out_of_range_is_refused() {
        let game = Game::new(Position::new(Geometry::sygo(5).unwrap()));
        let request = Request {
            level: 9,
            threads: None,
            visits: Some(1),
            time: None,
            seed: 1,
        };
        assert!(matches!(
            analyse(&request, &game),
            Err(SpecError::Option(_))
        ));
    }
}
