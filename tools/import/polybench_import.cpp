#include "tools/import/polybench_import.h"

#include <chrono>
#include <nlohmann/json.hpp>

#include "tools/newbench/new_benchmark.h"
#include "util/strings.h"

namespace kopt {

namespace {

std::string describe(const std::map<std::string, long>& values) {
  std::vector<std::string> words;
  for (const auto& [name, value] : values) words.push_back(name + "=" + std::to_string(value));
  return join(words, " ");
}

void import_one(LocalEvaluator& evaluator, const PolybenchImport& request,
                const PolybenchKernel& kernel, const NewProgressFn& progress, ImportedKernel& row) {
  NewBenchmarkRequest made;
  made.name = kernel.name;
  made.source = polybench_source(request.root, kernel, request.dataset);
  made.function = kernel.function;
  made.extract = true;
  made.suite = request.suite;
  made.replace = request.replace;
  progress("reading the dataset's sizes");
  auto values = dataset_values(*evaluator.context().runner, made.source, kernel.function);
  if (!values) {
    row.reason = values.error().message;
    return;
  }
  made.overrides.values = *values;
  row.sizes = describe(*values);
  auto result = make_benchmark(evaluator, made, progress);
  if (!result) {
    row.reason = result.error().message;
    return;
  }
  row.imported = true;
  row.clean = result->problem.empty();
  row.reason = result->problem;
  row.time_size = result->time_size;
  row.time_ms = result->time_seconds * 1e3;
}

}  // namespace

std::vector<ImportedKernel> import_polybench(LocalEvaluator& evaluator,
                                             const PolybenchImport& request,
                                             const std::vector<PolybenchKernel>& kernels,
                                             const ImportProgressFn& progress) {
  std::vector<ImportedKernel> rows;
  for (const auto& kernel : kernels) {
    ImportedKernel row;
    row.name = kernel.name;
    const auto start = std::chrono::steady_clock::now();
    try {
      import_one(
          evaluator, request, kernel,
          [&](const std::string& stage) { progress(kernel.name, stage); }, row);
    } catch (const std::exception& e) {  // A bug of kopt's: the other kernels still go on.
      row.reason = std::string("kopt failed: ") + e.what();
    }
    row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rows.push_back(std::move(row));
  }
  return rows;
}

Json to_json(const std::vector<ImportedKernel>& rows, const PolybenchImport& request) {
  Json kernels = Json::array();
  for (const auto& r : rows)
    kernels.push_back({{"name", r.name},
                       {"imported", r.imported},
                       {"clean", r.clean},
                       {"reason", r.reason},
                       {"sizes", r.sizes},
                       {"time_size", r.time_size},
                       {"time_ms", r.time_ms},
                       {"seconds", r.seconds}});
  return {{"format", "kopt-import/1"},
          {"source", request.root.string()},
          {"suite", request.suite.string()},
          {"dataset", request.dataset},
          {"kernels", kernels}};
}

}  // namespace kopt
