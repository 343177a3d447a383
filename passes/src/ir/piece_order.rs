//! Piece order: a lane-wise region wider than the target's registers,
//! computed piece after piece.
//!
//! A region is what one `vector.store` stores: lane-wise `arith` ops over
//! splat constants and vectors loaded from memory, every vector of the
//! stored type. Where its vectors take two registers or more, LLVM splits
//! each op into register-sized pieces where it stands, so the pieces of
//! every value are live together: median3x3 with 256-bit registers holds
//! nine loaded vectors of two registers each, and 40 of the 112
//! instructions of its loop are spills and reloads. Written as one region
//! per piece (loads of a piece's lanes, the ops on them, one after the
//! other, the stores last), each piece's values die before the next
//! piece's are loaded: 84 instructions, no spill.
//!
//! A region is rewritten where, in block order, the registers its live
//! values take at some point exceed the target's and a piece's take
//! fewer, and the CPU's model prices the pieces no dearer: the same ops,
//! each register beyond the target's spilled and reloaded once (a store
//! and a load of it, as the CPU prices them). Regions that extend or truncate are left: depthwise_conv's bytes
//! extended to 32 bits, in pieces, cost nearly twice LLVM's llvm-mca cycles
//! with 128-bit registers (18.9 -> 36.2) and ran 0.95x with 256-bit ones,
//! where LLVM's own
//! schedule of the whole region had no spill.
//!
//! Each piece is proved equal to its lanes of the region by Z3 over the
//! memory both read (each load is its row's elements from its offset on);
//! a piece's loads and stores address those lanes by construction. The
//! stores come after every piece's loads, and no op between the region's
//! first op and its store may write memory, so the loads read what they
//! read before.

use super::build::{self, Builder};
use super::column_extrema::base_and_offset;
use super::failure::RewriteError;
use super::raw;
use super::read::{self, ReadBlock};
use crate::synth::attr::Attr;
use crate::synth::block::{BlockOp, Dataflow};
use crate::synth::lower::{proved_once, Options};
use crate::synth::op_price;
use crate::synth::pieces::LANE_WISE;
use crate::synth::proof::{windows_equal_reading, LeafElements};
use crate::synth::proof_pieces::{shifted_alike, Cut, OwnedPiece};
use crate::synth::target::Cpu;
use crate::synth::types::Ty;
use melior::ir::operation::OperationLike;
use melior::ir::{Attribute, Type, Value};
use melior::Context;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The most ops (loads included) a region may have: its proof and the
/// weighing of its registers grow with it.
const MAX_REGION_OPS: usize = 256;

/// Rewrites the regions of every block under `root` for `options`' target;
/// how many.
pub fn run<'c>(
    context: &'c Context,
    root: melior::ir::OperationRef<'c, 'c>,
    options: &Options,
    remarks: bool,
) -> Result<usize, RewriteError> {
    let target = options.limits.target;
    let (register_bits, registers) = (target.register_bits(), target.vector_registers());
    let mut rewritten = 0;
    for block in raw::nested_blocks(root) {
        let read = read::block(block);
        let flow = Dataflow::new(&read.ops);
        for store in 0..read.ops.len() {
            let Some(region) = Region::find(&flow, store, register_bits) else { continue };
            let (whole, piece) =
                (region.pressure(&flow, 1, register_bits), region.pressure(&flow, region.pieces, register_bits));
            if whole <= registers || piece >= whole {
                continue;
            }
            let handle = read.handles[store];
            let priced = match region.priced(&flow, options.limits.cpu, (whole, piece), (registers, register_bits)) {
                Some(Ok(tail)) => tail,
                Some(Err(why)) => {
                    if remarks {
                        let text =
                            format!("hydride-piece-order: the stored value is not computed piece by piece: {why}");
                        raw::emit(&handle, true, &text);
                    }
                    continue;
                }
                None => String::new(),
            };
            match region.prove(&flow, options) {
                Ok(()) => {
                    if remarks {
                        let text = format!(
                            "hydride-piece-order: {} lanes stored computed in {} pieces of {} lanes, one after the other: \
                             at most {piece} registers live instead of {whole} of the target's {registers} (proved \
                             equal){priced}",
                            region.lanes,
                            region.pieces,
                            region.lanes / region.pieces
                        );
                        raw::emit(&handle, true, &text);
                    }
                    region.emit(context, &read)?;
                    rewritten += 1;
                }
                Err(e) if remarks => {
                    let text = format!("hydride-piece-order: the stored value is not computed piece by piece: {e}");
                    raw::emit(&handle, true, &text);
                }
                Err(_) => {}
            }
        }
    }
    Ok(rewritten)
}

