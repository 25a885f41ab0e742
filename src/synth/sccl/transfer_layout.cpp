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

// A direct link gets as many channels as it is wide in parallel links: its capacity over the
// narrowest direct link's (the DGX-1's double NVLink is 2; on a machine whose unit is 1 GB/s, 5
// and 6 GB/s links are both 1). A path through switches gets one: its capacity is shared with
// other peers.
TransferDirectives::TransferDirectives(const Problem& problem, TransferLayout layout) : layout_(layout) {
  int64_t narrowestNum = 0, narrowestDen = 1;
  for (const LogicalLink& link : problem.links)
    if (link.physical.size() == 1) {
      const auto id = static_cast<size_t>(link.physical.front());
      const int64_t num = problem.capacityNum[id], den = problem.capacityDen[id];
      if (narrowestNum == 0 || num * narrowestDen < narrowestNum * den) {
        narrowestNum = num;
        narrowestDen = den;
      }
    }
  for (const LogicalLink& link : problem.links)
    if (link.physical.size() == 1) {
      const auto id = static_cast<size_t>(link.physical.front());
      const int64_t width = (problem.capacityNum[id] * narrowestDen) / (problem.capacityDen[id] * narrowestNum);
      channels_[{link.from, link.to}] = static_cast<int32_t>(std::clamp<int64_t>(width, 1, kMaxChannelsPerLink));
    }
}

dsl::Directives TransferDirectives::next(int32_t step, int32_t from, int32_t to, int32_t sender, int32_t receiver) {
  if (layout_ == TransferLayout::Automatic) return {};
  const auto width = channels_.find({from, to});
  const int32_t channel = sentInStep_[{step, from, to}]++ % (width == channels_.end() ? 1 : width->second);
  return {.ch = channel,
          .sendtb = threadBlockLabel(receiver, channel, true),
          .recvtb = threadBlockLabel(sender, channel, false)};
}

}  // namespace ccforge::synth::sccl
