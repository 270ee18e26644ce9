#include "tools/roofline/static_ptx.h"

#include <regex>
#include <set>
#include <sstream>

#include "sandbox/sandbox.h"
#include "tools/eval/build.h"
#include "util/files.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

struct PtxInstruction {
  std::string opcode;  ///< "fma.rn.f32", "ld.global.v4.f32", ...
  std::vector<std::string> operands;
  std::string label;   ///< Set for a label line.
  std::string target;  ///< bra: its label.
};

struct PtxLoop {
  size_t begin = 0, end = 0;  ///< Instruction indices: the label and the backward branch.
  std::set<std::string> written;
};

std::vector<std::string> operand_list(const std::string& text) {
  std::vector<std::string> ops;
  for (auto& part : split(text, ',')) ops.push_back(trim(part));
  return ops;
}

std::vector<std::vector<PtxInstruction>> parse_entries(const std::string& ptx) {
  std::vector<std::vector<PtxInstruction>> entries;
  std::istringstream in(ptx);
  std::string line;
  bool body = false;
  while (std::getline(in, line)) {
    std::string t = trim(line.substr(0, line.find("//")));
    if (starts_with(t, ".visible .entry") || starts_with(t, ".entry") ||
        starts_with(t, ".weak .entry")) {
      entries.emplace_back();
      body = false;
    } else if (!entries.empty() && t == "{") {
      body = true;
    } else if (body && t == "}") {
      body = false;
    } else if (body && !t.empty() && t.back() == ':') {
      entries.back().push_back({"", {}, t.substr(0, t.size() - 1), ""});
    } else if (body && !t.empty() && t[0] != '.' && t.back() == ';') {
      t.pop_back();
      if (t[0] ==
          '@') {  // A guard "@%p1 bra ..."; a guard with nothing after it is no instruction.
        const auto after = t.find_first_of(" \t");
        if (after == std::string::npos) continue;
        t = trim(t.substr(after));
      }
      PtxInstruction inst;
      const auto space = t.find_first_of(" \t");
      inst.opcode = t.substr(0, space);
      if (space != std::string::npos) inst.operands = operand_list(t.substr(space + 1));
      if (starts_with(inst.opcode, "bra") && !inst.operands.empty())
        inst.target = inst.operands.front();
      entries.back().push_back(inst);
    }
  }
  return entries;
}

std::vector<PtxLoop> find_loops(const std::vector<PtxInstruction>& body) {
  std::vector<PtxLoop> loops;
  std::map<std::string, size_t> labels;
  for (size_t i = 0; i < body.size(); ++i) {
    if (!body[i].label.empty()) labels[body[i].label] = i;
    auto it = body[i].target.empty() ? labels.end() : labels.find(body[i].target);
    if (it == labels.end()) continue;
    PtxLoop loop{it->second, i, {}};
    for (size_t j = loop.begin; j <= loop.end; ++j)
      if (!body[j].operands.empty() && body[j].target.empty())
        loop.written.insert(body[j].operands.front());
    loops.push_back(loop);
  }
  return loops;
}

int element_bytes(const std::string& opcode) {
  static const std::pair<const char*, int> kTypes[] = {
      {".f64", 8}, {".u64", 8}, {".s64", 8}, {".b64", 8}, {".f32", 4},
      {".u32", 4}, {".s32", 4}, {".b32", 4}, {".f16", 2}, {".u16", 2},
      {".s16", 2}, {".b16", 2}, {".u8", 1},  {".s8", 1},  {".b8", 1}};
  int lanes = opcode.find(".v4") != std::string::npos   ? 4
              : opcode.find(".v2") != std::string::npos ? 2
                                                        : 1;
  for (const auto& [suffix, bytes] : kTypes)
    if (opcode.find(suffix) != std::string::npos) return lanes * bytes;
  return 0;
}

bool is_global_memory(const std::string& op) {
  const bool memory = starts_with(op, "ld.") || starts_with(op, "st.") ||
                      starts_with(op, "atom.") || starts_with(op, "red.") || op == "ld" ||
                      op == "st";
  if (!memory) return false;
  for (const char* space : {".shared", ".local", ".param", ".const"})
    if (op.find(space) != std::string::npos) return false;
  return true;
}

