//! How clang lowers each intrinsic: the LLVM intrinsics or IR operations it
//! becomes, and the machine instructions it costs on a target CPU.
//!
//! Each intrinsic is compiled alone (immediates set to 1) by `clang-22 -O1`,
//! once to LLVM IR and once to assembly for `-march=<cpu>`; the IR is also
//! imported into MLIR's LLVM dialect, for the generic-IR lowerings the x86
//! lowering pass inlines. The cost of an instruction is the number of
//! machine instructions of that function (without `ret`/`vzeroupper`), which
//! is what the lowering passes minimize.
//!
//! With its immediates set to 1, clang folds some intrinsics into IR that
//! holds the immediate's consequences (`_mm512_srai_epi16(a, 1)` is `ashr`
//! by a splat of 1), which is no lowering for other immediates. Intrinsics
//! with immediates are therefore compiled a second time with the immediates
//! as parameters, where clang accepts that (the shifts by an immediate do;
//! shuffles, whose builtins need constants, do not): the one intrinsic call
//! clang then emits, with the immediate as an argument, is their lowering.

pub use crate::llvm_ir::IntrinsicSignature;
use crate::llvm_ir::{calls_and_ops, parse_declaration, split_ir};
use crate::llvm_snippet::{self, Snippet};
use crate::sema::ir::{Arg, ArgKind, Semantics};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Lowering {
    /// `llvm.*` intrinsics called, e.g. `llvm.x86.avx512.vpdpbusd.512`.
    pub llvm_intrinsics: Vec<String>,
    /// Other LLVM IR operations, e.g. `ashr`, `icmp`, `shufflevector`.
    pub llvm_ops: Vec<String>,
    /// Machine instructions, e.g. `vpdpbusd`.
    pub machine: Vec<String>,
    /// `machine.len()`.
    pub cost: usize,
    /// The MLIR types of the single intrinsic's parameters and result, from
    /// its LLVM declaration (when they are integers or integer vectors).
    #[serde(skip)]
    pub intrinsic_signature: Option<IntrinsicSignature>,
    /// Where each argument of that intrinsic's call comes from: which
    /// parameter (clang may pass them in another order than the C
    /// intrinsic takes them) or which constant.
    #[serde(skip)]
    pub call_sources: Option<Vec<crate::llvm_ir::CallSource>>,
    /// Clang's IR for the intrinsic as an LLVM-dialect function, when it is
    /// one block of pure operations.
    #[serde(skip)]
    pub snippet: Option<Snippet>,
    /// For an instruction with immediates: the one intrinsic clang calls when
    /// the immediates are parameters (numbered after the operands).
    #[serde(skip)]
    pub immediate_call: Option<ImmediateCall>,
    /// For an instruction with one immediate of at most [`FEW_VALUES`]
    /// values: clang's IR for each value, in order, if each is a snippet.
    #[serde(skip)]
    pub snippet_per_immediate: Option<Vec<Snippet>>,
    /// The last of `snippet_per_immediate` is clang's IR for every larger
    /// value too, up to this one (a mask shift by the element count or more
    /// is zero).
    #[serde(skip)]
    pub last_snippet_holds_up_to: Option<u32>,
    /// For an instruction with one immediate of more values than that,
    /// no call of one intrinsic: clang's unoptimized IR with the value in
    /// its place (rotations and funnel shifts by an immediate).
    #[serde(skip)]
    pub snippet_of_immediate: Option<llvm_snippet::ImmediateTemplate>,
}

/// The IR clang emits for an intrinsic whose immediates are passed as the
/// last parameters, when it calls one LLVM intrinsic.
#[derive(Clone, Debug, PartialEq)]
pub struct ImmediateCall {
    pub intrinsic: String,
    pub signature: IntrinsicSignature,
    /// Where each argument of the call comes from.
    pub sources: Vec<crate::llvm_ir::CallSource>,
    /// The other IR operations of the function (a mask form's `select`).
    pub llvm_ops: Vec<String>,
}

