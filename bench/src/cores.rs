//! The soft cores in lock step (issue 23): for PicoRV32 and SERV on Dhrystone, the
//! co-simulation speed of the verilated SoC (core, RVFI front end, encoder) checked
//! against the hart and the cycle model (`etrace_tb::soc::lockstep`, as
//! `etrace cosim --core`), and the trace bandwidth the core's own timing gives: bits per
//! core cycle and per instruction; and what the board tops' UART carries of it at a few
//! baud rates from a 12 MHz clock (`etrace cosim --core --baud`): how often the FIFO
//! overflowed and how much of the execution the decoded trace then covers. PicoRV32 also
//! with the SoC whose encoder has the branch predictor and the return stack, both options
//! on (`etrace cosim --core picorv32 --bpred-size 6 --return-stack-size 2
//! --branch-prediction --implicit-return`).

use std::fmt::Write as _;
use std::path::Path;

use etrace_hdl::board::cycles_per_bit;
use etrace_tb::soc::lockstep::{self, LockstepConfig, LockstepOutcome, OutputPace};
use etrace_tb::SocVariant;

use crate::harness::Plan;
use crate::table::{duration, short, si, Table};

/// Co-simulation speed target of the issue, core cycles per second.
const TARGET_CYCLES_PER_SECOND: f64 = 1e6;

/// The core clock of the UART rows: the iCE40 boards' oscillator.
const UART_CLOCK_HZ: u32 = 12_000_000;

/// A SoC build of a table row.
#[derive(Debug, Clone, Copy)]
struct Soc {
    /// The row's name.
    label: &'static str,
    /// The core (the program's suffix).
    core: &'static str,
    /// The verilated build.
    variant: SocVariant,
}

impl Soc {
    /// The lock-step run: the encoder's defaults, with branch prediction and implicit
    /// return on where the build has their blocks.
    fn config(self) -> LockstepConfig {
        let mut config = LockstepConfig::new(self.variant);
        let encoder = self.variant.encoder();
        config.options.branch_prediction = encoder.bpred_size > 0;
        config.options.implicit_return = encoder.return_stack_size > 0;
        config
    }
}

const PICORV32: Soc = Soc {
    label: "picorv32",
    core: "picorv32",
    variant: SocVariant::PicoRv32,
};
const PICORV32_BP_IR: Soc = Soc {
    label: "picorv32, predictor + return stack",
    core: "picorv32",
    variant: SocVariant::PicoRv32BpIr,
};
const SERV: Soc = Soc {
    label: "serv",
    core: "serv",
    variant: SocVariant::Serv,
};
const SERV_BP_IR: Soc = Soc {
    label: "serv, predictor + return stack",
    core: "serv",
    variant: SocVariant::ServBpIr,
};

/// The UART rows: SoC and baud rate.
const UART_RUNS: [(Soc, u32); 8] = [
    (PICORV32, 115_200),
    (PICORV32, 1_000_000),
    (PICORV32, 3_000_000),
    (PICORV32_BP_IR, 115_200),
    (PICORV32_BP_IR, 1_000_000),
    (SERV, 115_200),
    (SERV, 1_000_000),
    (SERV_BP_IR, 115_200),
];

/// The section: one row per core on `program` (`<program>-<core>.elf`, e.g. `dhrystone`),
/// the wall time the median of `plan`'s runs.
pub fn section(programs: &Path, program: &str, plan: Plan) -> String {
    let mut t = Table::new(&[
        "core",
        "program",
        "retired",
        "core cycles",
        "cycles / instruction",
        "wall time",
        "cycles / s",
        "bits / core cycle",
        "bits / instruction",
    ]);
    let mut verdicts = Vec::new();
    for soc in [PICORV32, PICORV32_BP_IR, SERV, SERV_BP_IR] {
        let name = format!("{program}-{}", soc.core);
        let core = soc.label;
        eprintln!("bench: lock step: {name} on {core}");
        match measure(programs, &name, soc, plan) {
            Ok(o) => {
                let rate = o.cycles_per_second();
                verdicts.push(format!(
                    "{core} {} cycles/s ({} the target of {} cycles/s)",
                    si(rate),
                    if rate >= TARGET_CYCLES_PER_SECOND {
                        "meets"
                    } else {
                        "below"
                    },
                    si(TARGET_CYCLES_PER_SECOND)
                ));
                t.row(vec![
                    core.to_string(),
                    name,
                    o.retired.to_string(),
                    o.cycles.to_string(),
                    format!("{:.1}", o.program_cycles as f64 / o.retired.max(1) as f64),
                    duration(o.seconds),
                    si(rate),
                    format!("{:.4}", o.bits_per_cycle()),
                    format!("{:.3}", o.bits_per_instruction()),
                ]);
            }
            Err(e) => {
                let mut cells = vec![core.to_string(), name, format!("fails: {}", short(&e))];
                cells.resize(9, String::new());
                t.row(cells);
            }
        }
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "### Soft cores in lock step\n\n`etrace cosim --core`: the verilated SoC (core, RVFI \
         front end, `rv32` encoder) checked retirement by retirement against the hart model, \
         the encoder's port cycle by cycle against the cycle model, the bytes decoded against \
         the hart; default encoder options, and for the SoC whose encoder has a branch \
         predictor of 64 entries and a return stack of 4 (`--bpred-size 6 \
         --return-stack-size 2`) `--branch-prediction --implicit-return`; {}. Bits per core \
         cycle count the cycles until the program's last instruction.\n",
        plan.describe()
    );
    s.push_str(&t.render());
    let _ = writeln!(s, "\n- {}", verdicts.join("; "));
    s.push_str(&uart_table(programs, program));
    s
}

