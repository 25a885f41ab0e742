#include "engine_runs.hpp"

#include <chrono>

#include "runtime/execution_error.hpp"
#include "runtime/harness.hpp"
#include "runtime/runtime.hpp"
#include "semantics/protocol.hpp"
#include "sim/simulate.hpp"
#include "topology/families.hpp"

namespace ccforge::property {

using namespace ccforge::runtime;

const std::vector<Regime>& regimes() {
  // 4-byte elements: a chunk of c elements and a tile of t bytes give maxAllowedCount
  // clamp(t / 4c, 1, 71) and ceil(4c / t) tile iterations.
  static const std::vector<Regime> kRegimes{
      {"71 chunks per transfer, the protocol's tile", 1, 0, 0},
      {"71 chunks per transfer, 1136-byte tile", 4, 16 * 71, 0},
      {"2 chunks per transfer", 4, 32, 0},
      {"3 chunks per transfer", 4, 48, 0},
      {"1 chunk per transfer, 1 tile", 16, 64, 0},
      {"1 chunk per transfer, 2 tiles", 24, 64, 0},
      {"1 chunk per transfer, 4 tiles", 56, 64, 0},
  };
  return kRegimes;
}

Regime regimeOf(int32_t tiles, int32_t maxAllowedCount, int32_t slots) {
  Regime r;
  r.name = "tiles=" + std::to_string(tiles) + " maxAllowedCount=" + std::to_string(maxAllowedCount) +
           " slots=" + std::to_string(slots);
  r.slots = slots;
  if (tiles <= 1) {
    r.chunkElems = 4;  // 16 bytes
    r.tileBytes = 16 * int64_t{maxAllowedCount};
  } else {
    r.chunkElems = 16 * int64_t{tiles - 1} + 8;  // tiles - 1 full 64-byte tiles and a half one
    r.tileBytes = 64;
  }
  return r;
}

RuntimeRun runOnCpu(const ExecutableProgram& program, const Regime& regime, const CallSettings& settings) {
  CallShape call;
  call.collective = program.collective();
  call.ranks = program.ranks();
  call.form = settings.form;
  call.root = settings.root;
  call.dtype = settings.dtype;
  call.op = settings.op;
  // Smaller types get more elements, so the chunk keeps its bytes and the regime its configuration.
  const int64_t chunkElems =
      regime.chunkElems * std::max<int64_t>(1, 4 / static_cast<int64_t>(dataTypeSize(settings.dtype)));
  call.count = chunkElems * program.chunksPerLoop() / sizeMultiplier(call.collective, call.ranks);
  TargetOptions target;
  target.backend = BackendKind::Cpu;
  target.cpuWorkers = settings.workers;
  target.timeout = settings.timeout;
  target.tuning.tileBytes = regime.tileBytes;
  target.tuning.slots = regime.slots;
  ProgramSet set;
  set.add(program);
  Runtime runtime(std::move(set), makeCpuTarget(target));
  MeasureOptions measureOptions;
  measureOptions.iterations = 0;
  measureOptions.seed = settings.inputSeed;
  RuntimeRun out;
  try {
    const Measurement m = measure(runtime, call, measureOptions);
    if (m.result.path != Path::Interpreter) {
      out.outcome = RunOutcome::NotServed;
      out.detail = m.result.why;
      return out;
    }
    out.check = m.check;
    out.outcome = m.check.passed() ? RunOutcome::Matches : RunOutcome::WrongResult;
    out.detail = m.check.describe();
  } catch (const ExecutionFailed& e) {
    out.outcome = e.kind() == ExecutionFailed::Kind::Deadlock ? RunOutcome::Deadlock : RunOutcome::TimedOut;
    out.detail = e.what();
  }
  return out;
}

void simulate(const ir::Algorithm& algorithm, const std::vector<std::pair<int32_t, int32_t>>& configurations,
              uint64_t topologyChoice) {
  // Routes run over links and through switches, not through other GPUs: every pair needs one.
  const topo::Topology topology =
      topo::familyTopology(topologyChoice % 2 ? topo::Family::Switch : topo::Family::FullyConnected, {algorithm.ngpus});
  const int64_t tile = semantics::tileBytes(algorithm.proto);
  sim::SimulationOptions options;
  for (const auto& [tiles, maxAllowed] : configurations) {
    const int64_t chunk = tiles <= 1 ? tile / maxAllowed : tile * (tiles - 1) + tile / 2;
    options.sizes.push_back(static_cast<uint64_t>(chunk * algorithm.nchunksperloop));
  }
  sim::simulate(algorithm, algorithm.name + ".xml", topology, options);
}

}  // namespace ccforge::property