/// How the C function that calls an intrinsic passes its immediates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Immediates {
    /// As the constant 1.
    One,
    /// As `int` parameters after the operands.
    Parameters,
    /// As this constant.
    Value(u32),
}

/// Immediates with at most this many values get clang's IR for each value
/// when no other lowering holds for all of them (the comparisons by a
/// predicate, lane inserts and element extracts).
const FEW_VALUES: u32 = 16;

#[derive(Debug, thiserror::Error)]
pub enum LoweringError {
    #[error("cannot run {compiler}: {source}")]
    Compiler { compiler: String, source: std::io::Error },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// The C type of an argument as the intrinsic headers spell it.
pub fn c_type(a: &Arg) -> String {
    match a.kind {
        ArgKind::Vector => format!("__m{}i", a.width),
        ArgKind::Mask => format!("__mmask{}", a.width),
        ArgKind::Immediate => "int".into(),
        ArgKind::Scalar => match a.width {
            8 => "char",
            16 => "short",
            64 => "long long",
            _ => "int",
        }
        .into(),
    }
}

fn c_source(sems: &[(&Semantics, Immediates)]) -> String {
    let mut s = String::from("#include <immintrin.h>\n");
    for (k, (sem, immediates)) in sems.iter().enumerate() {
        let immediates = *immediates;
        let is_immediate = |a: &Arg| a.kind == ArgKind::Immediate;
        let mut params: Vec<String> = sem
            .args
            .iter()
            .enumerate()
            .filter(|(_, a)| !is_immediate(a))
            .map(|(i, a)| format!("{} a{i}", c_type(a)))
            .collect();
        if immediates == Immediates::Parameters {
            params
                .extend(sem.args.iter().enumerate().filter(|(_, a)| is_immediate(a)).map(|(i, _)| format!("int a{i}")));
        }
        let call_args: Vec<String> = sem
            .args
            .iter()
            .enumerate()
            .map(|(i, a)| match immediates {
                _ if !is_immediate(a) => format!("a{i}"),
                Immediates::One => "1".into(),
                Immediates::Value(v) => v.to_string(),
                Immediates::Parameters => format!("a{i}"),
            })
            .collect();
        let ret = c_type(&sem.result);
        let _ = writeln!(
            s,
            "{ret} hydride_f{k}({}) {{ return {}({}); }}",
            params.join(", "),
            sem.name,
            call_args.join(", ")
        );
    }
    s
}

/// One C function per instruction for pricing it alone
/// ([`crate::cpu_costs`]): `hydride_f{k}` calls the `k`-th, immediates 1;
/// it needs the macros of the extensions its guide CPUIDs name.
pub fn cost_functions(
    sems: &[Semantics],
    cpuids: &BTreeMap<String, Vec<String>>,
) -> crate::cpu_costs::table::CFunctions {
    let all: Vec<(&Semantics, Immediates)> = sems.iter().map(|s| (s, Immediates::One)).collect();
    let source = c_source(&all);
    sems.iter()
        .zip(source.lines().skip(1))
        .map(|(s, line)| crate::cpu_costs::table::CFunction {
            name: s.name.clone(),
            line: line.to_string(),
            requires: cpuids.get(&s.name).into_iter().flatten().filter_map(|c| super::host::feature_macro(c)).collect(),
        })
        .collect()
}

/// Lowers every instruction; those the compiler rejects are left out.
pub fn lowerings(
    sems: &[Semantics],
    compiler: &Path,
    cpu: &str,
    dir: &Path,
) -> Result<BTreeMap<String, Lowering>, LoweringError> {
    let compiler_run = CompilerRun { compiler, cpu };
    let translate = llvm_snippet::mlir_translate_for(compiler);
    let stages = Stages { compiler_run: &compiler_run, translate: &translate, dir };
    let Some((live, mut result)) = stages.plain(sems)? else {
        return Ok(BTreeMap::new());
    };
    stages.immediate_calls(&live, &mut result)?;
    stages.snippets_per_value(&live, &mut result)?;
    let same_at_top = stages.immediate_templates(&live, &mut result)?;
    // Those: clang's IR (optimized, as for few values) at every value, kept
    // up to the value from which it stays the same.
    let same_at_top: Vec<(&Semantics, u32)> = same_at_top
        .iter()
        .filter(|(_, hi)| *hi <= 255)
        .filter_map(|(name, hi)| Some((*live.iter().find(|s| s.name == *name)?, u32::try_from(*hi).ok()?)))
        .collect();
    for (name, snippets, hi) in snippets_until_saturated(&compiler_run, &translate, &same_at_top, dir)? {
        if let Some(l) = result.get_mut(name) {
            l.snippet_per_immediate = Some(snippets);
            l.last_snippet_holds_up_to = Some(hi);
        }
    }
    Ok(result)
}

/// The compiles [`lowerings`] makes, one after the other, each filling in
/// what the ones before left open.
struct Stages<'a> {
    compiler_run: &'a CompilerRun<'a>,
    translate: &'a Path,
    dir: &'a Path,
}

