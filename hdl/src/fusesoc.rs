//! FuseSoC CAPI2 core description of a generated encoder (`etrace gen-verilog`), so that
//! the Verilog drops into a FuseSoC project as one core. To choose the generation options
//! from a FuseSoC project instead, the generator core `fusesoc/etrace.core` runs
//! `etrace gen-verilog` with them and hands FuseSoC the core written here.

use std::fmt;

/// The value of one generation parameter, as a CAPI2 parameter's `datatype` and `default`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParameterValue {
    /// `datatype: int`.
    Int(u64),
    /// `datatype: bool`.
    Bool(bool),
    /// `datatype: str` (a word such as `smi`; written unquoted).
    Str(&'static str),
}

impl ParameterValue {
    /// The CAPI2 `datatype` of the value.
    fn datatype(&self) -> &'static str {
        match self {
            ParameterValue::Int(_) => "int",
            ParameterValue::Bool(_) => "bool",
            ParameterValue::Str(_) => "str",
        }
    }
}

impl fmt::Display for ParameterValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParameterValue::Int(v) => write!(f, "{v}"),
            ParameterValue::Bool(v) => write!(f, "{v}"),
            ParameterValue::Str(v) => f.write_str(v),
        }
    }
}

/// The `.core` file text for the Verilog file `verilog_file` whose top module is `top`
/// (its lint target: Verilator with the waivers of `scripts/check-verilog.sh`), with the
/// generation parameters `parameters` (names and values, fixed in the Verilog) as CAPI2
/// parameters of the default target: `vlogdefine`s whose default is the generated value,
/// so a FuseSoC project sees and can check them (setting one changes nothing: a different
/// value needs other Verilog, which the generator core `fusesoc/etrace.core` makes).
pub fn core_file(
    top: &str,
    verilog_file: &str,
    description: &str,
    parameters: &[(&str, ParameterValue)],
) -> String {
    let version = env!("CARGO_PKG_VERSION");
    let waivers = crate::verilog::CHECK_WAIVERS.join(", ");
    let mut declared = String::new();
    let mut names = Vec::new();
    for (name, value) in parameters {
        declared.push_str(&format!(
            "\x20 {name}:\n\x20   datatype: {}\n\x20   default: {value}\n\x20   \
             paramtype: vlogdefine\n\x20   description: generation parameter (fixed in the \
             Verilog; regenerate to change it)\n",
            value.datatype()
        ));
        names.push(*name);
    }
    let section = if parameters.is_empty() {
        String::new()
    } else {
        format!("parameters:\n{declared}\n")
    };
    let target_parameters = if parameters.is_empty() {
        String::new()
    } else {
        format!("\x20   parameters: [{}]\n", names.join(", "))
    };
    format!(
        "CAPI=2:\n\
         name: etrace:trace:{top}:{version}\n\
         description: {description}\n\
         \n\
         filesets:\n\
         \x20 rtl:\n\
         \x20   files:\n\
         \x20     - {verilog_file}\n\
         \x20   file_type: verilogSource\n\
         \n\
         {section}\
         targets:\n\
         \x20 default:\n\
         \x20   filesets: [rtl]\n\
         {target_parameters}\
         \x20   toplevel: {top}\n\
         \x20 lint:\n\
         \x20   default_tool: verilator\n\
         \x20   filesets: [rtl]\n\
         \x20   toplevel: {top}\n\
         \x20   tools:\n\
         \x20     verilator:\n\
         \x20       mode: lint-only\n\
         \x20       verilator_options: [-Wall, {waivers}]\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_file_names_the_verilog_and_the_top() {
        let text = core_file(
            "etrace_encoder_rv32",
            "etrace_encoder_rv32.v",
            "E-Trace encoder",
            &[],
        );
        assert!(text.starts_with("CAPI=2:\n"));
        assert!(text.contains("name: etrace:trace:etrace_encoder_rv32:"));
        assert!(text.contains("      - etrace_encoder_rv32.v\n"));
        assert_eq!(text.matches("toplevel: etrace_encoder_rv32\n").count(), 2);
        assert!(text.contains("verilator_options: [-Wall, -Wno-DECLFILENAME]\n"));
        assert!(!text.contains("parameters"));
    }

    #[test]
    fn core_file_carries_the_generation_parameters() {
        let text = core_file(
            "etrace_encoder_rv32",
            "etrace_encoder_rv32.v",
            "E-Trace encoder",
            &[
                ("framing", ParameterValue::Str("smi")),
                ("timestamp", ParameterValue::Bool(true)),
                ("bpred_size_p", ParameterValue::Int(6)),
                ("return_stack_size_p", ParameterValue::Int(2)),
            ],
        );
        assert!(text.contains(
            "parameters:\n  framing:\n    datatype: str\n    default: smi\n    \
             paramtype: vlogdefine\n"
        ));
        assert!(text.contains("  bpred_size_p:\n    datatype: int\n    default: 6\n"));
        assert!(text.contains("  return_stack_size_p:\n    datatype: int\n    default: 2\n"));
        assert!(text.contains("  timestamp:\n    datatype: bool\n    default: true\n"));
        assert!(text
            .contains("    parameters: [framing, timestamp, bpred_size_p, return_stack_size_p]\n"));
    }
}
