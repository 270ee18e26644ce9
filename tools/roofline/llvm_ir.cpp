#include "tools/roofline/llvm_ir.h"

#include <sstream>

#include "util/strings.h"

namespace kopt {

namespace {

const std::set<std::string> kFlags = {
    "nuw",      "nsw",     "exact",   "fast",     "nnan",    "ninf",     "nsz",    "arcp",
    "contract", "afn",     "reassoc", "disjoint", "tail",    "musttail", "notail", "volatile",
    "noundef",  "zeroext", "signext", "inreg",    "nonnull", "atomic"};

const std::set<std::string> kIntegerOpcodes = {"add",  "sub",  "mul",   "sdiv", "udiv",
                                               "srem", "urem", "shl",   "lshr", "ashr",
                                               "sext", "zext", "trunc", "icmp"};

const std::set<std::string> kFloatOpcodes = {"fadd", "fsub", "fmul",  "fdiv",
                                             "frem", "fneg", "select"};

std::string first_token(const std::string& text) {
  const std::string t = trim(text);
  return t.substr(0, t.find(' '));
}

// The argument values of a call whose list opens at `open`: the last word of each argument.
std::vector<std::string> call_arguments(const std::string& text, size_t open) {
  std::vector<std::string> args(1);
  int depth = 0;
  for (size_t i = open + 1; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == '(' || ch == '[' || ch == '{' || ch == '<') ++depth;
    if ((ch == ')' || ch == ']' || ch == '}' || ch == '>') && depth-- == 0) break;
    if (ch == ',' && depth == 0)
      args.emplace_back();
    else
      args.back() += ch;
  }
  for (auto& arg : args) arg = trim(arg).substr(trim(arg).rfind(' ') + 1);
  return args;
}

// The values of a floating-point operation or select: the last word of each operand.
std::vector<std::string> value_operands(const std::string& text) {
  std::vector<std::string> values;
  for (const auto& operand : split(text, ',')) {
    const std::string t = trim(operand);
    values.push_back(t.substr(t.rfind(' ') == std::string::npos ? 0 : t.rfind(' ') + 1));
  }
  return values;
}

// The incoming values of a phi: the first word inside each "[ value, %block ]".
std::vector<std::string> phi_incoming(const std::string& text) {
  std::vector<std::string> values;
  for (auto open = text.find('['); open != std::string::npos; open = text.find('[', open + 1))
    values.push_back(first_token(text.substr(open + 1, text.find(',', open) - open - 1)));
  return values;
}

// A branch's condition and labels ("%cmp", "%a", "%b"; one label when unconditional), a
// switch's value, default label and, on one line, its cases (value, label, ...).
std::vector<std::string> branch_operands(const std::string& text) {
  std::vector<std::string> values;
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    while (!word.empty() && (word.back() == ',' || word.back() == ']')) word.pop_back();
    if (word.empty() || word == "label" || word == "[" || word[0] == 'i' || word[0] == '!')
      continue;
    values.push_back(word);
  }
  return values;
}

// Reads one type at `pos` ("double", "<4 x double>", "double*", "ptr") and moves past it.
std::string read_type(const std::string& text, size_t& pos) {
  while (pos < text.size() && text[pos] == ' ') ++pos;
  const size_t start = pos;
  if (pos < text.size() && text[pos] == '<') {
    pos = text.find('>', pos);
    pos = pos == std::string::npos ? text.size() : pos + 1;
  } else {
    while (pos < text.size() && text[pos] != ' ' && text[pos] != ',' && text[pos] != '(') ++pos;
  }
  while (pos < text.size() && text[pos] == '*') ++pos;
  return text.substr(start, pos - start);
}

std::string next_word(const std::string& text, size_t& pos) {
  while (pos < text.size() && text[pos] == ' ') ++pos;
  const size_t start = pos;
  while (pos < text.size() && text[pos] != ' ' && text[pos] != ',') ++pos;
  return text.substr(start, pos - start);
}

void skip_flags(const std::string& text, size_t& pos) {
  while (true) {
    size_t probe = pos;
    if (!kFlags.contains(next_word(text, probe))) return;
    pos = probe;
  }
}

