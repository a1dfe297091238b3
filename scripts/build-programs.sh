#!/usr/bin/env bash
# Builds the project's RISC-V test programs (programs/src, programs/common) into
# programs/elf/<name>-rv32.elf and programs/elf/<name>-rv64.elf with the Debian
# cross compiler (GCC 12, riscv64-unknown-elf). The ELFs are committed, so tests
# run without the cross compiler; run this after changing a program.
#
#   scripts/build-programs.sh           build all programs
#   scripts/build-programs.sh NAME...   build only these programs
#   scripts/build-programs.sh --check   rebuild into a temporary folder and fail
#                                       (exit 1) if a committed ELF differs
#
# Linker script: common/link.ld (RAM at 0x8000_0000), common/link-low.ld for
# lowbase (0x2001_0000, as the Embench builds); both take their sections from
# common/sections.ld.
# Targets: rv32imc_zicsr/ilp32 and rv64imac_zicsr/lp64, -O2, no debug info,
# freestanding (own start-up code and helpers, no C library); libgcc of the
# closest multilib (rv32im/ilp32, rv64imac/lp64) is linked for helpers gcc may
# call. The output is deterministic: building twice gives the same bytes.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
self="$root/scripts/$(basename "${BASH_SOURCE[0]}")"
cd "$root/programs"

CC=${RISCV_CC:-riscv64-unknown-elf-gcc}
if ! command -v "$CC" >/dev/null 2>&1; then
	echo "error: RISC-V cross compiler '$CC' not found (install the Debian packages" \
		"gcc-riscv64-unknown-elf and binutils-riscv64-unknown-elf:" \
		"apt-get install gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf)" >&2
	exit 2
fi

# name -> sources (relative to programs/); "-" as first word: no common runtime.
declare -A SOURCES=(
	[minimal]="- src/minimal.S"
	[recursion]="src/recursion.c"
	[tailcall]="src/tailcall.c src/tailcall_asm.S"
	[fnptr_switch]="src/fnptr_switch.c"
	[loops]="src/loops.c src/loops_asm.S"
	[traps]="src/traps.c"
	[privilege]="src/privilege.c src/privilege_asm.S"
	[timer]="src/timer.c"
	[workload]="src/workload.c"
	[scaling]="src/scaling.c"
	[lowbase]="src/lowbase.c"
	[syscalls]="src/syscalls.c"
	[exitcode]="src/exitcode.c"
)
ORDER=(minimal recursion tailcall fnptr_switch loops traps privilege timer workload scaling
	lowbase syscalls exitcode)
# name -> linker script in common/ (default link.ld: RAM at 0x8000_0000).
declare -A LINK_SCRIPT=(
	[lowbase]="link-low.ld"
)

check=0
names=()
for arg in "$@"; do
	case "$arg" in
	--check) check=1 ;;
	-h | --help)
		sed -n '2,19p' "$self" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	-*)
		echo "error: unknown option '$arg' (scripts/build-programs.sh)" >&2
		exit 2
		;;
	*)
		if [[ -z "${SOURCES[$arg]+x}" ]]; then
			echo "error: unknown program '$arg' (known: ${ORDER[*]})" >&2
			exit 2
		fi
		names+=("$arg")
		;;
	esac
done
[[ ${#names[@]} -gt 0 ]] || names=("${ORDER[@]}")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=elf
if [[ $check -eq 1 ]]; then
	out="$tmp/elf"
fi
mkdir -p "$out"

COMMON_FLAGS=(
	-O2 -g0 -std=gnu11 -Wall -Wextra -Werror
	-ffreestanding -fno-builtin -fno-pic -fno-stack-protector
	-fno-tree-loop-distribute-patterns
	-fno-asynchronous-unwind-tables -fno-unwind-tables
	-mcmodel=medany -Icommon
)
LINK_FLAGS=(
	-nostdlib -nostartfiles -static -Lcommon
	-Wl,--build-id=none -Wl,--no-warn-rwx-segments -Wl,-z,max-page-size=0x1000
)

build() { # name xlen
	local name=$1 xlen=$2 march mabi multilib srcs objs=() src obj
	if [[ $xlen == 32 ]]; then
		march=rv32imc_zicsr mabi=ilp32 multilib="-march=rv32im -mabi=ilp32"
	else
		march=rv64imac_zicsr mabi=lp64 multilib="-march=rv64imac -mabi=lp64"
	fi
	local libgcc
	# shellcheck disable=SC2086
	libgcc=$("$CC" $multilib -print-libgcc-file-name)
	read -r -a srcs <<<"${SOURCES[$name]}"
	if [[ ${srcs[0]} == "-" ]]; then
		srcs=("${srcs[@]:1}")
	else
		srcs=(common/crt0.S common/runtime.c "${srcs[@]}")
	fi
	local objdir="$tmp/obj/$name-rv$xlen"
	mkdir -p "$objdir"
	for src in "${srcs[@]}"; do
		obj="$objdir/$(basename "${src%.*}").o"
		"$CC" -march=$march -mabi=$mabi "${COMMON_FLAGS[@]}" -c "$src" -o "$obj"
		objs+=("$obj")
	done
	"$CC" -march=$march -mabi=$mabi "${COMMON_FLAGS[@]}" "${LINK_FLAGS[@]}" \
		-T "common/${LINK_SCRIPT[$name]:-link.ld}" "${objs[@]}" "$libgcc" -o "$out/$name-rv$xlen.elf"
	[[ $check -eq 1 ]] || echo "built programs/elf/$name-rv$xlen.elf"
}

status=0
for name in "${names[@]}"; do
	for xlen in 32 64; do
		build "$name" "$xlen"
		if [[ $check -eq 1 ]] && ! cmp -s "$out/$name-rv$xlen.elf" "elf/$name-rv$xlen.elf"; then
			echo "error: programs/elf/$name-rv$xlen.elf is not up to date (run scripts/build-programs.sh)" >&2
			status=1
		fi
	done
done
if [[ $check -eq 1 && $status -eq 0 ]]; then
	echo "programs: ${#names[@]} programs x 2 targets up to date"
fi
exit $status
