//! Class names come from the semantics: the committed class databases'
//! names are what the namer gives their templates, names are unique, and a
//! class's name does not depend on the order or company of other classes.

use dialectgen::classify::engine::SimilarityClass;
use dialectgen::classify::naming::{name_classes, semantic_name};
use std::path::Path;

#[derive(serde::Deserialize)]
struct Database {
    classes: Vec<SimilarityClass>,
}

fn committed(isa: &str) -> Vec<SimilarityClass> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../generated").join(isa).join("class-database.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str::<Database>(&text).unwrap().classes
}

const ISAS: [&str; 3] = ["x86", "arm", "hvx"];

/// The name of the class among `classes` that has `intrinsic`.
fn class_name(classes: &[SimilarityClass], intrinsic: &str) -> String {
    let class = classes.iter().find(|c| c.members.iter().any(|m| m.intrinsic == intrinsic));
    class.map(|c| c.name.clone()).unwrap_or_else(|| panic!("no class has {intrinsic}"))
}

#[test]
fn committed_names_are_the_namers() {
    let mut differ = Vec::new();
    for isa in ISAS {
        let classes = committed(isa);
        let mut renamed = classes.clone();
        name_classes(&mut renamed);
        for (c, r) in classes.iter().zip(&renamed) {
            if std::env::var_os("HYDRIDE_PRINT_NAMES").is_some() {
                let members: Vec<&str> = c.members.iter().take(4).map(|m| m.intrinsic.as_str()).collect();
                println!("{isa} {:40} {}", r.name, members.join(" "));
                if std::env::var("HYDRIDE_PRINT_NAMES").is_ok_and(|v| members.contains(&v.as_str())) {
                    println!("{}", dialectgen::sema::print::semantics_to_string(&c.template));
                }
            }
            if c.name != r.name {
                differ
                    .push(format!("{isa}: {} is named {}, the namer says {}", c.members[0].intrinsic, c.name, r.name));
            }
        }
    }
    assert!(differ.is_empty(), "regenerate with scripts/regen:\n{}", differ.join("\n"));
}

#[test]
fn names_are_unique_and_readable() {
    for isa in ISAS {
        let classes = committed(isa);
        let mut names: Vec<&str> = classes.iter().map(|c| c.name.as_str()).collect();
        assert!(names.iter().all(|n| !n.is_empty()
            && n.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            && n.starts_with(|c: char| c.is_ascii_lowercase())));
        names.sort();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len(), "{isa}: a name is used twice");
    }
}

#[test]
fn a_name_does_not_depend_on_the_other_classes() {
    let classes = committed("x86");
    // Reversed order: the same names.
    let mut reversed: Vec<SimilarityClass> = classes.iter().rev().cloned().collect();
    name_classes(&mut reversed);
    for (c, r) in classes.iter().zip(reversed.iter().rev()) {
        assert_eq!(c.name, r.name);
    }
    // A class whose semantic name no other class shares keeps it alone.
    let names: Vec<&str> = classes.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names.len(), names.iter().collect::<std::collections::BTreeSet<_>>().len(), "names are unique");
    for c in &classes {
        let base = semantic_name(c);
        let shared = classes.iter().filter(|o| semantic_name(o) == base).count();
        let mut alone = vec![c.clone()];
        name_classes(&mut alone);
        assert_eq!(alone[0].name, base);
        if shared == 1 {
            assert_eq!(c.name, base);
        } else {
            // Among classes that share it: the name, or the name with words or a fingerprint added
            // (the bare name stays with at most one of them).
            assert!(c.name == base || c.name.starts_with(&format!("{base}_")), "{} vs {base}", c.name);
        }
    }
}

#[test]
fn known_classes_read_as_what_they_compute() {
    let classes = committed("x86");
    let name_of = |intrinsic: &str| class_name(&classes, intrinsic);
    let expected = [
        ("_mm512_adds_epi16", "add_sat_s"),
        ("_mm512_adds_epu8", "add_sat_u"),
        ("_mm512_subs_epu16", "sub_sat_u"),
        ("_mm512_avg_epu8", "avg_u"),
        ("_mm512_dpbusd_epi32", "dot_acc_su_widen"),
        ("_mm512_dpbusds_epi32", "dot_acc_sat_su_widen"),
        ("_mm512_dpwssd_epi32", "dot_acc_s_widen"),
        ("_mm512_maddubs_epi16", "dot_sat_su_widen"),
        ("_mm512_cvtepi8_epi32", "extend_s"),
        ("_mm512_mulhrs_epi16", "mul_high_round_s"),
        ("_mm512_packs_epi32", "pack_sat_s_in_lanes"),
        ("_mm512_packus_epi16", "pack_sat_u_in_lanes"),
        ("_mm512_max_epu8", "max_u"),
        ("_mm512_min_epi32", "min_s"),
        ("_mm256_cmpgt_epi8", "cmp_gt_s"),
        ("_mm512_srai_epi16", "shr_by_imm_s"),
        ("_mm512_srl_epi32", "shr_by_scalar_u"),
        ("_mm512_srav_epi16", "shr_s"),
        ("_mm512_abs_epi8", "abs"),
        ("_mm256_hadd_epi16", "add_pairwise_in_lanes"),
        ("_mm_hadd_epi32", "add_pairwise_in_lanes"),
    ];
    for (intrinsic, name) in expected {
        assert_eq!(name_of(intrinsic), name, "{intrinsic}");
    }
}