/// What one `vector.store` stores, computed lane by lane from loads.
struct Region {
    store: usize,
    /// The ops computing the stored value (constants included, loads not),
    /// in block order.
    ops: BTreeSet<usize>,
    /// Each load: its position, its row (one per memref and base index)
    /// and its offset from the row's first element it reads.
    loads: BTreeMap<usize, (usize, i64)>,
    /// Each constant's value (all splats).
    splats: BTreeMap<usize, num_bigint::BigInt>,
    lanes: u32,
    pieces: u32,
}

impl Region {
    /// The region stored by the op at `store`, if it is a `vector.store`
    /// of a region whose vectors take two registers of `register_bits` or
    /// more. `None` where it reads anything else, an
    /// inner value has readers outside it, or an op between its first op
    /// and the store may write memory.
    fn find(flow: &Dataflow, store: usize, register_bits: u32) -> Option<Region> {
        let op = &flow.ops[store];
        if op.name != "vector.store" || op.operands.len() != 3 {
            return None;
        }
        let ty = op.operand_types[0].clone()?;
        if ty.dims.len() != 1 {
            return None;
        }
        let lanes = ty.lanes();
        let mut ops = BTreeSet::new();
        let mut load_ops = BTreeSet::new();
        let mut splats = BTreeMap::new();
        let mut stack = vec![op.operands[0]];
        while let Some(v) = stack.pop() {
            let def = flow.defining_op(v)?;
            if ops.contains(&def) || load_ops.contains(&def) {
                continue;
            }
            if ops.len() + load_ops.len() >= MAX_REGION_OPS {
                return None;
            }
            let o = &flow.ops[def];
            let t = o.result_types.first()?.clone()?;
            if t != ty || o.results.len() != 1 {
                return None;
            }
            match o.name.as_str() {
                "arith.constant" => {
                    splats.insert(def, splat(o)?);
                    ops.insert(def);
                    continue;
                }
                "vector.load" if o.operands.len() == 2 => {
                    load_ops.insert(def);
                }
                // Lane-wise ops whose operands and result are of the stored
                // type: no extension, truncation, comparison or reshape.
                name if LANE_WISE.contains(&name) => {
                    if o.operand_types.iter().any(|t| t.as_ref() != Some(&ty)) {
                        return None;
                    }
                    ops.insert(def);
                    stack.extend(o.operands.iter().copied());
                }
                _ => return None,
            }
        }
        // Inner values read inside alone (checked once the region is whole).
        let all: BTreeSet<usize> = ops.iter().chain(&load_ops).copied().collect();
        for &p in &all {
            if flow.ops[p].name == "arith.constant" {
                continue;
            }
            if flow.readers(flow.ops[p].results[0]).iter().any(|r| *r != store && !all.contains(r)) {
                return None;
            }
        }
        if flow.readers(op.operands[0]) != [store] {
            return None;
        }
        let first = *all.first()?;
        if flow.ops[first..store].iter().any(may_write) {
            return None;
        }
        let loads = rows_of(flow, &load_ops);
        let pieces = ty.bits().div_ceil(register_bits);
        (pieces >= 2 && lanes % pieces == 0).then_some(Region { store, ops, loads, splats, lanes, pieces })
    }

    /// The most registers of `register_bits` the region's values take at
    /// once in block order, computed in `pieces` pieces one after the
    /// other (one piece's worth).
    fn pressure(&self, flow: &Dataflow, pieces: u32, register_bits: u32) -> u32 {
        let positions: Vec<usize> =
            self.ops.iter().chain(self.loads.keys()).copied().collect::<BTreeSet<_>>().into_iter().collect();
        let mut peak = 0;
        for &at in &positions {
            let live: u32 = positions
                .iter()
                .filter(|&&p| p <= at)
                .filter_map(|&p| {
                    let o = &flow.ops[p];
                    let last = flow.readers(o.results[0]).iter().copied().max()?;
                    let t = o.result_types[0].as_ref()?;
                    (last > at).then(|| (t.bits() / pieces).div_ceil(register_bits))
                })
                .sum();
            peak = peak.max(live);
        }
        peak
    }

