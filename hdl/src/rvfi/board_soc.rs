//! The SoC tops of the boards (issue 23, `etrace synth --board B --core C`): a core
//! running a program from block RAM, its RVFI port into the front end and the `rv32`
//! encoder (as in the lock-step SoCs of [`super::soc`]), and the board shell
//! ([`CoreShell`]: power-on reset, the program's restart when it ends, the UART that
//! sends the encoder's byte stream, the LEDs).
//!
//! The RAM ([`BoardRam`]) holds the program's image from its ELF as the bitstream's
//! initial contents, at the core's reset address, with one read / write port and a
//! registered read, so that synthesis maps it to block RAM: PicoRV32's memory interface
//! gets `mem_ready` one cycle after its request, SERV's two Wishbone buses share the port
//! (SERV never requests both at once) and get their acknowledge one cycle after the
//! request. SERV has the lock-step SoC's machine timer ([`super::serv_soc::clint`]), so
//! that its programs take their timer interrupts where the hart model takes them.
//!
//! The trace control registers ([`super::soc_control`], at 0x0300_0000 on the core's data
//! bus, read one cycle after the request as the RAM) reset, enable and set the options of
//! the encoder. After power-on reset a boot sequence writes them as a debugger would:
//! differential addresses, explicit exceptions, sijump off and a resync every 256 packets
//! (the run-time options of the replay top, [`crate::board::board_top`]), branch
//! prediction and implicit return where the encoder has their blocks
//! ([`SocEncoderOptions`]), trace on; the
//! program may switch trace off and on or change the options itself, and the registers
//! keep what it wrote across its restarts. The encoder traces while the registers and the
//! shell both enable it. The program's end
//! is a store to its `tohost` symbol with bit 0 set (the HTIF exit), or PicoRV32's `trap`
//! output (the core halted).

use etrace_spec::elf::ElfImage;
use rust_hdl::prelude::Block;

use crate::board::core_shell::CoreShell;
use crate::board::{Board, Family};
use crate::verilog::{flatten_ports, generate_named, top_ports};

use super::picorv32_soc::{picorv32_instance, PICORV32_PARAMETERS, PICORV32_RAM_BASE};
use super::serv_soc::{clint, serv_instance, SERV_PARAMETERS, SERV_RAM_BASE};
use super::soc::{
    front_end_instance, front_end_module, strobed_write, SocEncoder, SocEncoderOptions,
};
use super::soc_control::{encoder_controls, te_registers_module, te_window, te_wires, WritePort};
use super::{CoreTraps, FrontEndOptions};
use crate::board::cycles_per_bit;
use crate::control_interface::te_registers::WORD_ADDRESS_BITS;
use etrace_spec::trace_control::registers::{enable_writes, TeImplementation, TeSettings};

/// A core a board SoC can have (`docs/cli.md`, `--core`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SocCore {
    /// PicoRV32 (`pythondata-cpu-picorv32`).
    PicoRv32,
    /// SERV (`pythondata-cpu-serv`).
    Serv,
}

