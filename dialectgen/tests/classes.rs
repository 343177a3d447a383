//! The similarity engine on fixtures: alike instructions share a class,
//! different ones do not, and every membership reproduces the instruction.

use dialectgen::classify::canon::{canonicalize, Form};
use dialectgen::classify::engine::classify;
use dialectgen::classify::mask::{apply_mask, split_mask, Masking};
use dialectgen::classify::proof::{prove_equal, Verdict};
use dialectgen::classify::template::instantiate;
use dialectgen::isa::x86::survey::{survey, SurveyOptions};
use dialectgen::sema::ir::Semantics;
use std::path::PathBuf;

fn fixture_semantics() -> Vec<Semantics> {
    let opts = SurveyOptions {
        isa_data: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/x86-classes"),
        corrections: None,
        validation: None,
        filter: None,
    };
    survey(&opts, &|_: &str, _: usize, _: usize| {}).expect("survey").semantics.into_iter().map(|(s, _)| s).collect()
}

fn by_name<'a>(all: &'a [Semantics], name: &str) -> &'a Semantics {
    all.iter().find(|s| s.name == name).unwrap()
}

#[test]
fn alike_instructions_share_a_class() {
    let all = fixture_semantics();
    assert_eq!(all.len(), 9);
    let (classes, stats) = classify(
        &all,
        5000,
        dialectgen::classify::mask::MaskModel::WriteMask,
        dialectgen::classify::engine::Numbers::OfSignature,
    );
    assert_eq!(stats.unproved_pairs, 0);
    assert!(stats.rejected.is_empty());
    let class_of = |n: &str| classes.iter().position(|c| c.members.iter().any(|m| m.intrinsic == n)).unwrap();
    // Different styles and widths, one operation.
    assert_eq!(class_of("_mm_add_epi16"), class_of("_mm256_add_epi8"));
    assert_eq!(class_of("_mm_add_epi16"), class_of("_mm512_add_epi32"));
    // Saturating add is another operation.
    assert_ne!(class_of("_mm_add_epi16"), class_of("_mm_adds_epi16"));
    // Blend and masked move differ only in argument order.
    assert_eq!(class_of("_mm512_mask_blend_epi32"), class_of("_mm512_mask_mov_epi32"));
    // Merge- and zero-masked adds are adds with a mask step after them.
    assert_eq!(class_of("_mm_add_epi16"), class_of("_mm512_mask_add_epi32"));
    assert_eq!(class_of("_mm_add_epi16"), class_of("_mm256_maskz_add_epi16"));
    let member = |n: &str| classes.iter().flat_map(|c| &c.members).find(|m| m.intrinsic == n).unwrap().clone();
    assert_eq!(member("_mm512_mask_add_epi32").masking, Masking::Merge);
    assert_eq!(member("_mm256_maskz_add_epi16").masking, Masking::Zero);
    assert_eq!(member("_mm_add_epi16").masking, Masking::None);
    // Pass-through, then mask, after the operands.
    assert_eq!(member("_mm512_mask_add_epi32").arg_order[2..], [0, 1]);
    // A masked subtract (named like a saturating add) is not an add.
    assert_ne!(class_of("_mm_add_epi16"), class_of("_mm512_mask_adds_epi16"));
    assert_ne!(class_of("_mm_adds_epi16"), class_of("_mm512_mask_adds_epi16"));
    assert_eq!(classes.len(), 4);

    let add = &classes[class_of("_mm_add_epi16")];
    // Lane count and element width vary; they are linked to the widths.
    assert!(add.params.iter().any(|p| p.name == "a0_elem_width"), "{:?}", add.params);
    // Lanes - 1, element width (elem - 1 derived from it), vector width.
    assert_eq!(add.params.len(), 3, "{:?}", add.params);
}