// The registers an address operand "[%rd5+8]" uses.
std::string address_register(const std::vector<std::string>& operands) {
  for (const auto& op : operands) {
    if (op.empty() || op[0] != '[') continue;
    return op.substr(1, op.find_first_of("+]") - 1);
  }
  return {};
}

void count(const PtxInstruction& inst, double weight, StaticCounts& out) {
  const std::string& op = inst.opcode;
  const bool f32 = op.find(".f32") != std::string::npos, f64 = op.find(".f64") != std::string::npos;
  const bool fma = starts_with(op, "fma.") || (starts_with(op, "mad.") && (f32 || f64));
  const bool fp_arith = starts_with(op, "add.") || starts_with(op, "sub.") ||
                        starts_with(op, "mul.") || starts_with(op, "div.") || fma;
  if (fp_arith && (f32 || f64)) {
    (f64 ? out.counters.fp64_flops : out.counters.fp32_flops) += weight * (fma ? 2 : 1);
    return;
  }
  static const char* kInt[] = {"add.", "sub.",  "mul.", "mad.", "mul24.", "mad24.", "shl.",
                               "shr.", "and.",  "or.",  "xor.", "not.",   "setp.",  "min.",
                               "max.", "selp.", "neg.", "rem.", "div."};
  for (const char* prefix : kInt)
    if (starts_with(op, prefix) && !f32 && !f64 && op.find(".f16") == std::string::npos) {
      out.counters.int_ops += weight;
      return;
    }
  if (starts_with(op, "sqrt.") || starts_with(op, "rsqrt.") || starts_with(op, "ex2.") ||
      starts_with(op, "lg2.") || starts_with(op, "sin.") || starts_with(op, "cos.") ||
      starts_with(op, "rcp."))
    out.special_calls += weight;
}

void cost_entry(const std::vector<PtxInstruction>& body, double trips, StaticCounts& out) {
  const auto loops = find_loops(body);
  out.loops += static_cast<int>(loops.size());
  out.unknown_trip_loops += static_cast<int>(loops.size());
  for (size_t i = 0; i < body.size(); ++i) {
    double weight = 1, traffic = 1;
    const std::string address = address_register(body[i].operands);
    for (const auto& loop : loops) {
      if (i < loop.begin || i > loop.end) continue;
      weight *= trips;
      if (address.empty() || loop.written.contains(address)) traffic *= trips;
    }
    count(body[i], weight, out);
    if (!is_global_memory(body[i].opcode)) continue;
    const int bytes = element_bytes(body[i].opcode);
    out.executed_bytes += weight * bytes;
    out.counters.dram_bytes += traffic * bytes;
  }
}

}  // namespace

StaticCounts cost_ptx(const std::string& ptx, double default_trips) {
  StaticCounts out;
  for (const auto& body : parse_entries(ptx)) cost_entry(body, default_trips, out);
  out.counters.kernel = "ptx";
  out.notes.push_back("PTX loop trip counts are not known statically: each level counts " +
                      std::to_string(static_cast<int>(default_trips)) + " iterations");
  return out;
}

Result<StaticEstimate> estimate_ptx(const ExecutionContext& ctx, const Benchmark& bench,
                                    const std::string& source, long size) {
  TempDir ws("static-", ctx.work_root);
  if (auto st = stage_build_workspace(bench, ws.path(), source); !st) return st.error();
  share_workspace(ws.path(), ctx.policy);
  ProcessResult r = run_build_tool(ctx, ws.path(),
                                   {"/usr/local/cuda/bin/nvcc", "-ptx", "-O3", "-arch=compute_80",
                                    "-I.", "kernel.cu", "-o", "kernel.ptx"},
                                   300);
  if (r.spawn_failed || r.exit_code == 127)
    return fail("nvcc not found (install the CUDA toolkit)");
  if (!r.succeeded()) return fail("nvcc -ptx failed: " + trim(tail(r.output, 400)));
  auto ptx = read_file(ws.path() / "kernel.ptx");
  if (!ptx) return ptx.error();
  StaticEstimate estimate;
  estimate.toolchain = "nvcc -ptx -O3 (compute_80)";
  estimate.assumptions.size = static_cast<double>(size > 0 ? size : bench.time_size);
  estimate.counts = cost_ptx(*ptx, estimate.assumptions.default_trips);
  return estimate;
}

}  // namespace kopt
