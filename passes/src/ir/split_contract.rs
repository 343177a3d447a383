//! Register-sized contractions: before synthesis, a `vector.contract` whose
//! operands do not fit the target's vector registers is split into tiles
//! that do, so each tile is a window synthesis can match with one
//! instruction. No instruction is named here: the tile is the largest that
//! fits, found by halving dimensions, parallel ones (outer first) before
//! reduction ones, until every operand fits in `register_bits` (an extended
//! operand counted at its width before the extension, as instructions take
//! it). Tiles read `vector.extract_strided_slice`s of the operands (of the
//! values before their extensions, extended again per tile), accumulate
//! over the reduction tiles in order, and are put together with
//! `vector.insert_strided_slice` into the accumulator: the same function.

use super::build::{self, Builder};
use super::failure::RewriteError;
use super::raw;
use super::read;
use crate::synth::attr::Attr;
use crate::synth::types::Ty;
use melior::ir::attribute::{ArrayAttribute, IntegerAttribute};
use melior::ir::operation::{OperationLike, OperationResult};
use melior::ir::r#type::IntegerType;
use melior::ir::{Attribute, OperationRef, Value, ValueLike};
use melior::Context;

/// At most this many tiles per contraction (beyond, it is left whole).
const MAX_TILES: usize = 64;

pub fn run<'c>(
    context: &'c Context,
    root: OperationRef<'c, 'c>,
    register_bits: u32,
    remarks: bool,
) -> Result<(), RewriteError> {
    let contracts: Vec<OperationRef> = raw::nested_ops(root)
        .into_iter()
        .filter(|op| op.name().as_string_ref().as_str() == Ok("vector.contract"))
        .collect();
    for op in contracts {
        split(context, op, register_bits, remarks)?;
    }
    Ok(())
}

/// An operand before its extension: the narrow value and the extension op's name.
pub(super) fn extension<'c>(v: Value<'c, 'c>) -> Option<(Value<'c, 'c>, String)> {
    let def = OperationResult::try_from(v).ok()?.owner();
    let name = def.name().as_string_ref().as_str().ok()?.to_string();
    (name == "arith.extsi" || name == "arith.extui").then(|| Some((def.operand(0).ok()?, name))).flatten()
}

/// Tile sizes per dimension: halve until each operand fits (see the module doc).
fn tile(size: &[u32], maps: &[(u32, Vec<u32>)], elem_bits: &[u32; 3], register_bits: u32) -> Option<Vec<u32>> {
    let mut t = size.to_vec();
    let parallel = |d: u32| maps[2].1.contains(&d);
    loop {
        let over =
            (0..3).find(|&k| maps[k].1.iter().map(|d| t[*d as usize]).product::<u32>() * elem_bits[k] > register_bits);
        let Some(k) = over else { return Some(t) };
        let halvable = |d: &&u32| t[**d as usize] % 2 == 0;
        let pick = maps[k]
            .1
            .iter()
            .filter(halvable)
            .filter(|d| parallel(**d))
            .max_by_key(|d| (t[**d as usize], std::cmp::Reverse(**d)))
            .or_else(|| maps[k].1.iter().filter(halvable).max_by_key(|d| (t[**d as usize], std::cmp::Reverse(**d))))?;
        t[*pick as usize] /= 2;
    }
}

fn i64_array<'c>(context: &'c Context, xs: &[u32]) -> Attribute<'c> {
    let i64 = IntegerType::new(context, 64).into();
    let items: Vec<Attribute> = xs.iter().map(|x| IntegerAttribute::new(i64, i64::from(*x)).into()).collect();
    ArrayAttribute::new(context, &items).into()
}

/// A contraction as read from its op: its maps, the attributes every tile
/// keeps, its operands and their types, the lhs and rhs before their
/// extensions (where they have one), and each dimension's size.
struct Contraction<'c> {
    maps: Vec<(u32, Vec<u32>)>,
    /// `indexing_maps`, `iterator_types` and `kind`.
    attributes: [Attribute<'c>; 3],
    operands: Vec<Value<'c, 'c>>,
    types: Vec<Ty>,
    narrow: Vec<Option<(Value<'c, 'c>, String)>>,
    size: Vec<u32>,
}

