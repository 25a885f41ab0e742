// The model's accuracy on one fixture log: what bench/model prints and tests/calibrate checks.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "driver/compile_and_verify.hpp"
#include "library.hpp"
#include "sim/model_parameters.hpp"
#include "sim/nccl_machine.hpp"
#include "sim/nccl_rings.hpp"
#include "sim/simulate.hpp"
#include "support/nccl_tests_logs.hpp"

namespace ccforge::test {

struct Range {
  double lo = 0, hi = 0;
  int count = 0;
  void add(double v) {
    lo = count == 0 ? v : std::min(lo, v);
    hi = count == 0 ? v : std::max(hi, v);
    ++count;
  }
};

struct RowAccuracy {
  uint64_t bytes = 0;
  std::string choice;
  double ratio = 0;                 // predicted / measured busbw of NCCL's choice
  std::optional<double> ringRatio;  // the library ring's busbw / NCCL's measured, where NCCL runs a ring
};

struct LogAccuracy {
  int32_t gpusPerThread = 1;
  Range medium, large, ring;  // 1-16 MiB, >= 256 MiB; the ring at >= 256 MiB
  std::vector<RowAccuracy> rows;
  std::string ringError;  // why the library ring could not be built for the machine, if so
};

constexpr uint64_t kMiB = uint64_t{1} << 20;

// The library ring for the collective on the machine, on the rings NCCL's search builds (its
// graph's channels, at most one per rank: chunk i runs on ring i mod rings) and as many instances
// as make NCCL's channel count (comm->nChannels).
inline std::optional<ir::Algorithm> libraryRing(semantics::CollectiveType c, const topo::Topology& t) {
  const char* name = c == semantics::CollectiveType::AllReduce       ? "ring-allreduce"
                     : c == semantics::CollectiveType::AllGather     ? "ring-allgather"
                     : c == semantics::CollectiveType::ReduceScatter ? "ring-reducescatter"
                                                                     : nullptr;
  if (!name) return std::nullopt;
  const auto ranks = static_cast<int32_t>(t.gpus().size());
  const sim::NcclMachine m = sim::ncclMachineOf(t, sim::archOf(t));
  const auto rings = sim::ncclRings(t, std::min(ranks, m.channels));
  const auto instances = std::max<int32_t>(
      1, (m.commChannels + static_cast<int32_t>(rings.size()) - 1) / static_cast<int32_t>(rings.size()));
  const algorithms::Instance i = algorithms::instantiateOnRings(
      name, rings, {"ranks=" + std::to_string(ranks), "instances=" + std::to_string(instances), "inplace=0"},
      ir::Protocol::Simple);
  driver::CompiledAndVerified cv = driver::compileAndVerify(i.program, driver::Target{}, std::string(name) + ".xml");
  return cv.compiled.algorithm;
}

inline LogAccuracy logAccuracy(const FixtureLog& log) {
  const topo::Topology t = fixtureTopology(log);
  const std::vector<calibrate::LogInput> tables = fixtureTables(log);
  LogAccuracy out;
  out.gpusPerThread = tables.front().table.gpusPerThread;
  const calibrate::FitResult compared = calibrate::compareWithLogs(t, tables);
  std::optional<ir::Algorithm> ring;
  for (const calibrate::RowFit& r : compared.rows) {
    RowAccuracy row{r.bytes, r.choice, r.measuredUs / r.predictedUs, std::nullopt};
    if (r.bytes >= kMiB && r.bytes <= 16 * kMiB) out.medium.add(row.ratio);
    if (r.bytes >= 256 * kMiB) {
      out.large.add(row.ratio);
      if (r.choice.rfind("ring", 0) == 0) {
        if (!ring && out.ringError.empty()) {
          try {
            ring = libraryRing(tables[r.table].table.collective, t);
          } catch (const std::exception& e) {  // a limit of the runtime the ring cannot meet there
            out.ringError = e.what();
          }
        }
        if (ring) {
          const sim::SimulationReport s =
              sim::simulate(*ring, "ring.xml", t, {.sizes = {r.bytes}, .arch = std::nullopt});
          row.ringRatio = r.measuredUs / s.results.at(0).timeUs;
          out.ring.add(*row.ringRatio);
        }
      }
    }
    out.rows.push_back(row);
  }
  return out;
}

}  // namespace ccforge::test
