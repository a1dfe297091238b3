//! `HistCut` against the model's `History::take_periodic` ("Repeated History
//! Optimization"): for every HIST width and both outcomes, the cut and the rest of
//! registers one branch short of full, periodic and random.

use super::*;
use crate::test_rng::xorshift;
use crate::verilog::{generate, lint, yosys_check};
use etrace_ntrace::encoder::history::History;

/// `n - 2` branch bits (one short of a full `n`-bit register, `n` >= 3): each period from
/// 1 to `MAX_PERIOD` repeated (with one bit flipped in some, so that only a longer period
/// or none fits), and random bits.
fn short_of_full(n: usize, seed: u64) -> Vec<u64> {
    let width = n - 2;
    let mask = (1u64 << width) - 1;
    let mut state = seed;
    let mut v = Vec::new();
    for p in 1..=MAX_PERIOD {
        for _ in 0..3 {
            xorshift(&mut state);
            let pattern = state & ((1u64 << p) - 1);
            let repeated = (0..width).fold(0u64, |b, i| b | ((pattern >> (i % p)) & 1) << i);
            v.push(repeated & mask);
            v.push((repeated ^ (1 << ((state >> 40) as usize % width))) & mask);
        }
    }
    for _ in 0..16 {
        xorshift(&mut state);
        v.push(state & mask);
    }
    v.push(0);
    v.push(mask);
    v
}

/// The model's (sent, kept) for the branch bits `bits` of an `n`-bit register filled by
/// `taken`.
fn model_cut(n: usize, bits: u64, taken: bool) -> (u64, u64) {
    let mut h = History::new(n as u32);
    for i in (0..n - 2).rev() {
        h.push(bits >> i & 1 != 0);
    }
    h.push(taken);
    assert!(h.is_full());
    let sent = h.take_periodic();
    (sent, h.value())
}

/// Runs `HistCut::new(n, taken)` on `cases` (branch bits one short of full, and the last
/// full HIST on its port) and returns its (sent, kept) and `same` for each, two cycles
/// after the register is on its port.
fn hardware_cut(n: usize, taken: bool, cases: &[(u64, u64)]) -> Vec<((u64, u64), bool)> {
    let out = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let out_tb = out.clone();
    let todo = cases.to_vec();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<HistCut>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<HistCut>| {
        let mut x = sim.init()?;
        for (bits, last_full) in &todo {
            // The stop bit one below the top, the branch bits under it.
            x.hist.next = ((1u64 << (n - 2)) | bits).into();
            x.last_full.next = (*last_full).into();
            wait_clock_cycle!(sim, clock, x);
            wait_clock_cycle!(sim, clock, x);
            out_tb
                .lock()
                .unwrap()
                .push(((x.sent.val().to_u64(), x.kept.val().to_u64()), x.same.val()));
        }
        sim.done(x)
    });
    let mut uut = HistCut::new(n, taken);
    uut.connect_all();
    sim.run(Box::new(uut), 100 * cases.len() as u64 + 100)
        .unwrap();
    let v = out.lock().unwrap().clone();
    v
}

/// "Repeated History Optimization": the cut at the smallest period and the bits it
/// leaves are the model's, for every width 2..=32 and both outcomes; `same` holds exactly
/// when the last full HIST on the port is that cut (given the model's cut for every other
/// case, and the cut with one bit flipped for the rest).
#[test]
fn repeated_history_cut_is_the_models_for_every_width() {
    for n in 2..=HIST_BITS {
        let bits = if n == 2 {
            vec![0]
        } else {
            short_of_full(n, 0x9e37_79b9 + n as u64)
        };
        for taken in [false, true] {
            let want: Vec<(u64, u64)> = bits.iter().map(|b| model_cut(n, *b, taken)).collect();
            let cases: Vec<(u64, u64)> = bits
                .iter()
                .zip(&want)
                .enumerate()
                .map(|(i, (b, (sent, _)))| (*b, sent ^ (i as u64 & 1) << (i % n)))
                .collect();
            let hw = hardware_cut(n, taken, &cases);
            for (i, ((bits, last_full), got)) in cases.iter().zip(hw).enumerate() {
                assert_eq!(
                    got,
                    (want[i], i % 2 == 0),
                    "hist_bits {n}, branch bits {bits:#x}, taken {taken}, last full \
                     {last_full:#x}: ((sent, kept), same)"
                );
            }
        }
    }
}

/// The cut of each outcome differs somewhere: a block that ignored its outcome would pass
/// the test above for one outcome only.
#[test]
fn the_outcome_changes_the_cut() {
    let n = 9;
    let cases: Vec<(u64, u64)> = short_of_full(n, 7).into_iter().map(|b| (b, 0)).collect();
    assert_ne!(
        hardware_cut(n, false, &cases),
        hardware_cut(n, true, &cases)
    );
}

#[test]
fn hist_cut_verilog() {
    let mut uut = HistCut::new(HIST_BITS, true);
    uut.connect_all();
    let v = generate(&uut);
    yosys_check("hist_cut", &v).unwrap();
    lint("hist_cut", &v).unwrap();
}
