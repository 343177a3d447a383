//! `hydride-rules`: synthesizes and proves the offline rewrite rules
//! (`hydride::synth::rules`) and writes them as JSON.

use hydride::synth::grammar::Grammar;
use hydride::synth::target::Isa;

const USAGE: &str = "usage: hydride-rules [--generated-dir DIR | --out FILE]

Finds, for every idiom of passes/src/synth/idioms.rs at every x86 target
(x86-avx512, x86-avx2), the cheapest program of the target's instructions
that computes it, proves it with Z3, proves the identities windows may be
rewritten by (idioms.rs: x86_identities), and writes them to FILE
(default: x86/rules.json under DIR, which defaults to generated).
lower-to-autollvm applies them by equality saturation before it
searches. Progress goes to stderr.";

fn main() {
    let mut out = None;
    let mut generated = "generated".to_string();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => match args.next() {
                Some(f) => out = Some(f),
                None => fail("--out needs a file"),
            },
            "--generated-dir" => match args.next() {
                Some(d) => generated = d,
                None => fail("--generated-dir needs a directory"),
            },
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            other => fail(&format!("unknown argument `{other}`")),
        }
    }
    let out = out.unwrap_or_else(|| format!("{generated}/x86/rules.json"));
    let started = std::time::Instant::now();
    let grammar = Grammar::embedded(Isa::named("x86")).unwrap_or_else(|e| fail(&e.to_string()));
    let mut report = |line: String| eprintln!("hydride-rules: {line}");
    let set = hydride::synth::rules::generate(grammar, &mut report).unwrap_or_else(|e| fail(&e.to_string()));
    let mut text = serde_json::to_string_pretty(&set).unwrap_or_else(|e| fail(&e.to_string()));
    text.push('\n');
    std::fs::write(&out, text).unwrap_or_else(|e| fail(&format!("{out}: {e}")));
    eprintln!(
        "hydride-rules: {} rules from {} idioms x 2 targets and {} proved identities in {:.1} s, written to {out}",
        set.rules.len(),
        set.idioms,
        set.equalities.len(),
        started.elapsed().as_secs_f64()
    );
}

fn fail(why: &str) -> ! {
    eprintln!("hydride-rules: {why}");
    std::process::exit(2)
}
