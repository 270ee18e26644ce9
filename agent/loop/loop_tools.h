// The tools of the loop: read_file, compile, run_tests, benchmark and submit, plus the
// profile, roofline, predict and search_knowledge tools of tools/, all registered here in one
// place.
#pragma once

#include <memory>

#include "agent/loop/config.h"
#include "tools/registry/registry.h"

namespace kopt {

/// Every tool the model can call, registered once.
std::unique_ptr<ToolRegistry> make_loop_registry();

/// The name of the tool through which the optimizer hands in its kernel file.
inline constexpr const char* kSubmitTool = "submit";

/// The tools each role is offered (the analyst's predict tool only where `config` says so).
std::vector<std::string> analyst_tools(const ToolRegistry& registry, const RunConfig& config);
std::vector<std::string> optimizer_tools(const ToolRegistry& registry);

}  // namespace kopt
