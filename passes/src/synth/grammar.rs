//! The instructions synthesis may use for one ISA: members of that ISA in
//! the embedded class database (the classes of all ISAs together) that have
//! an LLVM lowering hydride emits (an intrinsic call or clang's generic
//! IR) and no mask form, each with its semantics, its cost, and the
//! autollvm op that stands for it.

use super::attr::NewAttr;
use super::target::Isa;
use super::types::Ty;
use crate::llvm_lowering::{Body, LoweringTable};
use crate::table_error::TableError;
use crate::variants::VariantTable;
use dialectgen::classify::cross_isa::member_isa;
use dialectgen::classify::engine::{member_semantics, ClassMember, ClassParam, SimilarityClass};
use dialectgen::classify::mask::{MaskShape, Masking};
use dialectgen::design::build::AUTOLLVM;
use dialectgen::design::{enum_case, Allowed};
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
    /// Whether its two operands commute, tested on first use.
    commutes: OnceLock<bool>,
    /// Whether each target may use it (by [`Target::index`]), found on first use.
    allowed: [OnceLock<bool>; crate::targets::MAX_TARGETS],
    /// How it is screened on its first lanes, planned on first use.
    lane_prefix: OnceLock<Option<super::lane_prefix::LanePrefix>>,
    /// Machine instructions (class database, `cost_source`).
    pub cost: usize,
    /// Features the instruction needs, as its ISA's lowering table names
    /// them (see [`Target::allows`]).
    pub cpuid: Vec<String>,
    /// Attributes fixed by the member.
    pub fixed_attributes: Vec<(String, NewAttr)>,
    /// Its LLVM lowering is clang's generic IR (a snippet), not a call of
    /// a target intrinsic: no better than the ops it replaces one for one.
    pub generic: bool,
    /// Template arguments that are immediates: position, attribute name, bits.
    pub immediates: Vec<(usize, String, u32)>,
    /// The values the target instruction accepts for each immediate (its
    /// variant's range, inclusive), in the order of `immediates`.
    pub immediate_ranges: Vec<(i64, i64)>,
    /// Template arguments that are operands: position and type.
    pub operands: Vec<(usize, Ty)>,
    pub result: Ty,
}

pub use super::target::Target;

impl Candidate {
    /// The plain operation, arguments in the class op's order (immediates
    /// included): the class template with the member's numbers, made the
    /// first time it is asked for (a warm memo hit never asks).
    pub fn semantics(&self) -> &Semantics {
        self.semantics.get_or_init(|| member_semantics(self.class.get(), &self.member))
    }

    /// Whether `target` may use it ([`Target::allows`] its features),
    /// remembered: searches ask for every candidate in every window.
    pub fn allowed_on(&self, target: Target) -> bool {
        *self.allowed[target.index()].get_or_init(|| target.allows(&self.cpuid))
    }

    /// Its lane-prefix screening plan, if it has one (see
    /// [`super::lane_prefix`]).
    pub fn lane_prefix(&self) -> Option<&super::lane_prefix::LanePrefix> {
        self.lane_prefix.get_or_init(|| super::lane_prefix::plan(self.semantics())).as_ref()
    }

    /// Whether it takes two operands of one type, no immediates, and gives
    /// the same result with them swapped on random inputs. Searches bind
    /// such an instruction's operands in one order only; a wrong answer
    /// costs completeness, never soundness (every program is proved).
    pub fn commutes(&self) -> bool {
        *self.commutes.get_or_init(|| {
            let [(_, a), (_, b)] = self.operands.as_slice() else { return false };
            if a != b || !self.immediates.is_empty() {
                return false;
            }
            let mut rng = dialectgen::validate::cases::Rng::new(0x5eed_c0a1);
            (0..3).all(|_| {
                let x = dialectgen::validate::cases::random_bits(&mut rng, a.bits());
                let y = dialectgen::validate::cases::random_bits(&mut rng, a.bits());
                let run = |p: &num_bigint::BigUint, q: &num_bigint::BigUint| {
                    let args = arguments(self, &[p.clone(), q.clone()], &[], &|v, _| v.into());
                    dialectgen::eval::Machine::new(&mut dialectgen::eval::Concrete, self.semantics()).run(&args).ok()
                };
                let xy = run(&x, &y);
                xy.is_some() && xy == run(&y, &x)
            })
        })
    }

    /// The values its one immediate may take, inclusive: those its bits
    /// hold, narrowed to the range the target instruction's variant accepts
    /// (`None` without exactly one immediate, or if none remain).
    pub fn immediate_values(&self) -> Option<(i64, i64)> {
        let [(pos, _, bits)] = self.immediates.as_slice() else { return None };
        let held = (*bits).min(self.semantics().args[*pos].width).min(32);
        let top = if held >= 32 { u32::MAX as i64 } else { (1i64 << held) - 1 };
        let (lo, hi) = self
            .immediate_ranges
            .first()
            .map_or((0, top), |&(lo, hi)| (lo.max(0), if hi < 0 { top } else { hi.min(top) }));
        (lo <= hi).then_some((lo, hi))
    }

