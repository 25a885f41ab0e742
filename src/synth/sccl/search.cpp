#include "synth/sccl/search.hpp"

#include <algorithm>
#include <optional>
#include <tuple>

#include "base/limits.hpp"
#include "semantics/size_arithmetic.hpp"

namespace ccforge::synth::sccl {
namespace {

using topo::Rational;

Rational ratioOf(const Synthesizer& s, int32_t chunks, int32_t rounds) {
  const auto [num, den] = roundsPerChunk(s.collective(), s.ranks(), chunks, rounds);
  return Rational(num, den);
}

int32_t maxChunksOf(const Synthesizer& s, const SearchLimits& limits) {
  if (limits.maxChunks > 0) return limits.maxChunks;
  // Allreduce: the phases' bound (half the allreduce's) sets C.
  const Rational phaseBound = s.bound().roundsPerChunkLowerBound / s.phases();
  const auto den = static_cast<int32_t>(boost::multiprecision::denominator(phaseBound));
  return std::max(1, den) * s.chunkStep();
}

int32_t maxStepsOf(const Synthesizer& s, const SearchLimits& limits) {
  return limits.maxSteps > 0 ? limits.maxSteps : s.bound().stepsLowerBound + s.ranks() * s.phases();
}

// Marks the result incomplete when an instance could not be decided.
void account(SearchResult& out, const InstanceResult& r) {
  if (r.verdict == Verdict::Unknown && out.complete) {
    out.complete = false;
    out.note = "instance (" + std::to_string(r.chunks) + "," + std::to_string(r.steps) + "," +
               std::to_string(r.rounds) + ") unknown: " + r.note;
  }
}

void stopForTime(SearchResult& out) {
  out.complete = false;
  if (out.note.empty()) out.note = "overall time limit reached";
}

// Solves one instance and accounts for it; nullopt when the overall time is up (nothing solved).
std::optional<InstanceResult> solveInTime(Synthesizer& synth, SearchResult& out, int32_t chunks, int32_t steps,
                                          std::optional<int32_t> rounds) {
  if (synth.outOfTime()) {
    stopForTime(out);
    return std::nullopt;
  }
  InstanceResult res = synth.solve(chunks, steps, rounds);
  account(out, res);
  return res;
}

// The least R (C, S fixed) with a schedule, given that `known` (rounds free) has one.
InstanceResult leastRounds(Synthesizer& synth, SearchResult& out, int32_t chunks, int32_t steps, InstanceResult known) {
  const Rational bound = synth.bound().roundsPerChunkLowerBound;
  for (int32_t r = steps; r < known.rounds; r += synth.phases()) {
    if (ratioOf(synth, chunks, r) < bound) continue;
    std::optional<InstanceResult> res = solveInTime(synth, out, chunks, steps, r);
    if (!res) break;
    if (res->verdict == Verdict::Sat) return *res;
  }
  return known;
}

}  // namespace

SearchResult paretoSearch(Synthesizer& synth, SearchLimits limits) {
  SearchResult out;
  const int32_t maxChunks = maxChunksOf(synth, limits), maxSteps = maxStepsOf(synth, limits);
  const int32_t step = synth.chunkStep();
  const Rational bound = synth.bound().roundsPerChunkLowerBound;
  std::optional<Rational> best;
  for (int32_t s = synth.bound().stepsLowerBound; s <= maxSteps; s += synth.phases()) {
    if (best && *best == bound) break;
    if (best && ratioOf(synth, maxChunks, s) >= *best) break;  // R >= S: no candidate can beat it
    if (synth.outOfTime()) {
      stopForTime(out);
      break;
    }
    // Without a point yet, any schedule with S steps caps the candidates (rounds left free).
    std::optional<InstanceResult> cap;
    Rational limit = best.value_or(Rational(0));
    if (!best) {
      cap = synth.solve(step, s, std::nullopt);
      account(out, *cap);
      if (cap->verdict != Verdict::Sat) continue;
      limit = ratioOf(synth, step, cap->rounds);
    }
    std::vector<std::tuple<Rational, int32_t, int32_t>> candidates;  // (R/C, C, R)
    for (int32_t c = step; c <= maxChunks; c += step)
      for (int32_t r = s;; r += synth.phases()) {
        const Rational ratio = ratioOf(synth, c, r);
        if (ratio >= limit) break;
        if (ratio >= bound) candidates.emplace_back(ratio, c, r);
      }
    std::sort(candidates.begin(), candidates.end());
    std::optional<InstanceResult> found;
    for (const auto& [ratio, c, r] : candidates) {
      std::optional<InstanceResult> res = solveInTime(synth, out, c, s, r);
      if (!res) break;
      if (res->verdict == Verdict::Sat) {
        found = res;
        break;
      }
    }
    if (!found && cap) found = cap;
    if (found) {
      best = ratioOf(synth, found->chunks, found->rounds);
      out.frontier.push_back(*found);
    }
    if (synth.outOfTime() && !out.complete) break;
  }
  return out;
}

SearchResult leastStepsSearch(Synthesizer& synth, SearchLimits limits) {
  SearchResult out;
  const int32_t c = synth.chunkStep();
  for (int32_t s = synth.bound().stepsLowerBound; s <= maxStepsOf(synth, limits); s += synth.phases()) {
    std::optional<InstanceResult> any = solveInTime(synth, out, c, s, std::nullopt);
    if (!any) break;
    if (any->verdict != Verdict::Sat) continue;
    out.frontier.push_back(leastRounds(synth, out, c, s, *any));
    break;
  }
  return out;
}

SearchResult bandwidthOptimalSearch(Synthesizer& synth, SearchLimits limits) {
  SearchResult out;
  const Rational bound = synth.bound().roundsPerChunkLowerBound;
  const auto p = static_cast<int32_t>(boost::multiprecision::numerator(bound));
  const auto q = static_cast<int32_t>(boost::multiprecision::denominator(bound));
  const int32_t maxChunks = limits.maxChunks > 0 ? limits.maxChunks : 0;
  for (int32_t s = synth.bound().stepsLowerBound; s <= maxStepsOf(synth, limits); s += synth.phases()) {
    // R/C = p/q with R >= S: C = q*m*step, R = p*m for the least such m (R even for allreduce).
    int32_t m = semantics::ceilDiv(s, p);
    while (p * m % synth.phases() != 0) ++m;
    const int32_t c = q * m * synth.chunkStep(), r = p * m;
    if (maxChunks > 0 && c > maxChunks) break;
    std::optional<InstanceResult> res = solveInTime(synth, out, c, s, r);
    if (!res) break;
    if (res->verdict == Verdict::Sat) {
      out.frontier.push_back(*res);
      break;
    }
  }
  if (out.frontier.empty() && out.complete) {
    out.complete = false;  // larger S (or C) might still have one
    out.note = "no bandwidth-optimal schedule within the step limit";
  }
  return out;
}

namespace {

bool isPowerOfTwo(int32_t c) { return c > 0 && (c & (c - 1)) == 0; }

// An instance left unknown here does not make the search incomplete: the frontier is what it was.
std::optional<InstanceResult> powerOfTwoSubstitute(Synthesizer& synth, const InstanceResult& point,
                                                   const std::optional<Rational>& limit, int32_t maxChunks) {
  const Rational bound = synth.bound().roundsPerChunkLowerBound;
  std::vector<std::tuple<Rational, int32_t, int32_t>> candidates;  // (R/C, C, R)
  for (int32_t c = 1; c <= maxChunks; c *= 2) {
    if (c % synth.chunkStep() != 0) continue;
    for (int32_t r = point.steps;; r += synth.phases()) {
      const Rational ratio = ratioOf(synth, c, r);
      if (limit && ratio >= *limit) break;
      if (ratio >= bound && synth.instanceWork(c, point.steps, r) <= base::limits::kMaxSmtInstanceWork)
        candidates.emplace_back(ratio, c, r);
      if (!limit && ratio >= bound) break;  // with nothing to beat, the least R/C per C
    }
  }
  std::sort(candidates.begin(), candidates.end());
  if (candidates.size() > static_cast<size_t>(kSubstituteTries)) candidates.resize(kSubstituteTries);
  SearchResult scratch;
  for (const auto& [ratio, c, r] : candidates) {
    std::optional<InstanceResult> res = solveInTime(synth, scratch, c, point.steps, r);
    if (!res) break;
    if (res->verdict == Verdict::Sat) return res;
  }
  return std::nullopt;
}

}  // namespace

void addPowerOfTwoSubstitutes(Synthesizer& synth, SearchResult& result, SearchLimits limits) {
  // Power-of-two C up to the next power of two above the search's own largest C.
  int32_t maxChunks = 1;
  while (maxChunks < maxChunksOf(synth, limits)) maxChunks *= 2;
  std::vector<InstanceResult> merged;
  std::optional<Rational> limit;  // the least R/C of the power-of-two points so far
  auto keep = [&](const InstanceResult& r) {
    merged.push_back(r);
    if (!isPowerOfTwo(r.chunks)) return;
    const Rational ratio = ratioOf(synth, r.chunks, r.rounds);
    if (!limit || ratio < *limit) limit = ratio;
  };
  for (const InstanceResult& point : result.frontier) {
    keep(point);
    if (isPowerOfTwo(point.chunks)) continue;
    if (std::optional<InstanceResult> sub = powerOfTwoSubstitute(synth, point, limit, maxChunks)) {
      sub->substituteFor = "(" + std::to_string(point.chunks) + "," + std::to_string(point.steps) + "," +
                           std::to_string(point.rounds) + ")";
      keep(*sub);
    }
  }
  result.frontier = std::move(merged);
}

}  // namespace ccforge::synth::sccl
