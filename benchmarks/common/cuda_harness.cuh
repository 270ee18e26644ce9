// The fixed half of every CUDA benchmark. It speaks the command line, output file and report of
// the CPU harness (harness.h, which it reuses) and adds what a GPU needs. A driver defines one
// kopt_bench::cuda::Problem and calls kopt_bench::cuda::main<Problem>(argc, argv).
//
// - Inputs are generated on the host from the seed (the shared Rng) and uploaded.
// - Outputs live on the device; before every call they are poisoned on the device with the
//   harness's bit patterns, and they are copied back to the host only to be recorded.
// - A call runs on the legacy default stream. Timing: the device is idle, an event is recorded,
//   the call is made, the whole device is synchronized (work on any stream the call started is
//   waited for), and a second event is recorded; the sample is the time between the events.
//   The report also gives the time to the end of the default stream's work alone and the floor
//   of the method (the same measurement around an empty call).
// - Between timed calls the L2 is flushed by writing a buffer of twice its size.
// - Every CUDA call and every launch is checked; a failure prints one line and exits non-zero:
//   kExitNoDevice when no device or driver is usable, kExitOutOfMemory when device memory runs
//   out, kExitCudaError otherwise.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "harness.h"

namespace kopt_bench::cuda {

/// Exit status when no CUDA device or driver can be used: kopt reports "no GPU present".
inline constexpr int kExitNoDevice = 87;
/// Exit status for any other failed CUDA call or kernel.
inline constexpr int kExitCudaError = 88;

/// Errors that mean the machine has no usable GPU rather than that the program is wrong.
inline bool is_no_device_error(cudaError_t err) {
  return err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver ||
         err == cudaErrorDevicesUnavailable || err == cudaErrorSystemDriverMismatch ||
         err == cudaErrorCompatNotSupportedOnDevice || err == cudaErrorSystemNotReady;
}

/// Prints "kopt-harness: no CUDA device: ..." and exits with kExitNoDevice.
[[noreturn]] inline void no_device(cudaError_t err) {
  std::fprintf(stderr, "kopt-harness: no CUDA device: %s: %s\n", cudaGetErrorName(err),
               cudaGetErrorString(err));
  std::exit(kExitNoDevice);
}

/// Reports a failed CUDA call with its place and exits with the status its kind calls for.
[[noreturn]] inline void fail(cudaError_t err, const char* what, const char* file, int line) {
  if (is_no_device_error(err)) no_device(err);
  const bool oom = err == cudaErrorMemoryAllocation;
  std::fprintf(stderr, "kopt-harness: %s at %s:%d: %s: %s: %s\n",
               oom ? "out of device memory" : "CUDA error", file, line, what, cudaGetErrorName(err),
               cudaGetErrorString(err));
  std::exit(oom ? kExitOutOfMemory : kExitCudaError);
}

inline void check(cudaError_t err, const char* what, const char* file, int line) {
  if (err != cudaSuccess) fail(err, what, file, line);
}

}  // namespace kopt_bench::cuda

/// Checks the result of a CUDA runtime call.
#define KOPT_CUDA_CHECK(call) ::kopt_bench::cuda::check((call), #call, __FILE__, __LINE__)
/// Checks that the launches since the last check were accepted (configuration, image, memory).
#define KOPT_CUDA_CHECK_LAUNCH(what) \
  ::kopt_bench::cuda::check(cudaGetLastError(), what, __FILE__, __LINE__)

