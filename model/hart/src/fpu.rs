//! IEEE 754 arithmetic of the F and D extensions (unprivileged ISA chapters "F" and "D"):
//! NaN-boxing of single-precision values in the 64-bit `f` registers, canonical NaNs,
//! the five accrued exception flags and the five rounding modes.
//!
//! Round-to-nearest-even results come from the host's correctly rounded `f32`/`f64`
//! arithmetic (`mul_add` for the fused operations). For the other rounding modes the
//! exact error of the rounded result (two-sum, fused-multiply residuals) tells which way
//! the exact value lies and the result is moved by one unit in the last place when needed;
//! `rmm` is treated as `rne` except for conversions to integers. Flags are exact except
//! in some underflow corner cases (tiny residuals that are not representable).

use std::cmp::Ordering;
use std::ops::{Add, Div, Mul, Neg, Sub};

/// Accrued exception flag: inexact.
pub const NX: u8 = 1;
/// Accrued exception flag: underflow.
pub const UF: u8 = 2;
/// Accrued exception flag: overflow.
pub const OF: u8 = 4;
/// Accrued exception flag: divide by zero.
pub const DZ: u8 = 8;
/// Accrued exception flag: invalid operation.
pub const NV: u8 = 16;

/// Rounding modes (`rm` field / `frm`).
pub const RNE: u8 = 0;
/// Round towards zero.
pub const RTZ: u8 = 1;
/// Round down.
pub const RDN: u8 = 2;
/// Round up.
pub const RUP: u8 = 3;
/// Round to nearest, ties to max magnitude.
pub const RMM: u8 = 4;

/// A binary floating-point format: `f32` (F) or `f64` (D).
pub trait Fp:
    Copy
    + PartialEq
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// Sign bit.
    const SIGN: u64;
    /// Exponent field mask.
    const EXP: u64;
    /// Fraction field mask.
    const FRAC: u64;
    /// Quiet bit of a NaN.
    const QUIET: u64;
    /// The canonical NaN.
    const CANONICAL_NAN: u64;
    /// Smallest positive normal number.
    const MIN_NORMAL: Self;
    /// Zero.
    const ZERO: Self;
    /// The value of raw bits.
    fn from_raw(bits: u64) -> Self;
    /// The raw bits.
    fn raw(self) -> u64;
    /// The value held in a 64-bit `f` register (NaN-boxing for `f32`).
    fn unbox(reg: u64) -> Self;
    /// The 64-bit `f` register image of a value (NaN-boxed for `f32`).
    fn boxed(self) -> u64;
    /// Square root (correctly rounded, to nearest).
    fn sqrt(self) -> Self;
    /// Fused multiply-add (correctly rounded, to nearest).
    fn mul_add(self, b: Self, c: Self) -> Self;
    /// Exact widening to `f64`.
    fn to_f64(self) -> f64;
    /// Integer to float, rounded to nearest even.
    fn from_i128(v: i128) -> Self;
    /// Integral float to integer (exact for the integral values produced here).
    fn to_i128(self) -> i128;
    /// How the exact product `a * b` compares to its nearest-rounded value `p` (finite,
    /// non-zero operands).
    fn product_cmp(a: Self, b: Self, p: Self) -> Ordering;
}

/// The [`Fp`] items that follow from the format's layout (IEEE 754 "binary32" /
/// "binary64": sign, exponent, fraction with `MANTISSA_DIGITS - 1` bits) and Rust's own
/// operations on the type, the same for both formats.
macro_rules! native_fp_items {
    ($t:ident) => {
        const SIGN: u64 = 1 << (8 * std::mem::size_of::<$t>() - 1);
        const FRAC: u64 = (1 << ($t::MANTISSA_DIGITS - 1)) - 1;
        const EXP: u64 = (Self::SIGN - 1) & !Self::FRAC;
        const QUIET: u64 = 1 << ($t::MANTISSA_DIGITS - 2);
        const CANONICAL_NAN: u64 = Self::EXP | Self::QUIET;
        const MIN_NORMAL: $t = $t::MIN_POSITIVE;
        const ZERO: $t = 0.0;
        fn sqrt(self) -> $t {
            $t::sqrt(self)
        }
        fn mul_add(self, b: $t, c: $t) -> $t {
            $t::mul_add(self, b, c)
        }
        fn from_i128(v: i128) -> $t {
            v as $t
        }
        fn to_i128(self) -> i128 {
            self as i128
        }
    };
}

