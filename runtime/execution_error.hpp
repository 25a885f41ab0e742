// A launch that did not finish: every thread block still running is reported with its position
// (rank, tb, step, tile) and what it waits for, so a hang becomes an error message.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/core/interpreter.hpp"
#include "runtime/program.hpp"

namespace ccforge::runtime {

struct BlockedTb {
  int32_t rank = 0;
  int32_t tb = 0;
  int32_t step = 0;  // original step index (s)
  int64_t tile = 0;
  WaitKind wait = WaitKind::None;
  std::string detail;  // "data from rank 1 on channel 0", ...
};

class ExecutionFailed : public std::runtime_error {
 public:
  enum class Kind {
    Deadlock,  // no thread block can make progress (exact on the CPU backend)
    Timeout,   // the watchdog's time limit passed
  };
  ExecutionFailed(Kind kind, const std::string& headline, std::vector<BlockedTb> blocked);
  Kind kind() const { return kind_; }
  const std::vector<BlockedTb>& blocked() const { return blocked_; }

 private:
  Kind kind_;
  std::vector<BlockedTb> blocked_;
};

// Describes what the thread block at `globalTb` of `program`, at `cursor`, is waiting for.
BlockedTb describeBlocked(const ExecutableProgram& program, int32_t globalTb, const TbCursor& cursor);

}  // namespace ccforge::runtime