namespace kopt_bench::cuda {

/// An array in device memory; freed when it goes out of scope.
template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t count) : count_(count) {
    KOPT_CUDA_CHECK(cudaMalloc(&data_, std::max<size_t>(bytes(), 1)));
  }
  ~DeviceBuffer() { cudaFree(data_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* data() const { return data_; }
  size_t size() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }

  /// Copies a host array of the same length into the buffer (synchronous).
  void upload(const std::vector<T>& host) {
    if (host.size() != count_) OutputFile::die("upload of a host array of the wrong length");
    KOPT_CUDA_CHECK(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }

 private:
  T* data_ = nullptr;
  size_t count_;
};

/// One benchmark instance on the GPU: owns device inputs and outputs for one size.
class Problem {
 public:
  virtual ~Problem() = default;
  /// Regenerates every input on the host from the generator and uploads it (same addresses).
  virtual void fill(Rng& rng) = 0;
  /// Launches the kernel once on the current inputs; may return before the device finishes.
  virtual void call() = 0;
  /// How many edge cases the driver generates (as in harness.h's Problem).
  virtual int edge_cases() const { return 0; }
  /// Fills and uploads the inputs for edge case k in [0, edge_cases()).
  virtual void fill_edge(Rng& rng, int k) {
    (void)k;
    fill(rng);
  }

  /// The outputs, as device memory.
  const std::vector<OutputView>& outputs() const { return outputs_; }

 protected:
  /// Registers a device output buffer; call from the constructor.
  template <class T>
  void output(const char* name, DeviceBuffer<T>& buffer) {
    outputs_.push_back({name, dtype_of<T>(), buffer.data(), buffer.size(), sizeof(T)});
  }

 private:
  std::vector<OutputView> outputs_;
};

namespace detail {

template <class T>
__global__ void fill_kernel(T* data, size_t count, T value) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride)
    data[i] = value;
}

template <class T>
void fill(void* data, size_t count, T value) {
  const size_t blocks = std::min<size_t>((count + 255) / 256, 4096);
  fill_kernel<T><<<static_cast<unsigned>(std::max<size_t>(blocks, 1)), 256>>>(static_cast<T*>(data),
                                                                              count, value);
  KOPT_CUDA_CHECK_LAUNCH("poison kernel launch");
}

inline std::string json_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out;
}

inline std::string json_array(const std::vector<int64_t>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + std::to_string(values[i]);
  return out + "]";
}

}  // namespace detail

/// Writes the harness's poison patterns over device outputs (asynchronously, default stream).
inline void poison_device(const std::vector<OutputView>& outputs) {
  for (const auto& out : outputs) {
    if (out.dtype == DType::f32)
      detail::fill<uint32_t>(out.data, out.count, kPoisonF32);
    else if (out.dtype == DType::f64)
      detail::fill<uint64_t>(out.data, out.count, kPoisonF64);
    else
      KOPT_CUDA_CHECK(cudaMemsetAsync(out.data, kPoisonByte, out.count * out.element_size));
  }
}

/// Host copies of the device outputs, for the output file.
class HostOutputs {
 public:
  explicit HostOutputs(const std::vector<OutputView>& device) : device_(device), views_(device) {
    for (auto& view : views_) {
      storage_.emplace_back(view.count * view.element_size);
      view.data = storage_.back().data();
    }
  }

  /// Copies every output back from the device (synchronous) and returns the host views.
  const std::vector<OutputView>& download() {
    for (size_t i = 0; i < views_.size(); ++i)
      KOPT_CUDA_CHECK(
          cudaMemcpy(views_[i].data, device_[i].data, storage_[i].size(), cudaMemcpyDeviceToHost));
    return views_;
  }

 private:
  std::vector<OutputView> device_, views_;
  std::vector<std::vector<unsigned char>> storage_;
};

/// What the report says about the GPU.
struct DeviceInfo {
  std::string name;
  int major = 0, minor = 0, sm_count = 0, sm_clock_khz = 0;
  size_t l2_bytes = 0, flush_bytes = 0;
};

/// Per-call times of time mode, in nanoseconds.
struct Timing {
  std::vector<int64_t> samples;         ///< Start event to the event after device-wide sync.
  std::vector<int64_t> default_stream;  ///< Start event to the end of default-stream work.
  int64_t sync_floor_ns = 0;            ///< Median of the method around an empty call.
};

