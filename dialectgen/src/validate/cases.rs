//! Test vectors: random values, edge values per element, and every decoded
//! immediate.

use crate::sema::ir::{ArgKind, Semantics};
use num_bigint::BigUint;

/// One call of an instruction: the bits of every argument, immediates included.
#[derive(Clone, Debug, PartialEq)]
pub struct TestCase {
    pub args: Vec<BigUint>,
    /// The immediate's value, when the instruction takes one.
    pub imm: Option<u32>,
}

/// SplitMix64: small, seedable, and identical everywhere.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

pub fn seed_of(name: &str) -> u64 {
    crate::fnv::fnv1a(name.as_bytes())
}

/// Element patterns: zero, all ones, signed min, signed max, one, 0x55…, 0xAA….
const PATTERNS: usize = 7;

fn pattern_element(p: usize, w: u32) -> BigUint {
    let ones = (BigUint::from(1u8) << w) - 1u8;
    match p {
        0 => BigUint::default(),
        1 => ones,
        2 => BigUint::from(1u8) << (w - 1),
        3 => (BigUint::from(1u8) << (w - 1)) - 1u8,
        4 => BigUint::from(1u8),
        5 => ones / 3u8,        // 0x55…
        _ => (ones / 3u8) << 1, // 0xAA…
    }
}

/// `width` random bits.
pub fn random_bits(rng: &mut Rng, width: u32) -> BigUint {
    let words: Vec<u64> = (0..width.div_ceil(64)).map(|_| rng.next_u64()).collect();
    let mut v = BigUint::default();
    for (i, w) in words.iter().enumerate() {
        v |= BigUint::from(*w) << (64 * i);
    }
    v & ((BigUint::from(1u8) << width) - 1u8)
}

/// Fill `width` bits with `elem`-bit elements chosen by `pick`.
fn elements(width: u32, elem: u32, mut pick: impl FnMut(u32) -> BigUint) -> BigUint {
    let mut v = BigUint::default();
    let mut pos = 0;
    while pos < width {
        let w = elem.min(width - pos);
        let e = pick(w) & ((BigUint::from(1u8) << w) - 1u8);
        v |= e << pos;
        pos += w;
    }
    v
}

fn element_width(width: u32, elem: u32) -> u32 {
    if elem >= 8 && elem <= width && width.is_multiple_of(elem) {
        elem
    } else {
        8.min(width)
    }
}

/// How a case fills a non-immediate argument.
#[derive(Clone, Copy)]
enum Fill {
    Random,
    Pattern(usize),
    /// Each element an edge value or random, chosen at random.
    Mixed,
    /// Every element a small number (below twice its width): shift counts, indices.
    SmallEach,
    /// A small number in the low 64 bits, zero above: scalar shift counts.
    SmallLow,
}

fn fill(rng: &mut Rng, fill: Fill, kind: ArgKind, width: u32, elem: u32) -> BigUint {
    let ew = if kind == ArgKind::Mask { 1 } else { element_width(width, elem) };
    match fill {
        Fill::Random => random_bits(rng, width),
        Fill::Pattern(p) if kind == ArgKind::Mask => pattern_element(p % 2, width.max(1)),
        Fill::Pattern(p) => elements(width, ew, |w| pattern_element(p, w.max(1))),
        Fill::Mixed if kind == ArgKind::Mask => random_bits(rng, width),
        Fill::SmallEach => elements(width, ew, |w| BigUint::from(rng.below(u64::from(2 * w)))),
        Fill::SmallLow => BigUint::from(rng.below(u64::from(2 * ew.max(8)) + 2)),
        Fill::Mixed => elements(width, ew, |w| {
            let choice = rng.below(PATTERNS as u64 + 2) as usize;
            if choice >= PATTERNS || w < 2 {
                random_bits(rng, w)
            } else {
                pattern_element(choice, w)
            }
        }),
    }
}

