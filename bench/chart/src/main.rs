//! `bench-chart`: the run times of benchmark CSVs as bar charts, one panel
//! per CSV (the suite's direct and scheduled forms) in one picture: per
//! kernel, one bar per path (LLVM 22's lowering, clang -O3 on the C
//! reference, Halide, hydride), each drawn as its speed relative to LLVM's
//! path (LLVM time / path time, log scale; LLVM = 1.0 drawn as a line).

use anyhow::{bail, Context, Result};
use clap::Parser;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    about = "Draw the run times of benchmark CSVs (kernel, llvm_ms, clang_ms, halide_ms, hydride_ms, …) as a PNG bar chart, one panel per CSV"
)]
struct Args {
    /// A CSV `scripts/bench` writes; repeated, one panel each, top to bottom
    /// (titled by the file's name: `-scheduled` is the scheduled form).
    #[arg(long, required = true, num_args = 1..)]
    csv: Vec<PathBuf>,
    /// The PNG to write.
    #[arg(long, default_value = "results/bench-x86-avx512.png")]
    out: PathBuf,
    /// A TrueType font for the labels.
    #[arg(long, default_value = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")]
    font: PathBuf,
}

/// The paths, as (CSV column, legend, colour).
const PATHS: [(&str, &str, RGBColor); 4] = [
    ("llvm_ms", "LLVM 22 (MLIR's lowering)", RGBColor(120, 120, 120)),
    ("clang_ms", "clang -O3 (C reference)", RGBColor(30, 100, 190)),
    ("halide_ms", "Halide 21", RGBColor(230, 140, 20)),
    ("hydride_ms", "hydride", RGBColor(46, 125, 50)),
];

/// A kernel's run time per path (None: the path has no figure).
#[derive(Debug, PartialEq)]
struct Row {
    kernel: String,
    ms: [Option<f64>; 4],
}

impl Row {
    /// Speed of each path relative to LLVM's (LLVM time / path time).
    fn relative(&self) -> [Option<f64>; 4] {
        let llvm = self.ms[0];
        self.ms.map(|t| match (llvm, t) {
            (Some(l), Some(t)) if t > 0.0 => Some(l / t),
            _ => None,
        })
    }
}

/// The rows of the CSV, in file order. A missing figure is written `–` or
/// `nan`; a column that is absent altogether (an older CSV) has none.
fn rows(text: &str) -> Result<Vec<Row>> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().context("the CSV is empty")?.split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name);
    let kernel = col("kernel").context("the CSV has no `kernel` column")?;
    let cols = PATHS.map(|(c, _, _)| col(c));
    if cols[0].is_none() || cols[3].is_none() {
        bail!("the CSV has no `llvm_ms` or `hydride_ms` column");
    }
    let mut out = Vec::new();
    for (n, line) in lines.enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        let Some(k) = f.get(kernel) else { bail!("CSV line {}: too few fields", n + 2) };
        let mut ms = [None; 4];
        for (i, c) in cols.iter().enumerate() {
            let Some(c) = c else { continue };
            let Some(v) = f.get(*c) else { bail!("CSV line {}: too few fields", n + 2) };
            ms[i] = match *v {
                "–" | "nan" | "" => None,
                v => Some(v.parse::<f64>().with_context(|| format!("CSV line {}: '{v}' is not a number", n + 2))?),
            };
        }
        out.push(Row { kernel: k.to_string(), ms });
    }
    Ok(out)
}

/// Slots per kernel: one per path and a gap.
const SLOTS: usize = PATHS.len() + 1;

/// The form a CSV's name says (`bench-<target>-scheduled.csv`: scheduled).
fn form_of(csv: &std::path::Path) -> &'static str {
    let stem = csv.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    if stem.ends_with("-scheduled") {
        "scheduled form: the loops of each kernel's Halide pipeline"
    } else {
        "direct form: the suite's MLIR as written"
    }
}

