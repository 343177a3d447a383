//! Running HVX instructions under qemu-hexagon: one freestanding program
//! calls each instruction's clang builtin (`__builtin_HEXAGON_V6_x_128B`)
//! on the test vectors it reads from stdin and writes the results.
//!
//! Operands follow LLVM's order, which is the builtin's. Predicates travel
//! as 128 bytes of 0x00/0xFF and cross into `HVX_Q` through `vandvrt` /
//! `vandqrt` (clang cannot select a predicate load at -O0, and a predicate
//! never touches memory here). The carry forms take their predicate through
//! a pointer to a vector holding it in byte form.

use super::data::{InstrInfo, OperandClass};
use crate::sema::ir::Semantics;
use crate::validate::cases::TestCase;
use crate::validate::runner::Runner;
use num_bigint::BigUint;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

const RUNTIME: &str = include_str!("harness_runtime.c");

/// qemu-hexagon as a v67 core (runs everything up to v67, HVX v66).
pub fn qemu() -> Runner {
    Runner::Emulated { program: PathBuf::from("qemu-hexagon"), args: vec!["-cpu".into(), "v67".into()] }
}

#[derive(Clone, Debug)]
pub struct HarnessConfig {
    /// clang-22 (a Hexagon cross compiler).
    pub clang: PathBuf,
    pub work_dir: PathBuf,
    pub runner: Runner,
}

impl HarnessConfig {
    pub fn new(clang: PathBuf, work_dir: PathBuf) -> HarnessConfig {
        HarnessConfig { clang, work_dir, runner: qemu() }
    }
}

/// One instruction with one immediate value (if it takes one), and its cases.
pub struct Entry<'a> {
    pub sema: &'a Semantics,
    pub info: &'a InstrInfo,
    pub imm: Option<u32>,
    pub cases: Vec<&'a TestCase>,
}

/// How the entry's operands are read from the input and passed.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Pass {
    Vector,
    Pair,
    Predicate,
    Int,
    LongLong,
    Immediate,
    /// A predicate in and out through a pointer (carry forms).
    PredicatePointer,
}

impl Pass {
    fn input_bytes(self) -> usize {
        match self {
            Pass::Vector | Pass::Predicate | Pass::PredicatePointer => 128,
            Pass::Pair => 256,
            Pass::Int => 4,
            Pass::LongLong => 8,
            Pass::Immediate => 0,
        }
    }
}

fn pass_of(class: OperandClass, carry_pointer: bool) -> Option<Pass> {
    Some(match class {
        OperandClass::Vector => Pass::Vector,
        OperandClass::Pair => Pass::Pair,
        OperandClass::Predicate if carry_pointer => Pass::PredicatePointer,
        OperandClass::Predicate => Pass::Predicate,
        OperandClass::Scalar => Pass::Int,
        OperandClass::ScalarPair => Pass::LongLong,
        OperandClass::Immediate { .. } => Pass::Immediate,
        OperandClass::Other => return None,
    })
}

/// Why an entry has no C test function.
#[derive(Debug, thiserror::Error)]
enum TestFunctionError {
    #[error("two register results without a builtin that returns both")]
    TwoResults,
    #[error("operand `{0}` cannot be passed")]
    UnpassableOperand(String),
    #[error("immediate without a value")]
    ImmediateWithoutValue,
    #[error("result class cannot be returned")]
    UnreturnableResult,
}

