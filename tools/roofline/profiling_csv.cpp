#include "tools/roofline/profiling_csv.h"

#include <map>
#include <sstream>

#include "util/files.h"

namespace kopt {

namespace {

using Columns = std::map<std::string, size_t>;

Result<Columns> header_columns(const std::string& line) {
  Columns columns;
  const auto names = split_csv_record(line);
  for (size_t i = 0; i < names.size(); ++i) columns[names[i]] = i;
  for (const char* need : {"Kernel Name", "traffic", "spAI", "dpAI", "intAI", "spPerf", "dpPerf",
                           "intPerf", "xtime", "targetName"})
    if (!columns.contains(need)) return fail(std::string("no column '") + need + "'");
  return columns;
}

Result<ProfiledLaunch> parse_row(const std::vector<std::string>& fields, const Columns& columns) {
  auto number = [&](const char* name, double& out) {
    const size_t at = columns.at(name);
    if (at >= fields.size()) return false;
    try {
      out = std::stod(fields[at]);
    } catch (const std::exception&) {
      return false;
    }
    return true;
  };
  auto text = [&](const char* name, std::string& out) {
    const size_t at = columns.at(name);
    if (at >= fields.size()) return false;
    out = fields[at];
    return true;
  };
  double traffic = 0, sp = 0, dp = 0, in = 0, ns = 0;
  ProfiledLaunch row;
  KernelCounters& c = row.counters;
  if (!number("traffic", traffic) || !number("spPerf", sp) || !number("dpPerf", dp) ||
      !number("intPerf", in) || !number("xtime", ns) || !number("spAI", row.given.fp32) ||
      !number("dpAI", row.given.fp64) || !number("intAI", row.given.int_ops))
    return fail("a number is missing or malformed");
  if (!text("targetName", row.program) || !text("Kernel Name", c.kernel))
    return fail("the row has fewer fields than the header names");
  c.seconds = ns * 1e-9;
  c.dram_bytes = traffic * c.seconds;
  c.fp32_flops = sp * c.seconds;
  c.fp64_flops = dp * c.seconds;
  c.int_ops = in * c.seconds;
  return row;
}

}  // namespace

std::vector<std::string> split_csv_record(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted && ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (ch == '"') {
      quoted = !quoted;
    } else if (ch == ',' && !quoted) {
      fields.emplace_back();
    } else if (ch != '\r' || quoted) {
      fields.back() += ch;
    }
  }
  return fields;
}

Result<std::vector<ProfiledLaunch>> read_profiling_csv(const std::filesystem::path& path) {
  auto content = read_file(path);
  if (!content) return content.error();
  std::istringstream in(*content);
  std::string line;
  if (!std::getline(in, line)) return fail(path.string() + " is empty");
  auto columns = header_columns(line);
  if (!columns) return fail(path.string() + ": " + columns.error().message);
  std::vector<ProfiledLaunch> rows;
  for (size_t number = 2; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    auto row = parse_row(split_csv_record(line), *columns);
    if (!row)
      return fail(path.string() + ":" + std::to_string(number) + ": " + row.error().message);
    rows.push_back(std::move(*row));
  }
  return rows;
}

}  // namespace kopt
