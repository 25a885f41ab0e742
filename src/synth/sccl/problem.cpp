#include "synth/sccl/problem.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>

namespace ccforge::synth::sccl {
namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

semantics::CollectiveType dualOf(semantics::CollectiveType c) {
  switch (c) {
    case semantics::CollectiveType::ReduceScatter: return semantics::CollectiveType::AllGather;
    case semantics::CollectiveType::Reduce: return semantics::CollectiveType::Broadcast;
    case semantics::CollectiveType::Scatter: return semantics::CollectiveType::Gather;
    default: return c;
  }
}

// Logical links out of every rank: the shortest path (BFS, links in id order) to each other
// GPU whose interior vertices are switches or NICs. `reversed` walks the links backwards.
std::vector<LogicalLink> logicalLinks(const topo::Topology& t, bool reversed, bool& switched) {
  std::vector<LogicalLink> out;
  const size_t vertices = t.vertices().size();
  for (int32_t a : t.gpus()) {
    std::vector<int32_t> via(vertices, -2);  // link used to reach the vertex; -1 the start
    via[static_cast<size_t>(a)] = -1;
    std::deque<int32_t> queue{a};
    std::vector<int32_t> reached;
    while (!queue.empty()) {
      const int32_t v = queue.front();
      queue.pop_front();
      for (int32_t l : reversed ? t.inLinks(v) : t.outLinks(v)) {
        const topo::Link& link = t.links()[static_cast<size_t>(l)];
        const int32_t w = reversed ? link.from : link.to;
        if (via[static_cast<size_t>(w)] != -2) continue;
        via[static_cast<size_t>(w)] = l;
        if (t.isCompute(w))
          reached.push_back(w);
        else
          queue.push_back(w);
      }
    }
    std::sort(reached.begin(), reached.end(), [&](int32_t x, int32_t y) { return t.rankOf(x) < t.rankOf(y); });
    for (int32_t b : reached) {
      LogicalLink ll{t.rankOf(a), t.rankOf(b), {}};
      for (int32_t v = b; v != a;) {
        const int32_t l = via[static_cast<size_t>(v)];
        ll.physical.insert(ll.physical.begin(), l);
        const topo::Link& link = t.links()[static_cast<size_t>(l)];
        v = reversed ? link.to : link.from;
      }
      if (ll.physical.size() > 1) switched = true;
      out.push_back(std::move(ll));
    }
  }
  return out;
}

std::vector<std::vector<int32_t>> hopDistances(int32_t ranks, const std::vector<LogicalLink>& links) {
  std::vector<std::vector<int32_t>> next(static_cast<size_t>(ranks));
  for (const LogicalLink& l : links) next[static_cast<size_t>(l.from)].push_back(l.to);
  std::vector<std::vector<int32_t>> d(static_cast<size_t>(ranks), std::vector<int32_t>(static_cast<size_t>(ranks), -1));
  for (int32_t s = 0; s < ranks; ++s) {
    auto& row = d[static_cast<size_t>(s)];
    row[static_cast<size_t>(s)] = 0;
    std::deque<int32_t> queue{s};
    while (!queue.empty()) {
      const int32_t v = queue.front();
      queue.pop_front();
      for (int32_t w : next[static_cast<size_t>(v)])
        if (row[static_cast<size_t>(w)] < 0) {
          row[static_cast<size_t>(w)] = row[static_cast<size_t>(v)] + 1;
          queue.push_back(w);
        }
    }
  }
  return d;
}

std::vector<ChunkDemand> demandsOf(semantics::CollectiveType solved, int32_t n, int32_t root, int32_t chunks) {
  std::vector<ChunkDemand> out;
  const auto only = [n](int32_t r) {
    std::vector<bool> w(static_cast<size_t>(n), false);
    w[static_cast<size_t>(r)] = true;
    return w;
  };
  const std::vector<bool> all(static_cast<size_t>(n), true);
  switch (solved) {
    case semantics::CollectiveType::AllGather:
      for (int32_t m = 0; m < n; ++m)
        for (int32_t k = 0; k < chunks; ++k) out.push_back({m, all, m, 0, k});
      break;
    case semantics::CollectiveType::Gather:
      for (int32_t m = 0; m < n; ++m)
        for (int32_t k = 0; k < chunks; ++k) out.push_back({m, only(root), m, 0, k});
      break;
    case semantics::CollectiveType::Broadcast:
      for (int32_t k = 0; k < chunks; ++k) out.push_back({root, all, root, 0, k});
      break;
    case semantics::CollectiveType::Scatter:
      for (int32_t m = 0; m < n; ++m)
        for (int32_t k = 0; k < chunks; ++k) out.push_back({root, only(m), m, 0, k});
      break;
    case semantics::CollectiveType::AllToAll:
      for (int32_t s = 0; s < n; ++s)
        for (int32_t d = 0; d < n; ++d)
          for (int32_t k = 0; k < chunks / n; ++k) out.push_back({s, only(d), s, d, k});
      break;
    default: throw std::logic_error("no demands for this collective");
  }
  return out;
}

}  // namespace

