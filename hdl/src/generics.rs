//! The one place that maps a named configuration ([`Config`]) and the build-time output
//! options to the const generics of the blocks (`hdl/DESIGN.md`, "Configurations"): the
//! widths come from `Config`'s methods, the FIFO depths and ATDATA widths the tops are
//! built for are listed here. Every top and the board tops use these macros; elsewhere
//! the widths are generic.
//!
//! Each macro binds the const generics to names the caller chooses and evaluates its body
//! once per supported value (a `match`), so the body is compiled for every configuration.
//!
//! [`Config`]: crate::config::Config

/// Address bits of the default byte FIFO (64 bytes; the only depth of the ATB tops and
/// the board's encoder).
pub const DEFAULT_FIFO_ADDRESS_BITS: usize = 6;

/// The default byte FIFO depth in bytes.
pub const DEFAULT_FIFO_DEPTH: usize = 1 << DEFAULT_FIFO_ADDRESS_BITS;

/// Width of ATBYTES for a beat of `bytes` bytes: log2(`bytes`), at least 1.
pub const fn atbytes_width(bytes: usize) -> usize {
    let log2 = bytes.trailing_zeros() as usize;
    if log2 == 0 {
        1
    } else {
        log2
    }
}

/// `with_config!(config, [A, E, IT, P] => body)`: evaluates `body` with `A` =
/// `iaddress_width_p`, `E` = `ecause_width_p`, `IT` = itype width and `P` = payload width
/// of `config` (an `etrace_hdl::config::Config`) bound as `const usize` items.
#[macro_export]
macro_rules! with_config {
    ($config:expr, [$a:ident, $e:ident, $it:ident, $p:ident] => $body:expr) => {
        $crate::with_config!(@each $config, [$a, $e, $it, $p], $body;
            Rv32 Rv64 Rv32Itype3 Rv64Itype3)
    };
    (@each $config:expr, [$a:ident, $e:ident, $it:ident, $p:ident], $body:expr;
        $($c:ident)*) => {
        match $config {
            $($crate::config::Config::$c => {
                #[allow(dead_code)]
                const $a: usize = $crate::config::Config::$c.address_width() as usize;
                #[allow(dead_code)]
                const $e: usize = $crate::config::Config::$c.ecause_width() as usize;
                #[allow(dead_code)]
                const $it: usize = $crate::config::Config::$c.itype_width() as usize;
                #[allow(dead_code)]
                const $p: usize = $crate::config::Config::$c.payload_width() as usize;
                $body
            })*
        }
    };
}

/// `with_fifo_depth!(depth, [N] => body)`: `Some(body)` with `N` = log2(`depth`) bound
/// as a `const usize` when `depth` (bytes) is one the tops are built for (16, 32, 64, 128,
/// 256), else `None`.
#[macro_export]
macro_rules! with_fifo_depth {
    ($depth:expr, [$n:ident] => $body:expr) => {
        $crate::with_fifo_depth!(@each $depth, $n, $body; 4 5 6 7 8)
    };
    (@each $depth:expr, $n:ident, $body:expr; $($bits:literal)*) => {
        match $depth {
            $(depth if depth == 1 << $bits => {
                const $n: usize = $bits;
                Some($body)
            })*
            _ => None,
        }
    };
}

/// `with_atb_width!(bytes, [DW, BW] => body)`: `Some(body)` with `DW` = ATDATA width in
/// bits and `BW` = ATBYTES width ([`atbytes_width`]) bound as `const usize` items when
/// `bytes` (the beat in bytes) is one the ATB tops are built for (1, 2, 4, 8, 16), else
/// `None`.
///
/// [`atbytes_width`]: crate::generics::atbytes_width
#[macro_export]
macro_rules! with_atb_width {
    ($bytes:expr, [$dw:ident, $bw:ident] => $body:expr) => {
        $crate::with_atb_width!(@each $bytes, $dw, $bw, $body; 1 2 4 8 16)
    };
    (@each $bytes:expr, $dw:ident, $bw:ident, $body:expr; $($b:literal)*) => {
        match $bytes {
            $(bytes if bytes == $b => {
                const $dw: usize = 8 * $b;
                const $bw: usize = $crate::generics::atbytes_width($b);
                Some($body)
            })*
            _ => None,
        }
    };
}

#[cfg(test)]
mod tests {
    use crate::config::Config;

    fn widths(config: Config) -> [usize; 4] {
        with_config!(config, [A, E, IT, P] => [A, E, IT, P])
    }

    #[test]
    fn const_generics_of_each_configuration() {
        assert_eq!(widths(Config::Rv32), [32, 5, 4, 80]);
        assert_eq!(widths(Config::Rv64), [64, 6, 4, 144]);
        assert_eq!(widths(Config::Rv32Itype3), [32, 5, 3, 80]);
        assert_eq!(widths(Config::Rv64Itype3), [64, 6, 3, 144]);
    }

    #[test]
    fn fifo_depths_and_atb_widths() {
        let depths: Vec<Option<usize>> = [8, 16, 64, 256, 100, 512]
            .iter()
            .map(|&d: &usize| with_fifo_depth!(d, [N] => N))
            .collect();
        assert_eq!(depths, [None, Some(4), Some(6), Some(8), None, None]);
        let atb: Vec<Option<(usize, usize)>> = [1u32, 2, 4, 8, 16, 3, 32]
            .iter()
            .map(|&b| with_atb_width!(b, [DW, BW] => (DW, BW)))
            .collect();
        assert_eq!(
            atb,
            [
                Some((8, 1)),
                Some((16, 1)),
                Some((32, 2)),
                Some((64, 3)),
                Some((128, 4)),
                None,
                None
            ]
        );
    }
}
