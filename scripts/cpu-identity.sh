#!/usr/bin/env bash
# Prints this machine's CPU identity as kopt compares it (util/host_cpu.cpp reads the same):
# the first processor's vendor_id, cpu family, model and flags from /proc/cpuinfo, joined by '|'.
# Two machines with the same identity run the same instructions; a binary built with
# -march=native is only reused where the identity is the one it was built on.
set -euo pipefail
awk -F'\t*: *' '
  $1 == "vendor_id" && v == "" { v = $2 }
  $1 == "cpu family" && f == "" { f = $2 }
  $1 == "model" && m == "" { m = $2 }
  $1 == "flags" && fl == "" { fl = $2 }
  END { printf "%s|%s|%s|%s\n", v, f, m, fl }' /proc/cpuinfo
