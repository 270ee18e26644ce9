// `kopt predict`: the execution time of a kernel from its static counts and this machine's
// calibrated costs (tools/predict/), or from a model's reading of the source (--method llm).
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "agent/cli/commands.h"
#include "agent/cli/eval_support.h"
#include "agent/cli/one_question.h"
#include "agent/cli/source_options.h"
#include "agent/cli/status_line.h"
#include "tools/predict/llm_time.h"
#include "tools/predict/predict.h"
#include "util/json.h"

namespace kopt::cli {

namespace {

// The file's kernels as documents, with the lines for people under "summary".
Result<std::vector<Json>> file_documents(const Args& args, const ExecutionContext& ctx,
                                         const MachineModel& machine,
                                         const Calibration& calibration) {
  FilePredictionRequest request;
  request.source = source_file(args, "BENCH");
  request.kernel = args.get("kernel");
  request.args = parse_kernel_args(args.get("args"));
  auto predictions = predict_file(ctx, request, machine, calibration);
  if (!predictions) return predictions.error();
  std::vector<Json> docs;
  for (const auto& p : *predictions) {
    Json doc = to_json(p);
    doc["method"] = "model";
    doc["summary"] = summarize(p);
    docs.push_back(doc);
  }
  return docs;
}

std::vector<Benchmark> chosen(const Args& args) {
  std::vector<Benchmark> benches;
  if (args.flag("all")) {
    auto found = list_benchmarks(args.has("suite") ? std::filesystem::path(args.get("suite"))
                                                   : default_suite());
    for (auto& bench : found)
      if (bench && bench->language != Language::cuda && !bench->is_program())
        benches.push_back(std::move(*bench));
  }
  if (args.has("BENCH")) benches.push_back(load_benchmark_arg(args, args.get("BENCH")));
  if (benches.empty()) throw UsageError{"name a benchmark or pass --all"};
  return benches;
}

std::vector<std::string> chosen_variants(const Args& args, const Benchmark& bench) {
  const std::string wanted = args.get("variant");
  if (wanted != "both") return {wanted};
  if (!bench.has_human) return {"original"};
  return {"original", "human"};
}

Result<Json> ask_model(const Args& args, const Benchmark& bench, const Variant& variant, long size,
                       const MachineModel& machine) {
  if (!args.has("llm")) return fail("--method llm needs --llm SPEC (or KOPT_LLM)");
  auto prompt = time_prompt(bench, variant.source, size, describe(machine));
  if (!prompt) return prompt.error();
  auto answer = ask_one_question(args.get("llm"), prompt->system, prompt->user);
  if (!answer) return answer.error();
  auto seconds = parse_time_answer(answer->text);
  if (!seconds) return seconds.error();
  return Json{{"format", "kopt-prediction/1"},
              {"summary", fmt::format("{} {}: the model predicts {:.4g} ms a call\n", bench.name,
                                      variant.label, *seconds * 1e3)},
              {"benchmark", bench.name},
              {"variant", variant.label},
              {"size", size > 0 ? size : bench.time_size},
              {"method", "llm"},
              {"prediction", {{"seconds", *seconds}}},
              {"model", answer->model},
              {"prompt_hash", prompt->hash},
              {"answer", answer->text}};
}

// The model's prediction as its document, with the lines for people under "summary".
Result<Json> by_model(const ExecutionContext& ctx, const Benchmark& bench, const Variant& variant,
                      long size, const MachineModel& machine, const Calibration& calibration) {
  auto p = predict_variant(ctx, bench, variant.label, variant.source, size, machine, calibration);
  if (!p) return p.error();
  Json doc = to_json(*p);
  doc["method"] = "model";
  doc["summary"] = summarize(*p);
  return doc;
}

int run_predict(const Args& args) {
  const std::string method = args.get("method");
  if (method != "model" && method != "llm") throw UsageError{"--method must be model or llm"};
  const long size = args.has("size") ? args.get_int("size", 1) : 0;
  const bool file = args.has("BENCH") && names_source_file(args.get("BENCH"));
  if (file && method != "model")
    throw UsageError{"a kernel FILE takes --method model (the llm method reads a benchmark)"};
  if (file && (args.flag("all") || args.has("size")))
    throw UsageError{"a kernel FILE takes --args for its parameters, not --all or --size"};
  if (!file && (args.has("kernel") || args.has("args") || args.has("flags") ||
                !args.list("I").empty() || !args.list("D").empty()))
    throw UsageError{"--kernel, --args, --flags, -I and -D describe a kernel FILE"};
  if (file && args.get("variant") != "original")
    throw UsageError{"a kernel FILE is its own variant: --variant is for a benchmark"};
  if (file && is_cuda_file(args.get("BENCH")))
    throw UsageError{cuda_file_refusal(args.get("BENCH"))};
  std::vector<Benchmark> benches = file ? std::vector<Benchmark>{} : chosen(args);
  EvaluatorSession session(args);
  const ExecutionContext& ctx = session.evaluator().context();
  StatusLine status;
  status.update("kopt predict: the machine model...");
  auto machine = host_machine(ctx, MachineOptions{});
  if (!machine) throw UsageError{machine.error().message};
  status.update("kopt predict: calibrating the time model (once per machine)...");
  auto calibration = host_calibration(ctx, *machine, args.flag("recalibrate"));
  status.clear();
  if (!calibration) {
    fmt::print(stderr, "kopt predict: {}\n", calibration.error().message);
    return kExitFailed;
  }
  const bool json = args.flag("json");
  if (!json && method == "model") fmt::print("{}", describe(*calibration));
  Json docs = Json::array();
  int failures = 0;
  if (file) {
    status.update("kopt predict " + args.get("BENCH") + "...");
    auto found = file_documents(args, ctx, *machine, *calibration);
    status.clear();
    if (!found) {
      fmt::print(stderr, "kopt predict: {}\n", found.error().message);
      return kExitFailed;
    }
    for (auto& doc : *found) {
      if (!json) std::cout << json_text(doc, "summary") << std::flush;
      doc.erase("summary");
      docs.push_back(doc);
    }
  }
  for (const auto& bench : benches) {
    for (const auto& name : chosen_variants(args, bench)) {
      const Variant variant = load_variant(bench, name);
      status.update(fmt::format("kopt predict {} {} ({})...", bench.name, variant.label, method));
      auto doc = method == "llm" ? ask_model(args, bench, variant, size, *machine)
                                 : by_model(ctx, bench, variant, size, *machine, *calibration);
      status.clear();
      if (!doc) {
        ++failures;
        fmt::print(stderr, "kopt predict {} {}: {}\n", bench.name, variant.label,
                   doc.error().message);
        docs.push_back({{"benchmark", bench.name},
                        {"variant", variant.label},
                        {"error", doc.error().message}});
        continue;
      }
      if (!json) std::cout << json_text(*doc, "summary") << std::flush;
      doc->erase("summary");
      docs.push_back(*doc);
    }
  }
  if (json) std::cout << dump_json(docs.size() == 1 ? docs[0] : docs, 2) << "\n";
  return failures == 0 ? kExitOk : kExitFailed;
}

}  // namespace

CommandSpec predict_command() {
  std::vector<OptionSpec> options = {
      {"BENCH", "Benchmark name or folder, or a C++ kernel FILE (every kernel in it)"},
      {"--all", "Every CPU kernel benchmark of the suite", "", true},
      {"--variant", "original, human, both, or a kernel file", "original"},
      {"--size", "Problem size (default: the manifest's time size)"},
      {"--method",
       "model (static counts times this machine's calibrated costs) or llm (a model reads the "
       "source and the machine)",
       "model"},
      {"--llm", "LLM backend spec for --method llm", "", false, false, "KOPT_LLM"},
      {"--recalibrate", "Run the calibration sweep again instead of using the cached one", "",
       true},
      {"--json", "Print kopt-prediction/1 documents", "", true}};
  for (auto& o : source_file_options()) options.push_back(o);
  for (auto& o : evaluator_options()) options.push_back(o);
  return {"predict", "Predict the execution time of a kernel on this machine", options,
          run_predict};
}

}  // namespace kopt::cli