/// The report's fields beyond those of the CPU harness (JSON members, no braces).
inline std::string report_fields(const DeviceInfo& d, const Timing& t) {
  return "\"timer\":\"cuda-events, device-synchronized\",\"device\":\"" +
         detail::json_escape(d.name) + "\",\"compute_capability\":\"" + std::to_string(d.major) +
         "." + std::to_string(d.minor) + "\",\"sm_count\":" + std::to_string(d.sm_count) +
         ",\"sm_clock_khz\":" + std::to_string(d.sm_clock_khz) +
         ",\"clock\":\"not locked by the harness; warm-up calls precede timing\"" +
         ",\"l2_bytes\":" + std::to_string(d.l2_bytes) +
         ",\"l2_flush_bytes\":" + std::to_string(d.flush_bytes) +
         ",\"sync_floor_ns\":" + std::to_string(t.sync_floor_ns) +
         ",\"default_stream_ns\":" + detail::json_array(t.default_stream);
}

/// The GPU the driver runs on: found at construction (or the process exits with
/// kExitNoDevice), with the L2 flush buffer and the timing events.
class Device {
 public:
  Device() {
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess && count == 0) err = cudaErrorNoDevice;
    if (err != cudaSuccess) no_device(err);
    KOPT_CUDA_CHECK(cudaFree(nullptr));
    int device = 0;
    KOPT_CUDA_CHECK(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    KOPT_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    info_.name = prop.name;
    info_.major = prop.major;
    info_.minor = prop.minor;
    info_.sm_count = prop.multiProcessorCount;
    KOPT_CUDA_CHECK(cudaDeviceGetAttribute(&info_.sm_clock_khz, cudaDevAttrClockRate, device));
    info_.l2_bytes = static_cast<size_t>(prop.l2CacheSize);
    info_.flush_bytes = std::max<size_t>(2 * info_.l2_bytes, size_t{64} << 20);
    KOPT_CUDA_CHECK(cudaMalloc(&flush_, info_.flush_bytes));
    for (auto* event : {&start_, &stream_stop_, &stop_}) KOPT_CUDA_CHECK(cudaEventCreate(event));
    warm_up();
  }
  ~Device() {
    cudaFree(flush_);
    for (auto event : {start_, stream_stop_, stop_}) cudaEventDestroy(event);
  }
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceInfo& info() const { return info_; }

  /// Evicts the L2 by writing the flush buffer (asynchronously, default stream), after
  /// returning lines a call may have marked persisting to normal, so that they go too.
  void flush_l2() {
    const cudaError_t reset = cudaCtxResetPersistingL2Cache();
    if (reset == cudaErrorNotSupported)
      cudaGetLastError();
    else
      KOPT_CUDA_CHECK(reset);
    KOPT_CUDA_CHECK(cudaMemsetAsync(flush_, ++flushes_ & 0xff, info_.flush_bytes));
  }

  /// Waits for all work on the device and reports any error it raised.
  static void synchronize(const char* after) {
    check(cudaDeviceSynchronize(), after, __FILE__, __LINE__);
  }

  /// Times `work` (which launches on the device) as the header comment describes; returns
  /// {to device idle, to the end of default-stream work} in nanoseconds. The device must be idle.
  template <class Work>
  std::pair<int64_t, int64_t> time(Work&& work) {
    KOPT_CUDA_CHECK(cudaEventRecord(start_, 0));
    work();
    KOPT_CUDA_CHECK_LAUNCH("kernel launch in the timed call");
    KOPT_CUDA_CHECK(cudaEventRecord(stream_stop_, 0));
    synchronize("the timed call");
    KOPT_CUDA_CHECK(cudaEventRecord(stop_, 0));
    KOPT_CUDA_CHECK(cudaEventSynchronize(stop_));
    return {elapsed_ns(start_, stop_), elapsed_ns(start_, stream_stop_)};
  }

 private:
  static int64_t elapsed_ns(cudaEvent_t from, cudaEvent_t to) {
    float ms = 0;
    KOPT_CUDA_CHECK(cudaEventElapsedTime(&ms, from, to));
    return static_cast<int64_t>(static_cast<double>(ms) * 1e6);
  }

