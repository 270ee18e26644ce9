#include "tools/roofline/ptx_ops.h"

#include <utility>

#include "util/strings.h"

namespace kopt {

namespace {

bool has(const std::string& op, const char* part) {
  return op.find(part) != std::string::npos;
}

std::string opcode_family(const std::string& op) {
  return op.substr(0, op.find('.'));
}

// FLOPs of the SASS sequence behind an IEEE division, square root or reciprocal.
double rounded_sequence(const std::string& f, bool f64, bool approx) {
  if (approx) return f == "div" ? 1 : 0;
  if (f == "div") return f64 ? 16 : 8;
  if (f == "sqrt") return f64 ? 14 : 6;
  return f64 ? 10 : 6;  // rcp
}

PtxOpCount floating(const std::string& op, const std::string& f, bool f64) {
  PtxOpCount c;
  double& flops = f64 ? c.fp64 : c.fp32;
  if (f == "add" || f == "sub" || f == "mul")
    flops = 1;
  else if (f == "fma" || f == "mad")
    flops = 2;
  else if (f == "div" || f == "sqrt" || f == "rcp") {
    flops = rounded_sequence(f, f64, has(op, ".approx") || has(op, ".full"));
    c.special = 1;
  } else if (f == "rsqrt" || f == "ex2" || f == "lg2" || f == "sin" || f == "cos" || f == "tanh") {
    c.special = 1;
  }
  return c;
}

double integer_instructions(const std::string& op, const std::string& f) {
  static const char* kOne[] = {"add",   "sub", "mul",  "mad",  "mul24", "mad24",   "shl", "shr",
                               "and",   "or",  "xor",  "not",  "setp",  "min",     "max", "selp",
                               "neg",   "abs", "popc", "clz",  "brev",  "bfe",     "bfi", "prmt",
                               "lop3",  "shf", "sad",  "addc", "subc",  "madc",    "set", "slct",
                               "bfind", "fns", "dp4a", "dp2a", "testp", "copysign"};
  const bool wide64 = has(op, "64") && !has(op, ".wide");
  if (f == "div" || f == "rem") return wide64 ? 40 : 12;
  if (f == "cvt") return has(op, ".s64.s32") ? 1 : 0;
  for (const char* name : kOne)
    if (f == name) return wide64 ? 2 : 1;
  return 0;
}

}  // namespace

bool is_global_access(const std::string& op) {
  const std::string f = opcode_family(op);
  if (f != "ld" && f != "st" && f != "atom" && f != "red" && f != "ldu") return false;
  for (const char* space : {".shared", ".local", ".param", ".const"})
    if (has(op, space)) return false;
  return true;
}

int access_bytes(const std::string& op) {
  static const std::pair<const char*, int> kTypes[] = {
      {".f64", 8}, {".u64", 8}, {".s64", 8}, {".b64", 8},  {".f32", 4}, {".u32", 4},
      {".s32", 4}, {".b32", 4}, {".f16", 2}, {".u16", 2},  {".s16", 2}, {".b16", 2},
      {".u8", 1},  {".s8", 1},  {".b8", 1},  {".b128", 16}};
  const int lanes = has(op, ".v8") ? 8 : has(op, ".v4") ? 4 : has(op, ".v2") ? 2 : 1;
  for (const auto& [suffix, bytes] : kTypes)
    if (has(op, suffix)) return lanes * bytes;
  return 0;
}

PtxOpCount count_ptx_op(const PtxInstruction& inst) {
  const std::string& op = inst.opcode;
  if (op.empty()) return {};
  const std::string f = opcode_family(op);
  if (f == "ld" || f == "st" || f == "atom" || f == "red" || f == "mov" || f == "bra" ||
      f == "cvta" || f == "bar" || f == "call")
    return {};
  const bool f16 = has(op, ".f16") || has(op, ".bf16");
  const bool f32 = has(op, ".f32") && f != "cvt" && f != "setp" && f != "selp";
  const bool f64 = has(op, ".f64") && f != "cvt" && f != "setp" && f != "selp";
  if (f16) return {};
  if (f32 || f64) return floating(op, f, f64);
  if (f == "setp" && (has(op, ".f32") || has(op, ".f64"))) return {};
  PtxOpCount c;
  if (f == "cvt" && (has(op, ".f32") || has(op, ".f64"))) {
    c.special = 1;
    return c;
  }
  c.int_ops = integer_instructions(op, f);
  return c;
}

}  // namespace kopt