    /// The two orders on `cpu` ([`op_price::verdict_no_dearer`]: spills
    /// off the busiest ports cost no throughput there, but still cost
    /// micro-ops, latency and memory): the same ops, loads and store, with
    /// each register live beyond the target's `registers` (`whole` at once
    /// in block order, `piece` piece by piece) spilled and reloaded once.
    /// `None` where the model prices neither.
    fn priced(
        &self,
        flow: &Dataflow,
        cpu: Cpu,
        (whole, piece): (u32, u32),
        (registers, register_bits): (u32, u32),
    ) -> Option<Result<String, String>> {
        let ops: Vec<&BlockOp> =
            self.ops.iter().chain(self.loads.keys()).chain([&self.store]).map(|&p| &flow.ops[p]).collect();
        let elem_bits = flow.ops[self.store].operand_types[0].as_ref()?.elem_bits;
        let spilled = |live: u32| op_price::spills(cpu, live.saturating_sub(registers), register_bits, elem_bits);
        let cycles = |live: u32| op_price::cycles_with(cpu, flow, ops.iter().copied(), spilled(live)?);
        op_price::verdict_no_dearer(cpu, cycles(whole), cycles(piece), "piece by piece")
    }

    /// Piece `k`'s ops as the synthesizer's dataflow, the stored value's
    /// lanes last: its loads' values are its leaves (numbered from
    /// `first_value` on), each op on its lanes; and the elements of memory
    /// each leaf holds.
    fn piece(&self, flow: &Dataflow, k: u32, first_value: usize) -> (Vec<BlockOp>, Vec<LeafElements>) {
        let width = self.lanes / self.pieces;
        let mut next = first_value;
        let mut renamed: HashMap<usize, usize> = HashMap::new();
        let mut leaves = Vec::new();
        for (&p, &(row, offset)) in &self.loads {
            renamed.insert(flow.ops[p].results[0], next);
            next += 1;
            let first = u32::try_from(offset + i64::from(k * width)).unwrap_or(u32::MAX);
            leaves.push((next - 1, LeafElements { source: row, first }));
        }
        let mut ops = Vec::new();
        for &p in &self.ops {
            let o = &flow.ops[p];
            let mut new = o.clone_without_attributes();
            new.attributes = if self.splats.contains_key(&p) { Vec::new() } else { o.attributes.clone() };
            new.index = ops.len();
            new.operands = o.operands.iter().map(|v| renamed[v]).collect();
            let narrow = |t: &Option<Ty>| t.as_ref().map(|t| Ty { dims: vec![width], elem_bits: t.elem_bits });
            new.operand_types = o.operand_types.iter().map(narrow).collect();
            new.result_types = o.result_types.iter().map(narrow).collect();
            if let Some(x) = self.splats.get(&p).cloned() {
                new.attributes = vec![("value".into(), Attr::Elements(vec![x; width as usize]))];
            }
            renamed.insert(o.results[0], next);
            new.results = vec![next];
            next += 1;
            ops.push(new);
        }
        // Leaves in the order the ops first read them, as a window has them.
        let flow_of = Dataflow::new(&ops);
        let window = flow_of.close((0..ops.len()).collect(), ops.len() - 1);
        let sources = window
            .leaves
            .iter()
            .map(|v| {
                leaves.iter().find(|(l, _)| l == v).map_or(LeafElements { source: usize::MAX, first: 0 }, |(_, e)| *e)
            })
            .collect();
        (ops, sources)
    }

