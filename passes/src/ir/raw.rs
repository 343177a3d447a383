//! The unsafe edge of the passes: the MLIR handles the C++ shim passes in,
//! wrapped as melior values; the C API calls melior does not wrap; and the
//! C++ helpers of `cpp/shim.cpp`. Each function is safe to call with values
//! melior handed out, which are alive for the pass that holds them.
#![allow(unsafe_code)]

use melior::ir::attribute::AttributeLike;
use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
use melior::ir::r#type::TypeLike;
use melior::ir::{Attribute, BlockLike, BlockRef, OperationRef, RegionLike, Type, Value, ValueLike};
use melior::{Context, StringRef};
use mlir_sys::*;
use num_bigint::BigInt;

unsafe extern "C" {
    fn hydride_emit(op: MlirOperation, remark: bool, text: MlirStringRef);
    fn hydride_combining_kind(attr: MlirAttribute) -> MlirStringRef;
    fn hydride_masking_case(attr: MlirAttribute) -> MlirStringRef;
    fn hydride_int_attr(ty: MlirType, low: u64, high: u64) -> MlirAttribute;
}

/// The text of a string MLIR hands out (empty when null).
///
/// # Safety
/// `s.data` is null or points to `s.length` readable bytes.
pub unsafe fn string(s: MlirStringRef) -> String {
    if s.data.is_null() {
        return String::new();
    }
    // SAFETY: guaranteed by the caller.
    let bytes = unsafe { std::slice::from_raw_parts(s.data.cast::<u8>(), s.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `f` on the operation the pass manager gave a pass, and its context.
pub fn with_operation<R>(raw: MlirOperation, f: impl for<'c> FnOnce(&'c Context, OperationRef<'c, 'c>) -> R) -> R {
    // SAFETY: `raw` is the live root op of the running pass; it and its
    // context outlive the call.
    let op = unsafe { OperationRef::from_raw(raw) };
    let handle = op.context();
    // SAFETY: `to_ref` views the handle itself as a `Context`; the handle
    // outlives `f`, and the context it names outlives the op.
    let context = unsafe { handle.to_ref() };
    f(context, op)
}

/// Every op under `root` (`root` included), in pre-order, as handles that
/// live as long as `root`'s.
pub fn nested_ops<'c, 'a>(root: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut raws = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        raws.push(op.to_raw());
        WalkResult::Advance
    });
    // SAFETY: the ops live inside `root`, and nothing was erased since the walk.
    raws.into_iter().map(|r| unsafe { OperationRef::from_raw(r) }).collect()
}

/// Every block of every region under `root`, in pre-order of their ops.
pub fn nested_blocks<'c, 'a>(root: OperationRef<'c, 'a>) -> Vec<BlockRef<'c, 'a>> {
    let mut blocks = Vec::new();
    for op in nested_ops(root) {
        for region in op.regions() {
            let mut next = region.first_block();
            while let Some(b) = next {
                next = b.next_in_region();
                blocks.push(b);
            }
        }
    }
    blocks
}

/// `op.emitOpError() << text`, or a remark at the op's location. Remarks
/// past the cap set by [`cap_remarks`] on this thread are counted, not
/// emitted (a thousand rewrites in one block would be read by no one). A
/// remark does not print its op: MLIR numbers and verifies the whole
/// function to print one op, which made 50 remarks dearer than the lowering
/// of a 10,000-op function.
pub fn emit(op: &OperationRef, remark: bool, text: &str) {
    if remark {
        let over = REMARKS.with(|r| match r.get() {
            Some((cap, shown, unshown)) if shown >= cap => {
                r.set(Some((cap, shown, unshown + 1)));
                true
            }
            Some((cap, shown, unshown)) => {
                r.set(Some((cap, shown + 1, unshown)));
                false
            }
            None => false,
        });
        if over {
            return;
        }
    }
    let text = StringRef::new(text);
    // SAFETY: a live op and a string alive for the call.
    unsafe { hydride_emit(op.to_raw(), remark, text.to_raw()) }
}

