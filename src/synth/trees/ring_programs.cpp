#include "synth/trees/ring_programs.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

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

// One copy of an output chunk from rank to rank, on a channel.
struct Transfer {
  int32_t from = 0;
  int32_t to = 0;
  int32_t index = 0;
  int32_t channel = 0;
};

// Lanes of one pass: `shift` 0 is the own box's pieces, shift s the pieces of box (box + s).
// A pass of another box with second entries has one lane more, after the others, for the
// second halves.
int32_t lanesOf(const RingLowering& how, int32_t shift) { return shift == 0 ? how.ownLanes : how.otherLanes; }
int32_t laneSlots(const RingLowering& how, int32_t shift) {
  return shift == 0 ? how.ownLanes : how.otherLanes + (how.secondEntries ? 1 : 0);
}

// Lane `lane` of ring r in pass `shift`: its channel.
int32_t laneChannel(const BoxRings& rings, const RingLowering& how, int32_t r, int32_t shift, int32_t lane) {
  int32_t before = 0;
  for (int32_t s = 0; s < shift; ++s) before += laneSlots(how, s);
  return (how.directionsShareChannels ? r / 2 : r) + channelsPerLane(rings, how) * (before + lane);
}

// Every copy of the program after each rank's own share, in trace order.
class RingRoutes {
 public:
  RingRoutes(const BoxRings& rings, const RingLowering& how)
      : rings_(rings), how_(how), pieces_(ringPiecesPerRoot(rings, how)), deal_(rings, pieces_) {}

  std::vector<Transfer> transfers() {
    const size_t n = rings_.boxes.front().size();
    // Rail transfers on the channels of the own pass's lanes.
    for (int32_t lane = 0; lane < how_.ownLanes; ++lane)
      for (int32_t r = 0; r < ringCount(rings_); ++r)
        for (size_t b = 0; b < rings_.boxes.size(); ++b)
          for (size_t i = 0; i < n; ++i) {
            const int32_t root = rings_.boxes[b][i];
            const std::optional<int32_t> index = piece(root, r, how_.ownLanes, lane);
            if (!index) continue;
            for (size_t other = 0; other < rings_.boxes.size(); ++other)
              if (other != b)
                out_.push_back({root, rings_.boxes[other][i], *index, laneChannel(rings_, how_, r, 0, lane)});
          }
    if (how_.secondEntries) secondEntryTransfers();
    // The own box's pass first, then each other box's, lane by lane.
    for (int32_t shift = 0; shift < boxCount(rings_); ++shift)
      for (int32_t lane = 0; lane < lanesOf(how_, shift); ++lane)
        for (int32_t box = 0; box < boxCount(rings_); ++box)
          for (int32_t r = 0; r < ringCount(rings_); ++r) pass(shift, lane, box, r);
    return out_;
  }

  int32_t pieces() const { return pieces_; }

 private:
  // Of each root's pieces on ring r, the one that enters the other boxes twice.
  std::optional<int32_t> twiceEntered(int32_t root, int32_t r) const {
    if (!how_.secondEntries || deal_.count(root, r) == 0) return std::nullopt;
    return root * pieces_ + deal_.first(root, r);
  }
  // Hops along ring r from position i after which the second entry takes over: half the ring,
  // one less where that hop is over a link with a spare unit (a package link on MI250, which
  // is not the box's bottleneck).
  int32_t secondEntryHop(int32_t r, size_t i) const {
    const size_t n = rings_.rings[static_cast<size_t>(r)].size();
    const auto half = static_cast<int32_t>(n / 2);
    return rings_.truncated[static_cast<size_t>(r)][(i + n / 2) % n] ? half - 1 : half;
  }
  // The root sends its twice-entered pieces over the network to the second entries, on the
  // channel of the piece's lane (not the second halves' lane, whose blocks receive from the
  // ring).
  void secondEntryTransfers() {
    for (int32_t shift = 1; shift < boxCount(rings_); ++shift)
      for (int32_t box = 0; box < boxCount(rings_); ++box)
        for (int32_t r = 0; r < ringCount(rings_); ++r) {
          const PassRanks at = passRanks(shift, box, r);
          for (size_t i = 0; i < at.ring.size(); ++i) {
            const int32_t root = at.root(i);
            const std::optional<int32_t> index = twiceEntered(root, r);
            if (!index) continue;
            const int32_t lane = root % how_.otherLanes;  // piece(): the first piece's lane
            const size_t entry = (i + static_cast<size_t>(secondEntryHop(r, i))) % at.ring.size();
            out_.push_back({root, at.rank(entry), *index, laneChannel(rings_, how_, r, shift, lane)});
          }
        }
  }

