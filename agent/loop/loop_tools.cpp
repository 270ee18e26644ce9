#include "agent/loop/loop_tools.h"

#include "agent/loop/verdict.h"
#include "tools/eval/evaluator.h"
#include "tools/knowledge/knowledge_tool.h"
#include "tools/predict/predict_tool.h"
#include "tools/profile/profile_tool.h"
#include "tools/roofline/roofline_tool.h"
#include "util/files.h"
#include "util/strings.h"

namespace kopt {

namespace {

Json source_schema(const std::string& what) {
  return {{"type", "object"},
          {"properties", {{"source", {{"type", "string"}, {"description", what}}}}},
          {"required", {"source"}}};
}

// The manifest as a model may see it: everything but what describes the human version (its
// technique would give the answer away).
std::string public_manifest(const std::string& text) {
  Json manifest = Json::parse(text, nullptr, false);
  if (manifest.is_discarded() || !manifest.is_object()) return "{}";
  for (const char* key : {"technique", "human"}) manifest.erase(key);
  return manifest.dump(2) + "\n";
}

// Files of the benchmark a model may read; never the human version.
class ReadFileTool : public Tool {
 public:
  std::string name() const override { return "read_file"; }
  std::string description() const override {
    return "Read one of the benchmark's files: kernel.h (the fixed interface), the original kernel "
           "file, the driver (how inputs are made and the kernel is called), benchmark.json "
           "(sizes, tolerance), 'current' (the current best kernel), or a correct candidate by "
           "its id (0003).";
  }
  Json schema() const override {
    return {{"type", "object"},
            {"properties",
             {{"path",
               {{"type", "string"},
                {"description",
                 "kernel.h, original.cpp, driver.cpp, benchmark.json, current, or a correct "
                 "candidate's id such as 0003"}}}}},
            {"required", {"path"}}};
  }
  ToolResult call(const Json& args, ToolContext& ctx) override {
    const std::string path = args.value("path", "");
    const Benchmark& b = *ctx.benchmark;
    if (path == "current" || path == "best") return text_result(ctx.current_source);
    if (auto it = ctx.candidates.find(path); it != ctx.candidates.end())
      return text_result(it->second);
    if (b.is_program()) return program_file(b, path);
    std::vector<std::string> readable = {"kernel.h", b.kernel_file(), b.driver_file(),
                                         "benchmark.json"};
    readable.insert(readable.end(), b.headers.begin(), b.headers.end());  // The kernel's own.
    for (const auto& allowed : readable) {
      if (path != allowed) continue;
      auto content = read_file(b.dir / allowed);
      if (!content) return tool_error(content.error().message);
      return text_result(allowed == "benchmark.json" ? public_manifest(*content) : *content);
    }
    std::string ids;
    for (const auto& [id, source] : ctx.candidates) ids += ", " + id;
    return tool_error("'" + path + "' is not readable; choose " + join(readable, ", ") +
                      ", current" + ids);
  }

 private:
  // Any file of a program's folder but its human version; the manifest without its technique.
  static ToolResult program_file(const Benchmark& b, const std::string& path) {
    const std::filesystem::path file = (b.dir / path).lexically_normal();
    const std::string relative = file.lexically_relative(b.dir).string();
    if (path.empty() || relative.empty() || relative.rfind("..", 0) == 0 ||
        relative.rfind("human", 0) == 0 || !std::filesystem::is_regular_file(file))
      return tool_error("'" + path + "' is not a file of the program; its editable files are " +
                        join(b.program.editable, ", ") + ", and 'current' is the current best");
    auto content = read_file(file, 256 * 1024);
    if (!content) return tool_error(content.error().message);
    return text_result(relative == "benchmark.json" ? public_manifest(*content) : *content);
  }