#[test]
fn every_member_is_its_class_template_instantiated() {
    let all = fixture_semantics();
    let (classes, _) = classify(
        &all,
        5000,
        dialectgen::classify::mask::MaskModel::WriteMask,
        dialectgen::classify::engine::Numbers::OfSignature,
    );
    for c in &classes {
        for m in &c.members {
            let original = by_name(&all, &m.intrinsic);
            let whole = canonicalize(original, Form::Narrow);
            // A masked member's template is its plain operation.
            let canonical = match split_mask(&whole.sema) {
                Some(split) if m.masking != Masking::None => {
                    assert_eq!(m.mask, Some(split.shape), "{}", m.intrinsic);
                    canonicalize(&split.plain, Form::Narrow)
                }
                _ => whole,
            };
            assert_eq!(canonical.arg_order.len() + m.masking.extra_operands(), m.arg_order.len());
            // Fill every class parameter, then compare with the canonical form.
            let mut filled = c.template.clone();
            let names: Vec<(String, num_bigint::BigInt)> =
                c.params.iter().map(|p| p.name.clone()).zip(m.values.iter().cloned()).collect();
            dialectgen::sema::visit::walk_semantics_mut(
                &mut filled,
                &mut |e: &mut dialectgen::sema::ir::Expr| {
                    if let dialectgen::sema::ir::Expr::Var(v) = e {
                        if let Some((_, val)) = names.iter().find(|(n, _)| n == v) {
                            *e = dialectgen::sema::ir::Expr::Int(val.clone());
                        }
                    }
                },
                &mut |_| {},
            );
            let plain = instantiate_signature(&filled, &canonical.sema);
            // The database's own reconstruction gives the same operation.
            let rebuilt = dialectgen::classify::engine::member_semantics(c, m);
            let identity: Vec<usize> = (0..plain.args.len()).collect();
            assert_eq!(prove_equal(&plain, &rebuilt, &identity, 5000), Verdict::Equal, "{}", m.intrinsic);
            let member = match &m.mask {
                Some(shape) => apply_mask(&plain, m.masking, shape),
                None => plain,
            };
            assert_eq!(prove_equal(original, &member, &m.arg_order, 5000), Verdict::Equal, "{}", m.intrinsic);
        }
    }
}

/// The template's signature widths are zeroed; take them from the canonical form.
fn instantiate_signature(filled: &Semantics, canonical: &Semantics) -> Semantics {
    let mut s = filled.clone();
    s.args = canonical.args.clone();
    s.result = canonical.result.clone();
    s.name = canonical.name.clone();
    s
}

#[test]
fn different_semantics_are_not_proved_equal() {
    let all = fixture_semantics();
    let add = by_name(&all, "_mm_add_epi16");
    let adds = by_name(&all, "_mm_adds_epi16");
    assert_eq!(prove_equal(add, adds, &[0, 1], 5000), Verdict::Differ);
    // Swapping the operands of an add is still an add.
    assert_eq!(prove_equal(add, add, &[1, 0], 5000), Verdict::Equal);
    let _ = instantiate;
}

#[test]
#[ignore]
fn print_canonical_forms() {
    for s in fixture_semantics() {
        let c = canonicalize(&s, Form::Narrow);
        println!("{}", dialectgen::sema::print::semantics_to_string(&c.sema));
        let p = dialectgen::classify::template::parameterize(&c.sema);
        println!("{}\n", p.key);
    }
}

#[test]
fn classes_across_isas_name_the_isas_of_their_members() {
    use dialectgen::classify::cross_isa::classify_across;
    let all = fixture_semantics();
    // The 256-bit add as if another ISA had it, beside the x86 rest.
    let (other, x86): (Vec<Semantics>, Vec<Semantics>) = all.into_iter().partition(|s| s.name == "_mm256_add_epi8");
    let (_, combined) = classify_across(&[("x86", &x86), ("other", &other)], &[], 5000);
    assert_eq!(combined.instructions, 9);
    assert_eq!(combined.unproved_pairs, 0);
    assert!(combined.rejected.is_empty());
    assert_eq!(combined.classes, 4, "the same classes as x86 alone");
    assert_eq!(combined.cross_isa_classes, 1);
    let add = &combined.cross_isa[0];
    assert_eq!(add.members["other"], 1);
    assert!(add.examples["x86"].iter().any(|n| n == "_mm_add_epi16"), "{:?}", add.examples);
    assert_eq!(combined.classes_by_member_isas["other+x86"], 1);
    assert_eq!(combined.classes_by_member_isas["x86"], 3);
    assert_eq!(combined.classes_percent, 44.4);
}

