#include "sim/nccl_machine.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <vector>

#include "sim/nccl_tables.hpp"
#include "sim/ring_packing.hpp"
#include "topology/routes.hpp"

namespace ccforge::sim {
namespace {

// NCCL's search assumes a 400 Gb/s NIC's channels run at 48 GB/s and a 200 Gb/s one's at 24
// (search.cc speedArrayInter): the fraction of a NIC's line rate it counts on.
constexpr double kNcclNetworkEfficiency = 0.96;
// NCCL counts a PCIe Gen4 x16 link (32 GB/s signalling) as 24 GB/s (topo.cc l.545-556).
constexpr double kNcclPcieEfficiency = 0.75;
constexpr int32_t kMaxGraphChannels = 32;    // MAXCHANNELS / 2 (init.cc l.1173-1217)
constexpr int32_t kAllToAllBoxOffsets = 64;  // alltoall's traffic is modelled to the next 64 boxes at most
constexpr int32_t kMaxCommChannels = 64;     // MAXCHANNELS

const topo::Vertex& vertexOf(const topo::Topology& t, int32_t v) { return t.vertices()[static_cast<size_t>(v)]; }

// One GPU's links as NCCL's search weighs them: NVLink or PCIe links to GPUs and switches of its
// own box, and its NIC.
struct GpuLinks {
  std::vector<double> nvlink;           // NCCL's GB/s per link (to a GPU or an NVSwitch)
  bool nvswitch = false;                // one of them goes to a switch
  std::vector<double> pcie;             // NCCL's GB/s
  double nvlinkSpec = 0, pcieSpec = 0;  // the spec's GB/s, summed
  double nicRaw = 0;                    // min(GPU-NIC link, NIC-switch link), the spec's GB/s; 0: no NIC
  int32_t nic = -1;
};

GpuLinks linksOf(const topo::Topology& t, int32_t gpu, Arch arch) {
  GpuLinks g;
  for (int32_t id : t.outLinks(gpu)) {
    const topo::Link& l = t.links()[static_cast<size_t>(id)];
    const topo::Vertex& to = vertexOf(t, l.to);
    const double bw = topo::toDouble(l.bandwidthGBps);
    if (to.kind == topo::VertexKind::Nic) {
      if (g.nic >= 0) continue;  // a GPU's first NIC is its own (routes.cpp takes the same)
      g.nic = l.to;
      double network = 0;
      for (int32_t out : t.outLinks(l.to))
        if (vertexOf(t, t.links()[static_cast<size_t>(out)].to).kind == topo::VertexKind::Switch)
          network = std::max(network, topo::toDouble(t.links()[static_cast<size_t>(out)].bandwidthGBps));
      g.nicRaw = network > 0 ? std::min(bw, network) : 0;
      continue;
    }
    if (to.box != vertexOf(t, gpu).box || l.linkClass == topo::LinkClass::Network) continue;
    if (l.linkClass == topo::LinkClass::NVLink) {
      g.nvlink.push_back(ncclLinkGBps(l, arch));
      g.nvlinkSpec += bw;
      g.nvswitch = g.nvswitch || to.kind == topo::VertexKind::Switch;
    } else {
      g.pcie.push_back(ncclLinkGBps(l, arch));
      g.pcieSpec += bw;
    }
  }
  return g;
}

double sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

struct Graph {
  int32_t channels = 0;
  double speed = 0;
};

// The search's first pass (search.cc l.1164-1252): from the fastest speed that fits, the most
// channels x speed, trying slower speeds while they are more than 0.49 of the best; done once the
// channels fill the GPU's bandwidth. `fit(s)` is how many channels of speed s the machine holds.
template <typename Fit>
Graph searchGraph(const std::vector<double>& speeds, double maxBw, double totalBw, Fit fit) {
  Graph best;
  for (double s : speeds) {
    if (s > maxBw || s > totalBw) continue;
    if (best.channels > 0 && s / best.speed <= 0.49) break;
    const int32_t n = std::min(kMaxGraphChannels, fit(s));
    if (n >= 1 && n * s > best.channels * best.speed) best = {n, s};
    if (best.channels * best.speed >= totalBw) break;
  }
  return best;
}

// The ranks of each box, in rank order.
std::vector<std::vector<int32_t>> ranksByBox(const topo::Topology& t) {
  std::map<int32_t, std::vector<int32_t>> boxes;
  for (int32_t r = 0; r < static_cast<int32_t>(t.gpus().size()); ++r)
    boxes[vertexOf(t, t.gpus()[static_cast<size_t>(r)]).box].push_back(r);
  std::vector<std::vector<int32_t>> out;
  for (auto& [box, ranks] : boxes) out.push_back(std::move(ranks));
  return out;
}

// Each (sender, receiver) of `pairs` moves one part at once, over the route the simulator takes
// (or, where it has none, the links through the GPUs in between); the most loaded link sets the
// pace. Returns the share of `gpuGBps` a sender of `partsPerSender` parts reaches (at most 1).
double patternShare(const topo::Topology& t, const std::vector<std::pair<int32_t, int32_t>>& pairs,
                    int32_t partsPerSender, double gpuGBps) {
  std::map<int32_t, double> load;  // link id -> parts
  for (const auto& [a, b] : pairs)
    if (std::optional<topo::Route> r = topo::simulatorRoute(t, a, b); r || (r = topo::relayedRoute(t, a, b)))
      for (int32_t id : r->links) load[id] += 1;
  double slowest = 0;  // seconds per GB of one part, on the most loaded link
  for (const auto& [id, parts] : load) {
    const double capacity = id < static_cast<int32_t>(t.links().size())
                                ? topo::toDouble(t.links()[static_cast<size_t>(id)].bandwidthGBps)
                                : topo::toDouble(t.hostPath->bandwidthGBps);
    slowest = std::max(slowest, parts / capacity);
  }
  if (slowest <= 0 || gpuGBps <= 0) return 1;
  return std::min(1.0, partsPerSender / slowest / gpuGBps);
}

// Alltoall inside the first box: every GPU to each of its peers.
double allToAllIntraShare(const topo::Topology& t, const std::vector<int32_t>& box, double gpuGBps) {
  std::vector<std::pair<int32_t, int32_t>> pairs;
  for (int32_t a : box)
    for (int32_t b : box)
      if (a != b) pairs.emplace_back(a, b);
  return box.size() < 2 ? 1 : patternShare(t, pairs, static_cast<int32_t>(box.size()) - 1, gpuGBps);
}

// Between boxes, every GPU to the GPU of its index in the next `offsets` boxes (all boxes at
// once): with one offset the step of NCCL's rings and trees between boxes, with all of them
// alltoall's traffic as PXN gathers it onto the rails. What the network's spine (oversubscribed,
// or shared by the boxes of a leaf) leaves of a GPU's NIC share. Boxes of unequal sizes: 1.
double networkShare(const topo::Topology& t, const std::vector<std::vector<int32_t>>& boxes, int32_t offsets,
                    double gpuGBps) {
  std::vector<std::pair<int32_t, int32_t>> pairs;
  const auto n = static_cast<int32_t>(boxes.size());
  for (int32_t b = 0; b < n; ++b)
    for (int32_t k = 1; k <= offsets; ++k) {
      const std::vector<int32_t>& to = boxes[static_cast<size_t>((b + k) % n)];
      if (to.size() != boxes[static_cast<size_t>(b)].size()) return 1;
      for (size_t i = 0; i < to.size(); ++i) pairs.emplace_back(boxes[static_cast<size_t>(b)][i], to[i]);
    }
  return n < 2 ? 1 : patternShare(t, pairs, offsets, gpuGBps);
}

}  // namespace

double ncclLinkGBps(const topo::Link& l, Arch arch) {
  const double bw = topo::toDouble(l.bandwidthGBps);
  if (l.linkClass == topo::LinkClass::NVLink) return bw * nccl::nvlinkGBps(arch) / nccl::nvlinkSignallingGBps(arch);
  return bw * kNcclPcieEfficiency;
}

std::vector<NcclBox> ncclBoxes(const topo::Topology& t, double speed, Arch arch) {
  std::vector<NcclBox> boxes(static_cast<size_t>(std::max(t.boxCount(), 1)));
  std::vector<int32_t> local(t.gpus().size());
  for (size_t r = 0; r < t.gpus().size(); ++r) {
    NcclBox& b = boxes[static_cast<size_t>(vertexOf(t, t.gpus()[r]).box)];
    local[r] = static_cast<int32_t>(b.ranks.size());
    b.ranks.push_back(static_cast<int32_t>(r));
  }
  for (NcclBox& b : boxes) b.units.assign(b.ranks.size(), std::vector<int32_t>(b.ranks.size(), 0));
  for (const topo::Link& l : t.links()) {
    const int32_t from = t.rankOf(l.from), to = t.rankOf(l.to);
    const topo::Vertex& a = vertexOf(t, l.from);
    const topo::Vertex& z = vertexOf(t, l.to);
    if (from < 0 || l.linkClass == topo::LinkClass::Network) continue;
    NcclBox& b = boxes[static_cast<size_t>(a.box)];
    if (to < 0) {
      b.switched = b.switched || (z.kind == topo::VertexKind::Switch && z.box == a.box);
      continue;
    }
    if (z.box != a.box) continue;
    b.units[static_cast<size_t>(local[static_cast<size_t>(from)])]
           [static_cast<size_t>(local[static_cast<size_t>(to)])] =
        static_cast<int32_t>(std::floor(ncclLinkGBps(l, arch) / speed + 1e-9));
  }
  return boxes;
}

NcclMachine ncclMachineOf(const topo::Topology& t, Arch arch) {
  NcclMachine m;
  m.ranks = static_cast<int32_t>(t.gpus().size());
  if (m.ranks < 2) throw std::invalid_argument("NCCL's model needs at least 2 GPUs");
  m.nodes = std::max(t.boxCount(), 1);
  m.ppn = static_cast<double>(m.ranks) / m.nodes;
  m.arch = arch == Arch::None ? archOf(t) : arch;

  // The weakest GPU sets every graph's speed, as NCCL takes the minimum over ranks (init.cc l.1435).
  std::vector<GpuLinks> gpus;
  for (int32_t g : t.gpus()) gpus.push_back(linksOf(t, g, m.arch));
  bool anyNvlink = false, allSwitch = true;
  for (const GpuLinks& g : gpus) {
    anyNvlink = anyNvlink || !g.nvlink.empty();
    allSwitch = allSwitch && g.nvswitch;
  }
  m.intraClass = anyNvlink ? topo::LinkClass::NVLink : topo::LinkClass::PCIe;
  auto links = [&](const GpuLinks& g) -> const std::vector<double>& { return anyNvlink ? g.nvlink : g.pcie; };
  double totalBw = -1, maxBw = -1;
  for (const GpuLinks& g : gpus) {
    const double total = sum(links(g));
    const double widest = links(g).empty() ? 0 : *std::max_element(links(g).begin(), links(g).end());
    totalBw = totalBw < 0 ? total : std::min(totalBw, total);
    maxBw = maxBw < 0 ? widest : std::min(maxBw, widest);
  }
  // Channels of speed s the weakest box holds: through a switch, what each GPU's links carry;
  // between direct links, the rings the links' capacity holds (sim/ring_packing.hpp).
  auto intraFit = [&](double s) {
    int32_t fewest = -1;
    for (const NcclBox& box : ncclBoxes(t, s, m.arch)) {
      int32_t n = 0;
      if (box.switched || box.ranks.size() < 3) {
        n = -1;
        for (int32_t r : box.ranks) {
          int32_t own = 0;
          for (double bw : links(gpus[static_cast<size_t>(r)])) own += static_cast<int32_t>(std::floor(bw / s + 1e-9));
          n = n < 0 ? own : std::min(n, own);
        }
      } else {
        n = static_cast<int32_t>(packRings(box.units, kMaxGraphChannels).size());
      }
      fewest = fewest < 0 ? n : std::min(fewest, n);
    }
    return std::max(fewest, 0);
  };

  Graph ring;
  double gpuNetwork = 0;  // one GPU's share of its box's network bandwidth, the spec's GB/s
  double nicRaw = -1;
  std::set<int32_t> boxNics;
  for (size_t r = 0; r < gpus.size(); ++r) {
    // GPUs without a NIC of their own reach the network through another's (PXN).
    if (gpus[r].nic >= 0) nicRaw = nicRaw < 0 ? gpus[r].nicRaw : std::min(nicRaw, gpus[r].nicRaw);
    if (vertexOf(t, t.gpus()[r]).box == vertexOf(t, t.gpus()[0]).box && gpus[r].nic >= 0) boxNics.insert(gpus[r].nic);
  }
  if (m.nodes == 1) {
    ring = searchGraph(nccl::intraSpeeds(m.arch), maxBw, totalBw, intraFit);
  } else if (nicRaw > 0) {
    gpuNetwork = nicRaw * static_cast<double>(boxNics.size()) / m.ppn;
    // Each channel takes s on one NIC, and on the box's own links of every GPU but the one it
    // enters (or leaves) the box at: (ppn - 1) / ppn of the channels per GPU and direction.
    const auto nics = static_cast<int32_t>(boxNics.size());
    // A GPU alone in its box (a data-parallel process group) crosses no link of its box: its NICs
    // alone bound the channels.
    const double boxBw = m.ppn > 1 ? totalBw * m.ppn / (m.ppn - 1) : nicRaw * nics;
    ring = searchGraph(nccl::interSpeeds(m.arch), nicRaw, boxBw, [&](double s) {
      return std::min(nics * static_cast<int32_t>(std::floor(nicRaw / s + 1e-9)),
                      static_cast<int32_t>(std::floor(boxBw / s + 1e-9)));
    });
  } else {
    // Boxes joined by GPU-to-GPU network links (the synthesizers' paper models): a box's network
    // bandwidth shared by its GPUs.
    double boxNetwork = 0;
    for (const topo::Link& l : t.links())
      if (l.linkClass == topo::LinkClass::Network && t.isCompute(l.from) && vertexOf(t, l.from).box == 0 &&
          !(t.isCompute(l.to) && vertexOf(t, l.to).box == 0))
        boxNetwork += topo::toDouble(l.bandwidthGBps);
    const double perGpu = boxNetwork / m.ppn;
    gpuNetwork = perGpu;
    ring = searchGraph(nccl::interSpeeds(m.arch), perGpu, totalBw,
                       [&](double s) { return static_cast<int32_t>(std::floor(boxNetwork / s + 1e-9)); });
  }
  if (ring.channels == 0) ring = {1, std::max(0.1, std::min(maxBw, totalBw))};  // search.cc l.1289-1311
  m.channels = ring.channels;
  m.bwIntra = m.bwInter = ring.speed;
  // ncclTopoDupChannels (search.cc l.1036-1049).
  if (!(m.bwIntra < 25) && !(m.arch != Arch::Sm70 && m.arch != Arch::Sm80 && m.bwIntra < 50 && m.channels > 4)) {
    m.channels = std::min(2 * m.channels, kMaxGraphChannels);
    m.bwIntra /= 2;
    m.bwInter /= 2;
  }
  // Pass 2 on one node (l.1254-1287): a faster speed for the same channels, where it fits.
  if (m.nodes == 1)
    for (double s : nccl::intraSpeeds(m.arch))
      if (s > m.bwIntra && s <= maxBw && intraFit(s) >= m.channels) {
        m.bwIntra = m.bwInter = s;
        break;
      }
  // comm->nChannels (connect.cc l.444-483): the graph's channels twice, and twice again across
  // Hopper+ nodes whose channels run above 45 GB/s.
  m.commChannels = std::min(2 * m.channels, kMaxCommChannels);
  if (m.nodes > 1 && (m.arch == Arch::Sm90 || m.arch == Arch::Sm100) && m.bwIntra > 45 && m.commChannels < 16)
    m.commChannels = std::min(2 * m.commChannels, kMaxCommChannels);

  // NVLS (search.cc l.1124-1138, ncclTopoSearchTryNvls l.410-443): on one node one head per GPU;
  // across nodes one per NIC, at the NIC's GPU, each NIC holding the speed (l.725-771). Every
  // GPU's NVSwitch link carries each head's channel, a head's its own twice. The speeds are the
  // inter-node ones across nodes (system->inter picks the array).
  m.nvls = t.nvls && allSwitch && (m.arch == Arch::Sm90 || m.arch == Arch::Sm100);
  if (m.nvls) {
    const auto heads = m.nodes == 1 ? static_cast<int32_t>(m.ppn)
                                    : std::min(static_cast<int32_t>(m.ppn), static_cast<int32_t>(boxNics.size()));
    m.nvlsHeads = std::min(kMaxGraphChannels, heads);
    for (double s : m.nodes == 1 ? nccl::intraSpeeds(m.arch) : nccl::interSpeeds(m.arch))
      if ((m.nvlsHeads + 1) * s <= totalBw && (m.nodes == 1 || s <= nicRaw)) {
        m.nvlsBwIntra = s;
        break;
      }
    m.nvlsBwInter = m.nvlsBwIntra;
    const std::vector<double>& raise = m.nodes == 1 ? nccl::intraSpeeds(m.arch) : nccl::interSpeeds(m.arch);
    const double limit = m.nodes == 1 ? maxBw : nicRaw;
    for (double s : raise)
      if (s <= 2 * m.nvlsBwIntra && s <= limit) {
        m.nvlsBwInter = std::max(m.nvlsBwInter, s);
        break;
      }
    m.nvls = m.nvlsBwIntra > 0 && m.nvlsHeads > 0;
  }
  m.pat = m.nodes > 1 && m.ranks == m.nodes;
  m.ll128 = m.intraClass == topo::LinkClass::NVLink;

  // The topology's alphas: a GPU's nearest peer in its box; the first box to the second.
  for (int32_t a = 0; a < m.ranks; ++a) {
    std::optional<double> nearest;
    for (int32_t b = 0; b < m.ranks; ++b) {
      if (a == b ||
          vertexOf(t, t.gpus()[static_cast<size_t>(a)]).box != vertexOf(t, t.gpus()[static_cast<size_t>(b)]).box)
        continue;
      if (const std::optional<topo::Route> r = topo::routeBetween(t, a, b))
        nearest = nearest ? std::min(*nearest, r->alphaUs) : r->alphaUs;
    }
    m.intraAlphaUs = std::max(m.intraAlphaUs, nearest.value_or(0));
  }
  std::optional<double> inter;
  for (int32_t b = 0; b < m.ranks && m.nodes > 1; ++b)
    if (vertexOf(t, t.gpus()[static_cast<size_t>(b)]).box != vertexOf(t, t.gpus()[0]).box)
      if (const std::optional<topo::Route> r = topo::routeBetween(t, 0, b))
        inter = inter ? std::min(*inter, r->alphaUs) : r->alphaUs;
  m.interAlphaUs = inter.value_or(0);

  double weakestSpec = -1;
  for (const GpuLinks& g : gpus) {
    const double spec = anyNvlink ? g.nvlinkSpec : g.pcieSpec;
    weakestSpec = weakestSpec < 0 ? spec : std::min(weakestSpec, spec);
  }
  m.gpuIntraSpecGBps = m.gpuIntraGBps = weakestSpec;
  m.gpuNetworkSpecGBps = m.gpuNetworkGBps = gpuNetwork;
  const std::vector<std::vector<int32_t>> boxes = ranksByBox(t);
  m.allToAllIntraShare = allToAllIntraShare(t, boxes.front(), m.gpuIntraSpecGBps);
  if (nicRaw > 0) {
    // Alltoall's boxes beyond the 64 next ones are left out: the work grows with their square.
    m.networkShare = networkShare(t, boxes, 1, m.gpuNetworkSpecGBps);
    m.allToAllNetworkShare = networkShare(t, boxes, std::min(m.nodes - 1, kAllToAllBoxOffsets), m.gpuNetworkSpecGBps);
  }
  return m;
}

void setAchievedRates(NcclMachine& m, const topo::Topology& t, const ModelParameters& p) {
  if (p.arch == Arch::None) {
    m.intraScale = m.interScale = 1;
    m.gpuIntraGBps = m.gpuIntraSpecGBps;
    m.gpuNetworkGBps = m.gpuNetworkSpecGBps;
    return;
  }
  const bool nvlink = m.intraClass == topo::LinkClass::NVLink;
  const double intraEfficiency = nvlink ? p.nvlinkEfficiency : p.pcieEfficiency * (t.gpuP2p ? 1 : p.shmEfficiency);
  const double assumed = nvlink ? nccl::nvlinkGBps(m.arch) / nccl::nvlinkSignallingGBps(m.arch) : kNcclPcieEfficiency;
  m.intraScale = intraEfficiency / assumed;
  m.interScale = p.networkEfficiency / kNcclNetworkEfficiency * m.networkShare;
  m.gpuIntraGBps = m.gpuIntraSpecGBps * intraEfficiency;
  m.gpuNetworkGBps = m.gpuNetworkSpecGBps * p.networkEfficiency;
}

}  // namespace ccforge::sim
