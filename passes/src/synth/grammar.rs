//! The instructions synthesis may use: class members of the embedded class
//! database that have a one-intrinsic LLVM lowering and no mask form, each
//! with its semantics, its cost, and the autollvm op that stands for it.

use super::attr::NewAttr;
use super::types::Ty;
use crate::llvm_calls::CallTable;
use crate::variants::VariantTable;
use dialectgen::classify::engine::{member_semantics, ClassMember, ClassParam, SimilarityClass};
use dialectgen::classify::mask::{MaskShape, Masking};
use dialectgen::design::Allowed;
use dialectgen::isa::x86::host::x86_target_allows;
use dialectgen::sema::ir::{Arg, ArgKind, Semantics};
use rayon::prelude::*;
use serde_json::value::RawValue;
use std::sync::{Arc, OnceLock};

#[derive(Clone, Debug)]
pub struct Candidate {
    /// `autollvm.dot_acc_su_widen`.
    pub class_op: String,
    /// `_mm512_dpbusd_epi32`.
    pub intrinsic: String,
    /// The class, and the member this candidate is, for its semantics.
    class: Arc<LazyClass>,
    member: ClassMember,
    /// The plain operation, made from the class template on first use.
    semantics: OnceLock<Semantics>,
    /// Machine instructions (class database, `cost_source`).
    pub cost: usize,
    /// CPUID features the instruction needs.
    pub cpuid: Vec<String>,
    /// Attributes fixed by the member.
    pub fixed_attributes: Vec<(String, NewAttr)>,
    /// Template arguments that are immediates: position, attribute name, bits.
    pub immediates: Vec<(usize, String, u32)>,
    /// Template arguments that are operands: position and type.
    pub operands: Vec<(usize, Ty)>,
    pub result: Ty,
}

/// The targets `lower-to-autollvm` knows: which instructions it may use.
/// The named ones compile anywhere (cross-compiling needs no hardware);
/// `native` is what this host executes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Zen 4's extensions (see [`x86_target_allows`]).
    X86Avx512,
    /// SSE2 … AVX2 only.
    X86Avx2,
    /// The instructions whose extensions this host has (less any withheld
    /// with `HYDRIDE_WITHHOLD_FEATURES`): no VNNI instruction on a host
    /// without VNNI.
    Native,
}

impl Target {
    pub fn parse(text: &str) -> Result<Target, String> {
        match text {
            "x86-avx512" => Ok(Target::X86Avx512),
            "x86-avx2" => Ok(Target::X86Avx2),
            "native" => Ok(Target::Native),
            other => Err(format!("unknown target '{other}' (known: native, x86-avx512, x86-avx2)")),
        }
    }

    /// What the target is: `native` with what it means on this host
    /// (`native=x86-avx2`), else the named target. Part of every cache key.
    pub fn name(self) -> String {
        match self {
            Target::X86Avx512 => "x86-avx512".into(),
            Target::X86Avx2 => "x86-avx2".into(),
            Target::Native => format!("native={}", dialectgen::isa::x86::host::Host::get().x86_target()),
        }
    }

    /// Whether an instruction needing these CPUID features runs on the target.
    pub fn allows(self, cpuid: &[String]) -> bool {
        match self {
            Target::X86Avx512 => cpuid.iter().all(|c| x86_target_allows("x86-avx512", c)),
            Target::X86Avx2 => !cpuid.is_empty() && cpuid.iter().all(|c| x86_target_allows("x86-avx2", c)),
            Target::Native => !cpuid.is_empty() && dialectgen::isa::x86::host::Host::get().executes(cpuid),
        }
    }
}

impl Candidate {
    /// The plain operation, arguments in the class op's order (immediates
    /// included): the class template with the member's numbers, made the
    /// first time it is asked for (a warm memo hit never asks).
    pub fn semantics(&self) -> &Semantics {
        self.semantics.get_or_init(|| member_semantics(self.class.get(), &self.member))
    }
}

/// A class whose template is read from its JSON text on first use.
#[derive(Debug)]
struct LazyClass {
    template: &'static RawValue,
    params: Vec<ClassParam>,
    maskings: Vec<Masking>,
    name: String,
    class: OnceLock<SimilarityClass>,
}