impl<'c> Contraction<'c> {
    /// The contraction `op` is; `None` where it is not one of three
    /// operands whose types its maps describe.
    fn read(op: OperationRef<'c, 'c>) -> Result<Option<Contraction<'c>>, RewriteError> {
        let attribute = |name: &str| {
            op.attribute(name).map_err(|_| RewriteError::MissingAttribute {
                op: "vector.contract".to_string(),
                name: name.to_string(),
            })
        };
        let (maps_attr, iterators, kind) =
            (attribute("indexing_maps")?, attribute("iterator_types")?, attribute("kind")?);
        let Attr::Maps(maps) = read::attr(maps_attr) else { return Ok(None) };
        if maps.len() != 3 || op.operand_count() != 3 {
            return Ok(None);
        }
        let operands: Vec<Value> = (0..3).map(|k| op.operand(k)).collect::<Result<_, _>>()?;
        let Some(types) = operands.iter().map(|v| read::ty(v.r#type())).collect::<Option<Vec<Ty>>>() else {
            return Ok(None);
        };
        if types.iter().zip(&maps).any(|(t, (_, r))| t.dims.len() != r.len() || t.dims.is_empty()) {
            return Ok(None);
        }
        let narrow: Vec<Option<(Value, String)>> = operands[..2].iter().map(|v| extension(*v)).collect();
        let dims = maps[0].0 as usize;
        let mut size = vec![1u32; dims];
        for ((_, results), t) in maps.iter().zip(&types) {
            for (d, n) in results.iter().zip(&t.dims) {
                size[*d as usize] = *n;
            }
        }
        let attributes = [maps_attr, iterators, kind];
        Ok(Some(Contraction { maps, attributes, operands, types, narrow, size }))
    }

    /// Each operand's element size, an extended one's before its extension.
    fn elem_bits(&self) -> [u32; 3] {
        [0, 1, 2].map(|k| match self.narrow.get(k).and_then(|n| n.as_ref()) {
            Some((v, _)) => read::ty(v.r#type()).map_or(self.types[k].elem_bits, |t| t.elem_bits),
            None => self.types[k].elem_bits,
        })
    }
}

fn split<'c>(
    context: &'c Context,
    op: OperationRef<'c, 'c>,
    register_bits: u32,
    remarks: bool,
) -> Result<(), RewriteError> {
    let Some(c) = Contraction::read(op)? else { return Ok(()) };
    let elem_bits = c.elem_bits();
    let size = &c.size;
    let Some(t) = tile(size, &c.maps, &elem_bits, register_bits) else { return Ok(()) };
    let tiles: usize = size.iter().zip(&t).map(|(s, t)| (s / t) as usize).product();
    if tiles > MAX_TILES && remarks {
        let text = format!(
            "hydride-split-contract: contraction left whole: {tiles} register-sized tiles, more than the {MAX_TILES} it is split into"
        );
        raw::emit(&op, true, &text);
    }
    if t == *size || tiles > MAX_TILES {
        return Ok(());
    }
    let tiler = Tiler { context, b: Builder::new(context, op), c: &c, t: &t };
    let dest = tiler.tiled()?;
    let old: Value = op.result(0)?.into();
    raw::replace_all_uses(old, dest);
    raw::erase(op);
    // The whole operands' extensions, now unused.
    for k in 0..2 {
        if let Ok(result) = OperationResult::try_from(c.operands[k]) {
            let def = result.owner();
            if extension(c.operands[k]).is_some() && !raw::has_uses(c.operands[k]) {
                raw::erase(def);
            }
        }
    }
    Ok(())
}

/// A contraction cut into tiles of sizes `t`, built before its op.
struct Tiler<'a, 'c> {
    context: &'c Context,
    b: Builder<'c, 'c>,
    c: &'a Contraction<'c>,
    t: &'a [u32],
}

