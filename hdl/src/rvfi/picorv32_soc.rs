//! The PicoRV32 SoC of the lock-step co-simulation (issue 23): PicoRV32 (from the pinned
//! `pythondata-cpu-picorv32` package, built with `RISCV_FORMAL`) with its RVFI port into
//! the [`RvfiFrontEnd`], the front end's ingress block into the `rv32` encoder
//! (`crate::top::generate`, byte stream), and a program RAM the host fills through a load
//! port while the core is in reset.
//!
//! The SoC top is a thin Verilog module written here around the two generated modules and
//! the core (`picorv32` is an external Verilog module, not a RustHDL block), so that the
//! simulator builds it with `picorv32.v` from where pip installed it.
//!
//! Memory map (the hart's profile of the same SoC: [`PICORV32_RAM_BASE`],
//! [`PICORV32_RAM_BYTES`]): RAM at 0x8000_0000 (the reset address), zero wait states
//! (`mem_ready` with `mem_valid`); an access outside it reads 0 and writes nothing. The
//! host sees every store on the `store_*` pins (the `tohost` convention is kept by the
//! host, not by the SoC).
//!
//! [`RvfiFrontEnd`]: super::RvfiFrontEnd

use crate::config::Config;
use crate::top::{generate, TopError, TopOptions};
use crate::verilog::{flatten_ports, generate_named, top_ports, Port};

use super::{FrontEndOptions, RvfiFrontEnd};
use rust_hdl::prelude::Block;

/// Base address of the SoC's RAM (PicoRV32's `PROGADDR_RESET`).
pub const PICORV32_RAM_BASE: u64 = 0x8000_0000;
/// log2 of the RAM size in bytes.
pub const PICORV32_RAM_BITS: u32 = 18;
/// The RAM size in bytes (256 KiB).
pub const PICORV32_RAM_BYTES: u64 = 1 << PICORV32_RAM_BITS;

/// The SoC's top module name.
pub const SOC_TOP: &str = "etrace_picorv32_soc";
/// The front end's module name in the SoC's Verilog.
const FRONT_END_TOP: &str = "etrace_rvfi_front_end";

/// The PicoRV32 parameters of the SoC: RV32IMC with the counters, no IRQs (module
/// documentation of [`super::front_end`]), registers reset to zero as the hart's are.
pub const PICORV32_PARAMETERS: &str = ".COMPRESSED_ISA(1), .ENABLE_MUL(1), .ENABLE_DIV(1), \
     .BARREL_SHIFTER(1), .ENABLE_COUNTERS(1), .ENABLE_IRQ(0), .CATCH_MISALIGN(1), \
     .CATCH_ILLINSN(1), .REGS_INIT_ZERO(1), .PROGADDR_RESET(32'h8000_0000)";

/// The Verilog of the SoC (without `picorv32.v`) and its pins.
#[derive(Debug, Clone)]
pub struct SocVerilog {
    /// Top module [`SOC_TOP`], the front end and the encoder.
    pub verilog: String,
    /// The top's pins, in order.
    pub ports: Vec<Port>,
}

/// The SoC's pins, as (name, width, input).
const PINS: [(&str, usize, bool); 35] = [
    ("clock", 1, true),
    ("reset", 1, true),
    ("load_enable", 1, true),
    ("load_addr", 32, true),
    ("load_data", 32, true),
    ("trace_enable", 1, true),
    ("full_address", 1, true),
    ("implicit_exception", 1, true),
    ("sijump_option", 1, true),
    ("resync_max", 16, true),
    ("out_ready", 1, true),
    ("core_trap", 1, false),
    ("rvfi_valid", 1, false),
    ("rvfi_insn", 32, false),
    ("rvfi_pc_rdata", 32, false),
    ("rvfi_pc_wdata", 32, false),
    ("rvfi_trap", 1, false),
    ("iretire", 1, false),
    ("itype", 4, false),
    ("iaddr", 32, false),
    ("privilege", 2, false),
    ("cause", 5, false),
    ("tval", 32, false),
    ("sijump", 1, false),
    ("ilastsize", 1, false),
    ("store_valid", 1, false),
    ("store_addr", 32, false),
    ("store_data", 32, false),
    ("store_strobe", 4, false),
    ("out_valid", 1, false),
    ("out_data", 8, false),
    ("out_last", 1, false),
    ("trace_lost", 1, false),
    ("cycle_low", 32, false),
    ("retired_low", 32, false),
];

