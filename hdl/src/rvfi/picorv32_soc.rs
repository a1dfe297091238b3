//! The PicoRV32 SoC of the lock-step co-simulation (issue 23): PicoRV32 (from the pinned
//! `pythondata-cpu-picorv32` package, built with `RISCV_FORMAL`) with its RVFI port into
//! the shared front end and encoder ([`super::soc`]) and its memory interface on the
//! program RAM, zero wait states (`mem_ready` with `mem_valid`).
//!
//! The SoC top is a thin Verilog module around the generated modules and the core
//! (`picorv32` is an external Verilog module, not a RustHDL block), so that the simulator
//! builds it with `picorv32.v` from where pip installed it.

use crate::top::TopError;

use super::soc::{
    ram_declaration, ram_word, ram_write, soc_verilog, CorePart, SocEncoderOptions, SocVerilog,
};
use super::soc_control::te_window;
use super::FrontEndOptions;

/// Base address of the PicoRV32 SoC's RAM (PicoRV32's `PROGADDR_RESET`, spike's default).
pub const PICORV32_RAM_BASE: u64 = 0x8000_0000;

/// The PicoRV32 parameters of the SoC: RV32IMC with the counters, no IRQs (module
/// documentation of [`super::front_end`]), registers reset to zero as the hart's are.
pub const PICORV32_PARAMETERS: &str = ".COMPRESSED_ISA(1), .ENABLE_MUL(1), .ENABLE_DIV(1), \
     .BARREL_SHIFTER(1), .ENABLE_COUNTERS(1), .ENABLE_IRQ(0), .CATCH_MISALIGN(1), \
     .CATCH_ILLINSN(1), .REGS_INIT_ZERO(1), .PROGADDR_RESET(32'h8000_0000)";

/// The PicoRV32 SoC with a front end built with `options` and an encoder built with
/// `encoder`.
pub fn picorv32_soc(
    options: FrontEndOptions,
    encoder: SocEncoderOptions,
) -> Result<SocVerilog, TopError> {
    let core = CorePart {
        name: "PicoRV32",
        unused: "the low bits of load_addr (a word address) and mem_instr",
        ram_base: PICORV32_RAM_BASE,
        body: core_body(),
        te_store: [
            "mem_valid && in_te_mem_addr && mem_wstrb != 4'd0",
            "mem_addr",
            "mem_wdata",
        ],
    };
    soc_verilog(&core, options, encoder)
}

/// The core, its memory interface on the RAM, and the store pins.
fn core_body() -> String {
    let mem_word = ram_word("mem_addr");
    format!(
        r#"    wire mem_valid, mem_instr, mem_ready;
    wire [31:0] mem_addr, mem_wdata, mem_rdata;
    wire [3:0] mem_wstrb;
{ram}{te}    assign mem_ready = mem_valid;
    assign mem_rdata = in_ram_mem_addr ? ram[{mem_word}] : in_te_mem_addr ? te_rdata : 32'd0;
    always @(posedge clock) begin
        if (load_enable) ram[{load_word}] <= load_data;
        else if (mem_valid && in_ram_mem_addr) begin
{write}        end
    end
    assign store_valid = mem_valid && (mem_wstrb != 4'd0);
    assign store_addr = mem_addr;
    assign store_data = mem_wdata;
    assign store_strobe = mem_wstrb;
{core}"#,
        core = picorv32_instance(PICORV32_PARAMETERS),
        ram = ram_declaration(PICORV32_RAM_BASE, &["mem_addr"]),
        te = te_window("mem_addr"),
        load_word = ram_word("load_addr"),
        write = ram_write("mem_addr", "mem_wdata", "mem_wstrb"),
    )
}

/// The PicoRV32 instance `core` with `parameters` on the wires `clock`, `reset`,
/// `core_trap`, `mem_*` and the RVFI wires of [`super::soc`] (declared by the caller).
pub fn picorv32_instance(parameters: &str) -> String {
    format!(
        r#"    // The core's unused outputs are left open.
    /* verilator lint_off PINCONNECTEMPTY */
    picorv32 #({parameters}) core (
        .clk(clock), .resetn(!reset), .trap(core_trap),
        .mem_valid(mem_valid), .mem_instr(mem_instr), .mem_ready(mem_ready),
        .mem_addr(mem_addr), .mem_wdata(mem_wdata), .mem_wstrb(mem_wstrb), .mem_rdata(mem_rdata),
        .mem_la_read(), .mem_la_write(), .mem_la_addr(), .mem_la_wdata(), .mem_la_wstrb(),
        .pcpi_valid(), .pcpi_insn(), .pcpi_rs1(), .pcpi_rs2(),
        .pcpi_wr(1'b0), .pcpi_rd(32'd0), .pcpi_wait(1'b0), .pcpi_ready(1'b0),
        .irq(32'd0), .eoi(),
        .rvfi_valid(rvfi_valid), .rvfi_order(), .rvfi_insn(rvfi_insn),
        .rvfi_trap(rvfi_trap), .rvfi_halt(), .rvfi_intr(), .rvfi_mode(rvfi_mode), .rvfi_ixl(),
        .rvfi_rs1_addr(), .rvfi_rs2_addr(), .rvfi_rs1_rdata(rvfi_rs1_rdata),
        .rvfi_rs2_rdata(rvfi_rs2_rdata), .rvfi_rd_addr(), .rvfi_rd_wdata(),
        .rvfi_pc_rdata(rvfi_pc_rdata), .rvfi_pc_wdata(rvfi_pc_wdata),
        .rvfi_mem_addr(), .rvfi_mem_rmask(), .rvfi_mem_wmask(), .rvfi_mem_rdata(),
        .rvfi_mem_wdata(),
        .rvfi_csr_mcycle_rmask(), .rvfi_csr_mcycle_wmask(),
        .rvfi_csr_mcycle_rdata(), .rvfi_csr_mcycle_wdata(),
        .rvfi_csr_minstret_rmask(), .rvfi_csr_minstret_wmask(),
        .rvfi_csr_minstret_rdata(), .rvfi_csr_minstret_wdata(),
        .trace_valid(), .trace_data()
    );
    /* verilator lint_on PINCONNECTEMPTY */
"#
    )
}
