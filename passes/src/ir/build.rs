//! The ops the passes create, built through the C API and inserted before
//! an anchor op.

use super::raw;
use super::read;
use crate::synth::attr::NewAttr;
use crate::synth::types::Ty;
use melior::ir::attribute::{DenseI32ArrayAttribute, DenseI64ArrayAttribute, StringAttribute};
use melior::ir::operation::{OperationBuilder, OperationLike};
use melior::ir::r#type::IntegerType;
use melior::ir::{Attribute, BlockLike, Identifier, Location, Module, OperationRef, Type, Value, ValueLike};
use melior::Context;

/// Why an op could not be built or a recorded LLVM IR body not inlined.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BuildError {
    /// MLIR refused the op (its verifier's or the builder's words).
    #[error("cannot create {op}: {why}")]
    Create { op: String, why: String },
    /// The op was built without the result asked for.
    #[error("{op} has no result {index}{}", .why.as_ref().map(|w| format!(": {w}")).unwrap_or_default())]
    NoResult { op: String, index: usize, why: Option<String> },
    /// The op to rewrite has been detached from its block.
    #[error("the op to rewrite is in no block")]
    Detached,
    /// A value of a type that is no integer or vector of integers.
    #[error("cannot {what} a value of type {ty}")]
    UnsupportedType { what: &'static str, ty: String },
    /// A bit cast between types of different sizes.
    #[error("cannot pass {from} as {to} (different sizes)")]
    SizeMismatch { from: Ty, to: Ty },
    /// A new op reads a value no op before it made.
    #[error("an operand made before its op")]
    OperandNotMade,
    /// Attribute text MLIR did not parse (the text).
    #[error("a constant attribute: {0}")]
    UnparsedAttribute(String),
    /// A recorded LLVM IR body (snippet) that does not parse or does not
    /// fit where it is inlined.
    #[error("{0}")]
    Snippet(SnippetFault),
}

/// What is wrong with a recorded LLVM IR body.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SnippetFault {
    #[error("the recorded LLVM IR of {0} does not parse in this MLIR")]
    Unparsed(String),
    #[error("the recorded LLVM IR of {0} is empty")]
    Empty(String),
    #[error("the snippet has no body")]
    NoBody,
    #[error("the snippet takes {takes} values, the op has {given}")]
    Arity { takes: usize, given: usize },
    #[error("the snippet's parameter {0} cannot be read")]
    Parameter(usize),
    #[error("the snippet uses a value defined outside it")]
    OutsideValue,
    #[error("the snippet returns nothing")]
    ReturnsNothing,
    #[error("the snippet does not end in llvm.return")]
    NoReturn,
}

/// The values of a new op's `operands` (positions in a new form), each made
/// by an op created before it (`values`).
pub fn made_operands<'c, 'a>(
    values: &std::collections::HashMap<usize, Value<'c, 'a>>,
    operands: &[usize],
) -> Result<Vec<Value<'c, 'a>>, BuildError> {
    operands.iter().map(|v| values.get(v).copied().ok_or(BuildError::OperandNotMade)).collect()
}

/// The attribute `text` spells (`dense<1> : vector<8xi16>`).
pub fn parsed_attribute<'c>(context: &'c Context, text: &str) -> Result<Attribute<'c>, BuildError> {
    Attribute::parse(context, text).ok_or_else(|| BuildError::UnparsedAttribute(text.to_string()))
}

pub fn mlir_type<'c>(context: &'c Context, ty: &Ty) -> Type<'c> {
    let elem = IntegerType::new(context, ty.elem_bits).into();
    if ty.dims.is_empty() {
        return elem;
    }
    Type::vector(&ty.dims.iter().map(|d| u64::from(*d)).collect::<Vec<_>>(), elem)
}

pub fn attribute<'c>(context: &'c Context, a: &NewAttr) -> Attribute<'c> {
    match a {
        NewAttr::Int { value, bits } => raw::integer_attribute(context, value, *bits),
        NewAttr::I64s(xs) => DenseI64ArrayAttribute::new(context, xs).into(),
        NewAttr::I32s(xs) => DenseI32ArrayAttribute::new(context, xs).into(),
        NewAttr::Parsed(text) => Attribute::parse(context, text).expect("an attribute the variant table names parses"),
        NewAttr::Dense(ty, xs) => {
            let elements: Vec<String> = xs.iter().map(ToString::to_string).collect();
            let text = format!("dense<[{}]> : {ty}", elements.join(", "));
            Attribute::parse(context, &text).expect("a dense attribute of integers in range parses")
        }
    }
}

