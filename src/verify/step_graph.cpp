#include "semantics/step_kinds.hpp"
#include "verify/step_graph.hpp"

#include <deque>

namespace ccforge::verify {

uint32_t backPressureDistance(ir::Protocol protocol, int32_t slots) {
  auto k = static_cast<uint32_t>(slots);
  return protocol == ir::Protocol::Simple ? k + 1 : k;
}

StepGraph::StepGraph(const semantics::LoadedProgram& index, const BackPressure& backPressure) : index_(index) {
  distance_.reserve(index.connections().size());
  for (const semantics::LoadedConnection& c : index.connections())
    distance_.push_back(backPressure.boxes.sameBox(c.sender, c.receiver) ? backPressure.distance : 0);
  const uint32_t n = index.stepCount();
  dependentsStart_.assign(n + 1, 0);
  for (uint32_t s = 0; s < n; ++s)
    for (const semantics::FlagWait* w = index.waitsBegin(s); w != index.waitsEnd(s); ++w)
      if (uint32_t publisher = index.publisherOf(*w); publisher != semantics::kNoStep)
        ++dependentsStart_[publisher + 1];
  for (uint32_t s = 0; s < n; ++s) dependentsStart_[s + 1] += dependentsStart_[s];
  dependents_.resize(dependentsStart_[n]);
  std::vector<uint32_t> fill(dependentsStart_.begin(), dependentsStart_.end() - 1);
  for (uint32_t s = 0; s < n; ++s)
    for (const semantics::FlagWait* w = index.waitsBegin(s); w != index.waitsEnd(s); ++w)
      if (uint32_t publisher = index.publisherOf(*w); publisher != semantics::kNoStep)
        dependents_[fill[publisher]++] = s;
  sort();
}

bool StepGraph::waitsInVain(uint32_t s) const {
  for (const semantics::FlagWait* w = index_.waitsBegin(s); w != index_.waitsEnd(s); ++w)
    if (index_.publisherOf(*w) == semantics::kNoStep) return true;
  return false;
}

void StepGraph::sort() {
  const uint32_t n = index_.stepCount();
  std::vector<uint32_t> missing(n, 0);  // predecessors not yet placed
  for (uint32_t s = 0; s < n; ++s) {
    forEachPredecessor(s, [&](uint32_t, bool) { ++missing[s]; });
    if (waitsInVain(s)) ++missing[s];
    const semantics::LoadedStep& st = index_.step(s);
    const int32_t tb = index_.tbOfStep(s);
    // A receive with no matching send, or a send whose slot is never freed, never runs.
    if (semantics::receives(st.type) &&
        index_.recvPosition(s) >= index_.connections()[index_.recvConnection(tb)].sendSteps.size())
      ++missing[s];
    if (semantics::sends(st.type)) {
      const auto c = static_cast<size_t>(index_.sendConnection(tb));
      const uint32_t w = distance_[c], k = index_.sendPosition(s);
      if (w > 0 && k >= w && k - w >= index_.connections()[c].recvSteps.size()) ++missing[s];
    }
  }
  std::deque<uint32_t> ready;
  for (uint32_t s = 0; s < n; ++s)
    if (missing[s] == 0) ready.push_back(s);
  position_.assign(n, kNeverRuns);
  order_.clear();
  order_.reserve(n);
  auto release = [&](uint32_t s) {
    if (--missing[s] == 0) ready.push_back(s);
  };
  while (!ready.empty()) {
    uint32_t s = ready.front();
    ready.pop_front();
    position_[s] = static_cast<uint32_t>(order_.size());
    order_.push_back(s);
    const int32_t tb = index_.tbOfStep(s);
    if (index_.indexInTb(s) + 1 < index_.stepsOf(tb)) release(s + 1);
    for (uint32_t i = dependentsStart_[s]; i < dependentsStart_[s + 1]; ++i) release(dependents_[i]);
    const semantics::LoadedStep& st = index_.step(s);
    if (semantics::sends(st.type)) {
      const semantics::LoadedConnection& c = index_.connections()[index_.sendConnection(tb)];
      uint32_t k = index_.sendPosition(s);
      if (k < c.recvSteps.size()) release(c.recvSteps[k]);
    }
    if (semantics::receives(st.type)) {
      const auto c = static_cast<size_t>(index_.recvConnection(tb));
      const uint64_t k = uint64_t{index_.recvPosition(s)} + distance_[c];
      if (distance_[c] > 0 && k < index_.connections()[c].sendSteps.size())
        release(index_.connections()[c].sendSteps[k]);
    }
  }
}

}  // namespace ccforge::verify
