//! Finds the Verilog of a soft core installed from PyPI as a `pythondata-cpu-*` package
//! (`scripts/setup.sh` pins and installs them; issue 23): the package's `data_location`,
//! as the installed Python reports it. Nothing of the cores is copied into the repository.
//!
//! This file is also compiled into the build script (`build.rs`): it depends on nothing
//! but `std` and `etrace_hdl` (a dependency of both).

use std::fmt;
use std::path::PathBuf;
use std::process::Command;

/// A soft core whose Verilog comes from a `pythondata-cpu-*` package.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CorePackage {
    /// `pythondata-cpu-picorv32`: `picorv32.v`, and the Dhrystone sources under
    /// `dhrystone/`.
    PicoRv32,
    /// `pythondata-cpu-serv`: `rtl/serv_*.v` and the `servant` SoC.
    Serv,
}

impl CorePackage {
    /// The PyPI package name.
    pub fn package(self) -> &'static str {
        match self {
            CorePackage::PicoRv32 => "pythondata-cpu-picorv32",
            CorePackage::Serv => "pythondata-cpu-serv",
        }
    }

    /// The Python module the package installs.
    pub fn module(self) -> &'static str {
        match self {
            CorePackage::PicoRv32 => "pythondata_cpu_picorv32",
            CorePackage::Serv => "pythondata_cpu_serv",
        }
    }
}

impl From<etrace_hdl::rvfi::board_soc::SocCore> for CorePackage {
    /// The package of a board SoC's core.
    fn from(core: etrace_hdl::rvfi::board_soc::SocCore) -> CorePackage {
        match core {
            etrace_hdl::rvfi::board_soc::SocCore::PicoRv32 => CorePackage::PicoRv32,
            etrace_hdl::rvfi::board_soc::SocCore::Serv => CorePackage::Serv,
        }
    }
}

/// Why a core's Verilog was not found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotInstalled {
    /// The core.
    pub core: CorePackage,
    /// What failed.
    pub reason: String,
}

impl fmt::Display for NotInstalled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the Verilog of {} was not found ({}); install it with scripts/setup.sh \
             (pip package `{}`)",
            self.core.module(),
            self.reason,
            self.core.package()
        )
    }
}

impl std::error::Error for NotInstalled {}

/// The directory that holds the core's files (`data_location` of its Python module),
/// asked of `$PYTHON` (default `python3`).
pub fn data_location(core: CorePackage) -> Result<PathBuf, NotInstalled> {
    let fail = |reason: String| NotInstalled { core, reason };
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    let script = format!("import {} as p; print(p.data_location)", core.module());
    let output = Command::new(&python)
        .args(["-c", &script])
        .output()
        .map_err(|e| fail(format!("cannot run {python}: {e}")))?;
    if !output.status.success() {
        let err = String::from_utf8_lossy(&output.stderr);
        let last = err.lines().last().unwrap_or("no message").to_string();
        return Err(fail(format!("{python}: {last}")));
    }
    let dir = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
    if !dir.is_dir() {
        return Err(fail(format!("{} is not a directory", dir.display())));
    }
    Ok(dir)
}

/// The core's Verilog files where pip installed them: `picorv32.v`, or SERV's files
/// (`etrace_hdl::rvfi::serv_soc::SERV_SOURCES`) under `rtl/`.
pub fn verilog_sources(core: CorePackage) -> Result<Vec<PathBuf>, NotInstalled> {
    let dir = data_location(core)?;
    Ok(match core {
        CorePackage::PicoRv32 => vec![dir.join("picorv32.v")],
        CorePackage::Serv => etrace_hdl::rvfi::serv_soc::SERV_SOURCES
            .iter()
            .map(|f| dir.join("rtl").join(f))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picorv32_verilog_is_found_where_pip_put_it() {
        let dir = data_location(CorePackage::PicoRv32).unwrap();
        assert!(dir.join("picorv32.v").is_file(), "{}", dir.display());
        assert!(dir.join("dhrystone/dhry_1.c").is_file());
    }
}
