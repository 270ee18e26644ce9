// The main of the fuzz targets in the normal build: runs the target's function once on every
// file named (folders: every regular file in them, a missing folder is skipped), so that the
// seed corpora and every input a fuzzer ever crashed on (fuzz/regressions/) are tests of ctest.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <set>

#include "util/files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::set<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    std::error_code ec;
    if (fs::is_directory(argv[i], ec)) {
      for (const auto& entry : fs::directory_iterator(argv[i], ec))
        if (entry.is_regular_file()) files.insert(entry.path());
    } else if (fs::exists(argv[i], ec)) {
      files.insert(argv[i]);
    }
  }
  for (const auto& file : files) {
    auto content = kopt::read_file(file);
    if (!content) {
      std::fprintf(stderr, "%s\n", content.error().message.c_str());
      return 1;
    }
    std::printf("%s\n", file.c_str());
    std::fflush(stdout);
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(content->data()), content->size());
  }
  std::printf("%zu inputs, no crash\n", files.size());
  return 0;
}