/// The SoC with a front end built with `options`.
pub fn picorv32_soc(options: FrontEndOptions) -> Result<SocVerilog, TopError> {
    let encoder = generate(Config::Rv32, &TopOptions::default())?;
    let fe = if options.swap_branch_itypes {
        front_end::<1>()
    } else {
        front_end::<0>()
    };
    let width = |name: &str| {
        encoder
            .ports
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.width)
    };
    let resync_width = width("resync_max").unwrap_or(16);
    // The srcID of the framed packets: none (0 bits sent) unless the encoder has the pin.
    let src_id = width("src_id").map_or(String::new(), |w| format!(".src_id({w}'d0), "));
    // The run-time branch prediction and implicit return options: off (the SoC's encoder
    // has no predictor and no return stack).
    let options = ["branch_prediction", "implicit_return"]
        .iter()
        .filter(|name| width(name).is_some())
        .map(|name| format!(".{name}(1'b0), "))
        .collect::<String>();
    let mut v = String::new();
    v.push_str(&fe);
    v.push_str(&encoder.verilog);
    v.push_str(&top_module(
        &encoder.top,
        resync_width,
        &format!("{options}{src_id}"),
    ));
    let ports = PINS
        .iter()
        .map(|&(name, width, input)| Port {
            name: name.to_string(),
            width: if name == "resync_max" {
                resync_width
            } else {
                width
            },
            input,
        })
        .collect();
    Ok(SocVerilog { verilog: v, ports })
}

/// The front end's module [`FRONT_END_TOP`], its pins named as their signals.
fn front_end<const SWAP: u64>() -> String {
    let mut front_end = RvfiFrontEnd::<SWAP>::default();
    front_end.connect_all();
    let ports = top_ports(&front_end);
    flatten_ports(
        &generate_named(&front_end, FRONT_END_TOP),
        FRONT_END_TOP,
        &ports,
    )
}

