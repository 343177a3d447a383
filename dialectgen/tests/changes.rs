//! The summary of an ISA update: a fixture guide and a modified copy of it
//! (one instruction removed, one added, one whose semantics changed) are
//! classified as `hydride gen` does, and the summary says exactly that.

use dialectgen::changes::{Changes, Snapshot};
use dialectgen::classify::engine::{classify, Numbers};
use dialectgen::classify::mask::MaskModel;
use dialectgen::isa::x86::survey::{survey, SurveyOptions};
use std::path::Path;

const FIXTURE: &str = include_str!("fixtures/x86-classes/similar.xml");

/// Classes and ops of a guide, as `hydride gen` would record them.
fn snapshot(guide: &str) -> Snapshot {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("x86")).unwrap();
    std::fs::write(dir.path().join("x86").join("guide.xml"), guide).unwrap();
    let opts = SurveyOptions { isa_data: dir.path().to_path_buf(), corrections: None, validation: None, filter: None };
    let semantics: Vec<_> = survey(&opts, &|_: &str, _: usize, _: usize| {})
        .expect("survey")
        .semantics
        .into_iter()
        .map(|(s, _)| s)
        .collect();
    let (classes, stats) = classify(&semantics, 5000, MaskModel::WriteMask, Numbers::OfSignature);
    assert_eq!(stats.unproved_pairs, 0);
    let mut s = Snapshot::default();
    s.add_classes("x86", &classes, Some("autollvm"));
    s.add_ops(semantics.iter().map(|x| format!("hydride_x86.{}", x.name.trim_start_matches('_'))));
    s
}

/// The guide without the intrinsic named `name`.
fn without(guide: &str, name: &str) -> String {
    let start = guide.find(&format!("<intrinsic tech=\"AVX2\" name=\"{name}\">")).expect("the intrinsic");
    let end = start + guide[start..].find("</intrinsic>\n").unwrap() + "</intrinsic>\n".len();
    format!("{}{}", &guide[..start], &guide[end..])
}

#[test]
fn an_isa_update_reads_as_a_summary() {
    assert!(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/x86-classes/similar.xml").is_file());
    let old = snapshot(FIXTURE);
    assert!(Changes::between(&old, &old).is_empty());

    // The update: _mm256_add_epi8 is gone, _mm_adds_epi16 no longer
    // saturates (so it is an add now), and _mm_sub_epi16 is new.
    let sub = "<intrinsic tech=\"SSE2\" name=\"_mm_sub_epi16\">\n\t<CPUID>SSE2</CPUID>\n\t<return type=\"__m128i\" varname=\"dst\" etype=\"UI16\"/>\n\t<parameter type=\"__m128i\" varname=\"a\" etype=\"UI16\"/>\n\t<parameter type=\"__m128i\" varname=\"b\" etype=\"UI16\"/>\n\t<operation>\nFOR j := 0 to 7\n\ti := j*16\n\tdst[i+15:i] := a[i+15:i] - b[i+15:i]\nENDFOR\n\t</operation>\n\t<instruction name=\"PSUBW\" form=\"xmm, xmm\"/>\n</intrinsic>\n";
    let updated = without(FIXTURE, "_mm256_add_epi8")
        .replace("Saturate16(a[i+15:i] + b[i+15:i])", "a[i+15:i] + b[i+15:i]")
        .replace("</intrinsics_list>", &format!("{sub}</intrinsics_list>"));
    assert_ne!(updated, FIXTURE);
    let changes = Changes::between(&old, &snapshot(&updated));

    assert_eq!(changes.removed["x86"], ["_mm256_add_epi8"]);
    assert_eq!(changes.added["x86"], ["_mm_sub_epi16"]);
    assert_eq!(changes.changed["x86"], ["_mm_adds_epi16"]);
    // The add class now also holds the former saturating add: a merge.
    assert_eq!(changes.merged.len(), 1, "{changes}");
    assert!(changes.split.is_empty(), "{changes}");
    // Ops follow: the target ops of the removed and added instructions; the
    // saturating add's class op is gone, and the new subtract joins the
    // fixture's masked subtract class (no new class op).
    assert!(changes.ops_removed.contains(&"hydride_x86.mm256_add_epi8".to_string()), "{changes}");
    assert!(changes.ops_added.contains(&"hydride_x86.mm_sub_epi16".to_string()), "{changes}");
    assert_eq!(changes.ops_added, ["hydride_x86.mm_sub_epi16"], "{changes}");
    assert!(changes.ops_removed.contains(&"autollvm.add_sat_s".to_string()), "{changes}");
    assert!(changes.ops_renamed.is_empty(), "{changes}");
    let text = changes.to_string();
    for needle in [
        "x86: instructions",
        "added (1): _mm_sub_epi16",
        "removed (1): _mm256_add_epi8",
        "semantics changed (1): _mm_adds_epi16",
        "merges",
    ] {
        assert!(text.contains(needle), "{needle:?} not in:\n{text}");
    }
}