// The pointer operand: the value after the last pointer type before ", align" or the end.
std::string pointer_operand(const std::string& text) {
  const auto comma = text.rfind(", align");
  const std::string head = comma == std::string::npos ? text : text.substr(0, comma);
  const auto space = head.rfind(' ');
  return space == std::string::npos ? "" : head.substr(space + 1);
}

IrInstruction parse_instruction(std::string text, const std::string& block) {
  IrInstruction inst;
  inst.block = block;
  if (const auto eq = text.find(" = "); eq != std::string::npos && text[0] == '%') {
    inst.result = text.substr(0, eq);
    text = text.substr(eq + 3);
  }
  size_t pos = 0;
  skip_flags(text, pos);
  inst.opcode = next_word(text, pos);
  if (inst.opcode == "icmp" || inst.opcode == "fcmp") inst.predicate = next_word(text, pos);
  skip_flags(text, pos);
  inst.type = read_type(text, pos);
  if (inst.opcode == "load" || inst.opcode == "store") inst.pointer = pointer_operand(text);
  if (kIntegerOpcodes.contains(inst.opcode))
    for (const auto& operand : split(text.substr(pos), ','))
      inst.operands.push_back(first_token(operand));
  if (kFloatOpcodes.contains(inst.opcode)) inst.operands = value_operands(text.substr(pos));
  if (inst.opcode == "phi") inst.operands = phi_incoming(text.substr(pos));
  if (inst.opcode == "alloca") {  // "alloca double, i64 %n, align 16": the count, when given
    const auto parts = split(text.substr(pos), ',');
    const std::string count = parts.size() > 1 ? trim(parts[1]) : "";  // "i64 %n"
    if (starts_with(count, "i"))
      inst.operands.push_back(first_token(count.substr(count.find(' ') + 1)));
  }
  if (inst.opcode == "br" || inst.opcode == "switch")
    inst.operands = branch_operands(text.substr(pos));
  if (inst.opcode == "call" || inst.opcode == "invoke") {
    const auto at = text.find('@');
    const auto paren = text.find('(', at == std::string::npos ? 0 : at);
    if (at != std::string::npos && paren != std::string::npos) {
      inst.callee = text.substr(at, paren - at);
      inst.operands = call_arguments(text, paren);
    }
  }
  return inst;
}

void parse_params(const std::string& line, IrFunction& f) {
  const auto open = line.find('(', line.find('@'));
  if (open == std::string::npos) return;
  size_t close = open + 1;
  for (int depth = 1; close < line.size(); ++close) {
    if (line[close] == '(') ++depth;
    if (line[close] == ')' && --depth == 0) break;
  }
  if (close >= line.size()) return;
  for (const auto& param : split(line.substr(open + 1, close - open - 1), ',')) {
    size_t pos = 0;
    const std::string type = read_type(param, pos);
    const auto percent = param.rfind('%');
    f.params.push_back({type, percent == std::string::npos ? "" : trim(param.substr(percent))});
  }
}

IrLoop parse_loop(const std::string& line) {
  IrLoop loop;
  // The caller saw "Loop at depth"; a line cut after it has no depth or blocks.
  loop.depth = std::atoi(line.c_str() + line.find("depth") + 5);
  const auto containing = line.find("containing:");
  if (containing == std::string::npos) return loop;
  for (auto block : split(line.substr(containing + 11), ',')) {
    block = trim(block);
    const bool header = block.find("<header>") != std::string::npos;
    block = block.substr(block[0] == '%' ? 1 : 0, block.find('<') - (block[0] == '%' ? 1 : 0));
    loop.blocks.insert(block);
    if (header) loop.header = "%" + block;
  }
  return loop;
}

void parse_dispositions(const std::string& text, std::map<std::string, std::string>& into) {
  const auto open = text.find('{'), close = text.rfind('}');
  if (open == std::string::npos || close == std::string::npos) return;
  for (const auto& item : split(text.substr(open + 1, close - open - 1), ',')) {
    const auto colon = item.rfind(':');
    if (colon != std::string::npos)
      into[trim(item.substr(0, colon))] = trim(item.substr(colon + 1));
  }
}

}  // namespace

