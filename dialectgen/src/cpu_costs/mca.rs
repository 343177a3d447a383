//! Pricing code regions with llvm-mca: one run per CPU over every piece of
//! code, each piece its own region.

use super::error::CostError;
use super::price::{PortUse, Price};
use super::set::CpuSet;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The LLVM tools of the compiler's release.
pub struct Tools {
    pub llc: PathBuf,
    pub mca: PathBuf,
}

impl Tools {
    pub fn beside(compiler: &Path) -> Tools {
        Tools {
            llc: crate::llvm_snippet::tool_beside(compiler, "llc"),
            mca: crate::llvm_snippet::tool_beside(compiler, "llvm-mca"),
        }
    }
}

/// What one llvm-mca run priced: the CPU's resources, its dispatch width
/// and each piece's price, by name.
pub struct Priced {
    pub resources: Vec<String>,
    pub dispatch_width: u32,
    pub prices: BTreeMap<String, Price>,
}

/// Prices each piece (by name) that llvm-mca models on `cpu` in full: a
/// piece with an instruction the CPU's model lacks is left out. An empty
/// piece is free.
///
/// Memory is not priced: both forms a rewrite compares read and write the
/// same data, and a piece that loads a constant reads what a loop keeps in
/// a register. An instruction that loads or stores is priced without the
/// resources a plain vector load or store uses (`CpuSet::load`,
/// `CpuSet::store`) and without the micro-op of its memory access; a
/// piece that is a memory access itself ([`is_memory_access`]),
/// what a form pays for the memory it reads or writes beyond another's,
/// keeps them.
pub fn price_regions(
    tools: &Tools,
    set: &CpuSet,
    cpu: &str,
    mattr: &str,
    pieces: &[(String, Vec<String>)],
    file: &Path,
) -> Result<Priced, CostError> {
    let comment = set.comments.prefix();
    let region = |r: usize, body: &str| format!("{comment} LLVM-MCA-BEGIN r{r}\n{body}\n{comment} LLVM-MCA-END r{r}\n");
    let mut text = String::new();
    let mut prices = BTreeMap::new();
    let mut regions: Vec<(&str, usize)> = Vec::new();
    for (name, body) in pieces {
        if body.is_empty() {
            // Compiled to nothing at the immediates it was compiled with (a
            // fold of those values, or a move LLVM drops): no price.
            continue;
        }
        text += &region(regions.len(), &body.join("\n"));
        regions.push((name, body.len()));
    }
    let (load_region, store_region) = (regions.len(), regions.len() + 1);
    text += &region(load_region, set.load);
    text += &region(store_region, set.store);
    std::fs::write(file, text).map_err(|source| CostError::Write { path: file.to_path_buf(), source })?;
    let json = run(tools, set, cpu, mattr, file)?;
    let bad = |why: &str| CostError::Output { tool: tools.mca.display().to_string(), cpu: cpu.into(), why: why.into() };
    let resources: Vec<String> = json["TargetInfo"]["Resources"]
        .as_array()
        .ok_or_else(|| bad("no TargetInfo.Resources"))?
        .iter()
        .map(|r| resource_name(r.as_str().unwrap_or("")))
        .collect();
    let all = json["CodeRegions"].as_array().ok_or_else(|| bad("no CodeRegions"))?;
    let by_index: BTreeMap<usize, &Value> = all.iter().filter_map(|r| Some((index_of(r)?, r))).collect();
    let memory = MemoryResources {
        load: by_index.get(&load_region).map_or(0, |r| first_instruction_mask(r)),
        store: by_index.get(&store_region).map_or(0, |r| first_instruction_mask(r)),
        kept: false,
    };
    let mut dispatch_width = 0;
    for (r, &(name, lines)) in regions.iter().enumerate() {
        let Some(region) = by_index.get(&r) else { continue };
        dispatch_width = region["SummaryView"]["DispatchWidth"].as_u64().unwrap_or(0) as u32;
        let memory = if is_memory_access(name) { MemoryResources::KEPT } else { memory };
        if let Some(price) = price_of(region, lines, memory) {
            prices.insert(name.to_string(), price);
        }
    }
    Ok(Priced { resources, dispatch_width, prices })
}

/// Whether the piece named `key` is a memory access itself (a plain load
/// or store, `load v16i8`), whose resources its price keeps.
pub fn is_memory_access(key: &str) -> bool {
    key.starts_with("load ") || key.starts_with("store ")
}

