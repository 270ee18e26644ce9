// The GPU time model's calibration sweep (tools/predict/gpu_calibration.cpp compiles it with
// nvcc and runs it once per GPU): each kernel is dominated by one term of the model, and kopt
// counts it with the same PTX model a prediction uses, so that measured time over counted work
// is that term's achieved rate. Usage:
//   probe info                           {"name", "sms", "clock_khz", "driver"}
//   probe KERNEL BLOCKS THREADS N ITERS  {"kernel", "seconds"}: the best of the runs, each
//                                        timed as the harness times a call (events around the
//                                        launch and a device-wide synchronize)
//   probe launches COUNT                 {"seconds"}: the median call of COUNT empty launches
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" __global__ void kg_empty() {}

// STREAM triad over float4s, grid-stride: DRAM bandwidth.
extern "C" __global__ void kg_stream(float4* a, const float4* b, const float4* c, float s,
                                     long n4) {
  const long stride = static_cast<long>(gridDim.x) * blockDim.x;
  for (long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += stride) {
    const float4 x = b[i], y = c[i];
    a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
  }
}

// Eight independent FMA chains a thread: FP32 throughput.
extern "C" __global__ void kg_fma32(float* out, float seed, long iters) {
  float v[8];
  for (int k = 0; k < 8; ++k) v[k] = seed + threadIdx.x + k;
  for (long i = 0; i < iters; ++i)
#pragma unroll
    for (int k = 0; k < 8; ++k) v[k] = fmaf(v[k], 0.999999f, 1e-7f);
  float sum = 0;
  for (int k = 0; k < 8; ++k) sum += v[k];
  if (sum == 12345.0f) out[0] = sum;
}

// The same in double: FP64 throughput.
extern "C" __global__ void kg_fma64(double* out, double seed, long iters) {
  double v[8];
  for (int k = 0; k < 8; ++k) v[k] = seed + threadIdx.x + k;
  for (long i = 0; i < iters; ++i)
#pragma unroll
    for (int k = 0; k < 8; ++k) v[k] = fma(v[k], 0.999999, 1e-7);
  double sum = 0;
  for (int k = 0; k < 8; ++k) sum += v[k];
  if (sum == 12345.0) out[0] = sum;
}

// Eight independent chains of 32-bit xor, add and shift: integer throughput.
extern "C" __global__ void kg_int(unsigned* out, unsigned seed, long iters) {
  unsigned v[8];
  for (int k = 0; k < 8; ++k) v[k] = seed + threadIdx.x * 8 + k;
  for (long i = 0; i < iters; ++i)
#pragma unroll
    for (int k = 0; k < 8; ++k) v[k] = (v[k] ^ (v[k] >> 3)) + 0x9e3779b9u;
  unsigned x = 0;
  for (int k = 0; k < 8; ++k) x ^= v[k];
  if (x == 12345u) out[0] = x;
}

// One global atomic per element into 256 bins, as a histogram does: contended atomics.
extern "C" __global__ void kg_atomic(unsigned* bins, const unsigned char* data, long n) {
  const long stride = static_cast<long>(gridDim.x) * blockDim.x;
  for (long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&bins[data[i]], 1u);
}