impl Fp for f32 {
    native_fp_items!(f32);
    fn from_raw(bits: u64) -> f32 {
        f32::from_bits(bits as u32)
    }
    fn raw(self) -> u64 {
        u64::from(self.to_bits())
    }
    fn unbox(reg: u64) -> f32 {
        if reg >> 32 == 0xffff_ffff {
            f32::from_bits(reg as u32)
        } else {
            f32::from_bits(0x7fc0_0000)
        }
    }
    fn boxed(self) -> u64 {
        0xffff_ffff_0000_0000 | u64::from(self.to_bits())
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn product_cmp(a: f32, b: f32, p: f32) -> Ordering {
        // The product of two singles is exact in double precision.
        let exact = f64::from(a) * f64::from(b);
        exact.partial_cmp(&f64::from(p)).unwrap_or(Ordering::Equal)
    }
}

impl Fp for f64 {
    native_fp_items!(f64);
    fn from_raw(bits: u64) -> f64 {
        f64::from_bits(bits)
    }
    fn raw(self) -> u64 {
        self.to_bits()
    }
    fn unbox(reg: u64) -> f64 {
        f64::from_bits(reg)
    }
    fn boxed(self) -> u64 {
        self.to_bits()
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn product_cmp(a: f64, b: f64, p: f64) -> Ordering {
        if p.abs() >= f64::MIN_POSITIVE {
            return sign_of(a.mul_add(b, -p));
        }
        // A tiny product: its residual may not be representable. Scale the operands
        // below 1 by 2^600 (exactly) so that the product is normal, compare there.
        const SCALE: f64 = f64::from_bits((1023 + 600) << 52);
        let scale = |x: f64| if x.abs() < 1.0 { SCALE } else { 1.0 };
        let (sa, sb) = (scale(a), scale(b));
        let (a_s, b_s) = (a * sa, b * sb);
        let scaled = a_s * b_s;
        let p_scaled = p * sa * sb;
        if scaled != p_scaled {
            scaled.partial_cmp(&p_scaled).unwrap_or(Ordering::Equal)
        } else {
            sign_of(a_s.mul_add(b_s, -scaled))
        }
    }
}

fn is_nan<F: Fp>(x: F) -> bool {
    x.raw() & F::EXP == F::EXP && x.raw() & F::FRAC != 0
}

fn is_snan<F: Fp>(x: F) -> bool {
    is_nan(x) && x.raw() & F::QUIET == 0
}

fn is_inf<F: Fp>(x: F) -> bool {
    x.raw() & !F::SIGN == F::EXP
}

fn is_zero<F: Fp>(x: F) -> bool {
    x.raw() & !F::SIGN == 0
}

fn is_neg<F: Fp>(x: F) -> bool {
    x.raw() & F::SIGN != 0
}

fn canonical<F: Fp>() -> F {
    F::from_raw(F::CANONICAL_NAN)
}

fn abs<F: Fp>(x: F) -> F {
    F::from_raw(x.raw() & !F::SIGN)
}

/// The next representable value above `x` (IEEE 754 nextUp).
fn next_up<F: Fp>(x: F) -> F {
    let b = x.raw();
    if is_nan(x) || b == F::EXP {
        return x;
    }
    if is_zero(x) {
        return F::from_raw(1);
    }
    if b & F::SIGN == 0 {
        F::from_raw(b + 1)
    } else {
        F::from_raw(b - 1)
    }
}

fn next_down<F: Fp>(x: F) -> F {
    -next_up(-x)
}

fn sign_of<F: Fp>(x: F) -> Ordering {
    x.partial_cmp(&F::ZERO).unwrap_or(Ordering::Equal)
}

/// Round-to-nearest result `r` of an operation whose exact value compares `cmp` to `r`,
/// rounded with `rm` instead.
fn directed<F: Fp>(r: F, cmp: Ordering, rm: u8) -> F {
    match (cmp, rm) {
        (_, RNE | RMM) => r,
        (Ordering::Greater, RUP) => next_up(r),
        (Ordering::Less, RDN) => next_down(r),
        (Ordering::Greater, RTZ) if is_neg(r) => next_up(r),
        (Ordering::Less, RTZ) if !is_neg(r) => next_down(r),
        _ => r,
    }
}

/// Final rounding and flags of a finite-operand operation with nearest result `r`.
fn finish<F: Fp>(r: F, cmp: Ordering, rm: u8) -> (F, u8) {
    let mut flags = 0;
    if is_inf(r) {
        // Overflow from finite operands.
        let cmp = if is_neg(r) {
            Ordering::Greater
        } else {
            Ordering::Less
        };
        return (directed(r, cmp, rm), OF | NX);
    }
    let out = directed(r, cmp, rm);
    if is_inf(out) {
        // Rounded up past the largest finite value.
        return (out, OF | NX);
    }
    if cmp != Ordering::Equal {
        flags |= NX;
        if abs(out) < F::MIN_NORMAL {
            flags |= UF;
        }
    }
    (out, flags)
}

/// The NaN result of an operation with a NaN operand among `ops`: canonical NaN, NV for
/// a signaling NaN.
fn propagate_nan<F: Fp>(ops: &[F]) -> Option<(F, u8)> {
    if ops.iter().any(|&x| is_nan(x)) {
        let nv = if ops.iter().any(|&x| is_snan(x)) {
            NV
        } else {
            0
        };
        return Some((canonical(), nv));
    }
    None
}

/// Error of `s = a + b` (two-sum: exact value = `s + err`).
fn two_sum_err<F: Fp>(a: F, b: F, s: F) -> F {
    let bb = s - a;
    (a - (s - bb)) + (b - bb)
}

/// `a + b`.
pub fn add<F: Fp>(a: F, b: F, rm: u8) -> (F, u8) {
    if let Some(n) = propagate_nan(&[a, b]) {
        return n;
    }
    let s = a + b;
    if is_nan(s) {
        return (canonical(), NV);
    }
    if is_inf(a) || is_inf(b) {
        return (s, 0);
    }
    if is_inf(s) {
        return finish(s, Ordering::Equal, rm);
    }
    let err = two_sum_err(a, b, s);
    if is_zero(s) && is_zero(err) {
        // An exact zero sum of operands of opposite signs is -0 when rounding down.
        let z = if rm == RDN && is_neg(a) != is_neg(b) {
            -F::ZERO
        } else {
            s
        };
        return (z, 0);
    }
    finish(s, sign_of(err), rm)
}

/// `a - b`.
pub fn sub<F: Fp>(a: F, b: F, rm: u8) -> (F, u8) {
    if let Some(n) = propagate_nan(&[a, b]) {
        return n;
    }
    add(a, -b, rm)
}

/// `a * b`.
pub fn mul<F: Fp>(a: F, b: F, rm: u8) -> (F, u8) {
    if let Some(n) = propagate_nan(&[a, b]) {
        return n;
    }
    if (is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b)) {
        return (canonical(), NV);
    }
    let p = a * b;
    if is_inf(a) || is_inf(b) {
        return (p, 0);
    }
    if is_inf(p) {
        return finish(p, Ordering::Equal, rm);
    }
    if is_zero(a) || is_zero(b) {
        return (p, 0);
    }
    finish(p, F::product_cmp(a, b, p), rm)
}

/// `a / b`.
pub fn div<F: Fp>(a: F, b: F, rm: u8) -> (F, u8) {
    if let Some(n) = propagate_nan(&[a, b]) {
        return n;
    }
    if (is_zero(a) && is_zero(b)) || (is_inf(a) && is_inf(b)) {
        return (canonical(), NV);
    }
    let q = a / b;
    if is_zero(b) {
        return (q, DZ);
    }
    if is_inf(a) || is_inf(b) || is_zero(a) {
        return (q, 0);
    }
    if is_inf(q) {
        return finish(q, Ordering::Equal, rm);
    }
    // a - q*b: the exact quotient minus q has the sign of (a - q*b) / b.
    let r = (-q).mul_add(b, a);
    let cmp = if is_neg(b) {
        sign_of(r).reverse()
    } else {
        sign_of(r)
    };
    finish(q, cmp, rm)
}

/// Square root.
pub fn sqrt<F: Fp>(a: F, rm: u8) -> (F, u8) {
    if let Some(n) = propagate_nan(&[a]) {
        return n;
    }
    if is_zero(a) {
        return (a, 0);
    }
    if is_neg(a) {
        return (canonical(), NV);
    }
    if is_inf(a) {
        return (a, 0);
    }
    let s = a.sqrt();
    let r = (-s).mul_add(s, a);
    finish(s, sign_of(r), rm)
}

/// Fused multiply-add `±(a * b) ± c` (`neg_product`, `neg_addend`), one rounding.
pub fn fma<F: Fp>(a: F, b: F, c: F, neg_product: bool, neg_addend: bool, rm: u8) -> (F, u8) {
    let invalid_product = (is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b));
    if let Some((n, nv)) = propagate_nan(&[a, b, c]) {
        return (n, if invalid_product { NV } else { nv });
    }
    if invalid_product {
        return (canonical(), NV);
    }
    let a = if neg_product { -a } else { a };
    let c = if neg_addend { -c } else { c };
    let product_inf = is_inf(a) || is_inf(b);
    let product_neg = is_neg(a) != is_neg(b);
    if product_inf && is_inf(c) && product_neg != is_neg(c) {
        return (canonical(), NV);
    }
    let r = a.mul_add(b, c);
    if product_inf || is_inf(c) {
        return (r, 0);
    }
    if is_inf(r) {
        return finish(r, Ordering::Equal, rm);
    }
    // Residual of the exact a*b + c against r: a*b = p + pe exactly, p + c = s + e1.
    let p = a * b;
    let pe = a.mul_add(b, -p);
    let cmp = if is_inf(p) {
        Ordering::Equal
    } else {
        let s = p + c;
        let e1 = two_sum_err(p, c, s);
        sign_of(((s - r) + e1) + pe)
    };
    if is_zero(r) && cmp == Ordering::Equal {
        let z = if rm == RDN && product_neg != is_neg(c) {
            -F::ZERO
        } else {
            r
        };
        return (z, 0);
    }
    finish(r, cmp, rm)
}