impl SocCore {
    /// Every core.
    pub const ALL: [SocCore; 2] = [SocCore::PicoRv32, SocCore::Serv];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SocCore::PicoRv32 => "picorv32",
            SocCore::Serv => "serv",
        }
    }

    /// The core of a command-line name.
    pub fn from_name(name: &str) -> Option<SocCore> {
        SocCore::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The RAM's base address: the core's reset address.
    pub fn ram_base(self) -> u64 {
        match self {
            SocCore::PicoRv32 => PICORV32_RAM_BASE,
            SocCore::Serv => SERV_RAM_BASE,
        }
    }

    /// The core's parameters on `board`: PicoRV32 on the iCE40 boards without
    /// multiply / divide, barrel shifter and counters (RV32IC: to fit the UP5K with the
    /// encoder), on the ECP5 boards as in the lock-step SoC (RV32IMC); SERV as in the
    /// lock-step SoC (RV32I with Zicsr) everywhere.
    pub fn parameters(self, board: Board) -> &'static str {
        match (self, board.family()) {
            (SocCore::PicoRv32, Family::Ice40) => PICORV32_SMALL_PARAMETERS,
            (SocCore::PicoRv32, Family::Ecp5) => PICORV32_PARAMETERS,
            (SocCore::Serv, _) => SERV_PARAMETERS,
        }
    }

    /// The core has the M extension on `board` ([`SocCore::parameters`]).
    pub fn has_multiply(self, board: Board) -> bool {
        self == SocCore::PicoRv32 && board.family() == Family::Ecp5
    }

    /// The front end's traps of the core (`super::front_end`).
    fn traps(self) -> CoreTraps {
        match self {
            SocCore::PicoRv32 => CoreTraps::IllegalInstruction,
            SocCore::Serv => CoreTraps::TimerInterrupt,
        }
    }
}

/// PicoRV32 on the iCE40 boards ([`SocCore::parameters`]).
pub const PICORV32_SMALL_PARAMETERS: &str = ".COMPRESSED_ISA(1), .ENABLE_MUL(0), \
     .ENABLE_DIV(0), .BARREL_SHIFTER(0), .ENABLE_COUNTERS(0), .ENABLE_COUNTERS64(0), \
     .ENABLE_IRQ(0), .CATCH_MISALIGN(1), .CATCH_ILLINSN(1), .REGS_INIT_ZERO(1), \
     .PROGADDR_RESET(32'h8000_0000)";

/// The RAM of a board's SoC: 12 KiB on the iCE40 boards (24 of the UP5K's 30 block
/// RAMs), 64 KiB on the ECP5 boards.
pub fn ram_bytes(board: Board) -> u64 {
    match board.family() {
        Family::Ice40 => 12 * 1024,
        Family::Ecp5 => 64 * 1024,
    }
}

/// Why a program cannot run on a board's SoC.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BoardSocError {
    /// A segment is outside the RAM.
    #[error("the program's segment at 0x{addr:x} ({size} bytes in memory) is outside the {core} SoC's RAM on {board} ({ram} bytes at 0x{base:x}); link it for that RAM (programs/common/link-{core}.ld)")]
    Fit {
        /// The core.
        core: &'static str,
        /// The board.
        board: &'static str,
        /// Segment address.
        addr: u64,
        /// Segment size in memory.
        size: u64,
        /// RAM base.
        base: u64,
        /// RAM size.
        ram: u64,
    },
    /// The program is not a 32-bit program.
    #[error("the program is not an RV32 program (the SoCs' cores are 32-bit)")]
    Xlen,
    /// The program's entry is not the core's reset address.
    #[error("the program's entry 0x{entry:x} is not the {core} SoC's reset address 0x{base:x}")]
    Entry {
        /// The core.
        core: &'static str,
        /// The entry.
        entry: u64,
        /// The reset address.
        base: u64,
    },
    /// The program has an instruction the core does not have.
    #[error("the program has a multiply / divide instruction (0x{insn:08x} at 0x{addr:x}) and the {core} SoC's core on {board} has no M extension (build the program for rv32ic or rv32i)")]
    Multiply {
        /// The core.
        core: &'static str,
        /// The board.
        board: &'static str,
        /// The instruction.
        insn: u32,
        /// Its address.
        addr: u64,
    },
    /// The UART's baud rate.
    #[error(transparent)]
    Board(#[from] crate::board::BoardError),
    /// The encoder's generation.
    #[error(transparent)]
    Top(#[from] crate::top::TopError),
}

/// The initial contents of a board SoC's RAM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardRam {
    /// Base address (the core's reset address, a multiple of the power of two above
    /// the size).
    pub base: u64,
    /// The words, little-endian, from `base` on; the RAM's size is 4 times their number.
    pub words: Vec<u32>,
}

