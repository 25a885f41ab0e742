#include "runtime/compute_first.hpp"

#include <stdexcept>
#include <string>

namespace ccforge::runtime {
namespace {

// Every executed step computes or only waits (the waits of nops are steps of their own), and
// one computes.
bool onlyComputes(const ExecutableProgram& program, const TbTable& tb) {
  bool computes = false;
  for (int32_t i = 0; i < tb.stepCount; ++i) {
    const ir::OpType kind = program.steps()[static_cast<size_t>(tb.firstStep + i)].kind;
    if (kind != ir::OpType::Compute && kind != ir::OpType::Nop) return false;
    computes = computes || kind == ir::OpType::Compute;
  }
  return computes;
}

std::string describe(const TbTable& tb) { return "rank " + std::to_string(tb.rank) + " tb " + std::to_string(tb.tb); }

}  // namespace

ComputeFirstSplit splitComputeFirst(const ExecutableProgram& program) {
  if (!program.algorithm().fused) throw std::invalid_argument("compute-first runs fused programs only (docs/fused.md)");
  const std::vector<TbTable>& tbs = program.tbs();
  std::vector<bool> computeOnly(tbs.size());
  ComputeFirstSplit split;
  for (size_t t = 0; t < tbs.size(); ++t) {
    computeOnly[t] = onlyComputes(program, tbs[t]);
    (computeOnly[t] ? split.computeTbs : split.otherTbs).push_back(static_cast<int32_t>(t));
  }
  if (split.computeTbs.empty())
    throw std::invalid_argument(
        "compute-first: no thread block of the program only computes (a fused program with computetbs "
        "of at least 1 has them)");
  if (split.otherTbs.empty())
    throw std::invalid_argument("compute-first: the program has no communication to run second");
  for (int32_t t : split.computeTbs) {
    const TbTable& tb = tbs[static_cast<size_t>(t)];
    for (int32_t i = 0; i < tb.stepCount; ++i) {
      const int32_t waitsFor = program.steps()[static_cast<size_t>(tb.firstStep + i)].dependencyTb;
      if (waitsFor >= 0 && !computeOnly[static_cast<size_t>(waitsFor)])
        throw std::invalid_argument("compute-first: " + describe(tb) + " computes but waits for " +
                                    describe(tbs[static_cast<size_t>(waitsFor)]) +
                                    ", which communicates: the compute launch could never finish");
    }
  }
  return split;
}

}  // namespace ccforge::runtime
