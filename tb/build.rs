//! Builds every [`Variant`] of the encoder with Verilator 5 and links it into the crate:
//!
//! 1. `etrace_hdl::top::generate` writes the variant's Verilog into `$OUT_DIR/<variant>/`;
//! 2. `verilator --cc --prefix V<build>` turns it into C++ (the variants run in parallel
//!    threads), with `-Wall` and exactly the waivers of `scripts/check-verilog.sh`: an
//!    encoder variant twice, once without tracing (`<variant>`, the fast model every run
//!    uses) and once with `--trace` (`<variant>_traced`, for waveforms: keeping every
//!    signal visible to the VCD writer costs about a third of the speed); a SoC once, traced;
//! 3. a small C++ file per build defines the macros of `src/shim.h` (the C ABI: `new`,
//!    `free`, `step`, `run`, `trace_open`, `trace_close`, `layout`);
//! 4. the `cc` crate compiles all of it, plus Verilator's runtime once, at `-O3` with
//!    generous inlining limits whatever the profile (simulation speed matters);
//! 5. `$OUT_DIR/ffi.rs` declares the C functions and maps each variant to them.
//!
//! Steps 2 to 4 are skipped when another profile of the same target folder has built the
//! library from the same sources already (`build/cache.rs`), and steps 1 to 4 under
//! Clippy, which links nothing.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

#[allow(dead_code)]
#[path = "src/variant.rs"]
mod variant;

#[allow(dead_code)]
#[path = "src/pythondata.rs"]
mod pythondata;

#[path = "src/ports.rs"]
mod ports;

#[path = "build/cache.rs"]
mod cache;

use cache::Key;
use etrace_hdl::verilog::{Port, CHECK_WAIVERS};
use ports::{Field, Inputs, RawOutputs, SocInputs, SocOutputs};
use pythondata::CorePackage;
use variant::{NtraceVariant, SocVariant, Variant};

/// Verilator's runtime files a traced, single-threaded `--cc` model needs.
const RUNTIME: [&str; 3] = [
    "verilated.cpp",
    "verilated_vcd_c.cpp",
    "verilated_threads.cpp",
];

/// Stack of each generator thread.
const GENERATOR_STACK: usize = 1 << 30;

/// The static library of every model's C++ and the shims.
const LIBRARY: &str = "etrace_tb_rtl";

