// Hardware counters per kernel launch through the CUPTI Range Profiler API: auto ranges (one
// range per launch) with kernel replay, so CUPTI replays each launch for as many passes as the
// metrics need. The counter-data image holds a bounded number of ranges; it is decoded and
// reset when full, when the context goes away and at process exit.
#pragma once

#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tools/profile/inject/output.h"

namespace kopt::inject {

class RangeProfiler {
 public:
  /// Collects `metrics` for every launch, decoding after `max_ranges` launches.
  RangeProfiler(OutputFolder& out, std::vector<std::string> metrics, size_t max_ranges);

  /// Enables the profiler on a new context; on failure records it and returns false.
  bool start(CUcontext ctx);
  /// Notes a kernel launch that just returned; decodes when the image is full.
  void launched(CUcontext ctx, const char* kernel);
  /// Decodes what is left and disables the profiler on the context.
  void finish(CUcontext ctx);
  /// finish() for every context still profiled (at process exit).
  void finish_all();

  /// The header line of counters.jsonl.
  nlohmann::json header() const;
  /// One line per profiled launch.
  const std::vector<nlohmann::json>& records() const { return records_; }

 private:
  struct Session {
    CUpti_RangeProfiler_Object* object = nullptr;
    CUpti_Profiler_Host_Object* host = nullptr;
    std::string chip;
    std::vector<uint8_t> availability;
    std::vector<uint8_t> config;
    std::vector<uint8_t> counter_data;
    std::vector<std::string> kernels;  ///< Launches of the current image, in order.
    bool running = false;
  };

  bool prepare(CUcontext ctx, Session& session);
  bool begin_image(Session& session);
  void collect(Session& session);
  bool refuse(const char* call, CUptiResult result);
  void warn(const std::string& text);

  OutputFolder& out_;
  std::vector<std::string> metrics_;
  std::vector<const char*> metric_names_;
  size_t max_ranges_;
  std::map<CUcontext, Session> sessions_;
  std::vector<nlohmann::json> records_;
  std::vector<std::string> warnings_;
  std::string chip_;
  size_t passes_ = 0;
  size_t ranges_dropped_ = 0;
  bool initialized_ = false;
};

}  // namespace kopt::inject
