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
#
# PicoRV32 builds (the lock-step co-simulation, issue 23): the programs that need
# no CSRs, traps or console (PICORV32 below) also as <name>-picorv32.elf (rv32ic with
# the libgcc of the rv32i multilib, so that they run on the iCE40 boards' PicoRV32
# without multiply / divide; -DPICORV32: the start-up code sets no mtvec; linked with
# common/link-picorv32.ld: a 4 KiB stack, to fit the board SoCs' RAM), and Dhrystone as
# dhrystone-picorv32.elf, compiled from dhry_1.c / dhry_2.c / dhry.h of the pip
# package pythondata-cpu-picorv32 where scripts/setup.sh installed it (not copied
# into the repository) with programs/dhrystone/dhry_runtime.c (their configuration:
# -O3 -DTIME -DRISCV -DUSE_MYSTDLIB: its own C-library functions, 100 runs; rv32imc,
# as the lock-step SoC's and the ECP5 boards' PicoRV32 run it).
#
# SERV builds (rv32i_zicsr: the SoC's SERV has no C extension and no multiply / divide
# unit; libgcc of the rv32i multilib does multiplication and division; linked with
# common/link-serv.ld, RAM at 0 as the SERV SoC's): the same programs as
# <name>-serv.elf (-DSERV -DNO_CONSOLE: the normal start-up code, as SERV has the
# M-mode trap CSRs; console output dropped, as the SoC has no HTIF host), with
# traps (without the illegal instructions SERV does not detect) and timer (machine
# timer interrupts only, no mip), and Dhrystone as dhrystone-serv.elf.
#
# SoC-only programs (SOC_ONLY below: trace_control, which drives the SoCs' trace
# control registers at 0x0300_0000) are built for PicoRV32 and SERV only.
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
	[trace_control]="src/trace_control.c"
)
ORDER=(minimal recursion tailcall fnptr_switch loops traps privilege timer workload scaling
	lowbase syscalls exitcode trace_control)
# name -> linker script in common/ (default link.ld: RAM at 0x8000_0000).
declare -A LINK_SCRIPT=(
	[lowbase]="link-low.ld"
)
# Programs that need no CSRs, traps or console, also built for PicoRV32 and SERV.
PICORV32=(recursion tailcall fnptr_switch loops trace_control)
SERV=(recursion tailcall fnptr_switch loops traps timer trace_control)
# Programs for the SoCs only (their trace control registers): no rv32 / rv64 builds.
SOC_ONLY=(trace_control)

check=0
names=()
for arg in "$@"; do
	case "$arg" in
	--check) check=1 ;;
	-h | --help)
		sed -n '2,40p' "$self" | sed 's/^# \{0,1\}//'
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

# The -march, -mabi and libgcc multilib of a target (32, 64, picorv32, serv).
target_flags() { # target
	case $1 in
	64) march=rv64imac_zicsr mabi=lp64 multilib="-march=rv64imac -mabi=lp64" ;;
	serv) march=rv32i_zicsr mabi=ilp32 multilib="-march=rv32i -mabi=ilp32" ;;
	picorv32) march=rv32ic_zicsr mabi=ilp32 multilib="-march=rv32i -mabi=ilp32" ;;
	*) march=rv32imc_zicsr mabi=ilp32 multilib="-march=rv32im -mabi=ilp32" ;;
	esac
}

build() { # name 32|64|picorv32|serv
	local name=$1 xlen=$2 march mabi multilib srcs objs=() src obj defs=()
	case $xlen in
	picorv32) defs=(-DPICORV32) ;;
	serv) defs=(-DSERV -DNO_CONSOLE) ;;
	esac
	target_flags "$xlen"
	local libgcc
	# shellcheck disable=SC2086
	libgcc=$("$CC" $multilib -print-libgcc-file-name)
	read -r -a srcs <<<"${SOURCES[$name]}"
	if [[ ${srcs[0]} == "-" ]]; then
		srcs=("${srcs[@]:1}")
	else
		srcs=(common/crt0.S common/runtime.c "${srcs[@]}")
	fi
	local target=rv$xlen
	[[ $xlen != picorv32 && $xlen != serv ]] || target=$xlen
	local objdir="$tmp/obj/$name-$target" script=${LINK_SCRIPT[$name]:-link.ld}
	[[ $xlen != serv ]] || script=link-serv.ld
	[[ $xlen != picorv32 ]] || script=link-picorv32.ld
	mkdir -p "$objdir"
	for src in "${srcs[@]}"; do
		obj="$objdir/$(basename "${src%.*}").o"
		"$CC" -march=$march -mabi=$mabi "${COMMON_FLAGS[@]}" "${defs[@]}" -c "$src" -o "$obj"
		objs+=("$obj")
	done
	"$CC" -march=$march -mabi=$mabi "${COMMON_FLAGS[@]}" "${LINK_FLAGS[@]}" \
		-T "common/$script" "${objs[@]}" "$libgcc" -o "$out/$name-$target.elf"
	[[ $check -eq 1 ]] || echo "built programs/elf/$name-$target.elf"
}