  // Exercises what the harness and a kernel use, so that threads the runtime starts lazily
  // exist before the thread count is taken.
  void warm_up() {
    cudaStream_t stream;
    KOPT_CUDA_CHECK(cudaStreamCreate(&stream));
    KOPT_CUDA_CHECK(cudaMemsetAsync(flush_, 0, 4096, stream));
    KOPT_CUDA_CHECK(cudaStreamSynchronize(stream));
    detail::fill<uint32_t>(flush_, 1024, kPoisonF32);
    flush_l2();
    uint32_t word = 0;
    KOPT_CUDA_CHECK(cudaMemcpy(&word, flush_, sizeof word, cudaMemcpyDeviceToHost));
    KOPT_CUDA_CHECK(cudaMemcpy(flush_, &word, sizeof word, cudaMemcpyHostToDevice));
    time([] {});
    KOPT_CUDA_CHECK(cudaStreamDestroy(stream));
  }

  DeviceInfo info_;
  void* flush_ = nullptr;
  unsigned flushes_ = 0;
  cudaEvent_t start_ = nullptr, stream_stop_ = nullptr, stop_ = nullptr;
};

/// Poisons, flushes and waits, so that the next call starts on an idle device and a cold L2.
inline void prepare_call(Device& device, const Problem& problem) {
  poison_device(problem.outputs());
  device.flush_l2();
  Device::synchronize("poisoning the outputs");
}

inline void run_check(Device& device, Problem& problem, const Options& o, int& max_threads) {
  OutputFile file(o.out);
  HostOutputs host(problem.outputs());
  for_each_check_input(problem, o.seeds, o.edges, [&](uint64_t label) {
    prepare_call(device, problem);
    problem.call();
    KOPT_CUDA_CHECK_LAUNCH("kernel launch");
    Device::synchronize("the kernel call");
    if (int t = thread_count(); t > max_threads) max_threads = t;
    file.record(label, host.download());
  });
}

inline Timing run_time(Device& device, Problem& problem, const Options& o, int& max_threads) {
  Rng rng(o.seeds.front());
  problem.fill(rng);
  Timing timing;
  std::vector<int64_t> floor;
  for (int i = 0; i < 21; ++i) floor.push_back(device.time([] {}).first);
  std::nth_element(floor.begin(), floor.begin() + 10, floor.end());
  timing.sync_floor_ns = floor[10];
  for (int i = 0; i < o.warmup; ++i) {
    prepare_call(device, problem);
    device.time([&] { problem.call(); });
  }
  OutputFile file(o.out);
  HostOutputs host(problem.outputs());
  for (int i = 0; i < o.reps; ++i) {
    prepare_call(device, problem);
    const auto [to_idle, to_stream_end] = device.time([&] { problem.call(); });
    timing.samples.push_back(to_idle);
    timing.default_stream.push_back(to_stream_end);
    if (int t = thread_count(); t > max_threads) max_threads = t;
    if (captured(o, i)) file.record(static_cast<uint64_t>(i), host.download());
  }
  return timing;
}

inline void run_repeatedly(Problem& problem, const Options& o, int& max_threads) {
  Rng rng(o.seeds.front());
  problem.fill(rng);
  for (int i = 0; i < o.reps; ++i) {
    problem.call();
    KOPT_CUDA_CHECK_LAUNCH("kernel launch");
    Device::synchronize("the kernel call");
    if (int t = thread_count(); t > max_threads) max_threads = t;
  }
}

/// The entry point of every CUDA driver.
template <class P>
int main(int argc, char** argv) {
  std::set_new_handler(out_of_memory);
  const Options o = parse_options(argc, argv);
  Device device;
  const int threads_before = thread_count();
  int max_threads = threads_before;
  Timing timing;
  {
    const std::unique_ptr<P> made = make_problem<P>(o.sizes);
    P& problem = *made;
    if (o.mode == "check")
      run_check(device, problem, o, max_threads);
    else if (o.mode == "time")
      timing = run_time(device, problem, o, max_threads);
    else
      run_repeatedly(problem, o, max_threads);
  }
  write_report(o, timing.samples, threads_before, max_threads,
               report_fields(device.info(), timing));
  return 0;
}

}  // namespace kopt_bench::cuda