impl LazyClass {
    fn get(&self) -> &SimilarityClass {
        self.class.get_or_init(|| SimilarityClass {
            name: self.name.clone(),
            // The database was read when the plugin was built from it; its
            // text is embedded, so a template that read then reads now.
            template: serde_json::from_str(self.template.get()).expect("embedded class template reads"),
            params: self.params.clone(),
            maskings: self.maskings.clone(),
            members: Vec::new(),
        })
    }
}

/// What selecting candidates needs of a template: its arguments and result.
#[derive(serde::Deserialize)]
struct TemplateHead {
    args: Vec<Arg>,
    result: Arg,
}

/// The class database (`generated/x86/class-database.json`), read in one
/// pass straight into these types: a class, and each member with its cost;
/// templates stay JSON text until a candidate's semantics are asked for.
#[derive(serde::Deserialize)]
struct Database<'a> {
    #[serde(borrow)]
    classes: Vec<DbClass<'a>>,
}

#[derive(serde::Deserialize)]
struct DbClass<'a> {
    name: String,
    #[serde(borrow)]
    template: &'a RawValue,
    params: Vec<ClassParam>,
    maskings: Vec<Masking>,
    members: Vec<DbMember>,
}

#[derive(serde::Deserialize)]
struct DbMember {
    intrinsic: String,
    arg_order: Vec<usize>,
    masking: Masking,
    #[serde(default)]
    mask: Option<MaskShape>,
    values: Vec<num_bigint::BigInt>,
    signature: Vec<u32>,
    #[serde(default)]
    lowering: Option<LoweringCost>,
}

#[derive(serde::Deserialize)]
struct LoweringCost {
    #[serde(default)]
    cost: Option<u64>,
}

impl DbClass<'static> {
    /// The class (template unread), its template's arguments and result,
    /// and each member with its cost (machine instructions; 1 if unknown).
    #[allow(clippy::type_complexity)]
    fn split(self) -> Result<(Arc<LazyClass>, TemplateHead, Vec<(ClassMember, usize)>), String> {
        let head: TemplateHead = serde_json::from_str(self.template.get())
            .map_err(|e| format!("the class database's template of {} does not read: {e}", self.name))?;
        let members = self
            .members
            .into_iter()
            .map(|m| {
                let cost = m.lowering.as_ref().and_then(|l| l.cost).unwrap_or(1) as usize;
                let member = ClassMember {
                    intrinsic: m.intrinsic,
                    arg_order: m.arg_order,
                    masking: m.masking,
                    mask: m.mask,
                    values: m.values,
                    signature: m.signature,
                };
                (member, cost)
            })
            .collect();
        let class = LazyClass {
            template: self.template,
            params: self.params,
            maskings: self.maskings,
            name: self.name,
            class: OnceLock::new(),
        };
        Ok((Arc::new(class), head, members))
    }
}

/// A member's arguments and result: the template's with the member's widths
/// (what [`member_semantics`] gives them, without instantiating the body).
fn member_signature(head: &TemplateHead, m: &ClassMember) -> (Vec<Arg>, Arg) {
    let mut s = Semantics {
        name: m.intrinsic.clone(),
        args: head.args.clone(),
        result: head.result.clone(),
        functions: Vec::new(),
        body: Vec::new(),
    };
    dialectgen::classify::template::set_signature(&mut s, |k| m.signature.get(k).copied().unwrap_or(0));
    (s.args, s.result)
}

/// What the database holds for synthesis.
pub struct Grammar {
    pub candidates: Vec<Candidate>,
    /// Identifies the database (part of every cache key).
    pub version: u64,
}

const DATABASE: &str = include_str!("../../../generated/x86/class-database.json");

impl Grammar {
    pub fn embedded() -> Result<&'static Grammar, String> {
        static G: OnceLock<Result<Grammar, String>> = OnceLock::new();
        G.get_or_init(|| Grammar::load(DATABASE, VariantTable::embedded()?, CallTable::embedded()?))
            .as_ref()
            .map_err(Clone::clone)
    }

    pub fn load(database: &'static str, variants: &VariantTable, calls: &CallTable) -> Result<Grammar, String> {
        // Read straight into the types (no JSON value tree), templates left as text.
        let bad = |e: serde_json::Error| format!("the class database does not load: {e}");
        // One class per line: classes read in parallel, each straight into
        // its types; the whole text as one JSON document if not in that shape.
        let classes: Vec<DbClass<'static>> = match class_lines(database) {
            Some(lines) => lines.par_iter().map(|l| serde_json::from_str(l).map_err(bad)).collect::<Result<_, _>>()?,
            None => serde_json::from_str::<Database>(database).map_err(bad)?.classes,
        };
        let per_class: Vec<Vec<Candidate>> =
            classes.into_par_iter().map(|c| class_candidates(c, variants, calls)).collect::<Result<_, _>>()?;
        let candidates = per_class.into_iter().flatten().collect();
        Ok(Grammar { candidates, version: super::cache::fnv(database) })
    }
}