/// The entry's C test function, its input passes and output bytes.
fn test_function(k: usize, e: &Entry) -> Result<(String, Vec<Pass>, usize), TestFunctionError> {
    let tag = &e.sema.name;
    let outs = &e.info.outs;
    // A vector result with a predicate beside it: the predicate goes by pointer.
    let carry = outs.len() == 2 && outs[1].class == OperandClass::Predicate;
    if outs.len() > 2 || (outs.len() == 2 && !carry) {
        return Err(TestFunctionError::TwoResults);
    }
    let mut body = String::new();
    let mut args = Vec::new();
    let mut passes = Vec::new();
    let mut slot = 0usize;
    let mut carry_in = false;
    for (i, op) in e.info.ins.iter().enumerate() {
        let pointer = carry && op.class == OperandClass::Predicate;
        let pass = pass_of(op.class, pointer).ok_or_else(|| TestFunctionError::UnpassableOperand(op.name.clone()))?;
        let at = format!("(in + {slot} * SLOT)");
        match pass {
            Pass::Immediate => args.push(format!("{}", e.imm.ok_or(TestFunctionError::ImmediateWithoutValue)?)),
            Pass::Vector => args.push(format!("*(const HVX_Vector *){at}")),
            Pass::Pair => args.push(format!("*(const HVX_VectorPair *){at}")),
            Pass::Int => args.push(format!("*(const int *){at}")),
            Pass::LongLong => args.push(format!("*(const long long *){at}")),
            Pass::Predicate => {
                let _ = writeln!(body, "  HVX_Q q{i} = V2Q(*(const HVX_Vector *){at});");
                args.push(format!("q{i}"));
            }
            Pass::PredicatePointer => {
                let first = outs[0].class.width() as usize / 8;
                let _ = writeln!(body, "  *(HVX_Vector *)(out + {first}) = *(const HVX_Vector *){at};");
                args.push(format!("(void *)(out + {first})"));
                carry_in = true;
            }
        }
        if pass != Pass::Immediate {
            slot += 1;
        }
        passes.push(pass);
    }
    let first_bytes = outs[0].class.width() as usize / 8;
    if carry && !carry_in {
        args.push(format!("(void *)(out + {first_bytes})"));
    }
    let call = format!("__builtin_HEXAGON_{tag}_128B({})", args.join(", "));
    let out_bytes = match outs[0].class {
        OperandClass::Vector => {
            let _ = writeln!(body, "  *(HVX_Vector *)out = {call};");
            128
        }
        OperandClass::Pair => {
            let _ = writeln!(body, "  *(HVX_VectorPair *)out = {call};");
            256
        }
        OperandClass::Predicate => {
            let _ = writeln!(body, "  *(HVX_Vector *)out = Q2V({call});");
            128
        }
        OperandClass::Scalar => {
            let _ = writeln!(body, "  *(int *)out = {call};");
            4
        }
        _ => return Err(TestFunctionError::UnreturnableResult),
    } + if carry { 128 } else { 0 };
    let src = format!("static void t{k}(const unsigned char *in, unsigned char *out) {{\n{body}}}\n");
    Ok((src, passes, out_bytes))
}

/// The input bytes of one case, in the entry's passes.
fn case_bytes(sema: &Semantics, passes: &[Pass], case: &TestCase, out: &mut Vec<u8>) {
    for ((pass, arg), v) in passes.iter().zip(&sema.args).zip(&case.args) {
        match pass {
            Pass::Immediate => {}
            Pass::Predicate | Pass::PredicatePointer => {
                out.extend((0..128u64).map(|b| if v.bit(b) { 0xFF } else { 0x00 }));
            }
            _ => {
                let mut bytes = v.to_bytes_le();
                bytes.resize((arg.width / 8) as usize, 0);
                out.extend(bytes);
            }
        }
    }
}

/// The result bits from the harness's bytes: each output in turn, a
/// predicate's bytes back to one bit each.
pub fn result_bits(info: &InstrInfo, bytes: &[u8]) -> BigUint {
    let mut v = BigUint::default();
    let mut bit = 0u64;
    let mut at = 0usize;
    for out in &info.outs {
        let width = out.class.width();
        if out.class == OperandClass::Predicate {
            for b in 0..128 {
                if bytes.get(at + b).is_some_and(|x| *x != 0) {
                    v.set_bit(bit + b as u64, true);
                }
            }
            at += 128;
        } else {
            let n = width as usize / 8;
            let part = BigUint::from_bytes_le(bytes.get(at..at + n).unwrap_or(&[]));
            v |= part << bit;
            at += n;
        }
        bit += u64::from(width);
    }
    v
}