/// `fmin` / `fmax` (IEEE 754-2019 minimumNumber / maximumNumber, -0 < +0).
pub fn min_max<F: Fp>(a: F, b: F, max: bool) -> (F, u8) {
    let nv = if is_snan(a) || is_snan(b) { NV } else { 0 };
    let r = match (is_nan(a), is_nan(b)) {
        (true, true) => canonical(),
        (true, false) => b,
        (false, true) => a,
        _ if is_zero(a) && is_zero(b) => {
            if is_neg(a) == max {
                b
            } else {
                a
            }
        }
        _ => {
            if (a < b) != max {
                a
            } else {
                b
            }
        }
    };
    (r, nv)
}

/// `feq` (quiet), `flt` / `fle` (signaling) comparisons.
pub fn compare<F: Fp>(a: F, b: F, op: Compare) -> (bool, u8) {
    let any_nan = is_nan(a) || is_nan(b);
    let nv = match op {
        Compare::Eq => is_snan(a) || is_snan(b),
        Compare::Lt | Compare::Le => any_nan,
    };
    let r = match op {
        Compare::Eq => a == b,
        Compare::Lt => a < b,
        Compare::Le => a <= b,
    };
    (r, if nv { NV } else { 0 })
}

/// The comparison of [`compare`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    /// `feq`
    Eq,
    /// `flt`
    Lt,
    /// `fle`
    Le,
}