#[test]
fn classes_across_isas_keep_the_names_of_their_isa_classes() {
    use dialectgen::classify::cross_isa::classify_across;
    use dialectgen::classify::engine::Numbers;
    use dialectgen::classify::mask::MaskModel;
    let all = fixture_semantics();
    let (other, x86): (Vec<Semantics>, Vec<Semantics>) = all.into_iter().partition(|s| s.name == "_mm256_add_epi8");
    let (alone, _) = classify(&x86, 5000, MaskModel::WriteMask, Numbers::OfSignature);
    let (classes, _) = classify_across(&[("x86", &x86), ("other", &other)], &[("x86", &alone)], 5000);
    let mut checked = 0;
    for c in &classes {
        for m in &c.members {
            let Some(name) = m.intrinsic.strip_prefix("x86/") else { continue };
            let own = alone.iter().find(|k| k.members.iter().any(|x| x.intrinsic == name)).unwrap();
            assert_eq!(c.name, own.name, "{name}");
            checked += 1;
        }
    }
    assert_eq!(checked, 8);
}

/// The committed combined classes (`scripts/regen --check` keeps them
/// fresh): the operations the three ISAs share are one class each, with
/// members of every ISA that has them, and the whole stays within 10%.
#[test]
fn the_committed_classes_span_isas() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("generated/class-database.json")).expect("class database");
    let db: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let classes = db["classes"].as_array().expect("classes");
    let class_of = |member: &str| {
        classes
            .iter()
            .find(|c| c["members"].as_array().unwrap().iter().any(|m| m["intrinsic"] == member))
            .unwrap_or_else(|| panic!("{member} is in no class"))
    };
    let members = |c: &serde_json::Value| -> Vec<String> {
        c["members"].as_array().unwrap().iter().map(|m| m["intrinsic"].as_str().unwrap().to_string()).collect()
    };
    for (x86, others) in [
        // Saturating signed and unsigned element-wise adds.
        ("x86/_mm512_adds_epi16", ["arm/vqaddq_s16", "hvx/V6_vaddhsat"]),
        ("x86/_mm512_adds_epu8", ["arm/vqaddq_u8", "hvx/V6_vaddubsat"]),
        // The widening u8 x s8 four-way dot product with accumulator.
        ("x86/_mm512_dpbusd_epi32", ["arm/vusdotq_s32", "hvx/V6_vrmpybusv_acc"]),
    ] {
        let class = class_of(x86);
        let names = members(class);
        for other in others {
            assert!(names.iter().any(|n| n == other), "{} ({x86}) lacks {other}: {names:?}", class["name"]);
        }
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("generated/classes.json")).unwrap()).unwrap();
    let combined = &summary["combined"];
    assert!(combined["classes_percent"].as_f64().unwrap() <= 10.0, "{}", combined["classes_percent"]);
    assert_eq!(combined["unproved_pairs"], 0);
    assert_eq!(combined["rejected"].as_array().unwrap().len(), 0);
}

mod neutral_variants {
    //! The neutral variants of a semantics (`classify::identity`): where an
    //! identity term can be left out, the form with it reads alike.

    use dialectgen::classify::identity::neutral_variants;
    use dialectgen::isa::x86::pseudocode::parse_operation;
    use dialectgen::sema::ir::Semantics;
    use dialectgen::sema::print::semantics_to_string;

    /// `src` over bytes `a` and `b`, its operators on values chosen by number
    /// as the broad canonical form writes them.
    fn sema(src: &str) -> Semantics {
        use dialectgen::sema::ir::{Arg, ArgKind};
        let mut s = dialectgen::sema::ir::Semantics {
            name: "t".into(),
            args: vec![Arg::scalar("a", 8), Arg::scalar("b", 8)],
            result: Arg { kind: ArgKind::Vector, ..Arg::scalar("dst", 8) },
            functions: vec![],
            body: vec![],
        };
        s.body = parse_operation(src).unwrap().body;
        dialectgen::classify::operators::choose_operators_by_number(&mut s);
        s
    }

    #[test]
    fn a_rounding_constant_left_out_is_found_as_a_place() {
        let plain = sema("dst[7:0] := (a + b) >> 1\n");
        let rounding = sema("dst[7:0] := ((a + b) + 1) >> 1\n");
        let shape = |s: &Semantics| dialectgen::classify::template::parameterize(s).key;
        let found = neutral_variants(&plain).into_iter().any(|(_, v)| shape(&v) == shape(&rounding));
        assert!(found);
        // Literals, names and bit positions get no term.
        for (_, v) in neutral_variants(&plain) {
            let text = semantics_to_string(&v);
            assert!(!text.contains("[(7 + 0)"), "{text}");
        }
    }

