// The pipeline of `ccforge run` (docs/runtime.md): MSCCL-IR files verified at load
// (driver/run_verification.hpp), loaded into a program set, and run on random data by the runtime, each
// output element checked against the collective's definition. One call, an nccl-tests sweep
// (-b/-e/-f, driver/perf_sweep.hpp) or a fused program with its own operands. The log and the tables
// are written to the stream given, as they are produced: a run that stops (a deadlock, a
// watchdog) leaves what came before it on the screen.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "driver/run_verification.hpp"
#include "runtime/harness.hpp"
#include "runtime/target.hpp"
#include "verify/report.hpp"

namespace ccforge::run {

enum class TableFormat : uint8_t { Text, Json, Csv };

// The call, or the sweep of calls, to run. Requests that do not fit the programs (another
// collective's files together, a fused program with others, a root that is not a rank, a sweep
// with a single-call option) throw std::invalid_argument.
struct ProgramRunRequest {
  std::vector<std::string> files;
  runtime::TargetOptions target;
  bool verifyAtLoad = true;  // false: --no-verify
  driver::RunVerificationOptions verification;
  runtime::MeasureOptions measure;
  runtime::DataType dtype = runtime::DataType::F32;
  runtime::ReduceOp op = runtime::ReduceOp::Sum;
  int32_t ranks = 0;  // 0: the first program's
  int32_t root = 0;
  // One call.
  int64_t count = 1 << 20;
  bool countGiven = false;
  bool inPlace = false;
  bool fallback = false;  // run the fallback path when no program serves the call
  // A sweep, when either bound is given: sizes from minBytes to maxBytes, times factor.
  std::string minBytes, maxBytes;
  uint64_t factor = 2;
  TableFormat format = TableFormat::Text;
};

enum class ProgramRunOutcome : uint8_t {
  Correct,        // every checked output element equals the reference
  Wrong,          // some element differs
  Refused,        // verification at load rejects a file (`refused`)
  NothingServed,  // a sweep none of whose sizes any program serves
};

struct ProgramRunResult {
  ProgramRunOutcome outcome = ProgramRunOutcome::Correct;
  std::vector<verify::FileReport> refused;
};

bool isSweep(const ProgramRunRequest& request);

// Writes the log (or the sweep's table) to `out`. Throws what loading and running throw
// (base::InputError, runtime::ProgramRejected, runtime::ExecutionFailed, runtime::CudaUnavailable)
// and std::invalid_argument for a request the programs cannot take.
ProgramRunResult runPrograms(const ProgramRunRequest& request, std::ostream& out);

}  // namespace ccforge::run
