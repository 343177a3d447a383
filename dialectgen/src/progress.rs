//! Progress of long work on stderr, as `hydride` shows it: one bar per
//! stage; where stderr is not a terminal (CI logs), one line per stage as
//! it ends, with its time.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;

/// Reports progress of long work: `(stage, done, total)`.
pub trait Progress: Sync {
    fn update(&self, stage: &str, done: usize, total: usize);
}

impl<F: Fn(&str, usize, usize) + Sync> Progress for F {
    fn update(&self, stage: &str, done: usize, total: usize) {
        self(stage, done, total)
    }
}

/// One progress bar per stage of long work, on stderr; where stderr is not
/// a terminal (CI logs), one line per stage as it ends, with its time.
#[derive(Default)]
pub struct StageBars(Mutex<Option<Stage>>);

struct Stage {
    name: String,
    bar: ProgressBar,
    started: std::time::Instant,
    done: usize,
    total: usize,
}

impl Stage {
    fn end(self) {
        self.bar.finish();
        if !std::io::stderr().is_terminal() {
            let secs = self.started.elapsed().as_secs_f64();
            eprintln!("{}: {} of {} in {secs:.1} s", self.name, self.done, self.total);
        }
    }
}

impl Progress for StageBars {
    fn update(&self, stage: &str, done: usize, total: usize) {
        let mut slot = self.0.lock().expect("progress lock");
        if slot.as_ref().map(|s| s.name.as_str()) != Some(stage) {
            if let Some(s) = slot.take() {
                s.end();
            }
            let bar = ProgressBar::new(total as u64);
            bar.set_style(
                ProgressStyle::with_template("{msg:>9} [{bar:40}] {pos}/{len} {elapsed}")
                    .expect("template")
                    .progress_chars("=> "),
            );
            bar.set_message(stage.to_string());
            let started = std::time::Instant::now();
            *slot = Some(Stage { name: stage.to_string(), bar, started, done, total });
        }
        if let Some(s) = slot.as_mut() {
            s.bar.set_position(done as u64);
            (s.done, s.total) = (done, total);
        }
    }
}

impl StageBars {
    /// Ends the stage under way (its line, where stderr is not a terminal).
    pub fn finish(&self) {
        if let Some(s) = self.0.lock().expect("progress lock").take() {
            s.end();
        }
    }
}
