#!/usr/bin/env bash
# Installs what the project needs on a fresh Debian machine (idempotent).
#
#   scripts/setup.sh            # tools for the model, tests and the test programs
#
# Packages come from Debian: the RISC-V cross compiler and picolibc (to rebuild the test
# programs under programs/; the built ELFs are committed, so tests run without them too),
# Verilator, Icarus Verilog and yosys (the hardware's lint, synthesis and simulation
# checks), nextpnr-ice40 and icestorm (the iCE40 flow).
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

if [ ${#need_apt[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "setup: installing ${need_apt[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

have cargo || { echo "setup: cargo (Rust >= 1.85) is required: https://rustup.rs" >&2; exit 2; }
echo "setup: ok ($(cargo --version), $(riscv64-unknown-elf-gcc --version | head -1))" >&2