/// Its file name.
const LIBRARY_FILE: &str = "libetrace_tb_rtl.a";

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/cache.rs");
    println!("cargo:rerun-if-changed=src/shim.h");
    println!("cargo:rerun-if-changed=src/variant.rs");
    println!("cargo:rerun-if-changed=src/ports.rs");
    println!("cargo:rerun-if-changed=src/pythondata.rs");
    println!("cargo:rerun-if-env-changed=PYTHON");
    println!("cargo:rerun-if-changed=../hdl/src");
    println!("cargo:rerun-if-env-changed=VERILATOR");
    println!("cargo:rerun-if-env-changed=ETRACE_TB_VARIANTS");
    println!("cargo:rerun-if-env-changed=RUSTC_WORKSPACE_WRAPPER");

    let verilator = std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".to_string());
    let root = verilator_root(&verilator);
    let include = root.join("include");

    // Generate every encoder variant and SoC, in parallel.
    let models: Vec<Model> = Variant::ALL
        .iter()
        .map(|&v| Model::Encoder(v))
        .chain(SocVariant::ALL.iter().map(|&v| Model::Soc(v)))
        .chain(NtraceVariant::ALL.iter().map(|&v| Model::Ntrace(v)))
        .filter(|m| selected(m.name()))
        .collect();
    write_if_changed(&out.join("ffi.rs"), &ffi_source(&models));
    if linting_only() {
        return;
    }
    let generated: Vec<Written> = in_parallel(&models, |&v| write_verilog(v, &out));

    let shim = manifest.join("src/shim.h");
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .opt_level(3)
        .debug(false)
        .warnings(false)
        .cargo_metadata(false)
        .include(&include)
        .include(include.join("vltstd"))
        .define("VM_COVERAGE", "0")
        .define("VM_SC", "0")
        .define("VM_TRACE", "1")
        .define("VM_TRACE_FST", "0")
        .define("VM_TRACE_VCD", "1");
    // Let GCC inline Verilator's wide-word helpers (`VL_SHIFTL_WWI`, `_vl_insert_WW`) into
    // the evaluation functions: the payload packers' shifts of 80- and 144-bit vectors call
    // them in every cycle, about a quarter of the RTL's instructions when not inlined
    // (callgrind, issue 27). Inlining limits only, nothing machine-specific.
    for flag in [
        "--param=max-inline-insns-single=2000",
        "--param=max-inline-insns-auto=500",
        "--param=inline-unit-growth=2000",
        "--param=large-function-growth=2000",
    ] {
        build.flag_if_supported(flag);
    }
    for flag in [
        "-faligned-new",
        "-Wno-bool-operation",
        "-Wno-sign-compare",
        "-Wno-uninitialized",
        "-Wno-unused-but-set-variable",
        "-Wno-unused-parameter",
        "-Wno-unused-variable",
        "-Wno-shadow",
    ] {
        build.flag_if_supported(flag);
    }

    // Link the library of the same sources if another profile built it already.
    let key = cache_key(&verilator, &build, &models, &generated, &out);
    write_if_changed(&out.join("cache-key.txt"), key.explain());
    let cache_root = cache::root(&out);
    let cached = cache_root
        .as_deref()
        .and_then(|root| cache::lookup(root, &key, LIBRARY_FILE));
    let library_dir = match cached {
        Some(dir) => dir,
        None => {
            let jobs: Vec<(Build, &Written)> = models
                .iter()
                .zip(&generated)
                .flat_map(|(v, w)| v.builds().into_iter().map(move |b| (b, w)))
                .collect();
            in_parallel(&jobs, |(b, w)| verilate_build(b, w, &verilator));
            for file in RUNTIME {
                build.file(include.join(file));
            }
            for (v, w) in models.iter().zip(&generated) {
                for b in v.builds() {
                    let obj = w.dir.join(b.obj_dir());
                    build.include(&obj);
                    let mut sources: Vec<PathBuf> = std::fs::read_dir(&obj)
                        .unwrap_or_else(|e| panic!("reading {}: {e}", obj.display()))
                        .map(|e| e.unwrap().path())
                        .filter(|p| p.extension().is_some_and(|x| x == "cpp"))
                        .collect();
                    sources.sort();
                    for s in sources {
                        build.file(s);
                    }
                    let name = b.name();
                    let shim_file = w.dir.join(format!("shim_{name}.cpp"));
                    let text = shim_source(&name, b.traced, v.fields(), &w.generated.ports, &shim);
                    write_if_changed(&shim_file, &text);
                    build.file(shim_file);
                }
            }
            build.compile(LIBRARY);
            cache_root
                .as_deref()
                .and_then(|root| cache::store(root, &key, &out.join(LIBRARY_FILE), LIBRARY_FILE))
                .unwrap_or_else(|| out.clone())
        }
    };
    println!("cargo:rustc-link-search=native={}", library_dir.display());
    println!("cargo:rustc-link-lib=static={LIBRARY}");
    println!("cargo:rustc-link-lib={}", cpp_stdlib());
}

/// Whether this is a Clippy run (Cargo runs the workspace's crates through
/// `clippy-driver`): it type-checks and links nothing, so the declarations of `ffi.rs` are
/// all it needs, and the models are neither generated nor verilated (the test build does
/// both, and lints their Verilog).
fn linting_only() -> bool {
    std::env::var_os("RUSTC_WORKSPACE_WRAPPER").is_some_and(|w| {
        Path::new(&w)
            .file_stem()
            .is_some_and(|stem| stem.to_string_lossy().contains("clippy-driver"))
    })
}

/// Whether the model `name` is built: every model, unless `ETRACE_TB_VARIANTS` names some
/// (comma-separated `Variant` / `SocVariant` names). For development only, to verilate one
/// build while iterating (CI does not set it); a model left out panics when it is made.
fn selected(name: &str) -> bool {
    std::env::var("ETRACE_TB_VARIANTS").map_or(true, |names| names.split(',').any(|n| n == name))
}

