#include "sim/nccl_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ccforge::sim {
namespace {

using nccl::Algorithm;

constexpr ir::Protocol kProtocols[3] = {ir::Protocol::LL, ir::Protocol::LL128, ir::Protocol::Simple};
constexpr Algorithm kAlgorithms[nccl::kAlgorithms] = {Algorithm::Tree, Algorithm::Ring, Algorithm::Nvls,
                                                      Algorithm::NvlsTree, Algorithm::Pat};
constexpr size_t kLL = 0, kLL128 = 1, kSimple = 2;
constexpr double kMinTrafficPerChannel = 32 * 1024;  // enqueue.cc l.585

int log2i(uint64_t v) {
  int l = -1;
  while (v) {
    v >>= 1;
    ++l;
  }
  return l;
}

// One evaluation of tuning.cc's formula: NCCL's view of the machine, or the achieved one.
struct View {
  double bwIntra = 0, bwInter = 0;          // the ring / tree graph
  double nvlsBwIntra = 0, nvlsBwInter = 0;  // the NVLS graph
  double nvlsEfficiency = 0;
  double llScale = 1;
  double ll128Scale = 1;
  double intraLatencyScale = 1, interLatencyScale = 1, nvlsLatencyScale = 1;
  double intraAlphaUs = 0, interAlphaUs = 0;
  double bandwidthFactor = 1;  // the share of the channels the call runs on (achieved view only)
};

View ncclView(const NcclMachine& m) {
  View v;
  v.bwIntra = m.bwIntra;
  v.bwInter = m.bwInter;
  v.nvlsBwIntra = m.nvlsBwIntra;
  v.nvlsBwInter = m.nvlsBwInter;
  v.nvlsEfficiency = nccl::nvlsEfficiency(nccl::generationIndex(m.arch));
  return v;
}

// The achieved view: NCCL's bandwidths scaled by what the machine achieves against what NCCL
// assumes (inside a box, or at the NIC across boxes, where no more than the box's own links carry).
View achievedView(const NcclMachine& m, const ModelParameters& p) {
  View v = ncclView(m);
  if (m.nodes == 1) {
    v.bwIntra = v.bwInter = m.bwIntra * m.intraScale;
    v.nvlsBwInter = m.nvlsBwInter * m.intraScale;
  } else {
    // A box of one GPU has no links of its own to share.
    const double intraPerChannel =
        m.ppn > 1 ? m.gpuIntraGBps / (m.channels * (m.ppn - 1) / m.ppn) : std::numeric_limits<double>::infinity();
    v.bwIntra = std::min(m.bwIntra * m.interScale, intraPerChannel);
    v.bwInter = std::min(m.bwInter * m.interScale, intraPerChannel);
    v.nvlsBwInter = m.nvlsBwInter * m.interScale;
  }
  v.nvlsBwIntra = m.nvlsBwIntra * m.intraScale;
  if (p.arch != Arch::None) v.nvlsEfficiency = p.nvlsEfficiency;
  v.llScale = p.llBandwidthScale;
  v.ll128Scale = p.ll128BandwidthScale;
  v.intraLatencyScale = p.intraLatencyScale;
  v.interLatencyScale = p.interLatencyScale;
  v.nvlsLatencyScale = p.nvlsLatencyScale;
  v.intraAlphaUs = m.intraAlphaUs;
  v.interAlphaUs = m.interAlphaUs;
  return v;
}

bool applies(const NcclMachine& m, semantics::CollectiveType c, Algorithm a, size_t p) {
  const bool allReduce = c == semantics::CollectiveType::AllReduce;
  const bool gatherLike = c == semantics::CollectiveType::AllGather || c == semantics::CollectiveType::ReduceScatter;
  if ((c == semantics::CollectiveType::Broadcast || c == semantics::CollectiveType::Reduce) && a != Algorithm::Ring)
    return false;                                                                                       // l.294
  if (gatherLike && a != Algorithm::Ring && a != Algorithm::Pat && a != Algorithm::Nvls) return false;  // l.295-297
  if (allReduce && a == Algorithm::Pat) return false;                                                   // l.298
  const bool nvlsLike = a == Algorithm::Nvls || a == Algorithm::NvlsTree;
  if ((nvlsLike || a == Algorithm::Pat) && p != kSimple) return false;  // l.301-304
  if (a == Algorithm::Pat && !m.pat) return false;
  if (nvlsLike && (!m.nvls || m.nvlsHeads < 2)) return false;  // l.309
  if (a == Algorithm::NvlsTree && m.nodes == 1) return false;  // l.502
  if (a == Algorithm::Nvls && m.nodes > 1) return false;       // NVLS across nodes needs CollNet (l.504-506)
  if (nvlsLike && !allReduce && m.ppn > 32) return false;      // enqueue.cc l.2004-2005
  return true;
}

// tuning.cc ncclTopoTuneModel (l.288-435) and ncclTopoGetAlgoTime (l.630-655) for one call.
double formulaTime(const NcclMachine& m, const View& v, semantics::CollectiveType c, Algorithm a, size_t p,
                   uint64_t bytes) {
  const double n = m.ranks;
  const bool allReduce = c == semantics::CollectiveType::AllReduce;
  const bool gatherLike = c == semantics::CollectiveType::AllGather || c == semantics::CollectiveType::ReduceScatter;
  const int nsteps = allReduce ? 2 * (m.ranks - 1) : gatherLike ? m.ranks - 1 : m.ranks;  // l.289-291
  const size_t gen = nccl::generationIndex(m.arch);
  const size_t index2 = m.nodes <= 2 ? static_cast<size_t>(m.nodes - 1) : 2;
  const double llMaxBw = nccl::llMaxBw(m.nodes == 1 ? gen : 0, index2) * v.llScale;
  const bool nvlsLike = a == Algorithm::Nvls || a == Algorithm::NvlsTree;
  const double ch = nvlsLike ? m.nvlsHeads : m.channels;

  double bw = m.nodes <= 2 ? v.bwIntra : v.bwInter;  // l.306
  if (nvlsLike) {                                    // l.307-323
    double intraBw = v.nvlsBwIntra * v.nvlsEfficiency * (ch - 1) / ch;
    intraBw *= allReduce ? 2.0 : (m.ppn - 1) / m.ppn;
    const double interBw = v.nvlsBwInter * (m.nodes <= 2 && a == Algorithm::NvlsTree ? 2 : 1);
    bw = std::min(intraBw, interBw);
    if (a == Algorithm::NvlsTree) bw = std::min(bw, nccl::perChMaxNvlsTreeBw(gen, index2));
  }
  double busBw = ch * bw;  // l.324
  if (a == Algorithm::Ring && p == kLL) busBw = std::min(llMaxBw, busBw * 0.5);
  if (a == Algorithm::Ring && p == kLL128)
    busBw = std::min(busBw * 0.92, ch * nccl::perChMaxRingLL128Bw(gen, index2)) * v.ll128Scale;
  if (a == Algorithm::Tree && allReduce) busBw = std::min(busBw * 0.92, ch * nccl::perChMaxTreeBw(gen, index2));
  if (a == Algorithm::Tree && p == kLL) busBw = std::min(busBw / 3.8, llMaxBw);
  if (a == Algorithm::Tree && p == kLL128)
    busBw = std::min(busBw * (m.nodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0), ch * nccl::perChMaxTreeLL128Bw(gen, index2)) *
            v.ll128Scale;
  if (a == Algorithm::Pat) busBw *= 0.75;
  if (!(gatherLike && a != Algorithm::Ring))  // l.377-382
    busBw *= (a == Algorithm::Ring || nvlsLike) ? n / nsteps : 0.5;
  double algBw = busBw * v.bandwidthFactor;

  // Latency (l.384-435).
  double lat = nccl::baseLatency(a, p);
  const size_t intraHw = nvlsLike || m.intraClass == topo::LinkClass::NVLink ? 0 : 1;
  const double intraScale = nvlsLike ? v.nvlsLatencyScale : v.intraLatencyScale;
  const double interScale = nvlsLike ? v.nvlsLatencyScale : v.interLatencyScale;
  double intraLat = nccl::hwLatency(intraHw, a, p) * intraScale + v.intraAlphaUs;
  const double interLat = nccl::hwLatency(2, m.ppn == 1 ? Algorithm::Tree : a, p) * interScale + v.interAlphaUs;
  const int nodeSteps = log2i(static_cast<uint64_t>(m.nodes));
  const int ranksPerNode = m.ranks / m.nodes;
  switch (a) {
    case Algorithm::Ring:
      if (c == semantics::CollectiveType::Broadcast || c == semantics::CollectiveType::Reduce) {
        const size_t hw = m.nodes == 1 ? intraHw : 2;
        const double scale = m.nodes == 1 ? v.intraLatencyScale : v.interLatencyScale;
        lat += nsteps * (nccl::hwLatency(hw, p == kSimple ? Algorithm::Tree : Algorithm::Ring, p) * scale);
      } else {
        if (m.nodes > 1) intraLat = std::max(intraLat, nccl::kNetOverheadUs * (p == kSimple ? 3 : 1));
        const int inter = m.nodes == 1 ? 0 : allReduce ? 2 * (m.nodes - 1) : m.nodes - 1;
        lat += (nsteps - inter) * intraLat + inter * interLat;
      }
      break;
    case Algorithm::Tree: lat += 2 * ((ranksPerNode - 1) * intraLat + nodeSteps * interLat); break;
    case Algorithm::Nvls: lat = intraLat + (m.nodes > 1 ? interLat : 0); break;
    case Algorithm::NvlsTree: lat += intraLat + 2 * nodeSteps * interLat; break;
    case Algorithm::Pat: lat += nodeSteps * (interLat / 3.5) + n * 2.8; break;
  }

  const int logSize = log2i(bytes >> 6);
  if (a == Algorithm::Tree && allReduce && logSize >= 0 && logSize < 23) algBw *= nccl::treeCorrection(p, logSize);
  if (a == Algorithm::NvlsTree && allReduce && logSize >= 0 && logSize < 24 && m.arch == Arch::Sm100)
    algBw *= nccl::treeCorrection(p, logSize);
  if (a == Algorithm::Ring && p == kSimple && m.nodes > 1 && allReduce &&
      bytes / static_cast<uint64_t>(m.commChannels * m.ranks) >= 64)
    lat *= m.arch == Arch::Sm70 ? 1.9 : 1.4;
  return lat + static_cast<double>(bytes) / (1000 * algBw);
}

// The chunk one NVLS or NVLSTree step moves per channel and head (enqueue.cc l.2259-2285): NCCL_NVLS_CHUNKSIZE
// (128 KiB, nvls.cc l.160), NVLSTree's capped at 64 KiB from 4 nodes (treeMaxChunkSize, nvls.cc
// l.226-229; the SM100 multi-node tuning of l.163-199 is not modelled), then halved for a call
// that fills few rounds of `ops` (channels x heads) concurrent steps.
uint64_t nvlsChunkBytes(const NcclMachine& m, Algorithm a, uint64_t ops, uint64_t bytes) {
  constexpr uint64_t kFull = 128 * 1024;
  uint64_t c = kFull;
  if (a == Algorithm::Nvls) {
    if (bytes < 64 * ops * c && c > kFull / 2) c = kFull / 2;
    if (bytes < 8 * ops * c && c > kFull / 4) c = kFull / 4;
    if (bytes < 2 * ops * c && c > kFull / 8) c = kFull / 8;
    return c;
  }
  if (m.nodes >= 4) c = kFull / 2;
  if (bytes < 4 * ops * c && c > kFull / 2) c = kFull / 2;
  if (bytes < ops * c && c > kFull / 4) c = kFull / 4;
  return c;
}

// What the steps of a chunk smaller than the full one add to an NVLS or NVLSTree call
// (ModelParameters::nvlsStepUs): the bandwidth NCCL's formula gives is what the full chunk achieves.
double nvlsSmallChunkUs(const NcclMachine& m, Algorithm a, int32_t channels, uint64_t bytes, double stepUs) {
  if ((a != Algorithm::Nvls && a != Algorithm::NvlsTree) || stepUs <= 0) return 0;
  const auto ops = static_cast<uint64_t>(std::max(channels, 1)) * static_cast<uint64_t>(std::max(m.nvlsHeads, 1));
  const double bytesPerOp = static_cast<double>(bytes) / static_cast<double>(ops);
  const auto full = static_cast<double>(nvlsChunkBytes(m, a, ops, std::numeric_limits<uint64_t>::max()));
  const auto chunk = static_cast<double>(nvlsChunkBytes(m, a, ops, bytes));
  return stepUs * (bytesPerOp / chunk - bytesPerOp / full);
}

// The channels (CTAs) a call runs on: comm->nChannels within NCCL_MIN/MAX_NCHANNELS, NVLS's own
// CTA count, and at least 32 KiB of traffic per channel (enqueue.cc l.576-760).
int32_t channelsOf(const NcclSetup& s, semantics::CollectiveType c, Algorithm a, size_t p, uint64_t bytes) {
  const NcclMachine& m = s.machine;
  int32_t budget = m.commChannels;
  if (s.environment.maxChannels) budget = std::min(budget, *s.environment.maxChannels);
  if (s.environment.minChannels) budget = std::max(budget, std::min(*s.environment.minChannels, 64));
  if (a == Algorithm::Nvls || a == Algorithm::NvlsTree) budget = nccl::nvlsChannels(m.arch, m.nodes);
  const double perByte = c == semantics::CollectiveType::AllReduce ? 2 : 1;
  const double traffic = static_cast<double>(bytes) * perByte * (p == kLL ? 4 : 1);
  const auto wanted = static_cast<int32_t>(std::ceil(traffic / kMinTrafficPerChannel));
  return std::clamp(wanted, 1, std::max(budget, 1));
}

bool enabled(const NcclSetup& s, semantics::CollectiveType c, Algorithm a, size_t p) {
  if (!s.environment.algorithmOn(c, a)) return false;
  if (s.environment.nvls && !*s.environment.nvls && (a == Algorithm::Nvls || a == Algorithm::NvlsTree)) return false;
  const std::optional<bool> protocol = s.environment.protocolOn(c, p);
  if (protocol) return *protocol;
  return p != kLL128 || s.machine.ll128;  // LL128 on by default only where tuning.cc's checks pass
}

std::string lowerName(Algorithm a) {
  std::string out(nccl::algorithmName(a));
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

// Alltoall as NCCL runs it, grouped sends and receives: every rank sends size/ranks to each peer,
// its box's peers over its own links (plus what PXN relays for the peers on other boxes), the
// others through the NIC of the receiver's rail into the receiver's own NIC. One launch, then the
// peers in turn: a hop's latency for each peer of the box and each other box (whose peers the
// rails serve at once).
double allToAllTime(const NcclMachine& m, double intraGBps, double networkGBps, const View& v, uint64_t bytes) {
  const double share = static_cast<double>(bytes) / m.ranks;
  const double remote = m.ranks - m.ppn;
  const double intra = m.ppn > 1 ? ((m.ppn - 1) * share + remote * share * (m.ppn - 1) / m.ppn) /
                                       (1000 * intraGBps * m.allToAllIntraShare)
                                 : 0;
  const double inter = m.nodes > 1 ? remote * share / (1000 * networkGBps * m.allToAllNetworkShare) : 0;
  const size_t intraHw = m.intraClass == topo::LinkClass::NVLink ? 0 : 1;
  const double intraHop = nccl::hwLatency(intraHw, Algorithm::Ring, kSimple) * v.intraLatencyScale + v.intraAlphaUs;
  const double interHop = nccl::hwLatency(2, Algorithm::Ring, kSimple) * v.interLatencyScale + v.interAlphaUs;
  const double lat = (m.ppn - 1) * intraHop + (m.nodes - 1) * interHop;
  return nccl::baseLatency(Algorithm::Ring, kSimple) + lat + std::max(intra, inter);
}

// A call's time from its GPU time: the parameters' floor, added in full under GROUP launch.
double callUs(const NcclSetup& s, double gpuUs, int32_t gpusPerThread) {
  if (!s.environment.groupLaunch) return s.parameters.callUs(gpuUs, gpusPerThread);
  return gpuUs + s.parameters.floorUs(gpusPerThread);
}

}  // namespace

NcclSetup ncclSetup(const topo::Topology& topology, const ModelParameters& parameters, NcclEnvironment environment) {
  NcclMachine machine = ncclMachineOf(topology, parameters.arch);
  setAchievedRates(machine, topology, parameters);
  return {machine, parameters, std::move(environment)};
}

std::vector<NcclChoice> ncclOptions(const NcclSetup& s, const NcclCall& call) {
  const NcclMachine& m = s.machine;
  std::vector<NcclChoice> out;
  if (call.collective == semantics::CollectiveType::AllToAll) {
    const View nccl = ncclView(m), achieved = achievedView(m, s.parameters);
    // NCCL's own view: its per-link NVLink speed and the NICs at the speed its search runs them.
    const double assumedIntra = m.intraScale > 0 ? m.gpuIntraGBps / m.intraScale : m.gpuIntraGBps;
    const double assumedNetwork = m.interScale > 0 ? m.gpuNetworkGBps / m.interScale : m.gpuNetworkGBps;
    NcclChoice c;
    c.algorithm = "p2p";
    c.protocol = ir::Protocol::Simple;
    c.ncclTimeUs = allToAllTime(m, assumedIntra, assumedNetwork, nccl, call.bytes);
    c.timeUs = callUs(s, allToAllTime(m, m.gpuIntraGBps, m.gpuNetworkGBps, achieved, call.bytes), call.gpusPerThread);
    c.channels = m.commChannels;
    out.push_back(c);
    return out;
  }
  switch (call.collective) {
    case semantics::CollectiveType::AllReduce:
    case semantics::CollectiveType::AllGather:
    case semantics::CollectiveType::ReduceScatter:
    case semantics::CollectiveType::Broadcast:
    case semantics::CollectiveType::Reduce: break;
    default:
      throw std::invalid_argument("NCCL has no " + std::string(collectiveTypeName(call.collective)) +
                                  " collective (the model covers allreduce, allgather, reducescatter, alltoall, "
                                  "broadcast and reduce)");
  }
  View nccl = ncclView(m);
  nccl.llScale = s.parameters.llChoiceScale;
  nccl.ll128Scale = s.parameters.ll128ChoiceScale;
  for (Algorithm a : kAlgorithms)
    for (size_t p = 0; p < 3; ++p) {
      if (!applies(m, call.collective, a, p) || !enabled(s, call.collective, a, p)) continue;
      View achieved = achievedView(m, s.parameters);
      const int32_t channels = channelsOf(s, call.collective, a, p, call.bytes);
      const int32_t full =
          a == Algorithm::Nvls || a == Algorithm::NvlsTree ? nccl::nvlsChannels(m.arch, m.nodes) : m.commChannels;
      achieved.bandwidthFactor = std::min(1.0, static_cast<double>(channels) / full);
      NcclChoice c;
      c.algorithm = lowerName(a);
      c.protocol = kProtocols[p];
      c.ncclTimeUs = formulaTime(m, nccl, call.collective, a, p, call.bytes);
      const double gpuUs = formulaTime(m, achieved, call.collective, a, p, call.bytes) +
                           nvlsSmallChunkUs(m, a, channels, call.bytes, s.parameters.nvlsStepUs);
      c.timeUs = callUs(s, gpuUs, call.gpusPerThread);
      c.channels = channels;
      out.push_back(c);
    }
  if (out.empty())
    throw std::invalid_argument("the NCCL environment (" + std::to_string(s.environment.settings.size()) +
                                " settings) leaves no algorithm and protocol NCCL could run for " +
                                std::string(collectiveTypeName(call.collective)) + " on this machine");
  return out;
}

NcclChoice ncclChoice(const NcclSetup& s, const NcclCall& call) {
  const std::vector<NcclChoice> options = ncclOptions(s, call);
  const NcclChoice* best = &options.front();
  for (const NcclChoice& c : options)
    if (c.ncclTimeUs < best->ncclTimeUs) best = &c;
  return *best;
}

}  // namespace ccforge::sim
