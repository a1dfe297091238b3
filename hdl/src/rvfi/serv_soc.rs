//! The SERV SoC of the lock-step co-simulation (issue 23): SERV (`serv_rf_top` from the
//! pinned `pythondata-cpu-serv` package, built with `RISCV_FORMAL`), bit-serial RV32I
//! with Zicsr and M-mode traps, with its RVFI port into the shared front end and encoder
//! ([`super::soc`]) and its two Wishbone buses (instructions, data) on the program RAM,
//! each acknowledged one cycle after its request. SERV has no halt output: `core_trap`
//! stays low.
//!
//! The RAM is at 0 ([`SERV_RAM_BASE`], SERV's own `servant` layout): a timer interrupt
//! taken at an address with bit 31 set saves an `mepc` without that bit (seen in lock
//! step: `mepc` 0x560 for 0x8000_0560). SERV is built without its C extension, whose
//! `rvfi_insn` of a compressed instruction is the 32-bit expansion, not the instruction
//! as fetched (which the front end needs for `ilastsize`).
//!
//! The machine timer is the hart model's CLINT, so that both take the timer interrupt
//! before the same instruction: `mtimecmp` at 0x0200_4000 and `mtime` at 0x0200_bff8
//! (32-bit halves, little-endian; `mtime` read-only, `msip` at 0x0200_0000 reads 0),
//! both 0 after reset; `mtime` counts one per 100 retired instructions (the front end's
//! `iretire`, as the hart's `INSNS_PER_RTC_TICK`). SERV samples its interrupt line when
//! an instruction completes, one cycle before that instruction shows on RVFI, so the
//! line the core sees, `mtime >= mtimecmp`, counts the completing instruction in
//! advance (were it one that does not retire, an exception in the cycle `mtime` ticks,
//! the interrupt would come one instruction early). SERV's interrupt is edge-triggered
//! (on `mtip & mstatus.MIE & mie.MTIE` rising), which takes it where the hart's
//! level-triggered one is taken as long as a handler re-arms `mtimecmp` or leaves
//! `mie.MTIE` clear.

use crate::top::TopError;

use super::soc::{
    ram_declaration, ram_word, ram_write, soc_verilog, strobed_write, CorePart, SocEncoderOptions,
    SocVerilog,
};
use super::soc_control::te_window;
use super::FrontEndOptions;

/// Base address of the SERV SoC's RAM (module documentation).
pub const SERV_RAM_BASE: u64 = 0;

/// The SERV parameters of the SoC: reset to the RAM, no C extension (module
/// documentation), no multiply / divide unit, the CSRs (traps), the default register
/// file.
pub const SERV_PARAMETERS: &str = ".RESET_PC(32'h0000_0000), .COMPRESSED(1'b0), \
     .ALIGN(1'b0), .MDU(1'b0), .WITH_CSR(1)";

/// The SERV source files of `serv.core`'s `core` file set, under the package's `rtl/`.
pub const SERV_SOURCES: [&str; 16] = [
    "serv_bufreg.v",
    "serv_bufreg2.v",
    "serv_alu.v",
    "serv_csr.v",
    "serv_ctrl.v",
    "serv_decode.v",
    "serv_immdec.v",
    "serv_mem_if.v",
    "serv_rf_if.v",
    "serv_rf_ram_if.v",
    "serv_rf_ram.v",
    "serv_state.v",
    "serv_top.v",
    "serv_rf_top.v",
    "serv_aligner.v",
    "serv_compdec.v",
];

/// The SERV SoC with a front end built with `options` (its `core_traps` should be
/// [`super::CoreTraps::TimerInterrupt`]) and an encoder built with `encoder`.
pub fn serv_soc(
    options: FrontEndOptions,
    encoder: SocEncoderOptions,
) -> Result<SocVerilog, TopError> {
    let core = CorePart {
        name: "SERV",
        unused: "the low bits of the word addresses (load_addr, the buses)",
        ram_base: SERV_RAM_BASE,
        body: core_body(),
        te_store: ["store_valid && in_te_dbus_adr", "dbus_adr", "dbus_dat"],
    };
    soc_verilog(&core, options, encoder)
}

