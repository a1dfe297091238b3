//! FPGA board builds (`docs/cli.md` boards: `icebreaker`, `hx8k-breakout`, `ulx3s-25f`,
//! `ulx3s-85f`): a top that replays a program's ingress trace from block RAM into the
//! encoder and sends the encoder's encap byte stream on the board's USB-UART
//! ([`board_top::BoardTop`]), and the generation of its Verilog ([`generate`]).
//!
//! The design runs at the board's oscillator clock (no PLL): 12 MHz on the iCE40 boards,
//! 25 MHz on the ULX3S. Pins are in `constraints/` (embedded here, [`Board::constraints`]).

pub mod board_top;
pub mod core_shell;
pub mod ntrace_top;
pub mod power_on_reset;
pub mod replay;
pub mod stretch;
pub mod uart_tx;

use rust_hdl::prelude::*;

use etrace_spec::ingress::IngressRecord;

use crate::config::Config;
use crate::ntrace::top::{check_options, NtraceTopError, NtraceTopOptions};
use crate::top::TopError;
use crate::verilog::{generate_named, waive_unused};
pub use board_top::BoardEncoder;
use board_top::{BoardSettings, BoardTop, Ulx3sTop};
use ntrace_top::{NtraceBoardTop, NtraceUlx3sTop};

/// Address bits of the board's replay table.
pub const REPLAY_ADDRESS_BITS: usize = 9;
/// Records the board's replay table holds (2^[`REPLAY_ADDRESS_BITS`]).
pub const REPLAY_DEPTH: usize = 1 << REPLAY_ADDRESS_BITS;

/// FPGA family of a board: decides the synthesis and place-and-route flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Lattice iCE40 (yosys `synth_ice40`, nextpnr-ice40, icepack).
    Ice40,
    /// Lattice ECP5 (yosys `synth_ecp5`, nextpnr-ecp5, ecppack).
    Ecp5,
}

/// A supported board (`docs/cli.md`, `--board`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Board {
    /// 1BitSquared iCEBreaker: iCE40UP5K-SG48, 12 MHz oscillator, FT2232H UART.
    Icebreaker,
    /// Lattice iCE40-HX8K breakout board: iCE40HX8K-CT256, 12 MHz, FT2232H UART.
    Hx8kBreakout,
    /// Radiona ULX3S with the ECP5 LFE5U-25F (CABGA381), 25 MHz, FT231X UART.
    Ulx3s25f,
    /// Radiona ULX3S with the ECP5 LFE5U-85F (CABGA381), 25 MHz, FT231X UART.
    Ulx3s85f,
}

/// A board name that is not one of [`Board::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown board `{0}` (expected one of icebreaker, hx8k-breakout, ulx3s-25f, ulx3s-85f)")]
pub struct UnknownBoard(pub String);

impl Board {
    /// Every board.
    pub const ALL: [Board; 4] = [
        Board::Icebreaker,
        Board::Hx8kBreakout,
        Board::Ulx3s25f,
        Board::Ulx3s85f,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Board::Icebreaker => "icebreaker",
            Board::Hx8kBreakout => "hx8k-breakout",
            Board::Ulx3s25f => "ulx3s-25f",
            Board::Ulx3s85f => "ulx3s-85f",
        }
    }

    /// The board of a command-line name.
    pub fn from_name(name: &str) -> Result<Board, UnknownBoard> {
        Board::ALL
            .into_iter()
            .find(|b| b.name() == name)
            .ok_or_else(|| UnknownBoard(name.to_string()))
    }

    /// The FPGA part.
    pub fn device(self) -> &'static str {
        match self {
            Board::Icebreaker => "iCE40UP5K-SG48",
            Board::Hx8kBreakout => "iCE40HX8K-CT256",
            Board::Ulx3s25f => "LFE5U-25F-6BG381C",
            Board::Ulx3s85f => "LFE5U-85F-6BG381C",
        }
    }

    /// The FPGA family.
    pub fn family(self) -> Family {
        match self {
            Board::Icebreaker | Board::Hx8kBreakout => Family::Ice40,
            Board::Ulx3s25f | Board::Ulx3s85f => Family::Ecp5,
        }
    }

    /// The oscillator frequency in Hz (the design's clock).
    pub fn clock_hz(self) -> u32 {
        match self {
            Board::Icebreaker | Board::Hx8kBreakout => 12_000_000,
            Board::Ulx3s25f | Board::Ulx3s85f => 25_000_000,
        }
    }

    /// The board's user LEDs light when driven low (iCEBreaker) or high.
    pub fn led_active_low(self) -> bool {
        self == Board::Icebreaker
    }

    /// The constraint file's name in `constraints/`.
    pub fn constraints_file(self) -> &'static str {
        match self {
            Board::Icebreaker => "icebreaker.pcf",
            Board::Hx8kBreakout => "hx8k-breakout.pcf",
            Board::Ulx3s25f | Board::Ulx3s85f => "ulx3s.lpf",
        }
    }

    /// The constraint file's contents (pins of the top's ports, IO standards).
    pub fn constraints(self) -> &'static str {
        match self {
            Board::Icebreaker => include_str!("../../../constraints/icebreaker.pcf"),
            Board::Hx8kBreakout => include_str!("../../../constraints/hx8k-breakout.pcf"),
            Board::Ulx3s25f | Board::Ulx3s85f => include_str!("../../../constraints/ulx3s.lpf"),
        }
    }

    /// The top module name, `etrace_board_<board>`.
    pub fn top_name(self) -> String {
        format!("etrace_board_{}", self.name().replace('-', "_"))
    }
}

