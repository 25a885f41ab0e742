#include "synth/bounds/bounds.hpp"

#include <algorithm>
#include <stdexcept>

#include "base/input_error.hpp"
#include "base/limits.hpp"
#include "topology/distances.hpp"
#include "synth/bounds/concurrent_flow.hpp"
#include "synth/bounds/cut_bounds.hpp"

namespace ccforge::synth {
namespace {

using topo::Rational;
using topo::Topology;

std::string gpuName(const Topology& t, int32_t rank) {
  return t.vertices()[static_cast<size_t>(t.gpus()[static_cast<size_t>(rank)])].name;
}

// The largest step distance over the pairs the collective must connect; throws when one
// pair has no route at all.
int32_t stepsNeeded(const Topology& t, semantics::CollectiveType c, int32_t root) {
  const auto d = topo::stepDistances(t);
  const auto n = static_cast<int32_t>(d.size());
  int32_t most = 0;
  for (int32_t a = 0; a < n; ++a)
    for (int32_t b = 0; b < n; ++b) {
      bool needed = c == semantics::CollectiveType::Broadcast || c == semantics::CollectiveType::Scatter ? a == root
                    : c == semantics::CollectiveType::Reduce || c == semantics::CollectiveType::Gather   ? b == root
                                                                                                         : true;
      if (!needed || a == b) continue;
      int32_t steps = d[static_cast<size_t>(a)][static_cast<size_t>(b)];
      if (steps == topo::kUnreachable)
        throw base::InputError(t.sourceFile, {},
                               gpuName(t, a) + " cannot reach " + gpuName(t, b) + ", so " +
                                   std::string(collectiveTypeName(c)) + " cannot complete on topology " + t.name);
      most = std::max(most, steps);
    }
  return most;
}

// The exact bounds run a max-flow per GPU (per candidate rate), each over the whole graph:
// refused up front when GPUs x vertices x links passes limits::kMaxBoundsWork. Allgather and
// reducescatter (allreduce) need one per sink up to symmetry (cut_bounds.hpp allGatherSinks).
void requireWithinWorkLimit(const Topology& t, semantics::CollectiveType c) {
  const bool symmetric = c == semantics::CollectiveType::AllGather || c == semantics::CollectiveType::ReduceScatter ||
                         c == semantics::CollectiveType::AllReduce;
  const auto flows = static_cast<int64_t>(symmetric ? allGatherSinks(t).size() : t.gpus().size()),
             vertices = static_cast<int64_t>(t.vertices().size()), links = static_cast<int64_t>(t.links().size());
  const long double work = static_cast<long double>(flows) * vertices * links;
  if (work <= static_cast<long double>(base::limits::kMaxBoundsWork)) return;
  throw base::LimitExceeded(
      "topology " + t.name + " is too large for the exact bounds: " + std::to_string(flows) +
      (symmetric && flows < static_cast<int64_t>(t.gpus().size()) ? " GPUs up to symmetry x " : " GPUs x ") +
      std::to_string(vertices) + " vertices x " + std::to_string(links) +
      " links is over ccforge's work limit of 2^28 (one max-flow per GPU; docs/limits.md)");
}

CollectiveBound exactBound(const Topology& t, semantics::CollectiveType c, int32_t root);

}  // namespace

const std::vector<semantics::CollectiveType>& boundedCollectives() {
  static const std::vector<semantics::CollectiveType> all{
      semantics::CollectiveType::AllGather, semantics::CollectiveType::ReduceScatter,
      semantics::CollectiveType::AllReduce, semantics::CollectiveType::AllToAll,
      semantics::CollectiveType::Broadcast, semantics::CollectiveType::Reduce,
      semantics::CollectiveType::Scatter,   semantics::CollectiveType::Gather};
  return all;
}

CollectiveBound collectiveBound(const Topology& t, semantics::CollectiveType c, int32_t root) {
  try {
    return exactBound(t, c, root);
  } catch (const std::overflow_error& e) {
    throw base::InputError(
        t.sourceFile, {},
        "topology " + t.name + ": " + e.what() +
            " (the exact max-flows scale every bandwidth to a common integer unit that must fit 64 bits; "
            "docs/limits.md)");
  }
}

namespace {

CollectiveBound exactBound(const Topology& t, semantics::CollectiveType c, int32_t root) {
  const auto n = static_cast<int32_t>(t.gpus().size());
  bool supported = false;
  for (semantics::CollectiveType b : boundedCollectives()) supported = supported || b == c;
  if (!supported)
    throw std::invalid_argument(
        "no exact bound for " + std::string(collectiveTypeName(c)) +
        "; bounded: allgather, reducescatter, allreduce, alltoall, broadcast, reduce, scatter, gather");
  if (n < 2)
    throw std::invalid_argument("topology " + t.name + " has " + std::to_string(n) +
                                " GPU: a collective needs at least 2 to communicate");
  const bool rooted = isRooted(c);
  if (rooted && (root < 0 || root >= n))
    throw std::invalid_argument("root " + std::to_string(root) + " is out of range: topology " + t.name +
                                " has ranks 0 to " + std::to_string(n - 1));

  // The alltoall LP has its own limit (kMaxAllToAllRows, inconclusive past it); every other
  // bound runs max-flows per GPU.
  if (c != semantics::CollectiveType::AllToAll) requireWithinWorkLimit(t, c);
  if (c == semantics::CollectiveType::AllReduce) {
    // As reducescatter then allgather (synth --method trees composes it so): steps, rounds per
    // chunk and time add up; algbw = 1 / (1/RS + 1/AG). A bound on those algorithms only.
    const CollectiveBound rs = collectiveBound(t, semantics::CollectiveType::ReduceScatter);
    const CollectiveBound ag = collectiveBound(t, semantics::CollectiveType::AllGather);
    CollectiveBound bound;
    bound.collective = c;
    bound.stepsLowerBound = rs.stepsLowerBound + ag.stepsLowerBound;
    bound.roundsPerChunkLowerBound = rs.roundsPerChunkLowerBound + ag.roundsPerChunkLowerBound;
    bound.algbwUpperBoundGBps =
        rs.algbwUpperBoundGBps * ag.algbwUpperBoundGBps / (rs.algbwUpperBoundGBps + ag.algbwUpperBoundGBps);
    bound.method =
        "reducescatter + allgather: their steps and rounds per chunk added, algbw 1/(1/RS + 1/AG); a bound "
        "on allreduce algorithms that reduce-scatter then all-gather";
    return bound;
  }

  CollectiveBound bound;
  bound.collective = c;
  bound.root = rooted ? root : -1;
  bound.stepsLowerBound = stepsNeeded(t, c, root);
  Rational rate;  // GB/s at which chunks can be delivered
  switch (c) {
    case semantics::CollectiveType::AllGather:
    case semantics::CollectiveType::ReduceScatter:
      rate = allGatherRate(t, c == semantics::CollectiveType::ReduceScatter);
      bound.method = "cut bound: min over vertex sets S missing a GPU of cap(leaving S) / |GPUs in S|";
      break;
    case semantics::CollectiveType::Scatter:
    case semantics::CollectiveType::Gather:
      rate = scatterRate(t, root, c == semantics::CollectiveType::Gather);
      bound.method = "cut bound: min over vertex sets S holding the root of cap(leaving S) / |GPUs outside S|";
      break;
    case semantics::CollectiveType::Broadcast:
    case semantics::CollectiveType::Reduce:
      rate = broadcastRate(t, root, c == semantics::CollectiveType::Reduce);
      bound.method = "min over GPUs of the max-flow between them and the root";
      break;
    case semantics::CollectiveType::AllToAll: {
      ConcurrentFlow flow;
      try {
        flow = allToAllRate(t);
      } catch (const std::length_error& e) {
        rate = allToAllCutRate(t);
        bound.method = std::string("cut bound, as the exact LP is past its size (") + e.what() +
                       "): min over each GPU and each box S of cap(leaving S) / (|GPUs in S| x |GPUs outside S|)";
        break;
      }
      rate = flow.rate;
      bound.method = "maximum concurrent multi-commodity flow (exact LP, dual-certified: rows " +
                     std::to_string(flow.rows) + ", routing trees " + std::to_string(flow.columns) + ", pivots " +
                     std::to_string(flow.pivots) + ")";
      break;
    }
    default: break;
  }
  bound.roundsPerChunkLowerBound = t.unitGBps / rate;
  const bool wholeBuffer = c == semantics::CollectiveType::Broadcast || c == semantics::CollectiveType::Reduce;
  bound.algbwUpperBoundGBps = wholeBuffer ? rate : rate * n;
  return bound;
}

}  // namespace

std::optional<CollectiveBound> inSwitchAllReduceBound(const Topology& t) {
  if (!t.nvls || t.gpus().size() < 2) return std::nullopt;
  auto vertex = [&](int32_t v) -> const topo::Vertex& { return t.vertices()[static_cast<size_t>(v)]; };
  std::optional<Rational> perGpu;
  for (int32_t g : t.gpus()) {
    Rational out = 0, in = 0;
    for (int32_t id : t.outLinks(g)) {
      const topo::Link& l = t.links()[static_cast<size_t>(id)];
      if (vertex(l.to).kind == topo::VertexKind::Switch && vertex(l.to).box == vertex(g).box &&
          l.linkClass == topo::LinkClass::NVLink)
        out += l.bandwidthGBps;
    }
    for (int32_t id : t.inLinks(g)) {
      const topo::Link& l = t.links()[static_cast<size_t>(id)];
      if (vertex(l.from).kind == topo::VertexKind::Switch && vertex(l.from).box == vertex(g).box &&
          l.linkClass == topo::LinkClass::NVLink)
        in += l.bandwidthGBps;
    }
    const Rational own = std::min(out, in);
    perGpu = perGpu ? std::min(*perGpu, own) : own;
  }
  if (!perGpu || *perGpu <= 0) return std::nullopt;
  CollectiveBound bound;
  bound.collective = semantics::CollectiveType::AllReduce;
  bound.inSwitch = true;
  bound.algbwUpperBoundGBps = *perGpu;
  const int32_t boxes = std::max(t.boxCount(), 1);
  if (boxes > 1) {
    // A box's network: what its NICs send into switches (the smallest box).
    std::vector<Rational> network(static_cast<size_t>(boxes), 0);
    for (const topo::Link& l : t.links())
      if (vertex(l.from).kind == topo::VertexKind::Nic && vertex(l.to).kind == topo::VertexKind::Switch)
        network[static_cast<size_t>(vertex(l.from).box)] += l.bandwidthGBps;
    const Rational weakest = *std::min_element(network.begin(), network.end());
    const Rational acrossBoxes = weakest * boxes / (2 * (boxes - 1));
    bound.algbwUpperBoundGBps = std::min(bound.algbwUpperBoundGBps, acrossBoxes);
  }
  bound.stepsLowerBound = boxes > 1 ? stepsNeeded(t, semantics::CollectiveType::AllGather, 0) : 1;
  bound.roundsPerChunkLowerBound = t.unitGBps * static_cast<int64_t>(t.gpus().size()) / bound.algbwUpperBoundGBps;
  bound.method =
      "in-switch reduction (NVLS): each GPU sends its buffer to the switch once and takes the result once; "
      "across boxes each box sends and takes (B-1)/B of the reduced buffer twice";
  return bound;
}

}  // namespace ccforge::synth
