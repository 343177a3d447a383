//! Data movements by an immediate, read off the vendor's semantics
//! (`dialectgen::movement`): the arrangement each immediate makes,
//! the element size every immediate allows, and Z3's proof of one.

use dialectgen::isa::x86::corrections::Corrections;
use dialectgen::movement::{movement_elem_bits, proved, sources, Source};
use dialectgen::isa::x86::{load_guide, lower_entry};
use dialectgen::sema::ir::Semantics;
use std::path::PathBuf;

mod common;

fn isa_data() -> PathBuf {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    std::env::var("HYDRIDE_ISA_DATA").map(PathBuf::from).unwrap_or_else(|_| repo.join("../shared/isa-data"))
}

/// The semantics of the named intrinsics, corrected as generation corrects them.
fn semantics(names: &[&str]) -> Option<Vec<Semantics>> {
    let dir = isa_data().join("x86");
    if !dir.join("relevant.x86.xml").exists() {
        return None;
    }
    let guide = load_guide(&dir).expect("the guide loads");
    let corrections =
        Corrections::load(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../isa-specs/x86/corrections.yaml"))
            .expect("the corrections load");
    Some(
        names
            .iter()
            .map(|n| {
                let entry = guide.entries.iter().find(|e| e.name == *n).unwrap_or_else(|| panic!("{n} in the guide"));
                lower_entry(entry, &corrections).unwrap_or_else(|e| panic!("{n}: {e:?}"))
            })
            .collect(),
    )
}

fn element(arg: usize, index: u32) -> Source {
    Source::Element { arg, index }
}

#[test]
fn shuffles_by_an_immediate_are_movements() {
    let Some(s) = semantics(&[
        "_mm512_shuffle_epi32",
        "_mm_alignr_epi8",
        "_mm256_bslli_epi128",
        "_mm_blend_epi16",
        "_mm512_maskz_shuffle_epi32",
        "_mm512_rol_epi32",
        "_mm_slli_epi16",
    ]) else {
        return common::skip("no x86 vendor data");
    };
    // vpshufd: each 128-bit lane's dwords by 2-bit fields of the immediate.
    assert_eq!(movement_elem_bits(&s[0]), Some(32));
    let reversed = sources(&s[0], 32, 0x1b).expect("a movement");
    assert_eq!(&reversed[..4], &[element(0, 3), element(0, 2), element(0, 1), element(0, 0)]);
    assert_eq!(reversed[4], element(0, 7));
    // palignr: bytes of the concatenation b:a from the immediate on, zeros past it.
    assert_eq!(movement_elem_bits(&s[1]), Some(8));
    let by_3 = sources(&s[1], 8, 3).expect("a movement");
    assert_eq!(by_3[0], element(1, 3));
    assert_eq!(by_3[13], element(0, 0));
    assert_eq!(sources(&s[1], 8, 40).expect("a movement"), vec![Source::Zero; 16]);
    // Byte shifts of each 128-bit lane, zeros shifted in.
    assert_eq!(movement_elem_bits(&s[2]), Some(8));
    let shifted = sources(&s[2], 8, 1).expect("a movement");
    assert_eq!(&shifted[..2], &[Source::Zero, element(0, 0)]);
    assert_eq!(&shifted[16..18], &[Source::Zero, element(0, 16)]);
    // A blend of words, and a mask form (its mask all ones).
    assert_eq!(movement_elem_bits(&s[3]), Some(16));
    assert_eq!(movement_elem_bits(&s[4]), Some(32));
    // Rotations and shifts compute: no element size makes them movements.
    assert_eq!(movement_elem_bits(&s[5]), None);
    assert_eq!(movement_elem_bits(&s[6]), None);
}

#[test]
fn z3_proves_the_arrangement_and_refutes_another() {
    let Some(s) = semantics(&["_mm512_shuffle_epi32", "_mm_alignr_epi8"]) else {
        return common::skip("no x86 vendor data");
    };
    for (sem, bits, imm) in [(&s[0], 32, 0x1b), (&s[0], 32, 0xe4), (&s[1], 8, 5), (&s[1], 8, 17)] {
        let arrangement = sources(sem, bits, imm).expect("a movement");
        assert!(proved(sem, bits, imm, &arrangement), "{} imm {imm}", sem.name);
        let mut wrong = arrangement.clone();
        wrong.swap(0, 1);
        assert!(!proved(sem, bits, imm, &wrong), "{} imm {imm}: a swapped arrangement", sem.name);
    }
}
