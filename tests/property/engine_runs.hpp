// Running a generated program on the engines other than `verify`: the CPU runtime (one checked call
// against the reference, in a chosen tiling) and the event simulator.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/check.hpp"
#include "runtime/program.hpp"
#include "semantics/collective.hpp"

namespace ccforge::property {

// A chunk size and tile that give one (tile iterations, maxAllowedCount) configuration
// (semantics/protocol.hpp), on 4-byte elements.
struct Regime {
  std::string name;
  int64_t chunkElems = 1;
  int64_t tileBytes = 0;  // 0: the protocol's tile
  int32_t slots = 0;      // transfers in flight per connection; 0: the protocol's
};

// Several chunks per transfer (protocol tile, and a 1136-byte tile: 71), two and three chunks per
// transfer, one chunk per transfer in 1, 2 and 4 tile iterations (the last one partial).
const std::vector<Regime>& regimes();
// The regime of a verifier deadlock configuration ("tiles=T maxAllowedCount=M slots=S").
Regime regimeOf(int32_t tiles, int32_t maxAllowedCount, int32_t slots);

enum class RunOutcome { Matches, WrongResult, Deadlock, TimedOut, NotServed };
struct RuntimeRun {
  RunOutcome outcome = RunOutcome::Matches;
  runtime::CheckResult check;
  std::string detail;  // the check's or the watchdog's description
};

struct CallSettings {
  semantics::CallForm form = semantics::CallForm::OutOfPlace;
  int32_t root = 0;
  runtime::DataType dtype = runtime::DataType::I32;
  runtime::ReduceOp op = runtime::ReduceOp::Sum;
  int workers = 1;
  uint64_t inputSeed = 1;
  std::chrono::milliseconds timeout{10000};  // the watchdog (a deadlock is detected at once)
};

// One checked call on the CPU backend.
RuntimeRun runOnCpu(const runtime::ExecutableProgram& program, const Regime& regime, const CallSettings& call);

// `ccforge simulate` of the program on a fully connected or switch topology of its ranks
// (by `topologyChoice`), for chunk sizes of `tiles` x the protocol tile and `maxAllowedCount` pairs
// given as (tiles, maxAllowedCount). Throws what sim::simulate throws.
void simulate(const ir::Algorithm& algorithm, const std::vector<std::pair<int32_t, int32_t>>& configurations,
              uint64_t topologyChoice);

}  // namespace ccforge::property
