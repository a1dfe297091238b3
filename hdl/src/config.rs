//! Named hardware configurations (`docs/cli.md`: `--config rv32 | rv64 | rv32-itype3 |
//! rv64-itype3`) and the `discovery.adoc` parameters each one implements.

use etrace_spec::ingress::ItypeWidth;
use etrace_spec::isa::Xlen;
use etrace_spec::params::Params;

/// A named configuration of the encoder hardware.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Config {
    /// RV32: `iaddress_width_p` 32, `itype_width_p` 4.
    Rv32,
    /// RV64: `iaddress_width_p` 64, `itype_width_p` 4.
    Rv64,
    /// RV32 with a 3-bit `itype` ingress.
    Rv32Itype3,
    /// RV64 with a 3-bit `itype` ingress.
    Rv64Itype3,
}

/// Width in bits of the payload port for `iaddress_width_p` = `address_width` and
/// `ecause_width_p` = `ecause_width`: the longest te_inst of the hardware configurations,
/// format 3 subformat 1 with `address` and `tval` (`sec:format31`), rounded up to whole
/// bytes.
pub const fn payload_width(address_width: u32, ecause_width: u32) -> u32 {
    // format 2 + subformat 2 + branch 1 + privilege 2 + ecause + interrupt 1 + thaddr 1
    // + address (a - 1) + tval a.
    (8 + ecause_width + 2 * address_width).div_ceil(8) * 8
}

/// A configuration name that is not one of [`Config::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown configuration `{0}` (expected one of rv32, rv64, rv32-itype3, rv64-itype3)")]
pub struct UnknownConfig(pub String);

impl Config {
    /// Every configuration.
    pub const ALL: [Config; 4] = [
        Config::Rv32,
        Config::Rv64,
        Config::Rv32Itype3,
        Config::Rv64Itype3,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Config::Rv32 => "rv32",
            Config::Rv64 => "rv64",
            Config::Rv32Itype3 => "rv32-itype3",
            Config::Rv64Itype3 => "rv64-itype3",
        }
    }

    /// The configuration of a command-line name.
    pub fn from_name(name: &str) -> Result<Config, UnknownConfig> {
        Config::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| UnknownConfig(name.to_string()))
    }

    /// `iaddress_width_p` (the const generic `A` of the blocks).
    pub const fn address_width(self) -> u32 {
        match self {
            Config::Rv32 | Config::Rv32Itype3 => 32,
            Config::Rv64 | Config::Rv64Itype3 => 64,
        }
    }

    /// `ecause_width_p` (the const generic `E`): that of the model's [`Params`] for the
    /// XLEN.
    pub const fn ecause_width(self) -> u32 {
        match self {
            Config::Rv32 | Config::Rv32Itype3 => 5,
            Config::Rv64 | Config::Rv64Itype3 => 6,
        }
    }

    /// Width `P` of the payload port (the const generic `P`): [`payload_width`] of this
    /// configuration's widths. 80 for RV32, 144 for RV64.
    pub const fn payload_width(self) -> u32 {
        payload_width(self.address_width(), self.ecause_width())
    }

    /// The XLEN of the harts it traces (from `iaddress_width_p`).
    pub fn xlen(self) -> Xlen {
        if self.address_width() == 32 {
            Xlen::X32
        } else {
            Xlen::X64
        }
    }

    /// `itype_width_p` as the ingress port's itype encoding.
    pub fn itype(self) -> ItypeWidth {
        if self.itype_width() == 3 {
            ItypeWidth::W3
        } else {
            ItypeWidth::W4
        }
    }

    /// `itype_width_p` (the const generic `IT`: the itype width of the ingress port).
    pub const fn itype_width(self) -> u32 {
        match self {
            Config::Rv32 | Config::Rv64 => 4,
            Config::Rv32Itype3 | Config::Rv64Itype3 => 3,
        }
    }

    /// The `discovery.adoc` parameters the hardware implements (see `hdl/DESIGN.md`).
    pub fn params(self) -> Params {
        let base = if self.address_width() == 32 {
            Params::rv32()
        } else {
            Params::rv64()
        };
        Params {
            itype_width_p: u64::from(self.itype_width()),
            sijump_p: 1,
            ..base
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for c in Config::ALL {
            assert_eq!(Config::from_name(c.name()), Ok(c));
        }
        assert!(Config::from_name("rv128").is_err());
    }

    #[test]
    fn discovery_parameters_of_each_configuration() {
        let p = Config::Rv32.params();
        assert_eq!(
            (p.iaddress_width_p, p.ecause_width_p, p.itype_width_p),
            (32, 5, 4)
        );
        assert_eq!((p.nocontext_p, p.notime_p, p.sijump_p), (1, 1, 1));
        let p = Config::Rv64Itype3.params();
        assert_eq!(
            (p.iaddress_width_p, p.ecause_width_p, p.itype_width_p),
            (64, 6, 3)
        );
        assert_eq!((p.bpred_size_p, p.return_stack_size_p), (0, 0));
    }

    #[test]
    fn widths_are_those_of_the_parameters() {
        for c in Config::ALL {
            let p = c.params();
            assert_eq!(u64::from(c.address_width()), p.iaddress_width_p, "{c:?}");
            assert_eq!(u64::from(c.ecause_width()), p.ecause_width_p, "{c:?}");
            assert_eq!(u64::from(c.itype_width()), p.itype_width_p, "{c:?}");
        }
        assert_eq!(Config::Rv32.payload_width(), 80);
        assert_eq!(Config::Rv64Itype3.payload_width(), 144);
    }
}
