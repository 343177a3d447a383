//! From semantics and classes to [`DialectDesign`]s.

use super::derived;
use super::{int_attribute, Allowed, AttrDesign, AttrDomain, DialectDesign, OpDesign, TargetOp, ValueDesign, Variant};
use crate::classify::cross_isa::{dialect_of, member_isa};
use crate::classify::engine::{ClassMember, SimilarityClass};
use crate::classify::mask::Masking;
use crate::sema::ir::{Arg, ArgKind, Semantics};
use crate::sema::print::semantics_to_string;
use std::collections::{BTreeSet, HashMap};

/// The MLIR type of an instruction argument or result.
pub fn mlir_type(a: &Arg) -> String {
    match a.kind {
        ArgKind::Mask => format!("vector<{}xi1>", a.width),
        ArgKind::Scalar | ArgKind::Immediate => format!("i{}", a.width),
        ArgKind::Vector => {
            let e = a.elem.width;
            let e = if matches!(e, 8 | 16 | 32 | 64) && a.width.is_multiple_of(e) { e } else { 64 };
            format!("vector<{}xi{}>", a.width / e, e)
        }
    }
}

/// An operand or attribute name as MLIR wants it: lower case, `_` for
/// anything else, unique within `taken`.
pub fn value_name(name: &str, taken: &mut Vec<String>) -> String {
    let mut n: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    if n.is_empty() || n.starts_with(|c: char| c.is_ascii_digit()) {
        n.insert(0, 'v');
    }
    while taken.contains(&n) {
        n.push('_');
    }
    taken.push(n.clone());
    n
}

/// `_mm512_mask_add_epi32` → `mm512_mask_add_epi32`, `V6_vaddhsat` →
/// `v6_vaddhsat` (MLIR op names are lower case).
pub fn op_name(intrinsic: &str) -> String {
    intrinsic.trim_start_matches('_').to_lowercase()
}

/// The values an immediate takes: its vendor range, else `0 ..= 2^bits - 1` (at most a byte).
fn immediate_range(a: &Arg) -> Allowed {
    if let Some((lo, hi)) = a.imm_range {
        return Allowed::Range(lo, hi);
    }
    Allowed::Range(0, (1i64 << a.imm_bits.unwrap_or(8).min(8)) - 1)
}

/// Names of a target op's operands and attributes, by argument index:
/// operands (non-immediates) first, then attributes (immediates).
pub fn target_names(s: &Semantics) -> HashMap<usize, String> {
    let mut taken = Vec::new();
    let operands = s.args.iter().enumerate().filter(|(_, a)| a.kind != ArgKind::Immediate);
    let attributes = s.args.iter().enumerate().filter(|(_, a)| a.kind == ArgKind::Immediate);
    operands.chain(attributes).map(|(i, a)| (i, value_name(&a.name, &mut taken))).collect()
}

/// One op per validated instruction, with its exact operand and result types;
/// immediates are integer attributes, range checked by the compiled verifier.
pub fn target_dialect(name: &str, isa: &str, semantics: &[Semantics], generated_by: &str) -> DialectDesign {
    let ops = semantics
        .iter()
        .map(|s| {
            let names = target_names(s);
            let (imms, regs): (Vec<_>, Vec<_>) =
                s.args.iter().enumerate().partition(|(_, a)| a.kind == ArgKind::Immediate);
            let operands = regs
                .iter()
                .map(|(i, a)| ValueDesign { name: names[i].clone(), types: vec![mlir_type(a)], optional: false })
                .collect();
            let attributes = imms
                .iter()
                .map(|(i, _)| AttrDesign { name: names[i].clone(), domain: AttrDomain::AnyInteger })
                .collect();
            let variant = Variant {
                attributes: imms.iter().map(|(i, a)| (names[i].clone(), immediate_range(a))).collect(),
                operand_types: regs.iter().map(|(_, a)| mlir_type(a)).collect(),
                result_type: mlir_type(&s.result),
                target: None,
            };
            OpDesign {
                name: op_name(&s.name),
                summary: format!("{isa} intrinsic {}", s.name),
                description: semantics_to_string(s).lines().map(str::to_string).collect(),
                operands,
                attributes,
                result: ValueDesign { name: "result".into(), types: vec![mlir_type(&s.result)], optional: false },
                examples: vec![variant.example(name)],
                variants: vec![variant],
            }
        })
        .collect();
    DialectDesign {
        name: name.into(),
        summary: format!("{isa} vector instructions, one op per validated intrinsic"),
        generated_by: generated_by.into(),
        ops,
    }
}

/// The target-independent dialect's name.
pub const AUTOLLVM: &str = "autollvm";
/// Names of the optional operands mask forms add.
pub const PASSTHROUGH: &str = "passthrough";
pub const MASK: &str = "mask";
/// Name of the attribute saying which mask form an op instance has.
pub const MASKING: &str = "masking";
/// What its cases are.
const MASKING_SUMMARY: &str = "mask form";

