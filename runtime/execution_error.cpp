#include "runtime/execution_error.hpp"

#include <algorithm>

namespace ccforge::runtime {
namespace {

std::string formatMessage(const std::string& headline, const std::vector<BlockedTb>& blocked) {
  std::string s = headline;
  constexpr size_t kShown = 16;
  for (size_t i = 0; i < blocked.size() && i < kShown; ++i) {
    const BlockedTb& b = blocked[i];
    s += "\n  rank " + std::to_string(b.rank) + " tb " + std::to_string(b.tb) + " step " + std::to_string(b.step) +
         " tile " + std::to_string(b.tile) + ": " + b.detail;
  }
  if (blocked.size() > kShown) s += "\n  ... and " + std::to_string(blocked.size() - kShown) + " more thread blocks";
  return s;
}

}  // namespace

ExecutionFailed::ExecutionFailed(Kind kind, const std::string& headline, std::vector<BlockedTb> blocked)
    : std::runtime_error(formatMessage(headline, blocked)), kind_(kind), blocked_(std::move(blocked)) {}

BlockedTb describeBlocked(const ExecutableProgram& program, int32_t globalTb, const TbCursor& cursor) {
  const TbTable& tb = program.tbs()[globalTb];
  BlockedTb b;
  b.rank = tb.rank;
  b.tb = tb.tb;
  b.tile = cursor.tile;
  b.wait = cursor.waitKind;
  const bool inRange = cursor.step < tb.stepCount;
  const ExecStep* st = inRange ? &program.steps()[tb.firstStep + cursor.step] : nullptr;
  b.step = inRange ? program.originalStep(tb.firstStep + cursor.step) : tb.stepCount;
  switch (cursor.waitKind) {
    case WaitKind::Dependency:
      b.detail = "waits for tb " + std::to_string(program.tbs()[st->dependencyTb].tb) + " to finish step " +
                 std::to_string(st->dependencyStep) + " (dependency)";
      break;
    case WaitKind::Data: {
      const ConnectionTable& c = program.connections()[tb.recvConnection];
      b.detail = "waits for data from rank " + std::to_string(c.sender) + " on channel " + std::to_string(c.channel) +
                 (c.senderTb < 0 ? " (no tb of that rank sends on this connection)" : "");
      break;
    }
    case WaitKind::Slot: {
      const ConnectionTable& c = program.connections()[tb.sendConnection];
      b.detail = "waits for a free FIFO slot towards rank " + std::to_string(c.receiver) + " on channel " +
                 std::to_string(c.channel) +
                 (c.receiverTb < 0 ? " (no tb of that rank receives on this connection)" : "");
      break;
    }
    case WaitKind::None: b.detail = "had not finished when the launch stopped"; break;
  }
  if (st) b.detail += " [transfer " + std::to_string(cursor.transfer) + ", slice " + std::to_string(cursor.slice) + "]";
  return b;
}

}  // namespace ccforge::runtime