/// Per entry: its results (one byte string per case), or why it did not run.
pub type EntryResult = Result<Vec<Vec<u8>>, (&'static str, String)>;

/// Compiles and runs every entry; entries the compiler rejects (no builtin,
/// an immediate out of range) are dropped with its message and the rest
/// compiled again.
pub fn execute(entries: &[Entry], cfg: &HarnessConfig, batch: usize) -> Vec<EntryResult> {
    let mut results: Vec<Option<EntryResult>> = (0..entries.len()).map(|_| None).collect();
    let mut functions = Vec::new();
    for (k, e) in entries.iter().enumerate() {
        match test_function(k, e) {
            Ok(f) => functions.push(Some(f)),
            Err(m) => {
                results[k] = Some(Err(("harness", m.to_string())));
                functions.push(None);
            }
        }
    }
    let mut live: Vec<usize> = (0..entries.len()).filter(|k| functions[*k].is_some()).collect();
    for round in 0..4 {
        let src = program(&live, &functions);
        let c_path = cfg.work_dir.join(format!("hvx{batch}_{round}.c"));
        let exe = cfg.work_dir.join(format!("hvx{batch}_{round}"));
        if let Err(e) = std::fs::write(&c_path, &src) {
            return fail_all(results, &live, "compile", e.to_string());
        }
        let out = Command::new(&cfg.clang)
            .args(["--target=hexagon", "-mcpu=hexagonv66", "-mhvx", "-mhvx-length=128b", "-O1"])
            .args(["-fno-strict-aliasing", "-ffreestanding", "-nostdlib", "-static", "-fuse-ld=lld", "-w"])
            .arg(&c_path)
            .arg("-o")
            .arg(&exe)
            .output();
        let out = match out {
            Ok(o) => o,
            Err(e) => return fail_all(results, &live, "compile", format!("{}: {e}", cfg.clang.display())),
        };
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let blamed = crate::validate::blame_compile_errors(&src, &stderr, &c_path);
            if blamed.is_empty() || round == 3 {
                let first = stderr.lines().find(|l| l.contains("error")).unwrap_or("compiler failed").to_string();
                return fail_all(results, &live, "compile", first);
            }
            for (k, msg) in blamed {
                results[k] = Some(Err(("compile", msg)));
                live.retain(|x| *x != k);
            }
            continue;
        }
        run(entries, &live, &functions, &exe, cfg, &mut results);
        break;
    }
    results.into_iter().map(|r| r.unwrap_or_else(|| Err(("compile", "not compiled".into())))).collect()
}

type Function = Option<(String, Vec<Pass>, usize)>;

fn program(live: &[usize], functions: &[Function]) -> String {
    let mut src = String::from(RUNTIME);
    src.push_str("\n/* ---- generated ---- */\n");
    for k in live {
        src.push_str(&functions[*k].as_ref().expect("live entries have functions").0);
    }
    src.push_str("const struct entry ENTRIES[] = {\n");
    for k in live {
        let (_, passes, out) = functions[*k].as_ref().expect("live");
        let sizes: Vec<String> =
            passes.iter().filter(|p| **p != Pass::Immediate).map(|p| p.input_bytes().to_string()).collect();
        let sizes = if sizes.is_empty() { "0".to_string() } else { sizes.join(",") };
        let n = passes.iter().filter(|p| **p != Pass::Immediate).count();
        let _ = writeln!(src, "  {{t{k}, {n}, {{{sizes}}}, {out}}},");
    }
    let _ = writeln!(src, "}};\nconst unsigned N_ENTRIES = {};", live.len());
    src
}

fn fail_all(mut results: Vec<Option<EntryResult>>, live: &[usize], stage: &'static str, why: String) -> Vec<EntryResult> {
    for k in live {
        results[*k] = Some(Err((stage, why.clone())));
    }
    results.into_iter().map(|r| r.unwrap_or_else(|| Err((stage, why.clone())))).collect()
}

/// Runs the program and splits its output per entry. Output is flushed
/// per entry, so an emulator abort loses only the entries after it.
fn run(
    entries: &[Entry],
    live: &[usize],
    functions: &[Function],
    exe: &Path,
    cfg: &HarnessConfig,
    results: &mut [Option<EntryResult>],
) {
    let ncases = live.iter().map(|k| entries[*k].cases.len()).max().unwrap_or(0);
    let mut input = Vec::new();
    input.extend(b"HVXI");
    input.extend((live.len() as u32).to_le_bytes());
    input.extend((ncases as u32).to_le_bytes());
    for k in live {
        let e = &entries[*k];
        let passes = &functions[*k].as_ref().expect("live").1;
        for c in 0..ncases {
            // Entries with fewer cases repeat their last one.
            let case = e.cases[c.min(e.cases.len().saturating_sub(1))];
            case_bytes(e.sema, passes, case, &mut input);
        }
    }
    let (status, out) = match cfg.runner.run(exe, &input) {
        Ok(x) => x,
        Err(e) => {
            for k in live {
                results[*k] = Some(Err(("run", format!("{}: {e}", cfg.runner.describe()))));
            }
            return;
        }
    };
    let header = 16 + 4 * live.len();
    let ok_header = out.len() >= header && &out[..4] == b"HVXR";
    let mut at = header;
    for k in live {
        let size = functions[*k].as_ref().expect("live").2;
        let need = size * ncases;
        if !ok_header || out.len() < at + need {
            let why = format!("the emulator stopped early ({status}) before this instruction's results");
            results[*k] = Some(Err(("run", why)));
            continue;
        }
        let cases = entries[*k].cases.len();
        let per: Vec<Vec<u8>> = (0..cases).map(|c| out[at + c * size..at + (c + 1) * size].to_vec()).collect();
        results[*k] = Some(Ok(per));
        at += need;
    }
}
