//! `convert-hydride-<isa>-to-llvm`: every op of an ISA's dialect becomes
//! what clang emits for its intrinsic, as the ISA's lowering table says
//! ([`crate::llvm_lowering`]): a call of the LLVM intrinsic, operands
//! bitcast to its parameter types and immediates as constants, or of the
//! generic intrinsic it stands for (`llvm.smax`, `llvm.abs`), which LLVM's
//! optimizer understands; for a mask form, a `select` on the mask after it;
//! one generic LLVM instruction; clang's IR for it (an `llvm.func`
//! snippet), inlined in place, for an immediate of few values the IR of the
//! op's value, for one of more values the IR with the op's value in its
//! place (an error outside the range it was read for); or, for a data
//! movement by an immediate, the `shufflevector` whose mask the semantics
//! give for the op's immediate ([`super::movement`]).

use super::build::{self, BuildError, Builder, Snippets};
use super::raw;
use super::read;
use crate::llvm_lowering::{Body, CallArg, GenericIntrinsic, Immediate, MaskSelect, OpLowering, Otherwise};
use crate::synth::attr::Attr;
use crate::synth::target::Isa;
use crate::synth::types::Ty;
use melior::ir::attribute::DenseI32ArrayAttribute;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value, ValueLike};
use melior::Context;
use num_bigint::BigInt;

pub fn run(context: &Context, root: OperationRef, isa: Isa) -> Result<(), ()> {
    let prefix = format!("{}.", isa.dialect());
    let ops: Vec<OperationRef> = raw::nested_ops(root)
        .into_iter()
        .filter(|op| op.name().as_string_ref().as_str().is_ok_and(|n| n.starts_with(&prefix)))
        .collect();
    let mut ok = true;
    let mut snippets = Snippets::default();
    for op in ops {
        if let Err(e) = convert(context, op, isa, &mut snippets) {
            raw::emit(&op, false, &e.to_string());
            ok = false;
        }
    }
    ok.then_some(()).ok_or(())
}

/// Why an op was not lowered to LLVM: the error emitted on it.
#[derive(Debug, thiserror::Error)]
enum LoweringError {
    #[error(
        "cannot be lowered to LLVM: hydride has no LLVM lowering for {0} (clang lowers it to more than one \
         instruction, with immediates or not in one block of pure operations)"
    )]
    NoLowering(String),
    /// The ISA's lowering table did not read (its reader's words).
    #[error(transparent)]
    Table(#[from] crate::table_error::TableError),
    #[error("type {0} is not modelled")]
    UnmodelledType(String),
    #[error("expects one result")]
    NotOneResult,
    /// An operand or result the op does not have (MLIR's words).
    #[error("{0}")]
    Malformed(String),
    #[error("llvm.{0} takes two operands")]
    NotBinary(String),
    #[error("clang's IR for {0} takes no immediates")]
    ImmediateGiven(String),
    #[error("clang's IR for {0} takes the value of one immediate")]
    NotOneImmediate(String),
    #[error("needs the integer attribute '{0}'")]
    MissingImmediate(String),
    #[error("immediate {0} is out of range")]
    ImmediateOutOfRange(BigInt),
    #[error("immediate '{name}' = {value} is out of range")]
    NamedImmediateOutOfRange { name: String, value: i64 },
    #[error("immediate {0} is out of range: clang's IR was recorded for fewer values")]
    NotRecordedFor(i64),
    #[error("immediate {value} is out of range: clang's IR was read for {lo}..={hi}")]
    NotReadFor { value: i64, lo: i64, hi: i64 },
    #[error("cannot pass the operands of {op} to {intrinsic}")]
    NoSignature { op: String, intrinsic: String },
    #[error("malformed LLVM call plan: operand {operand}: {why}")]
    CallPlan { operand: usize, why: String },
    #[error("cannot be lowered to LLVM: {0} immediates (hydride passes one, last)")]
    Immediates(usize),
    #[error("{intrinsic} takes {takes} arguments, {op} has {given}")]
    CallArity { intrinsic: String, takes: usize, op: String, given: usize },
    #[error("clang's IR for {key} takes {takes} operands, the op has {given}")]
    SnippetArity { key: String, takes: usize, given: usize },
    #[error("mask form over {0} of the result's elements is not supported")]
    MaskElements(u32),
    #[error("mask {ty} does not cover {elements} elements")]
    MaskTooNarrow { ty: String, elements: u32 },
    /// A data movement whose immediate the semantics cannot arrange.
    #[error("{0}")]
    Movement(super::failure::RewriteError),
    #[error(transparent)]
    Build(#[from] BuildError),
}

/// An MLIR accessor's error as a lowering error.
fn malformed(e: impl std::fmt::Display) -> LoweringError {
    LoweringError::Malformed(e.to_string())
}

/// The op being lowered, with what its lowering reads of it.
struct Lowered<'c, 'a, 'o> {
    name: String,
    op: OperationRef<'c, 'a>,
    b: Builder<'c, 'a>,
    operands: Vec<Value<'c, 'a>>,
    /// The op's operand types, then one `i32` per integer attribute.
    implicit_types: Vec<Ty>,
    /// The op's integer attributes, in its order.
    immediates: Vec<BigInt>,
    result: Ty,
    lowering: &'o OpLowering,
}