impl BoardRam {
    /// The RAM of `core` on `board` holding `image`; refuses a program that does not fit
    /// it, is not RV32, does not start at the reset address, or has instructions the
    /// core lacks.
    pub fn new(core: SocCore, board: Board, image: &ElfImage) -> Result<BoardRam, BoardSocError> {
        let (base, size) = (core.ram_base(), ram_bytes(board));
        if image.xlen != etrace_spec::isa::Xlen::X32 {
            return Err(BoardSocError::Xlen);
        }
        if image.entry != base {
            return Err(BoardSocError::Entry {
                core: core.name(),
                entry: image.entry,
                base,
            });
        }
        if !core.has_multiply(board) {
            check_no_multiply(core, board, image)?;
        }
        let mut bytes = vec![0u8; size as usize];
        for s in &image.segments {
            let inside = s.addr >= base && s.addr + s.mem_size <= base + size;
            if !inside {
                return Err(BoardSocError::Fit {
                    core: core.name(),
                    board: board.name(),
                    addr: s.addr,
                    size: s.mem_size,
                    base,
                    ram: size,
                });
            }
            let at = (s.addr - base) as usize;
            bytes[at..at + s.data.len()].copy_from_slice(&s.data);
        }
        let words = bytes
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        Ok(BoardRam { base, words })
    }

    /// Address bits of a word index.
    fn index_bits(&self) -> u32 {
        self.words.len().next_power_of_two().trailing_zeros()
    }

    /// The RAM `ram` (module documentation): the port `ram_addr` (a byte address),
    /// `ram_we` (byte strobes), `ram_wdata` in, `ram_rdata` out one cycle after the
    /// address; `ram_hit`: `ram_addr` is in the RAM; `ram_hit_q`: it was, one cycle ago.
    fn verilog(&self) -> String {
        let bits = self.index_bits();
        let high = bits + 2;
        let words = self.words.len();
        let mut v = format!(
            "    // The program RAM: {words} words at 0x{base:08x}, one port, registered read.\n    \
             wire [31:0] ram_addr, ram_wdata;\n    wire [3:0] ram_we;\n    \
             reg [31:0] ram_rdata;\n    reg ram_hit_q;\n    \
             reg [31:0] ram [0:{last}];\n    \
             wire [{ib}:0] ram_index = ram_addr[{ih}:2];\n    \
             wire ram_hit = ram_addr[31:{high}] == {hw}'h{hv:x} && ram_index < {bits1}'d{words};\n",
            base = self.base,
            last = words - 1,
            ib = bits - 1,
            ih = high - 1,
            hw = 32 - high,
            hv = self.base >> high,
            bits1 = bits + 1,
        );
        v.push_str("    always @(posedge clock) begin\n");
        v.push_str(&strobed_write("ram[ram_index]", 0, "ram_wdata", "ram_we"));
        v.push_str(
            "        ram_rdata <= ram[ram_index];\n        ram_hit_q <= ram_hit;\n    end\n",
        );
        v.push_str("    // The program's image (the rest of the RAM is zero).\n");
        v.push_str(&format!(
            "    integer ram_i;\n    initial begin\n        for (ram_i = 0; ram_i < {words}; ram_i = ram_i + 1) ram[ram_i] = 32'd0;\n"
        ));
        for (i, w) in self.words.iter().enumerate().filter(|(_, w)| **w != 0) {
            v.push_str(&format!("        ram[{i}] = 32'h{w:08x};\n"));
        }
        v.push_str("    end\n");
        v
    }
}