type Lowerings = BTreeMap<String, Lowering>;

impl<'a> Stages<'a> {
    /// Every instruction at its immediates' smallest values: its calls and
    /// operations, its IR, its machine code. `None` if nothing compiles;
    /// otherwise the instructions that did, and their lowerings.
    fn plain<'s>(&self, sems: &'s [Semantics]) -> Result<Option<(Vec<&'s Semantics>, Lowerings)>, LoweringError> {
        let (c_path, ll_path) = (self.dir.join("lowering.c"), self.dir.join("lowering.ll"));
        let all = sems.iter().map(|s| (s, Immediates::One)).collect();
        let Some(live) = self.compiler_run.to_ir(all, &c_path, &ll_path)? else {
            return Ok(None);
        };
        let live: Vec<&Semantics> = live.into_iter().map(|(s, _)| s).collect();
        let s_path = self.dir.join("lowering.s");
        self.compiler_run.run(&["-S"], &c_path, &s_path)?;
        let ir = std::fs::read_to_string(&ll_path)?;
        let asm = std::fs::read_to_string(&s_path)?;
        let ir_bodies = split_ir(&ir);
        let declarations: BTreeMap<String, IntrinsicSignature> = ir.lines().filter_map(parse_declaration).collect();
        let asm_bodies = split_asm(&asm);
        let mut snippets = llvm_snippet::snippets(&llvm_snippet::import(self.translate, &ll_path)?);
        let mut result = BTreeMap::new();
        for (k, sem) in live.iter().enumerate() {
            let name = format!("hydride_f{k}");
            let mut l = Lowering::default();
            (l.llvm_intrinsics, l.llvm_ops) =
                calls_and_ops(ir_bodies.get(&name).map(Vec::as_slice).unwrap_or_default());
            if let [only] = l.llvm_intrinsics.as_slice() {
                l.intrinsic_signature = declarations.get(only).cloned();
                l.call_sources = ir_bodies.get(&name).and_then(|body| crate::llvm_ir::call_sources(body, only));
            }
            l.snippet = snippets.remove(&name);
            l.machine = asm_bodies.get(&name).cloned().unwrap_or_default();
            l.cost = l.machine.len();
            result.insert(sem.name.clone(), l);
        }
        Ok(Some((live, result)))
    }

    /// The intrinsics with immediates again, the immediates as parameters:
    /// where that is one call, the call with its immediate as an operand.
    fn immediate_calls(&self, live: &[&Semantics], result: &mut Lowerings) -> Result<(), LoweringError> {
        let with_immediates: Vec<(&Semantics, Immediates)> = live
            .iter()
            .filter(|s| s.args.iter().any(|a| a.kind == ArgKind::Immediate))
            .map(|s| (*s, Immediates::Parameters))
            .collect();
        let (c_path, ll_path) = (self.dir.join("lowering-immediates.c"), self.dir.join("lowering-immediates.ll"));
        let Some(accepted) = self.compiler_run.to_ir(with_immediates, &c_path, &ll_path)? else {
            return Ok(());
        };
        let ir = std::fs::read_to_string(&ll_path)?;
        let bodies = split_ir(&ir);
        let declarations: BTreeMap<String, IntrinsicSignature> = ir.lines().filter_map(parse_declaration).collect();
        for (k, (sem, _)) in accepted.iter().enumerate() {
            let body = bodies.get(&format!("hydride_f{k}")).map(Vec::as_slice).unwrap_or_default();
            let (intrinsics, llvm_ops) = calls_and_ops(body);
            let [intrinsic] = intrinsics.as_slice() else { continue };
            let (Some(signature), Some(sources)) =
                (declarations.get(intrinsic), crate::llvm_ir::call_sources(body, intrinsic))
            else {
                continue;
            };
            if let Some(l) = result.get_mut(&sem.name) {
                l.immediate_call = Some(ImmediateCall {
                    intrinsic: intrinsic.clone(),
                    signature: signature.clone(),
                    sources,
                    llvm_ops,
                });
            }
        }
        Ok(())
    }

    /// One immediate of few values and IR that is no call of one intrinsic:
    /// clang's IR for each value.
    fn snippets_per_value(&self, live: &[&Semantics], result: &mut Lowerings) -> Result<(), LoweringError> {
        let few: Vec<(&Semantics, Immediates)> = live
            .iter()
            .filter(|s| result.get(&s.name).is_some_and(|l| l.immediate_call.is_none() && l.llvm_intrinsics.len() != 1))
            .filter_map(|s| Some((*s, immediate_values(s)?)))
            .flat_map(|(s, n)| (0..n).map(move |v| (s, Immediates::Value(v))))
            .collect();
        let (c_path, ll_path) = (self.dir.join("lowering-values.c"), self.dir.join("lowering-values.ll"));
        let Some(accepted) = self.compiler_run.to_ir(few, &c_path, &ll_path)? else {
            return Ok(());
        };
        let per_value = snippets_by_instruction(self.translate, &ll_path, &accepted)?;
        for (name, values) in per_value {
            let sem = live.iter().find(|s| s.name == name).expect("compiled from live");
            let all: Option<Vec<Snippet>> = values.into_iter().collect();
            if let (Some(all), Some(l)) = (all, result.get_mut(name)) {
                if Some(all.len() as u32) == immediate_values(sem) {
                    l.snippet_per_immediate = Some(all);
                }
            }
        }
        Ok(())
    }

    /// One immediate of more values, and no lowering yet: clang's literal IR
    /// as a template of the value. Returns the instructions whose IR was the
    /// same at the two largest values, with the largest.
    fn immediate_templates<'s>(
        &self,
        live: &[&'s Semantics],
        result: &mut Lowerings,
    ) -> Result<Vec<(&'s str, i64)>, LoweringError> {
        let ranges: BTreeMap<&str, (i64, i64)> = live
            .iter()
            .filter(|s| {
                result.get(&s.name).is_some_and(|l| l.immediate_call.is_none()) && immediate_values(s).is_none()
            })
            .filter_map(|s| {
                let [imm] = s.args.iter().filter(|a| a.kind == ArgKind::Immediate).collect::<Vec<_>>()[..] else {
                    return None;
                };
                Some((s.name.as_str(), (0, (1i64 << imm.imm_bits.unwrap_or(8).min(16)) - 1)))
            })
            .collect();
        let many: Vec<(&Semantics, Immediates)> = live
            .iter()
            .filter_map(|s| Some((*s, *ranges.get(s.name.as_str())?)))
            .flat_map(|(s, (lo, hi))| {
                llvm_snippet::template_values(lo, hi).into_iter().map(move |v| (s, Immediates::Value(v as u32)))
            })
            .collect();
        let mut same_at_top: Vec<(&str, i64)> = Vec::new();
        let (c_path, ll_path) = (self.dir.join("lowering-templates.c"), self.dir.join("lowering-templates.ll"));
        let Some(accepted) = self.compiler_run.to_ir_at(Level::Literal, many, &c_path, &ll_path)? else {
            return Ok(same_at_top);
        };
        let snippets = llvm_snippet::snippets(&llvm_snippet::import(self.translate, &ll_path)?);
        let mut per_value: BTreeMap<&str, Vec<(i64, &Snippet)>> = BTreeMap::new();
        for (k, (sem, imm)) in accepted.iter().enumerate() {
            let sem: &'s Semantics = sem;
            if let (Immediates::Value(v), Some(snippet)) = (imm, snippets.get(&format!("hydride_f{k}"))) {
                per_value.entry(sem.name.as_str()).or_default().push((i64::from(*v), snippet));
            }
        }
        for (name, compiled) in per_value {
            // Every value asked for must have given a snippet.
            let (lo, hi) = ranges[name];
            let asked = llvm_snippet::template_values(lo, hi).len();
            let template =
                (compiled.len() == asked).then(|| llvm_snippet::immediate_template(&compiled, (lo, hi))).flatten();
            let top_two: Vec<&str> =
                compiled.iter().filter(|(v, _)| *v >= hi - 1).map(|(_, x)| x.text.as_str()).collect();
            if let Some(l) = result.get_mut(name) {
                l.snippet_of_immediate = template;
                // Clang's unoptimized IR the same at the two largest values: a
                // candidate for IR that stays the same from some value up.
                if l.snippet_of_immediate.is_none() && matches!(top_two[..], [x, y] if x == y) {
                    same_at_top.push((name, hi));
                }
            }
        }
        Ok(same_at_top)
    }
}

