#!/usr/bin/env python3
"""A stand-in for llama.cpp's llama-server in the local backend tests: --port PORT,
/health answers 503 while "loading" (the first --load-seconds) and 200 after, and
/v1/chat/completions echoes the last user message in the OpenAI format."""
import argparse
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--model", required=True)
parser.add_argument("--load-seconds", type=float, default=0.3)
args = parser.parse_args()
started = time.monotonic()
print(f"fake llama server: loading {args.model} on port {args.port}", flush=True)


class Handler(BaseHTTPRequestHandler):
    def reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path != "/health":
            return self.reply(404, {"error": {"message": "not found"}})
        if time.monotonic() - started < args.load_seconds:
            return self.reply(503, {"error": {"message": "Loading model"}})
        self.reply(200, {"status": "ok"})

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        last = request["messages"][-1]["content"]
        self.reply(200, {
            "model": "fake.gguf",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": "local says: " + last}}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 4}})

    def log_message(self, *_):
        pass


ThreadingHTTPServer(("127.0.0.1", args.port), Handler).serve_forever()
