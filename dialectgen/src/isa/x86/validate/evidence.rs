//! What one validation run of one intrinsic shows, as hashes that bind a
//! verdict to the exact semantics, test vectors, harness and results it was
//! reached with: SHA-256 of the semantics' serde form, of the vectors
//! (immediate and every argument's bytes), of the harness (the code that
//! writes the C test program and the C types of the call), and of the
//! results the hardware returned.

use super::guide_types::CallSignature;
use crate::eval::machine::EvalError;
use crate::eval::{Concrete, Machine};
use crate::sema::ir::{ArgKind, Semantics};
use crate::validate::cases::TestCase;
use num_bigint::BigUint;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    /// Test vectors compared.
    pub vectors: u64,
    /// SHA-256 of the semantics (hex).
    pub semantics_sha256: String,
    /// SHA-256 of the test vectors (hex).
    pub vectors_sha256: String,
    /// SHA-256 of how the instruction was called: the harness code and the
    /// call's C types (hex).
    pub harness_sha256: String,
    /// SHA-256 of the hardware's results on those vectors (hex).
    pub results_sha256: String,
}

fn hex(digest: impl AsRef<[u8]>) -> String {
    digest.as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

/// `v` as exactly `ceil(width / 8)` little-endian bytes.
fn bytes(v: &BigUint, width: u32) -> Vec<u8> {
    let mut b = v.to_bytes_le();
    b.resize(width.div_ceil(8) as usize, 0);
    b
}

pub fn semantics_sha256(sema: &Semantics) -> String {
    hex(Sha256::digest(serde_json::to_string(sema).unwrap_or_default().as_bytes()))
}

/// The code that turns a call and its vectors into a C test program and
/// reads its results: a change to it is a change to what the hardware was asked.
/// Any change to these two files' text, a reformatting or a split function
/// included, makes every recorded verdict stale: a host that cannot execute
/// an extension then leaves its instructions unvalidated (and `hydride gen`
/// without them) until `hydride record x86` runs on one that can.
const HARNESS_CODE: &[&str] = &[include_str!("harness.rs"), include_str!("guide_types.rs")];

pub fn harness_sha256(call: &CallSignature) -> String {
    let mut h = Sha256::new();
    for code in HARNESS_CODE {
        h.update(code.as_bytes());
    }
    for a in &call.args {
        h.update(format!("{}:{};", a.c_type, a.width).as_bytes());
    }
    h.update(format!("->{}:{}", call.ret_c_type, call.ret_width).as_bytes());
    hex(h.finalize())
}

pub fn vectors_sha256(sema: &Semantics, cases: &[TestCase]) -> String {
    let mut h = Sha256::new();
    for case in cases {
        h.update(case.imm.map_or(u64::MAX, u64::from).to_le_bytes());
        for (arg, v) in sema.args.iter().zip(&case.args) {
            if arg.kind != ArgKind::Immediate {
                h.update(bytes(v, arg.width));
            }
        }
    }
    hex(h.finalize())
}

/// Hashes results, one per case, each cut to the result's width.
pub struct ResultHasher {
    hasher: Sha256,
    width: u32,
    mask: BigUint,
}

impl ResultHasher {
    pub fn new(sema: &Semantics) -> ResultHasher {
        let width = sema.result.width;
        ResultHasher { hasher: Sha256::new(), width, mask: (BigUint::from(1u8) << width) - 1u8 }
    }

    pub fn add(&mut self, result: &BigUint) {
        self.hasher.update(bytes(&(result & &self.mask), self.width));
    }

    pub fn finish(self) -> String {
        hex(self.hasher.finalize())
    }
}

impl Evidence {
    /// The evidence of results `results` (one per case) of `call` on `cases`.
    pub fn of(sema: &Semantics, call: &CallSignature, cases: &[TestCase], results: &[BigUint]) -> Evidence {
        let mut r = ResultHasher::new(sema);
        results.iter().for_each(|v| r.add(v));
        Evidence {
            vectors: cases.len() as u64,
            semantics_sha256: semantics_sha256(sema),
            vectors_sha256: vectors_sha256(sema, cases),
            harness_sha256: harness_sha256(call),
            results_sha256: r.finish(),
        }
    }

    /// The evidence the interpreter gives for `cases`: what the hardware's
    /// would be if the semantics are right.
    pub fn of_interpreter(sema: &Semantics, call: &CallSignature, cases: &[TestCase]) -> Result<Evidence, EvalError> {
        let mut results = Vec::with_capacity(cases.len());
        for case in cases {
            let mut dom = Concrete;
            results.push(Machine::new(&mut dom, sema).run(&case.args)?);
        }
        Ok(Evidence::of(sema, call, cases, &results))
    }
}

/// `__m128i _x(__m128i)`, for tests.
#[cfg(test)]
pub(crate) fn sample_call() -> CallSignature {
    CallSignature {
        name: "_x".into(),
        args: vec![super::guide_types::CArg { c_type: "__m128i".into(), width: 128 }],
        ret_c_type: "__m128i".into(),
        ret_width: 128,
        imm_index: None,
        imm_values: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sema::ir::{Arg, ElemType};

    fn call() -> CallSignature {
        sample_call()
    }

    fn sema(width: u32) -> Semantics {
        let arg = Arg {
            name: "a".into(),
            kind: ArgKind::Vector,
            width,
            elem: ElemType { width: 8, signed: false },
            imm_bits: None,
            imm_range: None,
        };
        Semantics { name: "_x".into(), args: vec![arg.clone()], result: arg, functions: vec![], body: vec![] }
    }

    #[test]
    fn every_part_is_bound() {
        let s = sema(16);
        let cases = vec![TestCase { args: vec![BigUint::from(0x1234u32)], imm: None }];
        let e = Evidence::of(&s, &call(), &cases, &[BigUint::from(7u8)]);
        assert_eq!(e.vectors, 1);
        assert_ne!(e, Evidence::of(&s, &call(), &cases, &[BigUint::from(8u8)]));
        let other_case = vec![TestCase { args: vec![BigUint::from(0x1235u32)], imm: None }];
        assert_ne!(e.vectors_sha256, Evidence::of(&s, &call(), &other_case, &[BigUint::from(7u8)]).vectors_sha256);
        assert_ne!(
            e.semantics_sha256,
            Evidence::of(&sema(32), &call(), &cases, &[BigUint::from(7u8)]).semantics_sha256
        );
        let mut other_call = call();
        other_call.args[0].c_type = "__m128".into();
        assert_ne!(e.harness_sha256, Evidence::of(&s, &other_call, &cases, &[BigUint::from(7u8)]).harness_sha256);
        // Bits above the result's width are not part of the result.
        assert_eq!(e, Evidence::of(&s, &call(), &cases, &[BigUint::from(0x7_0007u32)]));
    }
}
