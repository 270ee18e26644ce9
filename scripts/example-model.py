#!/usr/bin/env python3
"""A scripted model for kopt's exec: backend, used to record runs/examples/: reads kopt's request
JSON on stdin and answers on stdout. The analyst always gives the same diagnosis (in Markdown);
the optimizer of licm first hands in a kernel that hoists the damping factor but computes it in
single precision (wrong at kopt's tolerance), then, once a candidate is in its history or it is
asked to repair one, the correct hoisted kernel (a real win).
  kopt run licm --llm "exec:python3 scripts/example-model.py" --iterations 2
"""
import json
import pathlib
import sys

HOISTED = (pathlib.Path(__file__).resolve().parent.parent
           / "tests" / "fixtures" / "loop" / "licm_hoisted.cpp").read_text()
# The same kernel with the damping factor computed in float: about 1e-7 relative error.
SINGLE = HOISTED.replace(
    "const double damping = std::exp(-decay * static_cast<double>(i));",
    "const double damping = std::exp(-static_cast<float>(decay) * static_cast<float>(i));")

ANALYSIS = """## Diagnosis

The inner loop recomputes two values that do not depend on `j`:

1. `std::exp(-decay * i)`, once per element instead of once per row;
2. `1.0 / std::sqrt(var[j] + eps)`, once per element instead of once per column.

## Plan

1. Hoist the damping factor out of the inner loop.
2. Precompute the inverse standard deviations once per call.
"""

request = json.load(sys.stdin)
messages = request.get("messages", [])
# kopt's request carries the system prompt on its own; a chat-style first message also counts.
system = request.get("system") or (
    messages[0]["content"] if messages and messages[0]["role"] == "system" else "")
text = "\n".join(m.get("content") or "" for m in messages)
usage = {"input_tokens": len(text) // 4, "output_tokens": 200}
if "performance analyst" in system:
    reply = {"text": ANALYSIS, "finish_reason": "stop", "usage": usage}
else:
    second = "0001" in text or "repair" in text.lower()
    source = HOISTED if second else SINGLE
    summary = ("hoist the damping factor and the inverse standard deviations" if second else
               "hoist the damping factor, computed in single precision")
    call = {"id": "call_1", "name": "submit", "arguments": {"source": source, "summary": summary}}
    reply = {"text": "", "tool_calls": [call], "finish_reason": "tool_calls", "usage": usage}
reply["model"] = "kopt-example-script"
print(json.dumps(reply))
