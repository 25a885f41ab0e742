#include "verify/deadlock.hpp"

#include "semantics/runtime_profile.hpp"
#include "semantics/size_arithmetic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "ir/names.hpp"
#include "verify/wait_description.hpp"

namespace ccforge::verify {
namespace {

constexpr int32_t kMaxSlotsSearched = 64;

// Whether every configuration completes with `slots` transfers in flight; the first failure.
std::optional<std::pair<SimulationConfig, SimulationResult>> firstDeadlock(const semantics::LoadedProgram& index,
                                                                           std::vector<SimulationConfig> configs,
                                                                           int32_t slots) {
  for (SimulationConfig& c : configs) {
    c.slots = slots;
    SimulationResult r = simulate(index, index.algorithm().proto, c);
    if (!r.completed) return std::make_pair(c, std::move(r));
  }
  return std::nullopt;
}

}  // namespace

std::vector<SimulationConfig> reachableConfigurations(const semantics::LoadedProgram& program) {
  const ir::Algorithm& algo = program.algorithm();
  const auto tile = static_cast<uint64_t>(semantics::tileBytes(algo.proto));
  const auto chunks = static_cast<uint64_t>(std::max(algo.nchunksperloop, 1));
  const semantics::SizeWindow window = semantics::sizeWindowOf(algo);
  // Chunk bytes as the runtime rounds them (DIVUP(nBytes, nchunksperloop)), in the unsigned
  // 64 bits it reads the window in: a maxBytes near 2^63 is a window of huge calls, not none.
  const uint64_t minChunk = semantics::ceilDiv(static_cast<uint64_t>(std::max<int64_t>(window.minBytes, 0)), chunks);
  const uint64_t maxChunk =
      window.maxBytes ? semantics::ceilDiv(static_cast<uint64_t>(*window.maxBytes), chunks) : UINT64_MAX;

  std::vector<SimulationConfig> candidates;
  if (minChunk <= tile) {
    candidates.push_back(
        {1, semantics::maxAllowedCount(static_cast<int64_t>(minChunk), static_cast<int64_t>(tile)), 0});
    candidates.push_back(
        {1, semantics::maxAllowedCount(static_cast<int64_t>(std::min(maxChunk, tile)), static_cast<int64_t>(tile)), 0});
  }
  for (int32_t t = 2; t <= 3; ++t)
    if (maxChunk > tile * static_cast<uint64_t>(t - 1)) candidates.push_back({t, 1, 0});

  std::set<int32_t> counts;
  for (const semantics::LoadedStep& s : program.steps())
    if (s.cnt > 0) counts.insert(s.cnt);
  // Two configurations with the same tiles that split every cnt the same way behave the same.
  std::vector<SimulationConfig> out;
  std::set<std::pair<int32_t, std::vector<int32_t>>> seen;
  for (const SimulationConfig& c : candidates) {
    std::vector<int32_t> pattern;
    for (int32_t cnt : counts) pattern.push_back(semantics::transfersOf(cnt, c.maxAllowedCount));
    if (seen.insert({c.tiles, pattern}).second) out.push_back(c);
  }
  return out;
}

WaitCycle findWaitCycle(const semantics::LoadedProgram& index, const SimulationResult& result) {
  std::vector<const BlockedThreadBlock*> blockedOf(static_cast<size_t>(index.threadBlockCount()), nullptr);
  for (const BlockedThreadBlock& b : result.blocked) blockedOf[b.tb] = &b;
  WaitCycle out;
  std::vector<int32_t> seenAt(static_cast<size_t>(index.threadBlockCount()), -1);
  const BlockedThreadBlock* current = &result.blocked.front();
  while (current) {
    if (seenAt[current->tb] >= 0) {
      out.chain.erase(out.chain.begin(), out.chain.begin() + seenAt[current->tb]);
      out.isCycle = true;
      return out;
    }
    seenAt[current->tb] = static_cast<int32_t>(out.chain.size());
    out.chain.push_back(*current);
    int32_t next = -1;
    const char* missing = nullptr;
    switch (current->kind) {
      case WaitKind::Dependency: next = current->on; break;
      case WaitKind::Data:
        next = index.connections()[current->on].sendTb;
        missing = "no thread block sends on that connection";
        break;
      case WaitKind::Slot:
        next = index.connections()[current->on].recvTb;
        missing = "no thread block receives on that connection";
        break;
    }
    if (next < 0) {
      out.end = missing;
      return out;
    }
    current = blockedOf[next];
    if (!current)
      out.end = fmt::format("rank {} tb {} has finished all its tile iterations, so it never provides it",
                            index.rankOf(next), index.idOf(next));
  }
  return out;
}

DeadlockSummary checkDeadlock(const semantics::LoadedProgram& index, std::optional<int32_t> slotsOverride,
                              Findings& findings) {
  const ir::Algorithm& algo = index.algorithm();
  DeadlockSummary summary;
  summary.slotsChecked = slotsOverride.value_or(semantics::transfersInFlight(algo.proto));
  std::vector<SimulationConfig> configs = reachableConfigurations(index);
  for (const SimulationConfig& c : configs)
    summary.configurations.push_back(fmt::format("tiles={} maxAllowedCount={}", c.tiles, c.maxAllowedCount));

  auto failure = firstDeadlock(index, configs, summary.slotsChecked);
  if (failure) {
    const auto& [config, result] = *failure;
    WaitCycle cycle = findWaitCycle(index, result);
    std::vector<StepRef> steps;
    for (const BlockedThreadBlock& b : cycle.chain) steps.push_back(blockedStepRef(index, b, 0));
    std::vector<std::string> evidence{
        fmt::format("{} of {} thread blocks are blocked", result.blocked.size(), index.threadBlockCount())};
    if (!cycle.isCycle) evidence.push_back("the chain of waits ends because " + cycle.end);
    findings.error(Check::Deadlock, cycle.isCycle ? "deadlock.cycle" : "deadlock.starvation",
                   steps.empty() ? algo.where : steps.front().where,
                   fmt::format("deadlock with {} ({}): {}", config.describe(), ir::protocolName(algo.proto),
                               cycle.isCycle ? fmt::format("a cycle of {} waiting thread blocks", cycle.chain.size())
                                             : "a thread block waits for something that never comes"),
                   std::move(steps), std::move(evidence));
  }

  // Deadlock freedom is monotone in the slot count: search the smallest that suffices.
  int32_t lo = 1, hi;
  if (!failure) {
    hi = summary.slotsChecked;
  } else {
    hi = summary.slotsChecked + 1;
    while (hi <= kMaxSlotsSearched && firstDeadlock(index, configs, hi)) hi *= 2;
    if (hi > kMaxSlotsSearched) {
      if (!firstDeadlock(index, configs, kMaxSlotsSearched))
        hi = kMaxSlotsSearched;
      else
        return summary;
    }
    lo = summary.slotsChecked + 1;
  }
  while (lo < hi) {
    int32_t mid = lo + (hi - lo) / 2;
    if (firstDeadlock(index, configs, mid))
      lo = mid + 1;
    else
      hi = mid;
  }
  summary.minimumSlots = hi;
  return summary;
}

}  // namespace ccforge::verify
