//! The out-of-context timing harness of `etrace synth`'s encoder-alone build: the encoder
//! top with every input driven by a flip-flop of one long shift register (fed from one
//! pin) and every output captured in a flip-flop (XOR-reduced to one pin). Synthesis can
//! neither remove nor simplify any of the encoder's logic, every encoder path starts and
//! ends at a flip-flop, and the harness needs two pins, so it fits any part (the
//! iCEBreaker's UP5K-SG48 has fewer pins than the encoder has ports). The Fmax nextpnr
//! reports for it is the encoder's.

use std::fmt::Write;

/// One port of a generated top module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Port {
    /// An input (else an output).
    pub input: bool,
    /// Width in bits.
    pub width: usize,
    /// The port name.
    pub name: String,
}

/// The ports of module `top` in rust-hdl's Verilog (`input wire [N:0] name;` /
/// `output reg [N:0] name;` declarations after the module header). `None` when the
/// module or a declaration cannot be read.
pub fn ports(verilog: &str, top: &str) -> Option<Vec<Port>> {
    let header = format!("module {top}(");
    let start = verilog.find(&header)?;
    let body = &verilog[start..];
    let end = body.find("endmodule")?;
    let mut ports = Vec::new();
    for line in body[..end].lines() {
        let words: Vec<&str> = line
            .trim()
            .trim_end_matches(';')
            .split_whitespace()
            .collect();
        let input = match words.first() {
            Some(&"input") => true,
            Some(&"output") => false,
            _ => continue,
        };
        let name = (*words.last()?).to_string();
        let width = match words.iter().find(|w| w.starts_with('[')) {
            Some(range) => {
                let msb: usize = range
                    .trim_start_matches('[')
                    .split(':')
                    .next()?
                    .parse()
                    .ok()?;
                msb + 1
            }
            None => 1,
        };
        ports.push(Port { input, width, name });
    }
    (!ports.is_empty()).then_some(ports)
}

/// The harness module `name` around `top` (module documentation); `clock` is the
/// encoder's clock port and the harness's clock pin.
pub fn harness(name: &str, top: &str, ports: &[Port]) -> String {
    let inputs: Vec<&Port> = ports
        .iter()
        .filter(|p| p.input && p.name != "clock")
        .collect();
    let outputs: Vec<&Port> = ports.iter().filter(|p| !p.input).collect();
    let in_bits: usize = inputs.iter().map(|p| p.width).sum::<usize>().max(2);
    let out_bits: usize = outputs.iter().map(|p| p.width).sum::<usize>().max(1);
    let mut v = String::new();
    let _ = writeln!(
        v,
        "// Out-of-context timing harness of {top} (etrace synth, encoder alone)."
    );
    let _ = writeln!(
        v,
        "module {name}(input wire clock, input wire din, output reg dout);"
    );
    let _ = writeln!(v, "  reg [{}:0] chain = 0;", in_bits - 1);
    let _ = writeln!(v, "  wire [{}:0] outs;", out_bits - 1);
    let _ = writeln!(v, "  reg [{}:0] captured = 0;", out_bits - 1);
    let _ = writeln!(v, "  always @(posedge clock) begin");
    let _ = writeln!(v, "    chain <= {{chain[{}:0], din}};", in_bits - 2);
    let _ = writeln!(v, "    captured <= outs;");
    let _ = writeln!(v, "    dout <= ^captured;");
    let _ = writeln!(v, "  end");
    let _ = write!(v, "  {top} encoder(.clock(clock)");
    let mut bit = 0;
    for p in &inputs {
        let _ = write!(v, ", .{}(chain[{}:{}])", p.name, bit + p.width - 1, bit);
        bit += p.width;
    }
    bit = 0;
    for p in &outputs {
        let _ = write!(v, ", .{}(outs[{}:{}])", p.name, bit + p.width - 1, bit);
        bit += p.width;
    }
    let _ = writeln!(v, ");");
    let _ = writeln!(v, "endmodule");
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOP: &str = "module enc(clock,reset,iaddr,out_data,out_valid);\n    \n    // Module arguments\n    input wire  clock;\n    input wire  reset;\n    input wire  [31:0] iaddr;\n    output reg  [7:0] out_data;\n    output reg  out_valid;\n    reg  x;\nendmodule\n\nmodule enc$sub(a);\n    input wire  [3:0] a;\nendmodule\n";

    #[test]
    fn ports_of_the_top_module_only() {
        let p = ports(TOP, "enc").unwrap();
        let got: Vec<(bool, usize, &str)> = p
            .iter()
            .map(|p| (p.input, p.width, p.name.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (true, 1, "clock"),
                (true, 1, "reset"),
                (true, 32, "iaddr"),
                (false, 8, "out_data"),
                (false, 1, "out_valid"),
            ]
        );
        assert!(ports(TOP, "other").is_none());
    }

    #[test]
    fn harness_drives_every_input_bit_and_captures_every_output_bit() {
        let h = harness("h", "enc", &ports(TOP, "enc").unwrap());
        assert!(h.contains("reg [32:0] chain"), "{h}");
        assert!(h.contains("wire [8:0] outs"), "{h}");
        assert!(h.contains(".reset(chain[0:0]), .iaddr(chain[32:1])"), "{h}");
        assert!(
            h.contains(".out_data(outs[7:0]), .out_valid(outs[8:8])"),
            "{h}"
        );
    }
}
