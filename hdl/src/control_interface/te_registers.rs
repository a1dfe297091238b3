//! `TeRegisters`: `trTeControl`, `trTeImpl` and `trTeInstFeatures` of a trace encoder
//! (Trace Control Interface 1.0, "Trace Encoder Control Interface" and "Reset and
//! Discovery"; E-Trace 2.0 `control.adoc`; N-Trace 1.0 "N-Trace Specific Trace
//! Controls"). The protocol (E-Trace, or N-Trace with BTM, HTM or both) is a generation
//! parameter ([`TeImplementation::protocol`]). The golden model, with what is implemented
//! and how each field behaves: `etrace_spec::trace_control::registers`.

use rust_hdl::prelude::*;

use crate::ingress::inputs::OptionsSource;
use crate::logic::resync::RESYNC_MAX_BITS;
use etrace_spec::trace_control::map::{self, control, features};
use etrace_spec::trace_control::registers::{
    TeImplementation, TeProtocol, TeRegisters as Model, ETRACE_INST_MODE, INST_MODE_BTM,
    INST_MODE_HTM, RESET_SYNC_MAX, RESET_SYNC_MODE,
};

/// Width of the word address of the register window (4 KiB of 32-bit registers).
pub const WORD_ADDRESS_BITS: usize = 10;

const _: () = assert!(1 << (WORD_ADDRESS_BITS + 2) == map::WINDOW_BYTES as usize);

/// The register file: a simple synchronous register port (`write` with `write_data` at
/// `address` takes effect at the clock edge; `read_data` is the register at `address`
/// now, reads have no side effects) and what the encoder's inputs see.
///
/// The encoder is held in reset while `active` is low; `trace_enable` drives the
/// encoder's trace enable, `options` its run-time options and `htm` (N-Trace) its mode
/// (stable while `trTeEnable` is set).
///
/// An E-Trace build hard-codes `trTeInstMode` 7 ("Register: trTeControl"; `control.adoc`
/// `sec:ctl-modes`); an N-Trace build stores it in bits 6:4 of `control_q` (3 BTM, 6 HTM,
/// as the build has them; "N-Trace Specific Trace Controls").
#[derive(LogicBlock)]
pub struct TeRegisters {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Power-up reset (synchronous, active high): `trTeActive` and `trTeEnable` clear.
    pub reset: Signal<In, Bit>,
    /// Word address in the window (byte offset / 4).
    pub address: Signal<In, Bits<WORD_ADDRESS_BITS>>,
    /// Write `write_data` at `address` at the clock edge.
    pub write: Signal<In, Bit>,
    /// The value to write.
    pub write_data: Signal<In, Bits<32>>,
    /// The register at `address`.
    pub read_data: Signal<Out, Bits<32>>,
    /// The output path holds no trace (`trTeEmpty`).
    pub empty: Signal<In, Bit>,
    /// Trace was lost in this cycle (sets `trTeInstStallOrOverflow`).
    pub lost: Signal<In, Bit>,
    /// `trTeActive`: the encoder runs (low: hold it in reset).
    pub active: Signal<Out, Bit>,
    /// `trTeActive`, `trTeEnable` and `trTeInstTracing` set: the encoder's trace enable.
    pub trace_enable: Signal<Out, Bit>,
    /// The run-time options of `trTeInstFeatures` and `trTeInstSyncMode` / `Max`.
    pub options: OptionsSource,
    /// `trTeInstMode` is 6: N-Trace History Trace Messaging (else BTM; always low in an
    /// E-Trace build). N-Trace 1.0 "N-Trace Specific Trace Controls", `trTeInstMode`.
    pub htm: Signal<Out, Bit>,
    /// The stored fields of `trTeControl` at their positions (`trTeActive`, `trTeEnable`,
    /// `trTeInstTracing`, `trTeInstStallOrOverflow`, `trTeInstSyncMode`, `trTeInstSyncMax`,
    /// N-Trace: `trTeInstMode`).
    control_q: DFF<Bits<32>>,
    /// The option bits of `trTeInstFeatures` at their positions.
    features_q: DFF<Bits<32>>,
    write_control: Signal<Local, Bit>,
    deactivate: Signal<Local, Bit>,
    set_overflow: Signal<Local, Bit>,
    clear_overflow: Signal<Local, Bit>,
    with_enable: Signal<Local, Bits<32>>,
    sync_mode_field: Signal<Local, Bits<32>>,
    sync_max_field: Signal<Local, Bits<32>>,
    mode_field: Signal<Local, Bits<32>>,
    with_sync: Signal<Local, Bits<32>>,
    with_clear: Signal<Local, Bits<32>>,
    chosen: Signal<Local, Bits<32>>,
    control_read: Signal<Local, Bits<32>>,
    writable_options: Constant<Bits<32>>,
    sync_max_limit_field: Constant<Bits<32>>,
    src_bits_field: Constant<Bits<32>>,
    fixed_control: Constant<Bits<32>>,
    impl_word: Constant<Bits<32>>,
    reset_control: Constant<Bits<32>>,
    resync_base: Constant<Bits<RESYNC_MAX_BITS>>,
    keep_but_enable: Constant<Bits<32>>,
    keep_but_sync: Constant<Bits<32>>,
    keep_but_overflow: Constant<Bits<32>>,
    /// The `trTeInstMode` field, and its values 3 (BTM) and 6 (HTM), in place.
    mode_mask: Constant<Bits<32>>,
    mode_btm: Constant<Bits<32>>,
    mode_htm: Constant<Bits<32>>,
    /// `trTeInstMode` 3 (BTM) can be written.
    btm_writable: Constant<Bit>,
    /// `trTeInstMode` 6 (HTM) can be written.
    htm_writable: Constant<Bit>,
}

