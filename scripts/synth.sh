#!/usr/bin/env bash
# FPGA flow of a board: builds `etrace` and runs `etrace synth`, which generates the board
# top (hdl/src/board), synthesises, places and routes it and packs the bitstream.
#
#   scripts/synth.sh BOARD [CONFIG] [FREQ_MHZ] [more etrace synth options]
#     BOARD:  icebreaker | hx8k-breakout | ulx3s-25f | ulx3s-85f
#     CONFIG: rv32 (default) | rv64 | rv32-itype3 | rv64-itype3
#     FREQ:   timing target for nextpnr (default: the board's oscillator)
#
# Output in build/BOARD/: bitstream (.bin / .bit), report.json, tool logs. Exit codes as
# `etrace synth`: 2 bad board / configuration / missing tool, 1 timing not met or a tool
# failed. Tools: scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ]; then
  sed -n '5,8p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
board=$1
config=${2:-rv32}
freq=${3:-}
shift $(( $# < 3 ? $# : 3 ))

cargo build --release -q -p etrace
etrace="${CARGO_TARGET_DIR:-target}/release/etrace"
args=(synth --board "$board" --config "$config")
[ -z "$freq" ] || args+=(--freq "$freq")
exec "$etrace" "${args[@]}" "$@"