/// The UART rows ([`UART_RUNS`]) on `program`: one run each (the figures do not depend on
/// the machine).
fn uart_table(programs: &Path, program: &str) -> String {
    let mut t = Table::new(&[
        "core",
        "program",
        "baud",
        "bytes sent",
        "losses (in the trace)",
        "cycles losing",
        "steps decoded / hart's",
        "steps lost",
    ]);
    for (soc, baud) in UART_RUNS {
        let name = format!("{program}-{}", soc.core);
        let core = soc.label;
        eprintln!("bench: lock step through a {baud} baud UART: {name} on {core}");
        let row = match uart_run(programs, &name, soc, baud) {
            Ok(o) => {
                let all = o.hart_steps.unwrap_or(o.decoded.steps);
                vec![
                    core.to_string(),
                    name,
                    baud.to_string(),
                    o.bytes.to_string(),
                    format!("{} ({})", o.losses, o.decoded.runs.saturating_sub(1)),
                    o.lost_cycles.to_string(),
                    format!("{} / {all}", o.decoded.steps),
                    format!("{:.1} %", 100.0 * o.steps_lost() as f64 / all.max(1) as f64),
                ]
            }
            Err(e) => {
                let mut cells = vec![core.to_string(), name, format!("fails: {}", short(&e))];
                cells.resize(8, String::new());
                cells
            }
        };
        t.row(row);
    }
    let mut s = format!(
        "\nThrough the board tops' 8N1 UART at {} MHz (`etrace cosim --core --baud`; \
         64-byte FIFO): every loss checked against the cycle model, the decode check \
         resuming after each; a loss at the end of the run is not in the trace.\n\n",
        UART_CLOCK_HZ / 1_000_000
    );
    s.push_str(&t.render());
    s
}

/// The bytes of `<programs>/elf/<name>.elf`.
fn read_elf(programs: &Path, name: &str) -> Result<Vec<u8>, String> {
    let path = programs.join("elf").join(format!("{name}.elf"));
    std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))
}

/// One lock-step run of `name` on `soc` with its output taken by a UART at `baud`.
fn uart_run(programs: &Path, name: &str, soc: Soc, baud: u32) -> Result<LockstepOutcome, String> {
    let elf = read_elf(programs, name)?;
    let mut config = soc.config();
    config.pace = OutputPace::Uart {
        cycles_per_bit: cycles_per_bit(UART_CLOCK_HZ, baud).map_err(|e| e.to_string())?,
    };
    lockstep::run(&elf, &config).map_err(|e| e.to_string())
}

/// The lock-step runs of `name` on `soc`: the outcome of the run with the median wall
/// time.
fn measure(programs: &Path, name: &str, soc: Soc, plan: Plan) -> Result<LockstepOutcome, String> {
    let elf = read_elf(programs, name)?;
    let config = soc.config();
    let run = || lockstep::run(&elf, &config).map_err(|e| e.to_string());
    for _ in 0..plan.warmup {
        run()?;
    }
    let mut outcomes = (0..plan.runs.max(1))
        .map(|_| run())
        .collect::<Result<Vec<_>, _>>()?;
    outcomes.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
    let middle = outcomes.len() / 2;
    Ok(outcomes.swap_remove(middle))
}