/// Refuses an image with a multiply / divide instruction (an R-type `OP` or `OP-32` with
/// `funct7` 1) in its executable words, read as an instruction stream from each
/// segment's start (16-bit instructions are those whose low bits are not `11`).
fn check_no_multiply(core: SocCore, board: Board, image: &ElfImage) -> Result<(), BoardSocError> {
    for s in &image.segments {
        let d = &s.data;
        let mut at = 0;
        while at + 2 <= d.len() {
            let low = u16::from_le_bytes([d[at], d[at + 1]]);
            if low & 3 != 3 {
                at += 2;
                continue;
            }
            if at + 4 > d.len() {
                break;
            }
            let insn = u32::from_le_bytes([d[at], d[at + 1], d[at + 2], d[at + 3]]);
            let opcode = insn & 0x7f;
            if (opcode == 0x33 || opcode == 0x3b) && insn >> 25 == 1 {
                return Err(BoardSocError::Multiply {
                    core: core.name(),
                    board: board.name(),
                    insn,
                    addr: s.addr + at as u64,
                });
            }
            at += 4;
        }
    }
    Ok(())
}

/// Generated Verilog of a board's SoC top.
#[derive(Debug, Clone)]
pub struct BoardSoc {
    /// The board.
    pub board: Board,
    /// The core.
    pub core: SocCore,
    /// Top module name, [`Board::top_name`].
    pub top: String,
    /// The top, the shell, the front end and the encoder (not the core's sources).
    pub verilog: String,
    /// The UART bit time in cycles.
    pub cycles_per_bit: u32,
    /// The baud rate the UART really runs at.
    pub actual_baud: f64,
    /// The RAM's size in bytes.
    pub ram_bytes: u64,
    /// The encoder's generation options.
    pub encoder: SocEncoderOptions,
}

/// The shell's module name in the Verilog.
const SHELL_TOP: &str = "etrace_core_shell";

