#!/usr/bin/env python3
"""FuseSoC generator `etrace_encoder` (fusesoc/etrace.core): runs `etrace gen-verilog`.

FuseSoC calls it in the generator's own folder with the path of a GAPI 1.0 YAML file
(`gapi`, `vlnv`, `files_root`, `parameters`). Each parameter becomes an option of
`etrace gen-verilog` (`src_bits: 8` -> `--src-bits 8`, `timestamp: true` ->
`--timestamp`, `false` -> left out); the Verilog, the `.core` file and the decoder's
parameter files are written into the folder, where FuseSoC finds the core. The core is
renamed to the VLNV that FuseSoC gave this generator instance.

Exit codes: 0 done; 2 a parameter this generator cannot pass on; otherwise that of
`etrace gen-verilog` (2 for an option it refuses), whose error it prints.
"""

import os
import re
import shutil
import subprocess
import sys

import yaml  # FuseSoC's own dependency

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Options that this generator sets itself.
RESERVED = {"out", "o", "help", "version"}


def fail(what, where):
    """One line `error: <what> (<where>)` on stderr, exit code 2 (bad input)."""
    print(f"error: {what} ({where})", file=sys.stderr)
    sys.exit(2)


def etrace_command():
    """The etrace program: $ETRACE, else etrace on PATH, else this checkout's via cargo."""
    program = os.environ.get("ETRACE")
    if program:
        return [program]
    program = shutil.which("etrace")
    if program:
        return [program]
    if shutil.which("cargo") and os.path.isfile(os.path.join(REPO, "Cargo.toml")):
        manifest = os.path.join(REPO, "Cargo.toml")
        return ["cargo", "run", "--release", "--quiet", "--manifest-path", manifest,
                "-p", "etrace", "--"]
    fail("etrace not found: set ETRACE, put etrace on PATH or install cargo",
         "fusesoc/etrace_gen.py")


def options(parameters, gapi_path):
    """The `etrace gen-verilog` options of the GAPI parameters, in their order."""
    if not isinstance(parameters, dict):
        fail("parameters must be a map of gen-verilog options", gapi_path)
    if "config" not in parameters:
        fail("the parameter `config` is required (rv32, rv64, rv32-itype3 or rv64-itype3)",
             gapi_path)
    words = []
    for name, value in parameters.items():
        where = f"{gapi_path}: parameter {name}"
        if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", name):
            fail("not an option name of etrace gen-verilog", where)
        if name in RESERVED:
            fail("set by the generator itself", where)
        flag = "--" + name.replace("_", "-")
        if value is True:
            words.append(flag)
        elif value is False:
            continue
        elif isinstance(value, (int, str)):
            words += [flag, str(value)]
        else:
            fail(f"a value must be a word, a number or true / false, not {value!r}", where)
    return words


def rename_core(folder, vlnv):
    """Gives the generated core (the only `.core` file in `folder`) the name `vlnv`."""
    cores = [f for f in os.listdir(folder) if f.endswith(".core")]
    if len(cores) != 1:
        fail(f"etrace gen-verilog wrote {len(cores)} core files, expected 1", folder)
    path = os.path.join(folder, cores[0])
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text, count = re.subn(r"(?m)^name: .*$", f"name: {vlnv}", text, count=1)
    if count != 1:
        fail("the generated core has no name line", path)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    if len(sys.argv) != 2:
        fail("usage: etrace_gen.py GAPI.yml (FuseSoC calls it)", "fusesoc/etrace_gen.py")
    gapi_path = sys.argv[1]
    try:
        with open(gapi_path, encoding="utf-8") as f:
            gapi = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        reason = " ".join(str(e).split())
        fail(f"cannot read the generator input: {reason}", gapi_path)
    if not isinstance(gapi, dict) or "vlnv" not in gapi:
        fail("not a GAPI file (no vlnv)", gapi_path)
    out = os.getcwd()
    command = etrace_command() + ["gen-verilog"] + options(
        gapi.get("parameters") or {}, gapi_path) + ["--out", out]
    print("etrace_gen.py: " + " ".join(command), file=sys.stderr)
    code = subprocess.run(command, check=False).returncode
    if code != 0:
        sys.exit(code)
    rename_core(out, gapi["vlnv"])


if __name__ == "__main__":
    main()