    /// Whether `binding` (a source per operand, in some total order) is the
    /// mirror of one already tried: the operands commute and are out of order.
    pub fn mirrored(&self, binding: &[usize]) -> bool {
        matches!(binding, [x, y] if x > y) && self.commutes()
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

/// The class database (`generated/class-database.json`), read in one
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

/// A member's lowering as far as cost goes, as its ISA's class database
/// records it (machine instructions, or resources used).
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum LoweringCost {
    Counted {
        #[serde(default)]
        cost: Option<u64>,
    },
    Other(serde::de::IgnoredAny),
}

impl LoweringCost {
    fn cost(&self) -> Option<u64> {
        match self {
            LoweringCost::Counted { cost } => *cost,
            LoweringCost::Other(_) => None,
        }
    }
}

impl DbClass<'static> {
    /// The class (template unread), its template's arguments and result,
    /// and each member with its cost (machine instructions; 1 if unknown).
    #[allow(clippy::type_complexity)]
    fn split(self) -> Result<(Arc<LazyClass>, TemplateHead, Vec<(ClassMember, usize)>), TableError> {
        let head: TemplateHead = serde_json::from_str(self.template.get())
            .map_err(|e| TableError::Template { class: self.name.to_string(), why: e.to_string() })?;
        let members = self
            .members
            .into_iter()
            .map(|m| {
                let cost = m.lowering.as_ref().and_then(LoweringCost::cost).unwrap_or(1) as usize;
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

/// What the database holds for synthesis on one ISA.
pub struct Grammar {
    pub isa: Isa,
    pub candidates: Vec<Candidate>,
    /// Identifies the database and the lowering table (part of every cache
    /// key: what the grammar holds depends on both).
    pub version: u64,
    /// Concrete evaluations of the candidates, remembered across searches.
    pub evaluations: super::evaluations::Evaluations,
}

impl super::evaluations::Evaluated for Candidate {
    fn semantics(&self) -> &Semantics {
        Candidate::semantics(self)
    }

    fn lane_prefix(&self) -> Option<&super::lane_prefix::LanePrefix> {
        Candidate::lane_prefix(self)
    }
}

const DATABASE: &str = include_str!("../../../generated/class-database.json");

impl Grammar {
    /// The most operands an instruction of the grammar reads.
    pub fn most_operands(&self) -> usize {
        self.candidates.iter().map(|c| c.operands.len()).max().unwrap_or(0)
    }

    /// The grammar of `isa`, from the database built into the plugin.
    pub fn embedded(isa: Isa) -> Result<&'static Grammar, TableError> {
        static G: [OnceLock<Result<Grammar, TableError>>; crate::targets::MAX_ISAS] =
            [const { OnceLock::new() }; crate::targets::MAX_ISAS];
        G[isa.index()]
            .get_or_init(|| Grammar::load(DATABASE, isa, VariantTable::embedded()?, isa.lowering_table()?))
            .as_ref()
            .map_err(Clone::clone)
    }

    pub fn load(
        database: &'static str,
        isa: Isa,
        variants: &VariantTable,
        lowerings: &LoweringTable,
    ) -> Result<Grammar, TableError> {
        // Read straight into the types (no JSON value tree), templates left as text.
        let bad = |e: serde_json::Error| TableError::Database(e.to_string());
        // One class per line: classes with a member of the ISA read in
        // parallel, each straight into its types; the whole text as one
        // JSON document if not in that shape.
        let classes: Vec<DbClass<'static>> = match class_lines(database) {
            Some(lines) => {
                let member = format!("\"intrinsic\":\"{}/", isa.name());
                lines
                    .par_iter()
                    .filter(|l| l.contains(&member))
                    .map(|l| serde_json::from_str(l).map_err(bad))
                    .collect::<Result<_, _>>()?
            }
            None => serde_json::from_str::<Database>(database).map_err(bad)?.classes,
        };
        let per_class: Vec<Vec<Candidate>> =
            classes.into_par_iter().map(|c| class_candidates(c, isa, variants, lowerings)).collect::<Result<_, _>>()?;
        let candidates = per_class.into_iter().flatten().collect();
        let table = lowerings.version;
        Ok(Grammar {
            isa,
            candidates,
            version: super::cache::fnv(database) ^ table.rotate_left(1),
            evaluations: Default::default(),
        })
    }
}

/// The semantics of one instruction of the database built into the plugin
/// (any member, mask forms included), by its C name (`_mm512_shuffle_epi32`):
/// its class's template instantiated,
/// so arguments in the class op's order and a mask form's without its mask
/// (the member's `arg_order` gives each argument's position in the C
/// intrinsic's, returned with it).
pub fn instruction_semantics(isa: Isa, intrinsic: &str) -> Result<(Semantics, Vec<usize>), TableError> {
    let key = format!("{}/{intrinsic}", isa.name());
    let quoted = format!("\"intrinsic\":\"{key}\"");
    let line = class_lines(DATABASE)
        .ok_or(TableError::DatabaseNotLineWise)?
        .into_iter()
        .find(|l| l.contains(&quoted))
        .ok_or_else(|| TableError::NotInDatabase(key.clone()))?;
    let (class, member) = class_member(line, &key)?;
    Ok((member_semantics(class.get(), &member), member.arg_order))
}

/// The class on database line `line` and its member `key` (`<isa>/<intrinsic>`).
fn class_member(line: &'static str, key: &str) -> Result<(Arc<LazyClass>, ClassMember), TableError> {
    let db_class: DbClass<'static> = serde_json::from_str(line).map_err(|e| TableError::Database(e.to_string()))?;
    let (class, _, members) = db_class.split()?;
    let (member, _) =
        members.into_iter().find(|(m, _)| m.intrinsic == key).ok_or_else(|| TableError::NoMember(key.to_string()))?;
    Ok((class, member))
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

/// What a member needs to run, if it has a lowering hydride emits for these
/// operand and result types and this many immediates (after the operands),
/// and whether that lowering is generic IR alone (a snippet of generic
/// operations, or a data movement whose `shufflevector` LLVM would make of
/// the same shuffle): like that, never a program by itself, a step beside a
/// target intrinsic.
fn lowering_features(
    lowerings: &LoweringTable,
    target: &str,
    operands: &[Ty],
    immediates: usize,
    result: &Ty,
) -> Option<(Vec<String>, bool)> {
    let lowering = lowerings.get(target)?;
    // An immediate is passed as the last parameter, a scalar.
    let mut args = operands.to_vec();
    args.extend((0..immediates).map(|_| Ty { dims: Vec::new(), elem_bits: 32 }));
    // A snippet takes the op's operands and gives its result, by size.
    let takes_operands = |params: &[Ty], r: &Ty| {
        params.len() == operands.len()
            && r.bits() == result.bits()
            && params.iter().zip(operands).all(|(p, a)| p.bits() == a.bits())
    };
    let fits = match &lowering.body {
        Body::Binary { .. } => immediates == 0 && operands.len() == 2 && operands.iter().all(|a| a == result),
        Body::Snippet { params, result: r, .. } => immediates == 0 && takes_operands(params, r),
        Body::SnippetOfImmediate { params, result: r, .. } => immediates == 1 && takes_operands(params, r),
        Body::SnippetPerImmediate { snippets, .. } => {
            immediates == 1 && snippets.iter().all(|(params, r, _)| takes_operands(params, r))
        }
        // The generator matched the arguments it lists to the instruction's.
        Body::Intrinsic { args: Some(_), .. } | Body::Movement { .. } => true,
        Body::Intrinsic { args: None, .. } => {
            immediates <= 1
                && lowering.signature(&args, result).is_some_and(|(params, r)| {
                    params.len() == args.len()
                        && r.bits() == result.bits()
                        && params.iter().zip(operands).all(|(p, a)| p.bits() == a.bits())
                        && params[operands.len()..].iter().all(|p| p.dims.is_empty())
                })
        }
    };
    fits.then(|| (lowering.features.clone(), lowering.generic_ir))
}

/// Attributes fixed to one value, and integer ones that range (name, lowest, highest).
type SplitAttributes = (Vec<(String, NewAttr)>, Vec<(String, i64, i64)>);

/// A variant's attributes: those fixed to one value, as they are written,
/// and those that range.
fn split_attributes(attributes: &[(String, Allowed)]) -> Result<SplitAttributes, TableError> {
    let (mut fixed, mut ranges) = (Vec::new(), Vec::new());
    for (name, allowed) in attributes {
        match allowed {
            Allowed::Int(v) => match NewAttr::parameter(v) {
                Some(a) => fixed.push((name.clone(), a)),
                None => return Err(TableError::NotAnInteger { name: name.clone(), value: v.clone() }),
            },
            Allowed::Case(v) => fixed.push((name.clone(), NewAttr::Parsed(enum_case(AUTOLLVM, name, v)))),
            // Left out: its absence is this case.
            Allowed::DefaultCase(_) => {}
            Allowed::Range(lo, hi) => ranges.push((name.clone(), *lo, *hi)),
        }
    }
    Ok((fixed, ranges))
}

/// The candidates one class gives: members of `isa` with an LLVM lowering
/// hydride emits, no mask form, and a variant whose types fit.
fn class_candidates(
    db_class: DbClass<'static>,
    isa: Isa,
    variants: &VariantTable,
    lowerings: &LoweringTable,
) -> Result<Vec<Candidate>, TableError> {
    let mut candidates = Vec::new();
    let (class, head, members) = db_class.split()?;
    let class_op = format!("{AUTOLLVM}.{}", class.name);
    let class_variants = variants.variants(&class_op);
    for (m, cost) in members {
        let (member_isa, name) = member_isa(&m.intrinsic);
        if member_isa != isa.name() || m.masking != Masking::None {
            continue;
        }
        let name = name.to_string();
        let target = format!("{}.{}", isa.dialect(), dialectgen::design::build::op_name(&name));
        let Some(variant) = class_variants.iter().find(|v| v.target.as_ref().is_some_and(|t| t.op == target)) else {
            continue;
        };
        let (args, result_arg) = member_signature(&head, &m);
        let (mut fixed_attributes, ranges) = split_attributes(&variant.attributes)?;
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
            || immediates.iter().any(|(_, n, _)| !ranges.iter().any(|(r, _, _)| r == n))
            || operand_args.iter().zip(&types).any(|(&i, t)| args[i].width != t.bits())
            || result_arg.width != result.bits()
        {
            continue;
        }
        let Some((cpuid, generic)) = lowering_features(lowerings, &target, &types, immediates.len(), &result) else {
            continue;
        };
        // Classes with both optional operand groups size them (as the
        // dialect's generated examples do): no pass-through, no mask.
        if class.maskings.contains(&Masking::Merge) {
            let mut sizes = vec![1; types.len()];
            sizes.extend([0, 0]);
            fixed_attributes.push(("operandSegmentSizes".into(), NewAttr::I32s(sizes)));
        }
        candidates.push(Candidate {
            class_op: class_op.clone(),
            intrinsic: name,
            class: class.clone(),
            member: m,
            semantics: OnceLock::new(),
            commutes: OnceLock::new(),
            allowed: Default::default(),
            lane_prefix: OnceLock::new(),
            cost: cost.max(1),
            cpuid,
            generic,
            fixed_attributes,
            immediate_ranges: immediates
                .iter()
                .map(|(_, n, _)| {
                    ranges.iter().find(|(r, _, _)| r == n).map(|(_, lo, hi)| (*lo, *hi)).expect("checked above")
                })
                .collect(),
            immediates,
            operands: operand_args.into_iter().zip(types).collect(),
            result,
        });
    }
    Ok(candidates)
}

/// A candidate's arguments in its semantics' order: operand values as
/// given, immediates made by `imm(value, width)`.
pub fn arguments<T: Clone>(c: &Candidate, operands: &[T], imms: &[u32], imm: &dyn Fn(u32, u32) -> T) -> Vec<T> {
    let mut args: Vec<Option<T>> = vec![None; c.semantics().args.len()];
    for ((pos, _), v) in c.operands.iter().zip(operands) {
        args[*pos] = Some(v.clone());
    }
    for ((pos, _, _), &v) in c.immediates.iter().zip(imms) {
        args[*pos] = Some(imm(v, c.semantics().args[*pos].width));
    }
    args.into_iter().map(|a| a.expect("every argument bound")).collect()
}

/// The instruction a target dialect's op stands for
/// (`hydride_<isa>.<instruction>`), mask step included: its
/// semantics (arguments: the class op's operands and immediates, then the
/// pass-through and the mask) and each argument's position among the C
/// intrinsic's.
pub fn op_instruction(op: &str) -> Result<(Semantics, Vec<usize>), TableError> {
    #[derive(serde::Deserialize)]
    struct Names {
        members: Vec<Name>,
    }
    #[derive(serde::Deserialize)]
    struct Name {
        intrinsic: String,
    }
    static INDEX: OnceLock<std::collections::HashMap<String, (&'static str, String)>> = OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut index = std::collections::HashMap::new();
        for line in class_lines(DATABASE).unwrap_or_default() {
            let Ok(names) = serde_json::from_str::<Names>(line) else { continue };
            for m in names.members {
                let (isa, name) = member_isa(&m.intrinsic);
                let op = format!(
                    "{}.{}",
                    dialectgen::classify::cross_isa::dialect_of(isa),
                    dialectgen::design::build::op_name(name)
                );
                index.insert(op, (line, m.intrinsic.clone()));
            }
        }
        index
    });
    let (line, key) = index.get(op).ok_or_else(|| TableError::NotInDatabase(op.to_string()))?;
    let (class, member) = class_member(line, key)?;
    let plain = member_semantics(class.get(), &member);
    let sem = match &member.mask {
        Some(shape) => dialectgen::classify::mask::apply_mask(&plain, member.masking, shape),
        None => plain,
    };
    Ok((sem, member.arg_order))
}
