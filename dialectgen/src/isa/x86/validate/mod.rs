//! Validation of x86 semantics against the real instructions on this CPU.
//!
//! For every intrinsic, test vectors are generated ([`cases`]), a batch of
//! intrinsics is compiled into one C program ([`harness`]) and run natively,
//! and every result is compared bit for bit with the concrete interpreter.

pub mod cache;
pub mod config;
pub mod evidence;
pub mod guide_types;
pub mod harness;
pub mod outcome;
pub mod record;

use crate::validate::{blame_compile_errors, cases};

use crate::eval::{Concrete, Machine};
use crate::isa::x86::guide::GuideEntry;
use crate::sema::ir::Semantics;
use cases::TestCase;
use evidence::Evidence;
use guide_types::CallSignature;
use num_bigint::BigUint;
use rayon::prelude::*;
use record::{Verdict, Vouch};
use std::path::Path;

pub use config::ValidationConfig;
pub use outcome::{Outcome, ValidationError};
use std::process::Command;

struct Item<'a> {
    entry: &'a GuideEntry,
    sema: &'a Semantics,
    call: CallSignature,
    cases: Vec<TestCase>,
}

impl Item<'_> {
    /// Restricts the immediate to the bits the guide says it decodes, when
    /// that is fewer than tried; false when there is nothing to narrow.
    fn narrow_immediate(&mut self) -> bool {
        let Some(bits) = cases::decoded_immediate_bits(self.sema) else { return false };
        let allowed = cases::immediate_values(bits);
        if self.call.imm_values.as_ref().is_some_and(|v| v.len() <= allowed.len()) {
            return false;
        }
        cases::narrow_immediates(&mut self.cases, bits);
        self.call.imm_values = Some(allowed);
        true
    }
}

/// Validates every `(entry, semantics)` pair; `progress` is called with the
/// number of intrinsics finished so far.
pub fn validate(
    items: &[(&GuideEntry, &Semantics)],
    cfg: &ValidationConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<Outcome>, ValidationError> {
    Command::new(&cfg.compiler)
        .arg("--version")
        .output()
        .map_err(|source| ValidationError::Compiler { compiler: cfg.compiler.display().to_string(), source })?;
    let temp = tempfile::tempdir()?;
    let dir = cfg.work_dir.clone().unwrap_or_else(|| temp.path().to_path_buf());
    std::fs::create_dir_all(&dir)?;
    let mut outcomes: Vec<Option<Outcome>> = vec![None; items.len()];
    let runnable = settle_unrunnable(items, cfg, &mut outcomes);
    let cache = cfg.cache_dir.as_ref().map(|d| cache::VerdictCache::new(d, cfg, &cfg.host.flags_string()));
    let built = fresh_items(items, runnable, cache.as_ref(), cfg, &mut outcomes);
    let done = std::sync::atomic::AtomicUsize::new(items.len() - built.len());
    progress(done.load(std::sync::atomic::Ordering::Relaxed));
    let calls: std::collections::HashMap<usize, CallSignature> =
        built.iter().map(|(i, it)| (*i, it.call.clone())).collect();
    let results = run_batches(batches_of(built, cfg), cfg, &dir, &done, progress);
    for (i, o) in results.into_iter().flatten() {
        if let Some(c) = &cache {
            c.put(items[i].1, &calls[&i], &o);
        }
        outcomes[i] = Some(o);
    }
    if let Some(record) = &cfg.record {
        hold_to_record(record, &mut outcomes, items);
    }
    Ok(outcomes
        .into_iter()
        .map(|o| o.unwrap_or(Outcome::Failed { stage: "harness", reason: "not run".into() }))
        .collect())
}

/// Settles the intrinsics this host cannot run: those needing CPU features
/// it lacks go to the record ([`by_record`]), those with more than one
/// immediate fail. The indices of the rest, which can run here.
fn settle_unrunnable(
    items: &[(&GuideEntry, &Semantics)],
    cfg: &ValidationConfig,
    outcomes: &mut [Option<Outcome>],
) -> Vec<usize> {
    let mut runnable = Vec::new();
    let mut elsewhere = Vec::new();
    for (i, (entry, sema)) in items.iter().enumerate() {
        if let Some(missing) = cfg.host.missing(&entry.cpuids) {
            elsewhere.push((i, missing));
        } else if sema.args.iter().filter(|a| a.kind == crate::sema::ir::ArgKind::Immediate).count() > 1 {
            outcomes[i] = Some(Outcome::Failed { stage: "harness", reason: "more than one immediate".into() });
        } else {
            runnable.push(i);
        }
    }
    let vouched: Vec<(usize, Outcome)> =
        elsewhere.into_par_iter().map(|(i, missing)| (i, by_record(items[i].0, items[i].1, cfg, missing))).collect();
    for (i, o) in vouched {
        outcomes[i] = Some(o);
    }
    runnable
}

/// The runnable intrinsics the verdict cache does not answer, with their
/// call signatures and test vectors; cached verdicts go to `outcomes`.
fn fresh_items<'a>(
    items: &[(&'a GuideEntry, &'a Semantics)],
    runnable: Vec<usize>,
    cache: Option<&cache::VerdictCache>,
    cfg: &ValidationConfig,
    outcomes: &mut [Option<Outcome>],
) -> Vec<(usize, Item<'a>)> {
    let mut fresh = Vec::new();
    for i in runnable {
        let (entry, sema) = items[i];
        let call = CallSignature::new(entry, sema);
        match cache.and_then(|c| c.get(sema, &call)) {
            Some(o) => outcomes[i] = Some(o),
            None => fresh.push((i, call)),
        }
    }
    fresh
        .into_par_iter()
        .map(|(i, call)| {
            let (entry, sema) = items[i];
            let cases = cases::generate(sema, cfg.random_cases, cfg.cases_per_immediate);
            (i, Item { entry, sema, call, cases })
        })
        .collect()
}

