#!/usr/bin/env python3
"""An exec: backend for the tests: reads a kopt request JSON on stdin, answers like the
contract scenario (text, a tool call, or an echo of the tool result) on stdout."""
import json
import sys

request = json.load(sys.stdin)
messages = request.get("messages", [])
usage = {"input_tokens": 12, "output_tokens": 5}
if messages and messages[-1]["role"] == "tool":
    reply = {"text": "tool said: " + messages[-1]["content"], "usage": usage}
elif request.get("tools"):
    call = {"id": "call_0", "name": "compile",
            "arguments": {"source": "int main() {}", "flags": ["-O3"]}}
    reply = {"text": "", "tool_calls": [call], "finish_reason": "tool_calls", "usage": usage}
else:
    reply = {"text": "Hello, \u00b5-kernel! \u2713", "finish_reason": "stop", "usage": usage}
reply["model"] = "fake-model-1"
print("the fake model is thinking", file=sys.stderr)
print(json.dumps(reply))