    /// Each piece proved equal to its lanes of the stored value: the
    /// region cut to those lanes (`crate::synth::proof_pieces`: a lane-wise
    /// region's lanes are the region over its leaves' same lanes). A piece
    /// whose two sides are an earlier proved piece's with each row's
    /// elements moved by one offset is that piece's query renamed, so a
    /// region of splat constants costs one query, whatever its width.
    fn prove(&self, flow: &Dataflow, options: &Options) -> Result<(), RewriteError> {
        let stored = flow.ops[self.store].operands[0];
        let root = flow.defining_op(stored).ok_or(RewriteError::Invariant("a stored value of no op"))?;
        let window = flow.close(self.ops.clone(), root);
        let sources: Vec<LeafElements> = window
            .leaves
            .iter()
            .map(|v| {
                let load = flow.defining_op(*v).and_then(|d| self.loads.get(&d));
                load.map_or(LeafElements { source: usize::MAX, first: 0 }, |&(row, offset)| LeafElements {
                    source: row,
                    first: u32::try_from(offset).unwrap_or(u32::MAX),
                })
            })
            .collect();
        let first_value = flow.ops.iter().flat_map(|o| o.results.iter().chain(&o.operands)).max().map_or(0, |m| m + 1);
        let cut = Cut::into_pieces(self.pieces);
        let mut proved: Option<(OwnedPiece, Vec<BlockOp>, Vec<LeafElements>)> = None;
        for k in 0..self.pieces {
            let ours = cut
                .side((flow, &window, &sources), k)
                .ok_or(RewriteError::Invariant("the region cannot be cut into its pieces"))?;
            let (piece_ops, theirs) = self.piece(flow, k, first_value);
            if ours.sources.iter().chain(&theirs).any(|e| e.source == usize::MAX) {
                return Err(RewriteError::Invariant("a leaf is not a load"));
            }
            if let Some((o, p, t)) = &proved {
                let renamed =
                    o.ops == ours.ops && *p == piece_ops && shifted_alike(&[(&o.sources, &ours.sources), (t, &theirs)]);
                if renamed {
                    continue;
                }
            }
            let piece_flow = Dataflow::new(&piece_ops);
            let piece_window = piece_flow.close((0..piece_ops.len()).collect(), piece_ops.len() - 1);
            let our_flow = Dataflow::new(&ours.ops);
            let offsets: Vec<(usize, i64)> = self.loads.values().copied().collect();
            let what = format!("piece order {k}/{} of {} lanes, loads {offsets:?}", self.pieces, self.lanes);
            proved_once(options, &what, flow, &window, || {
                windows_equal_reading(
                    (&our_flow, &ours.window, &ours.sources),
                    (&piece_flow, &piece_window, &theirs),
                    options.limits.proof_ms,
                )
            })
            .map_err(|why| RewriteError::PieceUnproved { piece: k, why })?;
            if proved.is_none() {
                proved = Some((ours, piece_ops, theirs));
            }
        }
        Ok(())
    }