/// The top module: declarations of [`PINS`], the core, the RAM, the front end and the
/// encoder `encoder` (its `resync_max` is `resync_width` bits; `optional_pins`: the
/// connections of the pins that not every encoder build has, the srcID and run-time options).
fn top_module(encoder: &str, resync_width: usize, optional_pins: &str) -> String {
    let mut v = format!(
        "\n// The PicoRV32 SoC of the lock-step co-simulation (etrace-hdl, rvfi::picorv32_soc).\n\
         // Unused: the low bits of load_addr (a word address) and mem_instr.\n\
         /* verilator lint_off UNUSEDSIGNAL */\nmodule {SOC_TOP}(\n"
    );
    let decls: Vec<String> = PINS
        .iter()
        .map(|&(name, width, input)| {
            let width = if name == "resync_max" {
                resync_width
            } else {
                width
            };
            let dir = if input { "input wire" } else { "output wire" };
            if width == 1 {
                format!("    {dir} {name}")
            } else {
                format!("    {dir} [{}:0] {name}", width - 1)
            }
        })
        .collect();
    v.push_str(&decls.join(",\n"));
    let words = 1u64 << (PICORV32_RAM_BITS - 2);
    let hi = PICORV32_RAM_BITS - 1;
    let base_hi = PICORV32_RAM_BASE >> PICORV32_RAM_BITS;
    v.push_str(&format!(
        r#"
);
    wire mem_valid, mem_instr, mem_ready;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [31:0] mem_addr, mem_wdata, mem_rdata;
    wire [3:0] mem_wstrb;
    wire [31:0] rvfi_rs1_rdata, rvfi_rs2_rdata;
    wire [1:0] rvfi_mode;
    // The program RAM: {words} words at 0x{PICORV32_RAM_BASE:08x}.
    reg [31:0] ram [0:{words_max}];
    wire in_ram = mem_addr[31:{bits}] == {base_width}'h{base_hi:x};
    assign mem_ready = mem_valid;
    assign mem_rdata = in_ram ? ram[mem_addr[{hi}:2]] : 32'd0;
    always @(posedge clock) begin
        if (load_enable) ram[load_addr[{hi}:2]] <= load_data;
        else if (mem_valid && in_ram) begin
            if (mem_wstrb[0]) ram[mem_addr[{hi}:2]][7:0] <= mem_wdata[7:0];
            if (mem_wstrb[1]) ram[mem_addr[{hi}:2]][15:8] <= mem_wdata[15:8];
            if (mem_wstrb[2]) ram[mem_addr[{hi}:2]][23:16] <= mem_wdata[23:16];
            if (mem_wstrb[3]) ram[mem_addr[{hi}:2]][31:24] <= mem_wdata[31:24];
        end
    end
    assign store_valid = mem_valid && (mem_wstrb != 4'd0);
    assign store_addr = mem_addr;
    assign store_data = mem_wdata;
    assign store_strobe = mem_wstrb;
    // Cycles and retirements since reset (the host's figures).
    reg [31:0] cycles, retired;
    always @(posedge clock) begin
        cycles <= reset ? 32'd0 : cycles + 32'd1;
        retired <= reset ? 32'd0 : retired + {{31'd0, rvfi_valid}};
    end
    assign cycle_low = cycles;
    assign retired_low = retired;
    // The core's unused outputs are left open.
    /* verilator lint_off PINCONNECTEMPTY */
    picorv32 #({params}) core (
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
    wire [1:0] fe_context_ctype;
    {FRONT_END_TOP} front_end (
        .clock(clock), .reset(reset),
        .valid(rvfi_valid), .insn(rvfi_insn), .pc_rdata(rvfi_pc_rdata),
        .rs1_rdata(rvfi_rs1_rdata), .rs2_rdata(rvfi_rs2_rdata), .trap(rvfi_trap),
        .mode(rvfi_mode),
        .iretire(iretire), .itype(itype), .iaddr(iaddr), .privilege(privilege),
        .cause(cause), .tval(tval), .hart_context(fe_context_ctype[0]),
        .ctype(fe_context_ctype[1]), .sijump(sijump), .ilastsize(ilastsize)
    );
    {encoder} encoder (
        .clock(clock), .reset(reset),
        .iretire(iretire), .itype(itype), .iaddr(iaddr), .privilege(privilege),
        .cause(cause), .tval(tval), .hart_context(fe_context_ctype[0]),
        .ctype(fe_context_ctype[1]), .sijump(sijump), .ilastsize(ilastsize),
        .trace_enable(trace_enable), .trigger(3'd0), .halted(1'b0),
        .full_address(full_address), .implicit_exception(implicit_exception),
        .sijump_option(sijump_option), .resync_max(resync_max),
        {optional_pins}.out_ready(out_ready), .out_valid(out_valid), .out_data(out_data),
        .out_last(out_last), .trace_lost(trace_lost)
    );
endmodule // {SOC_TOP}
"#,
        words_max = words - 1,
        bits = PICORV32_RAM_BITS,
        base_width = 32 - PICORV32_RAM_BITS,
        params = PICORV32_PARAMETERS,
    ));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soc_instantiates_the_generated_modules_with_every_pin() {
        let soc = picorv32_soc(FrontEndOptions::default()).unwrap();
        let encoder = generate(Config::Rv32, &TopOptions::default()).unwrap();
        // Every pin of the encoder but its clock is connected by name.
        for p in &encoder.ports {
            assert!(soc.verilog.contains(&format!(".{}(", p.name)), "{}", p.name);
        }
        assert_eq!(soc.ports.len(), PINS.len());
    }
}