// Bytes spread over the 256 bins (a multiplicative hash of the index).
extern "C" __global__ void kg_bytes(unsigned char* data, long n) {
  const long stride = static_cast<long>(gridDim.x) * blockDim.x;
  for (long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    data[i] = static_cast<unsigned char>((static_cast<unsigned>(i) * 2654435761u) >> 24);
}

namespace {

void check(cudaError_t err, const char* what) {
  if (err == cudaSuccess) return;
  std::fprintf(stderr, "kopt gpu calibration: %s: %s\n", what, cudaGetErrorString(err));
  std::exit(err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver ? 87 : 88);
}

struct Timer {
  cudaEvent_t start, stop;
  Timer() {
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
  }
  template <class Work>
  double seconds(Work&& work) {
    check(cudaDeviceSynchronize(), "synchronize");
    check(cudaEventRecord(start, 0), "cudaEventRecord");
    work();
    check(cudaGetLastError(), "launch");
    check(cudaDeviceSynchronize(), "the timed kernel");
    check(cudaEventRecord(stop, 0), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    return ms * 1e-3;
  }
};

int info() {
  int device = 0, sms = 0, clock = 0, driver = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "attribute");
  check(cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, device), "attribute");
  check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
  std::printf("{\"name\": \"%s\", \"sms\": %d, \"clock_khz\": %d, \"driver\": %d}\n", prop.name,
              sms, clock, driver);
  return 0;
}

int launches(int count) {
  Timer timer;
  std::vector<double> times;
  for (int run = 0; run < 51; ++run)
    times.push_back(timer.seconds([&] {
      for (int i = 0; i < count; ++i) kg_empty<<<1, 32>>>();
    }));
  std::nth_element(times.begin(), times.begin() + 25, times.end());
  std::printf("{\"kernel\": \"launches\", \"count\": %d, \"seconds\": %.9g}\n", count, times[25]);
  return 0;
}

int kernel(const char* name, unsigned blocks, unsigned threads, long n, long iters) {
  void *a = nullptr, *b = nullptr, *c = nullptr;
  const bool stream = std::strcmp(name, "kg_stream") == 0;
  const bool atomic = std::strcmp(name, "kg_atomic") == 0;
  const size_t bytes = stream ? n * sizeof(float) : atomic ? n : 4096;
  check(cudaMalloc(&a, bytes), "cudaMalloc");
  check(cudaMalloc(&b, bytes), "cudaMalloc");
  check(cudaMalloc(&c, bytes), "cudaMalloc");
  check(cudaMemset(a, 0, bytes), "cudaMemset");
  check(cudaMemset(b, 1, bytes), "cudaMemset");
  check(cudaMemset(c, 2, bytes), "cudaMemset");
  if (atomic) kg_bytes<<<blocks, threads>>>(static_cast<unsigned char*>(b), n);
  Timer timer;
  double best = 1e30;
  for (int run = 0; run < 5; ++run) {
    const double s = timer.seconds([&] {
      if (stream)
        kg_stream<<<blocks, threads>>>(static_cast<float4*>(a), static_cast<float4*>(b),
                                       static_cast<float4*>(c), 0.5f, n / 4);
      else if (atomic)
        kg_atomic<<<blocks, threads>>>(static_cast<unsigned*>(a), static_cast<unsigned char*>(b),
                                       n);
      else if (std::strcmp(name, "kg_fma32") == 0)
        kg_fma32<<<blocks, threads>>>(static_cast<float*>(a), 1.0f, iters);
      else if (std::strcmp(name, "kg_fma64") == 0)
        kg_fma64<<<blocks, threads>>>(static_cast<double*>(a), 1.0, iters);
      else
        kg_int<<<blocks, threads>>>(static_cast<unsigned*>(a), 1u, iters);
    });
    best = std::min(best, s);
  }
  std::printf("{\"kernel\": \"%s\", \"seconds\": %.9g}\n", name, best);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::fprintf(stderr, "kopt gpu calibration: no CUDA device\n");
    return 87;
  }
  if (argc == 2 && std::strcmp(argv[1], "info") == 0) return info();
  if (argc == 3 && std::strcmp(argv[1], "launches") == 0) return launches(std::atoi(argv[2]));
  if (argc == 6)
    return kernel(argv[1], static_cast<unsigned>(std::atol(argv[2])),
                  static_cast<unsigned>(std::atol(argv[3])), std::atol(argv[4]),
                  std::atol(argv[5]));
  std::fprintf(stderr, "usage: probe info | launches COUNT | KERNEL BLOCKS THREADS N ITERS\n");
  return 2;
}