/// The items in order, in batches of at most `cfg.batch_size`.
fn batches_of<'a>(built: Vec<(usize, Item<'a>)>, cfg: &ValidationConfig) -> Vec<Vec<(usize, Item<'a>)>> {
    let mut batches: Vec<Vec<(usize, Item)>> = Vec::new();
    for item in built {
        match batches.last_mut() {
            Some(b) if b.len() < cfg.batch_size.max(1) => b.push(item),
            _ => batches.push(vec![item]),
        }
    }
    batches
}

/// Every batch's outcomes, the batches run on `cfg.jobs` threads; `done`
/// counts the intrinsics finished and `progress` hears of it.
fn run_batches(
    batches: Vec<Vec<(usize, Item)>>,
    cfg: &ValidationConfig,
    dir: &Path,
    done: &std::sync::atomic::AtomicUsize,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Vec<(usize, Outcome)>> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(cfg.jobs.max(1)).build().expect("thread pool");
    pool.install(|| {
        batches
            .into_par_iter()
            .enumerate()
            .map(|(b, batch)| {
                let n = batch.len();
                let r = run_batch(b, batch, cfg, dir);
                let n = done.fetch_add(n, std::sync::atomic::Ordering::Relaxed) + n;
                progress(n);
                r
            })
            .collect()
    })
}

/// Holds this host's verdicts to the validation record: a verdict or failure
/// the record disagrees with becomes a mismatch.
fn hold_to_record(record: &record::Record, outcomes: &mut [Option<Outcome>], items: &[(&GuideEntry, &Semantics)]) {
    for (o, (entry, sema)) in outcomes.iter_mut().zip(items) {
        let (verdict, evidence) = match o {
            Some(Outcome::Validated { evidence, by_record: None }) => (Verdict::Validated, evidence.clone()),
            Some(Outcome::Mismatch { evidence: Some(evidence), .. }) => (Verdict::Mismatch, evidence.clone()),
            Some(Outcome::Failed { stage, reason }) if *stage != "unvalidated" => {
                let semantics = evidence::semantics_sha256(sema);
                if let Some(why) = record.failed_here(&entry.name, &semantics, stage, reason) {
                    *o = Some(Outcome::Mismatch { detail: format!("{}: {why}", entry.name), evidence: None });
                }
                continue;
            }
            _ => continue,
        };
        if let Some(why) = record.disagreement(&entry.name, &verdict, &evidence) {
            *o = Some(Outcome::Mismatch { detail: format!("{}: {why}", entry.name), evidence: Some(evidence) });
        }
    }
}

