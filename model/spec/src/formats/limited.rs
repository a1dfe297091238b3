//! Files read whole (ELF programs, parameter files) with a size limit that no real file
//! reaches, so that an input that never ends (a device such as `/dev/zero`, a FIFO fed
//! forever) stops with a clear error instead of filling memory.

use std::io::{self, Read};
use std::path::Path;

/// Largest parameter file read (1 MiB; the parameters of `discovery.adoc` take a few
/// hundred bytes).
pub const PARAMS_MAX_BYTES: u64 = 1 << 20;

/// Largest ELF program read (256 MiB).
pub const ELF_MAX_BYTES: u64 = 256 << 20;

/// The bytes of the file at `path`, or an error of kind `InvalidData` when it holds more
/// than `limit` bytes (only `limit + 1` of them are read).
pub fn read_limited(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {limit} bytes, the most this reads"),
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file up to the limit is read whole; one byte more is refused.
    #[test]
    fn the_limit_is_exact() {
        let path = std::env::temp_dir().join(format!("etrace-limited-{}", std::process::id()));
        std::fs::write(&path, [7u8; 100]).unwrap();
        assert_eq!(read_limited(&path, 100).unwrap(), vec![7u8; 100]);
        let err = read_limited(&path, 99).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert!(err.to_string().contains("larger than 99 bytes"), "{err}");
        std::fs::remove_file(&path).unwrap();
    }
}