/// `fclass` result bits.
pub fn classify<F: Fp>(x: F) -> u64 {
    let neg = is_neg(x);
    let bit = if is_nan(x) {
        if is_snan(x) {
            8
        } else {
            9
        }
    } else if is_inf(x) {
        if neg {
            0
        } else {
            7
        }
    } else if is_zero(x) {
        if neg {
            3
        } else {
            4
        }
    } else if x.raw() & F::EXP == 0 {
        if neg {
            2
        } else {
            5
        }
    } else if neg {
        1
    } else {
        6
    };
    1 << bit
}

/// `fsgnj` (`kind` 0), `fsgnjn` (1), `fsgnjx` (2) on raw bits.
pub fn sign_inject<F: Fp>(a: F, b: F, kind: u8) -> F {
    let sign = match kind {
        0 => b.raw() & F::SIGN,
        1 => !b.raw() & F::SIGN,
        _ => (a.raw() ^ b.raw()) & F::SIGN,
    };
    F::from_raw((a.raw() & !F::SIGN) | sign)
}

/// Round an `f64` to an integral value with `rm`.
fn round_integral(x: f64, rm: u8) -> f64 {
    match rm {
        RTZ => x.trunc(),
        RDN => x.floor(),
        RUP => x.ceil(),
        RMM => x.round(),
        _ => x.round_ties_even(),
    }
}

/// Float to integer of `bits` (32 or 64) bits, `signed` or not; the result is
/// sign-extended from `bits` to 64 (`fcvt.w[u].*`, `fcvt.l[u].*`).
pub fn to_int<F: Fp>(x: F, rm: u8, bits: u32, signed: bool) -> (u64, u8) {
    let (min, max): (i128, i128) = if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    let sext = |v: i128| -> u64 {
        let v = v as u64;
        if bits == 32 {
            v as u32 as i32 as i64 as u64
        } else {
            v
        }
    };
    if is_nan(x) {
        return (sext(max), NV);
    }
    let xf = x.to_f64();
    let r = round_integral(xf, rm);
    if r < min as f64 {
        return (sext(min), NV);
    }
    if r > max as f64 {
        return (sext(max), NV);
    }
    let v = r as i128;
    if v > max {
        return (sext(max), NV);
    }
    (sext(v), if r != xf { NX } else { 0 })
}

/// Integer to float (`fcvt.s.*`, `fcvt.d.*`).
pub fn from_int<F: Fp>(v: i128, rm: u8) -> (F, u8) {
    let r = F::from_i128(v);
    finish(r, v.cmp(&r.to_i128()), rm)
}

/// `fcvt.s.d`.
pub fn f64_to_f32(x: f64, rm: u8) -> (f32, u8) {
    if let Some((_, nv)) = propagate_nan(&[x]) {
        return (canonical(), nv);
    }
    let r = x as f32;
    if is_inf(x) {
        return (r, 0);
    }
    let cmp = x.partial_cmp(&f64::from(r)).unwrap_or(Ordering::Equal);
    finish(r, cmp, rm)
}

/// `fcvt.d.s`.
pub fn f32_to_f64(x: f32) -> (f64, u8) {
    if let Some((_, nv)) = propagate_nan(&[x]) {
        return (canonical(), nv);
    }
    (f64::from(x), 0)
}