/// Clang's IR per function of an accepted compile (`hydride_f{k}`), grouped
/// by instruction in the order compiled; `None` where a function is no
/// snippet.
fn snippets_by_instruction<'s>(
    translate: &Path,
    ll_path: &Path,
    accepted: &[(&'s Semantics, Immediates)],
) -> Result<BTreeMap<&'s str, Vec<Option<Snippet>>>, LoweringError> {
    let mut snippets = llvm_snippet::snippets(&llvm_snippet::import(translate, ll_path)?);
    let mut per_value: BTreeMap<&str, Vec<Option<Snippet>>> = BTreeMap::new();
    for (k, (sem, _)) in accepted.iter().enumerate() {
        per_value.entry(sem.name.as_str()).or_default().push(snippets.remove(&format!("hydride_f{k}")));
    }
    Ok(per_value)
}

/// The largest value from which clang's IR may stay the same for the rest
/// of an immediate's range, for that IR to be recorded per value.
const SATURATES_BY: usize = 64;

/// For each of `instructions` (an instruction and the largest value of its
/// one immediate): clang's IR at every value `0..=hi`, cut after the first
/// value from which every snippet is the same text, if that value is at
/// most [`SATURATES_BY`] and every value compiled; with `hi`.
fn snippets_until_saturated<'s>(
    compiler_run: &CompilerRun,
    translate: &Path,
    instructions: &[(&'s Semantics, u32)],
    dir: &Path,
) -> Result<Vec<(&'s str, Vec<Snippet>, u32)>, LoweringError> {
    let every: Vec<(&Semantics, Immediates)> =
        instructions.iter().flat_map(|(s, hi)| (0..=*hi).map(move |v| (*s, Immediates::Value(v)))).collect();
    let (c_path, ll_path) = (dir.join("lowering-saturated.c"), dir.join("lowering-saturated.ll"));
    let Some(accepted) = compiler_run.to_ir(every, &c_path, &ll_path)? else { return Ok(Vec::new()) };
    let mut per_value = snippets_by_instruction(translate, &ll_path, &accepted)?;
    let mut out = Vec::new();
    for (s, hi) in instructions {
        let Some(values) = per_value.remove(s.name.as_str()) else { continue };
        let Some(mut all) = values.into_iter().collect::<Option<Vec<Snippet>>>() else { continue };
        if all.len() != *hi as usize + 1 {
            continue;
        }
        let last = all[all.len() - 1].text.clone();
        let from = all.iter().rposition(|x| x.text != last).map_or(0, |k| k + 1);
        if from <= SATURATES_BY {
            all.truncate(from + 1);
            out.push((s.name.as_str(), all, *hi));
        }
    }
    Ok(out)
}

/// How many values the instruction's one immediate takes, if that is at
/// most [`FEW_VALUES`] (values `0..n`).
fn immediate_values(sem: &Semantics) -> Option<u32> {
    let mut immediates = sem.args.iter().filter(|a| a.kind == ArgKind::Immediate);
    let (imm, None) = (immediates.next()?, immediates.next()) else { return None };
    let bits = imm.imm_bits?;
    (bits <= 4 && 1 << bits <= FEW_VALUES).then_some(1 << bits)
}

/// How far clang optimizes the IR a lowering is read from.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Level {
    /// `-O1`: the IR clang emits for the intrinsic in real code.
    Optimized,
    /// Unoptimized, wrapper inlined: the builtin's own IR, constants as
    /// written (an immediate is not reduced modulo the element width).
    Literal,
}

