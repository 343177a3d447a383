//! `hydride-recovery --target T`: prints, one JSON object per line, every
//! instruction target T's synthesis may use, with the function that asks
//! for exactly what it does (its expansion), for `scripts/recovery`.

use hydride::synth::target::Target;

const USAGE: &str = "usage: hydride-recovery --target TARGET

Prints one JSON object per instruction of TARGET's grammar: its name, its
dialect op and autollvm class op, its cost, whether its lowering is generic
IR, and `function`: {\"Ok\": MLIR} (its expansion at an immediate in range)
or {\"Err\": why there is none}. scripts/recovery lowers each function and
judges the result.";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let target = match args.as_slice() {
        [flag, t] if flag == "--target" => t.clone(),
        [h] if h == "-h" || h == "--help" => {
            println!("{USAGE}");
            return;
        }
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    };
    let target = Target::parse(&target).unwrap_or_else(|e| {
        eprintln!("hydride-recovery: {e}");
        std::process::exit(2);
    });
    match hydride::recovery::probes(target) {
        Ok(probes) => {
            for p in probes {
                println!("{}", serde_json::to_string(&p).expect("a probe serializes"));
            }
        }
        Err(e) => {
            eprintln!("hydride-recovery: {e}");
            std::process::exit(1);
        }
    }
}