/// The values an immediate takes: every value of its low `bits` bits (at most 8).
pub fn immediate_values(bits: u32) -> Vec<u32> {
    (0..(1u32 << bits.min(8))).collect()
}

/// The bits of its immediate the guide says an instruction decodes (8 when
/// it does not say); `None` without an immediate.
pub fn decoded_immediate_bits(sema: &Semantics) -> Option<u32> {
    sema.args.iter().find(|a| a.kind == ArgKind::Immediate).map(|a| a.imm_bits.unwrap_or(8))
}

/// Keeps the cases whose immediate fits in `bits` bits: the cases a
/// compiler accepts when it rejects immediates the guide says are undecoded.
pub fn narrow_immediates(cases: &mut Vec<TestCase>, bits: u32) {
    cases.retain(|c| c.imm.is_some_and(|v| v < (1 << bits)));
}

/// Immediates are first tried with all 256 values, because many
/// instructions decode more bits than the guide's `immwidth` says (a shift
/// count above 15 still shifts everything out); where the compiler rejects
/// out-of-range values, the guide's width is used instead.
pub const FULL_IMMEDIATE_BITS: u32 = 8;

/// Test cases for `sema`: `random` random cases plus edge cases, or, with an
/// immediate, `per_imm` cases for every immediate value.
pub fn generate(sema: &Semantics, random: usize, per_imm: usize) -> Vec<TestCase> {
    let mut rng = Rng::new(seed_of(&sema.name));
    let imm = sema.args.iter().position(|a| a.kind == ArgKind::Immediate);
    let make = |rng: &mut Rng, f: &dyn Fn(usize) -> Fill, imm_value: Option<u32>| -> TestCase {
        let args = sema
            .args
            .iter()
            .enumerate()
            .map(|(i, a)| {
                if Some(i) == imm {
                    BigUint::from(imm_value.unwrap_or(0))
                } else {
                    fill(rng, f(i), a.kind, a.width, a.elem.width)
                }
            })
            .collect();
        TestCase { args, imm: imm_value }
    };
    let mut out = Vec::new();
    match imm.map(|_| FULL_IMMEDIATE_BITS) {
        None => {
            for p in 0..PATTERNS * 2 {
                out.push(make(&mut rng, &|i| Fill::Pattern((p + i * 3) % PATTERNS), None));
            }
            for k in 0..random {
                // Mix fills per argument so that, e.g., data is random while a count is small.
                let choice = |rng: &mut Rng| match rng.below(6) {
                    0 | 1 => Fill::Random,
                    2 => Fill::Mixed,
                    3 => Fill::SmallEach,
                    4 => Fill::SmallLow,
                    _ => Fill::Pattern(rng.below(PATTERNS as u64) as usize),
                };
                let fills: Vec<Fill> =
                    (0..sema.args.len()).map(|_| if k % 4 == 0 { Fill::Random } else { choice(&mut rng) }).collect();
                out.push(make(&mut rng, &move |i| fills[i], None));
            }
        }
        Some(bits) => {
            for v in immediate_values(bits) {
                for k in 0..per_imm {
                    let f = match k % 4 {
                        0 => Fill::Mixed,
                        1 => Fill::Random,
                        2 => Fill::SmallEach,
                        _ => Fill::Pattern((v as usize + k) % PATTERNS),
                    };
                    out.push(make(&mut rng, &move |_| f, Some(v)));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_are_edge_values() {
        assert_eq!(pattern_element(2, 16), BigUint::from(0x8000u32));
        assert_eq!(pattern_element(3, 8), BigUint::from(0x7Fu32));
        assert_eq!(pattern_element(5, 8), BigUint::from(0x55u32));
        assert_eq!(pattern_element(6, 8), BigUint::from(0xAAu32));
    }

    #[test]
    fn elements_fill_every_lane() {
        let v = elements(32, 16, |_| BigUint::from(0x8000u32));
        assert_eq!(v, BigUint::from(0x8000_8000u32));
    }
}