/// The compiler and target CPU the lowerings are read from.
struct CompilerRun<'a> {
    compiler: &'a Path,
    cpu: &'a str,
}

impl CompilerRun<'_> {
    fn run(&self, args: &[&str], c_path: &Path, out: &Path) -> Result<std::process::Output, LoweringError> {
        self.run_at(Level::Optimized, args, c_path, out)
    }

    fn run_at(
        &self,
        level: Level,
        args: &[&str],
        c_path: &Path,
        out: &Path,
    ) -> Result<std::process::Output, LoweringError> {
        let level: &[&str] = match level {
            Level::Optimized => &["-O1"],
            Level::Literal => &["-O0", "-Xclang", "-disable-O0-optnone"],
        };
        Command::new(self.compiler)
            .args(level)
            .args(["-w", "-ferror-limit=0", &format!("-march={}", self.cpu)])
            .args(args)
            .arg("-o")
            .arg(out)
            .arg(c_path)
            .output()
            .map_err(|source| LoweringError::Compiler { compiler: self.compiler.display().to_string(), source })
    }

    /// Compiles one function per intrinsic to LLVM IR at `ll_path`, leaving
    /// out those the compiler rejects; the intrinsics compiled, function `k`
    /// calling the `k`-th (`None` if the compiler fails otherwise).
    fn to_ir<'s>(
        &self,
        live: Vec<(&'s Semantics, Immediates)>,
        c_path: &Path,
        ll_path: &Path,
    ) -> Result<Option<Vec<(&'s Semantics, Immediates)>>, LoweringError> {
        self.to_ir_at(Level::Optimized, live, c_path, ll_path)
    }

    /// As [`Self::to_ir`], at `level`: [`Level::Literal`] IR is clang's
    /// code for the intrinsic with its wrapper inlined and its locals in
    /// registers (`opt -passes=always-inline,sroa`), nothing folded.
    fn to_ir_at<'s>(
        &self,
        level: Level,
        mut live: Vec<(&'s Semantics, Immediates)>,
        c_path: &Path,
        ll_path: &Path,
    ) -> Result<Option<Vec<(&'s Semantics, Immediates)>>, LoweringError> {
        for _ in 0..8 {
            std::fs::write(c_path, c_source(&live))?;
            let out = self.run_at(level, &["-S", "-emit-llvm"], c_path, ll_path)?;
            if out.status.success() {
                if level == Level::Literal {
                    if let Err(message) = llvm_snippet::inline_wrappers(self.compiler, ll_path)? {
                        eprintln!("hydride gen: x86: {message}");
                        return Ok(None);
                    }
                }
                return Ok(Some(live));
            }
            // Drop the functions the compiler rejects (line k + 2 holds function k).
            let stderr = String::from_utf8_lossy(&out.stderr);
            let bad: Vec<usize> = crate::validate::compile_errors(&stderr, c_path)
                .into_iter()
                .filter_map(|(line, _)| line.checked_sub(2))
                .collect();
            if bad.is_empty() {
                return Ok(None);
            }
            live = live.into_iter().enumerate().filter(|(k, _)| !bad.contains(k)).map(|(_, s)| s).collect();
        }
        Ok(None)
    }
}

