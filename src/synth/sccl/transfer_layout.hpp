// Thread blocks and channels for the transfers of a lowered schedule, laid out as SCCL's ncclize
// lays them out (msccl-tools `msccl/ncclize.py`, channel policy MatchTopology): every rank has one
// thread block per (direction, peer, channel), so transfers to different peers, and the two
// directions of a link, run side by side instead of queueing in one thread block; and the chunks
// one step sends over a logical link are dealt round the link's channels, one channel per
// parallel link (a double NVLink gets two), so that no channel's bandwidth caps the link.
//
// `Automatic` leaves both to the compiler, which fuses a receive with the send that forwards it
// into one thread block (rcs): fewer thread blocks, which some runtime limits need.
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <utility>

#include "dsl/trace.hpp"
#include "synth/sccl/problem.hpp"

namespace ccforge::synth::sccl {

enum class TransferLayout { PerConnection, Automatic };

class TransferDirectives {
 public:
  TransferDirectives(const Problem& problem, TransferLayout layout);

  // The directives of the next transfer of `step` over the solved problem's logical link
  // from -> to; it runs from `sender` to `receiver` (the reverse for a combining collective).
  dsl::Directives next(int32_t step, int32_t from, int32_t to, int32_t sender, int32_t receiver);

 private:
  TransferLayout layout_;
  std::map<std::pair<int32_t, int32_t>, int32_t> channels_;              // direct link (from, to) -> its channels
  std::map<std::tuple<int32_t, int32_t, int32_t>, int32_t> sentInStep_;  // (step, from, to) -> transfers so far
};

}  // namespace ccforge::synth::sccl
