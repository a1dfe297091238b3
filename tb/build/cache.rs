//! A cache of the compiled RTL library shared by every profile of one target folder.
//!
//! Cargo runs the build script once per profile (`clippy` builds `dev`, `cargo test` builds
//! `test`, the CLI builds `release`), and each run would verilate and compile all the
//! models again although the C++ is compiled at `-O3` whatever the profile. The library
//! is stored under `<target>/etrace-tb-cache/<key>/`, where the key is a hash of
//! everything the library is made from: the generated Verilog, the core sources, the
//! Verilator and C++ compiler versions, the build script and the shim. A run whose key
//! is stored links that library and skips Verilator and the C++ compiler.

use std::path::{Path, PathBuf};

/// The folder of the cache, beside the profiles' folders in the target folder: `OUT_DIR`
/// is `<target>/<profile>/build/<package>-<hash>/out` (with a `<triple>/` after
/// `<target>` when cross-compiling, which is then where the cache goes). `None` when
/// `OUT_DIR` has another shape: no cache.
pub fn root(out: &Path) -> Option<PathBuf> {
    let build = out.ancestors().nth(2)?;
    if build.file_name()? != "build" {
        return None;
    }
    Some(build.parent()?.parent()?.join("etrace-tb-cache"))
}

/// FNV-1a (64 bits) over a sequence of labelled parts: stable across Rust versions and
/// machines, unlike `std`'s hasher.
/// It also lists each part's own hash under its label (`explain`), so that a key that
/// changes unexpectedly can be traced to the part that changed.
#[derive(Debug, Clone)]
pub struct Key {
    hash: u64,
    parts: String,
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

fn fnv(mut hash: u64, bytes: &[u8]) -> u64 {
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

impl Key {
    pub fn new() -> Key {
        Key {
            hash: FNV_OFFSET,
            parts: String::new(),
        }
    }

    /// Adds `part`, prefixed by its length so that parts cannot run into each other.
    pub fn add(&mut self, label: &str, part: impl AsRef<[u8]>) {
        let part = part.as_ref();
        self.hash = fnv(self.hash, &(part.len() as u64).to_le_bytes());
        self.hash = fnv(self.hash, part);
        let own = fnv(FNV_OFFSET, part);
        self.parts.push_str(&format!("{own:016x} {label}\n"));
    }

    /// Each part's hash and label, a line each.
    pub fn explain(&self) -> &str {
        &self.parts
    }

    /// The key as a folder name.
    pub fn name(&self) -> String {
        format!("{:016x}", self.hash)
    }
}

/// The stored library `file` of key `key`, if any.
pub fn lookup(root: &Path, key: &Key, file: &str) -> Option<PathBuf> {
    let dir = root.join(key.name());
    dir.join(file).is_file().then_some(dir)
}

/// Stores `library` (a file named `file`) under `key` and removes every other key (the
/// cache holds the current hardware only); returns the folder it is stored in. The copy
/// is renamed into place, so a concurrent build never links half a file. A cache that
/// cannot be written is not an error: the library in `OUT_DIR` is used.
pub fn store(root: &Path, key: &Key, library: &Path, file: &str) -> Option<PathBuf> {
    let dir = root.join(key.name());
    let staging = root.join(format!(".{}-{}", key.name(), std::process::id()));
    let stored = (|| -> std::io::Result<()> {
        std::fs::create_dir_all(&staging)?;
        std::fs::copy(library, staging.join(file))?;
        if dir.exists() {
            std::fs::remove_dir_all(&dir)?;
        }
        std::fs::rename(&staging, &dir)
    })();
    if let Err(e) = stored {
        println!(
            "cargo:warning=etrace-tb: not caching the RTL library in {}: {e}",
            root.display()
        );
        let _ = std::fs::remove_dir_all(&staging);
        return None;
    }
    if let Ok(entries) = std::fs::read_dir(root) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            if name != *key.name() && !name.to_string_lossy().starts_with('.') {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    Some(dir)
}
