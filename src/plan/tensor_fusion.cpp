#include "plan/tensor_fusion.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ccforge::plan {
namespace {

void checkInstance(const FusionInstance& in) {
  if (in.bytes.size() != in.readyUs.size())
    throw std::invalid_argument("tensor sizes and ready times differ in length");
  if (in.bytes.size() > kMaxFusionTensors)
    throw std::invalid_argument("more than " + std::to_string(kMaxFusionTensors) + " gradient tensors to fuse");
}

}  // namespace

BucketPlan runPartition(const FusionInstance& in, const std::vector<int32_t>& ends, const CommCost& cost,
                        int32_t channels, const std::vector<double>* notBefore) {
  checkInstance(in);
  if (channels < 1) throw std::invalid_argument("at least one channel");
  const int32_t n = static_cast<int32_t>(in.bytes.size());
  if (n > 0 && (ends.empty() || ends.back() != n - 1))
    throw std::invalid_argument("the partition does not cover every tensor");
  if (notBefore != nullptr && notBefore->size() != ends.size()) throw std::invalid_argument("one notBefore per bucket");
  std::vector<double> freeAt(static_cast<size_t>(channels), in.channelFreeUs);
  BucketPlan plan;
  plan.finishUs = in.channelFreeUs;
  int32_t first = 0;
  for (size_t k = 0; k < ends.size(); ++k) {
    int32_t last = ends[k];
    if (last < first || last >= n) throw std::invalid_argument("bucket ends must ascend");
    Bucket b;
    b.first = first;
    b.last = last;
    double ready = in.readyUs[static_cast<size_t>(first)];
    for (int32_t t = first; t <= last; ++t) {
      b.bytes += in.bytes[static_cast<size_t>(t)];
      ready = std::max(ready, in.readyUs[static_cast<size_t>(t)]);
    }
    size_t ch = 0;
    for (size_t c = 1; c < freeAt.size(); ++c)
      if (freeAt[c] < freeAt[ch]) ch = c;
    b.channel = static_cast<int32_t>(ch);
    b.startUs = std::max(ready, freeAt[ch]);
    if (notBefore != nullptr) b.startUs = std::max(b.startUs, (*notBefore)[k]);
    CommCost::Choice choice = cost.best(b.bytes);
    b.algorithm = choice.algorithm;
    b.finishUs = b.startUs + choice.timeUs;
    freeAt[ch] = b.finishUs;
    plan.finishUs = std::max(plan.finishUs, b.finishUs);
    plan.buckets.push_back(b);
    first = last + 1;
  }
  return plan;
}

BucketPlan optimalPartition(const FusionInstance& in, const CommCost& cost) {
  checkInstance(in);
  const size_t n = in.bytes.size();
  std::vector<uint64_t> prefix(n + 1, 0);
  for (size_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + in.bytes[i];
  std::vector<double> f(n + 1, in.channelFreeUs);
  std::vector<int32_t> cut(n + 1, 0);
  const bool prune = cost.monotone();
  CommCost::Cursor cursor(cost);
  for (size_t j = 1; j <= n; ++j) {
    cursor.reset();                    // bucket sizes grow as i decreases
    double ready = in.readyUs[j - 1];  // max ready over tensors i+1..j, grown as i decreases
    double bestValue = 0;
    int32_t bestCut = -1;
    for (size_t i = j; i-- > 0;) {
      ready = std::max(ready, in.readyUs[i]);
      double value = std::max(ready, f[i]) + cursor.timeUs(prefix[j] - prefix[i]);
      if (bestCut < 0 || value < bestValue) {
        bestValue = value;
        bestCut = static_cast<int32_t>(i);
      }
      // With a monotone cost f does not decrease with i; once f(i) <= R(i+1..j), every smaller i
      // waits for the same or later gradients and sends more bytes: none can do better.
      if (prune && f[i] <= ready) break;
    }
    f[j] = bestValue;
    cut[j] = bestCut;
  }
  std::vector<int32_t> ends;
  for (size_t j = n; j > 0; j = static_cast<size_t>(cut[j])) ends.push_back(static_cast<int32_t>(j) - 1);
  std::reverse(ends.begin(), ends.end());
  return runPartition(in, ends, cost);
}

CommBounds commBounds(const FusionInstance& in, const CommCost& cost) {
  checkInstance(in);
  const size_t n = in.bytes.size();
  CommBounds b;
  if (n == 0) {
    b.lowerBoundUs = in.channelFreeUs;
    return b;
  }
  std::vector<uint64_t> prefix(n + 1, 0);
  for (size_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + in.bytes[i];
  // g(j): the cheapest sum of bucket costs over partitions of the first j tensors.
  std::vector<double> g(n + 1, 0);
  for (size_t j = 1; j <= n; ++j) {
    double best = -1;
    if (cost.monotone() && cost.curves().size() == 1 && cost.curves()[0].table.empty()) {
      // Affine: one bucket is cheapest (alpha >= 0).
      best = cost.timeUs(prefix[j]);
    } else {
      CommCost::Cursor cursor(cost);
      for (size_t i = j; i-- > 0;) {
        double v = g[i] + cursor.timeUs(prefix[j] - prefix[i]);
        if (best < 0 || v < best) best = v;
      }
    }
    g[j] = best;
  }
  double lastReady = 0, firstReady = in.readyUs[0];
  for (double r : in.readyUs) {
    lastReady = std::max(lastReady, r);
    firstReady = std::min(firstReady, r);
  }
  // The bucket holding the tensor that is ready last starts after it.
  size_t lastIndex = 0;
  for (size_t i = 0; i < n; ++i)
    if (in.readyUs[i] == lastReady) lastIndex = i;
  double cheapestLast = -1;
  if (cost.monotone()) {
    cheapestLast = cost.timeUs(in.bytes[lastIndex]);  // the smallest bucket around the tensor
  } else {
    for (size_t i = 0; i <= lastIndex; ++i)
      for (size_t j = lastIndex + 1; j <= n; ++j) {
        double v = cost.timeUs(prefix[j] - prefix[i]);
        if (cheapestLast < 0 || v < cheapestLast) cheapestLast = v;
      }
  }
  b.minTotalCommUs = g[n];
  b.lowerBoundUs =
      std::max({std::max(lastReady, in.channelFreeUs) + cheapestLast, std::max(firstReady, in.channelFreeUs) + g[n]});
  return b;
}

}  // namespace ccforge::plan
