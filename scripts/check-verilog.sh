#!/usr/bin/env bash
# Generates the encoder's Verilog for every configuration (or those given) and checks it:
#   - verilator --lint-only -Wall, with one waiver: DECLFILENAME (one file holds the top
#     module and its sub-modules, named after the configuration, not after the file).
#     UNOPTFLAT is not waived: a loop between always blocks (rust-hdl writes one per
#     module) makes Verilator evaluate the blocks of the loop again until they settle,
#     which slows the co-simulation; real combinational loops are caught below by yosys
#     `check -assert` on the flattened netlist, which fails on any logic loop;
#   - yosys synth_ice40 and synth_ecp5: no latch, no logic loop; prints the cell counts
#     and the register inputs per LUT depth (scripts/logic-depth on the netlist).
#
#   scripts/check-verilog.sh [CONFIG...]
#
# CONFIG is a hardware configuration (rv32 rv64 rv32-itype3 rv64-itype3) or one of the
# builds with generation options below (rv32-bp: a 64-entry branch predictor; rv32-ir: a
# 4-entry return stack; rv32-all: smi with an 8-bit index and timestamps, the predictor and
# the return stack; rvfi-control: the encoder behind the RVFI front end with the trace
# control registers, top etrace_rvfi_encoder_rv32; ntrace-rv32, ntrace-rv32-all,
# ntrace-rv64-btm: the N-Trace encoder, top etrace_ntrace_encoder_<config>, in HTM, HTM
# with every optimisation, and BTM). Default: all of them.
#
# The configurations are checked side by side, as many at a time as there are cores, and
# their reports printed in order.
#
# Output directory: target/verilog-check/<config>/ (Verilog, .core, yosys logs, stats,
# netlist JSON).
set -euo pipefail
cd "$(dirname "$0")/.."

# Builds with generation options: gen-verilog's arguments.
declare -A builds=(
  [rv32-bp]="--config rv32 --bpred-size 6"
  [rv32-ir]="--config rv32 --return-stack-size 2"
  [rv32-all]="--config rv32 --framing smi --src-bits 8 --timestamp --bpred-size 6 --return-stack-size 2"
  [rvfi-control]="--config rv32 --rvfi --control-registers"
  [ntrace-rv32]="--config rv32 --protocol ntrace --fifo-depth 256"
  [ntrace-rv32-all]="--config rv32 --protocol ntrace --fifo-depth 256 --sijump --call-stack 4 --repeat-history"
  [ntrace-rv64-btm]="--config rv64 --protocol ntrace --fifo-depth 256 --ntrace-mode btm"
)

configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(rv32 rv64 rv32-itype3 rv64-itype3 rv32-bp rv32-ir rv32-all rvfi-control ntrace-rv32 ntrace-rv32-all ntrace-rv64-btm)
out=target/verilog-check
mkdir -p "$out"

cargo build --release -q -p etrace
etrace="${CARGO_TARGET_DIR:-target}/release/etrace"

# Checks one configuration; prints its lines and fails if a check fails.
check_config() {
  local config=$1 dir args base top file family log cells depth rc=0
  dir="$out/$config"
  rm -rf "$dir"
  if [ -n "${builds[$config]:-}" ]; then
    read -ra args <<<"${builds[$config]}"
    base="${args[1]}"
  else
    args=(--config "$config")
    base="$config"
  fi
  if ! "$etrace" gen-verilog "${args[@]}" -o "$dir" >"$out/$config.gen.log" 2>&1; then
    echo "FAIL $config: etrace gen-verilog"; cat "$out/$config.gen.log"; return 1
  fi
  top="etrace_encoder_${base//-/_}"
  [[ " ${args[*]} " != *" --rvfi "* ]] || top="etrace_rvfi_encoder_${base//-/_}"
  [[ " ${args[*]} " != *" --protocol ntrace "* ]] || top="etrace_ntrace_encoder_${base//-/_}"
  file="$dir/$top.v"

  if ! verilator --lint-only -Wall -Wno-DECLFILENAME --top-module "$top" "$file" 2>"$dir/lint.log"; then
    echo "FAIL $config: verilator lint (see $dir/lint.log)"; cat "$dir/lint.log"; return 1
  fi
  if grep -q '%Warning' "$dir/lint.log"; then
    echo "FAIL $config: verilator warnings (see $dir/lint.log)"; cat "$dir/lint.log"; return 1
  fi

  for family in ice40 ecp5; do
    log="$dir/synth_$family.log"
    if ! yosys -q -l "$log" -p "read_verilog $file; synth_$family -top $top; check -assert; write_json $dir/netlist_$family.json; tee -o $dir/stat_$family.txt stat; select -assert-none t:\$dlatch t:\$_DLATCH_* t:\$_DLATCHSR_*" >/dev/null 2>&1; then
      echo "FAIL $config: yosys synth_$family (see $log)"; tail -5 "$log"; rc=1; continue
    fi
    if grep -Eq '^\s*Latch inferred' "$log"; then
      echo "FAIL $config: synth_$family inferred a latch (see $log)"; grep -E '^\s*Latch inferred' "$log"; rc=1; continue
    fi
    cells=$(awk '/Number of cells:/ {n=$4} END {print n}' "$dir/stat_$family.txt")
    echo "ok   $config synth_$family: $cells cells"
    if ! depth=$(scripts/logic-depth "$dir/netlist_$family.json" --paths 0 2>&1); then
      echo "FAIL $config: scripts/logic-depth on the synth_$family netlist: $depth"; rc=1; continue
    fi
    echo "       $(echo "$depth" | grep '^LUT levels')"
    grep -E '^\s+(SB_LUT4|SB_DFF[A-Z]*|SB_CARRY|SB_RAM40_4K|LUT4|TRELLIS_FF|CCU2C|DP16KD|TRELLIS_DPR16X4)\s' "$dir/stat_$family.txt" | sed 's/^/       /'
  done
  return $rc
}

# The configurations run side by side, one per core (yosys is single-threaded), each into
# its own report; the reports are printed in the order of the configurations.
at_once=$(nproc 2>/dev/null || echo 1)
for config in "${configs[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$at_once" ]; do wait -n || true; done
  ( rc=0; check_config "$config" >"$out/$config.report" 2>&1 || rc=$?; echo $rc >"$out/$config.status" ) &
done
wait
status=0
for config in "${configs[@]}"; do
  cat "$out/$config.report"
  [ "$(cat "$out/$config.status")" = 0 ] || status=1
done
exit $status
