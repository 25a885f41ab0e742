#include "sim/nccl_fallback.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "topology/routes.hpp"

namespace ccforge::sim {
namespace {

// NVIDIA/nccl src/graph/tuning.cc (commit 5067397c), ncclTunerConstantsDefaults. Columns: LL, LL128, Simple.
constexpr double kBaseLatency[2][3] = {{6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}};  // Tree, Ring (l.150)
// hwLatencies (l.156-176): [NVLink, PCI, NET][Tree, Ring][LL, LL128, Simple]
constexpr double kHwLatency[3][2][3] = {
    {{0.6, 1.25, 4.0}, {0.6, 1.9, 3.4}},
    {{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}},
    {{5.0, 8.5, 14}, {2.7, 4.0, 14.0}},
};
// [generation][index2: 1 node, 2 nodes, more] (l.177-203); llMaxBws row = generation for one
// node, row 0 (an Intel CPU) for several.
constexpr double kLlMaxBw[4][3] = {{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {282.0, 90.0, 70.0}};
constexpr double kPerChMaxRingLL128Bw[4][3] = {{20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 36.7}, {40, 40, 40}};
constexpr double kPerChMaxTreeLL128Bw[4][3] = {{20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 29.0}, {55.6, 31.67, 20.0}};
constexpr double kPerChMaxTreeBw[4][3] = {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {70.0, 42.8, 24.0}};
// treeCorrectionFactor (l.623-627): powers of two from 64 B.
constexpr double kTreeCorrection[3][24] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9},
};
// getNetOverhead (l.228-233) on an Intel x86 host.
constexpr double kNetOverheadUs = 1.0;

enum Algo { kTree = 0, kRing = 1 };
constexpr ir::Protocol kProtocols[3] = {ir::Protocol::LL, ir::Protocol::LL128, ir::Protocol::Simple};

int log2i(uint64_t v) {
  int l = -1;
  while (v) {
    v >>= 1;
    ++l;
  }
  return l;
}

size_t hwIndex(topo::LinkClass c) { return c == topo::LinkClass::NVLink ? 0 : 1; }

// NCCL reads an NVLink as 20 GB/s (SM70/SM80), 20.6 (SM90), 40.1 (SM100) (src/graph/topo.h
// l.20-24), where the catalog's links carry the signalling rate (25 GB/s per NVLink; 50 for
// Blackwell's): NVLink-class bandwidth is scaled by NCCL's speed over that rate.
double nvlinkScale(Arch arch) {
  switch (arch) {
    case Arch::Sm90: return 20.6 / 25;
    case Arch::Sm100: return 40.1 / 50;
    default: return 20.0 / 25;
  }
}

bool isLinkToBoxPeer(const topo::Topology& t, const topo::Link& l) {
  const topo::Vertex& from = t.vertices()[static_cast<size_t>(l.from)];
  const topo::Vertex& to = t.vertices()[static_cast<size_t>(l.to)];
  return from.box == to.box && to.kind != topo::VertexKind::Nic;
}

// One (algorithm, protocol) of tuning.cc's ncclTopoTuneModel and ncclTopoGetAlgoTime.
double modelTime(const NcclMachine& m, ir::CollectiveKind coll, Algo a, size_t p, uint64_t bytes) {
  const size_t gen = static_cast<size_t>(m.generation);
  const size_t index2 = m.nodes <= 2 ? static_cast<size_t>(m.nodes - 1) : 2;
  const double llMaxBw = kLlMaxBw[m.nodes == 1 ? gen : 0][index2];
  const double ch = m.channels;
  const bool allReduce = coll == ir::CollectiveKind::AllReduce;
  const int nsteps = allReduce ? 2 * (m.ranks - 1) : m.ranks - 1;  // l.289

  double busBw = ch * m.perChannelGBps;  // l.324
  if (a == kRing && p == 0) busBw = std::min(llMaxBw, busBw * .5);
  if (a == kRing && p == 1) busBw = std::min(busBw * 0.92, ch * kPerChMaxRingLL128Bw[gen][index2]);
  if (a == kTree && allReduce) busBw = std::min(busBw * .92, ch * kPerChMaxTreeBw[gen][index2]);
  if (a == kTree && p == 0) busBw = std::min(busBw * 1.0 / 3.8, llMaxBw);
  if (a == kTree && p == 1)
    busBw = std::min(busBw * (m.nodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0), ch * kPerChMaxTreeLL128Bw[gen][index2]);
  const double ratio = a == kRing ? static_cast<double>(m.ranks) / nsteps : .5;  // l.378-381
  double bw = busBw * ratio;

  double lat = kBaseLatency[a][p];  // l.384
  double intraLat = kHwLatency[hwIndex(m.intraClass)][a][p] + m.intraAlphaUs;
  const bool onePerNode = m.ranks == m.nodes;
  double interLat = kHwLatency[2][onePerNode ? kTree : a][p] + m.interAlphaUs;  // latencyInter taken as 0
  if (a == kRing) {
    if (m.nodes > 1) intraLat = std::max(intraLat, p == 2 ? 3 * kNetOverheadUs : kNetOverheadUs);
    const int inter = m.nodes == 1 ? 0 : allReduce ? 2 * (m.nodes - 1) : m.nodes - 1;  // l.411
    lat += (nsteps - inter) * intraLat + inter * interLat;
  } else {
    lat += 2 * ((m.ranks / m.nodes - 1) * intraLat + log2i(static_cast<uint64_t>(m.nodes)) * interLat);  // l.416
  }

  // ncclTopoGetAlgoTime (l.629-653), one operation per call.
  const int logSize = log2i(bytes >> 6);
  if (a == kTree && allReduce && logSize >= 0 && logSize < 23) bw *= kTreeCorrection[p][logSize];
  if (a == kRing && p == 2 && m.nodes > 1 && allReduce &&
      bytes / static_cast<uint64_t>(m.channels * m.ranks) >= 64)
    lat *= m.generation == NcclGeneration::Volta ? 1.9 : 1.4;
  return lat + static_cast<double>(bytes) / (1000 * bw);
}

// Alltoall as grouped p2p: one launch, then every rank sends size/ranks to each peer, the peers
// of its own box over its intra-box bandwidth and the others over its share of the network.
double allToAllTime(const NcclMachine& m, uint64_t bytes) {
  const double share = static_cast<double>(bytes) / m.ranks;
  const int perBox = m.ranks / m.nodes;
  const double intra = (perBox - 1) * share / (1000 * m.gpuIntraGBps);
  const double inter = m.nodes > 1 ? (m.ranks - perBox) * share / (1000 * m.gpuNetworkGBps) : 0;
  const double lat = kBaseLatency[kRing][2] + (m.nodes > 1 ? kHwLatency[2][kRing][2] + m.interAlphaUs
                                                             : kHwLatency[hwIndex(m.intraClass)][kRing][2] + m.intraAlphaUs);
  return lat + std::max(intra, inter);
}

}  // namespace