fn split_asm(asm: &str) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in asm.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        if let Some(label) = first.strip_suffix(':').filter(|l| l.starts_with("hydride_f")) {
            current = Some(label.to_string());
            continue;
        }
        let Some(name) = &current else { continue };
        let t = line.trim();
        if t.starts_with("# -- End function") {
            current = None;
            continue;
        }
        if t.is_empty() || t.starts_with('#') || t.starts_with('.') {
            continue;
        }
        let mnemonic = t.split_whitespace().next().unwrap_or("").to_string();
        if matches!(mnemonic.as_str(), "retq" | "ret" | "vzeroupper") {
            continue;
        }
        out.entry(name.clone()).or_default().push(mnemonic);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llvm_ir::{parse_declaration, split_ir};

    #[test]
    fn declarations_give_mlir_types() {
        let (name, sig) = parse_declaration(
            "declare <16 x i32> @llvm.x86.avx512.vpdpbusd.512(<16 x i32>, <16 x i32>, <16 x i32>) #2",
        )
        .unwrap();
        assert_eq!(name, "llvm.x86.avx512.vpdpbusd.512");
        assert_eq!(sig.params, vec!["vector<16xi32>"; 3]);
        assert_eq!(sig.result, "vector<16xi32>");
        let (_, sig) =
            parse_declaration("declare <8 x i64> @llvm.x86.vgf2p8affineqb.512(<64 x i8>, <64 x i8>, i8 immarg)")
                .unwrap();
        assert_eq!(sig.params, vec!["vector<64xi8>", "vector<64xi8>", "i8"]);
        assert!(parse_declaration("declare float @llvm.x(float)").is_none());
    }

    #[test]
    fn assembly_is_split_per_function() {
        let asm = "\t.text\nhydride_f0:                             # @hydride_f0\n\t.cfi_startproc\n\tvpaddsw\t%xmm1, %xmm0, %xmm0\n\tretq\n.Lfunc_end0:\n                                        # -- End function\nhydride_f1:  # @hydride_f1\n\tvpcmpgtd\t%zmm0, %zmm1, %k0\n\tkmovd\t%k0, %eax\n\t# kill: def $ax\n\tvzeroupper\n\tretq\n                                        # -- End function\n";
        let m = split_asm(asm);
        assert_eq!(m["hydride_f0"], vec!["vpaddsw"]);
        assert_eq!(m["hydride_f1"], vec!["vpcmpgtd", "kmovd"]);
    }

    #[test]
    fn ir_is_split_per_function() {
        let ir = "define <2 x i64> @hydride_f0(<2 x i64> %0) #0 {\n  %2 = bitcast <2 x i64> %0 to <8 x i16>\n  %3 = tail call <8 x i16> @llvm.sadd.sat.v8i16(<8 x i16> %2, <8 x i16> %2)\n  ret <2 x i64> %0\n}\n";
        let m = split_ir(ir);
        assert_eq!(m["hydride_f0"].len(), 3);
    }
}