bool smtSynthesizable(semantics::CollectiveType c) {
  switch (c) {
    case semantics::CollectiveType::AllGather:
    case semantics::CollectiveType::ReduceScatter:
    case semantics::CollectiveType::Broadcast:
    case semantics::CollectiveType::Reduce:
    case semantics::CollectiveType::Gather:
    case semantics::CollectiveType::Scatter:
    case semantics::CollectiveType::AllToAll: return true;
    default: return false;
  }
}

std::pair<int64_t, int64_t> roundsPerChunk(semantics::CollectiveType collective, int32_t ranks, int32_t chunks,
                                           int32_t rounds) {
  if (collective == semantics::CollectiveType::AllToAll) return {int64_t{rounds} * ranks, chunks};
  return {rounds, chunks};
}

Problem makeProblem(const topo::Topology& topology, semantics::CollectiveType collective, int32_t root,
                    int32_t chunks) {
  require(smtSynthesizable(collective), "the SMT method cannot synthesize " +
                                            std::string(collectiveTypeName(collective)) +
                                            " (supported: allgather, reducescatter, allreduce, broadcast, reduce, "
                                            "gather, scatter, alltoall)");
  const auto n = static_cast<int32_t>(topology.gpus().size());
  require(n >= 2, "synthesis needs at least 2 GPUs, the topology has " + std::to_string(n));
  require(!isRooted(collective) || (root >= 0 && root < n),
          "root " + std::to_string(root) + " is out of range for " + std::to_string(n) + " GPUs");
  require(chunks >= 1, "the number of chunks must be at least 1, got " + std::to_string(chunks));
  require(collective != semantics::CollectiveType::AllToAll || chunks % n == 0,
          "alltoall needs the chunks per rank buffer (" + std::to_string(chunks) +
              ") to be a multiple of the number of GPUs (" + std::to_string(n) + ")");
  Problem p;
  p.asked = collective;
  p.solved = dualOf(collective);
  p.reversed = p.solved != collective;
  p.root = isRooted(collective) ? root : 0;
  p.ranks = n;
  p.chunks = chunks;
  p.links = logicalLinks(topology, p.reversed, p.switched);
  for (const topo::Link& l : topology.links()) {
    const topo::Rational units = l.bandwidthGBps / topology.unitGBps;
    const auto num = boost::multiprecision::numerator(units), den = boost::multiprecision::denominator(units);
    // NOLINTNEXTLINE(misc-redundant-expression): Boost.Multiprecision's comparison templates mislead it
    require(num > 0 && num < 1'000'000 && den < 1'000'000, "link bandwidth " + topo::toString(l.bandwidthGBps) +
                                                               " GB/s is not a small multiple of the unit " +
                                                               topo::toString(topology.unitGBps) + " GB/s");
    p.capacityNum.push_back(static_cast<int64_t>(num));
    p.capacityDen.push_back(static_cast<int64_t>(den));
  }
  p.demands = demandsOf(p.solved, n, p.root, chunks);
  p.distance = hopDistances(n, p.links);
  return p;
}

}  // namespace ccforge::synth::sccl