impl TeRegisters {
    /// The registers of a build that implements `implementation` (its
    /// `sync_max_limit` must fit the encoder's resync counter).
    pub fn new(implementation: TeImplementation) -> Self {
        assert!(
            (implementation.sync_max_limit as usize) + 4 < RESYNC_MAX_BITS,
            "trTeInstSyncMax limit {} does not fit a {RESYNC_MAX_BITS}-bit resync counter",
            implementation.sync_max_limit
        );
        assert!(
            implementation.src_bits <= 12,
            "trTeSrcBits {}",
            implementation.src_bits
        );
        let model = Model::new(implementation);
        // The read-only parts of the two words, as the model reads them.
        let impl_word = model.read(map::TR_TE_IMPL, false);
        let protocol = implementation.protocol;
        // trTeFormat; E-Trace: trTeInstMode 7 (N-Trace stores it in control_q).
        let (fixed_mode, reset_mode) = match protocol {
            TeProtocol::ETrace => (ETRACE_INST_MODE, 0),
            TeProtocol::NTrace(_) => (0, protocol.reset_mode()),
        };
        let fixed_control =
            control::INST_MODE.put(fixed_mode) | control::FORMAT.put(protocol.format());
        let writable =
            |mode| matches!(protocol, TeProtocol::NTrace(_)) && protocol.implements_mode(mode);
        let src_bits_field = features::SRC_BITS.put(implementation.src_bits);
        let word = |v: u32| Constant::new(Bits::<32>::from(u64::from(v)));
        TeRegisters {
            clock: Default::default(),
            reset: Default::default(),
            address: Default::default(),
            write: Default::default(),
            write_data: Default::default(),
            read_data: Default::default(),
            empty: Default::default(),
            lost: Default::default(),
            active: Default::default(),
            trace_enable: Default::default(),
            options: Default::default(),
            htm: Default::default(),
            control_q: Default::default(),
            features_q: Default::default(),
            write_control: Default::default(),
            deactivate: Default::default(),
            set_overflow: Default::default(),
            clear_overflow: Default::default(),
            with_enable: Default::default(),
            sync_mode_field: Default::default(),
            sync_max_field: Default::default(),
            mode_field: Default::default(),
            with_sync: Default::default(),
            with_clear: Default::default(),
            chosen: Default::default(),
            control_read: Default::default(),
            writable_options: word(model.writable_options()),
            sync_max_limit_field: word(control::INST_SYNC_MAX.put(implementation.sync_max_limit)),
            src_bits_field: word(src_bits_field),
            fixed_control: word(fixed_control),
            impl_word: word(impl_word),
            reset_control: word(
                control::INST_SYNC_MODE.put(RESET_SYNC_MODE)
                    | control::INST_SYNC_MAX.put(RESET_SYNC_MAX)
                    | control::INST_MODE.put(reset_mode),
            ),
            resync_base: Constant::new(bits::<RESYNC_MAX_BITS>(16)),
            keep_but_enable: word(!(control::ENABLE.put(1) | control::INST_TRACING.put(1))),
            keep_but_sync: word(
                !(control::INST_SYNC_MODE.put(u32::MAX)
                    | control::INST_SYNC_MAX.put(u32::MAX)
                    | control::INST_MODE.put(u32::MAX)),
            ),
            keep_but_overflow: word(!control::INST_STALL_OR_OVERFLOW.put(1)),
            mode_mask: word(control::INST_MODE.put(u32::MAX)),
            mode_btm: word(control::INST_MODE.put(INST_MODE_BTM)),
            mode_htm: word(control::INST_MODE.put(INST_MODE_HTM)),
            btm_writable: Constant::new(writable(INST_MODE_BTM)),
            htm_writable: Constant::new(writable(INST_MODE_HTM)),
        }
    }
}