/// One op per similarity class of the combined classification (members
/// named `isa/instruction`, see [`crate::classify::cross_isa`]). Class
/// parameters and the mask form are attributes limited to the values
/// members use, immediates are integer attributes, operand types are the
/// members' types; every member is a variant that names the op of its
/// ISA's dialect it lowers to.
pub fn autollvm_dialect(classes: &[SimilarityClass], semantics: &[Semantics], generated_by: &str) -> DialectDesign {
    let by_name: HashMap<&str, &Semantics> = semantics.iter().map(|s| (s.name.as_str(), s)).collect();
    let ops = classes.iter().map(|c| class_op(c, &by_name)).collect();
    DialectDesign {
        name: AUTOLLVM.into(),
        summary: "Target-independent vector operations, one per similarity class of instructions across ISAs".into(),
        generated_by: generated_by.into(),
        ops,
    }
}

/// A class and the semantics of its members.
struct ClassView<'a> {
    class: &'a SimilarityClass,
    by_name: &'a HashMap<&'a str, &'a Semantics>,
}

impl ClassView<'_> {
    fn member(&self, m: &ClassMember) -> &Semantics {
        self.by_name.get(m.intrinsic.as_str()).copied().expect("class member has semantics")
    }

    fn arity(&self) -> usize {
        self.class.template.args.len()
    }

    /// Whether class argument `k` (template arguments, then mask operands) is an immediate.
    fn is_immediate(&self, k: usize) -> bool {
        k < self.arity() && self.class.template.args[k].kind == ArgKind::Immediate
    }

    fn masked(&self) -> bool {
        self.class.maskings.iter().any(|m| *m != Masking::None)
    }

    /// The types members selected by `filter` give class argument `position(member)`.
    fn types(&self, filter: impl Fn(&ClassMember) -> bool, position: impl Fn(&ClassMember) -> usize) -> Vec<String> {
        let types: BTreeSet<String> = self
            .class
            .members
            .iter()
            .filter(|m| filter(m))
            .map(|m| mlir_type(&self.member(m).args[m.arg_order[position(m)]]))
            .collect();
        types.into_iter().collect()
    }
}

fn class_op(c: &SimilarityClass, by_name: &HashMap<&str, &Semantics>) -> OpDesign {
    let view = ClassView { class: c, by_name };
    let arity = view.arity();
    let masked = view.masked();
    let mut operands = Vec::new();
    let mut attributes = Vec::new();
    for (k, arg) in c.template.args.iter().enumerate() {
        if view.is_immediate(k) {
            attributes.push(AttrDesign { name: arg.name.clone(), domain: AttrDomain::AnyInteger });
        } else {
            let types = view.types(|_| true, |_| k);
            operands.push(ValueDesign { name: arg.name.clone(), types, optional: false });
        }
    }
    // Optional operand groups after the operation's own: the
    // pass-through (merge masking) and the mask.
    let singles = operands.len();
    let has_passthrough = c.maskings.contains(&Masking::Merge);
    let segmented = has_passthrough && masked;
    if has_passthrough {
        let types = view.types(|m| m.masking == Masking::Merge, |_| arity);
        operands.push(ValueDesign { name: PASSTHROUGH.into(), types, optional: true });
    }
    if masked {
        let types = view.types(|m| m.masking != Masking::None, |m| m.arg_order.len() - 1);
        operands.push(ValueDesign { name: MASK.into(), types, optional: true });
        let cases = c.maskings.iter().map(|m| m.name()).collect();
        let default = Some(Masking::None.name());
        let summary = MASKING_SUMMARY.into();
        attributes.push(AttrDesign { name: MASKING.into(), domain: AttrDomain::Cases { cases, default, summary } });
    }
    let mut variants: Vec<Variant> = c.members.iter().map(|m| member_variant(&view, m)).collect();
    let operand_names: Vec<String> = operands.iter().map(|o| o.name.clone()).collect();
    let derived_params = parameters(c, &mut variants, singles, &operand_names, &mut attributes);
    let examples = variants
        .iter()
        .zip(&c.members)
        .map(|(v, m)| {
            let mut e = v.example(AUTOLLVM);
            // Two names of one instruction (`_mm_slli_si128`, `_mm_bslli_si128`)
            // accept the same combination; the first one is what lowering picks.
            let same = |w: &&Variant| {
                w.attributes == v.attributes
                    && w.operand_types == v.operand_types
                    && w.result_type == v.result_type
                    && w.target_dialect() == v.target_dialect()
            };
            e.target = variants.iter().find(same).expect("itself").example(AUTOLLVM).target;
            if segmented {
                let p = usize::from(m.masking == Masking::Merge);
                let k = usize::from(m.masking != Masking::None);
                let sizes: Vec<String> = std::iter::repeat_n(1, singles).chain([p, k]).map(|n| n.to_string()).collect();
                e.attributes.push(("operandSegmentSizes".into(), format!("array<i32: {}>", sizes.join(", "))));
            }
            e
        })
        .collect();
    let result_types: BTreeSet<String> = variants.iter().map(|v| v.result_type.clone()).collect();
    OpDesign {
        name: c.name.clone(),
        summary: format!(
            "{} instructions computing the same thing up to {} parameter(s)",
            c.members.len(),
            c.params.len()
        ),
        description: class_description(c, masked, segmented, &derived_params),
        operands,
        attributes,
        result: ValueDesign { name: "result".into(), types: result_types.into_iter().collect(), optional: false },
        examples,
        variants,
    }
}

