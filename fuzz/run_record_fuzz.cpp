// A run folder as the inspection commands read it: run.json, events.jsonl (whose "evaluation"
// events carry the evaluation documents) and summary.json, given as three parts of the input
// separated by lines "====".
#include "agent/record/events.h"
#include "agent/record/run_record.h"
#include "agent/report/run_view.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto parts = kopt::fuzz::split_parts(kopt::fuzz::text_of(data, size), 3);
  const auto run = kopt::fuzz::write_scratch("run/run.json", parts[0]).parent_path();
  kopt::fuzz::write_scratch("run/events.jsonl", parts[1]);
  kopt::fuzz::write_scratch("run/summary.json", parts[2]);
  kopt::fuzz::write_scratch("run/candidates/0001/kernel.cpp", "int f();\n");
  bool torn = false;
  (void)kopt::read_events(run / "events.jsonl", &torn);
  if (auto record = kopt::RunRecord::open(run)) (void)record->summary();
  (void)kopt::load_run_view(run);
  return 0;
}
