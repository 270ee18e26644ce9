#!/usr/bin/env python3
"""Refuses a llama.cpp server built for CPU instructions this machine lacks.

llama.cpp logs, when it starts, the instruction sets its CPU backend was compiled for, e.g.
  system_info: n_threads = 2 | CPU : SSE3 = 1 | AVX2 = 1 | AVX512 = 1 | AMX_INT8 = 1 | ...
Each feature marked 1 must appear among the flags of /proc/cpuinfo; otherwise the server dies
with SIGILL (or an "AMX is not ready" abort) the first time it uses one.

  check-server-cpu.py LOG_FILE [--cpuinfo FILE]
Exit 0 when every compiled-in feature is present, 1 (with one line naming the missing ones)
when not, 2 when the log has no system_info line.
"""
import argparse
import re
import sys

# ggml's feature names -> the /proc/cpuinfo flag that says the CPU has it. Names that are
# build options rather than instructions (OPENMP, LLAMAFILE, REPACK, ...) are not listed.
CPUINFO_FLAG = {
    "SSE3": "pni",
    "SSSE3": "ssse3",
    "AVX": "avx",
    "AVX_VNNI": "avx_vnni",
    "AVX2": "avx2",
    "F16C": "f16c",
    "FMA": "fma",
    "BMI2": "bmi2",
    "AVX512": "avx512f",
    "AVX512_VBMI": "avx512vbmi",
    "AVX512_VNNI": "avx512_vnni",
    "AVX512_BF16": "avx512_bf16",
    "AMX_INT8": "amx_int8",
    "AMX_BF16": "amx_bf16",
}


def compiled_features(log_text):
    """The CPU features the server says it was compiled for, from its system_info line."""
    line = next((l for l in log_text.splitlines() if "system_info" in l or "system info" in l), None)
    if line is None:
        return None
    return [name for name, value in re.findall(r"\b([A-Z0-9_]+) = (\d+)", line) if value == "1"]


def cpu_flags(cpuinfo_text):
    for line in cpuinfo_text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            return set(value.split())
    return set()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("log")
    parser.add_argument("--cpuinfo", default="/proc/cpuinfo")
    args = parser.parse_args()
    with open(args.log, errors="replace") as f:
        features = compiled_features(f.read())
    if features is None:
        print(f"{args.log}: the server printed no system_info line", file=sys.stderr)
        return 2
    with open(args.cpuinfo) as f:
        flags = cpu_flags(f.read())
    missing = [n for n in features if n in CPUINFO_FLAG and CPUINFO_FLAG[n] not in flags]
    if missing:
        print("the server was built for CPU features this machine lacks: " + ", ".join(missing),
              file=sys.stderr)
        return 1
    print("compiled for: " + " ".join(n for n in features if n in CPUINFO_FLAG))
    return 0


if __name__ == "__main__":
    sys.exit(main())
