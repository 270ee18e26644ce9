// kopt's command line, declared as data: each command is a name, a help line, its options and
// a handler. cli.cpp turns the table into a parser; a test checks it for duplicates.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kopt::cli {

/// One option or positional argument of a command.
struct OptionSpec {
  std::string name;  ///< "--iterations" for an option, "BENCH" for a positional.
  std::string help = {};
  std::string default_value = {};  ///< Shown in help and used when absent.
  bool is_flag = false;            ///< A switch without a value.
  bool required = false;
  std::string env = {};   ///< Environment variable that supplies the value when absent.
  bool repeated = false;  ///< May be given several times (values joined by '\n').
};

/// Parsed values of one invocation, by option name without dashes.
class Args {
 public:
  /// The value given, the environment's or the default; empty when none.
  std::string get(const std::string& name) const;
  /// True when given (flags) or non-empty (options).
  bool has(const std::string& name) const;
  bool flag(const std::string& name) const { return has(name); }
  /// The value as an integer within [min, max]; throws UsageError on bad text, a value that
  /// does not fit, or one out of range.
  long get_int(const std::string& name, long min = 0, long max = kMaxInt) const;
  /// The value as a finite number within [min, max]; throws UsageError otherwise (nan, inf).
  double get_double(const std::string& name, double min = 0, double max = 1e12) const;

  /// The largest integer options take by default.
  static constexpr long kMaxInt = 1L << 40;
  /// Every value of a repeated option.
  std::vector<std::string> list(const std::string& name) const;

  void set(const std::string& name, const std::string& value) { values_[name] = value; }

 private:
  std::map<std::string, std::string> values_;
};

/// kopt's exit statuses: done; failed (an error, a run whose model refused for good, a replay
/// that diverged); a bad command line or input; a run interrupted by its model (resumable).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInterrupted = 3;

/// A bad command line: printed as one line with a pointer to --help.
struct UsageError {
  std::string message;
};

/// One command: "eval", or a nested one such as "llm ping".
struct CommandSpec {
  std::string name;
  std::string help = {};
  std::vector<OptionSpec> options = {};
  std::function<int(const Args&)> run = {};
};

/// Every command of kopt, in the order `kopt --help` lists them.
std::vector<CommandSpec> all_commands();

/// Parses argv and runs the chosen command; prints errors as one line; returns the exit code.
int run_cli(int argc, char** argv);

/// Strips leading dashes: "--iterations" -> "iterations".
std::string option_key(const std::string& name);

}  // namespace kopt::cli
