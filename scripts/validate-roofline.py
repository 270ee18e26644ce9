#!/usr/bin/env python3
"""Scores `kopt roofline FILE --method static` against the RTX 3080 labels of real kernels.

Usage:
  scripts/validate-roofline.py --hecbench DIR [--csv FILE] [--per-class N] [--split dev|holdout|all]
                               [--kopt BIN] [--jobs J] [--verbose] [--time]

DIR is the user's own HeCBench checkout (its src/<program>-cuda folders); kopt keeps no
third-party code. Each labelled CUDA kernel of the CSV (program, kernel, launch) is found in its
program's folder (the .cu file that defines it, or the .cu that includes the header defining
it), and `kopt roofline FILE --kernel NAME --launch GRID,BLOCK --hardware rtx3080` classifies it
with the same generic flags for every file (no hand edits). The label is the paper's rule on the
measured intensities (bandwidth-bound when all three are below the balance points).

The sample is balanced: N kernels of each class, ordered by a hash of program/kernel (so it does
not depend on the run), drawn only from programs present in DIR. Half of it (by the same hash)
is the development split the model was looked at on; the other half is held out. Prints
accuracy, balanced accuracy and coverage per split, and a row per kernel with --verbose.

With --time, each classified kernel's execution time is also predicted from the same file and
launch (`kopt predict FILE --kernel NAME --launch GRID,BLOCK --hardware rtx3080 --uncalibrated`:
the RTX 3080 of the hardware table at the default efficiencies, no calibration of that GPU) and
compared with the median `xtime` of the kernel's rows at that launch (Nsight's kernel duration):
the launch's own time, without the host's launch overhead. The kernels' scalar arguments are not
known (the program's arguments are not the kernel's), so loops they bound are assumed.
"""
import argparse
import concurrent.futures
import csv
import hashlib
import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict

BALANCE = {"sp": 32.97, "dp": 0.515, "int": 16.49}
FLAGS = "-std=c++17 --expt-relaxed-constexpr --extended-lambda -w"
SOURCE_EXT = (".cu", ".cuh", ".h", ".hpp", ".inc")


def label(row):
    sp, dp, it = (float(row[k] or 0) for k in ("spAI", "dpAI", "intAI"))
    below = sp < BALANCE["sp"] and dp < BALANCE["dp"] and it < BALANCE["int"]
    return "bandwidth" if below else "compute"


def digest(text):
    return hashlib.sha1(text.encode()).hexdigest()


def kernel_rows(csv_path):
    """One entry per (program, kernel): the majority label and the first launch seen."""
    groups = defaultdict(list)
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            if row["targetName"].endswith("-cuda"):
                groups[(row["targetName"], row["Kernel Name"])].append(row)
    kernels = []
    for (program, full), rows in groups.items():
        votes = Counter(label(r) for r in rows)
        template = re.match(r"(?:void\s+)?([\w:]+<[^()]*>)\(", full)
        first = [r for r in rows if (r["Grid Size"], r["Block Size"]) ==
                 (rows[0]["Grid Size"], rows[0]["Block Size"])]
        kernels.append({"program": program, "kernel": rows[0]["kernelName"],
                        "template": template.group(1) if template else "",
                        "label": votes.most_common(1)[0][0],
                        "grid": rows[0]["Grid Size"], "block": rows[0]["Block Size"],
                        "xtime_ns": sorted(float(r["xtime"]) for r in first
                                           if r["xtime"] and float(r["xtime"]) > 0)})
    return kernels


def balanced_sample(kernels, src, per_class):
    present = [k for k in kernels if os.path.isdir(os.path.join(src, k["program"]))]
    present.sort(key=lambda k: digest(k["program"] + "/" + k["kernel"] + k["template"]))
    sample, taken = [], Counter()
    for k in present:
        if taken[k["label"]] < per_class:
            taken[k["label"]] += 1
            k["split"] = "dev" if int(digest(k["program"] + k["kernel"])[-1], 16) % 2 == 0 else "holdout"
            sample.append(k)
    return sample