#[cfg(test)]
mod tests {
    //! IEEE 754 results of the F/D operations, bit-exact, with the accrued flags, in all
    //! rounding modes where they differ (unprivileged ISA "F" chapter, "Floating-Point
    //! Control and Status Register"; values checked with exact rational arithmetic).

    use super::*;

    const CANON64: u64 = 0x7ff8_0000_0000_0000;
    const SNAN64: u64 = 0x7ff0_0000_0000_0001;
    const QNAN64: u64 = 0x7ff8_0000_0000_0001;
    const MAX64: u64 = 0x7fef_ffff_ffff_ffff;
    const INF64: u64 = 0x7ff0_0000_0000_0000;
    const ONE: u64 = 0x3ff0_0000_0000_0000;
    const THIRD: u64 = 0x3fd5_5555_5555_5555;
    const POINT1: u64 = 0x3fb9_9999_9999_999a;
    const POINT2: u64 = 0x3fc9_9999_9999_999a;

    #[derive(Clone, Copy, Debug)]
    enum Bin {
        Add,
        Sub,
        Mul,
        Div,
    }

    impl Bin {
        fn apply<F: Fp>(self, a: F, b: F, rm: u8) -> (F, u8) {
            match self {
                Bin::Add => add(a, b, rm),
                Bin::Sub => sub(a, b, rm),
                Bin::Mul => mul(a, b, rm),
                Bin::Div => div(a, b, rm),
            }
        }
    }

    /// (operation, a, b, rm, result bits, flags) on doubles.
    const BINARY64: &[(Bin, u64, u64, u8, u64, u8)] = &[
        (
            Bin::Add,
            ONE,
            0x4000_0000_0000_0000,
            RNE,
            0x4008_0000_0000_0000,
            0,
        ),
        (Bin::Add, POINT1, POINT2, RNE, 0x3fd3_3333_3333_3334, NX),
        (Bin::Add, POINT1, POINT2, RDN, 0x3fd3_3333_3333_3333, NX),
        (Bin::Add, POINT1, POINT2, RTZ, 0x3fd3_3333_3333_3333, NX),
        (Bin::Add, POINT1, POINT2, RUP, 0x3fd3_3333_3333_3334, NX),
        (Bin::Add, ONE, ONE | 1 << 63, RNE, 0, 0),
        (Bin::Add, ONE, ONE | 1 << 63, RDN, 1 << 63, 0),
        (Bin::Sub, ONE, ONE, RDN, 1 << 63, 0),
        (Bin::Add, INF64, INF64 | 1 << 63, RNE, CANON64, NV),
        (Bin::Add, SNAN64, ONE, RNE, CANON64, NV),
        (Bin::Add, QNAN64, ONE, RNE, CANON64, 0),
        (Bin::Add, MAX64, MAX64, RNE, INF64, OF | NX),
        (Bin::Add, MAX64, MAX64, RTZ, MAX64, OF | NX),
        (
            Bin::Add,
            MAX64 | 1 << 63,
            MAX64 | 1 << 63,
            RUP,
            MAX64 | 1 << 63,
            OF | NX,
        ),
        (
            Bin::Add,
            MAX64 | 1 << 63,
            MAX64 | 1 << 63,
            RDN,
            INF64 | 1 << 63,
            OF | NX,
        ),
        (Bin::Add, INF64, ONE, RNE, INF64, 0),
        (
            Bin::Mul,
            0x0010_0000_0000_0000,
            0x3fe0_0000_0000_0000,
            RNE,
            0x0008_0000_0000_0000,
            0,
        ),
        (
            Bin::Mul,
            0x0010_0000_0000_0000,
            THIRD,
            RNE,
            0x0005_5555_5555_5555,
            UF | NX,
        ),
        (
            Bin::Mul,
            0x0010_0000_0000_0000,
            THIRD,
            RUP,
            0x0005_5555_5555_5556,
            UF | NX,
        ),
        (Bin::Mul, 1, 1, RNE, 0, UF | NX),
        (Bin::Mul, 1, 1, RUP, 1, UF | NX),
        (Bin::Mul, 0, INF64, RNE, CANON64, NV),
        (Bin::Mul, 0x4008_0000_0000_0000, THIRD, RNE, ONE, NX),
        (
            Bin::Mul,
            0x4008_0000_0000_0000,
            THIRD,
            RDN,
            0x3fef_ffff_ffff_ffff,
            NX,
        ),
        (
            Bin::Mul,
            0x4008_0000_0000_0000,
            THIRD,
            RTZ,
            0x3fef_ffff_ffff_ffff,
            NX,
        ),
        (Bin::Mul, 0x4008_0000_0000_0000, THIRD, RMM, ONE, NX),
        (Bin::Mul, MAX64, 0x4000_0000_0000_0000, RNE, INF64, OF | NX),
        (Bin::Div, ONE, 0, RNE, INF64, DZ),
        (Bin::Div, ONE | 1 << 63, 0, RNE, INF64 | 1 << 63, DZ),
        (Bin::Div, 0, 0, RNE, CANON64, NV),
        (Bin::Div, INF64, INF64, RNE, CANON64, NV),
        (Bin::Div, ONE, 0x4008_0000_0000_0000, RNE, THIRD, NX),
        (Bin::Div, ONE, 0x4008_0000_0000_0000, RUP, THIRD + 1, NX),
        (
            Bin::Div,
            ONE | 1 << 63,
            0x4008_0000_0000_0000,
            RDN,
            (THIRD + 1) | 1 << 63,
            NX,
        ),
        (
            Bin::Div,
            0x4018_0000_0000_0000,
            0x4008_0000_0000_0000,
            RNE,
            0x4000_0000_0000_0000,
            0,
        ),
        (Bin::Div, ONE, INF64, RNE, 0, 0),
    ];

