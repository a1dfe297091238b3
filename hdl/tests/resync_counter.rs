//! The resync counter block (`exampleAlgorithm.adoc`, section `sec:resync`) in rust-hdl's
//! simulator against the model's `ResyncCounter`, cycle by cycle, including runs of more
//! than 65535 packets without a sync (the hardware's 16-bit count and overflow flag must
//! keep `>max_resync` true where the model's count goes on growing).

use etrace_encoder::resync::ResyncCounter;
use etrace_hdl::logic::resync::ResyncCounter as HwResyncCounter;
use etrace_spec::ingress::random::Rng;
use rust_hdl::prelude::*;
use std::sync::{Arc, Mutex};

/// One cycle's packets: trace enable (`clear`: the count restarts with the enable support
/// packet), or `others` counted packets (0-2), then a sync packet if `sync`.
#[derive(Debug, Clone, Copy)]
struct Cycle {
    clear: bool,
    others: u8,
    sync: bool,
}

/// The flags of one cycle: at max, exceeded, exceeded after one more.
type Flags = (bool, bool, bool);

fn model_flags(cycles: &[Cycle], max: u32) -> Vec<Flags> {
    let mut counter = ResyncCounter::new(max);
    let mut out = Vec::with_capacity(cycles.len());
    for c in cycles {
        out.push((
            counter.at_max(),
            counter.exceeded(),
            counter.exceeded_after_one_more(),
        ));
        if c.clear {
            counter = ResyncCounter::new(max);
            counter.packet_sent(false);
            continue;
        }
        for _ in 0..c.others {
            counter.packet_sent(false);
        }
        if c.sync {
            counter.packet_sent(true);
        }
    }
    out
}

fn hardware_flags(cycles: &[Cycle], max: u32) -> Vec<Flags> {
    let out = Arc::new(Mutex::new(Vec::with_capacity(cycles.len())));
    let out_tb = out.clone();
    let stim = cycles.to_vec();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<HwResyncCounter>| {
        x.clock.next = !x.clock.val()
    });
    sim.add_testbench(move |mut sim: Sim<HwResyncCounter>| {
        let mut x = sim.init()?;
        // `resync_max` one cycle ahead of the first trace enable (the stimulus starts
        // with one), as the input stage gives it.
        x.resync_max_ahead.next = u64::from(max).into();
        x.clear.next = false;
        x.restart.next = false;
        x.none.next = true;
        x.two.next = false;
        wait_clock_true!(sim, clock, x);
        wait_clock_cycle!(sim, clock, x);
        for c in &stim {
            x.clear.next = c.clear;
            x.restart.next = c.clear || c.sync;
            x.none.next = !c.clear && c.others == 0;
            x.two.next = !c.clear && c.others == 2;
            x = sim.wait(1, x)?;
            let (at_max, exceeded) = (x.at_max.val(), x.exceeded.val());
            out_tb
                .lock()
                .unwrap()
                .push((at_max, exceeded, at_max || exceeded));
            wait_clock_cycle!(sim, clock, x);
        }
        sim.done(x)
    });
    let mut uut = HwResyncCounter::default();
    uut.connect_all();
    sim.run(Box::new(uut), 10 * cycles.len() as u64 + 100)
        .unwrap();
    let v = out.lock().unwrap().clone();
    v
}

/// Trace enable, then random cycles with syncs and restarts; with `long_run`, then a run
/// long enough to pass 65535 packets, a sync and more random cycles.
fn stimulus(seed: u64, long_run: bool) -> Vec<Cycle> {
    let mut rng = Rng::new(seed);
    let mut cycles = vec![Cycle {
        clear: true,
        others: 1,
        sync: false,
    }];
    let random = |rng: &mut Rng, n: usize, cycles: &mut Vec<Cycle>| {
        for _ in 0..n {
            let r = rng.next_u64();
            cycles.push(Cycle {
                clear: r % 151 == 0,
                others: ((r >> 8) % 3) as u8,
                sync: (r >> 16) % 61 == 0,
            });
        }
    };
    random(&mut rng, 3000, &mut cycles);
    if !long_run {
        return cycles;
    }
    // 70000 packets without a sync or restart, mostly 2 per cycle.
    let mut packets = 0u32;
    while packets < 70_000 {
        let others = [0, 1, 2, 2, 2, 2, 2, 2][(rng.next_u64() % 8) as usize];
        packets += u32::from(others);
        cycles.push(Cycle {
            clear: false,
            others,
            sync: false,
        });
    }
    cycles.push(Cycle {
        clear: false,
        others: 0,
        sync: true,
    });
    random(&mut rng, 3000, &mut cycles);
    cycles
}

#[test]
fn sec_resync_counter_blocks_match_model_across_16_bit_overflow() {
    // Past 65535 packets only where it matters: the largest maxima. Small maxima cover
    // the restart flags (`left` 0 to 6 right after a restart).
    let cases = [
        (0u32, false),
        (1, false),
        (2, false),
        (3, false),
        (4, false),
        (5, false),
        (6, false),
        (7, false),
        (8, false),
        (100, false),
        (65534, true),
        (65535, true),
    ];
    for (i, (max, long_run)) in cases.into_iter().enumerate() {
        let cycles = stimulus(0x9e37_79b9_7f4a_7c15 ^ i as u64, long_run);
        let want = model_flags(&cycles, max);
        let got = hardware_flags(&cycles, max);
        assert_eq!(got.len(), want.len());
        if let Some(at) = (0..want.len()).find(|&k| got[k] != want[k]) {
            panic!(
                "resync_max {max}: cycle {at} ({:?}): hardware (at_max, exceeded, \
                 after_one) = {:?}, model = {:?}",
                cycles[at], got[at], want[at]
            );
        }
        // The run is meaningful: the flags took both values.
        if max != 0 {
            assert!(want.iter().any(|f| f.1) && want.iter().any(|f| !f.1));
        }
    }
}