def candidate_files(folder, kernel):
    """The .cu files to compile for `kernel`: those defining it, then those including a header
    that defines it, then every other .cu file of the folder."""
    defining = re.compile(r"__global__[^;{]*?\b" + re.escape(kernel) + r"\s*[(<]", re.S)
    texts = {}
    for root, _, names in os.walk(folder):
        for name in sorted(names):
            if name.endswith(SOURCE_EXT):
                with open(os.path.join(root, name), errors="replace") as f:
                    texts[os.path.join(root, name)] = f.read()
    definers = [f for f, text in texts.items() if defining.search(text)]
    units = [f for f in texts if f.endswith(".cu")]
    headers = [os.path.basename(f) for f in definers if not f.endswith(".cu")]
    including = [u for u in units if any(h in texts[u] for h in headers)]
    ordered = []
    for f in [f for f in definers if f.endswith(".cu")] + including + units:
        if f not in ordered:
            ordered.append(f)
    return ordered


def makefile_options(folder):
    """The -D and -I options and fast math of the program's Makefile (its CFLAGS lines outside
    the debug branch), as a user compiling it would pass them."""
    path = os.path.join(folder, "Makefile")
    if not os.path.isfile(path):
        return []
    options, debug = [], False
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("ifeq") and "DEBUG" in line:
                debug = True
            elif line.startswith("endif"):
                debug = False
            if debug or not re.match(r"\s*(CFLAGS|NVCCFLAGS|CXXFLAGS)\s*[:+]?=", line):
                continue
            for token in line.split():
                if re.match(r"-D\w", token):
                    options += ["-D", token[2:]]
                elif token.startswith("-I") and len(token) > 2 and "$" not in token:
                    options += ["-I", os.path.normpath(os.path.join(folder, token[2:]))]
                elif token in ("-use_fast_math", "--use_fast_math"):
                    options.append("fast")
    return options


def launch_arg(grid, block):
    dims = lambda t: "x".join(n.strip() for n in t.strip("()").split(","))
    return dims(grid) + "," + dims(block)


def classify(k, src, kopt, include):
    name = k["template"] or k["kernel"]
    last = "no .cu file in the folder"
    folder = os.path.join(src, k["program"])
    options = makefile_options(folder)
    flags = FLAGS + (" -use_fast_math" if "fast" in options else "")
    options = [o for o in options if o != "fast"]
    for path in candidate_files(folder, k["kernel"]):
        cmd = [kopt, "roofline", path, "--kernel", name, "--method", "static", "--hardware",
               "rtx3080", "--launch", launch_arg(k["grid"], k["block"]), "-I", include,
               "--flags=" + flags, "--json"] + options
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or ["exit %d" % proc.returncode])[0]
            continue
        kernels = json.loads(proc.stdout).get("kernels", [])
        if kernels:
            # Instantiations of one template: the first (the launch rows name one).
            cls = kernels[0]["class"].split("-")[0]
            if cls in ("compute", "bandwidth", "latency"):
                return ("bandwidth" if cls == "latency" else cls), os.path.relpath(path, src), ""
            last = kernels[0].get("statement", kernels[0]["class"])
            continue
        last = "kernel not in " + os.path.basename(path)
    return None, "", last


def predict_time(k, src, kopt, include):
    """The predicted seconds of the kernel's launch from the file it was classified from."""
    if not k["file"]:
        return None, "not classified"
    folder = os.path.join(src, k["program"])
    options = makefile_options(folder)
    flags = FLAGS + (" -use_fast_math" if "fast" in options else "")
    options = [o for o in options if o != "fast"]
    cmd = [kopt, "predict", os.path.join(src, k["file"]), "--kernel", k["template"] or k["kernel"],
           "--hardware", "rtx3080", "--uncalibrated", "--launch", launch_arg(k["grid"], k["block"]),
           "-I", include, "--flags=" + flags, "--json"] + options
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return None, "kopt predict ran past 600 s"
    if proc.returncode != 0:
        return None, (proc.stderr.strip().splitlines() or ["exit %d" % proc.returncode])[-1]
    try:
        docs = json.loads(proc.stdout)
    except ValueError as e:
        return None, f"unreadable kopt predict output: {e}"
    docs = docs if isinstance(docs, list) else [docs]
    for doc in docs:
        launches = (doc.get("prediction") or {}).get("launches") or []
        if launches:
            return launches[0]["seconds"], ""
    return None, "no prediction"