/// `VERILATOR_ROOT` as Verilator reports it; fails the build if Verilator is missing.
fn verilator_root(verilator: &str) -> PathBuf {
    let missing = |why: String| -> ! {
        panic!(
            "\n\netrace-tb needs Verilator 5 (`{verilator}`): {why}.\n\
             Install the tools with scripts/setup.sh (or set VERILATOR to its path).\n"
        )
    };
    let output = Command::new(verilator)
        .args(["--getenv", "VERILATOR_ROOT"])
        .output()
        .unwrap_or_else(|e| missing(format!("cannot run it ({e})")));
    if !output.status.success() {
        missing(format!(
            "`--getenv VERILATOR_ROOT` failed ({})",
            output.status
        ));
    }
    let root = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
    if !root.join("include/verilated.cpp").is_file() {
        missing(format!(
            "no include/verilated.cpp under VERILATOR_ROOT {}",
            root.display()
        ));
    }
    root
}

/// A model this crate verilates: an encoder variant, a SoC or an N-Trace encoder.
#[derive(Debug, Clone, Copy)]
enum Model {
    Encoder(Variant),
    Soc(SocVariant),
    Ntrace(NtraceVariant),
}

/// One Verilator build of a model: its C++ prefix is `V` + [`Build::name`].
#[derive(Debug, Clone, Copy)]
struct Build {
    model: Model,
    /// Built with `--trace` (VCD waveforms possible).
    traced: bool,
}

impl Build {
    /// The name of its C++ class and C functions: the model's name, with `_traced` for the
    /// traced build of an encoder (a SoC has only a traced build, named as the model).
    fn name(self) -> String {
        match self.model {
            Model::Encoder(v) if self.traced => format!("{}_traced", v.name()),
            m => m.name().to_string(),
        }
    }

    /// The folder of its C++, inside the model's folder.
    fn obj_dir(self) -> String {
        format!("obj_{}", self.name())
    }
}

/// A model's generated Verilog.
struct Generated {
    top: String,
    verilog: String,
    ports: Vec<Port>,
    /// Further sources (the core's Verilog) and Verilator arguments.
    sources: Vec<PathBuf>,
    args: Vec<String>,
}

impl Generated {
    /// A generated top that needs no other source and no Verilator argument.
    fn alone(g: etrace_hdl::top::Generated) -> Generated {
        Generated {
            top: g.top,
            verilog: g.verilog,
            ports: g.ports,
            sources: Vec::new(),
            args: Vec::new(),
        }
    }
}

impl Model {
    fn name(self) -> &'static str {
        match self {
            Model::Encoder(v) => v.name(),
            Model::Soc(v) => v.name(),
            Model::Ntrace(v) => v.name(),
        }
    }

    /// Its Verilator builds: an encoder without and with tracing, a SoC with tracing, an
    /// N-Trace encoder without.
    fn builds(self) -> Vec<Build> {
        let build = |traced| Build {
            model: self,
            traced,
        };
        match self {
            Model::Encoder(_) => vec![build(false), build(true)],
            Model::Soc(_) => vec![build(true)],
            Model::Ntrace(_) => vec![build(false)],
        }
    }

    /// The step's input and output structs (`src/ports.rs`).
    fn fields(self) -> [&'static [Field]; 2] {
        match self {
            Model::Encoder(_) | Model::Ntrace(_) => [Inputs::FIELDS, RawOutputs::FIELDS],
            Model::Soc(_) => [SocInputs::FIELDS, SocOutputs::FIELDS],
        }
    }

    /// The Verilog; a SoC's core comes from where pip installed it, its warnings waived by
    /// a Verilator configuration file written into `dir` (the core is not ours to lint).
    fn generate(self, dir: &Path) -> Generated {
        let fail = |e: &dyn std::fmt::Display| -> ! {
            panic!("generating the Verilog of {}: {e}", self.name())
        };
        match self {
            Model::Encoder(v) => {
                let g = etrace_hdl::top::generate(v.config(), &v.top_options());
                Generated::alone(g.unwrap_or_else(|e| fail(&e)))
            }
            Model::Ntrace(v) => {
                let g = etrace_hdl::ntrace::generate_ntrace(v.config(), &v.top_options());
                Generated::alone(g.unwrap_or_else(|e| fail(&e)))
            }
            Model::Soc(v) => {
                let sources = pythondata::verilog_sources(v.core()).unwrap_or_else(|e| fail(&e));
                let g = match v.core() {
                    CorePackage::PicoRv32 => {
                        etrace_hdl::rvfi::picorv32_soc::picorv32_soc(v.front_end(), v.encoder())
                    }
                    CorePackage::Serv => {
                        etrace_hdl::rvfi::serv_soc::serv_soc(v.front_end(), v.encoder())
                    }
                };
                let g = g.unwrap_or_else(|e| fail(&e));
                let waivers = dir.join("core.vlt");
                let mut vlt = String::from("`verilator_config\n");
                for source in &sources {
                    vlt.push_str(&format!("lint_off -file \"{}\"\n", source.display()));
                }
                write_if_changed(&waivers, &vlt);
                Generated {
                    top: etrace_hdl::rvfi::soc::SOC_TOP.to_string(),
                    verilog: g.verilog,
                    ports: g.ports,
                    sources: std::iter::once(waivers).chain(sources).collect(),
                    args: vec!["-DRISCV_FORMAL".to_string()],
                }
            }
        }
    }
}

