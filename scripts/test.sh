#!/usr/bin/env bash
# The project's whole test suite, as CI runs it (see .ci/run).
#
#   scripts/test.sh            # format and lint checks, then every test of the workspace
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings

echo "== test programs are up to date with their sources"
scripts/build-programs.sh --check

echo "== cargo test"
cargo test --workspace

echo "== generated Verilog: verilator lint, yosys synth_ice40 / synth_ecp5 (no latch)"
scripts/check-verilog.sh
