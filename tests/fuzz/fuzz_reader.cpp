// libFuzzer target: arbitrary bytes through the MSCCL-IR reader and, when they read, through
// every check of the verifier. Any crash, sanitizer report or hang is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/input_error.hpp"
#include "ir/reader.hpp"
#include "verify/verifier.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  ccforge::ir::ReadResult read;
  try {
    read = ccforge::ir::readAlgorithm(std::move(text), "fuzz.xml");
  } catch (const ccforge::base::InputError&) {
    return 0;
  }
  ccforge::verify::Options options;
  options.maxSymbolicCells = 1 << 20;  // keep each input fast
  options.raceSearchBudget = 1 << 20;
  ccforge::verify::verifyAlgorithm(read.algorithm, "fuzz.xml", options, read.runtimeParserIssues);
  return 0;
}
