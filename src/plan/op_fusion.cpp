#include "plan/op_fusion.hpp"

#include <algorithm>

namespace ccforge::plan {

FusionStrategy FusionStrategy::none(size_t ops) {
  FusionStrategy s;
  s.joinNext.assign(ops > 0 ? ops - 1 : 0, 0);
  s.duplicate.assign(ops, 0);
  return s;
}

std::vector<std::vector<int32_t>> consumersOf(const Workload& w) {
  std::vector<std::vector<int32_t>> c(w.ops.size());
  for (size_t i = 0; i < w.ops.size(); ++i)
    for (int32_t in : w.ops[i].inputs) {
      auto& list = c[static_cast<size_t>(in)];
      if (list.empty() || list.back() != static_cast<int32_t>(i)) list.push_back(static_cast<int32_t>(i));
    }
  return c;
}

double RooflineEstimator::estimateUs(const Workload& w, const std::vector<std::vector<int32_t>>& consumers,
                                     int32_t first, int32_t last, const std::vector<int32_t>& duplicated) const {
  if (first == last && duplicated.empty()) return w.ops[static_cast<size_t>(first)].timeUs;
  double sumT = 0, flops = 0, bytes = 0, saved = 0;
  int32_t count = 0;
  auto inKernel = [&](int32_t op) { return op >= first && op <= last; };
  auto add = [&](const Op& op) {
    sumT += op.timeUs;
    flops += op.flops;
    bytes += op.bytes;
    ++count;
  };
  for (int32_t d : duplicated) {
    const Op& op = w.ops[static_cast<size_t>(d)];
    add(op);
    saved += 2 * op.outputBytes;  // the copy's result stays on chip and is read there
  }
  for (int32_t i = first; i <= last; ++i) {
    const Op& op = w.ops[static_cast<size_t>(i)];
    add(op);
    for (int32_t in : op.inputs)
      if (inKernel(in)) saved += w.ops[static_cast<size_t>(in)].outputBytes;  // read saved
  }
  // Writes saved: a member whose every reader is in the kernel.
  for (int32_t i = first; i < last; ++i) {
    const std::vector<int32_t>& readers = consumers[static_cast<size_t>(i)];
    bool onlyInside = !readers.empty();
    for (int32_t r : readers) onlyInside = onlyInside && inKernel(r);
    if (onlyInside) saved += w.ops[static_cast<size_t>(i)].outputBytes;
  }
  double estimate = sumT - (count - 1) * launchUs_ - saved / memBytesPerS_ * 1e6;
  double roof = std::max(flops / peakFlops_, std::max(0.0, bytes - saved) / memBytesPerS_) * 1e6 + launchUs_;
  return std::max(estimate, roof);
}

bool RooflineEstimator::pricesSeveralHeavyOps(const Workload& w, const std::vector<std::vector<int32_t>>& /*consumers*/,
                                              int32_t first, int32_t last) const {
  int32_t heavy = 0;
  double kept = 0;
  for (int32_t i = first; i <= last; ++i) {
    const Op& op = w.ops[static_cast<size_t>(i)];
    heavy += op.elementwise() ? 0 : 1;
    for (int32_t in : op.inputs)
      if (in >= first && in <= last) kept += w.ops[static_cast<size_t>(in)].outputBytes;
  }
  return heavy <= kMaxHeavyOpsPerKernel && kept <= onChipBytes_;
}

std::vector<Kernel> kernelsOf(const Workload& w, const FusionStrategy& s, const FusedOpEstimator& estimator) {
  return kernelsOf(w, consumersOf(w), s, estimator);
}

std::vector<Kernel> kernelsOf(const Workload& w, const std::vector<std::vector<int32_t>>& consumers,
                              const FusionStrategy& s, const FusedOpEstimator& estimator) {
  std::vector<Kernel> kernels;
  const int32_t n = static_cast<int32_t>(w.ops.size());
  std::vector<int32_t> pendingDup;
  int32_t first = 0;
  for (int32_t i = 0; i < n; ++i) {
    bool ends = i + 1 == n || s.joinNext[static_cast<size_t>(i)] == 0;
    if (!ends) continue;
    Kernel k;
    k.firstOp = first;
    k.lastOp = i;
    k.duplicated = pendingDup;
    k.phase = w.ops[static_cast<size_t>(first)].phase;
    k.timeUs = estimator.estimateUs(w, consumers, first, i, k.duplicated);
    kernels.push_back(std::move(k));
    pendingDup.clear();
    if (s.duplicate[static_cast<size_t>(i)] != 0) pendingDup.push_back(i);
    first = i + 1;
  }
  return kernels;
}

namespace {

// The kernel holding op i: [first, last].
std::pair<size_t, size_t> kernelAround(const FusionStrategy& s, size_t i, size_t n) {
  size_t first = i, last = i;
  while (first > 0 && s.joinNext[first - 1] != 0) --first;
  while (last + 1 < n && s.joinNext[last] != 0) ++last;
  return {first, last};
}

}  // namespace

bool canJoin(const Workload& w, const std::vector<std::vector<int32_t>>& consumers, const FusionStrategy& s, size_t i,
             const FusedOpEstimator* estimator) {
  const size_t n = w.ops.size();
  if (i + 1 >= n || s.joinNext[i] != 0) return false;
  if (w.ops[i].phase != w.ops[i + 1].phase) return false;
  auto [f1, l1] = kernelAround(s, i, n);
  auto [f2, l2] = kernelAround(s, i + 1, n);
  if (l2 - f1 + 1 > static_cast<size_t>(kMaxKernelOps)) return false;
  int heavy = 0;
  for (size_t k = f1; k <= l2; ++k) heavy += w.ops[k].elementwise() ? 0 : 1;
  if (heavy > 1 && (estimator == nullptr || !estimator->pricesSeveralHeavyOps(w, consumers, static_cast<int32_t>(f1),
                                                                              static_cast<int32_t>(l2))))
    return false;
  for (size_t a = f1; a <= l1; ++a)
    for (int32_t c : consumers[a])
      if (static_cast<size_t>(c) >= f2 && static_cast<size_t>(c) <= l2) return true;
  return false;
}

bool canDuplicate(const Workload& w, const std::vector<std::vector<int32_t>>& consumers, const FusionStrategy& s,
                  size_t i) {
  const size_t n = w.ops.size();
  if (i + 1 >= n || s.joinNext[i] != 0 || s.duplicate[i] != 0) return false;
  if (!w.ops[i].elementwise() || w.ops[i].phase != w.ops[i + 1].phase) return false;
  auto [f2, l2] = kernelAround(s, i + 1, n);
  bool readByNext = false, readOutside = false;
  for (int32_t c : consumers[i]) {
    bool inside = static_cast<size_t>(c) >= f2 && static_cast<size_t>(c) <= l2;
    readByNext = readByNext || inside;
    readOutside = readOutside || !inside;
  }
  return readByNext && readOutside;
}

FusionStrategy greedyElementwiseFusion(const Workload& w) {
  FusionStrategy s = FusionStrategy::none(w.ops.size());
  auto consumers = consumersOf(w);
  for (size_t i = 0; i + 1 < w.ops.size(); ++i)
    if (w.ops[i + 1].elementwise() && canJoin(w, consumers, s, i)) s.joinNext[i] = 1;
  return s;
}

}  // namespace ccforge::plan
