//! The plots of a study, as SVG (plotters' SVG backend: the text is left to
//! the viewer's fonts, so nothing here needs a font library).
//!
//! - One study: the distribution of the score margin, and of the game
//!   length in turns.
//! - Several studies: White's score by board with its 95% interval, and
//!   the mean margin by board with its interval, with and without the
//!   balance turn side by side.

use std::fs;
use std::path::Path;

use anyhow::Context as _;
use plotters::prelude::*;

use super::report::{Study, board_of};
use super::stats::Estimate;

/// The size of every plot, in pixels.
const SIZE: (u32, u32) = (800, 480);
/// The colours of the series with the balance turn and without.
const ON: RGBColor = RGBColor(31, 119, 180);
const OFF: RGBColor = RGBColor(214, 39, 40);

/// A plotters error as text (its error types borrow the backend's).
fn drawing<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing the plot: {e:?}")
}

/// Writes an SVG drawn by `draw` into `path`.
fn write_svg(
    path: &Path,
    draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        draw(&root)?;
        root.present().map_err(drawing)?;
    }
    fs::write(path, svg).with_context(|| format!("cannot write {}", path.display()))
}

/// A histogram of `values` (whole numbers) in about 30 bins of whole
/// widths.
pub fn histogram(
    path: &Path,
    title: &str,
    x_label: &str,
    values: &[f64],
    mark_zero: bool,
) -> anyhow::Result<()> {
    let (low, high) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
            (l.min(v), h.max(v))
        });
    let (low, high) = if values.is_empty() {
        (0.0, 1.0)
    } else {
        (low, high)
    };
    let width = ((high - low + 1.0) / 30.0).ceil().max(1.0);
    let start = (low / width).floor() * width;
    let bins = ((high - start) / width).floor() as usize + 1;
    let mut counts = vec![0u32; bins];
    for &v in values {
        let i = ((v - start) / width).floor() as usize;
        counts[i.min(bins - 1)] += 1;
    }
    let top = f64::from(counts.iter().copied().max().unwrap_or(0).max(1)) * 1.1;
    let end = start + width * bins as f64;
    let (x0, x1) = if mark_zero {
        (start.min(-width), end.max(width))
    } else {
        (start, end)
    };
    write_svg(path, |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(55)
            .build_cartesian_2d(x0..x1, 0.0..top)
            .map_err(drawing)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc(x_label)
            .y_desc("games")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()
            .map_err(drawing)?;
        chart
            .draw_series(
                counts
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| **c > 0)
                    .map(|(i, &c)| {
                        let a = start + width * i as f64;
                        Rectangle::new([(a, 0.0), (a + width, f64::from(c))], ON.mix(0.7).filled())
                    }),
            )
            .map_err(drawing)?;
        if mark_zero {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(0.0, 0.0), (0.0, top)],
                    BLACK.stroke_width(1),
                )))
                .map_err(drawing)?;
        }
        Ok(())
    })
}

/// A value per board with its interval, with and without the balance turn
/// side by side: `value` picks a study's estimate (`None`: left out).
pub fn by_board(
    path: &Path,
    title: &str,
    y_label: &str,
    studies: &[Study],
    value: impl Fn(&Study) -> Option<Estimate>,
    y_range: Option<(f64, f64)>,
    reference: Option<f64>,
) -> anyhow::Result<()> {
    // The boards in order: Sygo by size, then Hexsygo by size.
    let mut boards: Vec<(sygo_rules::Variant, u8)> = studies
        .iter()
        .map(|s| (s.params.variant, s.params.size))
        .collect();
    boards.sort();
    boards.dedup();
    let names: Vec<String> = boards
        .iter()
        .map(|&(v, n)| super::table::board_name(v, n))
        .collect();
    let points: Vec<(usize, bool, Estimate)> = studies
        .iter()
        .filter_map(|s| {
            let board = boards
                .iter()
                .position(|&b| b == (s.params.variant, s.params.size))?;
            Some((board, s.params.balance, value(s)?))
        })
        .collect();
    let (low, high) = y_range.unwrap_or_else(|| {
        let low = points.iter().map(|p| p.2.low).fold(f64::INFINITY, f64::min);
        let high = points
            .iter()
            .map(|p| p.2.high)
            .fold(f64::NEG_INFINITY, f64::max);
        let (low, high) = if points.is_empty() {
            (0.0, 1.0)
        } else {
            (
                low.min(reference.unwrap_or(low)),
                high.max(reference.unwrap_or(high)),
            )
        };
        let pad = ((high - low) * 0.08).max(1.0);
        (low - pad, high + pad)
    });
    let k = boards.len().max(1);
    write_svg(path, |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(55)
            .y_label_area_size(60)
            .build_cartesian_2d(-0.5..(k as f64 - 0.5), low..high)
            .map_err(drawing)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(k)
            .x_label_formatter(&|x| {
                let i = x.round();
                if (x - i).abs() < 1e-6 && i >= 0.0 {
                    names.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .y_desc(y_label)
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()
            .map_err(drawing)?;
        if let Some(r) = reference {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(-0.5, r), (k as f64 - 0.5, r)],
                    BLACK.mix(0.5).stroke_width(1),
                )))
                .map_err(drawing)?;
        }
        for (balance, colour, shift) in [(true, ON, -0.12), (false, OFF, 0.12)] {
            let series: Vec<(f64, Estimate)> = points
                .iter()
                .filter(|p| p.1 == balance)
                .map(|p| (p.0 as f64 + shift, p.2))
                .collect();
            if series.is_empty() {
                continue;
            }
            chart
                .draw_series(series.iter().map(|(x, e)| {
                    PathElement::new(vec![(*x, e.low), (*x, e.high)], colour.stroke_width(2))
                }))
                .map_err(drawing)?;
            chart
                .draw_series(series.iter().flat_map(|(x, e)| {
                    [e.low, e.high].map(|y| {
                        PathElement::new(vec![(x - 0.05, y), (x + 0.05, y)], colour.stroke_width(2))
                    })
                }))
                .map_err(drawing)?;
            chart
                .draw_series(
                    series
                        .iter()
                        .map(|(x, e)| Circle::new((*x, e.value), 5, colour.filled())),
                )
                .map_err(drawing)?;
        }
        // The legend under the plot, where it hides no interval.
        let y = SIZE.1 as i32 - 14;
        let mut x = 90;
        for (colour, label) in [(ON, "with the balance turn"), (OFF, "without it")] {
            root.draw(&Circle::new((x, y), 5, colour.filled()))
                .map_err(drawing)?;
            root.draw(&Text::new(label, (x + 12, y - 7), ("sans-serif", 14)))
                .map_err(drawing)?;
            x += 220;
        }
        Ok(())
    })
}

/// The plots of one study, in its folder: `margins.svg` and `lengths.svg`.
pub fn study_plots(dir: &Path, study: &Study) -> anyhow::Result<()> {
    let name = format!(
        "{}, balance turn {}",
        board_of(study),
        super::table::on_off(study.params.balance)
    );
    histogram(
        &dir.join("margins.svg"),
        &format!(
            "{name}: score margin, {} games",
            study.numbers.margins.len()
        ),
        "White's score − Black's",
        &study.numbers.margins,
        true,
    )?;
    histogram(
        &dir.join("lengths.svg"),
        &format!("{name}: game length, {} games", study.numbers.turns.len()),
        "turns",
        &study.numbers.turns,
        false,
    )
}