fn convert<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    isa: Isa,
    snippets: &mut Snippets<'c>,
) -> Result<(), LoweringError> {
    let name = op.name().as_string_ref().as_str().unwrap_or_default().to_string();
    let table = isa.lowering_table().map_err(LoweringError::Table)?;
    let lowering = table.get(&name).ok_or_else(|| LoweringError::NoLowering(name.clone()))?;
    let instance = read::instance(&op);
    let types = |texts: &[String]| {
        texts
            .iter()
            .map(|t| Ty::parse(t).ok_or_else(|| LoweringError::UnmodelledType(t.clone())))
            .collect::<Result<Vec<_>, _>>()
    };
    let mut implicit_types = types(&instance.operand_types)?;
    let result = match types(&instance.result_types)?.as_slice() {
        [t] => t.clone(),
        _ => return Err(LoweringError::NotOneResult),
    };
    let immediates: Vec<BigInt> = instance.attributes.iter().filter_map(|(_, v)| v.parse::<BigInt>().ok()).collect();
    implicit_types.extend(immediates.iter().map(|_| Ty { dims: Vec::new(), elem_bits: 32 }));
    let operands: Vec<Value> =
        (0..op.operand_count()).map(|k| op.operand(k).map_err(malformed)).collect::<Result<_, _>>()?;
    let l = Lowered { name, op, b: Builder::new(context, op), operands, implicit_types, immediates, result, lowering };
    let mut value = match &lowering.body {
        Body::Intrinsic { name: intrinsic, args, generic, .. } => {
            l.call(intrinsic, args.as_deref(), generic.as_ref())?
        }
        Body::Binary { op: llvm_op } => {
            let [x, y] = l.operands[..] else { return Err(LoweringError::NotBinary(llvm_op.clone())) };
            l.b.create(&format!("llvm.{llvm_op}"), &[x, y], &[], build::mlir_type(context, &l.result))?
        }
        Body::Snippet { params, text, .. } => {
            if !l.immediates.is_empty() {
                return Err(LoweringError::ImmediateGiven(l.name.clone()));
            }
            l.inline(context, snippets, &l.name, (params, text))?
        }
        Body::SnippetPerImmediate { immediate, .. } => {
            let imm = l.immediate(immediate)?;
            let (params, text) = lowering.snippet_at(imm).ok_or(LoweringError::NotRecordedFor(imm))?;
            l.inline(context, snippets, &format!("{} {imm}", l.name), (params, text))?
        }
        Body::SnippetOfImmediate { immediate, params, template, .. } => {
            let imm = l.immediate(immediate)?;
            let (lo, hi) = template.values;
            let text = template.text(imm).ok_or(LoweringError::NotReadFor { value: imm, lo, hi })?;
            l.inline(context, snippets, &format!("{} {imm}", l.name), (params, &text))?
        }
        Body::Movement { instruction, elem_bits, immediate, result } => {
            let imm = l.immediate(&Immediate::Named(immediate.clone()))?;
            let imm = u32::try_from(imm)
                .map_err(|_| LoweringError::NamedImmediateOutOfRange { name: immediate.clone(), value: imm })?;
            super::movement::lower(context, &l.b, op, (isa, instruction, *elem_bits), imm, result)
                .map_err(LoweringError::Movement)?
        }
    };
    if let Some(s) = &lowering.select {
        value = l.select(context, s, value)?;
    }
    let back = l.b.llvm_cast(value, &l.result)?;
    let old: Value = op.result(0).map_err(malformed)?.into();
    raw::replace_all_uses(old, back);
    raw::erase(op);
    Ok(())
}

