#include "plan/baselines.hpp"

#include <algorithm>
#include <cmath>

namespace ccforge::plan {

BaselinePartition perTensor(const FusionInstance& in) {
  BaselinePartition b{"per-tensor", {}, {}};
  for (size_t i = 0; i < in.bytes.size(); ++i) b.ends.push_back(static_cast<int32_t>(i));
  return b;
}

BaselinePartition oneBucket(const FusionInstance& in) {
  BaselinePartition b{"one bucket", {}, {}};
  if (!in.bytes.empty()) b.ends.push_back(static_cast<int32_t>(in.bytes.size()) - 1);
  return b;
}

BaselinePartition ddp(const FusionInstance& in, uint64_t capBytes, uint64_t firstCapBytes) {
  BaselinePartition b{"DDP 25 MiB", {}, {}};
  uint64_t open = 0;
  for (size_t i = 0; i < in.bytes.size(); ++i) {
    open += in.bytes[i];
    uint64_t cap = b.ends.empty() ? firstCapBytes : capBytes;
    if (open >= cap || i + 1 == in.bytes.size()) {
      b.ends.push_back(static_cast<int32_t>(i));
      open = 0;
    }
  }
  return b;
}

BaselinePartition threshold(const FusionInstance& in, uint64_t capBytes, const std::string& name) {
  BaselinePartition b{name, {}, {}};
  uint64_t open = 0;
  for (size_t i = 0; i < in.bytes.size(); ++i) {
    if (open > 0 && open + in.bytes[i] > capBytes) {
      b.ends.push_back(static_cast<int32_t>(i) - 1);
      open = 0;
    }
    open += in.bytes[i];
  }
  if (!in.bytes.empty()) b.ends.push_back(static_cast<int32_t>(in.bytes.size()) - 1);
  return b;
}

BaselinePartition horovod(const FusionInstance& in, uint64_t capBytes, double cycleUs, const std::string& name) {
  BaselinePartition b{name, {}, {}};
  size_t i = 0;
  const size_t n = in.bytes.size();
  while (i < n) {
    // The first cycle tick at or after tensor i is ready; tensors are taken in order, so a
    // tensor ready by the tick but behind a later-ready one waits for a later tick.
    double tick = std::ceil(in.readyUs[i] / cycleUs) * cycleUs;
    size_t j = i;
    while (j < n && in.readyUs[j] <= tick) ++j;
    // Tensors i..j-1 go out at `tick`, in buckets of at most capBytes.
    uint64_t open = 0;
    for (size_t k = i; k < j; ++k) {
      if (open > 0 && open + in.bytes[k] > capBytes) {
        b.ends.push_back(static_cast<int32_t>(k) - 1);
        b.notBeforeUs.push_back(tick);
        open = 0;
      }
      open += in.bytes[k];
    }
    b.ends.push_back(static_cast<int32_t>(j) - 1);
    b.notBeforeUs.push_back(tick);
    i = j;
  }
  return b;
}

BaselinePartition mgwfbp(const FusionInstance& in, const CommCost& cost) {
  BaselinePartition b{"MG-WFBP", {}, {}};
  const size_t n = in.bytes.size();
  double freeAt = in.channelFreeUs;
  uint64_t open = 0;
  double openReady = 0;
  for (size_t k = 0; k < n; ++k) {
    open += in.bytes[k];
    openReady = std::max(openReady, in.readyUs[k]);
    bool merge = false;
    if (k + 1 < n) {
      double start = std::max(openReady, freeAt);
      double nextReady = in.readyUs[k + 1];
      double saved = cost.timeUs(open) + cost.timeUs(in.bytes[k + 1]) - cost.timeUs(open + in.bytes[k + 1]);
      merge = start >= nextReady || nextReady - start < saved;
    }
    if (!merge) {
      b.ends.push_back(static_cast<int32_t>(k));
      freeAt = std::max(openReady, freeAt) + cost.timeUs(open);
      open = 0;
      openReady = 0;
    }
  }
  return b;
}

std::vector<BaselinePartition> allBaselines(const FusionInstance& in, const CommCost& cost) {
  std::vector<BaselinePartition> out;
  out.push_back(perTensor(in));
  out.push_back(oneBucket(in));
  out.push_back(ddp(in));
  out.push_back(horovod(in, 64 * kMiB, 5000.0, "Horovod 64 MiB"));
  out.push_back(horovod(in, 128 * kMiB, 1000.0, "Horovod 128 MiB"));
  out.push_back(threshold(in, 30 * kMiB + 7, "XLA 30 MiB"));
  out.push_back(mgwfbp(in, cost));
  return out;
}

}  // namespace ccforge::plan
