#include "sim/size_sweep.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <map>
#include <utility>

#include "semantics/protocol.hpp"
#include "sim/simulate.hpp"

namespace ccforge::sim {

SizeSweep sweepSizes(const ir::Algorithm& algorithm, const std::string& source, const topo::Topology& topology,
                     std::optional<Arch> arch, const semantics::SizeWindow& compiled,
                     const std::vector<uint64_t>& sizes) {
  SizeSweep e;
  e.timeUs.assign(sizes.size(), std::nullopt);
  if (sizes.empty()) return e;
  std::map<uint64_t, double> times;
  auto run = [&](const std::vector<uint64_t>& bytes) {
    const SimulationReport r = simulate(algorithm, source, topology, {.sizes = bytes, .arch = arch});
    for (const SizeResult& x : r.results) times[x.bytes] = x.timeUs;
  };
  auto inside = [&](uint64_t b) { return compiled.contains(static_cast<int64_t>(b)); };
  try {
    std::vector<uint64_t> first;
    for (uint64_t b : sizes)
      if (inside(b) && b <= kExtrapolatedAbove) first.push_back(b);
    for (uint64_t b : {kExtrapolatedAbove / 4, kExtrapolatedAbove / 2, kExtrapolatedAbove})
      if (sizes.back() > kExtrapolatedAbove && inside(b) && std::find(first.begin(), first.end(), b) == first.end())
        first.push_back(b);
    std::sort(first.begin(), first.end());
    if (!first.empty()) run(first);
    std::optional<std::pair<uint64_t, double>> line;  // from (size, time) on, this many µs per byte
    uint64_t from = kExtrapolatedAbove;
    while (from < sizes.back() && !inside(from) && static_cast<int64_t>(from) < compiled.minBytes) from *= 2;
    if (from > kExtrapolatedAbove && inside(from) && !times.count(from)) run({from});
    const double steadyBytes = static_cast<double>(kSteadyTileIterations) *
                               semantics::tileIterationBytes(algorithm.nchunksperloop, algorithm.proto);
    for (uint64_t b = from; b < sizes.back() && inside(b);) {
      const uint64_t quarter = b / 4, half = b / 2;
      const auto q = times.find(quarter), h = times.find(half), f = times.find(b);
      // (A window that starts above b / 4 leaves points out: simulate on until three are there.)
      if (q != times.end() && h != times.end() && f != times.end() && static_cast<double>(quarter) >= steadyBytes) {
        const double slopeLow = (h->second - q->second) / static_cast<double>(quarter);
        const double slopeHigh = (f->second - h->second) / static_cast<double>(half);
        // Collinear, and the line passes near the origin: the time is bandwidth, not a latency
        // regime that happens to be straight too (a program with many chunks per loop is one).
        const double intercept = f->second - slopeHigh * static_cast<double>(b);
        if (slopeLow > 0 && std::abs(slopeHigh / slopeLow - 1) <= kLinearTolerance &&
            std::abs(intercept) <= kMaxIntercept * f->second) {
          line = {{b, slopeHigh}};
          break;
        }
      }
      b *= 2;
      if (!inside(b)) break;
      run({b});
    }
    for (size_t i = 0; i < sizes.size(); ++i) {
      const auto known = times.find(sizes[i]);
      if (known != times.end())
        e.timeUs[i] = known->second;
      else if (line && sizes[i] > line->first && inside(sizes[i]))
        e.timeUs[i] = times[line->first] + line->second * static_cast<double>(sizes[i] - line->first);
    }
  } catch (const std::exception& ex) {
    e.error = ex.what();
  }
  return e;
}

}  // namespace ccforge::sim
