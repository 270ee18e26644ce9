#!/usr/bin/env python3
"""A model for kopt's exec: backend that hands back the kernel it was shown, with a comment
added: every candidate is built, checked and timed like a real one, and none is a real win. For
measuring kopt itself (campaign throughput, --jobs, a Slurm executor) without a model's cost or
its variance:
  kopt campaign benchmarks/cpu --llm "exec:python3 scripts/echo-model.py" --iterations 1
With --delay SECONDS it answers after that pause, as a hosted model would.
"""
import json
import re
import sys
import time

request = json.load(sys.stdin)
if "--delay" in sys.argv:
    time.sleep(float(sys.argv[sys.argv.index("--delay") + 1]))
messages = request.get("messages", [])
# kopt's request carries the system prompt on its own; a chat-style first message also counts.
system = request.get("system") or (
    messages[0]["content"] if messages and messages[0]["role"] == "system" else "")
users = [m.get("content") or "" for m in messages if m.get("role") == "user"]
last = users[-1] if users else ""
usage = {"input_tokens": sum(len(m.get("content") or "") for m in messages) // 4,
         "output_tokens": 100}
if "performance analyst" in system:
    text = "## Diagnosis\n\nNothing to change.\n\n## Plan\n\n1. Hand the kernel back unchanged."
else:
    # The current best kernel: the fenced block after its heading, else the prompt's first.
    at = last.find("Current best kernel")
    blocks = re.findall(r"```[a-zA-Z+]*\n(.*?)\n```", last[at:] if at >= 0 else last, re.S)
    if not blocks:
        blocks = re.findall(r"```[a-zA-Z+]*\n(.*?)\n```", last, re.S)
    source = blocks[0] if blocks else ""
    # Prompts number the lines ("  12| code"): hand back the code alone.
    lines = source.split("\n")
    if lines and all(re.match(r"^\s*\d+\| ?", line) for line in lines if line):
        source = "\n".join(re.sub(r"^\s*\d+\| ?", "", line) for line in lines)
    text = "```cpp\n" + source + "\n// handed back by scripts/echo-model.py, pass %d\n```" % len(users)
print(json.dumps({"text": text, "finish_reason": "stop", "usage": usage,
                  "model": "kopt-echo-model"}))