  static ToolResult text_result(const std::string& text) {
    ToolResult r;
    r.text = text;
    r.data = {{"bytes", text.size()}};
    return r;
  }
};

// compile, run_tests and benchmark share one shape: a source in, an evaluation out.
class EvaluateTool : public Tool {
 public:
  enum class Depth { build, check, time };
  EvaluateTool(std::string name, std::string description, Depth depth)
      : name_(std::move(name)), description_(std::move(description)), depth_(depth) {}
  std::string name() const override { return name_; }
  std::string description() const override { return description_; }
  Json schema() const override { return source_schema("The complete kernel file"); }
  ToolResult call(const Json& args, ToolContext& ctx) override {
    const std::string source = args.value("source", "");
    if (trim(source).empty()) return tool_error("source is empty");
    ToolResult r;
    if (depth_ == Depth::build) {
      BuildOutcome build = ctx.executor->build(*ctx.benchmark, source);
      r.ok = build.ok;
      r.text = build.ok ? "compiles" : hide_seeds(build.failure) + "\n" + tail(build.log, 3000);
      if (build.ok && !build.remarks.empty())
        r.text += "\nvectorization remarks:\n" + tail(build.remarks, 2500);
      r.data = to_json(build);
      return r;
    }
    EvalRequest request;
    request.source = source;
    request.label = name_;
    request.time = depth_ == Depth::time;
    request.timing.budget_seconds = 3;
    Evaluation e = ctx.executor->evaluate(*ctx.benchmark, request, {});
    r.data = to_json(e);
    r.ok = e.correct();
    r.text = feedback_text(read_verdict(r.data));
    return r;
  }

 private:
  std::string name_, description_;
  Depth depth_;
};

// The optimizer's hand-in; the loop intercepts calls to it, so call() is never reached in a run.
class SubmitTool : public Tool {
 public:
  std::string name() const override { return kSubmitTool; }
  std::string description() const override {
    return "Hand in your final kernel file: the complete file, which replaces the original. kopt "
           "then builds it, checks it against the original and times it.";
  }
  Json schema() const override {
    Json s = source_schema("The complete kernel file");
    s["properties"]["summary"] = {{"type", "string"}, {"description", "One line: what changed"}};
    return s;
  }
  ToolResult call(const Json&, ToolContext&) override {
    ToolResult r;
    r.text = "submitted";
    return r;
  }
};

}  // namespace

std::unique_ptr<ToolRegistry> make_loop_registry() {
  auto registry = std::make_unique<ToolRegistry>();
  registry->add(std::make_unique<ReadFileTool>());
  registry->add(std::make_unique<EvaluateTool>(
      "compile",
      "Compile a kernel file with the benchmark's flags; returns errors, warnings and the "
      "compiler's vectorization remarks.",
      EvaluateTool::Depth::build));
  registry->add(std::make_unique<EvaluateTool>(
      "run_tests",
      "Build a kernel file and check its outputs against the original's on every check size "
      "with fresh random inputs; returns pass or the first mismatch.",
      EvaluateTool::Depth::check));
  registry->add(std::make_unique<EvaluateTool>(
      "benchmark",
      "Build, check and time a kernel file against the original (a short timing); returns "
      "the speedup with its interval.",
      EvaluateTool::Depth::time));
  registry->add(make_profile_tool());
  registry->add(make_roofline_tool());
  registry->add(make_predict_tool());
  registry->add(make_knowledge_tool());
  registry->add(std::make_unique<SubmitTool>());
  return registry;
}

std::vector<std::string> analyst_tools(const ToolRegistry& registry, const RunConfig& config) {
  std::vector<std::string> names;
  for (const char* name : {"read_file", "profile", "roofline", "predict", "search_knowledge"})
    if (registry.find(name) && (config.predict_tool || std::string(name) != "predict"))
      names.push_back(name);
  return names;
}

std::vector<std::string> optimizer_tools(const ToolRegistry& registry) {
  std::vector<std::string> names;
  for (const char* name : {"read_file", "compile", "run_tests", "benchmark", "profile",
                           "search_knowledge", kSubmitTool})
    if (registry.find(name)) names.push_back(name);
  return names;
}

}  // namespace kopt
