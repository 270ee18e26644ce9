#!/usr/bin/env python3
"""A model for kopt's exec: backend that hands in given kernel files one after another: the
k-th optimizer request gets the k-th file (the last once they run out). For measuring kopt's
decisions on candidates whose true order is known, without a model's variance:
  kopt run licm --strategy direct --iterations 3 \
    --llm "exec:python3 scripts/sequence-model.py --state /tmp/seq K1.cpp K2.cpp K3.cpp"
The state file counts the requests answered (remove it to start again).
"""
import json
import sys

args = sys.argv[1:]
state = args[args.index("--state") + 1]
files = [a for i, a in enumerate(args) if a != "--state" and (i == 0 or args[i - 1] != "--state")]
request = json.load(sys.stdin)
messages = request.get("messages", [])
system = request.get("system") or (
    messages[0]["content"] if messages and messages[0]["role"] == "system" else "")
usage = {"input_tokens": sum(len(m.get("content") or "") for m in messages) // 4,
         "output_tokens": 100}
if "performance analyst" in system:
    text = "## Diagnosis\n\nThe next kernel of the sequence.\n\n## Plan\n\n1. Submit it."
else:
    try:
        with open(state) as f:
            done = int(f.read().strip() or 0)
    except FileNotFoundError:
        done = 0
    with open(files[min(done, len(files) - 1)]) as f:
        source = f.read()
    with open(state, "w") as f:
        f.write(str(done + 1))
    text = "```cpp\n" + source + "\n```"
print(json.dumps({"text": text, "finish_reason": "stop", "usage": usage,
                  "model": "kopt-sequence-model"}))