NcclMachine ncclMachineOf(const topo::Topology& t, Arch arch) {
  NcclMachine m;
  m.ranks = static_cast<int32_t>(t.gpus().size());
  m.nodes = std::max(t.boxCount(), 1);
  m.generation = arch == Arch::Sm90    ? NcclGeneration::Hopper
                 : arch == Arch::Sm100 ? NcclGeneration::Blackwell
                                       : NcclGeneration::Ampere;
  // Each GPU's bandwidth into its own box; the weakest GPU sets the ring's speed.
  double weakest = 0;
  bool first = true;
  bool anyNvlink = false;
  for (int32_t g : t.gpus()) {
    double sum = 0;
    for (int32_t li : t.outLinks(g)) {
      const topo::Link& l = t.links()[static_cast<size_t>(li)];
      if (!isLinkToBoxPeer(t, l)) continue;
      sum += topo::toDouble(l.bandwidthGBps) * (l.linkClass == topo::LinkClass::NVLink ? nvlinkScale(arch) : 1.0);
      anyNvlink = anyNvlink || l.linkClass == topo::LinkClass::NVLink;
    }
    weakest = first ? sum : std::min(weakest, sum);
    first = false;
  }
  m.intraClass = anyNvlink ? topo::LinkClass::NVLink : topo::LinkClass::PCIe;
  m.gpuIntraGBps = weakest;
  // The network: links of the network class leaving a box's NICs, per box.
  std::vector<double> boxNetwork(static_cast<size_t>(m.nodes), 0);
  for (const topo::Link& l : t.links()) {
    const topo::Vertex& from = t.vertices()[static_cast<size_t>(l.from)];
    if (l.linkClass == topo::LinkClass::Network && from.kind == topo::VertexKind::Nic && from.box >= 0 &&
        from.box < m.nodes)
      boxNetwork[static_cast<size_t>(from.box)] += topo::toDouble(l.bandwidthGBps);
  }
  const double network = m.nodes > 1 ? *std::min_element(boxNetwork.begin(), boxNetwork.end()) : 0;
  m.gpuNetworkGBps = m.nodes > 1 ? network / (m.ranks / m.nodes) : 0;
  // Alphas of the routes a step takes.
  const int32_t ranks = m.ranks;
  std::optional<double> inter;
  for (int32_t a = 0; a < ranks; ++a) {
    std::optional<double> nearest;
    for (int32_t b = 0; b < ranks; ++b) {
      if (a == b) continue;
      const std::optional<topo::Route> r = topo::routeBetween(t, a, b);
      if (!r) continue;
      const bool sameBox = t.vertices()[static_cast<size_t>(t.gpus()[static_cast<size_t>(a)])].box ==
                           t.vertices()[static_cast<size_t>(t.gpus()[static_cast<size_t>(b)])].box;
      if (sameBox) nearest = nearest ? std::min(*nearest, r->alphaUs) : r->alphaUs;
      else inter = inter ? std::min(*inter, r->alphaUs) : r->alphaUs;
    }
    m.intraAlphaUs = std::max(m.intraAlphaUs, nearest.value_or(0));
  }
  m.interAlphaUs = inter.value_or(0);
  double total = m.nodes > 1 ? std::min(weakest, network) : weakest;
  const CostModel simple(ir::Protocol::Simple, arch == Arch::None ? Arch::Sm80 : arch);
  const double perChannel = simple.perChannelGBps(m.intraClass).value_or(20.0);
  m.channels = std::clamp(static_cast<int32_t>(std::ceil(total / perChannel - 1e-9)), 1, kMaxNcclChannels);
  m.perChannelGBps = total / m.channels;
  return m;
}

