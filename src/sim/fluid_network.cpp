#include "sim/fluid_network.hpp"

#include <algorithm>
#include <stdexcept>

namespace ccforge::sim {

int64_t FluidNetwork::start(std::vector<int32_t> links, double bytes, double rateCap) {
  if (!(bytes > 0) || !(rateCap > 0)) throw std::logic_error("FluidNetwork: a transfer needs bytes and a rate");
  transfers_.push_back({nextId_, std::move(links), bytes, rateCap});
  dirty_ = true;
  return nextId_++;
}

// Progressive filling: all unfrozen transfers grow at the same pace; a transfer freezes when
// it reaches its cap or when a link it crosses is full.
void FluidNetwork::assignRates() {
  std::vector<double> residual = capacity_;
  std::vector<int32_t> crossing(capacity_.size(), 0);
  std::vector<bool> frozen(transfers_.size(), false);
  for (Transfer& t : transfers_) {
    t.rate = 0;
    for (int32_t l : t.links) ++crossing[static_cast<size_t>(l)];
  }
  size_t unfrozen = transfers_.size();
  while (unfrozen > 0) {
    double step = std::numeric_limits<double>::infinity();
    for (size_t l = 0; l < residual.size(); ++l)
      if (crossing[l] > 0) step = std::min(step, residual[l] / crossing[l]);
    for (size_t i = 0; i < transfers_.size(); ++i)
      if (!frozen[i]) step = std::min(step, transfers_[i].cap - transfers_[i].rate);
    step = std::max(step, 0.0);
    for (size_t i = 0; i < transfers_.size(); ++i) {
      if (frozen[i]) continue;
      transfers_[i].rate += step;
      for (int32_t l : transfers_[i].links) residual[static_cast<size_t>(l)] -= step;
    }
    for (size_t i = 0; i < transfers_.size(); ++i) {
      if (frozen[i]) continue;
      bool full = transfers_[i].rate >= transfers_[i].cap * (1 - 1e-12);
      for (int32_t l : transfers_[i].links)
        full = full || residual[static_cast<size_t>(l)] <= capacity_[static_cast<size_t>(l)] * 1e-12;
      if (!full) continue;
      frozen[i] = true;
      --unfrozen;
      for (int32_t l : transfers_[i].links) --crossing[static_cast<size_t>(l)];
    }
  }
  dirty_ = false;
  cachedNext_ = std::numeric_limits<double>::infinity();
  for (const Transfer& t : transfers_) cachedNext_ = std::min(cachedNext_, now_ + t.remaining / t.rate);
}

double FluidNetwork::nextCompletion() {
  if (dirty_) assignRates();
  return cachedNext_;
}

std::vector<int64_t> FluidNetwork::advanceTo(double time) {
  if (dirty_) assignRates();
  const double dt = time - now_;
  if (dt < 0) throw std::logic_error("FluidNetwork: time went backwards");
  std::vector<int64_t> finished;
  std::vector<Transfer> still;
  for (Transfer& t : transfers_) {
    // A transfer due now finishes exactly; others keep what the elapsed time leaves.
    bool due = now_ + t.remaining / t.rate <= time * (1 + 1e-12);
    t.remaining -= t.rate * dt;
    if (due || t.remaining <= 0) {
      finished.push_back(t.id);
    } else {
      still.push_back(std::move(t));
    }
  }
  transfers_ = std::move(still);
  now_ = time;
  // Without a change in the set of transfers, rates and finishing times stay as they are.
  if (!finished.empty()) dirty_ = true;
  return finished;
}

}  // namespace ccforge::sim