    /// The pieces before the store, one after the other, then their
    /// stores; the region and its store erased.
    fn emit<'c, 'a>(&self, context: &'c Context, read: &ReadBlock<'c, 'a>) -> Result<(), RewriteError> {
        let store = read.handles[self.store];
        let b = Builder::new(context, store);
        let width = self.lanes / self.pieces;
        let index_ty = Type::index(context);
        let at = |index: Value<'c, 'a>, k: u32| -> Result<Value<'c, 'a>, RewriteError> {
            if k == 0 {
                return Ok(index);
            }
            let text = format!("{} : index", k * width);
            let c =
                b.create("arith.constant", &[], &[("value", build::parsed_attribute(context, &text)?)], index_ty)?;
            Ok(b.create("arith.addi", &[index, c], &[], index_ty)?)
        };
        let narrow = |t: &Option<Ty>| -> Result<Type<'c>, RewriteError> {
            let t = t.as_ref().ok_or(RewriteError::Invariant("an op of no type"))?;
            Ok(build::mlir_type(context, &Ty { dims: vec![width], elem_bits: t.elem_bits }))
        };
        let ops: BTreeSet<usize> = self.ops.iter().chain(self.loads.keys()).copied().collect();
        let mut results: Vec<Value> = Vec::new();
        for k in 0..self.pieces {
            let mut values: HashMap<usize, Value> = HashMap::new();
            for &p in &ops {
                let o = &read.ops[p];
                let ty = narrow(&o.result_types[0])?;
                let v = match o.name.as_str() {
                    "vector.load" => {
                        let index = at(read.values[o.operands[1]], k)?;
                        b.create("vector.load", &[read.values[o.operands[0]], index], &[], ty)?
                    }
                    "arith.constant" => {
                        let x = self.splats.get(&p).ok_or(RewriteError::Invariant("a constant not a splat"))?;
                        let text = format!(
                            "dense<{x}> : {}",
                            Ty { dims: vec![width], elem_bits: o.result_types[0].as_ref().map_or(0, |t| t.elem_bits) }
                        );
                        let attr = build::parsed_attribute(context, &text)?;
                        b.create("arith.constant", &[], &[("value", attr)], ty)?
                    }
                    name => {
                        let operands: Vec<Value> = o
                            .operands
                            .iter()
                            .map(|v| {
                                values
                                    .get(v)
                                    .copied()
                                    .ok_or(RewriteError::Invariant("an operand computed after its reader"))
                            })
                            .collect::<Result<_, _>>()?;
                        let handle = read.handles[p];
                        let attributes: Vec<(String, Attribute)> = handle
                            .attributes()
                            .map(|(n, a)| (n.as_string_ref().as_str().unwrap_or_default().to_string(), a))
                            .collect();
                        let named: Vec<(&str, Attribute)> = attributes.iter().map(|(n, a)| (n.as_str(), *a)).collect();
                        b.create(name, &operands, &named, ty)?
                    }
                };
                values.insert(o.results[0], v);
            }
            let stored = read.ops[self.store].operands[0];
            results.push(*values.get(&stored).ok_or(RewriteError::Invariant("the stored value was not computed"))?);
        }
        let (memref, index) =
            (read.values[read.ops[self.store].operands[1]], read.values[read.ops[self.store].operands[2]]);
        for (k, v) in results.into_iter().enumerate() {
            let index = at(index, k as u32)?;
            b.create_results("vector.store", &[v, memref, index], &[], &[])?;
        }
        raw::erase(store);
        erase_unused(read, &ops);
        Ok(())
    }
}

/// The element of a splat `arith.constant`.
fn splat(op: &BlockOp) -> Option<num_bigint::BigInt> {
    match op.attribute("value")? {
        Attr::Elements(xs) if !xs.is_empty() && xs.iter().all(|x| *x == xs[0]) => Some(xs[0].clone()),
        _ => None,
    }
}

/// Whether an op may write memory: any op but those of `arith`, `math`,
/// `index`, `autollvm`, `vector` (less its stores, scatters and writes) and
/// loads; and any op with regions.
fn may_write(op: &BlockOp) -> bool {
    let pure = ["arith.", "math.", "index.", "autollvm."].iter().any(|d| op.name.starts_with(d))
        || op.name.starts_with("vector.")
            && !["store", "scatter", "write", "compress"].iter().any(|w| op.name.contains(w))
        || matches!(op.name.as_str(), "memref.load" | "memref.dim" | "affine.apply" | "affine.load");
    op.has_regions || !pure
}

/// Each load's row and offset: one row per memref and base index, offsets
/// from the first element any load of the row reads.
fn rows_of(flow: &Dataflow, load_ops: &BTreeSet<usize>) -> BTreeMap<usize, (usize, i64)> {
    let mut rows: Vec<(usize, usize)> = Vec::new();
    let mut placed: Vec<(usize, usize, i64)> = Vec::new();
    for &p in load_ops {
        let load = &flow.ops[p];
        let (base, offset) = base_and_offset(flow, load.operands[1]);
        let key = (load.operands[0], base);
        let row = rows.iter().position(|r| *r == key).unwrap_or_else(|| {
            rows.push(key);
            rows.len() - 1
        });
        placed.push((p, row, offset));
    }
    let lowest = |row: usize| placed.iter().filter(|(_, r, _)| *r == row).map(|(_, _, o)| *o).min().unwrap_or(0);
    placed.iter().map(|&(p, row, offset)| (p, (row, offset - lowest(row)))).collect()
}

/// The region's ops (constants kept: other regions may read them) that
/// nothing reads any more, erased last first.
fn erase_unused(read: &ReadBlock, ops: &BTreeSet<usize>) {
    for &p in ops.iter().rev() {
        let handle = read.handles[p];
        if read.ops[p].name == "arith.constant" {
            continue;
        }
        if handle.results().all(|r| !raw::has_uses(r.into())) {
            raw::erase(handle);
        }
    }
}
