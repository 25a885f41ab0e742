#include "synth/trees/rail_alltoall.hpp"

#include <stdexcept>

namespace ccforge::synth::trees {

using ir::Buffer;

dsl::Program railAllToAllProgram(const std::string& name, const std::vector<std::vector<int32_t>>& boxes,
                                 const RailAllToAllLowering& how) {
  const auto boxCount = static_cast<int32_t>(boxes.size());
  const auto perBox = static_cast<int32_t>(boxes.front().size());
  if (boxCount < 2 || how.railChannels < 1)
    throw std::invalid_argument("the rail alltoall needs two boxes or more and a channel for the rails");
  const int32_t ranks = boxCount * perBox;
  auto rank = [&](int32_t box, int32_t local) { return boxes[static_cast<size_t>(box)][static_cast<size_t>(local)]; };
  // Scratch of a GPU of box b: per other box c, a block of box-size chunks, the chunks for c's GPU
  // of this GPU's local index from each GPU of box b (by local index).
  auto block = [&](int32_t b, int32_t c) { return ((c - b - 1) % boxCount + boxCount) % boxCount; };
  // Thread-block labels of a rank: sending to box mate i, receiving from box mate i, the rail
  // connection to box c (both directions), the local copy.
  auto toMate = [&](int32_t i) { return i; };
  auto fromMate = [&](int32_t i) { return perBox + i; };
  auto railSend = [&](int32_t c) { return 2 * perBox + c; };
  auto railReceive = [&](int32_t c) { return 2 * perBox + (how.railBlockEachWay ? boxCount : 0) + c; };
  const int32_t localCopy = 2 * perBox + 2 * boxCount;
  // A rail pair's channel: the same at both ends, spread evenly over the rail channels.
  auto railChannel = [&](int32_t b, int32_t c) { return 1 + (b + c) % how.railChannels; };

  dsl::Program p(name,
                 {.type = semantics::CollectiveType::AllToAll,
                  .ranks = ranks,
                  .chunkFactor = 1,
                  .form = semantics::CallForm::OutOfPlace},
                 {.protocol = how.protocol, .instances = 1});
  // Step 1, inside each box: the chunks for box c, nearest boxes first, so that the rail
  // connections to the nearest boxes start first.
  for (int32_t k = 1; k < boxCount; ++k)
    for (int32_t b = 0; b < boxCount; ++b) {
      const int32_t c = (b + k) % boxCount;
      for (int32_t s = 0; s < perBox; ++s)
        for (int32_t i = 0; i < perBox; ++i) {
          if (i == s) continue;
          p.chunk(rank(b, s), Buffer::Input, rank(c, i))
              .copy(rank(b, i), Buffer::Scratch, block(b, c) * perBox + s,
                    {.ch = 0, .sendtb = toMate(i), .recvtb = fromMate(s)});
        }
    }
  // Step 2, on the rails: each pair's chunks alternate direction, so that where one thread block
  // serves both directions it does not send everything before it receives.
  for (int32_t b = 0; b < boxCount; ++b)
    for (int32_t c = b + 1; c < boxCount; ++c)
      for (int32_t i = 0; i < perBox; ++i)
        for (int32_t s = 0; s < perBox; ++s)
          for (auto [from, to] : {std::pair{b, c}, std::pair{c, b}}) {
            dsl::ChunkRef chunk = s == i ? p.chunk(rank(from, i), Buffer::Input, rank(to, i))
                                         : p.chunk(rank(from, i), Buffer::Scratch, block(from, to) * perBox + s);
            chunk.copy(rank(to, i), Buffer::Output, rank(from, s),
                       {.ch = railChannel(from, to), .sendtb = railSend(to), .recvtb = railReceive(from)});
          }
  // Inside each box, directly; and each GPU's chunk for itself.
  for (int32_t b = 0; b < boxCount; ++b)
    for (int32_t s = 0; s < perBox; ++s) {
      for (int32_t i = 0; i < perBox; ++i)
        if (i != s)
          p.chunk(rank(b, s), Buffer::Input, rank(b, i))
              .copy(rank(b, i), Buffer::Output, rank(b, s), {.ch = 0, .sendtb = toMate(i), .recvtb = fromMate(s)});
      p.chunk(rank(b, s), Buffer::Input, rank(b, s))
          .copy(rank(b, s), Buffer::Output, rank(b, s), {.ch = 0, .sendtb = localCopy});
    }
  return p;
}

}  // namespace ccforge::synth::trees