thread_local! {
    /// The remark cap of the pass running on this thread: the cap, the
    /// remarks emitted and those left out.
    static REMARKS: std::cell::Cell<Option<(usize, usize, usize)>> = const { std::cell::Cell::new(None) };
}

/// From now on this thread emits at most `cap` remarks (see [`emit`]).
pub fn cap_remarks(cap: usize) {
    REMARKS.with(|r| r.set(Some((cap, 0, 0))));
}

/// Lifts the cap; how many remarks it left out.
pub fn uncap_remarks() -> usize {
    REMARKS.with(|r| r.take().map_or(0, |(_, _, unshown)| unshown))
}

/// Runs `f` with this thread's cap lifted and puts it back after (for
/// remarks capped elsewhere: the synthesis's, per block).
pub fn uncapped<T>(f: impl FnOnce() -> T) -> T {
    let cap = REMARKS.with(std::cell::Cell::take);
    let out = f();
    REMARKS.with(|r| r.set(cap));
    out
}

/// The name of a `#vector.kind<…>` attribute (`add`).
pub fn combining_kind(attr: Attribute) -> Option<String> {
    enum_name(attr, hydride_combining_kind)
}

/// The case of an `#autollvm.masking<…>` attribute (`merge`).
pub fn masking_case(attr: Attribute) -> Option<String> {
    enum_name(attr, hydride_masking_case)
}

/// What a shim query that names an enum attribute's case (a static string,
/// or null where `attr` is not of its kind) answers for `attr`.
fn enum_name(attr: Attribute, query: unsafe extern "C" fn(MlirAttribute) -> MlirStringRef) -> Option<String> {
    // SAFETY: a live attribute; the answer is null or a static string.
    let s = unsafe { query(attr.to_raw()) };
    // SAFETY: non-null answers point to `length` bytes of a static string.
    (!s.data.is_null()).then(|| unsafe { string(s) })
}

/// An `i{bits}` integer attribute of up to 128 bits, `value` wrapped to the width.
pub fn integer_attribute<'c>(context: &'c Context, value: &BigInt, bits: u32) -> Attribute<'c> {
    let ty = melior::ir::r#type::IntegerType::new(context, bits);
    let mask: BigInt = (BigInt::from(1) << 128) - 1;
    let words = (value & &mask).to_u64_digits().1;
    let word = |i: usize| words.get(i).copied().unwrap_or(0);
    // SAFETY: an integer type of this context; the helper copies the words.
    unsafe { Attribute::from_raw(hydride_int_attr(Type::from(ty).to_raw(), word(0), word(1))) }
}

/// The dims and element width of a signless integer type or a fixed-size
/// vector of them; `None` for any other type (`index`, floats, scalable and 0-d vectors).
pub fn integer_shape(t: Type) -> Option<(Vec<u32>, u32)> {
    let raw = t.to_raw();
    // SAFETY: queries on a live type.
    unsafe {
        let elem_bits =
            |e: MlirType| (mlirTypeIsAInteger(e) && mlirIntegerTypeIsSignless(e)).then(|| mlirIntegerTypeGetWidth(e));
        if mlirTypeIsAInteger(raw) {
            return elem_bits(raw).map(|w| (Vec::new(), w));
        }
        if !mlirTypeIsAVector(raw) || mlirVectorTypeIsScalable(raw) || mlirShapedTypeGetRank(raw) < 1 {
            return None;
        }
        let dims = (0..mlirShapedTypeGetRank(raw))
            .map(|i| u32::try_from(mlirShapedTypeGetDimSize(raw, i as isize)).ok())
            .collect::<Option<Vec<u32>>>()?;
        Some((dims, elem_bits(mlirShapedTypeGetElementType(raw))?))
    }
}