/// The core, its buses on the RAM, the store pins and the fetched instruction.
fn core_body() -> String {
    format!(
        r#"    wire [31:0] ibus_adr, dbus_adr, dbus_dat;
    wire [3:0] dbus_sel;
    wire ibus_cyc, dbus_cyc, dbus_we;
    reg ibus_ack, dbus_ack;
    reg [31:0] ibus_rdt, dbus_rdt;
{clint}{ram}{te}    always @(posedge clock) begin
        ibus_ack <= ibus_cyc && !ibus_ack && !reset;
        dbus_ack <= dbus_cyc && !dbus_ack && !reset;
        ibus_rdt <= in_ram_ibus_adr ? ram[{ibus_word}] : 32'd0;
        dbus_rdt <= in_ram_dbus_adr ? ram[{dbus_word}] : in_clint ? clint_rdt :
            in_te_dbus_adr ? te_rdata : 32'd0;
        if (load_enable) ram[{load_word}] <= load_data;
        else if (store_valid && in_ram_dbus_adr) begin
{write}        end
    end
    assign store_valid = dbus_cyc && dbus_we && !dbus_ack;
    assign store_addr = dbus_adr;
    assign store_data = dbus_dat;
    assign store_strobe = dbus_sel;
    assign core_trap = 1'b0;
{core}"#,
        core = serv_instance(),
        clint = clint(),
        ram = ram_declaration(SERV_RAM_BASE, &["ibus_adr", "dbus_adr"]),
        te = te_window("dbus_adr"),
        ibus_word = ram_word("ibus_adr"),
        dbus_word = ram_word("dbus_adr"),
        load_word = ram_word("load_addr"),
        write = ram_write("dbus_adr", "dbus_dat", "dbus_sel"),
    )
}

/// The SERV instance `core` on the wires `clock`, `reset`, `timer_irq`, `ibus_*`,
/// `dbus_*` and the RVFI wires of [`super::soc`] (declared by the caller).
pub fn serv_instance() -> String {
    format!(
        r#"    // The core's unused outputs are left open.
    /* verilator lint_off PINCONNECTEMPTY */
    serv_rf_top #({SERV_PARAMETERS}) core (
        .clk(clock), .i_rst(reset), .i_timer_irq(timer_irq),
        .rvfi_valid(rvfi_valid), .rvfi_order(), .rvfi_insn(rvfi_insn), .rvfi_trap(rvfi_trap),
        .rvfi_halt(), .rvfi_intr(), .rvfi_mode(rvfi_mode), .rvfi_ixl(),
        .rvfi_rs1_addr(), .rvfi_rs2_addr(), .rvfi_rs1_rdata(rvfi_rs1_rdata),
        .rvfi_rs2_rdata(rvfi_rs2_rdata), .rvfi_rd_addr(), .rvfi_rd_wdata(),
        .rvfi_pc_rdata(rvfi_pc_rdata), .rvfi_pc_wdata(rvfi_pc_wdata),
        .rvfi_mem_addr(), .rvfi_mem_rmask(), .rvfi_mem_wmask(), .rvfi_mem_rdata(),
        .rvfi_mem_wdata(),
        .o_ibus_adr(ibus_adr), .o_ibus_cyc(ibus_cyc), .i_ibus_rdt(ibus_rdt),
        .i_ibus_ack(ibus_ack),
        .o_dbus_adr(dbus_adr), .o_dbus_dat(dbus_dat), .o_dbus_sel(dbus_sel),
        .o_dbus_we(dbus_we), .o_dbus_cyc(dbus_cyc), .i_dbus_rdt(dbus_rdt),
        .i_dbus_ack(dbus_ack),
        .o_ext_rs1(), .o_ext_rs2(), .o_ext_funct3(), .i_ext_rd(32'd0), .i_ext_ready(1'b0),
        .o_mdu_valid()
    );
    /* verilator lint_on PINCONNECTEMPTY */
"#
    )
}

/// The machine timer (module documentation) on the data bus: `mtime`, `mtimecmp`,
/// `timer_irq` and `clint_rdt` (the word `dbus_adr` reads), declared here; `in_clint`:
/// `dbus_adr` is in its range. Written by the stores of `store_valid`.
pub fn clint() -> String {
    format!(
        r#"    // The machine timer (module documentation).
    reg [63:0] mtime, mtimecmp;
    reg [6:0] tick;
    wire in_clint = dbus_adr[31:16] == 16'h0200;
    wire [63:0] mtime_next = (tick == 7'd99) ? mtime + 64'd1 : mtime;
    wire timer_irq = mtime_next >= mtimecmp;
    reg [31:0] clint_rdt;
    always @(*) begin
        case (dbus_adr[15:2])
            14'h1000: clint_rdt = mtimecmp[31:0];
            14'h1001: clint_rdt = mtimecmp[63:32];
            14'h2ffe: clint_rdt = mtime[31:0];
            14'h2fff: clint_rdt = mtime[63:32];
            default: clint_rdt = 32'd0;
        endcase
    end
    always @(posedge clock) begin
        if (reset) begin
            mtime <= 64'd0;
            mtimecmp <= 64'd0;
            tick <= 7'd0;
        end else begin
            if (iretire) begin
                tick <= (tick == 7'd99) ? 7'd0 : tick + 7'd1;
                mtime <= mtime_next;
            end
            if (store_valid && in_clint && dbus_adr[15:3] == 13'h0800) begin
                if (dbus_adr[2]) begin
{cmp_hi}                end else begin
{cmp_lo}                end
            end
        end
    end
"#,
        cmp_lo = strobed_write("mtimecmp", 0, "dbus_dat", "dbus_sel"),
        cmp_hi = strobed_write("mtimecmp", 32, "dbus_dat", "dbus_sel"),
    )
}
