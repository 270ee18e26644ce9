#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <optional>

#include "agent/cli/command.h"
#include "agent/llm/secrets.h"
#include "util/strings.h"
#include "util/version.h"

namespace kopt::cli {

std::string option_key(const std::string& name) {
  size_t start = name.find_first_not_of('-');
  std::string key = name.substr(start == std::string::npos ? 0 : start);
  for (auto& c : key) c = (c == '-') ? '_' : static_cast<char>(std::tolower(c));
  return key;
}

std::string Args::get(const std::string& name) const {
  auto it = values_.find(option_key(name));
  return it == values_.end() ? std::string() : it->second;
}

bool Args::has(const std::string& name) const {
  return !get(name).empty();
}

namespace {

template <class T>
UsageError not_in_range(const std::string& name, const std::string& text, T min, T max) {
  return UsageError{fmt::format("--{} must be between {} and {}, not '{}'", name, min, max, text)};
}

// The finite number `text` spells in full, or nullopt.
std::optional<double> finite_number(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace

long Args::get_int(const std::string& name, long min, long max) const {
  const std::string text = trim(get(name));
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end)
    throw UsageError{"--" + name + " must be an integer, not '" + text + "'"};
  if (errno == ERANGE || value < min || value > max) throw not_in_range(name, text, min, max);
  return value;
}

double Args::get_double(const std::string& name, double min, double max) const {
  const std::string text = trim(get(name));
  const std::optional<double> value = finite_number(text);
  if (!value) throw UsageError{"--" + name + " must be a finite number, not '" + text + "'"};
  if (*value < min || *value > max) throw not_in_range(name, text, min, max);
  return *value;
}

std::vector<std::string> Args::list(const std::string& name) const {
  std::string text = get(name);
  return text.empty() ? std::vector<std::string>{} : split(text, '\n');
}

namespace {

// Storage for the raw values CLI11 fills in, per option.
struct Binding {
  const OptionSpec* spec;
  std::vector<std::string> values;  // Repeated options.
  std::string value;                // Single-valued options and positionals.
  bool flag = false;
};

CLI::App* find_or_add(CLI::App& root, const std::vector<std::string>& path,
                      const std::string& help) {
  CLI::App* app = &root;
  for (size_t i = 0; i < path.size(); ++i) {
    CLI::App* next = nullptr;
    try {
      next = app->get_subcommand(path[i]);
    } catch (const CLI::OptionNotFound&) {
    }
    if (!next) next = app->add_subcommand(path[i], i + 1 == path.size() ? help : "");
    if (i + 1 < path.size()) {
      // A group's help names its commands: "llm" says "ping, chat".
      next->require_subcommand(1);
      const std::string listed = next->get_description();
      next->description(listed.empty() ? path[i + 1] : listed + ", " + path[i + 1]);
    }
    app = next;
  }
  return app;
}

void bind_option(CLI::App& app, Binding& b) {
  const OptionSpec& o = *b.spec;
  CLI::Option* option;
  if (o.is_flag) {
    option = app.add_flag(o.name, b.flag, o.help);
  } else if (o.repeated && o.name.front() == '-') {
    // One value per occurrence ("-I a -I b"), so a positional after it stays a positional.
    option = app.add_option(o.name, b.values, o.help)
                 ->expected(1)
                 ->allow_extra_args(false)
                 ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  } else if (o.repeated) {  // A positional of several words ("kopt knowledge false sharing").
    option = app.add_option(o.name, b.values, o.help);
  } else {
    option = app.add_option(o.name, b.value, o.help);
    if (!o.default_value.empty()) option->default_str(o.default_value);
    // Values are read (and range-checked) when used; the help says which ones are numbers.
    if (!o.default_value.empty() && finite_number(o.default_value)) option->type_name("NUMBER");
  }
  if (!o.env.empty()) option->envname(o.env);
  if (o.required) option->required();
}

Args collect(const std::vector<Binding>& bindings) {
  Args args;
  for (const auto& b : bindings) {
    const std::string key = option_key(b.spec->name);
    if (b.spec->is_flag) {
      if (b.flag) args.set(key, "1");
    } else if (!b.values.empty()) {
      args.set(key, join(b.values, "\n"));
    } else if (!b.value.empty()) {
      args.set(key, b.value);
    } else if (!b.spec->default_value.empty()) {
      args.set(key, b.spec->default_value);
    }
  }
  return args;
}

}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App root{"kopt: an agentic optimization loop for compute kernels"};
  root.require_subcommand(1);
  root.set_version_flag("--version", fmt::format("kopt {} ({})", kKoptVersion, kKoptCommit));
  const std::vector<CommandSpec> commands = all_commands();
  std::vector<std::unique_ptr<std::vector<Binding>>> bindings;
  std::vector<std::pair<CLI::App*, size_t>> apps;
  for (size_t i = 0; i < commands.size(); ++i) {
    CLI::App* app = find_or_add(root, split(commands[i].name, ' '), commands[i].help);
    auto& list = *bindings.emplace_back(std::make_unique<std::vector<Binding>>());
    list.reserve(commands[i].options.size());
    for (const auto& option : commands[i].options)
      bind_option(*app, list.emplace_back(Binding{&option, {}, {}, false}));
    apps.emplace_back(app, i);
  }
  try {
    root.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return root.exit(e);  // --help, --version.
    std::fprintf(stderr, "kopt: %s (see kopt --help)\n",
                 llm::redact_secrets(std::string(e.what())).c_str());
    return kExitUsage;
  }
  for (const auto& [app, index] : apps) {
    if (!app->parsed()) continue;
    try {
      return commands[index].run(collect(*bindings[index]));
    } catch (const UsageError& e) {
      std::fprintf(stderr, "kopt %s: %s (see kopt %s --help)\n", commands[index].name.c_str(),
                   llm::redact_secrets(e.message).c_str(), commands[index].name.c_str());
      return kExitUsage;
    }
  }
  return kExitUsage;
}

}  // namespace kopt::cli
