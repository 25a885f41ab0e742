#include "synth/sccl/transfer_layout.hpp"

#include <algorithm>

namespace ccforge::synth::sccl {
namespace {

// Channels one logical link is given at most: as wide as the widest direct link of the catalog's
// machines (the MI250's four xGMI links between the two GCDs of a package; the DGX-1's double
// NVLink), far below the runtime's channel limit.
constexpr int32_t kMaxChannelsPerLink = 4;

int32_t threadBlockLabel(int32_t peer, int32_t channel, bool sends) {
  return (peer * kMaxChannelsPerLink + channel) * 2 + (sends ? 1 : 0);
}

}  // namespace

TransferDirectives::TransferDirectives(const Problem& problem, TransferLayout layout)
    : problem_(problem), layout_(layout) {
  for (const LogicalLink& link : problem.links)
    if (link.physical.size() == 1) {
      const auto id = static_cast<size_t>(link.physical.front());
      const int64_t num = problem.capacityNum[id], den = problem.capacityDen[id];
      if (narrowestNum_ == 0 || num * narrowestDen_ < narrowestNum_ * den) {
        narrowestNum_ = num;
        narrowestDen_ = den;
      }
    }
}

// A direct link's width in parallel links: its capacity over the narrowest direct link's (the
// DGX-1's double NVLink is 2; on a machine whose unit is 1 GB/s, 5 and 6 GB/s links are both 1).
int32_t TransferDirectives::channelsOf(int32_t from, int32_t to) const {
  for (const LogicalLink& link : problem_.links) {
    if (link.from != from || link.to != to) continue;
    if (link.physical.size() != 1) return 1;  // through switches: the capacity is shared with other peers
    const auto id = static_cast<size_t>(link.physical.front());
    const int64_t width = (problem_.capacityNum[id] * narrowestDen_) / (problem_.capacityDen[id] * narrowestNum_);
    return static_cast<int32_t>(std::clamp<int64_t>(width, 1, kMaxChannelsPerLink));
  }
  return 1;
}

dsl::Directives TransferDirectives::next(int32_t step, int32_t from, int32_t to, int32_t sender, int32_t receiver) {
  if (layout_ == TransferLayout::Automatic) return {};
  const int32_t channel = sentInStep_[{step, from, to}]++ % channelsOf(from, to);
  return {.ch = channel,
          .sendtb = threadBlockLabel(receiver, channel, true),
          .recvtb = threadBlockLabel(sender, channel, false)};
}

}  // namespace ccforge::synth::sccl
