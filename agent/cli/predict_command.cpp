// `kopt predict`: the execution time of a kernel from its static counts and this machine's
// calibrated costs (tools/predict/), or from a model's reading of the source (--method llm).
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "agent/cli/commands.h"
#include "agent/cli/eval_support.h"
#include "agent/cli/one_question.h"
#include "agent/cli/source_options.h"
#include "agent/cli/status_line.h"
#include "tools/predict/gpu_predict.h"
#include "tools/predict/llm_time.h"
#include "tools/predict/predict.h"
#include "util/json.h"

namespace kopt::cli {

namespace {

// The model's predictions (a CPU's or a GPU's) as documents, each with its summary.
template <class Prediction>
std::vector<Json> model_documents(const std::vector<Prediction>& predictions) {
  std::vector<Json> docs;
  for (const auto& p : predictions) {
    Json doc = to_json(p);
    doc["method"] = "model";
    doc["summary"] = summarize(p);
    docs.push_back(doc);
  }
  return docs;
}

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
  return model_documents(*predictions);
}

// A CUDA file's kernels, each at the launch given, as documents.
Result<std::vector<Json>> gpu_file_documents(const Args& args, const ExecutionContext& ctx,
                                             const GpuTarget& target) {
  GpuFileRequest request;
  request.source = source_file(args, "BENCH");
  request.kernel = args.get("kernel");
  if (args.has("launch")) request.launch = parse_launch(args.get("launch"));
  request.args = parse_kernel_args(args.get("args"));
  auto predictions = predict_gpu_file(ctx, request, target);
  if (!predictions) return predictions.error();
  return model_documents(*predictions);
}

std::vector<Benchmark> chosen(const Args& args) {
  std::vector<Benchmark> benches;
  if (args.flag("all")) {
    const Language wanted = args.flag("cuda") ? Language::cuda : Language::cpp;
    auto found = list_benchmarks(args.has("suite") ? std::filesystem::path(args.get("suite"))
                                                   : default_suite());
    for (auto& bench : found)
      if (bench && (bench->language == Language::cuda) == (wanted == Language::cuda) &&
          !bench->is_program())
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

// A CUDA benchmark's prediction on the target GPU as its document.
Result<Json> by_gpu_model(const ExecutionContext& ctx, const Benchmark& bench,
                          const Variant& variant, long size, const GpuTarget& target) {
  auto p = predict_gpu_variant(ctx, bench, variant.label, variant.source, size, target);
  if (!p) return p.error();
  Json doc = to_json(*p);
  doc["method"] = "model";
  doc["summary"] = summarize(*p);
  return doc;
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

// What the predictions need: the host's machine model and calibration for CPU kernels, the
// GPU and its efficiencies for CUDA ones; each made only when something needs it.
struct PredictionSetup {
  std::optional<MachineModel> machine;
  std::optional<Calibration> calibration;
  std::optional<GpuTarget> gpu;
};

bool any_cpu(const std::vector<Benchmark>& benches, bool cpu_file) {
  return cpu_file || std::any_of(benches.begin(), benches.end(),
                                 [](const Benchmark& b) { return b.language != Language::cuda; });
}

bool any_cuda(const std::vector<Benchmark>& benches, bool cuda_file) {
  return cuda_file || std::any_of(benches.begin(), benches.end(),
                                  [](const Benchmark& b) { return b.language == Language::cuda; });
}

// Prints the failure and returns false when a setup the predictions need cannot be made.
bool prepare(const Args& args, const ExecutionContext& ctx, bool cpu, bool cuda, bool json,
             PredictionSetup& setup) {
  StatusLine status;
  if (cpu || args.get("method") == "llm") {
    status.update("kopt predict: the machine model...");
    auto machine = host_machine(ctx, MachineOptions{});
    if (!machine) throw UsageError{machine.error().message};
    setup.machine = *machine;
  }
  if (cpu && args.get("method") == "model") {
    status.update("kopt predict: calibrating the time model (once per machine)...");
    auto calibration = host_calibration(ctx, *setup.machine, args.flag("recalibrate"));
    status.clear();
    if (!calibration) {
      fmt::print(stderr, "kopt predict: {}\n", calibration.error().message);
      return false;
    }
    setup.calibration = *calibration;
    if (!json) fmt::print("{}", describe(*calibration));
  }
  if (cuda && args.get("method") == "model") {
    status.update("kopt predict: the GPU and its calibration...");
    auto target = gpu_target(ctx, args.get("hardware"), !args.flag("uncalibrated"));
    status.clear();
    if (!target) throw UsageError{target.error().message};
    setup.gpu = *target;
    if (!json)
      fmt::print("GPU time model: the {} ({}), {}\n", target->gpu.name, target->gpu.full_name,
                 target->calibration);
  }
  status.clear();
  return true;
}

Result<Json> predict_one(const Args& args, const ExecutionContext& ctx, const Benchmark& bench,
                         const Variant& variant, long size, const PredictionSetup& setup) {
  if (args.get("method") == "llm") return ask_model(args, bench, variant, size, *setup.machine);
  if (bench.language == Language::cuda) return by_gpu_model(ctx, bench, variant, size, *setup.gpu);
  return by_model(ctx, bench, variant, size, *setup.machine, *setup.calibration);
}

void check_usage(const Args& args, bool file) {
  const std::string method = args.get("method");
  if (method != "model" && method != "llm") throw UsageError{"--method must be model or llm"};
  if (file && method != "model")
    throw UsageError{"a kernel FILE takes --method model (the llm method reads a benchmark)"};
  if (file && (args.flag("all") || args.has("size")))
    throw UsageError{"a kernel FILE takes --args for its parameters, not --all or --size"};
  if (!file && (args.has("kernel") || args.has("args") || args.has("flags") || args.has("launch") ||
                !args.list("I").empty() || !args.list("D").empty()))
    throw UsageError{"--kernel, --args, --launch, --flags, -I and -D describe a kernel FILE"};
  if (file && args.get("variant") != "original")
    throw UsageError{"a kernel FILE is its own variant: --variant is for a benchmark"};
  if (file && args.has("launch") && !is_cuda_file(args.get("BENCH")))
    throw UsageError{"--launch is for a CUDA file"};
  if (file && is_cuda_file(args.get("BENCH")) && !args.has("launch"))
    throw UsageError{cuda_file_refusal(args.get("BENCH"))};
  if (args.flag("cuda") && !args.flag("all"))
    throw UsageError{"--cuda goes with --all (a CUDA benchmark named alone is predicted as such)"};
}

int run_predict(const Args& args) {
  const std::string method = args.get("method");
  const long size = args.has("size") ? args.get_int("size", 1) : 0;
  const bool file = args.has("BENCH") && names_source_file(args.get("BENCH"));
  check_usage(args, file);
  const bool cuda_file = file && is_cuda_file(args.get("BENCH"));
  std::vector<Benchmark> benches = file ? std::vector<Benchmark>{} : chosen(args);
  EvaluatorSession session(args);
  const ExecutionContext& ctx = session.evaluator().context();
  const bool json = args.flag("json");
  PredictionSetup setup;
  if (!prepare(args, ctx, any_cpu(benches, file && !cuda_file), any_cuda(benches, cuda_file), json,
               setup))
    return kExitFailed;
  StatusLine status;
  Json docs = Json::array();
  int failures = 0;
  if (file) {
    status.update("kopt predict " + args.get("BENCH") + "...");
    auto found = cuda_file ? gpu_file_documents(args, ctx, *setup.gpu)
                           : file_documents(args, ctx, *setup.machine, *setup.calibration);
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
      auto doc = predict_one(args, ctx, bench, variant, size, setup);
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
      {"BENCH",
       "Benchmark name or folder, or a C++ or CUDA kernel FILE (every kernel in it; CUDA: one "
       "launch at --launch)"},
      {"--all", "Every CPU kernel benchmark of the suite (with --cuda: every CUDA one)", "", true},
      {"--cuda", "With --all: the CUDA benchmarks instead of the CPU ones", "", true},
      {"--hardware",
       "CUDA: the GPU of the hardware table to predict for (default: the GPU nvidia-smi names, "
       "else h100)"},
      {"--uncalibrated",
       "CUDA: the default efficiencies even where this GPU's calibration exists (kopt machine "
       "--gpu)",
       "", true},
      {"--launch", "A CUDA FILE: GRID,BLOCK, each X[xY[xZ]], of the one launch predicted"},
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
  return {"predict", "Predict the execution time of a kernel on this machine or a GPU", options,
          run_predict};
}

}  // namespace kopt::cli
