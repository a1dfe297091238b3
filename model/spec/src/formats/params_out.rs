//! Parameter files written for a configuration (`etrace gen-verilog` writes them beside the
//! Verilog, so that any decoder can be set up for the hardware's stream): every parameter
//! of `discovery.adoc` (table `tab:iparameters`) by its name, as TOML or in the reference
//! flow's static-config (`name=value`) syntax; [`super::params_file`] reads both back to
//! the same [`Params`].

use std::fmt::Write as _;

use crate::params::{Params, PARAMS};

/// `params` as TOML: a comment line per entry of `header`, then `name = value` lines.
pub fn params_toml(params: &Params, header: &[&str]) -> String {
    params_text(params, header, " = ")
}

/// `params` in the static-config syntax (`.scf`): a comment line per entry of `header`,
/// then `name=value` lines.
pub fn params_static_config(params: &Params, header: &[&str]) -> String {
    params_text(params, header, "=")
}

fn params_text(params: &Params, header: &[&str], separator: &str) -> String {
    let mut text = String::new();
    for line in header {
        let _ = writeln!(text, "# {line}");
    }
    for spec in PARAMS {
        let _ = writeln!(text, "{}{separator}{}", spec.name, (spec.get)(params));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::params_file::{parse_static_config, parse_toml};

    /// Both files read back to the parameters written, over defaults that differ from them.
    #[test]
    fn written_files_read_back_to_the_same_parameters() {
        let mut params = Params::rv32();
        params.bpred_size_p = 6;
        params.return_stack_size_p = 2;
        params.sijump_p = 1;
        let header = ["generated for a test"];
        let toml = params_toml(&params, &header);
        assert!(toml.starts_with("# generated for a test\n"));
        assert!(toml.contains("\nbpred_size_p = 6\n"));
        let scf = params_static_config(&params, &header);
        assert!(scf.contains("\nreturn_stack_size_p=2\n"));
        for (text, parsed) in [
            (&toml, parse_toml(&toml, Params::rv64(), None)),
            (&scf, parse_static_config(&scf, Params::rv64(), None)),
        ] {
            assert_eq!(parsed.unwrap(), params, "{text}");
        }
    }
}
