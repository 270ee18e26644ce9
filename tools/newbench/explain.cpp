// What a failed check of a new benchmark's original against itself means, in plain words.
#include <regex>

#include "tools/newbench/new_benchmark.h"

namespace kopt {

namespace {

std::string quoted_output(const std::string& reason) {
  std::smatch match;
  if (std::regex_search(reason, match, std::regex("output '([^']+)'"))) return match[1];
  return "";
}

}  // namespace

std::string explain_failed_original(const Evaluation& check) {
  if (!check.build.ok)
    return "the original does not build as the benchmark's kernel file: " + check.build.failure +
           " (the file must compile on its own, with every helper it calls in it)";
  if (!check.check) return "the check did not run: " + one_line(check);
  const CheckOutcome& c = *check.check;
  const std::string name = quoted_output(c.reason);
  if (c.reason.find("original's own output is never written") != std::string::npos)
    return "the original leaves part of '" + name +
           "' unwritten, so kopt new's guess that it is an output is wrong: run kopt new again "
           "with --role " +
           name + "=inout --force";
  if (c.reason.find("original's own output is NaN") != std::string::npos)
    return "the original computes NaN in '" + name +
           "' from the driver's random inputs: narrow the ranges in driver.cpp's fill() to the "
           "values the kernel expects";
  if (c.category == "crash" || c.reason.find("signal") != std::string::npos ||
      c.reason.find("SIGSEGV") != std::string::npos)
    return "the original crashes on the driver's inputs: an array is probably shorter than the "
           "kernel's loops reach; give its length with --extent NAME=EXPR and --force (" +
           c.reason + ")";
  if (c.category == "wrong" || c.category == "precision")
    return "the original does not reproduce its own outputs (" + c.reason +
           "): it reads memory the driver does not fill, or sums in a different order each "
           "call (threads); fix the kernel or widen the tolerance in benchmark.json";
  return "the original fails its own check: " + c.reason;
}

}  // namespace kopt
