//! The table `hydride gen` writes per ISA, and what an ISA says to make it.

use super::asm::bodies;
use super::error::CostError;
use super::generic;
use super::mca::{price_regions, Priced, Tools};
use super::price::Price;
use super::set::CpuSet;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// One CPU's prices.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CpuTable {
    /// Its resources, by llvm-mca's names; bit `i` of a [`super::PortUse`] mask is resource `i`.
    pub resources: Vec<String>,
    /// Micro-ops dispatched per cycle.
    pub dispatch_width: u32,
    /// Each instruction of the grammar it runs, by intrinsic name.
    pub instructions: BTreeMap<String, Price>,
    /// Each generic LLVM operation at each type ([`generic::key`]).
    pub generic: BTreeMap<String, Price>,
    /// The generic operations again for a target narrower than the CPU
    /// (`CpuSet::narrower`), by target name, where they differ there.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub generic_at: BTreeMap<String, BTreeMap<String, Price>>,
}

/// An ISA's tables, by CPU.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CpuCosts {
    /// How the figures were made.
    pub source: String,
    pub cpus: BTreeMap<String, CpuTable>,
}

/// One C function per instruction, `hydride_f{k}` for the `k`-th.
pub struct CFunction {
    /// The instruction's name (its intrinsic).
    pub name: String,
    /// The function's definition, on one line.
    pub line: String,
    /// The compiler's macros a CPU must define to run it (those of the
    /// extensions it needs).
    pub requires: Vec<String>,
}

pub type CFunctions = Vec<CFunction>;

impl CpuSet {
    /// Prices `functions` (and the generic operations) on every CPU of the set.
    pub fn price(&self, functions: &CFunctions, compiler: &Path, dir: &Path) -> Result<CpuCosts, CostError> {
        let tools = Tools::beside(compiler);
        let mut cpus = BTreeMap::new();
        for cpu in self.cpus {
            let asm = self.compile_c(functions, compiler, cpu, dir)?;
            let mut bodies_by_key: Vec<(String, Vec<String>)> = Vec::new();
            let found = bodies(&asm, self.comments);
            for (k, f) in functions.iter().enumerate() {
                if let Some(body) = found.get(&format!("hydride_f{k}")) {
                    bodies_by_key.push((f.name.clone(), body.clone()));
                }
            }
            let mattr = (self.mattr)(cpu);
            let Priced { resources, dispatch_width, prices: instructions } =
                price_regions(&tools, self, cpu, &mattr, &bodies_by_key, &dir.join(format!("{cpu}-instructions.s")))?;
            let generic = self.price_generic(&tools, cpu, &mattr, "all", dir)?;
            let mut generic_at = BTreeMap::new();
            for (target, narrowing) in self.narrower {
                let mattr = if mattr.is_empty() { narrowing.to_string() } else { format!("{mattr},{narrowing}") };
                let narrow = self.price_generic(&tools, cpu, &mattr, target, dir)?;
                if narrow != generic {
                    generic_at.insert(target.to_string(), narrow);
                }
            }
            cpus.insert(cpu.to_string(), CpuTable { resources, dispatch_width, instructions, generic, generic_at });
        }
        let source = format!(
            "llvm-mca -mcpu=<cpu> on each instruction's code alone: clang-22 -O1 (immediates = 1, {}) for the \
             grammar's instructions, llc -O2 for the generic operations",
            (self.clang_flags)("<cpu>").join(" ")
        );
        Ok(CpuCosts { source, cpus })
    }

    /// The generic operations compiled by llc for `cpu` with `mattr`, priced.
    fn price_generic(
        &self,
        tools: &Tools,
        cpu: &str,
        mattr: &str,
        tag: &str,
        dir: &Path,
    ) -> Result<BTreeMap<String, Price>, CostError> {
        let generic_asm = generic::compile(tools, self, cpu, mattr, &format!("{cpu}-{tag}"), dir)?;
        let found = bodies(&generic_asm.asm, self.comments);
        let generic_bodies: Vec<(String, Vec<String>)> = generic_asm
            .keys
            .iter()
            .enumerate()
            .filter_map(|(k, key)| Some((key.clone(), found.get(&format!("hydride_g{k}"))?.clone())))
            .collect();
        let file = dir.join(format!("{cpu}-{tag}-generic.s"));
        let mut prices = price_regions(tools, self, cpu, mattr, &generic_bodies, &file)?.prices;
        // A generic operation llc compiles to nothing (the low half of a
        // vector, two registers side by side) is free.
        for (key, body) in &generic_bodies {
            if body.is_empty() {
                prices.insert(key.clone(), Price::default());
            }
        }
        Ok(prices)
    }