    /// Checks `cases` (operation, a, b, rm, result bits, flags) in format `F`.
    fn check_binary<F: Fp>(cases: &[(Bin, u64, u64, u8, u64, u8)]) {
        for &(op, a, b, rm, bits, flags) in cases {
            let (r, fl) = op.apply(F::from_raw(a), F::from_raw(b), rm);
            assert_eq!((r.raw(), fl), (bits, flags), "{op:?} {a:#x} {b:#x} rm {rm}");
        }
    }

    #[test]
    fn binary_operations_double() {
        check_binary::<f64>(BINARY64);
    }

    /// (operation, a, b, rm, result bits, flags) on singles.
    #[rustfmt::skip]
    const BINARY32: &[(Bin, u64, u64, u8, u64, u8)] = &[
        (Bin::Add, 0x3dcc_cccd, 0x3e4c_cccd, RNE, 0x3e99_999a, NX),
        (Bin::Add, 0x3dcc_cccd, 0x3e4c_cccd, RDN, 0x3e99_9999, NX),
        (Bin::Mul, 0x0080_0000, 0x3eaa_aaab, RNE, 0x002a_aaab, UF | NX),
        (Bin::Mul, 0x4040_0000, 0x4080_0000, RNE, 0x4140_0000, 0),
        (Bin::Div, 0x3f80_0000, 0x4040_0000, RNE, 0x3eaa_aaab, NX),
        (Bin::Div, 0x3f80_0000, 0x4040_0000, RTZ, 0x3eaa_aaaa, NX),
        (Bin::Add, 0x7f80_0000, 0xff80_0000, RNE, 0x7fc0_0000, NV),
        (Bin::Mul, 0x7f7f_ffff, 0x4000_0000, RTZ, 0x7f7f_ffff, OF | NX),
    ];

    #[test]
    fn binary_operations_single() {
        check_binary::<f32>(BINARY32);
    }

    #[test]
    fn square_root() {
        // (operand, rm, result, flags)
        let cases: &[(u64, u8, u64, u8)] = &[
            (0x4000_0000_0000_0000, RNE, 0x3ff6_a09e_667f_3bcd, NX),
            (0x4000_0000_0000_0000, RDN, 0x3ff6_a09e_667f_3bcc, NX),
            (0x4000_0000_0000_0000, RUP, 0x3ff6_a09e_667f_3bcd, NX),
            (0x4010_0000_0000_0000, RNE, 0x4000_0000_0000_0000, 0),
            (ONE | 1 << 63, RNE, CANON64, NV),
            (1 << 63, RNE, 1 << 63, 0),
            (INF64, RNE, INF64, 0),
            (SNAN64, RNE, CANON64, NV),
        ];
        for &(a, rm, bits, flags) in cases {
            let (r, fl) = sqrt(f64::from_bits(a), rm);
            assert_eq!((r.to_bits(), fl), (bits, flags), "sqrt {a:#x} rm {rm}");
        }
    }

    #[test]
    fn fused_multiply_add() {
        let exact = 1.5f64.mul_add(2.25, 0.1).to_bits();
        // (a, b, c, negate product, negate addend, rm, result, flags)
        #[allow(clippy::type_complexity)]
        let cases: &[(f64, f64, f64, bool, bool, u8, u64, u8)] = &[
            (1.5, 2.25, 0.1, false, false, RNE, exact, NX),
            (2.0, 3.0, 4.0, false, false, RNE, 10f64.to_bits(), 0),
            (2.0, 3.0, 4.0, false, true, RNE, 2f64.to_bits(), 0),
            (2.0, 3.0, 4.0, true, false, RNE, (-2f64).to_bits(), 0),
            (2.0, 3.0, 4.0, true, true, RNE, (-10f64).to_bits(), 0),
            (1.0, 1.0, -1.0, false, false, RDN, 1 << 63, 0),
            (1.0, 1.0, -1.0, false, false, RNE, 0, 0),
            (f64::INFINITY, 0.0, f64::NAN, false, false, RNE, CANON64, NV),
            (
                f64::INFINITY,
                1.0,
                f64::NEG_INFINITY,
                false,
                false,
                RNE,
                CANON64,
                NV,
            ),
            (f64::NAN, 1.0, 1.0, false, false, RNE, CANON64, 0),
        ];
        for &(a, b, c, np, na, rm, bits, flags) in cases {
            let (r, fl) = fma(a, b, c, np, na, rm);
            assert_eq!(
                (r.to_bits(), fl),
                (bits, flags),
                "fma {a} {b} {c} {np} {na} rm {rm}"
            );
        }
        let (r, fl) = fma(1.5f32, 2.25, 0.1, false, false, RNE);
        assert_eq!((r, fl), (1.5f32.mul_add(2.25, 0.1), NX));
    }