/// The verdict for an intrinsic this host cannot execute: the record's, if
/// it vouches for exactly these semantics and vectors.
fn by_record(entry: &GuideEntry, sema: &Semantics, cfg: &ValidationConfig, missing: &str) -> Outcome {
    let lacks = format!("this host lacks {missing}");
    let Some(record) = &cfg.record else {
        return Outcome::Failed { stage: "unvalidated", reason: format!("{lacks} and no validation record is used") };
    };
    let call = CallSignature::new(entry, sema);
    let mut cases = cases::generate(sema, cfg.random_cases, cfg.cases_per_immediate);
    let mut current = match Evidence::of_interpreter(sema, &call, &cases) {
        Ok(e) => e,
        Err(e) => return Outcome::Failed { stage: "eval", reason: e.to_string() },
    };
    // The recorded vectors may be those narrowed to the immediate bits the
    // compiler accepts (see `Item::narrow_immediate`).
    let recorded_vectors = record.entries.get(&sema.name).map(|e| e.evidence.vectors_sha256.clone());
    if recorded_vectors.is_some_and(|v| v != current.vectors_sha256) {
        if let Some(bits) = cases::decoded_immediate_bits(sema) {
            cases::narrow_immediates(&mut cases, bits);
            match Evidence::of_interpreter(sema, &call, &cases) {
                Ok(e) => current = e,
                Err(e) => return Outcome::Failed { stage: "eval", reason: e.to_string() },
            }
        }
    }
    match record.vouch(&sema.name, &current) {
        Vouch::Validated { run } => Outcome::Validated { evidence: current, by_record: Some(run) },
        Vouch::Mismatch { detail } => Outcome::Mismatch { detail: format!("{}: {detail}", sema.name), evidence: None },
        Vouch::Unvalidated { reason } => Outcome::Failed { stage: "unvalidated", reason: format!("{lacks}; {reason}") },
    }
}

fn run_batch(b: usize, mut batch: Vec<(usize, Item)>, cfg: &ValidationConfig, dir: &Path) -> Vec<(usize, Outcome)> {
    let mut out = Vec::new();
    let exe = dir.join(format!("batch{b}"));
    let live = match compile_batch(b, batch.iter_mut().collect(), cfg, dir, &exe, &mut out) {
        Ok(live) => live,
        Err(failed) => return failed,
    };
    if live.is_empty() {
        return out;
    }
    let results = match run_compiled(b, &live, dir, &exe, &mut out) {
        Ok(results) => results,
        Err(failed) => return failed,
    };
    let compared: Vec<(usize, Outcome)> = live
        .par_iter()
        .zip(results.par_iter())
        .filter_map(|((i, it), r)| r.as_ref().map(|r| (*i, compare(it, r))))
        .collect();
    out.extend(compared);
    out
}

/// Compiles the batch's test program to `exe`, dropping intrinsics the
/// compiler rejects (into `out`) or narrowing their immediates, and
/// retrying. The intrinsics compiled; `Err` holds the whole batch's
/// outcomes when it cannot be compiled at all.
fn compile_batch<'b, 'a>(
    b: usize,
    mut live: Vec<&'b mut (usize, Item<'a>)>,
    cfg: &ValidationConfig,
    dir: &Path,
    exe: &Path,
    out: &mut Vec<(usize, Outcome)>,
) -> Result<Vec<&'b mut (usize, Item<'a>)>, Vec<(usize, Outcome)>> {
    for attempt in 0..6 {
        let calls: Vec<CallSignature> = live.iter().map(|(_, it)| it.call.clone()).collect();
        let src = harness::c_program(&calls);
        let c_path = dir.join(format!("batch{b}.c"));
        if let Err(e) = std::fs::write(&c_path, &src) {
            return Err(all_failed(live.iter().map(|(i, _)| *i), "harness", &e.to_string()));
        }
        let result = Command::new(&cfg.compiler).args(&cfg.compiler_flags).arg("-o").arg(exe).arg(&c_path).output();
        let result = match result {
            Ok(r) => r,
            Err(e) => return Err(all_failed(live.iter().map(|(i, _)| *i), "compile", &e.to_string())),
        };
        if result.status.success() {
            break;
        }
        let stderr = String::from_utf8_lossy(&result.stderr);
        let blamed = blame_compile_errors(&src, &stderr, &c_path);
        if blamed.is_empty() || attempt == 5 {
            let first = stderr.lines().find(|l| l.contains("error")).unwrap_or("compile failed").to_string();
            return Err(all_failed(live.iter().map(|(i, _)| *i), "compile", &first));
        }
        let mut keep = Vec::new();
        for (k, it) in live.into_iter().enumerate() {
            match blamed.iter().find(|(t, _)| *t == k) {
                Some((_, msg)) if msg.contains("outside the valid range") && it.1.narrow_immediate() => keep.push(it),
                Some((_, msg)) => out.push((it.0, Outcome::Failed { stage: "compile", reason: msg.clone() })),
                None => keep.push(it),
            }
        }
        live = keep;
        if live.is_empty() {
            break;
        }
    }
    Ok(live)
}