/// The class parameters as attributes of its op, except those the types
/// fix (see [`derived`]): those leave `variants`, and are returned in words
/// for the op's description.
fn parameters(
    c: &SimilarityClass,
    variants: &mut [Variant],
    singles: usize,
    operand_names: &[String],
    attributes: &mut Vec<AttrDesign>,
) -> Vec<String> {
    let mut derived_params = Vec::new();
    for (i, p) in c.params.iter().enumerate() {
        if let Some(d) = derived::derivation(variants, &p.name, singles) {
            derived_params.push(format!("`{}` is {}", p.name, d.describe(operand_names)));
            for v in variants.iter_mut() {
                v.attributes.retain(|(n, _)| *n != p.name);
            }
            continue;
        }
        let values: BTreeSet<&num_bigint::BigInt> = c.members.iter().map(|m| &m.values[i]).collect();
        let values = values.into_iter().map(|v| int_attribute(&v.to_string())).collect();
        attributes.push(AttrDesign { name: p.name.clone(), domain: AttrDomain::Integers { values } });
    }
    derived_params
}

/// A member as a variant of its class op: immediates, mask form and
/// parameter values; operand and result types; the target op it becomes.
fn member_variant(view: &ClassView, m: &ClassMember) -> Variant {
    let c = view.class;
    let s = view.member(m);
    let names = target_names(s);
    let arity = view.arity();
    let operand_ks: Vec<usize> = (0..m.arg_order.len()).filter(|&k| !view.is_immediate(k)).collect();
    let mut attrs: Vec<(String, Allowed)> = (0..arity)
        .filter(|&k| view.is_immediate(k))
        .map(|k| (c.template.args[k].name.clone(), immediate_range(&s.args[m.arg_order[k]])))
        .collect();
    if view.masked() {
        let case = if m.masking == Masking::None { Allowed::DefaultCase } else { Allowed::Case };
        attrs.push((MASKING.into(), case(m.masking.name())));
    }
    for (p, v) in c.params.iter().zip(&m.values) {
        attrs.push((p.name.clone(), Allowed::Int(v.to_string())));
    }
    let class_operand_of = |i: usize| operand_ks.iter().position(|&k| m.arg_order[k] == i);
    let target = TargetOp {
        op: {
            let (isa, name) = member_isa(&m.intrinsic);
            format!("{}.{}", dialect_of(isa), op_name(name))
        },
        operands: (0..s.args.len())
            .filter(|&i| s.args[i].kind != ArgKind::Immediate)
            .map(|i| class_operand_of(i).expect("every register argument is a class operand"))
            .collect(),
        attributes: (0..arity)
            .filter(|&k| view.is_immediate(k))
            .map(|k| (names[&m.arg_order[k]].clone(), c.template.args[k].name.clone()))
            .collect(),
    };
    Variant {
        attributes: attrs,
        operand_types: operand_ks.iter().map(|&k| mlir_type(&s.args[m.arg_order[k]])).collect(),
        result_type: mlir_type(&s.result),
        target: Some(target),
    }
}

/// The class op's description: members (with their mask forms), the mask
/// operands, the template semantics.
fn class_description(c: &SimilarityClass, masked: bool, segmented: bool, derived: &[String]) -> Vec<String> {
    let members: Vec<String> = c
        .members
        .iter()
        .map(|m| match m.masking {
            Masking::None => m.intrinsic.clone(),
            k => format!("{} ({} masking)", m.intrinsic, k.name()),
        })
        .collect();
    let mut description = vec![format!("Members ({}): {}.", c.members.len(), members.join(", "))];
    if masked {
        description.push(format!(
            "Mask forms: the `{MASKING}` enum attribute (`none` unless written, as `{MASKING}<zero>`); `merge` takes `{PASSTHROUGH}` and `{MASK}`, `zero` and \
             `merge_aK` take `{MASK}`; result elements whose mask bit is clear come from `{PASSTHROUGH}`, are \
             zero, or come from operand aK.{}",
            if segmented { " The operand groups are sized by `operandSegmentSizes`." } else { "" }
        ));
    }
    if !derived.is_empty() {
        description.push(format!(
            "Parameters the operand and result types fix, not stored as attributes: {}.",
            derived.join("; ")
        ));
    }
    description.push("Semantics with the class parameters as named values:".into());
    description.extend(semantics_to_string(&c.template).lines().skip(1).map(str::to_string));
    description
}