def time_report(sample):
    """MAPE and its companions over the kernels with a prediction and a measured xtime."""
    errors, ratios = [], []
    for k in sample:
        if k.get("seconds") is None or not k["xtime_ns"]:
            continue
        xs = k["xtime_ns"]
        real = xs[len(xs) // 2] * 1e-9
        errors.append(abs(k["seconds"] - real) / real)
        ratios.append(k["seconds"] / real)
    if not errors:
        print("time: no kernel predicted")
        return
    errors.sort()
    ratios.sort()
    within = lambda f: sum(1 for r in ratios if 1 / f <= r <= f)
    print(f"time    {len(errors)} kernels predicted of {len(sample)}: MAPE {100 * sum(errors) / len(errors):.0f}%, "
          f"median APE {100 * errors[len(errors) // 2]:.0f}%, within 2x {within(2)}, within 10x {within(10)}, "
          f"predicted/measured median {ratios[len(ratios) // 2]:.3g} "
          f"(quartiles {ratios[len(ratios) // 4]:.3g}, {ratios[3 * len(ratios) // 4]:.3g})")


def score(rows):
    answered = [r for r in rows if r["predicted"]]
    correct = sum(r["predicted"] == r["label"] for r in answered)
    recall = []
    for cls in ("compute", "bandwidth"):
        members = [r for r in rows if r["label"] == cls]
        if members:  # an unanswered kernel counts as wrong
            recall.append(sum(r["predicted"] == cls for r in members) / len(members))
    n = len(rows)
    return {"kernels": n, "covered": len(answered),
            "accuracy": sum(r["predicted"] == r["label"] for r in rows) / n if n else 0,
            "balanced": sum(recall) / len(recall) if recall else 0,
            "accuracy_covered": correct / len(answered) if answered else 0}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--hecbench", required=True, help="a HeCBench checkout (holds src/)")
    p.add_argument("--csv", default=os.path.join(here, "..", "..", "shared", "data", "rtx3080-profiling.csv"))
    p.add_argument("--per-class", type=int, default=50)
    p.add_argument("--split", choices=["dev", "holdout", "all"], default="all")
    p.add_argument("--kopt", default=os.path.join(here, "..", "build", "kopt"))
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--time", action="store_true", help="also predict each kernel's time (xtime)")
    a = p.parse_args()
    src = os.path.join(a.hecbench, "src")
    if not os.path.isdir(src) or not os.path.isfile(a.csv):
        sys.exit("validate-roofline: need DIR/src and the CSV (--csv)")
    sample = balanced_sample(kernel_rows(a.csv), src, a.per_class)
    if a.split != "all":
        sample = [k for k in sample if k["split"] == a.split]
    include = os.path.join(src, "include")
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = list(pool.map(lambda k: classify(k, src, a.kopt, include), sample))
    for k, (predicted, path, why) in zip(sample, results):
        k["predicted"], k["file"], k["why"] = predicted, path, why
    if a.time:
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            times = list(pool.map(lambda k: predict_time(k, src, a.kopt, include), sample))
        for k, (seconds, why) in zip(sample, times):
            k["seconds"], k["time_why"] = seconds, why
    for k in sample if a.verbose else []:
        mark = "-" if not k["predicted"] else ("ok" if k["predicted"] == k["label"] else "XX")
        timed = ""
        if a.time and k["xtime_ns"]:
            real = k["xtime_ns"][len(k["xtime_ns"]) // 2] * 1e-9
            timed = (f" {1e3 * k['seconds']:.4g} ms predicted, {1e3 * real:.4g} ms measured"
                     if k["seconds"] is not None else f" time: {k['time_why'][:60]}")
        print(f"{mark:2} {k['split']:7} {k['label']:9} {k['predicted'] or k['why'][:60]:9} "
              f"{k['program']}/{k['template'] or k['kernel']}{timed}")
    for split in ("dev", "holdout", "all"):
        rows = [k for k in sample if split == "all" or k["split"] == split]
        if not rows:
            continue
        s = score(rows)
        print(f"{split:8} {s['kernels']:3} kernels ({sum(r['label'] == 'compute' for r in rows)} compute-bound): "
              f"accuracy {100 * s['accuracy']:.1f}%, balanced accuracy {100 * s['balanced']:.1f}%, "
              f"coverage {s['covered']}/{s['kernels']} (accuracy on covered {100 * s['accuracy_covered']:.1f}%)")
    if a.time:
        time_report(sample)


if __name__ == "__main__":
    main()