    /// `functions` compiled for `cpu` to assembly; those the compiler
    /// rejects there (the CPU lacks their features) are left out.
    fn compile_c(&self, functions: &CFunctions, compiler: &Path, cpu: &str, dir: &Path) -> Result<String, CostError> {
        let c_path = dir.join(format!("{cpu}.c"));
        let s_path = dir.join(format!("{cpu}.s"));
        let defined = self.macros(compiler, cpu, dir)?;
        let mut live: Vec<bool> = functions.iter().map(|f| f.requires.iter().all(|m| defined.contains(m))).collect();
        // The compiler stops at the first function it rejects: each round leaves that one out.
        for _ in 0..64 {
            let mut source = format!("{}\n", self.c_header);
            for (f, on) in functions.iter().zip(&live) {
                // A left-out function keeps its line, so that line k + 2 stays function k.
                source.push_str(if *on { &f.line } else { "" });
                source.push('\n');
            }
            std::fs::write(&c_path, source).map_err(|source| CostError::Write { path: c_path.clone(), source })?;
            let out = Command::new(compiler)
                .args((self.clang_flags)(cpu))
                .args(["-O1", "-w", "-ferror-limit=0", "-S", "-o"])
                .arg(&s_path)
                .arg(&c_path)
                .output()
                .map_err(|source| CostError::Spawn { tool: compiler.display().to_string(), source })?;
            if out.status.success() {
                return std::fs::read_to_string(&s_path)
                    .map_err(|source| CostError::Write { path: s_path.clone(), source });
            }
            let stderr = String::from_utf8_lossy(&out.stderr);
            let bad: Vec<usize> = crate::validate::compile_errors(&stderr, &c_path)
                .into_iter()
                .filter_map(|(line, _)| line.checked_sub(2))
                .filter(|k| live.get(*k) == Some(&true))
                .collect();
            if bad.is_empty() {
                return Err(CostError::failed(compiler, cpu, &out.stderr));
            }
            for k in bad {
                live[k] = false;
            }
        }
        Err(CostError::Failed {
            tool: compiler.display().to_string(),
            cpu: cpu.into(),
            message: "still rejecting functions after 64 rounds".into(),
        })
    }

    /// The macros the compiler defines for `cpu` (one per extension it has).
    fn macros(&self, compiler: &Path, cpu: &str, dir: &Path) -> Result<std::collections::BTreeSet<String>, CostError> {
        let empty = dir.join("empty.c");
        std::fs::write(&empty, "").map_err(|source| CostError::Write { path: empty.clone(), source })?;
        let out = Command::new(compiler)
            .args((self.clang_flags)(cpu))
            .args(["-dM", "-E"])
            .arg(&empty)
            .output()
            .map_err(|source| CostError::Spawn { tool: compiler.display().to_string(), source })?;
        if !out.status.success() {
            return Err(CostError::failed(compiler, cpu, &out.stderr));
        }
        Ok(String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.strip_prefix("#define ")?.split_whitespace().next().map(str::to_string))
            .collect())
    }
}

/// `costs` as JSON: one CPU's table per block, one entry per line.
pub fn render(costs: &CpuCosts, header: &str) -> Result<String, serde_json::Error> {
    let mut out = format!(
        "{{\n  \"_generated_by\": {},\n  \"source\": {},\n  \"cpus\": {{\n",
        serde_json::to_string(header)?,
        serde_json::to_string(&costs.source)?
    );
    for (c, (cpu, table)) in costs.cpus.iter().enumerate() {
        out += &format!(
            "    {}: {{\n      \"resources\": {},\n      \"dispatch_width\": {},\n",
            serde_json::to_string(cpu)?,
            serde_json::to_string(&table.resources)?,
            table.dispatch_width
        );
        out += &format!("      \"instructions\": {},\n", entry_lines(&table.instructions, 6)?);
        out += &format!("      \"generic\": {}", entry_lines(&table.generic, 6)?);
        if !table.generic_at.is_empty() {
            out += ",\n      \"generic_at\": {\n";
            for (t, (target, entries)) in table.generic_at.iter().enumerate() {
                let comma = if t + 1 < table.generic_at.len() { "," } else { "" };
                out += &format!("        {}: {}{comma}\n", serde_json::to_string(target)?, entry_lines(entries, 8)?);
            }
            out += "      }";
        }
        out += "\n";
        out += if c + 1 < costs.cpus.len() { "    },\n" } else { "    }\n" };
    }
    out += "  }\n}\n";
    Ok(out)
}

/// A map of prices as a JSON object, one entry per line, closed at `indent`.
fn entry_lines(entries: &BTreeMap<String, Price>, indent: usize) -> Result<String, serde_json::Error> {
    let pad = " ".repeat(indent);
    let mut out = String::from("{\n");
    for (i, (name, price)) in entries.iter().enumerate() {
        let comma = if i + 1 < entries.len() { "," } else { "" };
        out += &format!("{pad}  {}: {}{comma}\n", serde_json::to_string(name)?, serde_json::to_string(price)?);
    }
    out += &format!("{pad}}}");
    Ok(out)
}