impl<'c, 'a> Lowered<'c, 'a, '_> {
    /// The value of the immediate `which`.
    fn immediate(&self, which: &Immediate) -> Result<i64, LoweringError> {
        let value = match which {
            Immediate::Named(attr) => self.named_immediate(attr)?,
            Immediate::Only => match self.immediates.as_slice() {
                [imm] => imm.clone(),
                _ => return Err(LoweringError::NotOneImmediate(self.name.clone())),
            },
        };
        i64::try_from(&value).map_err(|_| LoweringError::ImmediateOutOfRange(value.clone()))
    }

    /// The integer attribute `attr` of the op.
    fn named_immediate(&self, attr: &str) -> Result<BigInt, LoweringError> {
        self.op
            .attribute(attr)
            .ok()
            .and_then(|a| match read::attr(a) {
                Attr::Int(x) => Some(x),
                _ => None,
            })
            .ok_or_else(|| LoweringError::MissingImmediate(attr.to_string()))
    }

    /// The call of `intrinsic` (or of the generic intrinsic it stands for)
    /// on `args` (the operands, then the immediate, if not given).
    fn call(
        &self,
        intrinsic: &str,
        args: Option<&[CallArg]>,
        generic: Option<&GenericIntrinsic>,
    ) -> Result<Value<'c, 'a>, LoweringError> {
        let b = &self.b;
        let (params, result) = self
            .lowering
            .signature(&self.implicit_types, &self.result)
            .ok_or_else(|| LoweringError::NoSignature { op: self.name.clone(), intrinsic: intrinsic.to_string() })?;
        let mut values = Vec::new();
        match args {
            Some(args) => {
                for (arg, ty) in args.iter().zip(&params) {
                    values.push(match arg {
                        CallArg::Operand(k) => {
                            let v = self
                                .op
                                .operand(*k)
                                .map_err(|e| LoweringError::CallPlan { operand: *k, why: e.to_string() })?;
                            b.llvm_cast(v, ty)?
                        }
                        CallArg::Immediate(attr) => b.llvm_constant(&self.named_immediate(attr)?, ty)?,
                    });
                }
            }
            None => {
                if self.immediates.len() > 1 {
                    return Err(LoweringError::Immediates(self.immediates.len()));
                }
                if params.len() != self.implicit_types.len() {
                    return Err(LoweringError::CallArity {
                        intrinsic: intrinsic.to_string(),
                        takes: params.len(),
                        op: self.name.clone(),
                        given: self.implicit_types.len(),
                    });
                }
                for (v, p) in self.operands.iter().zip(&params) {
                    values.push(b.llvm_cast(*v, p)?);
                }
                for (x, p) in self.immediates.iter().zip(&params[self.operands.len()..]) {
                    values.push(b.llvm_constant(x, p)?);
                }
            }
        }
        let one_value = matches!(self.operands[..], [x, y] if x == y);
        match generic {
            Some(g) if !g.of_one_value || one_value => {
                if g.of_one_value {
                    values.truncate(1);
                }
                if g.poison_flag {
                    values.push(b.llvm_constant(&BigInt::from(0), &Ty { dims: Vec::new(), elem_bits: 1 })?);
                }
                Ok(b.call_intrinsic(&g.name, &values, &result)?)
            }
            _ => Ok(b.call_intrinsic(intrinsic, &values, &result)?),
        }
    }

    /// Clang's IR `snippet` (its parameter types and text; `key` names it in
    /// the run's parsed snippets) inlined over the operands, each cast to its
    /// parameter's type: the value it returns.
    fn inline(
        &self,
        context: &'c Context,
        snippets: &mut Snippets<'c>,
        key: &str,
        (params, text): (&[Ty], &str),
    ) -> Result<Value<'c, 'a>, LoweringError> {
        if params.len() != self.operands.len() {
            let (takes, given) = (params.len(), self.operands.len());
            return Err(LoweringError::SnippetArity { key: key.to_string(), takes, given });
        }
        let mut args = Vec::new();
        for (v, p) in self.operands.iter().zip(params) {
            args.push(self.b.llvm_cast(*v, p)?);
        }
        Ok(self.b.inline(snippets.get(context, key, text)?, &args)?)
    }

    /// `computed` where the mask's bit is set, the other value where not.
    fn select(
        &self,
        context: &'c Context,
        s: &MaskSelect,
        computed: Value<'c, 'a>,
    ) -> Result<Value<'c, 'a>, LoweringError> {
        let b = &self.b;
        if s.elements * s.elem_width != self.result.bits() {
            return Err(LoweringError::MaskElements(s.elements));
        }
        let lanes = Ty { dims: vec![s.elements], elem_bits: s.elem_width };
        let mut mask = self.op.operand(s.mask).map_err(malformed)?;
        let mask_ty = read::ty(mask.r#type()).filter(|t| t.dims.len() == 1 && t.lanes() >= s.elements);
        let mask_ty = mask_ty
            .ok_or_else(|| LoweringError::MaskTooNarrow { ty: mask.r#type().to_string(), elements: s.elements })?;
        if mask_ty.lanes() > s.elements {
            let first: Vec<i32> = (0..s.elements as i32).collect();
            let t = build::mlir_type(context, &Ty { dims: vec![s.elements], elem_bits: mask_ty.elem_bits });
            let m = DenseI32ArrayAttribute::new(context, &first).into();
            mask = b.create("llvm.shufflevector", &[mask, mask], &[("mask", m)], t)?;
        }
        let computed = b.llvm_cast(computed, &lanes)?;
        let otherwise = match s.otherwise {
            Otherwise::Zero => b.create("llvm.mlir.zero", &[], &[], build::mlir_type(context, &lanes))?,
            Otherwise::Operand(k) => b.llvm_cast(self.op.operand(k).map_err(malformed)?, &lanes)?,
        };
        Ok(b.create("llvm.select", &[mask, computed, otherwise], &[], build::mlir_type(context, &lanes))?)
    }
}