  // Ring r in box `box` during pass `shift`: the rank at each ring position, and the root (in
  // the source box) whose pieces start there.
  struct PassRanks {
    const std::vector<int32_t>& ring;
    const std::vector<int32_t>& here;
    const std::vector<int32_t>& source;
    int32_t rank(size_t position) const { return here[static_cast<size_t>(ring[position])]; }
    int32_t root(size_t position) const { return source[static_cast<size_t>(ring[position])]; }
  };
  PassRanks passRanks(int32_t shift, int32_t box, int32_t r) const {
    return {rings_.rings[static_cast<size_t>(r)], rings_.boxes[static_cast<size_t>(box)],
            rings_.boxes[static_cast<size_t>((box + shift) % boxCount(rings_))]};
  }

  // The piece of root's ring r on lane `lane` of a pass with `lanes` lanes, if any: a ring's
  // pieces take lanes from the root's index on, so that lanes carry nearly the same in all.
  std::optional<int32_t> piece(int32_t root, int32_t r, int32_t lanes, int32_t lane) const {
    const int32_t nth = ((lane - root) % lanes + lanes) % lanes;
    if (nth >= deal_.count(root, r)) return std::nullopt;
    return root * pieces_ + deal_.first(root, r) + nth;
  }
  void pass(int32_t shift, int32_t lane, int32_t box, int32_t r) {
    const PassRanks at = passRanks(shift, box, r);
    const size_t n = at.ring.size();
    const int32_t channel = laneChannel(rings_, how_, r, shift, lane);
    for (size_t i = 0; i < n; ++i) {
      const int32_t root = at.root(i);
      const std::optional<int32_t> index = piece(root, r, lanesOf(how_, shift), lane);
      if (!index) continue;
      const int32_t start = at.rank(i);
      // The shortcut goes against the ring, so the lane's channel has that connection free.
      if (rings_.truncated[static_cast<size_t>(r)][i])
        out_.push_back({start, at.rank((i + n - 1) % n), *index, channel});
      const bool twice = shift > 0 && index == twiceEntered(root, r);
      const int32_t secondHop = twice ? secondEntryHop(r, i) : -1;
      const int32_t secondChannel = laneChannel(rings_, how_, r, shift, how_.otherLanes);
      int32_t from = start, hops = 0;
      for (int32_t hop : rings_.path(static_cast<size_t>(r), i)) {
        const int32_t next = at.here[static_cast<size_t>(hop)];
        ++hops;
        if (hops != secondHop)
          out_.push_back({from, next, *index, hops > secondHop && twice ? secondChannel : channel});
        from = next;
      }
    }
  }

  const BoxRings& rings_;
  const RingLowering& how_;
  int32_t pieces_;
  Deal deal_;
  std::vector<Transfer> out_;
};

}  // namespace

// A cycle's two directions are rings 2c and 2c + 1 (box_rings.cpp).
int32_t channelsPerLane(const BoxRings& rings, const RingLowering& how) {
  return how.directionsShareChannels ? ringCount(rings) / 2 : ringCount(rings);
}

int32_t ringChannels(const BoxRings& rings, const RingLowering& how) {
  int32_t slots = 0;
  for (int32_t s = 0; s < boxCount(rings); ++s) slots += laneSlots(how, s);
  return channelsPerLane(rings, how) * slots;
}

int32_t ringPiecesPerRoot(const BoxRings& rings, const RingLowering& how) {
  if (how.piecesPerRoot > 0) return how.piecesPerRoot;
  const int32_t lanes = boxCount(rings) > 1 ? std::min(how.ownLanes, how.otherLanes) : how.ownLanes;
  int32_t p = 1;
  while (p * 2 <= ringCount(rings) * lanes) p *= 2;
  return p;
}

Packing ringPacking(const BoxRings& rings, const RingLowering& how) {
  RingRoutes routes(rings, how);
  const std::vector<Transfer> transfers = routes.transfers();
  std::map<int32_t, Arborescence> byPiece;
  for (const Transfer& t : transfers) {
    Arborescence& tree = byPiece[t.index];
    tree.root = t.index / routes.pieces();
    tree.edges.emplace_back(t.from, t.to);
  }
  Packing p{.vertices = rings.ranks(), .treesPerRoot = routes.pieces(), .trees = {}, .maxFlows = 0};
  for (auto& [index, tree] : byPiece) p.trees.push_back(std::move(tree));
  return p;
}

dsl::Program ringAllGatherProgram(const std::string& name, const BoxRings& rings, const RingLowering& how) {
  RingRoutes routes(rings, how);
  const std::vector<Transfer> transfers = routes.transfers();
  const int32_t ranks = rings.ranks(), pieces = routes.pieces();
  dsl::Program p(
      name, {.type = semantics::CollectiveType::AllGather, .ranks = ranks, .chunkFactor = pieces, .form = how.form},
      {.protocol = how.protocol, .instances = 1});
  if (how.form == semantics::CallForm::OutOfPlace)
    for (int32_t v = 0; v < ranks; ++v) p.chunk(v, Buffer::Input, 0, pieces).copy(v, Buffer::Output, v * pieces);
  for (const Transfer& t : transfers)
    p.chunk(t.from, Buffer::Output, t.index).copy(t.to, Buffer::Output, t.index, {.ch = t.channel});
  return p;
}

}  // namespace ccforge::synth::trees