/// The value of an integer attribute of at most 64 bits (signless or signed
/// read as signed, unsigned as unsigned; a wider one as its low 64 bits, unsigned).
fn integer_value(raw: MlirAttribute) -> BigInt {
    // SAFETY: `raw` is a live integer attribute.
    unsafe {
        let t = mlirAttributeGetType(raw);
        if mlirTypeIsAIndex(t) || (mlirIntegerTypeGetWidth(t) <= 64 && mlirIntegerTypeIsSignless(t)) {
            BigInt::from(mlirIntegerAttrGetValueInt(raw))
        } else if mlirIntegerTypeGetWidth(t) <= 64 && mlirIntegerTypeIsSigned(t) {
            BigInt::from(mlirIntegerAttrGetValueSInt(raw))
        } else if mlirIntegerTypeGetWidth(t) <= 64 {
            BigInt::from(mlirIntegerAttrGetValueUInt(raw))
        } else {
            // The C API reads 64 bits of a wider value (a negative `i68` as a
            // large positive number); its printed form holds all of it.
            wide_integer_value(Attribute::from_raw(raw))
                .unwrap_or_else(|| BigInt::from(mlirIntegerAttrGetValueUInt(raw)))
        }
    }
}

/// An integer attribute wider than 64 bits, from its printed form
/// (`-2147483648 : i68`).
fn wide_integer_value(attr: Attribute) -> Option<BigInt> {
    attr.to_string().split_whitespace().next()?.parse().ok()
}

/// An attribute's content where it is an integer, a list of integers, a
/// dense integer elements attribute, a string or autollvm's masking case.
pub enum Content {
    Int(BigInt),
    Ints(Vec<i64>),
    /// A list of affine maps whose results are all dimensions: per map, its
    /// dimension count and result positions (`vector.contract`'s maps).
    Maps(Vec<(u32, Vec<u32>)>),
    Elements(Vec<BigInt>),
    Str(String),
    /// The case of `#autollvm.masking<…>`.
    Case(String),
    Other,
}

pub fn content(attr: Attribute) -> Content {
    let raw = attr.to_raw();
    // SAFETY: queries on a live attribute, indices within its bounds.
    unsafe {
        if mlirAttributeIsAInteger(raw) {
            return Content::Int(integer_value(raw));
        }
        if mlirAttributeIsADenseI64Array(raw) {
            return Content::Ints(
                (0..mlirDenseArrayGetNumElements(raw)).map(|i| mlirDenseI64ArrayGetElement(raw, i)).collect(),
            );
        }
        if mlirAttributeIsAArray(raw) && mlirArrayAttrGetNumElements(raw) > 0 {
            let maps: Option<Vec<(u32, Vec<u32>)>> = (0..mlirArrayAttrGetNumElements(raw))
                .map(|i| {
                    let e = mlirArrayAttrGetElement(raw, i);
                    if !mlirAttributeIsAAffineMap(e) {
                        return None;
                    }
                    let map = mlirAffineMapAttrGetValue(e);
                    let results = (0..mlirAffineMapGetNumResults(map))
                        .map(|k| {
                            let r = mlirAffineMapGetResult(map, k);
                            mlirAffineExprIsADim(r).then(|| mlirAffineDimExprGetPosition(r) as u32)
                        })
                        .collect::<Option<Vec<u32>>>()?;
                    Some((mlirAffineMapGetNumDims(map) as u32, results))
                })
                .collect();
            if let Some(maps) = maps {
                return Content::Maps(maps);
            }
        }
        if mlirAttributeIsAArray(raw) {
            let items: Option<Vec<i64>> = (0..mlirArrayAttrGetNumElements(raw))
                .map(|i| {
                    let e = mlirArrayAttrGetElement(raw, i);
                    mlirAttributeIsAInteger(e).then(|| i64::try_from(integer_value(e)).ok()).flatten()
                })
                .collect();
            return items.map_or(Content::Other, Content::Ints);
        }
        if mlirAttributeIsADenseIntElements(raw) {
            let n = mlirElementsAttrGetNumElements(raw);
            if mlirDenseElementsAttrIsSplat(raw) {
                let x = integer_value(mlirDenseElementsAttrGetSplatValue(raw));
                return Content::Elements(vec![x; n as usize]);
            }
            let shape = mlirAttributeGetType(raw);
            let dims: Vec<i64> =
                (0..mlirShapedTypeGetRank(shape)).map(|i| mlirShapedTypeGetDimSize(shape, i as isize)).collect();
            let mut out = Vec::with_capacity(n as usize);
            for flat in 0..n {
                let mut index = vec![0u64; dims.len()];
                let mut rest = flat;
                for (k, d) in dims.iter().enumerate().rev() {
                    index[k] = (rest % d) as u64;
                    rest /= d;
                }
                out.push(integer_value(mlirElementsAttrGetValue(raw, index.len() as isize, index.as_mut_ptr())));
            }
            return Content::Elements(out);
        }
        if mlirAttributeIsAString(raw) {
            return Content::Str(string(mlirStringAttrGetValue(raw)));
        }
    }
    masking_case(attr).map_or(Content::Other, Content::Case)
}

