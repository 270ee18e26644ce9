#!/usr/bin/env python3
"""What a run showed, from kopt's own verdicts in its summary.json: how many candidates were
correct, whether one was a significant win over the original, and the best.

  run-outcome.py SUMMARY              one sentence (the demo's last line)
  run-outcome.py SUMMARY --row LABEL WALL_S
                                      one row of scripts/measure-demo.sh's table
"""
import json
import sys

CORRECT = ("faster", "not-faster", "slower", "correct")  # verdict::is_correct in kopt


def main():
    args = sys.argv[1:]
    try:
        with open(args[0]) as f:
            summary = json.load(f)
    except (IndexError, OSError, ValueError) as e:
        sys.exit(f"run-outcome: no readable summary.json ({e})")
    candidates = summary.get("candidates", [])
    correct = [c for c in candidates if c["status"] in CORRECT]
    wins = [c for c in candidates if c["status"] == "faster"]
    if len(args) == 4 and args[1] == "--row":
        b = summary["best"]
        best = ("original" if b["id"] == "original" else
                f'{b["id"]} {b["speedup"]:.2f}x [{b["ci_low"]:.2f}, {b["ci_high"]:.2f}]')
        print(f'{args[2]:<5} {len(correct)}/{len(candidates):<7} {"yes" if wins else "no":<8} '
              f'{best:<22} {args[3]:<8} {summary["stop"]["rule"]}')
    elif wins:
        b = max(wins, key=lambda c: c["speedup"])
        print(f'demo: the local model found a real win: candidate {b["id"]} is correct and '
              f'{b["speedup"]:.2f}x faster than the original [interval at the decision level {b["ci_low"]:.2f}, '
              f'{b["ci_high"]:.2f}], a significant win by kopt\'s own measurement')
    else:
        print(f'demo: no candidate of this run was both correct and significantly faster '
              f'({len(correct)} of {len(candidates)} correct); the measured rate over several '
              f'seeds is in docs/local-model.md')


if __name__ == "__main__":
    main()