/// The Verilog of `board`'s SoC with `core` running `image` (tohost: the address of its
/// `tohost` symbol, if any), its UART at `baud`, its encoder built with `encoder_options`.
pub fn board_soc(
    board: Board,
    core: SocCore,
    image: &ElfImage,
    baud: u32,
    encoder_options: SocEncoderOptions,
) -> Result<BoardSoc, BoardSocError> {
    let ram = BoardRam::new(core, board, image)?;
    let cycles = cycles_per_bit(board.clock_hz(), baud)?;
    let encoder = SocEncoder::new(encoder_options)?;
    let options = FrontEndOptions {
        core_traps: core.traps(),
        ..FrontEndOptions::default()
    };
    let top = board.top_name();
    let end = match image.tohost {
        Some(addr) => format!("store_valid && store_addr == 32'h{addr:08x} && store_data[0]"),
        None => "1'b0".to_string(),
    };
    let (body, end) = match core {
        SocCore::PicoRv32 => (
            picorv32_body(core.parameters(board)),
            format!("core_trap || ({end})"),
        ),
        SocCore::Serv => (serv_body(), end),
    };
    // The core's writes to the trace control registers.
    let (te_bus, te_write, te_data) = match core {
        SocCore::PicoRv32 => (
            "mem_addr",
            "mem_request && in_te_mem_addr && mem_wstrb != 4'd0",
            "mem_wdata",
        ),
        SocCore::Serv => (
            "dbus_adr",
            "bus_request && store_valid && in_te_dbus_adr",
            "dbus_dat",
        ),
    };
    let (encoder_reset, encoder_controls) = encoder_controls("por_reset", "trace_enable");
    let extra_pin = if board.family() == Family::Ecp5 {
        ",\n    output wire wifi_gpio0"
    } else {
        ""
    };
    let extra_drive = if board.family() == Family::Ecp5 {
        "    // The ESP32's GPIO0 held high, so that its firmware leaves the FPGA alone.\n    \
         assign wifi_gpio0 = 1'b1;\n"
    } else {
        ""
    };
    let mut v = String::new();
    v.push_str(&front_end_module(options));
    v.push_str(&encoder.encoder.verilog);
    v.push_str(&shell_module(board, cycles));
    v.push_str(&te_registers_module(encoder.implementation));
    v.push_str(&format!(
        r#"
// The {core_name} SoC of {board_name} ({device}): the core runs the program from block RAM in
// a loop, its trace goes out on the UART at {baud} baud (etrace-hdl, rvfi::board_soc).
/* verilator lint_off UNUSEDSIGNAL */
module {top}(
    input wire clock,
    output wire uart_tx,
    output wire led_activity,
    output wire led_lost{extra_pin}
);
    wire por_reset, reset, trace_enable, out_ready, out_valid, out_last, trace_lost;
    wire [7:0] out_data;
    wire core_trap, store_valid;
    wire [31:0] store_addr, store_data;
    wire rvfi_valid, rvfi_trap;
    wire [31:0] rvfi_insn, rvfi_pc_rdata, rvfi_pc_wdata, rvfi_rs1_rdata, rvfi_rs2_rdata;
    wire [1:0] rvfi_mode;
    wire iretire, sijump, ilastsize;
    wire [3:0] itype;
    wire [31:0] iaddr, tval;
    wire [1:0] privilege;
    wire [4:0] cause;
{te_wires}{extra_drive}{ram}{body}    /* verilator lint_on UNUSEDSIGNAL */
{front_end}{boot}{registers}{encoder_instance}    {SHELL_TOP} shell (
        .clock(clock), .end_of_program({end}),
        .out_valid(out_valid), .out_data(out_data), .out_last(out_last),
        .trace_lost(trace_lost), .out_ready(out_ready), .por_reset(por_reset),
        .core_reset(reset), .trace_enable(trace_enable), .uart_tx(uart_tx),
        .led_activity(led_activity), .led_lost(led_lost)
    );
endmodule // {top}
"#,
        core_name = match core {
            SocCore::PicoRv32 => "PicoRV32",
            SocCore::Serv => "SERV",
        },
        board_name = board.name(),
        device = board.device(),
        ram = ram.verilog(),
        front_end = front_end_instance(),
        te_wires = te_wires() + &encoder.predictor_wires(),
        boot = boot_sequence(encoder.implementation),
        registers = encoder.registers(
            "por_reset",
            &WritePort {
                write: "boot_write",
                address: "boot_address",
                data: "boot_data",
            },
            &WritePort {
                write: te_write,
                address: te_bus,
                data: te_data,
            },
        ),
        encoder_instance = encoder.instance(&encoder_reset, &encoder_controls),
    ));
    Ok(BoardSoc {
        board,
        core,
        top,
        verilog: v,
        cycles_per_bit: cycles,
        actual_baud: f64::from(board.clock_hz()) / f64::from(cycles),
        ram_bytes: ram.words.len() as u64 * 4,
        encoder: encoder_options,
    })
}

/// The writes that take the trace encoder out of reset and enable trace after power-on
/// reset, as a debugger would ([`enable_writes`]: the replay top's options, a resync
/// every 256 packets, branch prediction and implicit return where `implementation` has
/// them): `boot_write`, `boot_address` (word), `boot_data`.
fn boot_sequence(implementation: TeImplementation) -> String {
    let settings = TeSettings {
        resync_max: 256,
        branch_prediction: implementation.branch_prediction,
        implicit_return: implementation.implicit_return,
        ..TeSettings::default()
    };
    let writes = enable_writes(implementation, &settings)
        .expect("the SoC's encoder implements the replay top's options");
    let a = WORD_ADDRESS_BITS;
    let cases: String = writes
        .iter()
        .enumerate()
        .map(|(i, (offset, value))| {
            format!(
                "            2'd{i}: begin boot_address = {a}'d{}; boot_data = 32'h{value:08x}; end\n",
                offset / 4
            )
        })
        .collect();
    format!(
        r#"    // After power-on reset: the writes that enable trace (rvfi::soc_control).
    reg [1:0] boot_step;
    always @(posedge clock)
        boot_step <= por_reset ? 2'd0 : (boot_step == 2'd3) ? 2'd3 : boot_step + 2'd1;
    wire boot_write = !por_reset && boot_step != 2'd3;
    reg [{a1}:0] boot_address;
    reg [31:0] boot_data;
    always @(*) begin
        case (boot_step)
{cases}            default: begin boot_address = {a}'d0; boot_data = 32'd0; end
        endcase
    end
"#,
        a1 = a - 1
    )
}