/// Whether anything uses `value`.
pub fn has_uses(value: Value) -> bool {
    // SAFETY: a live value.
    unsafe { !mlirOpOperandIsNull(mlirValueGetFirstUse(value.to_raw())) }
}

/// Replaces every use of `of` by `with`.
pub fn replace_all_uses(of: Value, with: Value) {
    // SAFETY: two live values of one context.
    unsafe { mlirValueReplaceAllUsesOfWith(of.to_raw(), with.to_raw()) }
}

/// Erases `op` (unused) from its block.
pub fn erase(op: OperationRef) {
    // SAFETY: `op` is live and owned by its block; nothing refers to it
    // afterwards (the callers drop their handles).
    unsafe { mlirOperationDestroy(op.to_raw()) }
}

/// A copy of `op` (regions included), in no block, whose operands are
/// `operands` in order, at `location`.
pub fn clone_with_operands<'c>(
    op: OperationRef<'c, '_>,
    operands: &[Value<'c, '_>],
    location: melior::ir::Location<'c>,
) -> melior::ir::Operation<'c> {
    // SAFETY: `op` is live; the clone is a new op owned by the returned
    // handle, and each operand is a live value of the same context.
    unsafe {
        let copy = mlirOperationClone(op.to_raw());
        for (i, v) in operands.iter().enumerate().take(mlirOperationGetNumOperands(copy) as usize) {
            mlirOperationSetOperand(copy, i as isize, v.to_raw());
        }
        mlirOperationSetLocation(copy, location.to_raw());
        melior::ir::Operation::from_raw(copy)
    }
}

/// The ops reading `value`, each with the operand position it reads it at,
/// in use-list order.
pub fn uses<'c, 'a>(value: Value<'c, 'a>) -> Vec<(OperationRef<'c, 'a>, usize)> {
    let mut found = Vec::new();
    // SAFETY: a live value; its use list is walked without changing it.
    unsafe {
        let mut operand = mlirValueGetFirstUse(value.to_raw());
        while !mlirOpOperandIsNull(operand) {
            let owner = OperationRef::from_raw(mlirOpOperandGetOwner(operand));
            found.push((owner, mlirOpOperandGetOperandNumber(operand) as usize));
            operand = mlirOpOperandGetNextUse(operand);
        }
    }
    found
}

/// Makes operand `index` of `op` read `value`.
pub fn set_operand(op: OperationRef, index: usize, value: Value) {
    // SAFETY: a live op with at least `index + 1` operands (the caller read
    // the position from its use list) and a live value of its context.
    unsafe { mlirOperationSetOperand(op.to_raw(), index as isize, value.to_raw()) }
}
