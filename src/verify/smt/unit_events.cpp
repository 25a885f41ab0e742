#include "semantics/step_kinds.hpp"
#include "verify/smt/unit_events.hpp"

#include <algorithm>

namespace ccforge::verify::smt {

using verify::WaitKind;

uint64_t countUnitEvents(const semantics::LoadedProgram& index, ir::Protocol protocol,
                         const verify::SimulationConfig& config) {
  const int32_t perTransfer = semantics::unitsPerTransfer(protocol);
  uint64_t perTile = 0;
  for (uint32_t s = 0; s < index.stepCount(); ++s) {
    const semantics::LoadedStep& st = index.step(s);
    const bool moves = semantics::receives(st.type) || semantics::sends(st.type);
    perTile += static_cast<uint64_t>(
        std::max(moves ? semantics::transfersOf(st.cnt, config.maxAllowedCount) * perTransfer : 0, 1));
  }
  return perTile * static_cast<uint64_t>(std::max(config.tiles, 0));
}

UnitEventGraph::UnitEventGraph(const semantics::LoadedProgram& index, ir::Protocol protocol,
                               const verify::SimulationConfig& config)
    : index_(index),
      config_(config),
      unitsPerTransfer_(ccforge::semantics::unitsPerTransfer(protocol)),
      capacity_(static_cast<int64_t>(config.slots) * unitsPerTransfer_) {
  build();
  link();
}

void UnitEventGraph::build() {
  const size_t nconn = index_.connections().size();
  sentBy_.assign(nconn, {});
  receivedBy_.assign(nconn, {});
  publishers_.assign(static_cast<size_t>(index_.threadBlockCount()), {});
  published_.assign(static_cast<size_t>(index_.threadBlockCount()), {});
  for (int32_t g = 0; g < index_.threadBlockCount(); ++g) {
    tbFirstEvent_.push_back(static_cast<uint32_t>(events_.size()));
    const int32_t n = index_.stepsOf(g);
    for (int32_t t = 0; t < config_.tiles && n > 0; ++t) {
      for (int32_t i = 0; i < n; ++i) {
        const semantics::LoadedStep& st = index_.step(index_.firstStep(g) + static_cast<uint32_t>(i));
        const bool in = semantics::receives(st.type), out = semantics::sends(st.type);
        const int32_t units =
            in || out ? semantics::transfersOf(st.cnt, config_.maxAllowedCount) * unitsPerTransfer_ : 0;
        for (int32_t u = 0; u < std::max(units, 1); ++u) {
          const auto e = static_cast<uint32_t>(events_.size());
          events_.push_back(UnitEvent{g, t, i, u, units, 0, 0});
          if (units == 0) continue;
          if (in && index_.recvConnection(g) >= 0)
            receivedBy_[static_cast<size_t>(index_.recvConnection(g))].push_back(e);
          if (out && index_.sendConnection(g) >= 0) sentBy_[static_cast<size_t>(index_.sendConnection(g))].push_back(e);
        }
        if (st.publishes) {
          publishers_[static_cast<size_t>(g)].push_back(static_cast<uint32_t>(events_.size() - 1));
          published_[static_cast<size_t>(g)].push_back(semantics::FifoMachine::flagValue(t, st.flagStep));
        }
      }
    }
  }
  tbFirstEvent_.push_back(static_cast<uint32_t>(events_.size()));
}

void UnitEventGraph::link() {
  const size_t nconn = index_.connections().size();
  std::vector<size_t> sentSoFar(nconn, 0), receivedSoFar(nconn, 0);
  for (uint32_t e = 0; e < events_.size(); ++e) {
    UnitEvent& ev = events_[e];
    const uint32_t s = index_.firstStep(ev.tb) + static_cast<uint32_t>(ev.step);
    const semantics::LoadedStep& st = index_.step(s);
    ev.firstPredecessor = static_cast<uint32_t>(preds_.size());
    if (ev.unit == 0) {
      for (const semantics::FlagWait* w = index_.waitsBegin(s); w != index_.waitsEnd(s); ++w) {
        const int64_t needed = semantics::FifoMachine::flagValue(ev.tile, w->step);
        const auto& values = published_[static_cast<size_t>(w->tb)];
        auto it = std::lower_bound(values.begin(), values.end(), needed);
        uint32_t source = it == values.end()
                              ? kMissing
                              : publishers_[static_cast<size_t>(w->tb)][static_cast<size_t>(it - values.begin())];
        preds_.push_back({source, WaitKind::Dependency, w->tb, needed});
      }
    }
    if (ev.units > 0 && semantics::receives(st.type)) {
      const int32_t c = index_.recvConnection(ev.tb);
      uint32_t source = kMissing;
      if (c >= 0) {
        const size_t m = receivedSoFar[static_cast<size_t>(c)]++;
        const auto& senders = sentBy_[static_cast<size_t>(c)];
        if (m < senders.size()) source = senders[m];
      }
      preds_.push_back({source, WaitKind::Data, c, 0});
    }
    if (ev.units > 0 && semantics::sends(st.type)) {
      const int32_t c = index_.sendConnection(ev.tb);
      if (c < 0) {
        preds_.push_back({kMissing, WaitKind::Slot, c, 0});
      } else {
        const auto m = static_cast<int64_t>(sentSoFar[static_cast<size_t>(c)]++);
        if (m >= capacity_) {
          const auto& receivers = receivedBy_[static_cast<size_t>(c)];
          const auto k = static_cast<size_t>(m - capacity_);
          preds_.push_back({k < receivers.size() ? receivers[k] : kMissing, WaitKind::Slot, c, 0});
        }
      }
    }
    ev.predecessorCount = static_cast<uint32_t>(preds_.size()) - ev.firstPredecessor;
  }
}

}  // namespace ccforge::verify::smt
