#include "synth/trees/ring_programs.hpp"

#include <algorithm>

namespace ccforge::synth::trees {
namespace {

using ir::Buffer;

int32_t ringCount(const BoxRings& rings) { return static_cast<int32_t>(rings.rings.size()); }
int32_t boxCount(const BoxRings& rings) { return static_cast<int32_t>(rings.boxes.size()); }

// Root `root`'s pieces: how many ring r carries and where they start in the root's share.
class Deal {
 public:
  Deal(const BoxRings& rings, int32_t pieces) : rings_(ringCount(rings)), pieces_(pieces) {}
  int32_t count(int32_t root, int32_t ring) const {
    const int32_t extra = pieces_ % rings_;
    const int32_t shifted = ((ring - root * extra) % rings_ + rings_) % rings_;
    return pieces_ / rings_ + (shifted < extra ? 1 : 0);
  }
  int32_t first(int32_t root, int32_t ring) const {
    int32_t at = 0;
    for (int32_t r = 0; r < ring; ++r) at += count(root, r);
    return at;
  }

 private:
  int32_t rings_;
  int32_t pieces_;
};

// Lanes of one pass: `shift` 0 is the own box's pieces, shift s the pieces of box (box + s).
int32_t lanesOf(const RingLowering& how, int32_t shift) { return shift == 0 ? how.ownLanes : how.otherLanes; }

// Lane `lane` of ring r in pass `shift`: its channel.
int32_t laneChannel(const BoxRings& rings, const RingLowering& how, int32_t r, int32_t shift, int32_t lane) {
  const int32_t before = shift == 0 ? 0 : how.ownLanes + (shift - 1) * how.otherLanes;
  return r + ringCount(rings) * (before + lane);
}

}  // namespace

int32_t ringChannels(const BoxRings& rings, const RingLowering& how) {
  return ringCount(rings) * (how.ownLanes + (boxCount(rings) - 1) * how.otherLanes);
}

int32_t ringPiecesPerRoot(const BoxRings& rings, const RingLowering& how) {
  const int32_t lanes = boxCount(rings) > 1 ? std::min(how.ownLanes, how.otherLanes) : how.ownLanes;
  int32_t p = 1;
  while (p * 2 <= ringCount(rings) * lanes) p *= 2;
  return p;
}

Packing dealtRingTrees(const BoxRings& rings, const RingLowering& how) {
  const int32_t pieces = ringPiecesPerRoot(rings, how);
  const Deal deal(rings, pieces);
  return ringTrees(rings, pieces, [&](int32_t root, int32_t ring) { return deal.count(root, ring); });
}

dsl::Program ringAllGatherProgram(const std::string& name, const BoxRings& rings, const RingLowering& how) {
  const int32_t ranks = rings.ranks(), ringsPerBox = ringCount(rings), boxes = boxCount(rings);
  const int32_t pieces = ringPiecesPerRoot(rings, how);
  const Deal deal(rings, pieces);
  dsl::Program p(name, {.type = CollectiveType::AllGather, .ranks = ranks, .chunkFactor = pieces, .form = CallForm::OutOfPlace},
                 {.protocol = how.protocol, .instances = 1});
  const size_t n = rings.boxes.front().size();
  // The piece of root's ring r on lane `lane` of a pass with `lanes` lanes, if any: a ring's
  // pieces take lanes from the root's index on, so that lanes carry nearly the same in all.
  auto piece = [&](int32_t root, int32_t r, int32_t lanes, int32_t lane) -> std::optional<int32_t> {
    const int32_t nth = ((lane - root) % lanes + lanes) % lanes;
    if (nth >= deal.count(root, r)) return std::nullopt;
    return root * pieces + deal.first(root, r) + nth;
  };

  for (int32_t v = 0; v < ranks; ++v) p.chunk(v, Buffer::Input, 0, pieces).copy(v, Buffer::Output, v * pieces);
  // Rail transfers on the channels of the own pass's lanes.
  for (int32_t lane = 0; lane < how.ownLanes; ++lane)
    for (int32_t r = 0; r < ringsPerBox; ++r)
      for (size_t b = 0; b < rings.boxes.size(); ++b)
        for (size_t i = 0; i < n; ++i) {
          const int32_t root = rings.boxes[b][i];
          const std::optional<int32_t> index = piece(root, r, how.ownLanes, lane);
          if (!index) continue;
          for (size_t other = 0; other < rings.boxes.size(); ++other)
            if (other != b)
              p.chunk(root, Buffer::Output, *index)
                  .copy(rings.boxes[other][i], Buffer::Output, *index, {.ch = laneChannel(rings, how, r, 0, lane)});
        }

  // The own box's pass first, then each other box's, lane by lane.
  for (int32_t shift = 0; shift < boxes; ++shift)
    for (int32_t lane = 0; lane < lanesOf(how, shift); ++lane)
      for (int32_t box = 0; box < boxes; ++box)
        for (int32_t r = 0; r < ringsPerBox; ++r) {
          const std::vector<int32_t>& ring = rings.rings[static_cast<size_t>(r)];
          const std::vector<int32_t>& here = rings.boxes[static_cast<size_t>(box)];
          const std::vector<int32_t>& source = rings.boxes[static_cast<size_t>((box + shift) % boxes)];
          const int32_t channel = laneChannel(rings, how, r, shift, lane);
          for (size_t i = 0; i < n; ++i) {
            const int32_t local = ring[i];
            const std::optional<int32_t> index = piece(source[static_cast<size_t>(local)], r, lanesOf(how, shift), lane);
            if (!index) continue;
            dsl::ChunkRef at = p.chunk(here[static_cast<size_t>(local)], Buffer::Output, *index);
            // The shortcut goes against the ring, so the lane's channel has that connection free.
            if (rings.truncated[static_cast<size_t>(r)][i])
              at.copy(here[static_cast<size_t>(ring[(i + n - 1) % n])], Buffer::Output, *index, {.ch = channel});
            for (int32_t hop : rings.path(static_cast<size_t>(r), i))
              at = at.copy(here[static_cast<size_t>(hop)], Buffer::Output, *index, {.ch = channel});
          }
        }
  return p;
}

}  // namespace ccforge::synth::trees
