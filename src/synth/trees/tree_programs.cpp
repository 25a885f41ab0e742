#include "synth/trees/tree_programs.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>
#include <utility>
#include <vector>

namespace ccforge::synth::trees {
namespace {

using ir::Buffer;

// One tree with the pieces of its root's chunk it carries.
struct PlacedTree {
  const Arborescence* tree = nullptr;
  int32_t first = 0;  // piece index within the root's chunk
  int32_t count = 0;
  std::vector<int32_t> depth;  // per edge: depth of its child
  int32_t group = 0;           // the channel group its transfers run on
};

int32_t piecesPerRoot(const Packing& a, const Packing& b) {
  return static_cast<int32_t>(std::lcm(a.treesPerRoot, b.treesPerRoot));
}

std::vector<PlacedTree> place(const Packing& packing, int32_t pieces, int32_t groups) {
  const auto scale = static_cast<int32_t>(pieces / packing.treesPerRoot);
  std::vector<PlacedTree> placed;
  std::map<int32_t, int32_t> next;  // root -> next free piece
  for (const Arborescence& t : packing.trees) {
    PlacedTree p{.tree = &t,
                 .first = next[t.root],
                 .count = static_cast<int32_t>(t.multiplicity) * scale,
                 .depth = {},
                 .group = channelGroupOf(t.root, groups, packing.vertices)};
    next[t.root] += p.count;
    std::map<int32_t, int32_t> depthOf{{t.root, 0}};
    for (auto [u, w] : t.edges) p.depth.push_back(depthOf[w] = depthOf[u] + 1);
    placed.push_back(std::move(p));
  }
  return placed;
}

int32_t maxDepth(const std::vector<PlacedTree>& placed) {
  int32_t d = 0;
  for (const PlacedTree& p : placed)
    for (int32_t e : p.depth) d = std::max(d, e);
  return d;
}

// One transfer's share of a tree edge's pieces and where it runs.
struct Connection {
  int32_t offset = 0;
  int32_t count = 0;
  dsl::Directives directives;
};

// Spreads the pieces of every transfer evenly over the `channels` connections of its tree's
// channel group (each transfer carries a multiple of `channels` pieces, so every connection moves
// the rounds in order and the pipeline holds), and gives every connection a sending and a
// receiving thread block of its own: a block never both receives and sends, so a slow incoming
// transfer (a NIC) never holds up sends (NVSwitch), and forwarding is store-and-forward per
// piece (no fusion).
// Local reductions get thread blocks of their own as well (ReductionBlocks).
class Connections {
 public:
  Connections(int32_t ranks, int32_t channels, int32_t groups)
      : ranks_(ranks), channels_(channels), allChannels_(channels * groups) {}
  // `count` is a multiple of the channels: part i goes on the group's channel i.
  std::vector<Connection> parts(int32_t from, int32_t to, int32_t count, int32_t group) const {
    const int32_t size = count / channels_;
    std::vector<Connection> out;
    for (int32_t i = 0; i < channels_; ++i) {
      const int32_t ch = group * channels_ + i;
      out.push_back({i * size, size, {.ch = ch, .sendtb = label(to, 0, ch), .recvtb = label(from, 1, ch)}});
    }
    return out;
  }
  // First thread-block label free for local work.
  int32_t firstLocalLabel() const { return ranks_ * 2 * allChannels_; }