std::vector<IrFunction> parse_llvm_ir(const std::string& text) {
  std::vector<IrFunction> functions;
  std::istringstream in(text);
  std::string line, block;
  bool inside = false;
  while (std::getline(in, line)) {
    if (starts_with(line, "define ")) {
      functions.emplace_back();
      const auto at = line.find('@');
      functions.back().name = line.substr(at + 1, line.find('(', at) - at - 1);
      parse_params(line, functions.back());
      inside = true;
      block = "entry";
    } else if (inside && starts_with(line, "}")) {
      inside = false;
    } else if (inside && !line.empty() && line[0] != ' ' && line.find(':') != std::string::npos) {
      block = line.substr(0, line.find(':'));
    } else if (inside && !functions.back().instructions.empty() &&
               functions.back().instructions.back().opcode == "switch" &&
               starts_with(trim(line), "i") && line.find(", label %") != std::string::npos) {
      auto cases = branch_operands(trim(line));  // a switch's case on a line of its own
      auto& operands = functions.back().instructions.back().operands;
      operands.insert(operands.end(), cases.begin(), cases.end());
    } else if (inside && starts_with(line, "  ") && trim(line)[0] != ';' && trim(line) != "]") {
      functions.back().instructions.push_back(parse_instruction(trim(line), block));
    }
  }
  return functions;
}

std::map<std::string, ScevFacts> parse_scev_report(const std::string& text) {
  std::map<std::string, ScevFacts> facts;
  std::vector<IrLoop> pending;
  ScevFacts* current = nullptr;
  std::string value, exits_of;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const std::string t = trim(line);
    if (starts_with(t, "Loop at depth") || starts_with(t, "Parallel Loop at depth")) {
      pending.push_back(parse_loop(t));
    } else if (starts_with(t, "Printing analysis 'Scalar Evolution Analysis' for function '")) {
      const auto start = t.find("function '") + 10;
      current = &facts[t.substr(start, t.find('\'', start) - start)];
      current->loops = std::move(pending);
      pending.clear();
    } else if (current && starts_with(t, "%") && t.find(" = ") != std::string::npos) {
      value = t.substr(0, t.find(" = "));
    } else if (current && starts_with(t, "-->  ") && !value.empty()) {
      const auto end = t.find(" U: ");
      current->scev[value] =
          trim(t.substr(5, end == std::string::npos ? std::string::npos : end - 5));
      if (const auto d = t.find("LoopDispositions:"); d != std::string::npos)
        parse_dispositions(t.substr(d), current->dispositions[value]);
    } else if (current && starts_with(t, "Loop %") &&
               t.find(": backedge-taken count is ") != std::string::npos) {
      const std::string header = t.substr(5, t.find(':') - 5);
      for (auto& loop : current->loops)
        if (loop.header == header) loop.backedge_count = t.substr(t.find(" is ") + 4);
    } else if (current && starts_with(t, "Loop %") &&
               t.find("Unpredictable backedge-taken count") != std::string::npos) {
      exits_of = t.substr(5, t.find(':') - 5);
    } else if (current && starts_with(t, "exit count for ") && !exits_of.empty()) {
      for (auto& loop : current->loops)
        if (loop.header == exits_of) loop.exit_counts.push_back(trim(t.substr(t.find(": ") + 2)));
    }
  }
  return facts;
}

std::pair<int, int> type_shape(const std::string& type) {
  std::string element = type;
  int lanes = 1;
  if (starts_with(type, "<")) {
    lanes = std::atoi(type.c_str() + 1);
    const auto x = type.find(" x ");
    if (x == std::string::npos) return {0, 0};
    element = type.substr(x + 3, type.find('>') - x - 3);
  }
  if (element == "double") return {lanes, 64};
  if (element == "float") return {lanes, 32};
  if (element == "half" || element == "bfloat") return {lanes, 16};
  if (element.size() > 1 && element[0] == 'i' &&
      std::isdigit(static_cast<unsigned char>(element[1])))
    return {lanes, std::atoi(element.c_str() + 1)};
  if (!element.empty() && (element.back() == '*' || element == "ptr")) return {lanes, 64};
  return {0, 0};
}

}  // namespace kopt
