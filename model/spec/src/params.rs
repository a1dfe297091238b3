//! Encoder parameters of `discovery.adoc` (table `tab:iparameters`), with the defaults of
//! the required and recommended discoverable attributes (tables `tab:requiredAttributes`,
//! `tab:optionalAttributes`, `tab:otherAttributes`).
//!
//! Parsing from files (TOML and the reference flow's `name=value` static-config syntax) is
//! in `formats::params_file`.

use crate::ingress::ItypeWidth;

/// Instruction-trace parameters (`discovery.adoc`, `tab:iparameters`). Field names are the
/// spec's parameter names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Params {
    /// `arch_p`: architecture version the encoder complies with.
    pub arch_p: u64,
    /// `blocks_p`: number of times iretire, itype etc. are replicated.
    pub blocks_p: u64,
    /// `bpred_size_p`: branch predictor has 2^n entries; 0 = none.
    pub bpred_size_p: u64,
    /// `cache_size_p`: jump target cache has 2^n entries; 0 = none.
    pub cache_size_p: u64,
    /// `call_counter_size_p`: nested call counter has 2^n bits; 0 = none.
    pub call_counter_size_p: u64,
    /// `ctype_width_p`: width of the ctype bus.
    pub ctype_width_p: u64,
    /// `context_width_p`: width of the context bus.
    pub context_width_p: u64,
    /// `time_width_p`: width of the time bus.
    pub time_width_p: u64,
    /// `ecause_width_p`: width of the exception cause bus.
    pub ecause_width_p: u64,
    /// `ecause_choice_p`: bits of cause matched by multiple-choice filtering.
    pub ecause_choice_p: u64,
    /// `f0s_width_p`: width of the format 0 subformat field (`payload.adoc`, `sec:f0s`).
    pub f0s_width_p: u64,
    /// `filter_context_p`: filtering on context supported.
    pub filter_context_p: u64,
    /// `filter_time_p`: filtering on time supported.
    pub filter_time_p: u64,
    /// `filter_excint_p`: filtering on exception cause / interrupt supported.
    pub filter_excint_p: u64,
    /// `filter_privilege_p`: filtering on privilege supported.
    pub filter_privilege_p: u64,
    /// `filter_tval_p`: filtering on trap value supported.
    pub filter_tval_p: u64,
    /// `iaddress_lsb_p`: LSB of the instruction address bus to trace (1 with C extension).
    pub iaddress_lsb_p: u64,
    /// `iaddress_width_p`: width of the instruction address bus (XLEN).
    pub iaddress_width_p: u64,
    /// `iretire_width_p`: width of the iretire bus.
    pub iretire_width_p: u64,
    /// `ilastsize_width_p`: width of the ilastsize bus.
    pub ilastsize_width_p: u64,
    /// `itype_width_p`: width of the itype bus (3 or 4).
    pub itype_width_p: u64,
    /// `nocontext_p`: exclude context from te_inst packets when 1.
    pub nocontext_p: u64,
    /// `notime_p`: exclude time from te_inst packets when 1.
    pub notime_p: u64,
    /// `privilege_width_p`: width of the privilege bus.
    pub privilege_width_p: u64,
    /// `retires_p`: maximum number of instructions retired per block.
    pub retires_p: u64,
    /// `return_stack_size_p`: return address stack has 2^n entries; 0 = none.
    pub return_stack_size_p: u64,
    /// `sijump_p`: the sijump input is connected (sequentially inferable jumps).
    pub sijump_p: u64,
    /// `impdef_width_p`: width of the implementation-defined input bus.
    pub impdef_width_p: u64,
    /// `comparators_p`: number of filter comparators (optional filtering attributes).
    pub comparators_p: u64,
    /// `filters_p`: number of filters (optional filtering attributes).
    pub filters_p: u64,
    /// `taken_branches_p`: maximum number of taken branches per block (reference flow).
    pub taken_branches_p: u64,
}

impl Default for Params {
    /// The defaults of the discoverable attributes (`discovery.adoc`), expressed as
    /// parameter values (attribute + 1 for widths).
    fn default() -> Self {
        Params {
            arch_p: 0,
            blocks_p: 1,
            bpred_size_p: 0,
            cache_size_p: 0,
            call_counter_size_p: 0,
            ctype_width_p: 1,
            context_width_p: 1,
            time_width_p: 1,
            ecause_width_p: 4,
            ecause_choice_p: 5,
            f0s_width_p: 0,
            filter_context_p: 1,
            filter_time_p: 1,
            filter_excint_p: 1,
            filter_privilege_p: 1,
            filter_tval_p: 1,
            iaddress_lsb_p: 1,
            iaddress_width_p: 32,
            iretire_width_p: 2,
            ilastsize_width_p: 1,
            itype_width_p: 4,
            nocontext_p: 1,
            notime_p: 1,
            privilege_width_p: 2,
            retires_p: 1,
            return_stack_size_p: 0,
            sijump_p: 0,
            impdef_width_p: 1,
            comparators_p: 1,
            filters_p: 1,
            taken_branches_p: 1,
        }
    }
}

/// Accessor for one parameter by its spec name, used by the file parsers and the listing.
pub struct ParamSpec {
    /// The spec name, e.g. `iaddress_width_p`.
    pub name: &'static str,
    /// Smallest accepted value.
    pub min: u64,
    /// Largest accepted value.
    pub max: u64,
    /// Reads the field.
    pub get: fn(&Params) -> u64,
    /// Writes the field.
    pub set: fn(&mut Params, u64),
}