/// The shell's module [`SHELL_TOP`] for `board` with a UART bit of `cycles` cycles.
fn shell_module(board: Board, cycles: u32) -> String {
    let mut shell = CoreShell::new(
        cycles,
        u64::from(board.clock_hz() / 10),
        board.led_active_low(),
    );
    shell.connect_all();
    let ports = top_ports(&shell);
    flatten_ports(&generate_named(&shell, SHELL_TOP), SHELL_TOP, &ports)
}

/// PicoRV32 with `parameters` on the RAM port: a request is answered (`mem_ready`) in
/// the cycle after it.
fn picorv32_body(parameters: &str) -> String {
    format!(
        r#"    wire mem_valid, mem_instr;
    reg mem_ready;
    wire [31:0] mem_addr, mem_wdata, mem_rdata;
    wire [3:0] mem_wstrb;
    wire mem_request = mem_valid && !mem_ready;
{te}    assign ram_addr = mem_addr;
    assign ram_wdata = mem_wdata;
    assign ram_we = (mem_request && ram_hit) ? mem_wstrb : 4'd0;
    reg te_q;
    reg [31:0] te_rdata_q;
    assign mem_rdata = ram_hit_q ? ram_rdata : te_q ? te_rdata_q : 32'd0;
    always @(posedge clock) begin
        mem_ready <= mem_request && !reset;
        te_q <= mem_request && in_te_mem_addr;
        te_rdata_q <= te_rdata;
    end
    assign store_valid = mem_request && (mem_wstrb != 4'd0);
    assign store_addr = mem_addr;
    assign store_data = mem_wdata;
{core}"#,
        core = picorv32_instance(parameters),
        te = te_window("mem_addr"),
    )
}

/// SERV's two buses on the RAM port and the machine timer: one request at a time,
/// acknowledged in the cycle after it.
fn serv_body() -> String {
    format!(
        r#"    wire [31:0] ibus_adr, dbus_adr, dbus_dat;
    wire [3:0] dbus_sel;
    wire ibus_cyc, dbus_cyc, dbus_we;
    reg bus_ack, ack_dbus, clint_q, te_q;
    reg [31:0] clint_rdt_q, te_rdata_q;
    wire ibus_ack = bus_ack && !ack_dbus;
    wire dbus_ack = bus_ack && ack_dbus;
    wire bus_request = (ibus_cyc || dbus_cyc) && !bus_ack;
    assign store_valid = dbus_cyc && dbus_we && !dbus_ack;
    assign store_addr = dbus_adr;
    assign store_data = dbus_dat;
{clint}{te}    assign ram_addr = dbus_cyc ? dbus_adr : ibus_adr;
    assign ram_wdata = dbus_dat;
    assign ram_we = (bus_request && store_valid && ram_hit) ? dbus_sel : 4'd0;
    always @(posedge clock) begin
        bus_ack <= bus_request && !reset;
        ack_dbus <= dbus_cyc;
        clint_q <= dbus_cyc && in_clint;
        clint_rdt_q <= clint_rdt;
        te_q <= dbus_cyc && in_te_dbus_adr;
        te_rdata_q <= te_rdata;
    end
    wire [31:0] ibus_rdt = ram_hit_q ? ram_rdata : 32'd0;
    wire [31:0] dbus_rdt = ram_hit_q ? ram_rdata : clint_q ? clint_rdt_q :
        te_q ? te_rdata_q : 32'd0;
    assign core_trap = 1'b0;
{core}"#,
        clint = clint(),
        core = serv_instance(),
        te = te_window("dbus_adr"),
    )
}