 private:
  // Thread-block labels of a rank: per peer, direction (0 send, 1 receive) and channel.
  int32_t label(int32_t peer, int32_t direction, int32_t channel) const {
    return (peer * 2 + direction) * allChannels_ + channel;
  }
  int32_t ranks_;
  int32_t channels_;
  int32_t allChannels_;
};

// Where a tree's pieces of one round lie: rounds are laid out one after the other in each
// root's share, `pieces` per round.
struct Layout {
  int32_t pieces = 0;  // per root and round
  int32_t rounds = 1;
  int32_t perRoot() const { return pieces * rounds; }
  int32_t index(const PlacedTree& t, int32_t round) const {
    return t.tree->root * perRoot() + round * pieces + t.first;
  }
};

// Broadcast along out-trees within `buffer`, pipelined over rounds: round j of an edge whose
// child is at depth d is traced in slot j + d - 1. (The compiler's scheduler orders by
// dependency depth as well; what the rounds buy is that a forward waits for its round only.)
void broadcast(dsl::Program& p, const std::vector<PlacedTree>& placed, const Layout& layout, Buffer buffer,
               const Connections& connections) {
  const int32_t depth = maxDepth(placed);
  for (int32_t slot = 0; slot < layout.rounds + depth - 1; ++slot)
    for (int32_t d = 1; d <= depth; ++d) {
      const int32_t round = slot - (d - 1);
      if (round < 0 || round >= layout.rounds) continue;
      for (const PlacedTree& t : placed)
        for (size_t e = 0; e < t.tree->edges.size(); ++e) {
          if (t.depth[e] != d) continue;
          auto [u, w] = t.tree->edges[e];
          const int32_t index = layout.index(t, round);
          for (const Connection& c : connections.parts(u, w, t.count, t.group))
            p.chunk(u, buffer, index + c.offset, c.count).copy(w, buffer, index + c.offset, c.directives);
        }
    }
}

// Thread blocks of a rank's local reductions: one per sum's destination (a peer, or the rank
// itself at a root) and round, holding the sums of every channel's share, and another one
// whenever a block would pass the target's steps per thread block (a reduction may need a
// dependency nop: two steps each). Shares of one round arrive together; a block per channel as
// well would spend thread blocks that more channels or rounds need (the profile's co-resident ones).
class ReductionBlocks {
 public:
  ReductionBlocks(int32_t firstLabel, int32_t maxSteps) : next_(firstLabel), maxSteps_(maxSteps) {}
  dsl::Directives take(int32_t rank, int32_t destination, int32_t round, int32_t reductions) {
    Block& b = blocks_[{rank, destination, round}];
    if (b.label < 0 || b.steps + 2 * reductions > maxSteps_) b = {.label = next_++, .steps = 0};
    b.steps += 2 * reductions;
    return {.sendtb = b.label};
  }