    #[test]
    fn a_wrap_left_out_reads_as_the_saturating_form() {
        let wrapping = sema("dst[7:0] := a + b\n");
        let saturating = sema("dst[7:0] := SaturateAs(a + b, 8, 1)\n");
        let shape = |s: &Semantics| dialectgen::classify::template::parameterize(s).key;
        let forms: Vec<Semantics> = neutral_variants(&wrapping)
            .into_iter()
            .map(|(_, v)| v)
            .filter(|v| shape(v) == shape(&saturating))
            .collect();
        // One per width tried; merging takes the first Z3 proves neutral.
        assert_eq!(forms.len(), 4);
        assert!(semantics_to_string(&forms[0]).contains("NarrowAs"), "{}", semantics_to_string(&forms[0]));
    }

    #[test]
    fn a_value_computed_twice_takes_the_term_at_both() {
        let twice = sema("dst[7:0] := (a + b) * (a + b)\n");
        let both = neutral_variants(&twice)
            .into_iter()
            .map(|(_, v)| semantics_to_string(&v))
            .any(|text| text.matches("ADD_OR_SUB[1] 0)").count() == 2);
        assert!(both);
    }
}

mod reroll {
    //! Unrolled element assignments rolled back into loops (`classify::reroll`).

    use dialectgen::classify::reroll::reroll;
    use dialectgen::isa::x86::pseudocode::parse_operation;
    use dialectgen::sema::print::semantics_to_string;

    fn rerolled(src: &str) -> String {
        let mut body = parse_operation(src).unwrap().body;
        let mut next = 0;
        reroll(&mut body, "r", &mut next);
        let s = dialectgen::sema::ir::Semantics {
            name: "t".into(),
            args: vec![],
            result: dialectgen::sema::ir::Arg {
                name: "dst".into(),
                kind: dialectgen::sema::ir::ArgKind::Vector,
                width: 128,
                elem: dialectgen::sema::ir::ElemType { width: 8, signed: false },
                imm_bits: None,
                imm_range: None,
            },
            functions: vec![],
            body,
        };
        semantics_to_string(&s).lines().skip(1).map(str::trim).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn stepped_runs_become_loops() {
        let text = rerolled("dst[15:0] := Saturate16(a[31:0])\ndst[31:16] := Saturate16(a[63:32])\ndst[47:32] := Saturate16(a[95:64])\ndst[63:48] := Saturate16(b[31:0])\n");
        assert_eq!(
            text,
            "FOR r0 := 0 to 2\ndst[((r0 * 16) + 15):((r0 * 16) + 0)] := Saturate16(a[((r0 * 32) + 31):((r0 * 32) + 0)])\nENDFOR\ndst[63:48] := Saturate16(b[31:0])"
        );
    }

    #[test]
    fn alternating_pairs_reroll_with_period_two() {
        let text = rerolled("d[7:0] := x[71:64]\nd[15:8] := y[71:64]\nd[23:16] := x[79:72]\nd[31:24] := y[79:72]\n");
        assert!(text.starts_with("FOR r0 := 0 to 1\n"), "{text}");
        assert_eq!(text.lines().count(), 4, "{text}");
    }

    #[test]
    fn uneven_steps_stay_unrolled() {
        let text = rerolled("d[7:0] := x[7:0]\nd[15:8] := x[15:8]\nd[31:16] := x[31:16]\n");
        assert!(!text.contains("FOR r0 := 0 to 2"), "{text}");
    }

    #[test]
    fn lanes_of_element_loops_roll_into_a_loop_nest() {
        // Two 128-bit lanes, each two elements from `a` then two from `b`.
        let text = rerolled(
            "d[15:0] := a[15:0]\nd[31:16] := a[47:32]\nd[47:32] := b[15:0]\nd[63:48] := b[47:32]\n\
             d[143:128] := a[143:128]\nd[159:144] := a[175:160]\nd[175:160] := b[143:128]\nd[191:176] := b[175:160]\n",
        );
        let first = text.lines().next().unwrap_or_default();
        assert!(first.starts_with("FOR r") && first.ends_with(":= 0 to 1"), "{text}");
        assert_eq!(text.matches("FOR ").count(), 3, "{text}");
        assert!(text.contains("* 128)"), "{text}");
    }
}