/// A model's Verilog, written into its folder `$OUT_DIR/<name>`.
struct Written {
    dir: PathBuf,
    file: PathBuf,
    generated: Generated,
}

/// Generates the model's Verilog and writes it into `$OUT_DIR/<name>/<top>.v`.
fn write_verilog(v: Model, out: &Path) -> Written {
    let dir = out.join(v.name());
    std::fs::create_dir_all(&dir).unwrap();
    let generated = v.generate(&dir);
    let file = dir.join(format!("{}.v", generated.top));
    write_if_changed(&file, &generated.verilog);
    Written {
        dir,
        file,
        generated,
    }
}

/// `f` of every item, each in its own thread (rust-hdl's generator recurses deeply, and
/// build scripts are not optimised: the threads get large stacks).
fn in_parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .iter()
            .map(|item| {
                let f = &f;
                std::thread::Builder::new()
                    .stack_size(GENERATOR_STACK)
                    .spawn_scoped(s, move || f(item))
                    .expect("spawning a build thread")
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| panic!("a build thread failed")))
            .collect()
    })
}

/// The cache key of the library ([`cache`]): the build script and the shim, the versions
/// of Verilator and of the C++ compiler with its flags, and each model's builds, Verilog,
/// pins, further sources (by content) and Verilator arguments.
fn cache_key(
    verilator: &str,
    build: &cc::Build,
    models: &[Model],
    written: &[Written],
    out: &Path,
) -> Key {
    let version = |mut command: Command| {
        command
            .arg("--version")
            .output()
            .map(|o| o.stdout)
            .unwrap_or_default()
    };
    let mut key = Key::new();
    key.add("build.rs", include_str!("build.rs"));
    key.add("build/cache.rs", include_str!("build/cache.rs"));
    key.add("src/shim.h", include_str!("src/shim.h"));
    key.add("src/ports.rs", include_str!("src/ports.rs"));
    key.add("verilator --version", version(Command::new(verilator)));
    let compiler = build.get_compiler();
    key.add("c++ --version", version(compiler.to_command()));
    for arg in compiler.args() {
        key.add("c++ argument", arg.as_encoded_bytes());
    }
    for (v, w) in models.iter().zip(written) {
        let model = v.name();
        for b in v.builds() {
            key.add(model, b.name());
        }
        let g = &w.generated;
        key.add(model, &g.top);
        key.add(model, &g.verilog);
        for p in &g.ports {
            key.add(model, format!("{} {} {}", p.name, p.width, p.input));
        }
        for source in &g.sources {
            // A file written into this profile's `OUT_DIR` (the core's waivers) by its
            // place there: another profile's is the same file elsewhere.
            let place = source.strip_prefix(out).unwrap_or(source);
            key.add(model, place.as_os_str().as_encoded_bytes());
            key.add(model, std::fs::read(source).unwrap_or_default());
        }
        for arg in &g.args {
            key.add(model, arg);
        }
    }
    key
}

/// The C++ standard library to link the shim with (the `cc` crate's choice).
fn cpp_stdlib() -> &'static str {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    match os.as_str() {
        "macos" | "ios" | "freebsd" | "openbsd" | "netbsd" => "c++",
        _ => "stdc++",
    }
}