 private:
  struct Block {
    int32_t label = -1;
    int32_t steps = 0;
  };
  std::map<std::tuple<int32_t, int32_t, int32_t>, Block> blocks_;
  int32_t next_;
  int32_t maxSteps_;
};

// slots[0] = the sum of the scratch slots, summed pairwise (a tree of reductions, not a chain).
void sumSlots(dsl::Program& p, int32_t rank, int32_t count, const std::vector<int32_t>& slots,
              const dsl::Directives& where) {
  for (size_t stride = 1; stride < slots.size(); stride *= 2)
    for (size_t k = 0; k + stride < slots.size(); k += 2 * stride)
      p.chunk(rank, Buffer::Scratch, slots[k], count)
          .reduce(p.chunk(rank, Buffer::Scratch, slots[k + stride], count), where);
}

// The edges of one level, (tree, edge) pairs, in the order their contributions are sent: by
// how far the tree's root lies ahead of the sending GPU, (root - child) mod ranks, then in tree
// order. On boxes of consecutive ranks this is a shift schedule: box b first feeds the
// reductions whose roots are in box b+1, then b+2, ..., so that at any time every NIC receives
// from one box (tree order would make every box feed box 0 first: three NICs into one).
std::vector<std::pair<size_t, size_t>> levelInSendingOrder(const std::vector<PlacedTree>& placed, int32_t d,
                                                           int32_t ranks) {
  std::vector<std::tuple<int32_t, size_t, size_t>> keyed;  // (distance ahead, tree, edge)
  for (size_t tree = 0; tree < placed.size(); ++tree) {
    const PlacedTree& t = placed[tree];
    for (size_t e = 0; e < t.tree->edges.size(); ++e)
      if (t.depth[e] == d) {
        const int32_t ahead = ((t.tree->root - t.tree->edges[e].second) % ranks + ranks) % ranks;
        keyed.emplace_back(ahead, tree, e);
      }
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::pair<size_t, size_t>> out;
  for (auto [distance, tree, e] : keyed) out.emplace_back(tree, e);
  return out;
}

// Levels below every rank of a tree.
std::map<int32_t, int32_t> heights(const Arborescence& tree) {
  std::map<int32_t, int32_t> levels;
  for (auto it = tree.edges.rbegin(); it != tree.edges.rend(); ++it)  // edges list parents first
    levels[it->first] = std::max(levels[it->first], levels[it->second] + 1);
  return levels;
}

// Reduction along in-trees, deepest level first, pipelined like broadcast: round j of an edge
// whose child is at depth d is issued in slot j + depth - d. Each child's contribution is
// received into a scratch slot of its own (contributions arrive in parallel); a parent then sums
// its slots of one round and its own input on a thread block that does only the reductions
// feeding one outgoing transfer (its destination and round), so that a reduction waiting for a
// late contribution holds up neither a connection nor the reductions of other transfers. A
// parent below the root keeps that partial sum in its first slot and sends it from there: only
// roots write their buffers (the input in place, the output with `rootsIntoOutput`), so an
// out-of-place program never writes an input, the callers' const send buffer.
// The compiler orders a thread block's sends by dependency depth, then by the length of what
// follows them; a sum's slots are therefore ordered by the height of the subtree they come from,
// tallest first: pairwise sums give the first slots the longest path to the end, so what crosses
// the network into a root (a rail peer's sum) never sits in a short tail slot, which would push
// every contribution feeding it behind all others on its senders' blocks.
// With `rootsIntoOutput` (reducescatter) a root first copies its own input piece into its output,
// on the block that then sums into the output: a copy of the finished sum afterwards would land
// on a block of the compiler's choice (a send block), which then could not start its next tile
// iteration before the whole reduction of this one had arrived over the NICs.
void reduce(dsl::Program& p, const std::vector<PlacedTree>& placed, const Layout& layout,
            const Connections& connections, int32_t maxSteps, bool rootsIntoOutput) {
  struct Received {
    int32_t slot = 0;  // where it landed in the parent's scratch
    int32_t count = 0;
    int32_t height = 0;  // of the subtree it sums
  };
  const int32_t depth = maxDepth(placed);
  std::vector<std::map<int32_t, int32_t>> up;      // per tree: where a rank's sum goes
  std::vector<std::map<int32_t, int32_t>> height;  // per tree
  for (const PlacedTree& t : placed) {
    std::map<int32_t, int32_t> parentOf{{t.tree->root, t.tree->root}};
    for (auto [parent, child] : t.tree->edges) parentOf[child] = parent;
    up.push_back(std::move(parentOf));
    height.push_back(heights(*t.tree));
  }
  std::map<int32_t, int32_t> scratch;  // rank -> next free scratch chunk
  // (tree, rank, round, offset of the channel's share) -> the scratch slot holding its partial sum
  std::map<std::tuple<size_t, int32_t, int32_t, int32_t>, int32_t> partialSums;
  ReductionBlocks blocks(connections.firstLocalLabel(), maxSteps);
  for (int32_t slot = 0; slot < layout.rounds + depth - 1; ++slot)
    for (int32_t d = depth; d >= 1; --d) {
      const int32_t round = slot - (depth - d);
      if (round < 0 || round >= layout.rounds) continue;
      // (tree, parent, offset of the channel's share) -> what arrived
      std::map<std::tuple<size_t, int32_t, int32_t>, std::vector<Received>> received;
      for (auto [tree, e] : levelInSendingOrder(placed, d, p.ranks())) {
        const PlacedTree& t = placed[tree];
        auto [parent, child] = t.tree->edges[e];
        const int32_t index = layout.index(t, round);
        for (const Connection& c : connections.parts(child, parent, t.count, t.group)) {
          int32_t& free = scratch[parent];
          const auto partial = partialSums.find({tree, child, round, c.offset});
          const dsl::ChunkRef contribution = partial == partialSums.end()
                                                 ? p.chunk(child, Buffer::Input, index + c.offset, c.count)
                                                 : p.chunk(child, Buffer::Scratch, partial->second, c.count);
          contribution.copy(parent, Buffer::Scratch, free, c.directives);
          received[{tree, parent, c.offset}].push_back({free, c.count, height[tree][child]});
          free += c.count;
        }
      }
      for (auto& [key, arrived] : received) {
        const auto [tree, parent, offset] = key;
        const PlacedTree& t = placed[tree];
        std::stable_sort(arrived.begin(), arrived.end(),
                         [](const Received& a, const Received& b) { return a.height > b.height; });
        std::vector<int32_t> slots;
        for (const Received& r : arrived) slots.push_back(r.slot);
        const int32_t index = layout.index(t, round) + offset;
        const int32_t count = arrived.front().count;
        const bool intoOutput = rootsIntoOutput && parent == t.tree->root;
        const auto steps = static_cast<int32_t>(slots.size()) + (intoOutput ? 1 : 0);
        const dsl::Directives where = blocks.take(parent, up[tree].at(parent), round, steps);
        const dsl::ChunkRef own = p.chunk(parent, Buffer::Input, index, count);
        const dsl::ChunkRef total =
            intoOutput ? own.copy(parent, Buffer::Output, index - parent * layout.perRoot(), where) : own;
        sumSlots(p, parent, count, slots, where);
        const dsl::ChunkRef sum = p.chunk(parent, Buffer::Scratch, slots.front(), count);
        if (parent == t.tree->root) {
          total.reduce(sum, where);
        } else {
          sum.reduce(own, where);
          partialSums[{tree, parent, round, offset}] = slots.front();
        }
      }
    }
}

dsl::CollectiveBinding binding(semantics::CollectiveType type, int32_t ranks, int32_t chunkFactor,
                               semantics::CallForm form) {
  return {.type = type, .ranks = ranks, .chunkFactor = chunkFactor, .form = form};
}

}  // namespace

int32_t channelGroupOf(int32_t root, int32_t groups, int32_t ranks) {
  return static_cast<int32_t>(int64_t{root} * groups / ranks);
}

dsl::Program allGatherProgram(const std::string& name, const Packing& trees, const Lowering& how) {
  const Layout layout{.pieces = piecesPerRoot(trees, trees) * how.channels, .rounds = how.rounds};
  dsl::Program p(
      name,
      binding(semantics::CollectiveType::AllGather, trees.vertices, layout.perRoot(), semantics::CallForm::OutOfPlace),
      {.protocol = how.protocol, .instances = 1});
  for (int32_t r = 0; r < trees.vertices; ++r)
    p.chunk(r, Buffer::Input, 0, layout.perRoot()).copy(r, Buffer::Output, r * layout.perRoot());
  Connections connections(trees.vertices, how.channels, how.channelGroups);
  broadcast(p, place(trees, layout.pieces, how.channelGroups), layout, Buffer::Output, connections);
  return p;
}

dsl::Program reduceScatterProgram(const std::string& name, const Packing& inTrees, const Lowering& how) {
  const Layout layout{.pieces = piecesPerRoot(inTrees, inTrees) * how.channels, .rounds = how.rounds};
  dsl::Program p(name,
                 binding(semantics::CollectiveType::ReduceScatter, inTrees.vertices, layout.perRoot(),
                         semantics::CallForm::OutOfPlace),
                 {.protocol = how.protocol, .instances = 1});
  Connections connections(inTrees.vertices, how.channels, how.channelGroups);
  reduce(p, place(inTrees, layout.pieces, how.channelGroups), layout, connections, how.maxSteps, true);
  return p;
}

dsl::Program allReduceProgram(const std::string& name, const Packing& inTrees, const Packing& outTrees,
                              const Lowering& how) {
  const Layout layout{.pieces = piecesPerRoot(inTrees, outTrees) * how.channels, .rounds = how.rounds};
  const int32_t n = inTrees.vertices;
  dsl::Program p(name,
                 binding(semantics::CollectiveType::AllReduce, n, n * layout.perRoot(), semantics::CallForm::InPlace),
                 {.protocol = how.protocol, .instances = 1});
  Connections connections(n, how.channels, how.channelGroups);
  reduce(p, place(inTrees, layout.pieces, how.channelGroups), layout, connections, how.maxSteps, false);
  broadcast(p, place(outTrees, layout.pieces, how.channelGroups), layout, Buffer::Input, connections);
  return p;
}

}  // namespace ccforge::synth::trees