/// The class database's class lines (`{…},` between the opening line and
/// `]}`), or `None` if it is not written one class per line.
fn class_lines(database: &'static str) -> Option<Vec<&'static str>> {
    let mut lines = database.lines();
    if !lines.next()?.trim_end().ends_with('[') {
        return None;
    }
    let mut out = Vec::new();
    for line in lines {
        let line = line.trim_end();
        if line == "]}" {
            return Some(out);
        }
        if !line.starts_with('{') {
            return None;
        }
        out.push(line.strip_suffix(',').unwrap_or(line));
    }
    None
}

/// The candidates one class gives: members with a one-intrinsic LLVM
/// lowering, no mask form, and a variant whose types fit.
fn class_candidates(
    db_class: DbClass<'static>,
    variants: &VariantTable,
    calls: &CallTable,
) -> Result<Vec<Candidate>, String> {
    let mut candidates = Vec::new();
    let (class, head, members) = db_class.split()?;
    let class_op = format!("autollvm.{}", class.name);
    let class_variants = variants.variants(&class_op);
    for (m, cost) in members {
        let target = format!("hydride_x86.{}", dialectgen::design::build::op_name(&m.intrinsic));
        let Some(call) = calls.get(&target).filter(|_| m.masking == Masking::None) else { continue };
        let Some(variant) = class_variants.iter().find(|v| v.target.as_ref().is_some_and(|t| t.op == target)) else {
            continue;
        };
        let (args, result_arg) = member_signature(&head, &m);
        let mut fixed_attributes = Vec::new();
        let mut ranges = Vec::new();
        for (name, allowed) in &variant.attributes {
            match allowed {
                Allowed::Int(v) => match NewAttr::parameter(v) {
                    Some(a) => fixed_attributes.push((name.clone(), a)),
                    None => return Err(format!("class parameter {name} = {v} is not an integer")),
                },
                Allowed::Str(v) => fixed_attributes.push((name.clone(), NewAttr::Str(v.clone()))),
                Allowed::Range(..) => ranges.push(name.clone()),
            }
        }
        let immediates: Vec<(usize, String, u32)> = args
            .iter()
            .enumerate()
            .filter(|(_, a)| a.kind == ArgKind::Immediate)
            .map(|(i, a)| (i, a.name.clone(), a.imm_bits.unwrap_or(8).min(8)))
            .collect();
        let operand_args: Vec<usize> = (0..args.len()).filter(|i| args[*i].kind != ArgKind::Immediate).collect();
        let types: Option<Vec<Ty>> = variant.operand_types.iter().map(|t| Ty::parse(t)).collect();
        let (Some(types), Some(result)) = (types, Ty::parse(&variant.result_type)) else { continue };
        if types.len() != operand_args.len()
            || immediates.iter().any(|(_, n, _)| !ranges.contains(n))
            || operand_args.iter().zip(&types).any(|(&i, t)| args[i].width != t.bits())
            || result_arg.width != result.bits()
        {
            continue;
        }
        // Classes with both optional operand groups size them (as the
        // dialect's generated examples do): no pass-through, no mask.
        if class.maskings.contains(&Masking::Merge) {
            let mut sizes = vec![1; types.len()];
            sizes.extend([0, 0]);
            fixed_attributes.push(("operandSegmentSizes".into(), NewAttr::I32s(sizes)));
        }
        candidates.push(Candidate {
            class_op: class_op.clone(),
            intrinsic: m.intrinsic.clone(),
            class: class.clone(),
            member: m,
            semantics: OnceLock::new(),
            cost: cost.max(1),
            cpuid: call.cpuid.clone(),
            fixed_attributes,
            immediates,
            operands: operand_args.into_iter().zip(types).collect(),
            result,
        });
    }
    Ok(candidates)
}
