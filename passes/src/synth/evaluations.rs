//! A memo of concrete instruction evaluations, shared by every search in
//! the process.
//!
//! Screening runs an instruction's pseudocode on sample inputs, and the
//! samples depend only on the window's leaf types (they are seeded), so
//! windows with the same types ask for the same evaluations: the stencils'
//! dozens of windows over `vector<64xi16>` leaves, say. Each answer is a
//! pure function of the instruction and its arguments, so remembering it
//! changes no outcome, only the time. The memo is bounded: a shard that
//! fills up is emptied and refilled.

use super::lane_prefix::LanePrefix;
use dialectgen::eval::{Concrete, Machine};
use dialectgen::sema::ir::Semantics;
use num_bigint::BigUint;
use rustc_hash::FxHashMap;
use std::hash::BuildHasher;
use std::sync::Mutex;

/// Shards (locks) of the memo; searches run on every core.
const SHARDS: usize = 16;

/// Entries per shard before it is emptied. An entry holds an instruction's
/// arguments and result, a few hundred bytes at 512 bits, so the memo stays
/// within some tens of MB.
const SHARD_ENTRIES: usize = 8_192;

/// Candidate index, whether the run is its lane prefix, arguments.
type Key = (usize, bool, Vec<BigUint>);

#[derive(Default)]
pub struct Evaluations {
    shards: [Mutex<FxHashMap<Key, Option<BigUint>>>; SHARDS],
    /// Keys are ours, not an adversary's: the fast hash serves.
    hasher: rustc_hash::FxBuildHasher,
}

impl std::fmt::Debug for Evaluations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evaluations").finish_non_exhaustive()
    }
}

/// What evaluating an instruction needs of it (a grammar's candidate).
pub trait Evaluated {
    fn semantics(&self) -> &Semantics;
    /// Its lane prefix plan, if it has one ([`super::lane_prefix`]).
    fn lane_prefix(&self) -> Option<&LanePrefix>;
}

impl Evaluations {
    /// The result of candidate `index` (which is `c`) on `args`, in its
    /// semantics' order; `None` where its pseudocode fails to evaluate.
    pub fn run(&self, index: usize, c: &impl Evaluated, args: Vec<BigUint>) -> Option<BigUint> {
        self.remembered((index, false, args), |args| Machine::new(&mut Concrete, c.semantics()).run(args).ok())
    }

    /// Whether candidate `index` (which is `c`) may give `want` on `args`:
    /// the bits its lane prefix writes agree with `want` (see
    /// [`super::lane_prefix`]), or, without a plan, its whole result is
    /// `want`. A filter: a candidate that gives `want` is never refused.
    pub fn may_give(&self, index: usize, c: &impl Evaluated, args: Vec<BigUint>, want: &BigUint) -> bool {
        match c.lane_prefix() {
            Some(plan) => self
                .remembered((index, true, args), |args| {
                    Machine::new(&mut Concrete, c.semantics())
                        .run_prefix(args, plan.nth, plan.trips)
                        .ok()
                        .map(|(v, _)| v)
                })
                .is_some_and(|got| plan.agrees(&got, want)),
            None => self.run(index, c, args).as_ref() == Some(want),
        }
    }

    fn remembered(&self, key: Key, run: impl FnOnce(&[BigUint]) -> Option<BigUint>) -> Option<BigUint> {
        let shard = &self.shards[(self.hasher.hash_one(&key) as usize) % SHARDS];
        if let Some(hit) = shard.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return hit.clone();
        }
        let result = run(&key.2);
        let mut map = shard.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= SHARD_ENTRIES {
            map.clear();
        }
        map.insert(key, result.clone());
        result
    }
}