/// Why a board top cannot be generated.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BoardError {
    /// The baud rate cannot be made from the board clock within 2 %.
    #[error("baud rate {baud} cannot be made from the {clock_hz} Hz clock (bit time {cycles:.2} cycles; 4-65536 cycles, within 2 %)")]
    Baud {
        /// Requested baud rate.
        baud: u32,
        /// Board clock.
        clock_hz: u32,
        /// Clock cycles per bit it would take.
        cycles: f64,
    },
    /// Too many or no records for the replay table.
    #[error("{count} records do not fit the replay table (1 to {max})")]
    Records {
        /// Records given.
        count: usize,
        /// Table depth.
        max: usize,
    },
    /// The record period is out of range.
    #[error("record period {0} is out of range (2-65536 cycles)")]
    Period(u32),
    /// The gap between passes is out of range.
    #[error("gap of {0} cycles between passes is out of range (1-65536)")]
    Gap(u32),
    /// The N-Trace options cannot be built.
    #[error(transparent)]
    Ntrace(#[from] NtraceTopError),
    /// The E-Trace encoder's generation options cannot be built.
    #[error(transparent)]
    Encoder(#[from] TopError),
}

/// Build-time options of a board top.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardOptions {
    /// UART baud rate (8N1).
    pub baud: u32,
    /// Fewest cycles between two replayed records.
    pub period: u32,
    /// Cycles with trace disabled between two passes.
    pub gap: u32,
    /// Pace the replay by the UART (see [`BoardSettings::paced`]).
    pub paced: bool,
    /// The E-Trace encoder's generation options (not read by the N-Trace top).
    pub encoder: BoardEncoder,
}

impl Default for BoardOptions {
    /// 115200 baud, a record every 8 cycles or more, 32 cycles disabled between passes,
    /// paced by the UART; the encoder without generation options.
    fn default() -> Self {
        BoardOptions {
            baud: 115_200,
            period: 8,
            gap: 32,
            paced: true,
            encoder: BoardEncoder::default(),
        }
    }
}

/// Generated Verilog of one board top.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The board.
    pub board: Board,
    /// The encoder configuration.
    pub config: Config,
    /// Top module name, [`Board::top_name`].
    pub top: String,
    /// The Verilog (top module and its sub-modules).
    pub verilog: String,
    /// The constants of the top.
    pub settings: BoardSettings,
    /// The replayed records, in table order.
    pub records: Vec<IngressRecord>,
    /// The baud rate the UART really runs at (clock / bit time).
    pub actual_baud: f64,
    /// One line saying what it is.
    pub description: String,
}

/// The UART bit time in cycles for `baud` from `clock_hz`, within 2 %.
pub fn cycles_per_bit(clock_hz: u32, baud: u32) -> Result<u32, BoardError> {
    let exact = f64::from(clock_hz) / f64::from(baud.max(1));
    let cycles = exact.round();
    let error = (exact - cycles).abs() / exact;
    if baud == 0 || !(4.0..=65_536.0).contains(&cycles) || error > 0.02 {
        return Err(BoardError::Baud {
            baud,
            clock_hz,
            cycles: exact,
        });
    }
    Ok(cycles as u32)
}

/// The Verilog of the board top `make` builds (module `top`). The top is built here, not by
/// the caller: a top is a large value, and the caller's `match` over the configurations
/// would hold one on its stack per arm.
#[inline(never)]
fn emit<U: Block>(
    make: impl FnOnce() -> Result<U, BoardError>,
    top: &str,
) -> Result<String, BoardError> {
    let mut uut = make()?;
    uut.connect_all();
    Ok(generate_named(&uut, top))
}