macro_rules! param_table {
    ($($field:ident: $min:expr, $max:expr;)*) => {
        /// Every parameter with its accepted range (`discovery.adoc`, `tab:iparameters`).
        pub const PARAMS: &[ParamSpec] = &[
            $(ParamSpec {
                name: stringify!($field),
                min: $min,
                max: $max,
                get: |p| p.$field,
                set: |p, v| p.$field = v,
            },)*
        ];
    };
}

param_table! {
    arch_p: 0, 15;
    blocks_p: 1, 1;
    bpred_size_p: 0, 15;
    cache_size_p: 0, 15;
    call_counter_size_p: 0, 7;
    ctype_width_p: 0, 2;
    context_width_p: 0, 64;
    time_width_p: 0, 64;
    ecause_width_p: 1, 32;
    ecause_choice_p: 0, 32;
    f0s_width_p: 0, 2;
    filter_context_p: 0, 1;
    filter_time_p: 0, 1;
    filter_excint_p: 0, 15;
    filter_privilege_p: 0, 1;
    filter_tval_p: 0, 1;
    iaddress_lsb_p: 0, 2;
    iaddress_width_p: 16, 64;
    iretire_width_p: 1, 8;
    ilastsize_width_p: 1, 2;
    itype_width_p: 3, 4;
    nocontext_p: 0, 1;
    notime_p: 0, 1;
    privilege_width_p: 1, 3;
    retires_p: 1, 1;
    return_stack_size_p: 0, 15;
    sijump_p: 0, 1;
    impdef_width_p: 0, 64;
    comparators_p: 0, 16;
    filters_p: 0, 16;
    taken_branches_p: 1, 1;
}

/// A parameter name that is not in `discovery.adoc`'s list, or a value out of range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// The name is not a known parameter.
    #[error("unknown parameter `{name}`")]
    UnknownName {
        /// The name as written.
        name: String,
    },
    /// The value is outside the range the model supports.
    #[error("parameter `{name}` = {value} is out of range {min}..={max}")]
    OutOfRange {
        /// The parameter name.
        name: &'static str,
        /// The value given.
        value: u64,
        /// Smallest accepted value.
        min: u64,
        /// Largest accepted value.
        max: u64,
    },
}

impl Params {
    /// Parameters for an RV32 hart with the C extension (`iaddress_width_p` 32).
    pub fn rv32() -> Params {
        Params {
            iaddress_width_p: 32,
            ecause_width_p: 5,
            ..Params::default()
        }
    }

    /// Parameters for an RV64 hart with the C extension (`iaddress_width_p` 64).
    pub fn rv64() -> Params {
        Params {
            iaddress_width_p: 64,
            ecause_width_p: 6,
            ..Params::default()
        }
    }

    /// Looks a parameter up by its spec name.
    pub fn spec(name: &str) -> Option<&'static ParamSpec> {
        PARAMS.iter().find(|p| p.name == name)
    }

    /// Sets a parameter by its spec name, checking its range.
    pub fn set(&mut self, name: &str, value: u64) -> Result<(), ParamError> {
        let spec = Params::spec(name).ok_or_else(|| ParamError::UnknownName {
            name: name.to_string(),
        })?;
        if value < spec.min || value > spec.max {
            return Err(ParamError::OutOfRange {
                name: spec.name,
                value,
                min: spec.min,
                max: spec.max,
            });
        }
        (spec.set)(self, value);
        Ok(())
    }

    /// Reads a parameter by its spec name.
    pub fn get(&self, name: &str) -> Option<u64> {
        Params::spec(name).map(|s| (s.get)(self))
    }

    /// The itype bus width as a typed value.
    pub fn itype_width(&self) -> ItypeWidth {
        ItypeWidth::from_bits(self.itype_width_p).unwrap_or_default()
    }

    /// Whether te_inst packets carry a context field.
    pub fn has_context(&self) -> bool {
        self.nocontext_p == 0
    }

    /// Whether te_inst packets carry a time field.
    pub fn has_time(&self) -> bool {
        self.notime_p == 0
    }

    /// Width in bits of the `address` field of te_inst packets
    /// (`iaddress_width_p - iaddress_lsb_p`, `payload.adoc`).
    pub fn address_field_width(&self) -> u32 {
        (self.iaddress_width_p - self.iaddress_lsb_p) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discovery_defaults_map_to_parameters() {
        // tab:requiredAttributes: iaddress_width 31 -> 32, ecause_width 3 -> 4,
        // privilege_width 1 -> 2, iaddress_lsb 0 -> 1, nocontext 1, notime 1.
        let p = Params::default();
        assert_eq!(p.iaddress_width_p, 32);
        assert_eq!(p.ecause_width_p, 4);
        assert_eq!(p.privilege_width_p, 2);
        assert_eq!(p.iaddress_lsb_p, 1);
        assert_eq!((p.nocontext_p, p.notime_p), (1, 1));
        assert_eq!(p.itype_width_p, 4);
    }

    #[test]
    fn set_checks_name_and_range() {
        let mut p = Params::default();
        p.set("iaddress_width_p", 64).unwrap();
        assert_eq!(p.get("iaddress_width_p"), Some(64));
        assert_eq!(
            p.set("itype_width_p", 5),
            Err(ParamError::OutOfRange {
                name: "itype_width_p",
                value: 5,
                min: 3,
                max: 4
            })
        );
        assert_eq!(
            p.set("no_such_p", 1),
            Err(ParamError::UnknownName {
                name: "no_such_p".into()
            })
        );
    }

    #[test]
    fn every_default_is_in_its_range() {
        let p = Params::default();
        for spec in PARAMS {
            let v = (spec.get)(&p);
            assert!(v >= spec.min && v <= spec.max, "{} = {v}", spec.name);
        }
    }
}