    #[test]
    fn min_max_and_comparisons() {
        let snan = f64::from_bits(SNAN64);
        let qnan = f64::from_bits(QNAN64);
        // (a, b, max, result, flags)
        let cases: &[(f64, f64, bool, u64, u8)] = &[
            (-0.0, 0.0, false, 1 << 63, 0),
            (0.0, -0.0, false, 1 << 63, 0),
            (-0.0, 0.0, true, 0, 0),
            (qnan, 1.0, false, ONE, 0),
            (1.0, snan, true, ONE, NV),
            (qnan, qnan, true, CANON64, 0),
            (2.0, 1.0, false, ONE, 0),
            (2.0, 1.0, true, 0x4000_0000_0000_0000, 0),
        ];
        for &(a, b, max, bits, flags) in cases {
            let (r, fl) = min_max(a, b, max);
            assert_eq!((r.to_bits(), fl), (bits, flags), "min_max {a} {b} {max}");
        }
        // (a, b, comparison, result, flags)
        let cmps: &[(f64, f64, Compare, bool, u8)] = &[
            (qnan, 1.0, Compare::Eq, false, 0),
            (snan, 1.0, Compare::Eq, false, NV),
            (qnan, 1.0, Compare::Lt, false, NV),
            (1.0, qnan, Compare::Le, false, NV),
            (1.0, 1.0, Compare::Le, true, 0),
            (1.0, 1.0, Compare::Lt, false, 0),
            (-0.0, 0.0, Compare::Eq, true, 0),
        ];
        for &(a, b, op, r, flags) in cmps {
            assert_eq!(compare(a, b, op), (r, flags), "{op:?} {a} {b}");
        }
    }

    #[test]
    fn float_to_integer_conversions() {
        const SEXT_U32_MAX: u64 = u64::MAX;
        // (value, rm, bits, signed, result, flags)
        let cases: &[(f64, u8, u32, bool, u64, u8)] = &[
            (2.5, RNE, 32, true, 2, NX),
            (2.5, RMM, 32, true, 3, NX),
            (2.5, RUP, 32, true, 3, NX),
            (2.5, RDN, 32, true, 2, NX),
            (2.5, RTZ, 32, true, 2, NX),
            (-2.5, RDN, 32, true, -3i64 as u64, NX),
            (-2.5, RTZ, 32, true, -2i64 as u64, NX),
            (f64::NAN, RNE, 32, true, 0x7fff_ffff, NV),
            (f64::NAN, RNE, 32, false, SEXT_U32_MAX, NV),
            (3e9, RNE, 32, true, 0x7fff_ffff, NV),
            (3e9, RNE, 32, false, 0xffff_ffff_b2d0_5e00, 0),
            (-1.0, RNE, 32, false, 0, NV),
            (-0.5, RNE, 32, false, 0, NX),
            (-3e9, RNE, 32, true, 0xffff_ffff_8000_0000, NV),
            (9.223_372_036_854_776e18, RNE, 64, true, i64::MAX as u64, NV),
            (-9.223_372_036_854_776e18, RNE, 64, true, i64::MIN as u64, 0),
            (f64::NEG_INFINITY, RNE, 64, true, i64::MIN as u64, NV),
            (f64::INFINITY, RNE, 64, false, u64::MAX, NV),
            (1.8e19, RTZ, 64, false, 18_000_000_000_000_000_000, 0),
            (4.0, RNE, 64, false, 4, 0),
        ];
        for &(v, rm, bits, signed, result, flags) in cases {
            assert_eq!(
                to_int(v, rm, bits, signed),
                (result, flags),
                "{v} rm {rm} {bits} signed {signed}"
            );
        }
        assert_eq!(to_int(2.5f32, RNE, 32, true), (2, NX));
    }