/// Creates ops right before `anchor`, at its location.
pub struct Builder<'c, 'a> {
    pub context: &'c Context,
    pub anchor: OperationRef<'c, 'a>,
}

impl<'c, 'a> Builder<'c, 'a> {
    pub fn new(context: &'c Context, anchor: OperationRef<'c, 'a>) -> Self {
        Builder { context, anchor }
    }

    pub fn location(&self) -> Location<'c> {
        self.anchor.location()
    }

    /// `name(operands) {attributes} : result`, before the anchor; its result.
    pub fn create(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        attributes: &[(&str, Attribute<'c>)],
        result: Type<'c>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        let results = self.create_results(name, operands, attributes, &[result])?;
        results.into_iter().next().ok_or_else(|| BuildError::NoResult { op: name.to_string(), index: 0, why: None })
    }

    /// `name(operands) {attributes} : results`, before the anchor; its results.
    pub fn create_results(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        attributes: &[(&str, Attribute<'c>)],
        results: &[Type<'c>],
    ) -> Result<Vec<Value<'c, 'a>>, BuildError> {
        let attributes: Vec<(Identifier, Attribute)> =
            attributes.iter().map(|(n, a)| (Identifier::new(self.context, n), *a)).collect();
        let op = OperationBuilder::new(name, self.location())
            .add_operands(operands)
            .add_attributes(&attributes)
            .add_results(results)
            .build()
            .map_err(|e| BuildError::Create { op: name.to_string(), why: e.to_string() })?;
        let block = self.anchor.block().ok_or(BuildError::Detached)?;
        let op = block.insert_operation_before(self.anchor, op);
        (0..results.len())
            .map(|i| {
                op.result(i).map(Value::from).map_err(|e| BuildError::NoResult {
                    op: name.to_string(),
                    index: i,
                    why: Some(e.to_string()),
                })
            })
            .collect()
    }

    /// `value` as `ty`, the same bits: `vector.shape_cast` to one dimension,
    /// `vector.bitcast`, `vector.shape_cast` to `ty`'s shape (an
    /// `arith.bitcast` between scalars; a scalar and a vector pass through
    /// a one-element vector: `vector.broadcast`, `vector.extract`).
    pub fn reshape(&self, value: Value<'c, 'a>, ty: &Ty) -> Result<Value<'c, 'a>, BuildError> {
        let from = read::ty(value.r#type())
            .ok_or_else(|| BuildError::UnsupportedType { what: "reshape", ty: value.r#type().to_string() })?;
        if &from == ty {
            return Ok(value);
        }
        let t = |ty: &Ty| mlir_type(self.context, ty);
        if from.dims.is_empty() && ty.dims.is_empty() {
            return self.create("arith.bitcast", &[value], &[], t(ty));
        }
        // A scalar and a vector: through a one-element vector of the scalar's type.
        if from.dims.is_empty() {
            let one = Ty { dims: vec![1], elem_bits: from.elem_bits };
            let v = self.create("vector.broadcast", &[value], &[], t(&one))?;
            return self.reshape(v, ty);
        }
        if ty.dims.is_empty() {
            let one = Ty { dims: vec![1], elem_bits: ty.elem_bits };
            let v = self.reshape(value, &one)?;
            let position = DenseI64ArrayAttribute::new(self.context, &[0]).into();
            return self.create("vector.extract", &[v], &[("static_position", position)], t(ty));
        }
        let flat = |x: &Ty| Ty { dims: vec![x.lanes()], elem_bits: x.elem_bits };
        let mut v = value;
        let mut now = from.clone();
        if from.dims.len() != 1 {
            now = flat(&from);
            v = self.create("vector.shape_cast", &[v], &[], t(&now))?;
        }
        if now != flat(ty) {
            now = flat(ty);
            v = self.create("vector.bitcast", &[v], &[], t(&now))?;
        }
        if &now != ty {
            v = self.create("vector.shape_cast", &[v], &[], t(ty))?;
        }
        Ok(v)
    }

    /// `v` as `ty`, the same number of bits, through `llvm.bitcast`.
    pub fn llvm_cast(&self, v: Value<'c, 'a>, ty: &Ty) -> Result<Value<'c, 'a>, BuildError> {
        let from = read::ty(v.r#type())
            .ok_or_else(|| BuildError::UnsupportedType { what: "pass", ty: v.r#type().to_string() })?;
        if &from == ty {
            return Ok(v);
        }
        if from.bits() != ty.bits() {
            return Err(BuildError::SizeMismatch { from, to: ty.clone() });
        }
        self.create("llvm.bitcast", &[v], &[], mlir_type(self.context, ty))
    }

    /// An integer constant of type `ty` (`llvm.mlir.constant`), `value`
    /// sign-extended or truncated to its element width; of a vector type,
    /// in every element (an immediate an intrinsic takes as a vector).
    pub fn llvm_constant(&self, value: &num_bigint::BigInt, ty: &Ty) -> Result<Value<'c, 'a>, BuildError> {
        let w = ty.elem_bits;
        let m = num_bigint::BigInt::from(1) << w;
        let mut x = ((value % &m) + &m) % &m;
        if x >= (&m >> 1) {
            x -= &m;
        }
        let a = if ty.dims.is_empty() {
            attribute(self.context, &NewAttr::Int { value: x, bits: w })
        } else {
            parsed_attribute(self.context, &format!("dense<{x}> : {ty}"))?
        };
        self.create("llvm.mlir.constant", &[], &[("value", a)], mlir_type(self.context, ty))
    }

    /// `llvm.call_intrinsic @name(args) : result`.
    pub fn call_intrinsic(&self, name: &str, args: &[Value<'c, 'a>], result: &Ty) -> Result<Value<'c, 'a>, BuildError> {
        let segments = DenseI32ArrayAttribute::new(self.context, &[args.len() as i32, 0]).into();
        self.create(
            "llvm.call_intrinsic",
            args,
            &[
                ("intrin", StringAttribute::new(self.context, name).into()),
                ("op_bundle_sizes", DenseI32ArrayAttribute::new(self.context, &[]).into()),
                ("operandSegmentSizes", segments),
            ],
            mlir_type(self.context, result),
        )
    }

    /// The body of `function` (one block, ending in `llvm.return` or
    /// `func.return`) copied
    /// before the anchor with its parameters bound to `args`: the value it
    /// returns.
    pub fn inline(
        &self,
        function: melior::ir::OperationRef<'c, '_>,
        args: &[Value<'c, 'a>],
    ) -> Result<Value<'c, 'a>, BuildError> {
        use melior::ir::block::BlockLike;
        use melior::ir::RegionLike;
        let snippet = BuildError::Snippet;
        let body = function.region(0).ok().and_then(|r| r.first_block()).ok_or(snippet(SnippetFault::NoBody))?;
        if body.argument_count() != args.len() {
            return Err(snippet(SnippetFault::Arity { takes: body.argument_count(), given: args.len() }));
        }
        let block = self.anchor.block().ok_or(BuildError::Detached)?;
        // Snippet values (by handle) to the values they stand for here.
        let mut values: std::collections::HashMap<_, Value<'c, 'a>> = std::collections::HashMap::new();
        for (i, a) in args.iter().enumerate() {
            let p: Value = body.argument(i).map_err(|_| snippet(SnippetFault::Parameter(i)))?.into();
            values.insert(p.to_raw().ptr, *a);
        }
        let mut next = body.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            let operands: Vec<Value<'c, 'a>> = op
                .operands()
                .map(|v| values.get(&v.to_raw().ptr).copied().ok_or(snippet(SnippetFault::OutsideValue)))
                .collect::<Result<_, _>>()?;
            if matches!(op.name().as_string_ref().as_str(), Ok("llvm.return" | "func.return")) {
                return operands.first().copied().ok_or(snippet(SnippetFault::ReturnsNothing));
            }
            let copy = block
                .insert_operation_before(self.anchor, super::raw::clone_with_operands(op, &operands, self.location()));
            for (old, new) in op.results().zip(copy.results()) {
                values.insert(Value::from(old).to_raw().ptr, new.into());
            }
        }
        Err(snippet(SnippetFault::NoReturn))
    }
}

/// The snippets of one run, each parsed once (as a module holding its
/// `llvm.func`).
#[derive(Default)]
pub struct Snippets<'c> {
    parsed: std::collections::HashMap<String, Module<'c>>,
}

impl<'c> Snippets<'c> {
    pub fn get(&mut self, context: &'c Context, op: &str, text: &str) -> Result<OperationRef<'c, '_>, BuildError> {
        if !self.parsed.contains_key(op) {
            let module = Module::parse(context, text)
                .ok_or_else(|| BuildError::Snippet(SnippetFault::Unparsed(op.to_string())))?;
            self.parsed.insert(op.to_string(), module);
        }
        self.parsed[op].body().first_operation().ok_or_else(|| BuildError::Snippet(SnippetFault::Empty(op.to_string())))
    }
}