impl Logic for TeRegisters {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, control_q, features_q);
        // Writes (the model's `TeRegisters::write` and `cycle`).
        self.write_control.next = self.write.val() && (self.address.val() == 0);
        self.deactivate.next = self.write_control.val() && !self.write_data.val().get_bit(0);
        // trTeEnable and trTeInstTracing as written.
        self.with_enable.next =
            (self.control_q.q.val() & self.keep_but_enable.val()) | (self.write_data.val() & 6);
        // trTeInstSyncMode: 0 or 1 as written, 2 and 3 keep the mode.
        self.sync_mode_field.next = self.write_data.val() & 0x0001_0000;
        if self.write_data.val().get_bit(17) {
            self.sync_mode_field.next = self.control_q.q.val() & 0x0001_0000;
        }
        // trTeInstSyncMax: at most the limit.
        self.sync_max_field.next = self.write_data.val() & 0x00F0_0000;
        if (self.write_data.val() & 0x00F0_0000) > self.sync_max_limit_field.val() {
            self.sync_max_field.next = self.sync_max_limit_field.val();
        }
        // trTeInstMode (N-Trace): 3 or 6 as the build has them, else the mode stays (an
        // E-Trace build keeps 0 here and reads the hard-coded 7).
        self.mode_field.next = self.control_q.q.val() & self.mode_mask.val();
        if self.btm_writable.val()
            && ((self.write_data.val() & self.mode_mask.val()) == self.mode_btm.val())
        {
            self.mode_field.next = self.mode_btm.val();
        }
        if self.htm_writable.val()
            && ((self.write_data.val() & self.mode_mask.val()) == self.mode_htm.val())
        {
            self.mode_field.next = self.mode_htm.val();
        }
        // The synchronisation fields and the mode change only while trTeEnable is 0.
        self.with_sync.next = self.with_enable.val();
        if !self.control_q.q.val().get_bit(1) {
            self.with_sync.next = (self.with_enable.val() & self.keep_but_sync.val())
                | self.sync_mode_field.val()
                | self.sync_max_field.val()
                | self.mode_field.val();
        }
        // trTeInstStallOrOverflow: write 1 to clear, cleared when trTeEnable rises.
        self.clear_overflow.next = self.write_data.val().get_bit(12)
            || (self.write_data.val().get_bit(1) && !self.control_q.q.val().get_bit(1));
        self.with_clear.next = self.with_sync.val();
        if self.clear_overflow.val() {
            self.with_clear.next = self.with_sync.val() & self.keep_but_overflow.val();
        }
        self.chosen.next = self.control_q.q.val();
        if self.write_control.val() {
            if self.control_q.q.val().get_bit(0) {
                self.chosen.next = self.with_clear.val();
            } else {
                // Release from reset: trTeActive only.
                self.chosen.next = self.control_q.q.val() | (self.write_data.val() & 1);
            }
        }
        self.set_overflow.next =
            self.lost.val() && self.control_q.q.val().get_bit(0) && !self.deactivate.val();
        self.control_q.d.next = self.chosen.val();
        if self.set_overflow.val() {
            self.control_q.d.next = self.chosen.val() | 0x1000;
        }
        if self.write.val()
            && (self.address.val() == 2)
            && self.control_q.q.val().get_bit(0)
            && !self.control_q.q.val().get_bit(1)
        {
            self.features_q.d.next = self.write_data.val() & self.writable_options.val();
        }
        if self.deactivate.val() || self.reset.val() {
            self.control_q.d.next = self.reset_control.val();
            self.features_q.d.next = 0.into();
        }
        // Reads.
        self.control_read.next = self.control_q.q.val() | self.fixed_control.val();
        if self.empty.val() {
            self.control_read.next = self.control_q.q.val() | self.fixed_control.val() | 8;
        }
        self.read_data.next = 0.into();
        if self.address.val() == 0 {
            self.read_data.next = self.control_read.val();
        }
        if self.address.val() == 1 {
            self.read_data.next = self.impl_word.val();
        }
        if self.address.val() == 2 {
            self.read_data.next = self.features_q.q.val() | self.src_bits_field.val();
        }
        // What the encoder sees.
        self.active.next = self.control_q.q.val().get_bit(0);
        self.trace_enable.next = self.control_q.q.val().get_bit(0)
            && self.control_q.q.val().get_bit(1)
            && self.control_q.q.val().get_bit(2);
        self.options.full_address.next = self.features_q.q.val().get_bit(0);
        self.options.implicit_exception.next = self.features_q.q.val().get_bit(1);
        self.options.sijump_option.next = self.features_q.q.val().get_bit(2);
        self.options.implicit_return.next = self.features_q.q.val().get_bit(3);
        self.options.branch_prediction.next = self.features_q.q.val().get_bit(4);
        self.options.resync_max.next = 0.into();
        if self.control_q.q.val().get_bit(16) {
            self.options.resync_max.next =
                self.resync_base.val() << self.control_q.q.val().get_bits::<4>(20);
        }
        self.htm.next = (self.control_q.q.val() & self.mode_mask.val()) == self.mode_htm.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::xorshift;
    use crate::verilog::{generate, lint, yosys_check};
    use etrace_spec::trace_control::registers::{NtraceModes, TeSettings};
    use std::sync::{Arc, Mutex};

    /// One cycle of stimulus: an optional write (byte offset, value), the address read,
    /// `empty`, `lost`.
    type Cycle = (Option<(u32, u32)>, u32, bool, bool);

    /// Seeded random bus traffic biased to the implemented registers and the values that
    /// walk the enable sequence.
    fn stimulus(seed: u64, n: usize) -> Vec<Cycle> {
        let mut s = seed;
        let mut next = move || {
            xorshift(&mut s);
            s
        };
        let offsets = [0x000, 0x004, 0x008, 0x00C, 0x010, 0x3FC, 0xFFC];
        let controls = [
            0x0,
            0x1,
            0x3,
            0x7,
            0x1007,
            0x00F1_0001,
            0x0034_0005,
            0x0002_0001,
            // trTeInstMode 3 and 6 (N-Trace BTM, HTM), and 0 (kept).
            0x0000_0031,
            0x0000_0061,
            0x0041_0067,
            0x0000_0001,
        ];
        (0..n)
            .map(|_| {
                let r = next();
                let write = (r % 3 == 0).then(|| {
                    let offset = offsets[(r >> 8) as usize % 3];
                    let value = match (r >> 12) % 3 {
                        0 => controls[(r >> 16) as usize % controls.len()],
                        1 => (r >> 20) as u32 & 0x1F,
                        _ => (r >> 32) as u32,
                    };
                    let offset = if (r >> 40) % 16 == 0 {
                        offsets[(r >> 44) as usize % offsets.len()]
                    } else {
                        offset
                    };
                    (offset, value)
                });
                let read = offsets[(r >> 48) as usize % offsets.len()];
                (write, read, (r >> 56) & 1 == 1, (r >> 57) % 8 == 0)
            })
            .collect()
    }

    fn check(implementation: TeImplementation, seed: u64) {
        let cycles = stimulus(seed, 4000);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let seen_tb = seen.clone();
        let stim = cycles.clone();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<TeRegisters>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<TeRegisters>| {
            let mut x = sim.init()?;
            x.reset.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.reset.next = false;
            for &(write, read, empty, lost) in &stim {
                // Before the edge: what is read and what the encoder sees now.
                x.address.next = u64::from(read >> 2).into();
                x.empty.next = empty;
                x.write.next = false;
                x = sim.wait(1, x)?;
                let o = &x.options;
                seen_tb.lock().unwrap().push((
                    x.read_data.val().index() as u32,
                    TeSettings {
                        active: x.active.val(),
                        trace_enable: x.trace_enable.val(),
                        full_address: o.full_address.val(),
                        implicit_exception: o.implicit_exception.val(),
                        sijump: o.sijump_option.val(),
                        implicit_return: o.implicit_return.val(),
                        branch_prediction: o.branch_prediction.val(),
                        resync_max: o.resync_max.val().index() as u32,
                        htm: x.htm.val(),
                    },
                ));
                if let Some((offset, value)) = write {
                    x.address.next = u64::from(offset >> 2).into();
                    x.write_data.next = u64::from(value).into();
                    x.write.next = true;
                }
                x.lost.next = lost;
                wait_clock_cycle!(sim, clock, x);
            }
            sim.done(x)
        });
        let mut uut = TeRegisters::new(implementation);
        uut.connect_all();
        sim.run(Box::new(uut), 1_000_000).unwrap();

        let mut model = Model::new(implementation);
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), cycles.len());
        let (mut enabled, mut options, mut htm) = (0, 0, 0);
        for (i, (&(write, read, empty, lost), (data, settings))) in
            cycles.iter().zip(seen.iter()).enumerate()
        {
            let want = model.settings();
            assert_eq!(
                *data,
                model.read(read, empty),
                "cycle {i}: read at {read:#05x}"
            );
            assert_eq!(*settings, want, "cycle {i}: settings");
            enabled += usize::from(want.trace_enable);
            options += usize::from(want.branch_prediction || want.implicit_return || want.sijump);
            htm += usize::from(want.htm);
            model.cycle(write, lost);
        }
        assert!(
            enabled > 200 && options > 100,
            "stimulus reaches tracing: {enabled}, {options}"
        );
        if implementation.protocol == TeProtocol::NTrace(NtraceModes::BtmAndHtm) {
            assert!(
                htm > 200 && htm + 200 < cycles.len(),
                "stimulus switches between BTM and HTM: {htm}"
            );
        }
    }

    fn ntrace(modes: NtraceModes, src_bits: u32) -> TeImplementation {
        TeImplementation {
            protocol: TeProtocol::NTrace(modes),
            branch_prediction: true,
            implicit_return: src_bits > 0,
            src_bits,
            sync_max_limit: 11,
        }
    }

    /// Trace Control Interface 1.0 "Trace Encoder Control Interface" with N-Trace 1.0
    /// "N-Trace Specific Trace Controls": the N-Trace builds (BTM, HTM, both) under the
    /// same random bus traffic as the model, every read and output compared.
    #[test]
    fn n_trace_specific_trace_controls_registers_match_the_model() {
        check(ntrace(NtraceModes::Btm, 0), 0x5851_F42D_4C95_7F2D);
        check(ntrace(NtraceModes::Htm, 8), 0x1405_7B7E_F767_814F);
        check(ntrace(NtraceModes::BtmAndHtm, 12), 0xD1B5_4A32_D192_ED03);
    }

    /// Trace Control Interface 1.0 "Register: trTeControl" (`trTeInstMode` WARL,
    /// `trTeFormat`), "Register: trTeImpl" (protocol version) and N-Trace 1.0 "N-Trace
    /// Specific Trace Controls" (hard-coded 0 features): one write sequence, the reads
    /// after each write on the block equal to the model's, for every build kind.
    #[test]
    fn n_trace_specific_trace_controls_write_sequence() {
        let writes: &[(u32, u32)] = &[
            (0x000, 0x0000_0061), // trTeActive only (the mode is not taken)
            (0x000, 0x0000_0061), // HTM
            (0x008, 0xFFFF_FFFF), // every option: N-Trace keeps 2 and 3 only
            (0x000, 0x0000_0001), // 0: keeps the mode
            (0x000, 0x0000_0051), // 5: keeps it
            (0x000, 0x0000_0031), // BTM
            (0x000, 0x0000_0077), // enable, 7: keeps BTM
            (0x000, 0x0000_0067), // enabled: HTM not taken
            (0x008, 0x0000_0013), // enabled: options locked
            (0x000, 0x0000_0061), // disable (mode not taken: trTeEnable was 1)
            (0x000, 0x0000_0061), // HTM
            (0x000, 0x0000_0000), // reset: the build's reset mode
        ];
        let builds = [
            TeImplementation::default(),
            ntrace(NtraceModes::Btm, 0),
            ntrace(NtraceModes::Htm, 4),
            ntrace(NtraceModes::BtmAndHtm, 8),
        ];
        for implementation in builds {
            let offsets = [0x000, 0x004, 0x008];
            let seen = Arc::new(Mutex::new(Vec::new()));
            let seen_tb = seen.clone();
            let mut sim = Simulation::new();
            sim.add_clock(5, |x: &mut Box<TeRegisters>| x.clock.next = !x.clock.val());
            sim.add_testbench(move |mut sim: Sim<TeRegisters>| {
                let mut x = sim.init()?;
                x.reset.next = true;
                wait_clock_cycle!(sim, clock, x);
                x.reset.next = false;
                for &(offset, value) in writes.iter().chain([(0x00C, 0)].iter()) {
                    let mut reads = Vec::new();
                    for read in offsets {
                        x.address.next = u64::from(read >> 2).into();
                        x.empty.next = true;
                        x = sim.wait(1, x)?;
                        reads.push(x.read_data.val().index() as u32);
                    }
                    seen_tb.lock().unwrap().push((reads, x.htm.val()));
                    x.address.next = u64::from(offset >> 2).into();
                    x.write_data.next = u64::from(value).into();
                    x.write.next = true;
                    wait_clock_cycle!(sim, clock, x);
                    x.write.next = false;
                }
                sim.done(x)
            });
            let mut uut = TeRegisters::new(implementation);
            uut.connect_all();
            sim.run(Box::new(uut), 100_000).unwrap();
            let mut model = Model::new(implementation);
            let seen = seen.lock().unwrap();
            assert_eq!(seen.len(), writes.len() + 1);
            for (i, (reads, htm)) in seen.iter().enumerate() {
                let want: Vec<u32> = offsets.iter().map(|&o| model.read(o, true)).collect();
                assert_eq!(*reads, want, "{implementation:?}: after write {i}");
                assert_eq!(*htm, model.settings().htm, "{implementation:?}: htm {i}");
                if let Some(&(offset, value)) = writes.get(i) {
                    model.write(offset, value);
                }
            }
        }
    }

    #[test]
    fn trace_control_interface_registers_match_the_model() {
        check(TeImplementation::default(), 0x9E37_79B9_7F4A_7C15);
        check(
            TeImplementation {
                protocol: TeProtocol::ETrace,
                branch_prediction: true,
                implicit_return: true,
                src_bits: 8,
                sync_max_limit: 11,
            },
            0x2545_F491_4F6C_DD1D,
        );
    }

    /// The generated Verilog of the E-Trace build and of the N-Trace builds passes yosys
    /// (no latch, no loop) and the Verilator lint of `scripts/check-verilog.sh`.
    #[test]
    fn trace_control_interface_registers_verilog() {
        for implementation in [
            TeImplementation::default(),
            ntrace(NtraceModes::Btm, 0),
            ntrace(NtraceModes::Htm, 4),
            ntrace(NtraceModes::BtmAndHtm, 8),
        ] {
            let mut uut = TeRegisters::new(implementation);
            uut.connect_all();
            let v = generate(&uut);
            yosys_check("te_registers", &v).unwrap();
            lint("te_registers", &v).unwrap();
        }
    }
}
