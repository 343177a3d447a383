//! `bench-chart`: the speedup column of the benchmark CSV as a bar chart
//! (one bar per kernel, LLVM 22 = 1.0 drawn as a line).

use anyhow::{bail, Context, Result};
use clap::Parser;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};
use std::path::PathBuf;

#[derive(Parser)]
#[command(about = "Draw the speedups of a benchmark CSV (kernel, …, speedup, …) as a PNG bar chart")]
struct Args {
    /// The CSV `scripts/bench` writes.
    #[arg(long, default_value = "results/bench-x86-avx512.csv")]
    csv: PathBuf,
    /// The PNG to write.
    #[arg(long, default_value = "results/bench-x86-avx512.png")]
    out: PathBuf,
    /// A TrueType font for the labels.
    #[arg(long, default_value = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")]
    font: PathBuf,
}

/// (kernel, speedup) rows of the CSV, in file order.
fn speedups(text: &str) -> Result<Vec<(String, f64)>> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().context("the CSV is empty")?.split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).with_context(|| format!("the CSV has no `{name}` column"));
    let (kernel, speedup) = (col("kernel")?, col("speedup")?);
    let mut rows = Vec::new();
    for (n, line) in lines.enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        let (Some(k), Some(s)) = (f.get(kernel), f.get(speedup)) else { bail!("CSV line {}: too few fields", n + 2) };
        let s: f64 = s.parse().with_context(|| format!("CSV line {}: speedup '{s}' is not a number", n + 2))?;
        rows.push((k.to_string(), s));
    }
    Ok(rows)
}

fn main() -> Result<()> {
    let args = Args::parse();
    let text = std::fs::read_to_string(&args.csv).with_context(|| format!("reading {}", args.csv.display()))?;
    let rows = speedups(&text)?;
    if rows.is_empty() {
        bail!("{}: no kernels", args.csv.display());
    }
    let font = std::fs::read(&args.font).with_context(|| format!("reading the font {}", args.font.display()))?;
    let font: &'static [u8] = Box::leak(font.into_boxed_slice());
    register_font("sans-serif", FontStyle::Normal, font).map_err(|_| anyhow::anyhow!("{} is not a usable font", args.font.display()))?;
    let top = rows.iter().map(|r| r.1).fold(1.0f64, f64::max) * 1.1;
    let height = 120 + 26 * rows.len() as u32;
    let root = BitMapBackend::new(&args.out, (1100, height)).into_drawing_area();
    root.fill(&WHITE)?;
    // One bar per kernel, top to bottom in file order (segments 0..=n-1).
    let last = rows.len() - 1;
    let mut chart = ChartBuilder::on(&root)
        .caption("hydride vs LLVM 22: native run time speedup (LLVM time / hydride time)", ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(40)
        .y_label_area_size(170)
        .build_cartesian_2d(0.0..top, (0..last).into_segmented())?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(rows.len())
        .y_label_formatter(&|y| match y {
            SegmentValue::CenterOf(i) => rows.get(last - *i).map(|r| r.0.clone()).unwrap_or_default(),
            _ => String::new(),
        })
        .y_label_style(("sans-serif", 15))
        .x_desc("speedup (1.0 = LLVM 22)")
        .draw()?;
    chart.draw_series(rows.iter().enumerate().map(|(i, (_, s))| {
        let color = if *s >= 1.0 { RGBColor(46, 125, 50) } else { RGBColor(198, 40, 40) };
        let slot = last - i;
        Rectangle::new([(0.0, SegmentValue::Exact(slot)), (*s, SegmentValue::Exact(slot + 1))], color.filled())
    }))?;
    chart.draw_series(LineSeries::new([(1.0, SegmentValue::Exact(0)), (1.0, SegmentValue::Exact(last + 1))], BLACK))?;
    root.present()?;
    eprintln!("wrote {} ({} kernels)", args.out.display(), rows.len());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_come_from_the_named_columns() {
        let csv = "kernel,target,speedup,correct\nsobel3x3,x86-avx512,1.250,yes\nadd,x86-avx512,0.900,yes\n";
        assert_eq!(speedups(csv).unwrap(), vec![("sobel3x3".into(), 1.25), ("add".into(), 0.9)]);
        assert!(speedups("kernel,correct\n").unwrap_err().to_string().contains("speedup"));
        assert!(speedups("kernel,speedup\nx,fast\n").is_err());
    }
}
