#include "tools/roofline/ptx_module.h"

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "util/strings.h"

namespace kopt {

namespace {

std::string strip_comments(const std::string& ptx) {
  std::string out;
  out.reserve(ptx.size());
  for (size_t i = 0; i < ptx.size(); ++i) {
    if (ptx.compare(i, 2, "//") == 0) {
      i = ptx.find('\n', i);
      if (i == std::string::npos) break;
    } else if (ptx.compare(i, 2, "/*") == 0) {
      i = ptx.find("*/", i);
      if (i == std::string::npos) break;
      ++i;
      continue;
    }
    out += ptx[i];
  }
  return out;
}

enum class Token { statement, label, open, close, header };

bool is_header(const std::string& text) {
  return text.find(".entry") != std::string::npos || text.find(".func") != std::string::npos;
}

bool looks_like_label(const std::string& text) {
  return text.size() > 1 && text.back() == ':' && text.find_first_of(" \t,[") == std::string::npos;
}

// Statements, labels and block braces, in order. A '{' opens a block only where no statement
// is pending (or after a function header); inside a statement it is a vector operand.
std::vector<std::pair<Token, std::string>> tokenize(const std::string& ptx) {
  std::vector<std::pair<Token, std::string>> out;
  std::string pending;
  int operand_braces = 0;
  for (char ch : strip_comments(ptx)) {
    const std::string t = trim(pending);
    if (ch == ';' && operand_braces == 0) {
      if (!t.empty()) out.emplace_back(Token::statement, t);
      pending.clear();
    } else if (ch == '{' && (t.empty() || is_header(t)) && operand_braces == 0) {
      if (!t.empty()) out.emplace_back(Token::header, t);
      out.emplace_back(Token::open, "");
      pending.clear();
    } else if (ch == '}' && operand_braces == 0 && t.empty()) {
      out.emplace_back(Token::close, "");
      pending.clear();
    } else if (ch == '\n' && looks_like_label(t)) {
      out.emplace_back(Token::label, t.substr(0, t.size() - 1));
      pending.clear();
    } else {
      operand_braces += ch == '{' ? 1 : ch == '}' ? -1 : 0;
      pending += ch == '\n' || ch == '\t' ? ' ' : ch;
    }
  }
  return out;
}

std::vector<std::string> top_level_operands(const std::string& text) {
  std::vector<std::string> parts;
  std::string current;
  int depth = 0;
  for (char ch : text) {
    depth += (ch == '(' || ch == '[' || ch == '{')   ? 1
             : (ch == ')' || ch == ']' || ch == '}') ? -1
                                                     : 0;
    if (ch == ',' && depth == 0) {
      parts.push_back(trim(current));
      current.clear();
    } else {
      current += ch;
    }
  }
  if (!trim(current).empty()) parts.push_back(trim(current));
  return parts;
}

PtxInstruction parse_statement(std::string t) {
  PtxInstruction inst;
  if (t[0] == '@') {
    const auto space = t.find_first_of(" \t");
    inst.guard = t.substr(1, space == std::string::npos ? std::string::npos : space - 1);
    t = space == std::string::npos ? "" : trim(t.substr(space));
  }
  const auto space = t.find_first_of(" \t");
  inst.opcode = t.substr(0, space);
  if (space != std::string::npos) inst.operands = top_level_operands(t.substr(space + 1));
  return inst;
}

// A parameter declaration's type: the last ".type" word before the name, with the name's array
// extent ("[24]") when it has one.
std::string ptx_param_type(const std::string& declaration, const std::string& name) {
  std::string type;
  std::istringstream words(declaration);
  for (std::string word; words >> word;)
    if (word.size() > 1 && word[0] == '.' && word != ".param" && word != ".align" &&
        word != ".ptr" && word.find("global") == std::string::npos)
      type = word;
  const auto bracket = name.find('[');
  return bracket == std::string::npos ? type : type + name.substr(bracket);
}

void read_header(const std::string& text, PtxFunction& f) {
  f.entry = text.find(".entry") != std::string::npos;
  std::string rest = text.substr(text.find(f.entry ? ".entry" : ".func") + (f.entry ? 6 : 5));
  rest = trim(rest);
  if (!rest.empty() && rest[0] == '(') rest = trim(rest.substr(rest.find(')') + 1));
  const auto open = rest.find('(');
  f.name = trim(rest.substr(0, open));
  if (open == std::string::npos) return;
  const std::string list = rest.substr(open + 1, rest.rfind(')') - open - 1);
  for (auto& param : top_level_operands(list)) {
    std::string name = trim(param.substr(param.find_last_of(" \t") + 1));
    f.params.push_back(name.substr(0, name.find('[')));
    f.param_types.push_back(ptx_param_type(param, name));
  }
}

}  // namespace

std::vector<PtxFunction> parse_ptx_module(const std::string& ptx) {
  std::vector<PtxFunction> module;
  int depth = 0;
  for (const auto& [kind, text] : tokenize(ptx)) {
    if (depth == 0) {
      if (kind == Token::header || (kind == Token::statement && is_header(text))) {
        module.emplace_back();
        read_header(text, module.back());
      }
      if (kind == Token::open && !module.empty()) module.back().defined = true;
    }
    if (kind == Token::open) ++depth;
    if (kind == Token::close) depth = std::max(0, depth - 1);
    if (depth == 0 || module.empty() || kind == Token::open) continue;
    if (kind == Token::label) module.back().body.push_back({"", {}, "", text, 0});
    if (kind == Token::statement && text[0] != '.')
      module.back().body.push_back(parse_statement(text));
  }
  return module;
}

bool is_special_register(const std::string& name) {
  static const std::set<std::string> kSpecial = {"%tid",
                                                 "%ntid",
                                                 "%ctaid",
                                                 "%nctaid",
                                                 "%laneid",
                                                 "%warpid",
                                                 "%nwarpid",
                                                 "%smid",
                                                 "%nsmid",
                                                 "%clock",
                                                 "%clock64",
                                                 "%gridid",
                                                 "%globaltimer",
                                                 "%lanemask_eq",
                                                 "%lanemask_lt",
                                                 "%lanemask_le",
                                                 "%lanemask_gt",
                                                 "%lanemask_ge",
                                                 "%dynamic_smem_size",
                                                 "%total_smem_size"};
  return kSpecial.contains(name.substr(0, name.find('.')));
}

std::vector<std::string> operand_registers(const std::string& operand) {
  static const std::regex kRegister(R"(%[A-Za-z_$][\w$]*(\.[xyz])?)");
  std::vector<std::string> regs;
  for (std::sregex_iterator it(operand.begin(), operand.end(), kRegister), end; it != end; ++it)
    regs.push_back(it->str());
  return regs;
}

}  // namespace kopt
