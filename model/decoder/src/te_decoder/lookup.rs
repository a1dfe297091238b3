//! The decoder's look-up of the program image (`decoder.adoc` reads the instruction at
//! `pc` for every predicate): the pre-decoded instruction at an address, with the region
//! last looked up kept at hand, so that following a path costs one table read per
//! instruction.

use super::Fail;
use crate::error::DecodeCause;
use crate::image::{Hot, Insn, ProgramImage};

/// The program image and the region of it last looked up.
#[derive(Clone)]
pub(super) struct Lookup<'a> {
    image: &'a ProgramImage,
    /// Base address of the region last looked up.
    base: u64,
    /// Its [`Hot`] table (one entry per half-word).
    hot: &'a [Hot],
}

impl<'a> Lookup<'a> {
    /// A look-up of `image`, with no region at hand yet.
    pub fn new(image: &'a ProgramImage) -> Lookup<'a> {
        Lookup {
            image,
            base: 0,
            hot: &[],
        }
    }

    /// The image.
    pub fn image(&self) -> &'a ProgramImage {
        self.image
    }

    /// The pre-decoded instruction at `address` (borrowed from the image, not copied).
    #[inline]
    pub fn insn(&self, address: u64) -> Result<&'a Insn, Fail> {
        let image: &'a ProgramImage = self.image;
        image.insn(address).ok_or_else(|| no_insn(address))
    }

    /// The compact form of the instruction at `address`, from the region last looked up
    /// when it holds `address` (the hot path), else from the image.
    #[inline(always)]
    pub fn hot_at(&self, address: u64) -> Result<&'a Hot, Fail> {
        let off = address.wrapping_sub(self.base);
        let hot: &'a [Hot] = self.hot;
        if address & 1 == 0 && off < 2 * hot.len() as u64 {
            return Ok(&hot[(off / 2) as usize]);
        }
        self.other_region(address).map(|(h, _, _)| h)
    }

    /// [`Self::hot_at`], making the region of `address` the one looked up first.
    #[inline(always)]
    pub fn seek(&mut self, address: u64) -> Result<&'a Hot, Fail> {
        let off = address.wrapping_sub(self.base);
        let hot: &'a [Hot] = self.hot;
        if address & 1 == 0 && off < 2 * hot.len() as u64 {
            return Ok(&hot[(off / 2) as usize]);
        }
        let (hot, base, table) = self.other_region(address)?;
        self.base = base;
        self.hot = table;
        Ok(hot)
    }

    /// The instruction at `address` outside the region last looked up, with the base and
    /// table of its region.
    #[cold]
    #[inline(never)]
    fn other_region(&self, address: u64) -> Result<(&'a Hot, u64, &'a [Hot]), Fail> {
        let image: &'a ProgramImage = self.image;
        if address & 1 == 0 {
            if let Some((base, table)) = image.hot_region(address) {
                if let Some(hot) = table.get((address.wrapping_sub(base) / 2) as usize) {
                    return Ok((hot, base, table));
                }
            }
        }
        Err(no_insn(address))
    }
}

/// The error of an address outside the program image (kept out of the hot path).
#[cold]
fn no_insn(address: u64) -> Fail {
    DecodeCause::NoInstruction { address }.into()
}