/// Runs the compiled test program over every intrinsic's vectors: the CPU's
/// results per intrinsic, `None` for one whose run crashed (its failure goes
/// to `out`; the rest run again). `Err` holds the whole batch's outcomes
/// when the program fails without a test to blame.
#[allow(clippy::type_complexity)]
fn run_compiled(
    b: usize,
    live: &[&mut (usize, Item)],
    dir: &Path,
    exe: &Path,
    out: &mut Vec<(usize, Outcome)>,
) -> Result<Vec<Option<Vec<Vec<u8>>>>, Vec<(usize, Outcome)>> {
    let mut results: Vec<Option<Vec<Vec<u8>>>> = vec![None; live.len()];
    let mut pending: Vec<usize> = (0..live.len()).collect();
    while !pending.is_empty() {
        let input = batch_input(live, &pending);
        let in_path = dir.join(format!("batch{b}.in"));
        let out_path = dir.join(format!("batch{b}.out"));
        let status =
            std::fs::write(&in_path, &input).and_then(|_| Command::new(exe).arg(&in_path).arg(&out_path).status());
        let bytes = std::fs::read(&out_path).unwrap_or_default();
        let mut pos = 0;
        let mut finished = Vec::new();
        let mut crashed = None;
        for &k in &pending {
            let it = &live[k].1;
            let size = (it.call.ret_width / 8) as usize;
            let need = size * it.cases.len();
            if pos + need <= bytes.len() {
                results[k] = Some(bytes[pos..pos + need].chunks(size).map(<[u8]>::to_vec).collect());
                finished.push(k);
                pos += need;
            } else {
                crashed = Some(k);
                break;
            }
        }
        match (&status, crashed) {
            (Ok(s), None) if s.success() => break,
            (_, Some(k)) => {
                let why = match &status {
                    Ok(s) => format!("test program failed ({s})"),
                    Err(e) => e.to_string(),
                };
                out.push((live[k].0, Outcome::Failed { stage: "run", reason: why }));
                pending.retain(|p| !finished.contains(p) && *p != k);
            }
            (s, None) => {
                let why = format!("test program failed: {s:?}");
                return Err(all_failed(live.iter().map(|(i, _)| *i), "run", &why));
            }
        }
    }
    Ok(results)
}

/// The test program's input for the `pending` intrinsics: per case, the
/// intrinsic's index, the immediate, and the other arguments, little-endian.
fn batch_input(live: &[&mut (usize, Item)], pending: &[usize]) -> Vec<u8> {
    let mut input = Vec::new();
    for &k in pending {
        let it = &live[k].1;
        for case in &it.cases {
            input.extend_from_slice(&(k as u32).to_le_bytes());
            input.extend_from_slice(&case.imm.unwrap_or(0).to_le_bytes());
            for (a, (arg, v)) in it.sema.args.iter().zip(&case.args).enumerate() {
                if Some(a) != it.call.imm_index {
                    input.extend_from_slice(&le_bytes(v, arg.width / 8));
                }
            }
        }
    }
    input
}

fn le_bytes(v: &BigUint, n: u32) -> Vec<u8> {
    let mut b = v.to_bytes_le();
    b.resize(n as usize, 0);
    b
}

/// The same failure for every intrinsic in `indices`.
fn all_failed(indices: impl Iterator<Item = usize>, stage: &'static str, reason: &str) -> Vec<(usize, Outcome)> {
    indices.map(|i| (i, Outcome::Failed { stage, reason: reason.to_string() })).collect()
}

fn hex(v: &BigUint, width: u32) -> String {
    format!("0x{:0>w$}", v.to_str_radix(16), w = width.div_ceil(4) as usize)
}

/// Runs the interpreter on every case and compares with the CPU's results.
fn compare(it: &Item, cpu_results: &[Vec<u8>]) -> Outcome {
    let width = it.sema.result.width;
    let mask = (BigUint::from(1u8) << width) - 1u8;
    let hardware: Vec<BigUint> = cpu_results.iter().map(|b| BigUint::from_bytes_le(b) & &mask).collect();
    let evidence = Evidence::of(it.sema, &it.call, &it.cases, &hardware);
    for (case, cpu) in it.cases.iter().zip(hardware) {
        let mut dom = Concrete;
        let ours = match Machine::new(&mut dom, it.sema).run(&case.args) {
            Ok(v) => v,
            Err(e) => return Outcome::Failed { stage: "eval", reason: e.to_string() },
        };
        if ours != cpu {
            let args: Vec<String> =
                it.sema.args.iter().zip(&case.args).map(|(a, v)| format!("{}={}", a.name, hex(v, a.width))).collect();
            return Outcome::Mismatch {
                detail: format!(
                    "{}: cpu {} interpreter {} for {}",
                    it.entry.name,
                    hex(&cpu, width),
                    hex(&ours, width),
                    args.join(" ")
                ),
                evidence: Some(evidence),
            };
        }
    }
    Outcome::Validated { evidence, by_record: None }
}