/// llvm-mca's JSON for the regions of `file` on `cpu`.
fn run(tools: &Tools, set: &CpuSet, cpu: &str, mattr: &str, file: &Path) -> Result<Value, CostError> {
    let tool = || tools.mca.display().to_string();
    let mut cmd = Command::new(&tools.mca);
    cmd.arg(format!("-mtriple={}", set.triple)).arg(format!("-mcpu={cpu}")).args([
        "--json",
        "-iterations=100",
        "-skip-unsupported-instructions=lack-sched",
    ]);
    if !mattr.is_empty() {
        cmd.arg(format!("-mattr={mattr}"));
    }
    let out = cmd.arg(file).output().map_err(|source| CostError::Spawn { tool: tool(), source })?;
    if !out.status.success() {
        return Err(CostError::failed(&tools.mca, cpu, &out.stderr));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| CostError::Output {
        tool: tool(),
        cpu: cpu.into(),
        why: e.to_string(),
    })
}

/// The resources a plain load and a plain store use (masks).
#[derive(Clone, Copy)]
struct MemoryResources {
    load: u32,
    store: u32,
    /// Whether a memory access's resources and micro-op are priced.
    kept: bool,
}

impl MemoryResources {
    /// None taken out: the access is priced in full.
    const KEPT: MemoryResources = MemoryResources { load: 0, store: 0, kept: true };
}

/// `r<index>`: the region's place in the file.
fn index_of(region: &Value) -> Option<usize> {
    region["Name"].as_str()?.strip_prefix('r')?.parse().ok()
}

/// Each (instruction, resource, cycles) of a region's pressure, for its
/// first `instructions` instructions.
fn pressure(region: &Value, instructions: u64) -> impl Iterator<Item = (u64, u64, f64)> + '_ {
    region["ResourcePressureView"]["ResourcePressureInfo"].as_array().into_iter().flatten().filter_map(move |p| {
        let (i, res, usage) =
            (p["InstructionIndex"].as_u64()?, p["ResourceIndex"].as_u64()?, p["ResourceUsage"].as_f64()?);
        (i < instructions && res < 32 && usage >= 0.005).then_some((i, res, usage))
    })
}

/// The resources the first instruction of a region uses.
fn first_instruction_mask(region: &Value) -> u32 {
    pressure(region, 1).fold(0, |m, (_, res, _)| m | 1 << res)
}

/// A region's price, if llvm-mca priced all `lines` of it.
fn price_of(region: &Value, lines: usize, memory: MemoryResources) -> Option<Price> {
    let summary = &region["SummaryView"];
    let iterations = summary["Iterations"].as_u64().unwrap_or(1).max(1);
    let instructions = summary["Instructions"].as_u64().unwrap_or(0) / iterations;
    if instructions as usize != lines {
        // An instruction the model lacks was skipped: no price.
        return None;
    }
    let info = region["InstructionInfoView"]["InstructionList"].as_array().cloned().unwrap_or_default();
    let flag = |i: &Value, f: &str| i[f].as_bool().unwrap_or(false);
    // Per instruction, the resources of its memory access.
    let memory_of: Vec<u32> = info
        .iter()
        .map(|i| {
            (if flag(i, "mayLoad") { memory.load } else { 0 }) | (if flag(i, "mayStore") { memory.store } else { 0 })
        })
        .collect();
    let kept = memory.kept;
    let memory_uops = info
        .iter()
        .filter(|i| {
            !kept && (flag(i, "mayLoad") || flag(i, "mayStore")) && i["NumMicroOpcodes"].as_u64().unwrap_or(0) > 1
        })
        .count() as u32;
    let mut per_instruction: BTreeMap<u64, (u32, f64)> = BTreeMap::new();
    for (i, res, usage) in pressure(region, instructions) {
        if memory_of.get(i as usize).is_some_and(|m| m & (1 << res) != 0) {
            continue;
        }
        let e = per_instruction.entry(i).or_default();
        e.0 |= 1 << res;
        e.1 += usage;
    }
    let mut ports: Vec<PortUse> = Vec::new();
    for (mask, cycles) in per_instruction.into_values() {
        match ports.iter_mut().find(|u| u.0 == mask) {
            Some(u) => u.1 += cycles,
            None => ports.push(PortUse(mask, cycles)),
        }
    }
    for u in &mut ports {
        u.1 = round2(u.1);
    }
    ports.sort_by_key(|u| u.0);
    Some(Price {
        rthroughput: round2(summary["BlockRThroughput"].as_f64().unwrap_or(0.0)),
        latency: info.iter().map(|i| i["Latency"].as_u64().unwrap_or(0)).sum::<u64>() as u32,
        uops: ((summary["TotaluOps"].as_u64().unwrap_or(0) / iterations) as u32).saturating_sub(memory_uops),
        instructions: instructions as u32,
        ports,
    })
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// llvm-mca's name of a resource, its unit number (a control character in
/// its output) written as a number.
fn resource_name(raw: &str) -> String {
    raw.chars().map(|c| if c.is_control() { char::from_digit(c as u32 % 10, 10).unwrap_or('?') } else { c }).collect()
}