# Dhrystone for PicoRV32 or SERV from the installed package's sources (see the header).
build_dhrystone() { # picorv32|serv
	local target=$1 pkg objdir="$tmp/obj/dhrystone-$1" objs=() src obj libgcc march mabi multilib
	local defs=(-DSERV -DNO_CONSOLE) script=link-serv.ld
	[[ $target != picorv32 ]] || defs=(-DPICORV32) script=link-picorv32.ld
	if [[ $target == picorv32 ]]; then target_flags 32; else target_flags serv; fi
	pkg=$(python3 -c 'import pythondata_cpu_picorv32 as p; print(p.data_location)' 2>/dev/null) || {
		echo "error: pythondata-cpu-picorv32 is not installed (run scripts/setup.sh)" >&2
		exit 2
	}
	# shellcheck disable=SC2086
	libgcc=$("$CC" $multilib -print-libgcc-file-name)
	mkdir -p "$objdir"
	for src in common/crt0.S common/runtime.c dhrystone/dhry_runtime.c \
		"$pkg/dhrystone/dhry_1.c" "$pkg/dhrystone/dhry_2.c"; do
		obj="$objdir/$(basename "${src%.*}").o"
		case "$src" in
		"$pkg"/*)
			"$CC" -march=$march -mabi=$mabi -O3 -g0 -std=gnu89 -w \
				-ffreestanding -fno-builtin -fno-pic -fno-stack-protector \
				-fno-asynchronous-unwind-tables -fno-unwind-tables -mcmodel=medany \
				-DTIME -DRISCV -DUSE_MYSTDLIB -Idhrystone/include -c "$src" -o "$obj"
			;;
		*)
			"$CC" -march=$march -mabi=$mabi "${COMMON_FLAGS[@]}" "${defs[@]}" \
				-c "$src" -o "$obj"
			;;
		esac
		objs+=("$obj")
	done
	"$CC" -march=$march -mabi=$mabi "${COMMON_FLAGS[@]}" "${LINK_FLAGS[@]}" \
		-T "common/$script" "${objs[@]}" "$libgcc" -o "$out/dhrystone-$target.elf"
	[[ $check -eq 1 ]] || echo "built programs/elf/dhrystone-$target.elf"
}

# Fails the check if programs/elf/FILE differs from the one just built.
compare() { # file
	if [[ $check -eq 1 ]] && ! cmp -s "$out/$1" "elf/$1"; then
		echo "error: programs/elf/$1 is not up to date (run scripts/build-programs.sh)" >&2
		status=1
	fi
}

status=0
for name in "${names[@]}"; do
	for xlen in 32 64; do
		[[ " ${SOC_ONLY[*]} " != *" $name "* ]] || continue
		build "$name" "$xlen"
		compare "$name-rv$xlen.elf"
	done
	if [[ " ${PICORV32[*]} " == *" $name "* ]]; then
		build "$name" picorv32
		compare "$name-picorv32.elf"
	fi
	if [[ " ${SERV[*]} " == *" $name "* ]]; then
		build "$name" serv
		compare "$name-serv.elf"
	fi
done
if [[ $# -eq 0 || ($# -eq 1 && $check -eq 1) ]]; then
	for target in picorv32 serv; do
		build_dhrystone $target
		compare dhrystone-$target.elf
	done
fi
if [[ $check -eq 1 && $status -eq 0 ]]; then
	echo "programs: ${#names[@]} programs x 2 targets up to date"
fi
exit $status
