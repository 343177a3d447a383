//! One priced piece of code, and a sequence's price from its pieces.

use serde::{Deserialize, Serialize};

/// Resources one machine instruction may use: a mask over the CPU's
/// resources (`CpuTable::resources`) and the cycles it keeps them busy.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PortUse(pub u32, pub f64);

/// What a piece of code costs alone on one CPU.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Price {
    /// Reciprocal throughput alone (llvm-mca's block reciprocal throughput), cycles.
    pub rthroughput: f64,
    /// Sum of its machine instructions' latencies, cycles.
    pub latency: u32,
    /// Micro-ops issued.
    pub uops: u32,
    /// Machine instructions.
    pub instructions: u32,
    /// Per machine instruction, the resources it may use.
    pub ports: Vec<PortUse>,
}

impl Price {
    /// The price of running all of `pieces` once each, independently: the
    /// busiest set of resources (the cycles of all uses confined to a set,
    /// over its size, for every union of the pieces' masks) or the
    /// dispatch width, whichever binds.
    pub fn throughput_of<'a>(pieces: impl IntoIterator<Item = &'a Price>, dispatch_width: u32) -> f64 {
        let mut uses: Vec<PortUse> = Vec::new();
        let mut uops = 0u32;
        for p in pieces {
            uops += p.uops;
            for u in &p.ports {
                match uses.iter_mut().find(|v| v.0 == u.0) {
                    Some(v) => v.1 += u.1,
                    None => uses.push(*u),
                }
            }
        }
        let dispatch = uops as f64 / dispatch_width.max(1) as f64;
        let masks: Vec<u32> = uses.iter().map(|u| u.0).filter(|m| *m != 0).collect();
        // Few distinct masks (a CPU has at most a few dozen resources and an
        // instruction mix a handful of port groups): every union is tried.
        let mut busiest = 0f64;
        let n = masks.len().min(16);
        for pick in 1u32..(1 << n) {
            let set = (0..n).filter(|i| pick & (1 << i) != 0).fold(0u32, |s, i| s | masks[i]);
            let load: f64 = uses.iter().filter(|u| u.0 != 0 && u.0 & !set == 0).map(|u| u.1).sum();
            busiest = busiest.max(load / set.count_ones() as f64);
        }
        busiest.max(dispatch)
    }

    /// `self` run `n` times.
    pub fn times(&self, n: u32) -> Price {
        Price {
            rthroughput: self.rthroughput * n as f64,
            latency: self.latency * n,
            uops: self.uops * n,
            instructions: self.instructions * n,
            ports: self.ports.iter().map(|u| PortUse(u.0, u.1 * n as f64)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(mask: u32, uops: u32) -> Price {
        Price { rthroughput: 1.0, latency: 1, uops, instructions: 1, ports: vec![PortUse(mask, uops as f64)] }
    }

    #[test]
    fn a_shared_port_binds_where_a_sum_would_not() {
        // Two shuffles on port 5 and two adds on ports 0, 1 or 5: the adds
        // go to 0 and 1, the shuffles queue on 5 (2 cycles, not 4 / 3).
        let shuffle = one(0b100, 1);
        let add = one(0b111, 1);
        let t = Price::throughput_of([&shuffle, &shuffle, &add, &add], 8);
        assert!((t - 2.0).abs() < 1e-9, "{t}");
        // Three more adds fill ports 0, 1 and 5 evenly.
        let t = Price::throughput_of([&shuffle, &shuffle, &add, &add, &add, &add, &add], 8);
        assert!((t - 7.0 / 3.0).abs() < 1e-9, "{t}");
    }

    #[test]
    fn dispatch_width_binds_a_mix_of_free_ports() {
        let a = one(0b01, 1);
        let b = one(0b10, 1);
        assert!((Price::throughput_of([&a, &b, &a, &b], 2) - 2.0).abs() < 1e-9);
        assert!((Price::throughput_of([&a, &b, &a, &b], 8) - 2.0).abs() < 1e-9);
        assert!((Price::throughput_of([&a, &b], 8) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn times_scales_every_figure() {
        let p = one(0b1, 2).times(3);
        assert_eq!((p.uops, p.instructions, p.latency), (6, 3, 3));
        assert_eq!(p.ports, vec![PortUse(1, 6.0)]);
    }
}