fn main() -> Result<()> {
    let args = Args::parse();
    let mut panels = Vec::new();
    for csv in &args.csv {
        let text = std::fs::read_to_string(csv).with_context(|| format!("reading {}", csv.display()))?;
        let rows = rows(&text)?;
        if rows.iter().all(|r| r.relative().iter().flatten().next().is_none()) {
            bail!("{}: no kernel has run times", csv.display());
        }
        panels.push((form_of(csv), rows));
    }
    let font = std::fs::read(&args.font).with_context(|| format!("reading the font {}", args.font.display()))?;
    let font: &'static [u8] = Box::leak(font.into_boxed_slice());
    register_font("sans-serif", FontStyle::Normal, font)
        .map_err(|_| anyhow::anyhow!("{} is not a usable font", args.font.display()))?;
    let heights: Vec<u32> = panels.iter().map(|(_, rows)| panel_height(rows.len())).collect();
    let root = BitMapBackend::new(&args.out, (1200, heights.iter().sum())).into_drawing_area();
    root.fill(&WHITE)?;
    let mut rest = root.clone();
    for ((form, rows), height) in panels.iter().zip(&heights) {
        let (area, below) = rest.split_vertically(*height);
        draw_panel(&area, form, rows)?;
        rest = below;
    }
    root.present()?;
    eprintln!("wrote {} ({} panels)", args.out.display(), panels.len());
    Ok(())
}

fn panel_height(kernels: usize) -> u32 {
    160 + 12 * (SLOTS * kernels) as u32
}

/// One CSV's bars on `area`, titled with its form.
fn draw_panel(area: &DrawingArea<BitMapBackend, plotters::coord::Shift>, form: &str, rows: &[Row]) -> Result<()> {
    let values: Vec<f64> = rows.iter().flat_map(|r| r.relative()).flatten().collect();
    let lo = values.iter().copied().fold(1.0f64, f64::min) * 0.8;
    let hi = values.iter().copied().fold(1.0f64, f64::max) * 2.5; // room on the right for the legend
    let last = SLOTS * rows.len() - 1;
    let mut chart = ChartBuilder::on(area)
        .caption(format!("Run time relative to LLVM 22's path (> 1 is faster); {form}"), ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(40)
        .y_label_area_size(170)
        .build_cartesian_2d((lo..hi).log_scale(), (0..last).into_segmented())?;
    // Kernels top to bottom in file order: kernel i's path j is slot last - (i * SLOTS + j).
    let slot = |i: usize, j: usize| last - (i * SLOTS + j);
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(SLOTS * rows.len())
        .y_label_formatter(&|y| match y {
            SegmentValue::CenterOf(s) if (last - *s) % SLOTS == 1 => {
                rows.get((last - *s) / SLOTS).map(|r| r.kernel.clone()).unwrap_or_default()
            }
            _ => String::new(),
        })
        .y_label_style(("sans-serif", 15))
        .x_desc("speed relative to LLVM 22 (log scale)")
        .draw()?;
    for (j, (_, legend, color)) in PATHS.iter().enumerate() {
        let bars = rows.iter().enumerate().filter_map(|(i, r)| r.relative()[j].map(|v| (slot(i, j), v)));
        chart
            .draw_series(bars.map(|(s, v)| {
                Rectangle::new([(lo, SegmentValue::Exact(s)), (v, SegmentValue::Exact(s + 1))], color.filled())
            }))?
            .label(*legend)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled()));
    }
    chart.draw_series(LineSeries::new([(1.0, SegmentValue::Exact(0)), (1.0, SegmentValue::Exact(last + 1))], BLACK))?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 15))
        .draw()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_come_from_the_named_columns() {
        let csv = "kernel,llvm_ms,clang_ms,halide_ms,hydride_ms,correct\nsobel3x3,2.0,4.0,–,1.0,yes\n";
        let r = rows(csv).unwrap();
        assert_eq!(r, vec![Row { kernel: "sobel3x3".into(), ms: [Some(2.0), Some(4.0), None, Some(1.0)] }]);
        assert_eq!(r[0].relative(), [Some(1.0), Some(0.5), None, Some(2.0)]);
        assert!(rows("kernel,correct\n").unwrap_err().to_string().contains("llvm_ms"));
        assert!(rows("kernel,llvm_ms,hydride_ms\nx,fast,1\n").is_err());
    }

    #[test]
    fn a_csv_without_peer_columns_still_has_llvm_and_hydride() {
        let r = rows("kernel,llvm_ms,hydride_ms\nadd,3,1.5\n").unwrap();
        assert_eq!(r[0].relative(), [Some(1.0), None, None, Some(2.0)]);
    }

    #[test]
    fn a_panel_is_titled_by_its_form() {
        assert!(form_of(std::path::Path::new("results/bench-x86-avx2-scheduled.csv")).starts_with("scheduled"));
        assert!(form_of(std::path::Path::new("results/bench-x86-avx2.csv")).starts_with("direct"));
    }
}
