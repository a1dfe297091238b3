//! (filled by the hardware issue)
