#include "sim/nccl_machine.hpp"

#include <algorithm>
#include <cmath>
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
constexpr int32_t kMaxGraphChannels = 32;  // MAXCHANNELS / 2 (init.cc l.1173-1217)
constexpr int32_t kMaxCommChannels = 64;   // MAXCHANNELS

const topo::Vertex& vertexOf(const topo::Topology& t, int32_t v) { return t.vertices()[static_cast<size_t>(v)]; }

// One GPU's links as NCCL's search weighs them: NVLink or PCIe links to GPUs and switches of its
// own box, and its NIC.
struct GpuLinks {
  std::vector<double> nvlink;  // NCCL's GB/s per link (to a GPU or an NVSwitch)
  bool nvswitch = false;       // one of them goes to a switch
  std::vector<double> pcie;    // NCCL's GB/s
  double nvlinkSpec = 0, pcieSpec = 0;  // the spec's GB/s, summed
  double nicRaw = 0;           // min(GPU-NIC link, NIC-switch link), the spec's GB/s; 0: no NIC
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
    b.units[static_cast<size_t>(local[static_cast<size_t>(from)])][static_cast<size_t>(local[static_cast<size_t>(to)])] =
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
  double nicRaw = -1;
  std::set<int32_t> boxNics;
  for (size_t r = 0; r < gpus.size(); ++r) {
    nicRaw = nicRaw < 0 ? gpus[r].nicRaw : std::min(nicRaw, gpus[r].nicRaw);
    if (vertexOf(t, t.gpus()[r]).box == vertexOf(t, t.gpus()[0]).box && gpus[r].nic >= 0) boxNics.insert(gpus[r].nic);
  }
  if (m.nodes == 1) {
    ring = searchGraph(nccl::intraSpeeds(m.arch), maxBw, totalBw, intraFit);
  } else if (nicRaw > 0) {
    // Each channel takes s on one NIC, and on the box's own links of every GPU but the one it
    // enters (or leaves) the box at: (ppn - 1) / ppn of the channels per GPU and direction.
    const auto nics = static_cast<int32_t>(boxNics.size());
    const double intraShare = m.ppn > 1 ? (m.ppn - 1) / m.ppn : 1;
    ring = searchGraph(nccl::interSpeeds(m.arch), nicRaw, totalBw / intraShare, [&](double s) {
      return std::min(nics * static_cast<int32_t>(std::floor(nicRaw / s + 1e-9)),
                      static_cast<int32_t>(std::floor(totalBw / (s * intraShare) + 1e-9)));
    });
  } else {
    // Boxes joined by GPU-to-GPU network links (the synthesizers' paper models): a box's network
    // bandwidth shared by its GPUs.
    double boxNetwork = 0;
    for (const topo::Link& l : t.links())
      if (l.linkClass == topo::LinkClass::Network && vertexOf(t, l.from).box == 0 && vertexOf(t, l.to).box != 0)
        boxNetwork += topo::toDouble(l.bandwidthGBps);
    const double perGpu = boxNetwork / m.ppn;
    ring = searchGraph(nccl::interSpeeds(m.arch), perGpu, totalBw, [&](double s) {
      return static_cast<int32_t>(std::floor(boxNetwork / s + 1e-9));
    });
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

  // NVLS (search.cc l.1124-1138): one head per GPU of a box, each head's NVSwitch link carrying
  // its own channel and the others'.
  m.nvls = t.nvls && allSwitch && (m.arch == Arch::Sm90 || m.arch == Arch::Sm100);
  if (m.nvls) {
    m.nvlsHeads = std::min(kMaxGraphChannels, static_cast<int32_t>(m.ppn));
    for (double s : nccl::intraSpeeds(m.arch))
      if ((m.ppn + 1) * s <= totalBw) {
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
    m.nvls = m.nvlsBwIntra > 0;
  }
  m.pat = m.nodes > 1 && m.ranks == m.nodes;
  m.ll128 = m.intraClass == topo::LinkClass::NVLink;

  // The topology's alphas: a GPU's nearest peer in its box; the first box to the second.
  for (int32_t a = 0; a < m.ranks; ++a) {
    std::optional<double> nearest;
    for (int32_t b = 0; b < m.ranks; ++b) {
      if (a == b || vertexOf(t, t.gpus()[static_cast<size_t>(a)]).box != vertexOf(t, t.gpus()[static_cast<size_t>(b)]).box)
        continue;
      if (const std::optional<topo::Route> r = topo::routeBetween(t, a, b))
        nearest = nearest ? std::min(*nearest, r->alphaUs) : r->alphaUs;
    }
    m.intraAlphaUs = std::max(m.intraAlphaUs, nearest.value_or(0));
  }
  std::optional<double> inter;
  for (int32_t b = 0; b < m.ranks && m.nodes > 1; ++b)
    if (vertexOf(t, t.gpus()[static_cast<size_t>(b)]).box != vertexOf(t, t.gpus()[0]).box)
      if (const std::optional<topo::Route> r = topo::routeBetween(t, 0, b)) inter = inter ? std::min(*inter, r->alphaUs) : r->alphaUs;
  m.interAlphaUs = inter.value_or(0);

  double weakestSpec = -1;
  for (const GpuLinks& g : gpus) {
    const double spec = anyNvlink ? g.nvlinkSpec : g.pcieSpec;
    weakestSpec = weakestSpec < 0 ? spec : std::min(weakestSpec, spec);
  }
  m.gpuIntraSpecGBps = m.gpuIntraGBps = weakestSpec;
  m.gpuNetworkSpecGBps = m.gpuNetworkGBps = std::max(nicRaw, 0.0) * static_cast<double>(boxNics.size()) / m.ppn;
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
  m.interScale = p.networkEfficiency / kNcclNetworkEfficiency;
  m.gpuIntraGBps = m.gpuIntraSpecGBps * intraEfficiency;
  m.gpuNetworkGBps = m.gpuNetworkSpecGBps * p.networkEfficiency;
}

}  // namespace ccforge::sim