    #[test]
    fn integer_to_float_conversions() {
        // (value, rm, double result, flags)
        let doubles: &[(i128, u8, u64, u8)] = &[
            (i128::from(i64::MAX), RNE, 0x43e0_0000_0000_0000, NX),
            (i128::from(i64::MAX), RTZ, 0x43df_ffff_ffff_ffff, NX),
            (-5, RNE, (-5f64).to_bits(), 0),
            (0, RNE, 0, 0),
        ];
        for &(v, rm, bits, flags) in doubles {
            let (r, fl) = from_int::<f64>(v, rm);
            assert_eq!((r.to_bits(), fl), (bits, flags), "{v} rm {rm}");
        }
        let singles: &[(i128, u8, u32, u8)] = &[
            (i128::from(u64::MAX), RNE, 0x5f80_0000, NX),
            (i128::from(u64::MAX), RTZ, 0x5f7f_ffff, NX),
            (16_777_217, RNE, 0x4b80_0000, NX),
            (16_777_217, RUP, 0x4b80_0001, NX),
            (-16_777_217, RUP, 0xcb80_0000, NX),
            (-16_777_217, RDN, 0xcb80_0001, NX),
        ];
        for &(v, rm, bits, flags) in singles {
            let (r, fl) = from_int::<f32>(v, rm);
            assert_eq!((r.to_bits(), fl), (bits, flags), "{v} rm {rm}");
        }
    }

    #[test]
    fn precision_conversions() {
        // (double, rm, single result, flags)
        let cases: &[(f64, u8, u32, u8)] = &[
            (0.1, RNE, 0x3dcc_cccd, NX),
            (0.1, RTZ, 0x3dcc_cccc, NX),
            (1.5, RNE, 0x3fc0_0000, 0),
            (1e300, RNE, 0x7f80_0000, OF | NX),
            (1e300, RTZ, 0x7f7f_ffff, OF | NX),
            (1e-50, RNE, 0, UF | NX),
            (1e-50, RUP, 1, UF | NX),
            (f64::from_bits(SNAN64), RNE, 0x7fc0_0000, NV),
            (f64::INFINITY, RNE, 0x7f80_0000, 0),
        ];
        for &(v, rm, bits, flags) in cases {
            let (r, fl) = f64_to_f32(v, rm);
            assert_eq!((r.to_bits(), fl), (bits, flags), "{v} rm {rm}");
        }
        assert_eq!(f32_to_f64(1.5).0, 1.5);
        let (r, fl) = f32_to_f64(f32::from_bits(0x7f80_0001));
        assert_eq!((r.to_bits(), fl), (CANON64, NV));
    }

    #[test]
    fn classify_sign_injection_and_nan_boxing() {
        // (single bits, fclass result)
        let classes: &[(u32, u64)] = &[
            (0xff80_0000, 1 << 0),
            (0xbf80_0000, 1 << 1),
            (0x8000_0001, 1 << 2),
            (0x8000_0000, 1 << 3),
            (0x0000_0000, 1 << 4),
            (0x0000_0001, 1 << 5),
            (0x3f80_0000, 1 << 6),
            (0x7f80_0000, 1 << 7),
            (0x7f80_0001, 1 << 8),
            (0x7fc0_0000, 1 << 9),
        ];
        for &(bits, class) in classes {
            assert_eq!(classify(f32::from_bits(bits)), class, "{bits:#x}");
        }
        assert_eq!(classify(f64::from_bits(0x000f_ffff_ffff_ffff)), 1 << 5);
        assert_eq!(sign_inject(1.0f64, 1.0, 1), -1.0);
        assert_eq!(sign_inject(-1.0f64, -1.0, 2), 1.0);
        assert_eq!(sign_inject(-1.0f64, 1.0, 0), 1.0);
        // A single is valid only NaN-boxed in the 64-bit register.
        assert_eq!(f32::unbox(0xffff_ffff_3f80_0000), 1.0);
        assert_eq!(f32::unbox(0x0000_0000_3f80_0000).to_bits(), 0x7fc0_0000);
        assert_eq!(f32::unbox(0xffff_fffe_3f80_0000).to_bits(), 0x7fc0_0000);
        assert_eq!(1.0f32.boxed(), 0xffff_ffff_3f80_0000);
    }

    /// The field masks of `F` against the raw bits of -0, +infinity, the largest finite
    /// value and the canonical NaN (unprivileged ISA "F", "NaN Generation and
    /// Propagation": 0x7fc00000; "D": 0x7ff8000000000000), given by the host's layout.
    fn check_layout<F: Fp>(neg_zero: u64, infinity: u64, max: u64, nan: u64) {
        assert_eq!(F::SIGN, neg_zero);
        assert_eq!(F::EXP, infinity);
        assert_eq!(F::FRAC, max & !F::EXP, "fraction");
        assert_eq!([F::CANONICAL_NAN, F::EXP | F::QUIET], [nan, nan]);
    }

    #[test]
    fn field_masks_are_the_binary32_and_binary64_layouts() {
        let bits = |x: f32| u64::from(x.to_bits());
        check_layout::<f32>(bits(-0.0), bits(f32::INFINITY), bits(f32::MAX), 0x7fc0_0000);
        let bits = f64::to_bits;
        check_layout::<f64>(bits(-0.0), bits(f64::INFINITY), bits(f64::MAX), CANON64);
    }
}
