#!/usr/bin/env bash
# Builds the hart model's test programs (src/*.S) into <name>-rv32.elf / <name>-rv64.elf
# with the Debian cross toolchain (gcc-riscv64-unknown-elf). The ELFs are committed so
# that the tests run without the toolchain; run this after changing a source. The output
# is deterministic (fixed intermediate file names, no build id).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
CC=${RISCV_CC:-riscv64-unknown-elf-gcc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for src in src/*.S; do
	name=$(basename "$src" .S)
	for target in rv32 rv64; do
		if [[ $target == rv32 ]]; then
			arch=rv32imafdc_zicsr_zifencei abi=ilp32
		else
			arch=rv64imafdc_zicsr_zifencei abi=lp64
		fi
		flags=(-march=$arch -mabi=$abi)
		"$CC" "${flags[@]}" -E -P -I src -o "$work/$name.s" "$src"
		(cd "$work" && "$CC" "${flags[@]}" -c -o "$name.o" "$name.s")
		"$CC" "${flags[@]}" -nostdlib -nostartfiles -static -Wl,--build-id=none \
			-Wl,--no-warn-rwx-segments -T src/link.ld -o "$name-$target.elf" "$work/$name.o"
	done
done
