#include "agent/loop/config.h"

namespace kopt {

namespace {

Json config_json(const RunConfig& c) {
  return {{"benchmark", c.benchmark},
          {"suite", c.suite},
          {"llm", c.llm},
          {"iterations", c.iterations},
          {"candidates", c.candidates},
          {"seed", c.seed},
          {"target_speedup", c.target_speedup},
          {"roofline_fraction", c.roofline_fraction},
          {"budget_tokens", c.budget_tokens},
          {"budget_usd", c.budget_usd},
          {"patience", c.patience},
          {"timing_budget", c.timing_budget},
          {"sandbox", c.sandbox},
          {"temperature", c.temperature},
          {"max_tokens", c.max_tokens},
          {"analyst_tool_rounds", c.analyst_tool_rounds},
          {"optimizer_tool_rounds", c.optimizer_tool_rounds},
          {"no_code_retries", c.no_code_retries},
          {"repair_attempts", c.repair_attempts},
          {"edit_format", c.edit_format},
          {"promotion", c.promotion}};
}

}  // namespace

Json to_json(const RunConfig& c) {
  Json json = config_json(c);
  // "marco" is left out: it is what a record without the field means (records made before
  // strategies), so those replay to the very same run_started event.
  if (c.strategy != "marco") json["strategy"] = c.strategy;
  // Likewise "all" for the remarks (records made before they were ranked).
  if (c.remarks != "all") json["remarks"] = c.remarks;
  // And the predict tool, offered only to runs that say so.
  if (c.predict_tool) json["predict_tool"] = true;
  if (c.drawn_sizes) json["drawn_sizes"] = true;
  return json;
}

std::string default_edit_format() {
  return "file";
}

bool known_strategy(const std::string& name) {
  return name == "marco" || name == "direct" || name == "guided";
}

std::string default_strategy(const std::string& llm_spec) {
  return llm_spec == "local" ? "guided" : "marco";
}

Result<RunConfig> config_from_json(const Json& j) {
  RunConfig c;
  try {
    c.benchmark = j.at("benchmark").get<std::string>();
    c.suite = j.value("suite", c.suite);
    c.llm = j.value("llm", c.llm);
    c.iterations = j.value("iterations", c.iterations);
    c.candidates = j.value("candidates", c.candidates);
    c.seed = j.value("seed", c.seed);
    c.target_speedup = j.value("target_speedup", c.target_speedup);
    c.roofline_fraction = j.value("roofline_fraction", c.roofline_fraction);
    c.budget_tokens = j.value("budget_tokens", c.budget_tokens);
    c.budget_usd = j.value("budget_usd", c.budget_usd);
    c.patience = j.value("patience", c.patience);
    c.timing_budget = j.value("timing_budget", c.timing_budget);
    c.sandbox = j.value("sandbox", c.sandbox);
    c.temperature = j.value("temperature", c.temperature);
    c.max_tokens = j.value("max_tokens", c.max_tokens);
    c.analyst_tool_rounds = j.value("analyst_tool_rounds", c.analyst_tool_rounds);
    c.optimizer_tool_rounds = j.value("optimizer_tool_rounds", c.optimizer_tool_rounds);
    c.no_code_retries = j.value("no_code_retries", c.no_code_retries);
    c.repair_attempts = j.value("repair_attempts", c.repair_attempts);
    c.edit_format = j.value("edit_format", c.edit_format);
    c.strategy = j.value("strategy", c.strategy);  // Absent: a record made before strategies.
    if (!known_strategy(c.strategy))
      return fail("run configuration: strategy must be marco, direct or guided, not '" +
                  c.strategy + "'");
    c.promotion = j.value("promotion", std::string("interval"));  // Absent: an older record.
    if (c.promotion != "head-to-head" && c.promotion != "interval")
      return fail("run configuration: promotion must be head-to-head or interval, not '" +
                  c.promotion + "'");
    c.remarks = j.value("remarks", std::string("all"));  // Absent: an older record.
    c.predict_tool = j.value("predict_tool", false);     // Absent: an older record.
    c.drawn_sizes = j.value("drawn_sizes", false);       // Absent: an older record.
    if (c.remarks != "ranked" && c.remarks != "all")
      return fail("run configuration: remarks must be ranked or all, not '" + c.remarks + "'");
  } catch (const Json::exception& e) {
    // what() starts "[json.exception.type.N] "; the reader wants only what is wrong.
    const std::string what = e.what();
    const size_t end = what.find("] ");
    return fail("run configuration: " + (end == std::string::npos ? what : what.substr(end + 2)));
  }
  return c;
}

}  // namespace kopt
