#include "tools/profile/perf_script.h"

#include <charconv>
#include <set>
#include <sstream>

#include "util/strings.h"

namespace kopt {

namespace {

// "    2eba standardize+0x8a (/tmp/w/bench)" -> a frame; false for anything else.
bool parse_frame(const std::string& text, StackFrame& frame) {
  const std::string line = trim(text);
  const auto space = line.find(' ');
  const auto open = line.rfind(" (");
  if (space == std::string::npos || open == std::string::npos || line.back() != ')') return false;
  try {
    frame.address = std::stoull(line.substr(0, space), nullptr, 16);
  } catch (const std::exception&) {
    return false;
  }
  std::string symbol = open > space ? trim(line.substr(space + 1, open - space - 1)) : "";
  if (const auto plus = symbol.rfind("+0x"); plus != std::string::npos) symbol.resize(plus);
  frame.symbol = symbol.empty() ? "[unknown]" : symbol;
  frame.object = line.substr(open + 2, line.size() - open - 3);
  return true;
}

// A header "  tid" or, without call chains, "  tid  ip sym+off (dso)".
bool parse_header(const std::string& line, StackSample& sample) {
  std::istringstream in(line);
  if (!(in >> sample.tid)) return false;
  std::string rest;
  std::getline(in, rest);
  StackFrame frame;
  if (!trim(rest).empty() && parse_frame(rest, frame)) sample.frames.push_back(frame);
  return true;
}

struct ExpandedFrame {
  std::string function;
  std::string file;
  int line = 0;
  std::string object;
  bool in_binary = false;
};

std::vector<ExpandedFrame> expand(const StackSample& sample, const LineTable& table,
                                  const std::string& binary) {
  std::vector<ExpandedFrame> frames;
  for (size_t i = 0; i < sample.frames.size(); ++i) {
    const StackFrame& f = sample.frames[i];
    const bool in_binary = f.object == binary;
    const uint64_t lookup = i == 0 || !in_binary ? f.address : f.address - 1;
    auto it = in_binary ? table.find(lookup) : table.end();
    if (it == table.end() || it->second.empty()) {
      frames.push_back({f.symbol, "", 0, f.object, in_binary});
      continue;
    }
    for (const auto& s : it->second)
      frames.push_back(
          {s.function == "??" ? f.symbol : s.function, s.file, s.line, f.object, true});
  }
  return frames;
}

}  // namespace

std::vector<StackSample> parse_perf_script(const std::string& text) {
  std::vector<StackSample> samples;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (trim(line).empty()) continue;
    if (line[0] == '\t' && !samples.empty()) {
      StackFrame frame;
      if (parse_frame(line, frame) && frame.object != "inlined")
        samples.back().frames.push_back(frame);
      continue;
    }
    StackSample sample;
    if (parse_header(line, sample)) samples.push_back(std::move(sample));
  }
  return samples;
}

std::vector<uint64_t> lookup_addresses(const std::vector<StackSample>& samples,
                                       const std::string& binary) {
  std::set<uint64_t> addresses;
  for (const auto& s : samples)
    for (size_t i = 0; i < s.frames.size(); ++i)
      if (s.frames[i].object == binary) addresses.insert(s.frames[i].address - (i ? 1 : 0));
  return {addresses.begin(), addresses.end()};
}

LineTable parse_addr2line(const std::string& text) {
  LineTable table;
  std::istringstream in(text);
  std::string line, function;
  std::vector<SourceFrame>* chain = nullptr;
  while (std::getline(in, line)) {
    if (starts_with(line, "0x")) {
      uint64_t address = 0;  // An address past 64 bits is no address: its lines are skipped.
      const auto parsed = std::from_chars(line.data() + 2, line.data() + line.size(), address, 16);
      chain = parsed.ec == std::errc() ? &table[address] : nullptr;
      function.clear();
    } else if (chain && function.empty()) {
      function = line;
    } else if (chain) {
      const auto colon = line.rfind(':');
      SourceFrame frame{function, colon == std::string::npos ? line : line.substr(0, colon), 0};
      if (colon != std::string::npos) frame.line = std::atoi(line.c_str() + colon + 1);
      chain->push_back(frame);
      function.clear();
    }
  }
  return table;
}

void attribute_samples(const std::vector<StackSample>& samples, const LineTable& table,
                       const std::string& binary, const std::string& kernel_file,
                       ProfileBuilder& builder) {
  for (const auto& sample : samples) {
    const auto frames = expand(sample, table, binary);
    if (frames.empty()) continue;
    const ExpandedFrame& leaf = frames.front();
    const bool leaf_in_kernel = file_name_of(leaf.file) == kernel_file;
    builder.add_function(leaf.function, leaf_in_kernel ? "kernel" : file_name_of(leaf.object), 1);
    size_t k = 0;
    while (k < frames.size() && file_name_of(frames[k].file) != kernel_file) ++k;
    if (k == 0) {
      builder.add_self(leaf.line, 1);
      builder.add_place(where::kKernel, 1);
    } else if (k < frames.size()) {
      builder.add_callee(frames[k].line, leaf.function + " (" + file_name_of(leaf.object) + ")", 1);
      builder.add_place(leaf.in_binary ? where::kCallees : place_of_object(leaf.object, false), 1);
    } else {
      builder.add_place(place_of_object(leaf.object, leaf.in_binary), 1);
    }
  }
}

}  // namespace kopt