std::vector<NcclChoice> ncclOptions(const NcclMachine& m, ir::CollectiveKind coll, uint64_t bytes) {
  if (m.ranks < 2 || m.perChannelGBps <= 0) throw std::invalid_argument("NCCL's model needs at least 2 connected GPUs");
  std::vector<NcclChoice> out;
  switch (coll) {
    case ir::CollectiveKind::AllReduce:
      for (size_t p = 0; p < 3; ++p) out.push_back({"ring", kProtocols[p], modelTime(m, coll, kRing, p, bytes)});
      for (size_t p = 0; p < 3; ++p) out.push_back({"tree", kProtocols[p], modelTime(m, coll, kTree, p, bytes)});
      return out;
    case ir::CollectiveKind::AllGather:
    case ir::CollectiveKind::ReduceScatter:
      for (size_t p = 0; p < 3; ++p) out.push_back({"ring", kProtocols[p], modelTime(m, coll, kRing, p, bytes)});
      return out;
    case ir::CollectiveKind::AllToAll:
      out.push_back({"p2p", ir::Protocol::Simple, allToAllTime(m, bytes)});
      return out;
    default:
      throw std::invalid_argument("NCCL's fallback is modelled for allreduce, allgather, reducescatter and alltoall only");
  }
}

NcclChoice ncclFallback(const NcclMachine& m, ir::CollectiveKind coll, uint64_t bytes) {
  const std::vector<NcclChoice> options = ncclOptions(m, coll, bytes);
  return *std::min_element(options.begin(), options.end(),
                           [](const NcclChoice& a, const NcclChoice& b) { return a.timeUs < b.timeUs; });
}

}  // namespace ccforge::sim
