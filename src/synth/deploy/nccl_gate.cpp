#include "synth/deploy/nccl_gate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "semantics/collective.hpp"
#include "semantics/selection.hpp"
#include "sim/model_parameters.hpp"
#include "sim/nccl_model.hpp"
#include "sim/size_sweep.hpp"

namespace ccforge::synth::deploy {

void gateOnNccl(Deployment& d, const ir::Algorithm& algorithm, const std::string& source,
                const topo::Topology& topology, double margin) {
  if (!d.window) return;
  const std::optional<semantics::CollectiveType> collective = semantics::collectiveTypeOf(algorithm.coll);
  if (!collective || *collective == semantics::CollectiveType::Gather ||
      *collective == semantics::CollectiveType::Scatter || *collective == semantics::CollectiveType::Custom)
    return;
  // The sizes s whose calls [s, 2 s) lie inside the window.
  std::vector<uint64_t> sizes;
  for (uint64_t s = semantics::kCheckedMinBytes; s <= semantics::kCheckedMaxBytes; s *= 2)
    if (d.window->contains(static_cast<int64_t>(s)) && d.window->contains(static_cast<int64_t>(2 * s - 1)))
      sizes.push_back(s);
  const sim::ModelParameters parameters = sim::modelParameters(topology);
  const sim::NcclSetup nccl = sim::ncclSetup(topology, parameters);
  const sim::SizeSweep sweep = sim::sweepSizes(algorithm, source, topology, std::nullopt, *d.window, sizes);
  // The longest run of sizes that clear the bar (the first such run on a tie).
  size_t bestFirst = 0, bestLength = 0;
  GainOverNccl best, run{std::numeric_limits<double>::infinity(), 0};
  size_t runFirst = 0, runLength = 0;
  double bestGainSeen = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const double needed = parameters.gainNeeded(sizes[i], margin);
    const double gain =
        sweep.timeUs[i] ? sim::ncclChoice(nccl, {*collective, sizes[i], 1}).timeUs / *sweep.timeUs[i] : 0;
    bestGainSeen = std::max(bestGainSeen, gain / needed);
    if (gain < needed) {
      runLength = 0;
      continue;
    }
    if (runLength == 0) {
      runFirst = i;
      run = {std::numeric_limits<double>::infinity(), 0};
    }
    ++runLength;
    run.least = std::min(run.least, gain);
    run.needed = std::max(run.needed, needed);
    if (runLength > bestLength) {
      bestFirst = runFirst;
      bestLength = runLength;
      best = run;
    }
  }
  if (bestLength == 0) {
    d.notWritten = sizes.empty() ? "its window holds no power-of-two size of 1 KiB..4 GiB to weigh against NCCL"
                   : !sweep.error.empty()
                       ? "it could not be simulated to weigh it against NCCL: " + sweep.error
                       : fmt::format(
                             "at no size of its window is it predicted to beat NCCL by the gain needed there (at best "
                             "{:.2f} of it)",
                             bestGainSeen);
    d.window.reset();
    return;
  }
  const uint64_t low = sizes[bestFirst], high = 2 * sizes[bestFirst + bestLength - 1] - 1;
  // The run's ends give the window's, but for an open end that the run reaches (sizes below 1 KiB
  // and above 4 GiB stay where the window put them).
  semantics::SizeWindow narrowed = *d.window;
  if (bestFirst > 0 || d.window->minBytes > 0) narrowed.minBytes = static_cast<int64_t>(low);
  if (bestFirst + bestLength < sizes.size() || sizes.back() < semantics::kCheckedMaxBytes)
    narrowed.maxBytes = static_cast<int64_t>(high);
  d.window = narrowed;
  d.overNccl = best;
}

}  // namespace ccforge::synth::deploy