/// Runs Verilator on the model's Verilog for build `b`, into its folder's
/// [`Build::obj_dir`].
fn verilate_build(b: &Build, w: &Written, verilator: &str) {
    let (dir, file, generated) = (&w.dir, &w.file, &w.generated);
    let obj = dir.join(b.obj_dir());
    if obj.exists() {
        std::fs::remove_dir_all(&obj).unwrap();
    }
    std::fs::create_dir_all(&obj).unwrap();
    let output = Command::new(verilator)
        .arg("--cc")
        .arg("--prefix")
        .arg(format!("V{}", b.name()))
        .arg("--top-module")
        .arg(&generated.top)
        .args([
            "-O3",
            "--x-assign",
            "fast",
            "--x-initial",
            "fast",
            "--noassert",
        ])
        .args(b.traced.then_some("--trace"))
        .args(["-CFLAGS", "-fPIC"])
        .arg("-Wall")
        .args(CHECK_WAIVERS)
        .args(&generated.args)
        .arg("--Mdir")
        .arg(&obj)
        .args(&generated.sources)
        .arg(file)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {verilator}: {e} (run scripts/setup.sh)"));
    if !output.status.success() {
        panic!(
            "verilator failed on {} ({}):\n{}{}",
            b.name(),
            file.display(),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// The C++ file of build `name` (of a variant or a SoC; `traced`: built with `--trace`)
/// whose step structs are `ins` / `outs`: what `src/shim.h` needs (module documentation),
/// then the shim itself.
fn shim_source(
    name: &str,
    traced: bool,
    [ins, outs]: [&'static [Field]; 2],
    pins: &[Port],
    shim: &Path,
) -> String {
    let traced = u8::from(traced);
    let mut s = format!(
        "// Generated by etrace-tb's build.rs from src/ports.rs and the pins of the top of\n\
         // model {name}: what src/shim.h needs.\n\
         #include <cstddef>\n\
         #include <cstdint>\n\
         #define ET_HEADER \"V{name}.h\"\n\
         #define ET_CLASS V{name}\n\
         #define ET_TRACED {traced}\n\
         #define ET_FN(f) etrace_tb_{name}_##f\n\
         namespace {{\n"
    );
    for (c_name, fields) in [("In", ins), ("Out", outs)] {
        writeln!(s, "struct {c_name} {{").unwrap();
        for f in fields {
            match f.c_type.split_once('[') {
                Some((ty, len)) => writeln!(s, "    {ty} {}[{len};", f.name),
                None => writeln!(s, "    {} {};", f.c_type, f.name),
            }
            .unwrap();
        }
        s.push_str("};\n");
    }
    s.push_str("}  // namespace\n#define ET_SET_INPUTS(t, in) do { \\\n");
    for pin in pins.iter().filter(|p| p.input && p.name != "clock") {
        let field = carrier(name, ins, pin, pins);
        if field.c_type == "bool" {
            writeln!(s, "    t->{} = in->{}; \\", pin.name, field.name).unwrap();
        } else {
            let (p, f, w) = (&pin.name, field.name, pin.width);
            writeln!(s, "    t->{p} = low(in->{f}, {w}); \\").unwrap();
        }
    }
    s.push_str("} while (0)\n#define ET_GET_OUTPUTS(t, out) do { \\\n");
    for field in outs {
        let pin = pins
            .iter()
            .find(|p| !p.input && field.pins.contains(&p.name.as_str()));
        let f = field.name;
        let line = match (pin, field.c_type.contains('[')) {
            (Some(p), true) => format!("read_wide(t->{}, &out->{f}[0], &out->{f}[1]);", p.name),
            (Some(p), false) => format!("out->{f} = t->{};", p.name),
            (None, true) => format!("out->{f}[0] = 0; out->{f}[1] = 0;"),
            (None, false) => format!("out->{f} = 0;"),
        };
        writeln!(s, "    {line} \\").unwrap();
    }
    for pin in pins.iter().filter(|p| !p.input) {
        carrier(name, outs, pin, pins);
    }
    s.push_str("} while (0)\n#define ET_LAYOUT");
    for (c_name, fields) in [("In", ins), ("Out", outs)] {
        let sep = if c_name == "In" { " " } else { ", " };
        write!(s, "{sep}sizeof({c_name})").unwrap();
        for f in fields {
            write!(s, ", offsetof({c_name}, {})", f.name).unwrap();
        }
    }
    writeln!(s, "\n#include \"{}\"", shim.display()).unwrap();
    s
}

/// The field of `fields` that carries `pin` of model `name`'s top; fails the build when no
/// field or more than one does, or when a field carries two of the top's pins.
fn carrier(name: &str, fields: &'static [Field], pin: &Port, pins: &[Port]) -> &'static Field {
    let mut carriers = fields
        .iter()
        .filter(|f| f.pins.contains(&pin.name.as_str()));
    let (Some(field), None) = (carriers.next(), carriers.next()) else {
        panic!(
            "pin `{}` of {name} is carried by no field or by several of src/ports.rs",
            pin.name,
        );
    };
    let used = pins
        .iter()
        .filter(|p| p.input == pin.input && field.pins.contains(&p.name.as_str()))
        .count();
    assert_eq!(
        used, 1,
        "field `{}` carries {used} pins of {name}",
        field.name,
    );
    field
}

/// `ffi.rs`: the C functions of every build of every model and the tables that select
/// them (`vtable`: an encoder variant's fast build; `traced_vtable`: its traced build;
/// `soc_vtable`: a SoC's build; `ntrace_vtable`: an N-Trace encoder's build).
fn ffi_source(models: &[Model]) -> String {
    let mut s = String::from(
        "// Generated by etrace-tb's build.rs: the C functions of every model.\n\
         extern \"C\" {\n",
    );
    for b in models.iter().flat_map(|m| m.builds()) {
        let n = b.name();
        for (f, signature) in [
            ("new", "() -> *mut c_void"),
            ("free", "(handle: *mut c_void)"),
            (
                "step",
                "(handle: *mut c_void, inputs: *const c_void, outputs: *mut c_void)",
            ),
            (
                "run",
                "(handle: *mut c_void, inputs: *const c_void, outputs: *mut c_void, n: usize)",
            ),
            (
                "trace_open",
                "(handle: *mut c_void, path: *const c_char) -> c_int",
            ),
            ("trace_close", "(handle: *mut c_void)"),
            ("layout", "(out: *mut u64, len: usize) -> usize"),
        ] {
            writeln!(s, "    fn etrace_tb_{n}_{f}{signature};").unwrap();
        }
    }
    s.push_str("}\n");
    for (function, ty, traced, what) in [
        (
            "vtable",
            "Variant",
            false,
            "the fast (untraced) build of a `Variant`",
        ),
        (
            "traced_vtable",
            "Variant",
            true,
            "the traced build of a `Variant`",
        ),
        (
            "soc_vtable",
            "SocVariant",
            true,
            "the (traced) build of a `SocVariant`",
        ),
        (
            "ntrace_vtable",
            "NtraceVariant",
            false,
            "the (untraced) build of an `NtraceVariant`",
        ),
    ] {
        let all = match ty {
            "Variant" => Variant::ALL.iter().all(|v| selected(v.name())),
            "SocVariant" => SocVariant::ALL.iter().all(|v| selected(v.name())),
            _ => NtraceVariant::ALL.iter().all(|v| selected(v.name())),
        };
        let allow = if all {
            ""
        } else {
            "#[allow(clippy::match_single_binding)]\n"
        };
        writeln!(
            s,
            "\n/// The C functions of {what}.\n{allow}pub(crate) fn {function}(variant: {ty}) -> VTable {{\n    match variant {{"
        )
        .unwrap();
        for b in models.iter().flat_map(|m| m.builds()) {
            let arm = match b.model {
                Model::Encoder(e) if ty == "Variant" && b.traced == traced => format!("{e:?}"),
                Model::Soc(e) if ty == "SocVariant" => format!("{e:?}"),
                Model::Ntrace(e) if ty == "NtraceVariant" => format!("{e:?}"),
                _ => continue,
            };
            let n = b.name();
            writeln!(
                s,
                "        {ty}::{arm} => VTable {{ traced: {traced}, new: etrace_tb_{n}_new, \
                 free: etrace_tb_{n}_free, step: etrace_tb_{n}_step, run: etrace_tb_{n}_run, \
                 trace_open: etrace_tb_{n}_trace_open, trace_close: etrace_tb_{n}_trace_close, \
                 layout: etrace_tb_{n}_layout }},"
            )
            .unwrap();
        }
        if !all {
            s.push_str(
                "        #[allow(unreachable_patterns)]\n        other => panic!(\"{other:?} is not \
                 built (ETRACE_TB_VARIANTS)\"),\n",
            );
        }
        s.push_str("    }\n}\n");
    }
    s
}

/// Writes `text` to `path` unless it already holds exactly that (keeps mtimes stable).
fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return;
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
}