impl<'c> Tiler<'_, 'c> {
    /// The tile of `v` (of type `ty`, its dimensions the contraction's
    /// `results`) at offsets `at`.
    fn slice(&self, v: Value<'c, 'c>, ty: &Ty, at: &[u32], results: &[u32]) -> Result<Value<'c, 'c>, RewriteError> {
        let (context, t) = (self.context, self.t);
        let offsets: Vec<u32> = results.iter().map(|d| at[*d as usize]).collect();
        let sizes: Vec<u32> = results.iter().map(|d| t[*d as usize]).collect();
        let tile_ty = Ty { dims: sizes.clone(), elem_bits: ty.elem_bits };
        let strides = vec![1u32; results.len()];
        let attributes = [
            ("offsets", i64_array(context, &offsets)),
            ("sizes", i64_array(context, &sizes)),
            ("strides", i64_array(context, &strides)),
        ];
        Ok(self.b.create("vector.extract_strided_slice", &[v], &attributes, build::mlir_type(context, &tile_ty))?)
    }

    /// An input tile: sliced before its extension where it has one.
    fn input(&self, k: usize, at: &[u32]) -> Result<Value<'c, 'c>, RewriteError> {
        let (c, t) = (self.c, self.t);
        let results = &c.maps[k].1;
        match &c.narrow[k] {
            Some((v, ext)) => {
                let from = read::ty(v.r#type()).ok_or(RewriteError::UnmodelledType("an extension"))?;
                let piece = self.slice(*v, &from, at, results)?;
                let wide =
                    Ty { dims: results.iter().map(|d| t[*d as usize]).collect(), elem_bits: c.types[k].elem_bits };
                Ok(self.b.create(ext, &[piece], &[], build::mlir_type(self.context, &wide))?)
            }
            None => self.slice(c.operands[k], &c.types[k], at, results),
        }
    }

    /// The accumulator with every tile's contraction inserted: each
    /// parallel tile of the accumulator, contracted with the reduction
    /// tiles in order.
    fn tiled(&self) -> Result<Value<'c, 'c>, RewriteError> {
        let (context, c, t) = (self.context, self.c, self.t);
        let (maps, size) = (&c.maps, &c.size);
        let dims = maps[0].0 as usize;
        let parallel: Vec<usize> = maps[2].1.iter().map(|d| *d as usize).collect();
        let reduction: Vec<usize> = (0..dims).filter(|d| !parallel.contains(d)).collect();
        let count = |ds: &[usize]| ds.iter().map(|d| (size[*d] / t[*d]) as usize).product::<usize>();
        // The offsets of tile number `index` along `ds` (row-major), into `at`.
        let place = |at: &mut [u32], ds: &[usize], index: usize| {
            let mut rest = index;
            for d in ds.iter().rev() {
                let n = (size[*d] / t[*d]) as usize;
                at[*d] = (rest % n) as u32 * t[*d];
                rest /= n;
            }
        };
        let [maps_attr, iterators, kind] = c.attributes;
        let mut dest = c.operands[2];
        let mut at = vec![0u32; dims];
        for p in 0..count(&parallel) {
            place(&mut at, &parallel, p);
            let mut acc = self.slice(c.operands[2], &c.types[2], &at, &maps[2].1)?;
            for r in 0..count(&reduction) {
                place(&mut at, &reduction, r);
                let (lhs, rhs) = (self.input(0, &at)?, self.input(1, &at)?);
                acc = self.b.create(
                    "vector.contract",
                    &[lhs, rhs, acc],
                    &[("indexing_maps", maps_attr), ("iterator_types", iterators), ("kind", kind)],
                    acc.r#type(),
                )?;
            }
            let offsets: Vec<u32> = maps[2].1.iter().map(|d| at[*d as usize]).collect();
            let strides = vec![1u32; offsets.len()];
            dest = self.b.create(
                "vector.insert_strided_slice",
                &[acc, dest],
                &[("offsets", i64_array(context, &offsets)), ("strides", i64_array(context, &strides))],
                dest.r#type(),
            )?;
        }
        Ok(dest)
    }
}

#[cfg(test)]
mod tests {
    use super::tile;

    #[test]
    fn tiles_halve_parallel_dimensions_first() {
        let packed = vec![(3, vec![0, 2]), (3, vec![1, 2]), (3, vec![0, 1])];
        // 4x4x8 i8 into i32 at 128 bits: 2x2x8 (16-byte operands, a 2x2 i32 tile).
        assert_eq!(tile(&[4, 4, 8], &packed, &[8, 8, 32], 128), Some(vec![2, 2, 8]));
        // Fits 512 bits whole.
        assert_eq!(tile(&[4, 4, 8], &packed, &[8, 8, 32], 512), Some(vec![4, 4, 8]));
        // A reduction too long for the register is halved once the parallel ones are 1.
        assert_eq!(tile(&[1, 1, 64], &packed, &[8, 8, 32], 128), Some(vec![1, 1, 16]));
        // Odd sizes that never fit: no tile.
        assert_eq!(tile(&[3, 3, 9], &packed, &[8, 8, 32], 16), None);
    }
}