/// The name without a suffix of four or more hex digits (a fingerprint).
fn without_hex_suffix(name: &str) -> &str {
    match name.rsplit_once('_') {
        Some((base, suffix)) if suffix.len() >= 4 && suffix.chars().all(|c| c.is_ascii_hexdigit()) => base,
        _ => name,
    }
}

#[test]
fn classes_a_word_tells_apart_take_the_word_not_a_fingerprint() {
    let operands = |c: &SimilarityClass| {
        let kinds = c.template.args.iter().map(|a| format!("{:?}", a.kind));
        kinds.collect::<Vec<_>>()
    };
    let mut told = 0;
    for isa in ISAS {
        let classes = committed(isa);
        let read: Vec<(String, Vec<String>)> = classes.iter().map(|c| (semantic_name(c), operands(c))).collect();
        for (i, a) in classes.iter().enumerate() {
            for (j, b) in classes.iter().enumerate().skip(i + 1) {
                if read[i].0 != read[j].0 || read[i].1 == read[j].1 {
                    continue;
                }
                // Same semantic name, different operands: the words say so.
                assert_ne!(
                    without_hex_suffix(&a.name),
                    without_hex_suffix(&b.name),
                    "{isa}: {} and {}",
                    a.name,
                    b.name
                );
                told += 1;
            }
        }
    }
    assert!(told > 0, "no pair of classes shares a semantic name with different operands");
}

#[test]
fn shifts_with_a_rounding_term_read_as_rounding() {
    let classes = committed("arm");
    let name_of = |intrinsic: &str| class_name(&classes, intrinsic);
    // The rounding forms add `1 << (n - 1)` before shifting by `n`; the plain forms do not.
    for (plain, rounding) in [
        ("vshr_n_s8", "vrshr_n_s8"),
        ("vsra_n_s8", "vrsra_n_s8"),
        ("vshrn_n_s16", "vrshrn_n_s16"),
        ("vqshrn_n_s16", "vqrshrn_n_s16"),
        ("vqshrun_n_s16", "vqrshrun_n_s16"),
        ("vshl_s8", "vrshl_s8"),
    ] {
        let (plain_name, rounding_name) = (name_of(plain), name_of(rounding));
        assert!(!plain_name.contains("round"), "{plain}: {plain_name}");
        assert_eq!(rounding_name, format!("{plain_name}_round"), "{rounding} beside {plain} ({plain_name})");
    }
}

#[test]
fn one_element_used_by_every_lanes_arithmetic_reads_by_element() {
    let classes = committed("arm");
    let name_of = |intrinsic: &str| class_name(&classes, intrinsic);
    // The `_n` forms multiply every lane by one element of the second operand.
    for (lane_wise, by_element) in [
        ("vmull_s16", "vmull_n_s16"),
        ("vqdmull_s16", "vqdmull_n_s16"),
        ("vqdmulh_s16", "vqdmulh_n_s16"),
        ("vmlal_s16", "vmlal_n_s16"),
        ("vqdmlal_s16", "vqdmlal_n_s16"),
    ] {
        let (plain, by) = (name_of(lane_wise), name_of(by_element));
        assert!(!plain.contains("by_element"), "{lane_wise}: {plain}");
        assert!(by.contains("by_element") && without_hex_suffix(&by) == by, "{by_element}: {by}");
    }
}

#[test]
fn a_fingerprint_is_left_only_where_the_name_without_it_is_taken() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../generated/class-database.json");
    let classes = serde_json::from_str::<Database>(&std::fs::read_to_string(&path).unwrap()).unwrap().classes;
    let names: std::collections::BTreeSet<&str> = classes.iter().map(|c| c.name.as_str()).collect();
    let needless: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| without_hex_suffix(n) != *n && !names.contains(without_hex_suffix(n)))
        .collect();
    assert!(needless.is_empty(), "autollvm ops keep a fingerprint their name does not need: {needless:?}");
    let fingerprinted = names.iter().filter(|n| without_hex_suffix(n) != **n).count();
    assert!(
        fingerprinted * 10 < names.len(),
        "{fingerprinted} of {} autollvm op names end in a fingerprint",
        names.len()
    );
}