/// The constants of `board`'s top with `options`.
fn settings(board: Board, options: &BoardOptions) -> Result<BoardSettings, BoardError> {
    Ok(BoardSettings {
        cycles_per_bit: cycles_per_bit(board.clock_hz(), options.baud)?,
        period: options.period,
        gap: options.gap,
        // A tenth of a second.
        led_hold: u64::from(board.clock_hz() / 10),
        led_active_low: board.led_active_low(),
        paced: options.paced,
    })
}

/// Generates the Verilog of `board`'s top with the encoder of `config` (top module
/// [`Board::top_name`]), replaying `records` (at most [`REPLAY_DEPTH`], made by the caller
/// with `config`'s XLEN and itype width: the hardware does not run programs).
pub fn generate(
    board: Board,
    config: Config,
    options: &BoardOptions,
    records: Vec<IngressRecord>,
) -> Result<Generated, BoardError> {
    let settings = settings(board, options)?;
    let top = board.top_name();
    let count = records.len();
    // The ULX3S gets its extra pin.
    let verilog = crate::with_config!(config, [A, E, IT, P] => match board.family() {
        Family::Ice40 => emit(
            || BoardTop::<A, E, IT, P, REPLAY_ADDRESS_BITS>::new(&records, &settings, &options.encoder),
            &top,
        ),
        Family::Ecp5 => emit(
            || BoardTop::<A, E, IT, P, REPLAY_ADDRESS_BITS>::new(&records, &settings, &options.encoder)
                .map(Ulx3sTop::new),
            &top,
        ),
    })?;
    // The E-Trace encoder takes a block in every cycle: it does not read `present`.
    let verilog = waive_unused(&verilog, &["replay$present"]);
    let extras = options.encoder.describe();
    let description = format!(
        "E-Trace encoder {} on {} ({}): {}-record ingress replay, encap stream{}{} on the UART at {} baud",
        config.name(),
        board.name(),
        board.device(),
        count,
        if extras.is_empty() { "" } else { " with " },
        extras,
        options.baud
    );
    Ok(Generated::new(
        board,
        config,
        top,
        verilog,
        settings,
        records,
        description,
    ))
}

/// The N-Trace board top's signals read nowhere.
const NTRACE_UNUSED: &[&str] = &[
    "replay$block$cause",
    "replay$block$tval",
    "replay$block$ctype",
    "buffer$can_write",
];

/// Generates the Verilog of `board`'s N-Trace top ([`ntrace_top::NtraceBoardTop`], top
/// module [`Board::top_name`]): the N-Trace encoder of `config` built with `ntrace` (its
/// FIFO at most 256 bytes), replaying `records` as [`generate`] does. `options.paced` is
/// not read: the N-Trace top always paces its replay by the UART.
pub fn generate_ntrace(
    board: Board,
    config: Config,
    options: &BoardOptions,
    ntrace: &NtraceTopOptions,
    records: Vec<IngressRecord>,
) -> Result<Generated, BoardError> {
    check_options(config, ntrace)?;
    let settings = settings(board, options)?;
    let top = board.top_name();
    let count = records.len();
    let (g, f) = (ntrace.generator, ntrace.fifo);
    let verilog = crate::with_config!(config, [A, E, IT, P] => match board.family() {
        Family::Ice40 => emit(
            || NtraceBoardTop::<A, E, IT, REPLAY_ADDRESS_BITS>::new(&records, &settings, g, f),
            &top,
        ),
        Family::Ecp5 => emit(
            || NtraceBoardTop::<A, E, IT, REPLAY_ADDRESS_BITS>::new(&records, &settings, g, f)
                .map(NtraceUlx3sTop::new),
            &top,
        ),
    })?;
    // N-Trace does not read the trap's cause and value or the context type; the buffer
    // cannot fill (`ntrace_top` module documentation).
    let verilog = waive_unused(&verilog, NTRACE_UNUSED);
    let description = format!(
        "N-Trace encoder {} ({}) on {} ({}): {}-record ingress replay, MSEO bytes on the UART at {} baud",
        config.name(),
        if g.htm { "HTM" } else { "BTM" },
        board.name(),
        board.device(),
        count,
        options.baud
    );
    Ok(Generated::new(
        board,
        config,
        top,
        verilog,
        settings,
        records,
        description,
    ))
}

impl Generated {
    fn new(
        board: Board,
        config: Config,
        top: String,
        verilog: String,
        settings: BoardSettings,
        records: Vec<IngressRecord>,
        description: String,
    ) -> Generated {
        let actual_baud = f64::from(board.clock_hz()) / f64::from(settings.cycles_per_bit);
        Generated {
            board,
            config,
            top,
            verilog,
            settings,
            records,
            actual_baud,
            description,
        }
    }
}
