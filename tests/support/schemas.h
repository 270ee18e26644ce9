// Checking what kopt wrote against its format's JSON Schema (docs/schemas) with the project's
// own validator, scripts/validate-records.py (python3-jsonschema, which scripts/setup.sh installs).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "kopt_cli.h"
#include "sandbox/process.h"
#include "util/files.h"

namespace kopt::test {

/// Whether `text` meets its format's schema: one JSON document (`extension` ".json") or JSON
/// lines of one format (".jsonl"), told by its `format` tag; else the validator's lines.
inline ::testing::AssertionResult meets_its_schema(const std::string& text,
                                                   const std::string& extension = ".json") {
  TempDir dir("kopt-schema-");
  const std::filesystem::path file = dir.path() / ("output" + extension);
  if (!write_file(file, text)) return ::testing::AssertionFailure() << "cannot write " << file;
  ProcessSpec spec;
  spec.argv = {"/usr/bin/python3", (source_root() / "scripts" / "validate-records.py").string(),
               file.string()};
  spec.env = {{"PATH", "/usr/bin:/bin"}};
  const ProcessResult checked = LocalProcessRunner().run(spec);
  if (checked.succeeded()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << checked.output << "\nin:\n" << text.substr(0, 2000);
}

}  // namespace kopt::test
